"""Diamo a ogni parola due soli numeri, ciascuno con un significato: il
primo dice quanto la parola è **regale**, il secondo quanto è
**femminile**, tutti e due da 0 a 1. Così «uomo» è [0,1 ; 0,1], «donna»
[0,1 ; 0,9], «re» [0,9 ; 0,1] e «regina» [0,9 ; 0,9]: ogni parola diventa un
punto del piano, e parole simili finiscono vicine.

Ora il conto famoso, **re − uomo + donna**, in due mosse. Prima
donna − uomo: sottraendo numero per numero si ottiene la freccia che porta
da «uomo» a «donna», cioè [0 ; 0,8], «un po' più femminile, regale uguale».
Poi si parte da «re» e si aggiunge quella freccia. Si arriva su
[0,9 ; 0,9]: esattamente «regina». Ogni numero tolto o aggiunto è una
qualità tolta o aggiunta alla parola.

Scegli altre tre parole per il conto A − B + C: il laboratorio dice quale
parola è più vicina al punto d'arrivo, e a che distanza. Come in word2vec,
le tre parole del conto non valgono come risposta: se il punto cade su una
di loro, lo dice, e cerca tra le altre. **Trascina** le tre parole scelte
(o usa i cursori) e guarda come si muove il risultato: spostare A o C lo
trascina nello stesso verso, spostare B in quello opposto.

Qui il conto torna preciso perché i numeri li abbiamo inventati noi. Nei
modelli veri le parole hanno centinaia o migliaia di numeri senza nome,
imparati leggendo testo: in word2vec (Mikolov e colleghi, 2013) re − uomo +
donna cade **vicino** a «regina», che è soltanto la parola più vicina al
punto calcolato, e molte altre analogie non funzionano. Sposta un poco le
parole per vedere la stessa cosa: il punto non cade più su una parola, ma
la più vicina spesso è ancora quella giusta.
"""

from core.linalg import add
from core.linalg import norm
from core.linalg import sub
from labs.kit import Arrow
from labs.kit import Choice
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Group
from labs.kit import Label
from labs.kit import Point
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import callout
from labs.kit import cell_text
from labs.kit import formula
from labs.kit import panel
from labs.kit import plane
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag
from labs.kit import vector_text

TITLE = "Parole come vettori"
REF = "1.1"

# [regale ; femminile], and where each label sits so that none overlaps
WORDS = {
    "uomo": ((0.1, 0.1), "s"),
    "donna": ((0.1, 0.9), "n"),
    "re": ((0.9, 0.1), "s"),
    "regina": ((0.9, 0.9), "n"),
    "principe": ((0.6, 0.1), "s"),
    "principessa": ((0.6, 0.9), "n"),
    "persona": ((0.1, 0.5), "w"),
    "monarca": ((0.9, 0.5), "e"),
}
OPTIONS = tuple((w, w) for w in WORDS)
SLOTS = (
    ("a", "Parola A, da cui si parte", "re"),
    ("b", "Parola B, da togliere", "uomo"),
    ("c", "Parola C, da aggiungere", "donna"),
)
VIEW = (-0.3, 1.3)


def offset(name, label):
    return Slider(name, label, -0.4, 0.4, 0.05, 0.0)


# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "A": Symbol("la prima parola del conto A − B + C", "parol"),
    "B": Symbol("la parola che si toglie nel conto A − B + C", "parol"),
    "C": Symbol("la parola che si aggiunge nel conto A − B + C", "parol"),
}

CONTROLS = [
    Group(
        caption,
        (
            Choice(slot, "Parola", OPTIONS, default),
            offset(f"{slot}_dx", "Sposta: più o meno regale"),
            offset(f"{slot}_dy", "Sposta: più o meno femminile"),
        ),
    )
    for slot, caption, default in SLOTS
]


def compute(p):
    """Il punto a − b + c e la parola più vicina, tra quelle che non sono nella somma."""
    # a word chosen in two slots is moved by both offsets: one word, one position
    places = {w: list(at) for w, (at, _) in WORDS.items()}
    for slot, *_ in SLOTS:
        places[p[slot]] = add(places[p[slot]], [p[f"{slot}_dx"], p[f"{slot}_dy"]])
    places = {w: [round(x, 10) for x in at] for w, at in places.items()}
    a, b, c = (places[p[slot]] for slot, *_ in SLOTS)
    step = [round(x, 10) for x in sub(c, b)]
    result = [round(x, 10) for x in add(a, step)]  # 0.9 − 0.1 + 0.1 is 0.9000000000000001 in floats
    ranked = sorted(((norm(sub(result, at)), w) for w, at in places.items()), key=lambda t: (round(t[0], 9), t[1]))
    inputs = {p[slot] for slot, *_ in SLOTS}
    # word2vec's rule: the words of the sum are not answers; an input closer than the answer is named apart
    answers = [(d, w) for d, w in ranked if w not in inputs]
    closer = [{"word": w, "distance": round(d, 10)} for d, w in ranked if w in inputs and d < answers[0][0] - 1e-9]
    return {
        "words": [p[slot] for slot, *_ in SLOTS],
        "places": places,
        "step": step,
        "result": result,
        "nearest": [{"word": w, "distance": round(d, 10)} for d, w in answers[:3]],
        "closer_input": closer,
        "offsets": {slot: [p[f"{slot}_dx"], p[f"{slot}_dy"]] for slot, *_ in SLOTS},
        "moved": any(p[f"{slot}_{axis}"] for slot, *_ in SLOTS for axis in ("dx", "dy")),
        "in_view": all(VIEW[0] <= x <= VIEW[1] for x in result),
    }


def view(s):
    (wa, wb, wc), places, result = s["words"], s["places"], s["result"]
    a, b, c = places[wa], places[wb], places[wc]
    name = f"{wa} − {wb} + {wc}"
    best = s["nearest"][0]
    styles = {best["word"]: "result", wa: "a", wb: "b", wc: "c"}
    slot_of = {w: slot for (slot, *_), w in reversed(list(zip(SLOTS, (wa, wb, wc))))}  # A first if a word is twice
    items = []
    for w, at in places.items():
        slot = slot_of.get(w)
        # the sliders hold the shift from where the word is without this slot's own shift
        origin = [a - o for a, o in zip(at, s["offsets"][slot])] if slot else None
        items.append(
            Point(
                at,
                w,
                style=styles.get(w, "muted"),
                label_at=WORDS[w][1],
                drag=(f"{slot}_dx", f"{slot}_dy") if slot else None,
                drag_origin=tuple(origin) if slot else None,
            )
        )
    items += [
        Point(WORDS[w][0], style="muted", hollow=True)
        for w in dict.fromkeys((wa, wb, wc))
        if places[w] != list(WORDS[w][0])
    ]
    items += [
        Arrow(c, start=b, style="d"),
        Label([0.7 * x + 0.3 * y for x, y in zip(b, c)], f"{wc} − {wb}", style="d", label_at="e"),
        Arrow(result, start=a, style="d", dashed=True),
        Point(result, "risultato", style="result", label_at="se", hollow=True),
    ]
    figure = plane(
        items,
        VIEW,
        VIEW,
        grid=0.1,
        ticks=0.2,
        axis_names=("regale", "femminile"),
        label=f"Le parole nel piano regale–femminile e il conto {name} = {vector_text(result)}",
    )
    tied = [n["word"] for n in s["nearest"] if abs(n["distance"] - best["distance"]) < 1e-9]
    parts = [
        figure,
        tag("p", "Trascina le parole A, B e C (o usa i cursori) per spostarle.", class_="lab-step-counter"),
        formula(f"{wc} − {wb} = {vector_text(c)} − {vector_text(b)} = {vector_text(s['step'])}"),
        formula(f"{wa} + ({wc} − {wb}) = {vector_text(a)} + {vector_text(s['step'])} = {vector_text(result)}"),
        stats(
            stat(
                f"Parola più vicina a {name}, escluse le tre del conto" + (" (pari merito)" if len(tied) > 1 else ""),
                ", ".join(tied),
                tone="ok" if best["distance"] < 1e-9 else None,
            ),
            stat("Distanza", cell_text(best["distance"])),
        ),
        callout(
            f"Più vicina ancora è «{s['closer_input'][0]['word']}» (distanza "
            f"{cell_text(s['closer_input'][0]['distance'])}), ma è una delle parole del conto: come word2vec, "
            "il laboratorio non la conta come risposta.",
            tone="warn",
        )
        if s["closer_input"]
        else None,
        table(
            ["Parola (escluse A, B e C)", "Vettore", "Distanza dal risultato"],
            [[n["word"], vector_text(places[n["word"]]), cell_text(n["distance"])] for n in s["nearest"]],
        ),
    ]
    if not s["in_view"]:
        parts.insert(
            1,
            callout(
                f"Il punto d'arrivo {vector_text(result)} è fuori dal disegno; "
                "le distanze nella tabella valgono lo stesso.",
                tone="warn",
            ),
        )
    if s["moved"]:
        parts.append(callout("I cerchi vuoti grigi segnano dove stavano le parole che hai spostato."))
    return panel(*parts, part="analogia")


EDITS = [
    Edit(
        "la differenza presa al contrario",
        change=("step = [round(x, 10) for x in sub(c, b)]", "step = [round(x, 10) for x in sub(b, c)]"),
        expect="Lo spostamento ora va da donna a uomo: il punto scende sotto re, fuori dal quadrato, e la "
        "parola più vicina non è più regina. L'ordine di a − b + c conta.",
        check=lambda before, after: (
            before.state["nearest"][0]["word"] == "regina" and after.state["nearest"][0]["word"] != "regina"
        ),
    ),
]

STILL = {"a_dx": 0.0, "a_dy": 0.0, "b_dx": 0.0, "b_dy": 0.0, "c_dx": 0.0, "c_dy": 0.0}
EXPERIMENTS = [
    Experiment(
        "Con principe − uomo + donna il conto cade esattamente su «principessa».",
        {"a": "principe", "b": "uomo", "c": "donna", **STILL},
        "analogia",
        lambda s: s["nearest"][0]["word"] == "principessa" and s["nearest"][0]["distance"] == 0,
        after="Ogni numero tolto o aggiunto",
    ),
    Experiment(
        "Sposta «re» di 0,1 in tutte e due le direzioni: il punto non cade più su una parola, "
        "ma la più vicina resta «regina».",
        {"a": "re", "b": "uomo", "c": "donna", **STILL, "a_dx": 0.1, "a_dy": 0.1},
        "analogia",
        lambda s: s["nearest"][0]["word"] == "regina" and s["nearest"][0]["distance"] > 0.1,
        after="la più vicina spesso è ancora quella giusta",
    ),
]
