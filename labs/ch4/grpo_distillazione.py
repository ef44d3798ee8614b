"""Quando la risposta si può controllare (un conto, un programma con i suoi
test) non serve che qualcuno la scriva: il modello prova, un verificatore
assegna un **reward**, e il training rinforza i tentativi migliori. Ma
migliori rispetto a che cosa?

**GRPO** risponde confrontando i tentativi tra loro. Per ogni domanda il
modello genera un gruppo di risposte; il **vantaggio** di ognuna misura di
quanto il suo reward supera la media del gruppo, in unità di deviazione
standard: (r − media) / dev. std., con r il reward. Sopra la media il vantaggio è positivo e quei token vengono resi più probabili; sotto
la media è negativo e vengono scoraggiati. I vantaggi sommano sempre a zero. Prova i
gruppi: in un problema **facile** l'unica risposta sbagliata spicca, in
uno **difficile** è l'unica giusta a spiccare, e se le risposte prendono
tutte lo stesso reward la deviazione standard è 0, i vantaggi sono tutti 0 e
il gruppo non insegna niente.

La **distillazione on-policy** usa invece un modello più grande, il
maestro. Lo studente scrive la sua soluzione; poi, token per token, il
maestro dice quale distribuzione avrebbe dato lui in quel punto, leggendo
il testo dello studente. La loss è la **KL inversa**, KL(studente ‖
maestro) = Σ p_s · log(p_s / p_m): pesa i token con le probabilità dello
studente, quindi è grande dove lo studente punta su qualcosa che il maestro
ritiene improbabile.

Qui lo studente ha sbagliato 17 × 3 scrivendo 41. Clicca i token: la KL
esplode proprio su «41», mentre «381», che dopo «340 + 41 =» è il conto
giusto, viene quasi assolto. Il segnale arriva sul passo sbagliato e non
sugli altri. Muovi «Allenamento» per avvicinare lo studente al maestro e
guarda la KL scendere verso 0.
"""

import math

from core.alignment import grpo_advantages
from core.alignment import reverse_kl
from core.softmax import softmax
from core.stats import fmean
from core.stats import pstdev
from labs.kit import Bar
from labs.kit import Edit
from labs.kit import Experiment
from labs.kit import Follow
from labs.kit import Group
from labs.kit import Slider
from labs.kit import Symbol
from labs.kit import bars
from labs.kit import callout
from labs.kit import formula
from labs.kit import num
from labs.kit import panel
from labs.kit import stat
from labs.kit import stats
from labs.kit import table
from labs.kit import tag

TITLE = "GRPO e distillazione on-policy"
REF = "4.4"

MAX_GROUP = 8
START = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0, 0.0]
CONTEXT = "17 × 23 = 17 × 20 + 17 × 3 ="
# The student's tokens, each with the candidates at that point and the
# probabilities student and teacher give them (illustrative values).
STEPS = (
    ("340", ("340", "320", "341", "altro"), (0.80, 0.10, 0.05, 0.05), (0.97, 0.01, 0.01, 0.01)),
    ("+", ("+", "−", "×", "altro"), (0.90, 0.04, 0.04, 0.02), (0.97, 0.01, 0.01, 0.01)),
    ("41", ("41", "51", "31", "altro"), (0.55, 0.35, 0.05, 0.05), (0.01, 0.96, 0.01, 0.02)),
    ("=", ("=", "+", ",", "altro"), (0.85, 0.05, 0.05, 0.05), (0.95, 0.02, 0.02, 0.01)),
    ("381", ("381", "391", "371", "altro"), (0.75, 0.15, 0.05, 0.05), (0.93, 0.04, 0.02, 0.01)),
)

# letters that mean here something else than in the site's glossary (labs.kit.symbols)
SYMBOLS = {
    "r": Symbol("il reward di una risposta", "reward"),
}

CONTROLS = [
    Group(
        "GRPO: i reward del gruppo (contano le prime risposte)",
        (
            Slider("gruppo", "Risposte nel gruppo", 2, MAX_GROUP, 1, 6),
            *(
                Slider(f"r{k}", f"Reward della risposta {k}", 0.0, 1.0, 0.1, START[k - 1])
                for k in range(1, MAX_GROUP + 1)
            ),
        ),
    ),
    Group(
        "Distillazione",
        (
            Slider("token", "Token da guardare", 1, len(STEPS), 1, 3),
            Slider("allenamento", "Allenamento dello studente", 0.0, 1.0, 0.05, 0.0),
        ),
    ),
]

GROUPS = (
    ("Facile: 5 giuste su 6", [1, 1, 1, 1, 1, 0]),
    ("Difficile: 1 su 6", [0, 0, 0, 1, 0, 0]),
    ("Tutte giuste", [1] * 6),
    ("Punteggi parziali", [0.2, 0.5, 0.9, 0.4, 0.7, 0.1]),
)


def student(p_student, p_teacher, t):
    """Lo studente dopo un training t ∈ [0, 1]: le sue log-probabilità spostate verso l'insegnante.

    The student after training t ∈ [0, 1]: its log-probabilities moved a
    fraction t of the way to the teacher's, then normalised.
    """
    return softmax([(1 - t) * math.log(s) + t * math.log(m) for s, m in zip(p_student, p_teacher)])


def compute(p):
    """I vantaggi GRPO del gruppo di risposte e la KL inversa della distillazione, token per token."""
    rewards = [p[f"r{k}"] for k in range(1, p["gruppo"] + 1)]
    steps = []
    for token, candidates, s0, m in STEPS:
        s = student(s0, m, p["allenamento"])
        steps.append(
            {
                "token": token,
                "candidates": candidates,
                "student": s,
                "teacher": list(m),
                "kl": reverse_kl(s, m),
                "terms": [a * math.log(a / b) for a, b in zip(s, m)],
            }
        )
    return {
        "rewards": rewards,
        "mean": fmean(rewards),
        "std": pstdev(rewards),
        "advantages": grpo_advantages(rewards),
        "steps": steps,
        "token": p["token"],
        "t": p["allenamento"],
        "total_kl": sum(x["kl"] for x in steps),
    }


def follow(s):
    """Rewards of answers beyond the group's size are not used: they say so."""
    n = len(s["rewards"])
    return {
        f"r{k}": Follow(disabled=f"Il gruppo ha {n} risposte: la risposta {k} non c'è. Alza «Risposte nel gruppo».")
        for k in range(n + 1, MAX_GROUP + 1)
    }


def grpo_panel(s):
    adv, bound = s["advantages"], math.sqrt(MAX_GROUP - 1)  # the largest advantage a group of 8 can give
    rows = [
        Bar(f"risposta {k}", a, class_="sign", text=f"r = {num(r, 1)}  →  {num(a, 2, signed=True)}")
        for k, (r, a) in enumerate(zip(s["rewards"], adv), start=1)
    ]
    same = s["std"] < 1e-12
    return tag(
        "section",
        tag("h3", "GRPO: il vantaggio dentro il gruppo", id="vista-grpo"),
        stats(
            stat("Media dei reward", num(s["mean"], 3)),
            stat("Deviazione standard", num(s["std"], 3)),
            stat("Somma dei vantaggi", num(abs(sum(adv)), 3)),
        ),
        formula(
            f"vantaggio = (r − {num(s['mean'], 3)}) / {num(s['std'], 3)}"
            if not same
            else "deviazione standard = 0: vantaggio = 0 per tutte"
        ),
        bars(rows, label="Vantaggio di ogni risposta del gruppo", lo=-bound, hi=bound),
        callout(
            "Tutte le risposte hanno lo stesso reward: nessuna è migliore delle altre, i vantaggi sono tutti 0 "
            "e questo gruppo non sposta i pesi.",
            tone="warn",
        )
        if same
        else callout(
            "Le risposte sopra la media (barre positive) vengono rinforzate, quelle sotto la media scoraggiate; più "
            "rara è una risposta, più il suo vantaggio si allontana da 0."
        ),
    )


def distill_panel(s):
    chosen = s["steps"][s["token"] - 1]
    kl_bars = [
        Bar(
            f"«{x['token']}»",
            x["kl"],
            class_="s4" if x["kl"] > 0.5 else "s1",
            highlight=k == s["token"],
            action=f"token={k}",
            spoken=f"Guarda il token {x['token']}",
        )
        for k, x in enumerate(s["steps"], start=1)
    ]
    dist = [
        Bar(c, ps, before=pm, class_="s2", text=f"{num(ps, 2)} · maestro {num(pm, 2)}")
        for c, ps, pm in zip(chosen["candidates"], chosen["student"], chosen["teacher"])
    ]
    terms = [
        [c, num(ps, 3), num(pm, 3), num(term, 3, signed=True)]
        for c, ps, pm, term in zip(chosen["candidates"], chosen["student"], chosen["teacher"], chosen["terms"])
    ]
    return tag(
        "section",
        tag("h3", "Distillazione on-policy: la KL inversa token per token", id="vista-kl"),
        formula(f"{CONTEXT} " + " ".join(x["token"] for x in s["steps"]), mistaken=True),  # 17 × 3 written 41
        tag(
            "p",
            "Lo studente ha scritto gli ultimi cinque token. Clicca una barra per guardare quel punto.",
            class_="lab-step-counter",
        ),
        bars(kl_bars, label="KL(studente ‖ maestro) per ogni token scritto dallo studente", hi=2.5, digits=3),
        stats(
            stat(f"KL su «{chosen['token']}»", num(chosen["kl"], 3), tone="warn" if chosen["kl"] > 0.5 else None),
            stat("KL totale della risposta", num(s["total_kl"], 3)),
        ),
        tag("h3", f"Che cosa pensavano al posto di «{chosen['token']}»"),
        bars(dist, label="Probabilità dello studente (barre) e del maestro (contorno)", before_label="maestro"),
        table(["Candidato", "p studente", "p maestro", "p_s · log(p_s / p_m)"], terms),
        formula(f"KL = somma dell'ultima colonna = {num(chosen['kl'], 3)}"),
    )


def view(s):
    return panel(grpo_panel(s), distill_panel(s), part="grpo-distillazione")


EDITS = [
    Edit(
        "i vantaggi senza dividere per la deviazione standard",
        change=("    return [(r - centre) / spread for r in rewards]", "    return [r - centre for r in rewards]"),
        expect="Con 2 risposte giuste su 6 i vantaggi valgono +0,67 e −0,33 invece di +1,41 e −0,71: restano "
        "nella scala delle ricompense, e un gruppo con ricompense più grandi spingerebbe di più.",
        check=lambda before, after: (
            abs(before.state["advantages"][0] - 2**0.5) < 1e-9 and abs(after.state["advantages"][0] - 2 / 3) < 1e-9
        ),
    ),
]


def group(rewards):
    """A group's settings: its size and each answer's reward."""
    return {"gruppo": len(rewards), **{f"r{k}": float(r) for k, r in enumerate(rewards, 1)}}


EXPERIMENTS = [
    Experiment(
        "Un problema facile, 5 risposte giuste su 6: l'unica sbagliata spicca, con vantaggio −2,24.",
        group(GROUPS[0][1]),
        "vista-grpo",
        lambda s: round(s["advantages"][-1], 2) == -2.24 and all(a > 0 for a in s["advantages"][:-1]),
        after="il gruppo non insegna niente",
    ),
    Experiment(
        "Un problema difficile, 1 giusta su 6: è l'unica giusta a spiccare, con vantaggio +2,24.",
        group(GROUPS[1][1]),
        "vista-grpo",
        lambda s: round(max(s["advantages"]), 2) == 2.24 and sorted(s["advantages"])[-2] < 0,
        after="il gruppo non insegna niente",
    ),
    Experiment(
        "Tutte le risposte giuste: la deviazione standard è 0, i vantaggi sono tutti 0 e il gruppo non insegna niente.",
        group(GROUPS[2][1]),
        "vista-grpo",
        lambda s: s["std"] == 0 and s["advantages"] == [0.0] * 6,
        after="il gruppo non insegna niente",
    ),
    Experiment(
        "Porta «Allenamento» a 1: lo studente dà le probabilità del maestro e la KL scende a 0, anche su «41».",
        {"allenamento": 1.0},
        "vista-kl",
        lambda s: abs(s["total_kl"]) < 1e-9,
        after="guarda la KL scendere verso 0",
    ),
]
