"""The arithmetic on screen adds up: every «a = b» of every lab, read as the reader reads it.

Every line of text of a view (a paragraph, a cell, a caption, an SVG label,
what a screen reader hears) and of the prose is read by labs.kit.arithmetic:
a calculation followed by «=» must give, on its numbers as written, the
result as written (to its last digit), or say «≈». A table that writes its
sum one row under the other («ingresso», «+ contributo», «= uscita») is
read column by column. Text inside data-arith="wrong" is a mistake shown on
purpose. Each lab is read at its defaults, at every control's extremes and,
if stepped, at its first steps.
"""

from html.parser import HTMLParser

import pytest

import labs
from labs.kit.arithmetic import problems, relations, settle, value
from labs.kit.controls import Choice, Slider, Steps, Toggle

ALL = labs.all_labs()
INLINE = {"strong", "em", "b", "i", "sub", "sup", "a", "code", "mark", "abbr", "br", "wbr", "kbd", "var"}
STEPS_READ = (0, 1, 5)  # a stepped lab's first steps, besides its default


class Lines(HTMLParser):
    """The text of a view as the lines a reader reads (a block element ends one), and its tables of sums."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines, self.current, self.wrong = [], [], []
        self.tables, self.rows, self.cell = [], None, None

    def flush(self):
        line = " ".join("".join(self.current).split())
        if line:
            self.lines.append(line)
        self.current = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag not in INLINE:
            self.flush()
        if tag not in ("br", "wbr", "input", "img", "hr", "path", "line", "rect", "circle", "use"):
            self.wrong.append(attrs.get("data-arith") == "wrong" or bool(self.wrong and self.wrong[-1]))
        if tag == "table" and "lab-mx-table" in (attrs.get("class") or ""):
            self.rows = []
        elif tag == "tr" and self.rows is not None:
            self.rows.append([])
        elif tag in ("td", "th") and self.rows is not None and self.rows:
            self.cell = []

    def handle_endtag(self, tag):
        if tag not in INLINE:
            self.flush()
        if tag not in ("br", "wbr", "input", "img", "hr", "path", "line", "rect", "circle", "use") and self.wrong:
            self.wrong.pop()
        if tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "table" and self.rows is not None:
            self.tables.append(self.rows)
            self.rows = None

    def handle_data(self, data):
        if self.wrong and self.wrong[-1]:
            return
        self.current.append(data)
        if self.cell is not None:
            self.cell.append(data)


def read(html):
    parser = Lines()
    parser.feed(html)
    parser.close()
    parser.flush()
    return parser.lines, parser.tables


def sums_drawn_as_rows(table):
    """«a = b + c» for each column of a table whose row names say «+ …» and «= …» (or «≈ …»: not judged)."""
    rows = [r for r in table if r]
    if len(rows) < 3 or rows[-1][0][:1] != "=":
        return []
    first = len(rows) - 2
    while first > 0 and rows[first][0][:1] in ("+", "−"):
        first -= 1
    rows = rows[first:]
    names = [r[0] for r in rows]
    if len(rows) < 3:
        return []
    lines = []
    for j in range(1, len(rows[-1])):
        terms = [f"({rows[0][j]})"] + [f"{n[0]} ({r[j]})" for n, r in zip(names[1:-1], rows[1:-1])]
        lines.append(f"{' '.join(terms)} = {rows[-1][j]}")
    return lines


def wrong_arithmetic(html):
    lines, tables = read(html)
    found = [p for line in lines for p in problems(line)]
    found += [p for table in tables for line in sums_drawn_as_rows(table) for p in problems(line)]
    return found


def settings(lab):
    """The defaults, each control at its extremes, a stepped lab at its first steps."""
    base = lab.defaults()
    yield base
    for control in lab.params_list:
        if isinstance(control, Slider):
            values = [control.min, control.max]
        elif isinstance(control, Steps):
            values = [s for s in STEPS_READ if s <= control.max]
        elif isinstance(control, Choice):
            values = [v for v, _ in control.options]
        elif isinstance(control, Toggle):
            values = [not base[control.name]]
        else:
            continue
        for v in values:
            if v != base[control.name]:
                yield {**base, control.name: v}


@pytest.mark.parametrize("lab", ALL, ids=[lab.id for lab in ALL])
def test_every_equation_adds_up_as_written(lab):
    found = {}
    for params in settings(lab):
        result = labs.render(lab.id, params)
        assert result["ok"], result.get("error")
        for problem in wrong_arithmetic(result["html"]):
            found.setdefault(problem, params)
    for problem in problems(" ".join(lab.prose.split())):
        found.setdefault(problem, "prosa")
    assert not found, f"{lab.id}: conti che non tornano con i numeri scritti: " + "; ".join(
        f"«{p}» ({'prosa' if where == 'prosa' else {k: v for k, v in where.items() if lab.defaults().get(k) != v}})"
        for p, where in list(found.items())[:5]
    )


def test_the_known_cases_are_read_as_wrong():
    assert problems("1 × 0,00 − 2 × 0,03 = −0,07") == ["1 × 0,00 − 2 × 0,03 = − 0,07"]
    assert problems("0,06 × [0,5 ; 0] + 0,78 × [1 ; 0] + 0,15 × [0 ; 1] = [0,82 ; 0,15]")
    assert problems("(0,03) + (−0,96) = −0,92")
    assert sums_drawn_as_rows([["", "a"], ["ingresso", "0,03"], ["+ contributo", "−0,96"], ["= uscita", "−0,92"]])


@pytest.mark.parametrize(
    "line",
    [
        "neurone n₃: 1,4·1 + (−0,3)·0 + 1,5·0 + 1,2·1 = 2,6 → ReLU → 2,6",
        "Anna · Bruno = 2·1 + 1·2 + (−1)·(−2) + 0·1 + 2·1 = 2 + 2 + 2 + 0 + 2 = 8",
        "quota dell'MLP = 135.266.304 / (67.108.864 + 135.266.304) = 67 %",
        "w₁ ← 0,5000 − 0,0300 × (−0,4474) = 0,5134",
        "attention 4 × d² = 4 × 4.096² = 67.108.864",
        "a + b = [2 ; 1] + [−1 ; 1,5] = [2 + (−1) ; 1 + 1,5] = [1 ; 2,5]",
        "la dimensione d14 va da 0,28 a 0,46 (0,28 + 0,18 = 0,46).",
        "|a| · |b| · cos θ = 3,16 × 2,24 × 0,71 = 5 = a · b",
    ],
)
def test_calculations_that_add_up_are_read_as_right(line):
    assert relations(line) and all(holds for *_, holds in relations(line))


@pytest.mark.parametrize(
    "line",
    [
        "|a| = √(3² + 4²) = √25 = 5",  # a root: not judged
        "perplexity = e^2,12",  # a power written with ^
        "[3 × 2] · [2 × 2] = [3 × 2]",  # shapes, not numbers
        "w − 3 ← (1 − 2η)·(w − 3) = 0,60 · (w − 3)",  # letters
        "Pesi in tutto3 × 4 = 27",  # glued to a word
        "x = 5, y = 3",  # no calculation on either side
    ],
)
def test_what_is_not_a_calculation_is_not_judged(line):
    assert not relations(line)


def test_settle_writes_approximately_where_the_written_numbers_do_not_add_up():
    assert settle("1 × 0,03 − 2 × 0,48 = −0,92") == "1 × 0,03 − 2 × 0,48 ≈ −0,92"
    assert settle("17 × 20 + 17 × 3 = 340 + 51 = 391") == "17 × 20 + 17 × 3 = 340 + 51 = 391"
    assert value("3,5 × 10⁻⁶")[0] == pytest.approx(3.5e-6)
