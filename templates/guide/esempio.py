"""Un modello deve indovinare la parola che viene dopo «il», e distribuisce
la sua fiducia su tre candidati: **gatto**, **cane** e **topo**. La loss
misura quanto è sorpreso quando scopre la risposta giusta: è il meno
logaritmo della probabilità che aveva dato a quella parola.

Sposta la fiducia nel gatto e guarda come cambia la loss; poi clicca una
barra per decidere che la parola giusta era un'altra. Se il modello aveva
dato poco a quella parola, la loss sale in fretta.
"""

from core.losses import cross_entropy, perplexity
from labs.kit import Bar, Choice, Slider, Toggle, bars, callout, formula, num, percent, stat, stats, tag

TITLE = "Quanto è sorpreso il modello"
REF = "1.9"

WORDS = ("gatto", "cane", "topo")

CONTROLS = [
    Slider("fiducia", "Probabilità data a «gatto»", 0.05, 0.9, 0.05, 0.6),
    Choice("giusta", "La parola giusta", tuple((w, f"«{w}»") for w in WORDS), "gatto"),
    Toggle("perplessita", "Mostra anche la perplessità", False),
]


def compute(params):
    rest = (1 - params["fiducia"]) / 2
    probs = {"gatto": params["fiducia"], "cane": rest, "topo": rest}
    p = probs[params["giusta"]]
    loss = cross_entropy(p)
    return {
        "probs": probs,
        "right": params["giusta"],
        "p": p,
        "loss": loss,
        "perplexity": perplexity(loss) if params["perplessita"] else None,
    }


def view(state):
    right = state["right"]
    figure = bars(
        [
            Bar(
                f"«{w}»",
                q,
                text=percent(q),
                highlight=w == right,
                class_="s3" if w == right else "s1",
                action=f"giusta={w}",
                spoken=f"Scegli «{w}» come parola giusta",
            )
            for w, q in state["probs"].items()
        ],
        label="Probabilità date dal modello ai tre candidati",
    )
    numbers = [stat("probabilità della parola giusta", percent(state["p"])), stat("loss", num(state["loss"]))]
    if state["perplexity"] is not None:
        numbers.append(stat("perplessità", num(state["perplexity"], 1)))
    surprised = state["loss"] > 1.5
    message = (
        "Sorpresa forte: a quella parola il modello credeva poco."
        if surprised
        else "Il modello se l'aspettava: la loss è bassa."
    )
    return tag(
        "div",
        figure,
        stats(*numbers),
        formula("loss = −log ", num(state["p"]), " = ", num(state["loss"])),
        callout(message, tone="warn" if surprised else "ok"),
    )
