r"""Dopo «il gatto dorme sul …» il modello dà a ogni token del vocabolario un
**logit**, un punteggio qualsiasi, positivo o negativo. La **softmax** lo
trasforma in probabilità: eleva e a ogni punteggio e divide per la somma,
così i numeri diventano positivi e sommano a 1. Qui i candidati sono sei.

$$p_i = \frac{e^{z_i}}{\sum_{j=1}^{6} e^{z_j}}$$

Prima, però, si sottrae il punteggio più alto a tutti. Il risultato non
cambia (è come dividere numeratore e denominatore per lo stesso numero), ma
i conti sì: e^1000 è troppo grande per un numero del computer e darebbe un
overflow, mentre dopo la sottrazione ogni esponente è ≤ 0 e ogni
esponenziale sta tra 0 e 1. Prova ad aggiungere 1.000 a tutti i logit: la
colonna «senza sottrarre» esplode, le probabilità restano identiche.

La **temperatura** T divide i logit prima della softmax. Con T < 1 le
differenze si ingrandiscono e il primo candidato si prende quasi tutto; con
T > 1 si appiattiscono e i sei token si avvicinano a 1/6 ciascuno. [Il
grafico della temperatura](#vista-temperatura) segue la probabilità del primo al variare di T (clicca un
punto per passare a quella temperatura). I **candidati effettivi** sono la
perplexity della distribuzione, e elevato alla sua entropia: 1 quando un
token prende tutto, 6 quando sono tutti alla pari.

$$p_i = \frac{e^{z_i / T}}{\sum_{j} e^{z_j / T}}$$

La temperatura conta solo quando il modello genera testo; il training e la
loss usano sempre T = 1. La scelta **greedy** prende sempre il token più
probabile, e allora T non cambia niente. Il **campionamento** estrae invece
un token a caso secondo le probabilità: «letto» esce ogni tanto anche se
«divano» è in testa, e T decide quanto spesso. Bassa dà un testo prevedibile
e ripetitivo, alta un testo vario, fino al bizzarro.

In questo laboratorio il campionamento lo facciamo davvero: **Estrai** tira 20 numeri
casuali con il seme scelto e per ciascuno prende il token sulla cui fetta
cade. Le barre piene contano quante volte è uscito ogni token, il contorno
tratteggiato è la sua probabilità. Con 20 estrazioni le frequenze ballano
attorno alle probabilità; alza il numero di estrazioni e vedrai le barre
avvicinarsi ai contorni. Poi abbassa T: «divano» esce quasi sempre.
"""

import math

from core.sampling import counts
from core.sampling import draw
from core.softmax import entropy
from core.softmax import naive_exp
from core.softmax import softmax
from core.softmax import softmax_steps
from labs.kit import Bar
from labs.kit import Case
from labs.kit import Edit
from labs.kit import Exercise
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Marker
from labs.kit import Question
from labs.kit import Series
from labs.kit import Slider
from labs.kit import Wrong
from labs.kit import bars
from labs.kit import callout
from labs.kit import formula
from labs.kit import line_chart
from labs.kit import num
from labs.kit import panel
from labs.kit import percent
from labs.kit import plural
from labs.kit import share
from labs.kit import significant
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag
from labs.kit import the
from labs.kit.italian import shares

TITLE = "Softmax e temperatura"
REF = "9E"

CANDIDATES = (("divano", 3.0), ("letto", 2.5), ("pavimento", 1.5), ("tavolo", 1.0), ("tetto", 0.0), ("prato", -1.0))
NAMES = tuple(name for name, _ in CANDIDATES)
T_MIN, T_MAX = 0.1, 5.0
T_GRID = tuple(T_MIN * (T_MAX / T_MIN) ** (k / 60) for k in range(61))  # even on a log axis
T_MARKED = (0.1, 0.5, 1.0, 2.0, 5.0)
T_TICKS = tuple((v, num(v, 1 if v < 1 else 0)) for v in (0.1, 0.2, 0.5, 1, 2, 5))
SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")

CONTROLS = [
    Slider("temperatura", "Temperatura T", T_MIN, T_MAX, 0.05, 1.0, primary=True),
    Slider(
        "aggiunta",
        "Aggiungi a tutti i logit",
        0,
        1000,
        100,
        0,
        help="Stesse probabilità, ma senza la sottrazione del massimo gli esponenziali esplodono",
    ),
    Group(
        "Logit dei candidati",
        tuple(Slider(name, f"«{name}»", -5.0, 10.0, 0.1, z) for name, z in CANDIDATES),
        open=False,
    ),
    Group(
        "Campionamento vero",
        (
            Slider("estrazioni", "Token da estrarre", 1, 500, 1, 20),
            Slider("seme", "Seme dei numeri casuali", 1, 999, 1, 1),
        ),
    ),
]


def compute(params):
    """La softmax con temperatura dei sei logit, passo per passo, e le estrazioni."""
    t, extra = params["temperatura"], params["aggiunta"]
    z = [params[name] + extra for name in NAMES]
    steps = softmax_steps(z, t)
    p = softmax(z, t)
    top = max(range(len(p)), key=p.__getitem__)
    naive = [naive_exp(s) for s in steps["scaled"]]
    drawn = draw(p, params["estrazioni"], params["seme"])
    return {
        "t": t,
        "extra": extra,
        "names": list(NAMES),
        "logits": z,
        **steps,
        "probs": p,
        "top": top,
        "seed": params["seme"],
        "drawn": drawn,
        "counts": counts(drawn, len(NAMES)),
        "naive": naive,
        "overflow": any(e is None for e in naive),
        "entropy": entropy(p),
        "effective": math.exp(entropy(p)),  # the perplexity: among how many tokens the choice hesitates
        "top_curve": [max(softmax(z, temp)) for temp in T_GRID],
        "top_marked": [max(softmax(z, temp)) for temp in T_MARKED],
    }


def big(x):
    """A positive number of any size, the Italian way, with three significant digits: 20,1 or 2,69 × 10⁴³;
    None means it does not fit in a float."""
    if x is None:
        return "overflow!"
    if x == 0 or 1e-3 <= x < 1e6:
        return significant(x, 3)
    k = math.floor(math.log10(x))
    return f"{num(x / 10**k, 2)} × 10{str(k).translate(SUPERSCRIPT)}"


def chart(s):
    marked = Series(
        "",
        tuple(zip(T_MARKED, s["top_marked"])),
        class_="target",
        line=False,
        actions=tuple((f"temperatura={temp:g}", f"Porta T a {num(temp, 1)}") for temp in T_MARKED),
    )
    here = Series(f"T = {num(s['t'])}", ((s["t"], s["probs"][s["top"]]),), class_="s2", markers=True, line=False)
    return line_chart(
        [Series("probabilità del primo candidato", tuple(zip(T_GRID, s["top_curve"])), class_="s1"), marked, here],
        markers=[Marker(1 / len(s["names"]), "tutti uguali: 1/6", class_="muted", axis="y")],
        x_log=True,
        x_range=(T_MIN, T_MAX),
        y_range=(0, 1),
        x_ticks=T_TICKS,
        y_ticks=tuple((v, percent(v)) for v in (0, 0.25, 0.5, 0.75, 1)),
        x_label="temperatura T (scala logaritmica)",
        y_label="probabilità",
        height=260,
        label="Probabilità del candidato più forte al variare della temperatura",
    )


def odds(s):
    """How often sampling picks the leader, in words that never read 100 % when it is not."""
    names, top, p = s["names"], s["top"], s["probs"]
    rest = math.fsum(q for i, q in enumerate(p) if i != top)  # summed, not 1 − p: a tiny rest stays exact
    lead = share(p[top])
    if rest < 5e-7:  # the leader's share would need more than six decimals (or is 1.0 in floats): words
        return (
            f"Greedy: sempre «{names[top]}». Campionando esce praticamente sempre «{names[top]}»: gli altri, "
            f"tutti insieme, hanno una probabilità di {share(rest)}."
        )
    return (
        f"Greedy: sempre «{names[top]}». Campionando: «{names[top]}» esce in media {the(lead)} delle volte, "
        f"gli altri insieme {the(share(rest))}."
    )


def sampling(s):
    """The real draws: how many times each token came out, against its probability."""
    n, names = len(s["drawn"]), s["names"]
    rows = [
        Bar(f"«{name}»", c / n, text=f"{c} su {num(n)}  ·  p = {shown}", class_="s2", before=q)
        for name, c, q, shown in zip(names, s["counts"], s["probs"], shares(s["probs"], 1))
    ]
    shown = s["drawn"][:60]
    sequence = " ".join(names[i] for i in shown) + (" …" if n > len(shown) else "")
    more = tag(
        "button",
        "Estrai un altro token" if n == 1 else f"Estrai altri {num(n)} token",
        type="button",
        class_="md-button",
        data_set=f"seme={s['seed'] % 999 + 1}",
        title=f"Estrai di nuovo con il seme {s['seed'] % 999 + 1}",
    )
    return tag(
        "section",
        tag("h3", f"Campionamento vero: {plural(n, 'token estratto', 'token estratti')} con il seme {s['seed']}"),
        tag("p", sequence, class_="lab-formula", data_part="estratti"),
        more,
        bars(
            rows,
            label=f"Quante volte è uscito ogni token su {num(n)} estrazioni (barre) e la sua probabilità (contorno)",
            before_label="probabilità",
            part="conteggi",
        ),
        tag(
            "p",
            f"Frequenza = volte / {num(n)}. Con poche estrazioni le barre ballano attorno ai contorni; con "
            "tante ci si avvicinano.",
            class_="lab-step-counter",
        ),
    )


def view(s):
    t, names, top = s["t"], s["names"], s["top"]
    tokens = [tag("strong", f"«{n}»") if i == top else f"«{n}»" for i, n in enumerate(names)]
    rows = [
        [token, num(z, 1), num(q), num(d), big(e)]
        for token, z, q, d, e in zip(tokens, s["logits"], s["scaled"], s["shifted"], s["exps"])
    ]
    # a table of its own, three columns: on a phone it fits beside the token's name, no sideways scroll
    naive_rows = [[token, big(e), big(naive)] for token, e, naive in zip(tokens, s["exps"], s["naive"])]
    probs = [
        Bar(f"«{n}»", q, text=shown, class_="s1" if i == top else "target", highlight=i == top)
        for i, (n, q, shown) in enumerate(zip(names, s["probs"], shares(s["probs"], 1)))
    ]
    return panel(
        stats(
            stat("Temperatura T", num(t)),
            stat(f"p(«{names[top]}»)", percent(s["probs"][top], 1)),
            stat("Candidati effettivi (e^entropia)", num(s["effective"], 1)),
        ),
        tag("h3", "La softmax, un passo alla volta"),
        table(["Token", "1. logit z", "2. z / T", "3. meno il massimo", "4. e^(…)"], rows),
        formula(
            f"il massimo di z / T è {num(s['max'])};   5. somma degli esponenziali = {num(s['total'], 3)};   "
            f"p(«{names[top]}») = {num(s['exps'][top], 3)} / {num(s['total'], 3)} = {num(s['probs'][top], 3)}"
        ),
        tag(
            "div",
            tag("h3", "E senza sottrarre il massimo? e^(z / T)"),
            table(["Token", "con la sottrazione", "senza sottrarre"], naive_rows, wrap=(1, 2)),
            callout(
                "Senza la sottrazione del massimo almeno un esponenziale supera il numero più grande che il "
                "computer sa scrivere (circa 1,8 × 10³⁰⁸): verrebbe infinito, e la divisione darebbe un "
                "risultato senza senso. Con la sottrazione ogni esponenziale sta tra 0 e 1.",
                tone="error",
            )
            if s["overflow"]
            else None,
            id="vista-senza-sottrarre",
        ),
        tag("h3", "6. Probabilità: ogni esponenziale diviso per la somma"),
        bars(probs, label=f"Probabilità dei sei candidati con T = {num(t)}", part="probabilita"),
        callout(odds(s)),
        sampling(s),
        tag("h3", "Il primo candidato al variare di T"),
        tag("div", chart(s), id="vista-temperatura"),  # the prose links here
        part="softmax",
    )


EDITS = [
    Edit(
        "la softmax senza togliere il massimo",
        change=("shifted = [s - top for s in scaled]", "shifted = scaled"),
        expect="Con +1000 su ogni logit, e^1000 non sta in un numero in virgola mobile: il pannello segnala "
        "l'overflow alla riga di math.exp. Il codice originale toglie il massimo e dà le stesse "
        "probabilità di prima.",
        params={"aggiunta": 1000},
        check=lambda before, after: before.error is None and "overflow" in after.error,
    ),
    Edit(
        "la temperatura che moltiplica invece di dividere",
        change=("scaled = [z / temperature for z in logits]", "scaled = [z * temperature for z in logits]"),
        expect="Con T = 2 la distribuzione si fa più appuntita invece di appiattirsi: «divano» sale al 70 % "
        "circa invece di scendere al 34 %, e l'entropia diminuisce.",
        params={"temperatura": 2},
        check=lambda before, after: (
            after.state["entropy"] < before.state["entropy"]
            and after.state["probs"][0] > 0.65 > 0.4 > before.state["probs"][0]
        ),
    ),
]

EXPERIMENTS = [
    Experiment(
        "Aggiungi 1.000 a tutti i logit: la colonna «senza sottrarre» va in overflow, le probabilità restano le stesse.",
        {"aggiunta": 1000, "temperatura": 1.0},
        "vista-senza-sottrarre",
        lambda s: s["overflow"] and round(s["probs"][0], 4) == 0.4919,
        after="le probabilità restano identiche",
    ),
    Experiment(
        "Con T = 0,1 «divano» si prende più del 99 % della probabilità.",
        {"temperatura": 0.1, "aggiunta": 0},
        "vista-temperatura",
        lambda s: s["probs"][0] > 0.99,
        after="il primo candidato si prende quasi tutto",
        predict=Question(
            "Con T = 1 «divano» ha il 49 % della probabilità. Che cosa gli succede se abbassi T fino a 0,1?",
            ("scende verso un sesto, come gli altri", "resta più o meno al 49 %", "sale oltre il 99 %"),
            2,
            "Dividere per 0,1 moltiplica per dieci le distanze tra i logit: mezzo punto di vantaggio su «letto» "
            "diventa cinque, e e⁻⁵ è meno di un centesimo. Il primo si prende quasi tutto.",
        ),
    ),
    Experiment(
        "Con 500 estrazioni ogni frequenza sta a meno di 2 punti percentuali dalla sua probabilità.",
        {"estrazioni": 500, "seme": 1, "temperatura": 1.0},
        "conteggi",
        lambda s: all(abs(c / 500 - p) < 0.02 for c, p in zip(s["counts"], s["probs"])),
        after="avvicinarsi ai contorni",
    ),
]

EXERCISES = [
    Exercise(
        softmax,
        task="Scrivi la softmax con temperatura: dividi ogni logit per T, togli il più grande, eleva e a ogni "
        "numero e dividi ciascuno per la somma. Quando passa le verifiche, le barre delle probabilità e la curva "
        "della temperatura vengono dalla tua funzione.",
        doc="Le probabilità exp(zᵢ/T) / Σⱼ exp(zⱼ/T) dei logit, con la temperatura T.",
        hints=(
            "Comincia da una lista: `scaled = [z / temperature for z in logits]`.",
            "Togli il massimo a ogni elemento prima di `math.exp`: così nessun esponenziale supera 1.",
            "Alla fine dividi ogni esponenziale per la loro somma (`sum` o `math.fsum`).",
        ),
        cases=(
            Case(([1.0, 2.0, 3.0],), "tre logit diversi"),
            Case(([0.0, 0.0, 0.0, 0.0],), "tutti uguali: un pareggio"),
            Case(([5.0],), "un solo logit"),
            Case(([1000.0, 999.0, 0.0],), "logit enormi"),
            Case(([-1000.0, -1001.0],), "logit molto negativi"),
            Case(([3.0, 2.5, 1.5, 1.0, 0.0, -1.0], 0.1), "temperatura bassa"),
            Case(([3.0, 2.5, 1.5, 1.0, 0.0, -1.0], 5.0), "temperatura alta"),
        ),
        random=lambda rng: ([rng.uniform(-8, 8) for _ in range(rng.randint(2, 8))], rng.choice((0.5, 1.0, 2.0))),
        count=20,
        tolerance=1e-9,
        wrong=(
            Wrong(
                """
def softmax(logits, temperature=1.0):
    exps = [math.exp(z / temperature) for z in logits]
    total = sum(exps)
    return [e / total for e in exps]
""",
                "Senza togliere il massimo, e elevato a un logit grande non sta in un numero del computer "
                "(overflow). Togli il logit più grande a tutti prima di math.exp: il risultato non cambia.",
            ),
            Wrong(
                """
def softmax(logits, temperature=1.0):
    top = max(logits)
    exps = [math.exp((z - top) * temperature) for z in logits]
    total = sum(exps)
    return [e / total for e in exps]
""",
                "La temperatura divide i logit, non li moltiplica: con T = 2 la distribuzione deve appiattirsi.",
            ),
            Wrong(
                """
def softmax(logits, temperature=1.0):
    top = max(logits)
    return [math.exp((z - top) / temperature) for z in logits]
""",
                "Gli esponenziali vanno divisi per la loro somma: solo così le probabilità sommano a 1.",
            ),
        ),
    ),
]
