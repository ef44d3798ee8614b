"""Every name that labs.kit exports, in the order the author's guide shows
them, with a small call for each that draws something or writes text.

build.py runs each call (the code shown is the code that ran), takes the
signature and the first paragraph of the docstring from the kit itself, and
puts the three side by side in «Scrivere un laboratorio». A test checks that
every name in labs.kit.__all__ is here: a new component without an example
fails it, so the page cannot fall behind the kit.
"""

# Figures: (function, the dataclasses it draws, a call). The page shows the drawing.
FIGURES = [
    ("stats", ["stat"], 'stats(stat("loss", "2,12"),\n      stat("perplessità", "8,3", tone="warn"))'),
    ("formula", [], 'formula("loss = −log ", num(0.12), " = ", num(2.12))'),
    ("callout", [], 'callout("Il token giusto aveva solo il 12 %.", tone="warn")'),
    (
        "panel",
        [],
        'panel(formula("loss = −log ", num(0.12), " = ", num(2.12)),\n      title="La loss di un token", part="loss")',
    ),
    (
        "columns",
        [],
        'columns(panel(callout("Prima del passo"), title="Prima"),\n'
        '        panel(callout("Dopo il passo", tone="ok"), title="Dopo"))',
    ),
    ("table", [], 'table(["token", "probabilità"],\n      [["«gatto»", "62 %"], ["«cane»", "31 %"]])'),
    (
        "fold",
        [],
        'fold("La tabella intera", "tabella", True,\n'
        '     lambda: [table(["passo", "loss"], [["0", "2,30"], ["1", "1,41"]])])',
    ),
    (
        "bars",
        ["Bar"],
        'bars([Bar("«gatto»", 0.62, highlight=True),\n'
        '      Bar("«cane»", 0.31, class_="s2",\n'
        '          action="giusta=cane", spoken="Scegli «cane»"),\n'
        '      Bar("«topo»", 0.07, class_="muted")],\n'
        '     label="Probabilità del token successivo")',
    ),
    (
        "line_chart",
        ["Series", "Marker", "Handle"],
        "line_chart(\n"
        '    [Series("loss", ((0, 2.3), (1, 1.4), (2, 0.95), (3, 0.8), (4, 0.74)),\n'
        "            markers=True)],\n"
        '    label="La loss passo dopo passo", x_label="passo", y_label="loss",\n'
        "    x_range=(0, 4), y_range=(0, 2.5),\n"
        '    markers=[Marker(0.69, "log 2", class_="s3", axis="y")],\n'
        '    handles=[Handle(2, 0.95, x_name="passo", y_name=None,\n'
        '                    label="Trascina il passo")])',
    ),
    (
        "histogram",
        [],
        "histogram([0.12, -0.3, 0.45, 0.05, -0.1, 0.3, 0.22, -0.05, 0.15, 0.4],\n"
        '          bins=6, label="Dieci valori", x_label="valore",\n'
        '          markers=[Marker(0.124, "media", class_="s2")])',
    ),
    (
        "matrix",
        [],
        'matrix([[1.0, 0.5, -0.25], [-1.5, 2.0, 0.0]], label="W", heat=True,\n'
        '       row_labels=["riga 1", "riga 2"], col_labels=["a", "b", "c"],\n'
        "       highlight_cells=[(1, 1)])",
    ),
    (
        "heat",
        [],
        "heat([[(i - j) / 9 for j in range(24)] for i in range(8)],\n"
        '     label="Una matrice 8 × 24", row_labels=["il", "gatto", "dorme",\n'
        '     "sul", "divano", ".", "il", "cane"])',
    ),
    ("vector", [], 'vector([0.2, -1.0, 0.7], label="x",\n       labels=["il", "gatto", "dorme"], highlight=[1])'),
    (
        "equation",
        [],
        'equation(matrix([[1, 2], [3, 4]], label="A"), "·",\n'
        '         vector([1, 0], label="x"), "=",\n'
        '         vector([1, 3], label="Ax", emphasize=True))',
    ),
    (
        "plane",
        ["Arrow", "Point", "Guide", "Shape", "Circle", "Arc", "Label"],
        "plane([Circle((0, 0), 1),\n"
        '       Shape(((0, 0), (1, 0), (1, 1)), style="c"),\n'
        '       Guide((2, 1), (2, 0), label="ombra"),\n'
        '       Arc((0, 0), (1, 0), (2, 1), label="θ"),\n'
        '       Arrow((2, 1), label="a", drag=("ax", "ay")),\n'
        '       Point((-1, 1.5), "b", style="b"),\n'
        '       Label((-1.2, -1), "un\'etichetta")],\n'
        '      (-2, 3), (-1.5, 2), label="Un piano con un po\' di tutto", width=320)',
    ),
    (
        "presets",
        [],
        'presets("Prova:", [("Ruota di 90°", {"a11": 0.0, "a12": -1.0}),\n'
        '                   ("Identità", {"a11": 1.0, "a12": 0.0})])',
    ),
    (
        "network",
        ["Node"],
        'network([[Node("nuvole", 0.8, caption="0,8"),\n'
        '          Node("vento", 0.2, caption="0,2")],\n'
        '         [Node("ombrello", 0.62, caption="0,62")]],\n'
        '        [[[0.9, -0.4]]], label="Un neurone con due ingressi", width=420)',
    ),
    (
        "token_chips",
        [],
        'token_chips([{"text": "il", "note": "1 · ID 1", "set": "posizione=1"},\n'
        '             {"text": "gatto", "note": "2 · ID 2", "set": "posizione=2"},\n'
        '             {"text": "dorme", "note": "3 · ID 5", "set": "posizione=3"}],\n'
        '            current=1, after="→ sul?")',
    ),
    ("stage_buttons", [], 'stage_buttons([("forme", "1. Le forme"), ("pesi", "2. I pesi")], "pesi")'),
    ("recap", [], 'recap("Fase prima:", vector([0.2, -1.0], label="x"))'),
    (
        "chain",
        ["ChainNode"],
        'chain([ChainNode("w", "0,5", "−0,4"),\n'
        '       ChainNode("z = w·x", "1", "−0,2", active=True),\n'
        '       ChainNode("L = (z − y)²", "0,04", "1")],\n'
        '      ["· x", "(· − y)²"], label="Una catena di operazioni",\n'
        "      active_edge=1)",
    ),
]

# Text helpers: a call and the text it returns (escaped when the page shows it).
TEXT = [
    ("num", "num(-0.8765)"),
    ("percent", "percent(0.283, 1)"),
    ("share", "share(0.99985)"),
    ("factor", "factor(-0.5, 1)"),
    ("plural", 'plural(3, "fusione", "fusioni")'),
    ("the", 'the("8 %")'),
    ("significant", "significant(6.7432)"),
    ("big", "big(6.74e9)"),
    ("sci", "sci(8.4e22)"),
    ("data_size", "data_size(1.35e10)"),
    ("duration", "duration(187)"),
    ("quoted", 'quoted("gatto")'),
    ("read_words", 'read_words("il gatto vola", (".", "il", "gatto", "dorme"), 8, "il gatto dorme")'),
    ("corpus_problem", 'corpus_problem(["gatto", "gatto"], ["gatto"], max_vocab=20)'),
    ("frozen", "frozen([[1, 2], [3, 4]])"),
    ("cell_text", "cell_text(1.50)"),
    ("term", "term(-1.5)"),
    ("vector_text", "vector_text([2, 1.5])"),
    ("shape_label", "shape_label(2, 3, 4)"),
    ("heat_class", "heat_class(-0.3, 1.0)"),
    ("opened", 'opened({"sezioni": ("tabella",)}, "tabella")'),
    ("nice_ticks", "nice_ticks(0, 7)"),
    ("label_sides", 'label_sides([(0, 0), (0.1, 0)], ["re", "regina"], (-1, 1), (-1, 1), 300)'),
    ("tag", 'tag("p", "Ciao, ", tag("strong", "<mondo>"), class_="nota")'),
    ("join", 'join("x", tag("sub", "1"), " + 1")'),
    ("esc", 'esc("<b>gatto</b>")'),
    ("raw", 'raw("<br>")'),
    ("Html", 'Html("<em>già sicuro</em>")'),
]

# Declared controls (the example lab shows them drawn) and what follow(state) may say of them.
CONTROLS = ["Slider", "Choice", "Text", "Toggle", "Group", "Follow"]

# Stepped labs, listed with their signatures (and phase_screen, for a view drawn one phase at a time; known, for
# a costly start the prerendered page already shows).
STEPPED = ["Steps", "Jump", "Curve", "step_machine", "Memo", "timeline", "phase_screen", "known"]

# The experiments the prose suggests («Prova»), the edits a lab suggests to its own code («Prova a cambiare…»)
# and the letters it gives a meaning of its own (SYMBOLS: labs.kit.symbols, the site's glossary).
CODE = ["Experiment", "Edit", "Symbol"]

# What a lab declares for the reader to do: exercises and «Prevedi» questions.
EXERCISES = ["Exercise", "Case", "Wrong", "Question"]

# Errors a lab raises or meets.
ERRORS = ["LabError", "ParamError"]
