"""`python -m labs new <capitolo> <id> "Titolo"`: a new lab module that
already builds, renders and passes the contract tests, for the author to
rewrite. Its comments point at the kit components to use."""

import json
import keyword
import re
from pathlib import Path

from .kit.errors import ContractError
from .kit.errors import place
from .registry import ref_key

ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")

TEMPLATE = '''"""Questa è la prosa della pagina, in Markdown e in italiano: il lettore
la legge prima di usare il laboratorio. Riscrivila con le tue parole: che cosa sta
guardando, quale comando conviene toccare per primo e quale numero deve
tenere d'occhio mentre lo muove.

Lo scheletro di questo modulo moltiplica un **ingresso** per un **peso** e, se
vuoi, confronta il prodotto con una **soglia**. È un segnaposto: sostituisci
i conti e la vista con i tuoi, e tieni il laboratorio verde ad ogni passo
(`python -m labs run {lab_id}` e i test di contratto).
"""

# Il contratto riga per riga e ogni componente del kit, con un esempio
# disegnato: la pagina «Scrivere un laboratorio» del sito.
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Slider
from labs.kit import Toggle
from labs.kit import callout
from labs.kit import factor
from labs.kit import formula
from labs.kit import num
from labs.kit import stat
from labs.kit import stats
from labs.kit import tag

TITLE = {title}
REF = {ref}  # il numero nella guida: unico, e di questo capitolo

# Comandi dichiarati, mai scritti in HTML: Slider(nome, etichetta, min, max, step,
# valore iniziale), Choice(nome, etichetta, ((valore, etichetta), ...), valore
# iniziale), Text, Toggle, Group("Titolo", (...)); Steps(max=...) per i passi.
CONTROLS = [
    Slider("ingresso", "Ingresso x", -2.0, 2.0, 0.1, 1.0),
    Slider("peso", "Peso w", -2.0, 2.0, 0.1, 0.5, help="Quanto conta l'ingresso"),
    Toggle("soglia", "Confronta con la soglia 0,5", True),
]


def compute(params):
    """Parametri → stato, puro e fatto di soli valori JSON.

    Niente file, rete, caso senza seme o variabili globali; la matematica va in core/.
    """
    product = params["ingresso"] * params["peso"]
    return {{
        "x": params["ingresso"],
        "w": params["peso"],
        "product": product,
        "threshold": 0.5 if params["soglia"] else None,
    }}


def view(state):
    """Stato → Html, solo con i componenti del kit (che fanno l'escape del testo).

    stat e stats per i numeri, formula per un conto, callout per un messaggio;
    per le figure bars, line_chart, plane, matrix, network, chain; panel per un riquadro con il suo
    titolo, columns per due riquadri affiancati.
    """
    x, w, y = state["x"], state["w"], state["product"]
    parts = [
        stats(stat("ingresso x", num(x)), stat("peso w", num(w)), stat("prodotto x · w", num(y))),
        formula("x · w = ", factor(x), " · ", factor(w), " = ", num(y)),
    ]
    if state["threshold"] is not None:
        over = y >= state["threshold"]
        parts.append(
            callout(
                f"Il prodotto {{'supera' if over else 'non raggiunge'}} la soglia {{num(state['threshold'])}}.",
                tone="ok" if over else "warn",
            )
        )
    return tag("div", *parts, id="vista-prodotto")  # an id: a link in the prose, or an experiment, points here


# «Prova a cambiare…»: una o due modifiche al codice del pannello, ciascuna con
# l'effetto che il lettore vede (expect) e la prova che c'è (check). La prima riga
# cambiata non deve esistere già nel codice: è lì che l'editor porta il lettore.
EDITS = [
    Edit(
        "la somma al posto del prodotto",
        change=(
            '    product = params["ingresso"] * params["peso"]',
            '    product = params["ingresso"] + params["peso"]',
        ),
        expect="Con ingresso 2 e peso 0,2 il prodotto 0,4 non raggiunge la soglia; la somma 2,2 la supera.",
        params={{"ingresso": 2.0, "peso": 0.2}},
        check=lambda before, after: before.state["product"] < 0.5 <= after.state["product"],
    ),
]

# Gli esperimenti che la prosa suggerisce, almeno due: la frase, i comandi che
# imposta, la parte della vista da guardare (un id «vista-…») e la prova che
# lo stato mostra l'effetto; after: parole del paragrafo dopo cui sta il pulsante.
EXPERIMENTS = [
    Experiment(
        "Porta il peso a 2: con l'ingresso a 1 il prodotto vale 2 e supera la soglia.",
        {{"peso": 2.0}},
        "vista-prodotto",
        lambda s: s["product"] >= 0.5,
        after="confronta il prodotto con una",
    ),
    Experiment(
        "Metti l'ingresso a 0: qualunque peso dà un prodotto nullo.",
        {{"ingresso": 0.0}},
        "vista-prodotto",
        lambda s: s["product"] == 0,
        after="confronta il prodotto con una",
    ),
]
'''

# A stepped lab: start/advance/present and a timeline. The numbers in its
# prose, experiments and test hold for X = 1,5 and TARGET = 1 (w* = 2/3).
STEPS_TEMPLATE = """\"\"\"Questa è la prosa della pagina, in Markdown e in italiano: il lettore
la legge prima di premere **Avanti**. Riscrivila con le tue parole: che cosa
impara la macchina a ogni passo, che cosa guardare nella vista e nella curva
sotto la linea del tempo.

Lo scheletro allena un neurone con un solo peso w: con l'ingresso x = 1,5
deve rispondere y = 1. A ogni passo calcola la loss (w·x − 1)², il suo
gradiente rispetto a w, e sposta il peso nel verso opposto al gradiente, di
η volte il gradiente. La curva della loss cresce sotto la linea del tempo, un passo
alla volta, senza mostrare il futuro.

Con un learning rate piccolo il peso scivola verso 2/3 e la loss si spegne;
con uno troppo grande ogni passo scavalca il fondo e la loss cresce. È un
segnaposto: sostituisci la macchina e la vista con le tue, e tieni il
laboratorio verde ad ogni passo (`python -m labs run {lab_id} --steps 5` e
`make check LAB={lab_id}`).
\"\"\"

# Il contratto riga per riga e ogni componente del kit, con un esempio
# disegnato: la pagina «Scrivere un laboratorio» del sito (la sezione «Laboratori a passi»).
from labs.kit import Curve
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Slider
from labs.kit import Steps
from labs.kit import callout
from labs.kit import factor
from labs.kit import formula
from labs.kit import num
from labs.kit import stat
from labs.kit import stats
from labs.kit import step_machine
from labs.kit import tag

TITLE = {title}
REF = {ref}  # il numero nella guida: unico, e di questo capitolo

X = 1.5  # l'ingresso del neurone
TARGET = 1.0  # la risposta giusta: il peso migliore è TARGET / X
STEPS = 30

# Steps(max=…) è il passo: un parametro come gli altri («passo» nell'URL), con la linea del
# tempo (Avanti, Indietro, Play) e la curva Curve(chiave dello stato, etichetta, punti all'ultimo passo).
CONTROLS = [
    Slider("eta", "Learning rate η", 0.01, 0.6, 0.01, 0.1, primary=True),
    Slider("w0", "Peso iniziale w₀", -2.0, 2.0, 0.1, -1.0),
    Steps(max=STEPS, curve=Curve("losses", "loss", points=STEPS + 1)),
]


def loss(w):
    \"\"\"La loss del neurone con peso w: il quadrato dell'errore (w·x − y)².\"\"\"
    return (w * X - TARGET) ** 2


# La macchina è fatta di dati semplici: il passo, il peso e le loss viste finora. advance ne
# restituisce una nuova e non cambia quella che riceve (una lista nuova, [*vecchia, nuova]).
def start(params):
    \"\"\"La macchina al passo 0: il peso iniziale e la sua loss.\"\"\"
    return {{"step": 0, "w": params["w0"], "losses": [loss(params["w0"])]}}


def advance(machine, params):
    \"\"\"Un passo di discesa del gradiente: w ← w − η · gradiente.\"\"\"
    w = machine["w"]
    gradient = 2 * (w * X - TARGET) * X
    new_w = w - params["eta"] * gradient
    return {{"step": machine["step"] + 1, "w": new_w, "losses": [*machine["losses"], loss(new_w)]}}


def present(machine, params):
    \"\"\"Lo stato del passo da disegnare: il peso, la loss e il prossimo aggiornamento.\"\"\"
    w = machine["w"]
    gradient = 2 * (w * X - TARGET) * X
    return {{
        "step": machine["step"],
        "eta": params["eta"],
        "w": w,
        "loss": machine["losses"][-1],
        "gradient": gradient,
        "next_w": w - params["eta"] * gradient,
        "losses": list(machine["losses"]),
    }}


# compute(params) dà lo stato al passo params["passo"]; il kit tiene la macchina viva e qualche
# punto di ripristino, così «Avanti» costa un passo solo.
compute = step_machine(start, advance, present)


def view(state):
    \"\"\"Stato → Html con i componenti del kit: i numeri del passo, il conto, un commento.\"\"\"
    s = state
    update = [factor(s["w"], 3), " − ", factor(s["eta"]), " · ", factor(s["gradient"], 3), " = ", num(s["next_w"], 3)]
    parts = [
        stats(stat("passo", num(s["step"])), stat("peso w", num(s["w"], 3)), stat("loss", num(s["loss"], 4))),
        formula("prossimo w = ", *update),
    ]
    if s["step"] == 0:
        parts.append(callout("Il peso è al punto di partenza: premi Avanti per il primo aggiornamento."))
    else:
        before, now = s["losses"][-2], s["losses"][-1]
        down = now <= before
        parts.append(
            callout(
                f"La loss è {{'scesa' if down else 'salita'}} da {{num(before, 4)}} a {{num(now, 4)}}"
                + ("." if down else ": il passo scavalca il fondo, prova un learning rate più piccolo."),
                tone="ok" if down else "warn",
            )
        )
    return tag("div", *parts, id="vista-neurone")  # an id: an experiment points here


# «Prova a cambiare…»: una modifica al codice del pannello, con l'effetto che il lettore vede.
EDITS = [
    Edit(
        "il passo nel verso del gradiente",
        change=(
            '    new_w = w - params["eta"] * gradient',
            '    new_w = w + params["eta"] * gradient',
        ),
        expect="Con il segno sbagliato il peso sale lungo la scodella: dopo 5 passi la loss è più alta di prima.",
        params={{"passo": 5}},
        check=lambda before, after: after.state["loss"] > after.state["losses"][0] > before.state["loss"],
    ),
]

# Gli esperimenti che la prosa suggerisce: la frase, i comandi che imposta (il passo compreso,
# «passo»), la parte della vista da guardare e la prova che lo stato mostra l'effetto.
EXPERIMENTS = [
    Experiment(
        "Vai al passo 20: il peso è arrivato quasi in fondo alla scodella e la loss è quasi zero.",
        {{"eta": 0.1, "w0": -1.0, "passo": 20}},
        "vista-neurone",
        lambda s: abs(s["w"] - 2 / 3) < 0.01 and s["loss"] < 1e-4,
        after="il peso scivola verso 2/3",
    ),
    Experiment(
        "Con η a 0,5 ogni passo scavalca il fondo: al passo 10 la loss è più alta che all'inizio.",
        {{"eta": 0.5, "w0": -1.0, "passo": 10}},
        "vista-neurone",
        lambda s: s["loss"] > s["losses"][0],
        after="il peso scivola verso 2/3",
    ),
]
"""

STEPS_TEST_TEMPLATE = """\"\"\"{ref} {title}: i numeri del laboratorio a passi, controllati a mano (scritto da
«labs new --passi»: riscrivilo insieme al laboratorio, con i numeri che contano).\"\"\"

import pytest

import labs

LAB = labs.get({lab_id_json})


def state(**changes):
    \"\"\"Lo stato con i comandi cambiati come li scrive l'URL (tutto come testo), passo compreso.\"\"\"
    return LAB.compute(LAB.parse({{k: str(v) for k, v in changes.items()}}))


def test_one_step_moves_the_weight_against_the_gradient():
    # w₀ = −1, x = 1,5, y = 1: gradiente 2 · (−1,5 − 1) · 1,5 = −7,5; con η = 0,1 il peso va a −0,25
    first = state(eta=0.1, w0=-1, passo=1)
    assert first["w"] == pytest.approx(-0.25, abs=1e-12)
    assert first["losses"] == pytest.approx([6.25, 1.890625], abs=1e-12)
    assert "scesa" in str(LAB.view(first))


def test_the_loss_goes_down_with_a_small_step_and_up_with_a_large_one():
    small = state(eta=0.1, w0=-1, passo=30)["losses"]
    assert all(b < a for a, b in zip(small, small[1:])) and small[-1] < 1e-12
    large = state(eta=0.5, w0=-1, passo=3)  # ogni passo moltiplica la distanza da 2/3 per 1 − 4,5 · 0,5 = −1,25
    assert large["w"] - 2 / 3 == pytest.approx((-1 - 2 / 3) * (-1.25) ** 3, abs=1e-12)
    assert "salita" in str(LAB.view(large))
"""


TEST_TEMPLATE = '''"""{ref} {title}: i numeri del laboratorio, controllati a mano (scritto da «labs new»:
riscrivilo insieme al laboratorio, con i numeri che contano)."""

import pytest

import labs

LAB = labs.get({lab_id_json})


def state(**changes):
    """Lo stato con i comandi cambiati come li scrive l'URL (tutto come testo)."""
    return LAB.compute(LAB.parse({{k: str(v) for k, v in changes.items()}}))


def test_the_product_decides_against_the_threshold():
    low = state(ingresso=1.5, peso=-0.4)
    assert low["product"] == pytest.approx(-0.6, abs=1e-12) and low["threshold"] == 0.5
    high = state(ingresso=2, peso=0.3)
    assert high["product"] == pytest.approx(0.6, abs=1e-12)
    assert "non raggiunge" in str(LAB.view(low)) and "supera" in str(LAB.view(high))
    assert state(ingresso=2, peso=0.3, soglia=0)["threshold"] is None
'''


def next_ref(chapter, refs):
    """The first free REF after the chapter's last one: 1.4 → 1.5, A.5 → A.6,
    9G → 9H; in an empty chapter N.1 (A.1 for a lettered one)."""
    mine = sorted(refs, key=ref_key)
    if not mine:
        return f"{chapter}.1"
    last = mine[-1]
    numbered = re.fullmatch(r"(.*\.)(\d+)", last)
    if numbered:
        candidate = f"{numbered.group(1)}{int(numbered.group(2)) + 1}"
    elif re.fullmatch(r"\d+[A-Y]", last):
        candidate = last[:-1] + chr(ord(last[-1]) + 1)
    else:
        candidate = f"{chapter}.1"
    while candidate in refs:  # 9Z, or an odd history: count on
        candidate = (
            re.sub(r"(\d+)$", lambda m: str(int(m.group(1)) + 1), candidate)
            if candidate[-1].isdigit()
            else candidate + ".1"
        )
    return candidate


def ref_after(ref, refs):
    """The REF that sorts right after ref and before the next one in refs,
    without changing any of refs: the next of its kind if that still comes
    before the next lab (1.4 → 1.5, 9G → 9H, A.6 → A.7), else one level down
    (2.4 → 2.4.1 before 2.5, 9E → 9E.1 before 9F), and 2.4.0 when 2.4.1 is
    taken too. ContractError only when even 2.4.0 is taken."""
    from . import ref_key
    from .kit.contract import REF_PATTERN
    from .kit.contract import ref_chapter

    later = sorted((r for r in refs if ref_key(r) > ref_key(ref)), key=ref_key)
    following = later[0] if later else None
    numbered = re.fullmatch(r"(.*\.)(\d+)", ref)
    if numbered:
        candidates = [f"{numbered.group(1)}{int(numbered.group(2)) + 1}"]
    elif re.fullmatch(r"\d+[A-Y]", ref):
        candidates = [ref[:-1] + chr(ord(ref[-1]) + 1)]
    else:
        candidates = []
    candidates += [f"{ref}.1", f"{ref}.0"]
    for candidate in candidates:
        fits = (
            REF_PATTERN.fullmatch(candidate)
            and ref_chapter(candidate) == ref_chapter(ref)
            and candidate not in refs
            and not any(r.startswith(candidate + ".") for r in refs)
            and (following is None or ref_key(candidate) < ref_key(following))
        )
        if fits:
            return candidate
    raise ContractError(
        f"tra {ref} e {following} non c'è un REF libero: metti il nuovo laboratorio dopo quello con REF {following}"
    )


def new_lab(package_dir, chapter, lab_id, title, labs, problems=(), after=None, stepped=False, exercise=False):
    """Write <package_dir>/ch<chapter>/<lab_id with _>.py and return its path and REF.

    stepped writes a stepped lab (start/advance/present, Steps, an experiment
    at a later step) instead of one with sliders and a toggle. exercise (not
    with stepped) computes the product with core's dot and asks the reader to
    write it: an «Esercizio» the author rewrites on the lab's own function.

    labs are the labs found so far (for the free REF and the ids in use),
    problems the ids of broken modules. after, a lab id, places the new lab
    right after that one (its chapter; chapter may then be None); without it
    the lab goes after the chapter's last. ContractError (an Italian line) for
    a chapter that does not exist, an id already taken or no room after."""
    package_dir = Path(package_dir)
    if after is not None:
        anchor = next((lab for lab in labs if lab.id == after), None)
        if anchor is None:
            raise ContractError(f"--dopo: il laboratorio «{after}» non esiste (gli id: python -m labs list)")
        if chapter is not None and chapter.upper().removeprefix("CH") != anchor.chapter.number:
            raise ContractError(
                f"--dopo {after}: quel laboratorio è nel capitolo {anchor.chapter.number}, non nel {chapter}"
            )
        chapter = anchor.chapter.number
    if chapter is None:
        raise ContractError("manca il capitolo (oppure --dopo <id>, e il capitolo è quello di quel laboratorio)")
    chapter = chapter.upper().removeprefix("CH")
    chapters = sorted(p.name[2:] for p in package_dir.glob("ch*") if (p / "__init__.py").exists())
    if not re.fullmatch(r"\d+|[A-Z]", chapter) or chapter not in chapters:
        raise ContractError(
            f"il capitolo «{chapter}» non esiste: i capitoli sono {', '.join(chapters)} "
            f"(le cartelle ch… in {place(package_dir)})"
        )
    if not ID.fullmatch(lab_id) or keyword.iskeyword(lab_id.replace("-", "_")):
        raise ContractError(
            f"l'id «{lab_id}» non va bene: solo lettere minuscole, cifre e trattini, "
            "a partire da una lettera (per esempio «prodotto-scalare»)"
        )
    if not title.strip():
        raise ContractError("manca il titolo del laboratorio (tra virgolette)")
    if stepped and exercise:
        raise ContractError(
            "--esercizio va con lo scheletro con i comandi, non con --passi: in un laboratorio a passi aggiungi "
            "EXERCISES a mano (la guida, «Gli esercizi»)"
        )
    module = lab_id.replace("-", "_")
    taken = [p for p in package_dir.glob(f"ch*/{module}.py")] + [p for p in package_dir.glob(f"ch*/{module}")]
    if taken or lab_id in {lab.id for lab in labs} or lab_id in problems:
        where = (
            place(taken[0])
            if taken
            else next((place(lab.module.__file__) for lab in labs if lab.id == lab_id), "un altro modulo")
        )
        raise ContractError(f"l'id «{lab_id}» esiste già: {where}")
    refs = [lab.ref for lab in labs if lab.chapter.number == chapter]
    ref = ref_after(anchor.ref, refs) if after is not None else next_ref(chapter, refs)
    target = package_dir / f"ch{chapter}" / f"{module}.py"
    text = (STEPS_TEMPLATE if stepped else TEMPLATE).format(
        title=json.dumps(title.strip(), ensure_ascii=False), ref=json.dumps(ref), lab_id=lab_id
    )
    target.write_text(with_exercise(text) if exercise else text, encoding="utf-8")
    return target, ref


def with_exercise(text):
    """The plain scaffold with its product computed by core's dot, and an «Esercizio» that asks for it."""
    for old, new in (
        (
            "from labs.kit import Edit\n",
            "from core.linalg import dot\nfrom labs.kit import Case\nfrom labs.kit import Edit\n",
        ),
        ("from labs.kit import Experiment\n", "from labs.kit import Exercise\nfrom labs.kit import Experiment\n"),
        ("from labs.kit import Toggle\n", "from labs.kit import Toggle\nfrom labs.kit import Wrong\n"),
        (PRODUCT, PRODUCT_BY_DOT),
        (f"'{PRODUCT}'", f"'{PRODUCT_BY_DOT}'"),
    ):
        if old not in text:
            raise AssertionError(f"lo scheletro non contiene più {old!r}: aggiorna with_exercise")
        text = text.replace(old, new, 1)
    return text + EXERCISE_TEMPLATE


PRODUCT = '    product = params["ingresso"] * params["peso"]'
PRODUCT_BY_DOT = '    product = dot([params["ingresso"]], [params["peso"]])'

# «Esercizio»: the reader writes the function of core/ the lab computes with (here dot), checked on the cases
# against dot itself; once it passes, the lab's numbers come from the reader's dot.
EXERCISE_TEMPLATE = """
# «Esercizio»: il lettore scrive una funzione di core/ che il laboratorio usa (qui dot): i casi la confrontano
# con la funzione stessa, e quando passa i numeri del laboratorio vengono dalla sua. Scrivilo sulla funzione
# del tuo laboratorio: casi con il loro perché, uno o due sbagli tipici con un commento che aiuta.
EXERCISES = [
    Exercise(
        dot,
        task="Scrivi il prodotto scalare: moltiplica gli elementi a coppie e somma i prodotti. Quando passa "
        "le verifiche, il prodotto del laboratorio viene dalla tua funzione.",
        hints=("Con `zip(a, b)` scorri i due vettori insieme.",),
        cases=(
            Case(([1.0, 2.0], [3.0, 4.0]), "due vettori piccoli"),
            Case(([0.0, 0.0], [5.0, -5.0]), "un vettore nullo"),
            Case(([1.0], [2.0, 3.0]), "lunghezze diverse: un errore"),
        ),
        random=lambda rng: ([rng.uniform(-2, 2) for _ in range(3)], [rng.uniform(-2, 2) for _ in range(3)]),
        count=10,
        wrong=(
            Wrong(
                "def dot(a, b):\\n    return sum(a) * sum(b)\\n",
                "Si moltiplica elemento per elemento, nella stessa posizione, e poi si somma.",
            ),
        ),
    ),
]
"""


def new_test(tests_dir, lab_id, ref, title, stepped=False):
    """Write <tests_dir>/test_<lab_id with _>.py, an example test of the new
    lab's state (of a stepped one's, with stepped), and return its path (None
    if that file exists already)."""
    target = Path(tests_dir) / f"test_{lab_id.replace('-', '_')}.py"
    if target.exists():
        return None
    target.write_text(
        (STEPS_TEST_TEMPLATE if stepped else TEST_TEMPLATE).format(
            ref=ref, title=title.strip(), lab_id_json=json.dumps(lab_id)
        ),
        encoding="utf-8",
    )
    return target


__all__ = ["new_lab", "new_test", "next_ref", "ref_after"]
