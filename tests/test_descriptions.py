"""Every figure says in words what it shows now: a short Italian
description of its data, computed by the kit (or written by the lab), in the
SVG's <desc> and in a paragraph for screen readers that aria-describedby
names. Checked on every lab in several states, and figure by figure against
the data it draws (numpy where it counts)."""

import math
import random
import re
from html.parser import HTMLParser

import numpy as np
import pytest

import labs
from labs.kit import (
    Arrow,
    Bar,
    ChainNode,
    Curve,
    Node,
    Point,
    Series,
    Steps,
    bars,
    chain,
    histogram,
    line_chart,
    matrix,
    network,
    plane,
    tag,
    timeline,
    vector,
)
from labs.kit.controls import Choice, Slider, Toggle
from labs.kit.matrices import cell_text
from labs.kit.planes import vector_text
from labs.kit.svg import amount, svg, unique_ids

ALL = labs.all_labs()
ENGLISH = re.compile(r"\b(the|and|of|with|max|min|rows?|columns?|highest|lowest)\b")  # what the kit could slip in
ITALIAN = re.compile(
    r"\b(il|la|lo|un|una|da|di|a|e|con|più|valore|valori|barra|barre|punto|punti|serie|righe|"
    r"colonne|rete|catena|neuroni|classi|sale|scende|resta|vale|frecce|freccia)\b",
    re.IGNORECASE,
)
# an English decimal point (0.5, 12.34) or a hyphen as a minus: a thousands point has exactly three digits after it
NOT_ITALIAN_NUMBER = re.compile(r"\d\.(\d{1,2}|\d{4,})(?!\d)|(?<![\w)])-\d|\b(nan|inf|None|True|False)\b")
LONGEST = 320  # characters: a sentence or two, never the data


class Figures(HTMLParser):
    """The figures of a view (outermost drawings with a role, the kit's matrix
    tables), the text of every element with an id, and each drawing's <desc>."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.figures = []  # dicts: kind, title, describedby, desc
        self.ids = []
        self.text_of = {}
        self.open_ids = []  # (id, depth) of elements with an id still open
        self.stack = []
        self.svg_depth = 0
        self.reading = None  # "title" / "desc" of the current outermost drawing

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.stack.append(tag)
        if a.get("id"):
            self.ids.append(a["id"])
            self.text_of[a["id"]] = ""
            self.open_ids.append((a["id"], len(self.stack)))
        if tag == "svg":
            self.svg_depth += 1
            if self.svg_depth == 1 and a.get("role") in ("img", "group"):
                self.figures.append(
                    {
                        "kind": "svg",
                        "title": "",
                        "desc": "",
                        "describedby": a.get("aria-describedby"),
                        "class": a.get("class", ""),
                    }
                )
        elif tag == "table" and "lab-mx-table" in (a.get("class") or ""):
            self.figures.append(
                {
                    "kind": "matrix",
                    "title": "",
                    "desc": None,
                    "describedby": a.get("aria-describedby"),
                    "class": a.get("class", ""),
                }
            )
        elif tag in ("title", "desc") and self.svg_depth == 1 and self.figures and self.figures[-1]["kind"] == "svg":
            self.reading = tag

    def handle_endtag(self, tag):
        while self.stack:
            open_tag = self.stack.pop()
            self.open_ids = [(i, d) for i, d in self.open_ids if d <= len(self.stack)]
            if open_tag == "svg":
                self.svg_depth -= 1
            if open_tag in ("title", "desc"):
                self.reading = None
            if open_tag == tag:
                break

    def handle_data(self, data):
        for id_, _ in self.open_ids:
            self.text_of[id_] += data
        if self.reading:
            self.figures[-1][self.reading] += data


def parsed(html):
    parser = Figures()
    parser.feed(str(html))
    parser.close()
    return parser


def descriptions(html):
    """{figure's title or class: its description}, checking that each figure is described as it should be."""
    found = parsed(html)
    twice = sorted(i for i in found.ids if found.ids.count(i) > 1)
    assert not twice, f"id ripetuti: {twice}"
    told = []
    for figure in found.figures:
        name = figure["title"] or figure["class"]
        assert figure["describedby"], f"figura senza descrizione: {name}"
        text = " ".join(found.text_of.get(figure["describedby"], "").split())
        assert text, f"«{name}»: aria-describedby={figure['describedby']} non nomina un testo"
        if figure["kind"] == "svg":
            assert " ".join(figure["desc"].split()) == text, f"«{name}»: <desc> e il paragrafo dicono cose diverse"
        told.append((name, text))
    return told


def assert_italian(name, text):
    assert len(text) <= LONGEST, f"«{name}»: descrizione di {len(text)} caratteri: {text}"
    assert text != name
    assert ITALIAN.search(text), f"«{name}»: non sembra italiano: {text}"
    assert not ENGLISH.search(text), f"«{name}»: parole inglesi: {text}"
    assert not NOT_ITALIAN_NUMBER.search(text), f"«{name}»: numero non scritto all'italiana: {text}"


def states(lab):
    """The default, every control at its top, at its bottom, and a stepped lab a few steps in."""
    top, bottom = {}, {}
    for c in lab.params_list:
        if isinstance(c, Slider):
            top[c.name], bottom[c.name] = c.max, c.min
        elif isinstance(c, Choice):
            values = [v for v, _ in c.options]
            top[c.name], bottom[c.name] = values[-1], values[0]
        elif isinstance(c, Toggle):
            top[c.name], bottom[c.name] = True, False
    if lab.steps:
        top[lab.steps.name] = bottom[lab.steps.name] = lab.steps.default
        return [{}, top, bottom, {lab.steps.name: min(lab.steps.max, 5)}]
    return [{}, top, bottom]


def raw(values):
    return {k: "1" if v is True else "0" if v is False else str(v) for k, v in values.items()}


SVG_TAG = re.compile(r"<(/?)svg\b[^>]*>")
DESCRIBING = re.compile(r'<desc>.*?</desc>|<p id="lab-d-[^"]*" class="lab-sr">.*?</p>|lab-d-[0-9a-f-]+', re.S)


def drawings(html):
    """The markup of the view's figures (outermost drawings and matrices), without their descriptions."""
    parts, depth, start = [], 0, 0
    for match in SVG_TAG.finditer(html):
        if not match.group(1):
            if depth == 0:
                start = match.start()
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                parts.append(html[start : match.end()])
    parts += re.findall(r'<figure class="lab-mx.*?</figure>', html, re.S)
    return DESCRIBING.sub("", "".join(parts))


@pytest.mark.parametrize("lab", ALL, ids=[lab.id for lab in ALL])
def test_every_figure_of_every_lab_is_described_in_italian_and_follows_the_state(lab):
    views, told = [], []
    for values in states(lab):
        result = labs.render(lab.id, raw(values))
        assert result["ok"], result.get("error")
        views.append(result["html"])
        told.append([text for _, text in descriptions(result["html"])])
        for name, text in descriptions(result["html"]):
            assert_italian(name, text)
        if "timeline" in result:
            for name, text in descriptions(result["timeline"]):
                assert_italian(name, text)
    # the descriptions are drawn with the view: when the figures' data change, some description changes too
    drawn = [drawings(view) for view in views]
    for k in range(1, len(views)):
        if drawn[k] != drawn[0] and told[k] and told[0]:
            assert told[k] != told[0], f"{lab.id}: figure cambiate, descrizioni uguali ({states(lab)[k]})"


def described(html):
    """The one figure's description (and its <desc>, checked equal), as plain text."""
    told = descriptions(html)
    assert len(told) == 1, told
    return told[0][1]


# bars


def test_bars_name_the_highest_and_lowest_bar_with_their_text_and_change_with_the_data():
    rng = random.Random(3)
    for _ in range(20):
        values = [rng.uniform(-1, 1) for _ in range(rng.randint(2, 8))]
        items = [Bar(f"token{k}", v) for k, v in enumerate(values)]
        text = described(bars(items, label="Valori", lo=-1, hi=1))
        top, low = int(np.argmax(values)), int(np.argmin(values))

        def shown(v):  # as bars() writes a signed value: +0,30, −0,88
            return ("+" if v > 0 and f"{v:.2f}" != "0.00" else "") + f"{v:.2f}".replace(".", ",").replace("-", "−")

        assert f"Valore più alto: token{top}, {shown(values[top])}" in text, text
        assert f"più basso: token{low}, {shown(values[low])}" in text, text
        assert text.startswith(f"{len(values)} barre")
        values[top] -= 3
        changed = described(bars([Bar(f"token{k}", v) for k, v in enumerate(values)], label="Valori", lo=-1, hi=1))
        assert changed != text and f"Valore più alto: token{int(np.argmax(values))}," in changed


def test_bars_use_the_text_they_show_and_say_ties_and_the_row_in_evidence():
    text = described(
        bars(
            [
                Bar("«gatto»", 0.62, text="62 %"),
                Bar("«cane»", 0.31, text="31 %", highlight=True),
                Bar("«topo»", 0.07, text="7 %"),
            ],
            label="Probabilità",
        )
    )
    assert text == "3 barre. Valore più alto: «gatto», 62 %; più basso: «topo», 7 %. In evidenza: «cane», 31 %."
    assert described(bars([Bar("a", 0.5), Bar("b", 0.5)], label="P")) == "2 barre, tutte a 0,50."
    ties = bars([Bar("a", 0.5), Bar("b", 0.5), Bar("c", 0.1)], label="P")
    assert "più alto: a (e un'altra), 0,50" in described(ties)
    assert described(bars([Bar("solo", 0.25)], label="P")) == "Una barra: solo, 0,25."


# line charts and histograms


def test_a_line_chart_says_where_each_series_starts_and_ends_and_its_extremes_between():
    xs = np.linspace(0, 4, 41)
    ys = (xs - 2.6) ** 2 + 0.5
    text = described(line_chart([Series("loss", tuple(zip(xs, ys)))], label="Loss", x_label="passo di training"))
    k = int(np.argmin(ys))
    assert text == (
        f"Da passo 0 a passo 4: «loss» scende da {amount(float(ys[0]))} a {amount(float(ys[-1]))}, "
        f"minimo {amount(float(ys[k]))} (passo {amount(float(xs[k]))})."
    )
    assert amount(float(ys[k])) == "0,5" and amount(float(xs[k])) == "2,6"
    rising = described(line_chart([Series("loss", tuple(zip(xs, -ys)))], label="Loss", x_label="passo"))
    assert "«loss» sale da −7,26 a −2,46, massimo −0,5 (passo 2,6)" in rising


def test_a_line_chart_with_many_series_stays_a_sentence():
    series = [Series(f"curva numero {k}", tuple((x, k * x) for x in range(10))) for k in range(8)]
    text = described(line_chart(series, label="Tante curve"))
    assert len(text) <= LONGEST and "«curva numero 0» resta a 0" in text
    assert re.search(r"e altre \d serie\.$", text)
    apart = described(
        line_chart(
            [Series("a", ((0, 1), (1, 2))), Series("b", ((5, 3), (9, 1))), Series("c", ((0, 7),))],
            label="Sparse",
            x_label="η",
        )
    )
    assert apart == (
        "«a» sale da 1 (η = 0) a 2 (η = 1); «b» scende da 3 (η = 5) a 1 (η = 9); «c»: un punto, 7 (η = 0)."
    )


def test_a_histogram_names_its_fullest_class_as_numpy_counts_it():
    rng = random.Random(5)
    values = [rng.gauss(0.3, 1.0) for _ in range(500)]
    counts, edges = np.histogram(values, bins=12)
    k = int(np.argmax(counts))
    text = described(histogram(values, bins=12, label="Valori"))
    assert text == (
        f"12 classi da {amount(float(edges[0]))} a {amount(float(edges[-1]))}, 500 valori; la più piena "
        f"va da {amount(float(edges[k]))} a {amount(float(edges[k + 1]))}, con {counts[k]} valori."
    )
    assert described(histogram([], bins=4, lo=0, hi=1, label="Vuoto")) == "4 classi da 0 a 1, nessun valore."
    shifted = [v + 3 for v in values[:250]] + values[250:]  # half of them moved: another class is the fullest
    counts, edges = np.histogram(shifted, bins=12)
    k = int(np.argmax(counts))
    changed = described(histogram(shifted, bins=12, label="Valori"))
    fullest = f"va da {amount(float(edges[k]))} a {amount(float(edges[k + 1]))}, con {counts[k]} valori"
    assert changed != text and fullest in changed


# planes


def test_a_plane_lists_few_points_and_tells_the_extremes_of_many():
    text = described(
        plane([Arrow((2, 1), label="a"), Point((-1, 1.5), "b"), Point((0, 0))], (-2, 3), (-2, 2), label="Piano")
    )
    assert text == "Una freccia e 2 punti: a [2 ; 1], b [−1 ; 1,5]."
    rng = random.Random(11)
    points = [(round(rng.uniform(-2, 2), 2), round(rng.uniform(-2, 2), 2)) for _ in range(9)]
    items = [Point(p, f"w{k}", style="result" if k == 4 else "a") for k, p in enumerate(points)]
    text = described(plane(items, (-3, 3), (-3, 3), label="Parole"))
    norms = np.linalg.norm(np.array(points), axis=1)
    far, near = int(np.argmax(norms)), int(np.argmin(norms))
    assert text.startswith("9 punti; ")
    assert f"il più lontano dall'origine è w{far} {vector_text(points[far])}" in text
    assert f"il più vicino w{near} {vector_text(points[near])}" in text
    assert ("in evidenza w4" in text) == (4 not in (far, near))
    moved = described(
        plane([Arrow((2, -1), label="a"), Point((-1, 1.5), "b"), Point((0, 0))], (-2, 3), (-2, 2), label="Piano")
    )
    assert "a [2 ; −1]" in moved


# matrices and vectors


def test_a_matrix_names_its_largest_and_smallest_cell_where_numpy_finds_them():
    rng = random.Random(7)
    for _ in range(10):
        m = [[round(rng.uniform(-3, 3), 3) for _ in range(4)] for _ in range(3)]
        a = np.array(m)
        (ti, tj), (li, lj) = np.unravel_index(a.argmax(), a.shape), np.unravel_index(a.argmin(), a.shape)
        text = described(matrix(m, label="W", col_labels=["a", "b", "c", "d"]))
        assert text.startswith("3 righe e 4 colonne; ")
        assert f"il valore più grande è {cell_text(m[ti][tj])} (riga {ti + 1}, colonna «{'abcd'[tj]}»)" in text, text
        assert f"il più piccolo {cell_text(m[li][lj])} (riga {li + 1}, colonna «{'abcd'[lj]}»)" in text, text
    m[0][0] = 99.0
    changed = described(matrix(m, col_labels=["a", "b", "c", "d"]))
    assert changed != text and "il valore più grande è 99 (riga 1, colonna «a»)" in changed


def test_a_vector_is_told_by_position_and_a_repeated_value_by_how_many_cells():
    text = described(vector([0.2, -1.0, 0.7], label="x", labels=["il", "gatto", "dorme"], highlight=[1]))
    assert text == (
        "3 valori; il valore più grande è 0,7 (posizione «dorme»), "
        "il più piccolo −1 (posizione «gatto»). In evidenza: posizione «gatto», −1."
    )
    assert (
        described(vector([0, 1, 0, 0], column=False))
        == "4 valori; il valore più grande è 1 (posizione 2), il più piccolo 0 (in 3 caselle)."
    )
    assert described(matrix([[1, 0], [0, 1]], highlight_rows=[1])) == (
        "2 righe e 2 colonne; il valore più grande è 1 (in 2 caselle), il più piccolo 0 (in 2 caselle). "
        "In evidenza la riga 2."
    )
    assert described(matrix([["a", "b"]])) == "2 valori di testo, senza numeri."


def test_a_big_matrix_picture_is_described_too():
    m = [[math.sin(i * 16 + j) for j in range(16)] for i in range(12)]  # 192 different values
    html = matrix(m, label="Pesi")
    assert 'class="lab-mx is-big' in html
    a = np.array(m)
    i, j = np.unravel_index(a.argmax(), a.shape)
    assert f"il valore più grande è {cell_text(m[i][j])} (riga {i + 1}, colonna {j + 1})" in described(html)


# networks, chains, the timeline's curve, a lab's own drawing


def test_a_network_names_its_strongest_weight_and_its_outputs():
    layers = [
        [Node("nuvole", 0.8, caption="0,8"), Node("vento", 0.2, caption="0,2")],
        [Node("ombrello", 0.62, caption="0,62")],
    ]
    text = described(network(layers, [[[0.9, -1.4]]], label="Neurone"))
    assert text == (
        "Rete con 2 strati (2 e 1 nodi) e 2 pesi; il più forte è −1,4, da vento a ombrello. In uscita: ombrello 0,62."
    )
    rng = random.Random(2)
    weights = [[[rng.uniform(-1, 1) for _ in range(3)] for _ in range(4)], [[rng.uniform(-1, 1) for _ in range(4)]]]
    layers = [[Node(f"x{i}") for i in range(3)], [Node(f"h{j}") for j in range(4)], [Node("y", caption="1")]]
    flat = [
        (abs(w), k, j, i) for k, rows in enumerate(weights) for j, row in enumerate(rows) for i, w in enumerate(row)
    ]
    _, k, j, i = max(flat)
    text = described(network(layers, weights, label="Rete"))
    names = [["x0", "x1", "x2"], ["h0", "h1", "h2", "h3"], ["y"]]
    assert f"il più forte è {cell_text(weights[k][j][i])}, da {names[k][i]} a {names[k + 1][j]}" in text
    assert text.startswith("Rete con 3 strati (3, 4 e 1 nodi) e 16 pesi")
    weights[1][0][2] = -5.0
    assert "il più forte è −5, da h2 a y" in described(network(layers, weights, label="Rete"))


def test_a_chain_tells_its_values_and_the_gradients_known_so_far():
    nodes = [ChainNode("w", "0,5", "−0,4"), ChainNode("z = w·x", "1", None), ChainNode("L", None, None)]
    assert (
        described(chain(nodes, ["· x", "²"], label="Catena"))
        == "Catena: w = 0,5 → z = w·x = 1 → L = ?. Gradienti: w: −0,4."
    )
    assert "Gradienti non ancora calcolati" in described(chain(nodes[1:], ["²"], label="Catena"))


def test_the_timeline_curve_says_first_last_and_lowest_value():
    steps = Steps(max=40, curve=Curve("loss", points=14))
    html = timeline(steps, 3, {"loss": [3.0, 1.25, 2.0]})
    assert described(html) == "3 valori: dal primo, 3, all'ultimo, 2; il più basso 1,25."
    assert described(timeline(steps, 0, {"loss": []})) == "Ancora nessun valore."


def test_a_lab_may_replace_or_extend_the_description_and_what_it_writes_is_escaped():
    items = [Bar("a", 0.2), Bar("b", 0.8)]
    assert described(bars(items, label="P", description="Vince b.")) == "Vince b."
    assert (
        described(bars(items, label="P", description=lambda auto: auto + " Vince b."))
        == "2 barre. Valore più alto: b, 0,80; più basso: a, 0,20. Vince b."
    )
    evil = "<script>alert(1)</script>"
    html = str(svg(100, 50, label="Disegno", description=evil))
    assert "<script" not in html and html.count("&lt;script&gt;") == 2
    assert described(html) == evil
    for drawn in (
        line_chart([Series("s", ((0, 1), (1, 2)))], label="L", description="Mia."),
        plane([Point((0, 0), "o")], (-1, 1), (-1, 1), label="P", description="Mia."),
        matrix([[1]], description="Mia."),
        vector([1, 2], description="Mia."),
        network([[Node("a")], [Node("b")]], [[[1.0]]], label="N", description="Mia."),
        histogram([1, 2], label="H", description="Mia."),
    ):
        assert described(drawn) == "Mia."
    assert "aria-describedby" not in str(svg(100, 50, label="Senza"))  # a drawing with nothing to say names nothing


def test_a_figure_drawn_twice_in_a_view_keeps_one_id_each():
    twice = unique_ids(
        tag("div", matrix([[1, 2]], label="W"), tag("p", "·"), matrix([[1, 2]], label="W"), matrix([[1, 2]], label="W"))
    )
    ids = re.findall(r' id="(lab-d-[^"]+)"', twice)
    refs = re.findall(r'aria-describedby="(lab-d-[^"]+)"', twice)
    assert len(set(ids)) == 3 and refs == ids and ids[1] == ids[0] + "-2" and ids[2] == ids[0] + "-3"
    assert len(descriptions(twice)) == 3
    once = tag("div", matrix([[1, 2]], label="W"))
    assert unique_ids(once) is once  # nothing to rename: the view is not copied
    assert unique_ids("<p>non Html</p>") == "<p>non Html</p>"


def test_the_authors_guide_documents_the_description_keyword_every_figure_takes():
    import inspect
    from pathlib import Path

    guide = (Path(__file__).resolve().parent.parent / "templates" / "guide.md.j2").read_text(encoding="utf-8")
    assert "description=" in guide and "aria-describedby" in guide
    for figure in (bars, line_chart, histogram, plane, network, chain, matrix, vector, svg):
        assert "description" in inspect.signature(figure).parameters, figure.__name__
