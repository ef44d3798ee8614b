"""`python -m labs new <capitolo> <id> "Titolo"`: a new lab module that
already builds, renders and passes the contract tests, for the author to
rewrite. Its comments point at the kit components to use."""

import json
import keyword
import re
from pathlib import Path

from .kit.errors import ContractError, place
from .registry import ref_key

ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")

TEMPLATE = '''"""Questa è la prosa della pagina, in Markdown e in italiano: il lettore
la trova sopra il laboratorio. Riscrivila con le tue parole: che cosa sta
guardando, quale comando conviene toccare per primo e quale numero deve
tenere d'occhio mentre lo muove.

Lo scheletro qui sotto moltiplica un **ingresso** per un **peso** e, se
vuoi, confronta il prodotto con una **soglia**. È un segnaposto: sostituisci
i conti e la vista con i tuoi, e tieni il laboratorio verde ad ogni passo
(`python -m labs run {lab_id}` e i test di contratto).
"""

# Il contratto riga per riga e ogni componente del kit, con un esempio
# disegnato: la pagina «Scrivere un laboratorio» del sito.
from labs.kit import Slider, Toggle, callout, factor, formula, num, stat, stats, tag

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
    """Parametri → stato: puro (niente file, rete, caso senza seme o variabili
    globali) e fatto di soli valori JSON. La matematica va in core/."""
    product = params["ingresso"] * params["peso"]
    return {{"x": params["ingresso"], "w": params["peso"], "product": product,
            "threshold": 0.5 if params["soglia"] else None}}


def view(state):
    """Stato → Html, solo con i componenti del kit, che fanno l'escape del testo:
    stat e stats per i numeri, formula per un conto, callout per un messaggio;
    per le figure bars, line_chart, plane, matrix, network, chain."""
    x, w, y = state["x"], state["w"], state["product"]
    parts = [
        stats(stat("ingresso x", num(x)), stat("peso w", num(w)), stat("prodotto x · w", num(y))),
        formula("x · w = ", factor(x), " · ", factor(w), " = ", num(y)),
    ]
    if state["threshold"] is not None:
        over = y >= state["threshold"]
        parts.append(callout(f"Il prodotto {{'supera' if over else 'non raggiunge'}} la soglia "
                             f"{{num(state['threshold'])}}.", tone="ok" if over else "warn"))
    return tag("div", *parts)
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
        candidate = re.sub(r"(\d+)$", lambda m: str(int(m.group(1)) + 1), candidate) if candidate[-1].isdigit() \
            else candidate + ".1"
    return candidate


def new_lab(package_dir, chapter, lab_id, title, labs, problems=()):
    """Write <package_dir>/ch<chapter>/<lab_id with _>.py and return its path.

    labs are the labs found so far (for the free REF and the ids in use),
    problems the ids of broken modules. ContractError (an Italian line) for
    a chapter that does not exist or an id already taken."""
    package_dir = Path(package_dir)
    chapter = chapter.upper().removeprefix("CH")
    chapters = sorted(p.name[2:] for p in package_dir.glob("ch*") if (p / "__init__.py").exists())
    if not re.fullmatch(r"\d+|[A-Z]", chapter) or chapter not in chapters:
        raise ContractError(f"il capitolo «{chapter}» non esiste: i capitoli sono {', '.join(chapters)} "
                            f"(le cartelle ch… in {place(package_dir)})")
    if not ID.fullmatch(lab_id) or keyword.iskeyword(lab_id.replace("-", "_")):
        raise ContractError(f"l'id «{lab_id}» non va bene: solo lettere minuscole, cifre e trattini, "
                            "a partire da una lettera (per esempio «prodotto-scalare»)")
    if not title.strip():
        raise ContractError("manca il titolo del laboratorio (tra virgolette)")
    module = lab_id.replace("-", "_")
    taken = [p for p in package_dir.glob(f"ch*/{module}.py")] + [p for p in package_dir.glob(f"ch*/{module}")]
    if taken or lab_id in {lab.id for lab in labs} or lab_id in problems:
        where = place(taken[0]) if taken else next((place(lab.module.__file__) for lab in labs if lab.id == lab_id),
                                                   "un altro modulo")
        raise ContractError(f"l'id «{lab_id}» esiste già: {where}")
    ref = next_ref(chapter, [lab.ref for lab in labs if lab.chapter.number == chapter])
    target = package_dir / f"ch{chapter}" / f"{module}.py"
    target.write_text(TEMPLATE.format(title=json.dumps(title.strip(), ensure_ascii=False), ref=json.dumps(ref),
                                      lab_id=lab_id), encoding="utf-8")
    return target, ref


__all__ = ["new_lab", "next_ref"]
