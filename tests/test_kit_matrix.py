"""labs.kit.matrices: tables of numbers with highlights, clicks and heat."""

from html.parser import HTMLParser

import pytest

from labs.kit import Html, equation, matrix, shape_label, vector
from labs.kit.matrices import cell_text, heat_class


class Cells(HTMLParser):
    """Collects every <td> with its attributes and text, row by row."""

    def __init__(self, html):
        super().__init__()
        self.rows, self.cell, self.texts, self.tags = [], None, [], []
        self.feed(str(html))

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "tr":
            self.rows.append([])
        if tag == "td":
            self.cell = dict(attrs)
            self.cell["text"] = ""
            self.rows[-1].append(self.cell)

    def handle_endtag(self, tag):
        if tag == "td":
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell["text"] += data
        self.texts.append(data)

    @property
    def grid(self):
        return [row for row in self.rows if row]


def classes(cell):
    return set(cell.get("class", "").split())


def test_a_matrix_has_rows_times_cols_cells_and_its_shape():
    out = matrix([[1, 2, 3], [4, 5, 6]], label="A")
    assert isinstance(out, Html)
    grid = Cells(out).grid
    assert [len(r) for r in grid] == [3, 3]
    assert [[c["text"] for c in r] for r in grid] == [["1", "2", "3"], ["4", "5", "6"]]
    assert "[2\u00a0×\u00a03]" in out and 'data-rows="2"' in out and 'data-cols="3"' in out
    assert [(c["data-i"], c["data-j"]) for c in grid[1]] == [("1", "0"), ("1", "1"), ("1", "2")]


def test_numbers_are_italian_and_trimmed():
    grid = Cells(matrix([[-1.5, 2.0, 0.25, -0.0, 1234.5]])).grid
    assert [c["text"] for c in grid[0]] == ["−1,5", "2", "0,25", "0", "1.234,5"]
    assert cell_text(0.5, trim=False) == "0,50"
    assert cell_text(2.0, digits=3) == "2"
    assert cell_text(None) == "" and cell_text("?") == "?"


def test_brackets_mark_the_outer_cells():
    grid = Cells(matrix([[1, 2], [3, 4], [5, 6]])).grid
    assert {"mx-l", "mx-tl"} <= classes(grid[0][0]) and {"mx-r", "mx-tr"} <= classes(grid[0][1])
    assert {"mx-l", "mx-bl"} <= classes(grid[2][0]) and {"mx-r", "mx-br"} <= classes(grid[2][1])
    assert not classes(grid[1][0]) & {"mx-tl", "mx-bl", "mx-r"}
    single = Cells(matrix([[7]])).grid[0][0]
    assert {"mx-tl", "mx-tr", "mx-bl", "mx-br"} <= classes(single)


def test_highlights_and_muting():
    grid = Cells(
        matrix([[1, 2, 3], [4, 5, 6]], highlight_rows=[1], highlight_cols=[2], highlight_cells=[(0, 0)], muted_rows=[0])
    ).grid
    assert [("is-row" in classes(c)) for r in grid for c in r] == [False] * 3 + [True] * 3
    assert [("is-col" in classes(c)) for r in grid for c in r] == [False, False, True] * 2
    assert [("is-hl" in classes(c)) for r in grid for c in r] == [True] + [False] * 5
    assert [("is-muted" in classes(c)) for r in grid for c in r] == [True] * 3 + [False] * 3


def test_clickable_cells_carry_data_set_and_are_keyboard_buttons():
    out = matrix(
        [[1, 2], [3, 4]], clickable=lambda i, j: f"i={i};j={j}" if j else None, row_labels=["prima", "seconda"]
    )
    grid = Cells(out).grid
    for i, row in enumerate(grid):
        assert "data-set" not in row[0]
        assert row[1]["data-set"] == f"i={i};j=1"
        assert row[1]["tabindex"] == "0" and row[1]["role"] == "button" and row[1]["aria-label"]
    assert "prima" in grid[0][1]["aria-label"]
    # the name starts with the number the cell shows (WCAG 2.5.3, label in name), then what it does
    assert grid[1][1]["aria-label"].startswith("4: ")
    custom = Cells(matrix([[1]], clickable=lambda i, j: ("k=0", "Scegli questo"))).grid[0][0]
    assert custom["aria-label"] == "1: Scegli questo"


def test_a_row_picked_by_its_name_is_one_button_and_the_whole_row_sets_it():
    """pick_row: the row's name is its one button (one tab stop per row), the <tr> carries the data-set a
    click anywhere in it sets; the cells are plain; the highlighted row's button is the current one."""
    out = str(
        matrix(
            [[1, 2], [3, 4], [5, 6]],
            row_labels=["«a»", "b", Html("<em>c</em>")],
            highlight_rows=[1],
            pick_row=lambda i: (
                None if i == 2 else (f"riga={i + 1}", "Segui la riga di «a»") if i == 0 else f"riga={i + 1}"
            ),
        )
    )
    parsed = Cells(out)
    trs = [attrs for tag, attrs in parsed.tags if tag == "tr"]
    assert [t.get("data-set") for t in trs] == ["riga=1", "riga=2", None]
    buttons = [attrs for tag, attrs in parsed.tags if tag == "button"]
    assert len(buttons) == 2 and all(b["type"] == "button" and b["class"] == "lab-mx-pick" for b in buttons)
    # the spoken name holds the visible one: the lab's words when they contain it, else «Seleziona …»
    assert [b["aria-label"] for b in buttons] == ["Segui la riga di «a»", "Seleziona b"]
    assert [b.get("aria-current") for b in buttons] == [None, "true"]
    assert "<em>c</em></th>" in out  # a row without a target keeps its plain name
    for cell in (c for row in parsed.grid for c in row):
        assert not {"data-set", "tabindex", "role", "aria-label"} & set(cell)
    named = str(matrix([[1]], row_labels=["x"], pick_row=lambda i: ("k=0", "Scegli questa riga")))
    assert 'aria-label="x: Scegli questa riga"' in named
    # the memory of drawn tables tells tables apart by their rows' targets too
    assert str(matrix([[1]], row_labels=["x"], pick_row=lambda i: "k=1")) != str(
        matrix([[1]], row_labels=["x"], pick_row=lambda i: "k=2")
    )
    with pytest.raises(ValueError, match="row_labels"):
        matrix([[1]], pick_row=lambda i: "k=0")


def test_vectors_as_column_or_row():
    col = Cells(vector([1, 2, 3], label="x", highlight=[1], clickable=lambda k: f"k={k}")).grid
    assert [len(r) for r in col] == [1, 1, 1]
    assert [c[0]["data-set"] for c in col] == ["k=0", "k=1", "k=2"]
    assert "is-hl" in classes(col[1][0]) and "la posizione 1" in col[1][0]["aria-label"]
    row_html = vector([1, 2, 3], column=False, labels=["a", "b", "c"], muted=[0])
    row = Cells(row_html).grid
    assert [len(r) for r in row] == [3] and "is-muted" in classes(row[0][0])
    assert "[3]" in row_html and "[1\u00a0×\u00a03]" not in row_html
    assert "[1 × 3]" in vector([1, 2, 3], column=False, shape="[1 × 3]")


def test_labels_are_escaped():
    evil = "<script>alert(1)</script>"
    out = matrix(
        [[evil, 1]],
        label=evil,
        row_labels=[evil],
        col_labels=[evil, "b"],
        caption=evil,
        clickable=lambda i, j: (f"x={evil}", evil),
    )
    assert "<script" not in out
    assert "&lt;script&gt;" in out
    assert "<script" not in equation(evil, out)
    assert "<script" not in vector([1], labels=[evil], label=evil)


def test_row_and_column_labels():
    out = matrix([[1, 2]], row_labels=["r0"], col_labels=["c0", "c1"], highlight_rows=[0], highlight_cols=[1])
    parsed = Cells(out)
    ths = [attrs for tag, attrs in parsed.tags if tag == "th"]
    assert len(ths) == 3  # two column labels, one row label (the empty corner is a td: it names nothing)
    assert "r0" in parsed.texts and "c1" in parsed.texts
    assert sum("is-hl" in a.get("class", "") for a in ths) == 2


def test_heat_classes_follow_sign_and_size():
    assert heat_class(1.0, 1.0) == "lab-heat-p4"
    assert heat_class(-0.1, 1.0) == "lab-heat-n1"
    assert heat_class(0.5, 1.0) == "lab-heat-p2"
    assert heat_class(0, 1.0) is None and heat_class(1, 0) is None and heat_class("x", 1) is None
    assert heat_class(float("nan"), 1.0) is None
    grid = Cells(matrix([[-4, 0, 1, 4]], heat=True)).grid[0]
    assert [
        "lab-heat-n4" in classes(grid[0]),
        any(c.startswith("lab-heat") for c in classes(grid[1])),
        "lab-heat-p1" in classes(grid[2]),
        "lab-heat-p4" in classes(grid[3]),
    ] == [True, False, True, True]
    fixed = Cells(matrix([[1, 2]], heat=8)).grid[0]
    assert "lab-heat-p1" in classes(fixed[0]) and "lab-heat-p1" in classes(fixed[1])


def test_equation_lays_out_pieces_and_operators():
    out = equation(matrix([[1]]), "·", matrix([[2]]), "=", matrix([[2]]))
    assert out.startswith('<div class="lab-eq">')
    assert out.count('class="lab-eq-op"') == 2 and out.count("<figure") == 3
    assert "is-text" in equation("somma per colonna →")


@pytest.mark.parametrize(
    "dims, text", [((2, 3), "[2 × 3]"), ((4,), "[4]"), ((2, 3, 4), "[2 × 3 × 4]"), ((1000, 10), "[1.000 × 10]")]
)
def test_shape_label(dims, text):
    assert shape_label(*dims) == text.replace(" ", "\u00a0")  # no-break: a shape never splits


def test_empty_and_ragged_input_do_not_crash():
    assert Cells(matrix([])).grid == []
    grid = Cells(matrix([[1, 2], [3]])).grid
    assert [len(r) for r in grid] == [2, 2] and grid[1][1]["text"] == ""


def test_emphasize_tints_a_whole_vector_without_rings():
    col = Cells(vector([1, 2], emphasize=True)).grid
    assert all("is-col" in classes(r[0]) and "is-hl" not in classes(r[0]) for r in col)
    row = Cells(vector([1, 2], column=False, emphasize=True)).grid[0]
    assert all("is-row" in classes(c) for c in row)


def test_a_table_drawn_again_is_remembered_and_equal_to_a_new_drawing():
    import sys

    drawn = sys.modules["labs.kit.matrices"].DRAWN
    args = dict(
        row_labels=["a", "b"],
        col_labels=["x", "y"],
        highlight_cells=[(0, 1)],
        heat=True,
        clickable=lambda i, j: f"i={i};j={j}",
    )
    first = matrix([[1.5, -2.0], [0.25, 3.0]], "W", **args)
    again = matrix([[1.5, -2.0], [0.25, 3.0]], "W", **args)
    assert again is first  # not written again
    drawn.clear()
    assert matrix([[1.5, -2.0], [0.25, 3.0]], "W", **args) == first
    # whatever the markup tells apart, the memory tells apart too
    others = [
        matrix([[1.5, -2.0], [0.25, 3.0]], "W", **{**args, "highlight_cells": [(1, 1)]}),
        matrix([[1.5, -2.0], [0.25, 3.0]], "W", **{**args, "clickable": lambda i, j: f"i={j};j={i}"}),
        matrix([[1.5, -2.0], [0.25, 3.0]], Html("<b>W</b>"), **args),
        matrix([[1.5, -2.0], [0.25, 3.0]], "<b>W</b>", **args),
    ]
    assert len({first, *others}) == 5
    assert matrix([[1, 2]], trim=False) != matrix([[1.0, 2.0]], trim=False)  # 1 and 1,00
    drawn.clear()  # highlights given once, as a generator, are read once for the memory and the drawing
    assert matrix([[1.5, -2.0], [0.25, 3.0]], "W", **{**args, "highlight_cells": (c for c in [(0, 1)])}) == first


@pytest.mark.parametrize(
    "lab_id", [lab.id for lab in __import__("labs").all_labs() if lab.id != "transformer-allenato"]
)
def test_remembered_drawings_leave_every_view_as_it_was(lab_id):
    """Random settings drawn with the tables, axes and grids remembered from the
    settings before, and from nothing: the same view, on every lab (3.2 in the
    browser tests: its steps train a model)."""
    import random

    import labs
    from labs.kit.memory import forget_all

    lab = labs.get(lab_id)
    rng = random.Random(lab_id)
    for _ in range(8):
        params = {
            c.name: (
                rng.choice([c.min, c.max, c.default])
                if c.kind == "slider"
                else rng.choice(c.options)[0]
                if c.kind == "choice"
                else rng.choice(["0", "1"])
                if c.kind == "toggle"
                else rng.randint(0, c.max)
                if c.kind == "steps"
                else c.default
            )
            for c in lab.params_list
            if c.kind in ("slider", "choice", "toggle", "steps")
        }
        raw = {k: str(v) for k, v in params.items()}
        remembered = labs.render(lab_id, raw)
        forget_all()
        assert labs.render(lab_id, raw) == remembered


def test_header_cells_keep_html_and_escape_text_as_tag_does():
    out = matrix(
        [[1, 2], [3, 4]],
        row_labels=[Html("<i>x</i>"), None],
        col_labels=["a<b", Html("<sub>2</sub>")],
        highlight_rows=[0],
        highlight_cols=[1],
    )
    assert '<th scope="row" class="lab-mx-row is-hl"><i>x</i></th>' in out
    assert '<th scope="row" class="lab-mx-row"></th>' in out
    assert '<th scope="col" class="lab-mx-col">a&lt;b</th>' in out
    assert '<th scope="col" class="lab-mx-col is-hl"><sub>2</sub></th>' in out
