"""labs.kit.heat_pictures: a large matrix as one path per shade, with what the page needs to read its cells."""

import json
import random
import re
from html.parser import HTMLParser

from labs.kit import heat
from labs.kit.cells import describe_matrix
from labs.kit.heat_pictures import values_text


class Picture(HTMLParser):
    """The heat picture's svg attributes, its paths by class, its texts, mark and readout."""

    def __init__(self, html):
        super().__init__()
        self.svg, self.paths, self.names, self.mark, self.readout, self.box = None, {}, [], None, None, None
        self.desc, self._in = "", None
        self.feed(str(html))

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "svg" and "data-heat" in attrs:
            self.svg = attrs
        elif tag == "path":
            self.paths[attrs["class"]] = attrs["d"]
        elif tag == "rect" and attrs.get("class") == "lab-heat-mark":
            self.mark = attrs
        elif tag == "div" and "lab-heat-box" in attrs.get("class", ""):
            self.box = attrs
        elif tag == "p" and attrs.get("class") == "lab-heat-readout":
            self.readout = attrs
        self._in = tag if tag in ("text", "desc") else None

    def handle_data(self, data):
        if self._in == "text":
            self.names.append(data)
        elif self._in == "desc":
            self.desc += data

    def handle_endtag(self, tag):
        self._in = None


def squares(d):
    """The cells (x, y, size) a path draws: one «Mx yhWvHh-Wz» square each."""
    return [(int(x), int(y), int(w), int(h)) for x, y, w, h in re.findall(r"M(\d+) (\d+)h(\d+)v(\d+)h-\d+z", d)]


def decode(picture):
    """The values as the page reads them back: data-values split by «;», in rows of data-heat's cols."""
    left, top, cw, ch, rows, cols = map(int, picture.svg["data-heat"].split())
    fields = picture.svg["data-values"].split(";")
    assert len(fields) == rows * cols
    return [fields[i * cols : (i + 1) * cols] for i in range(rows)]


def test_one_path_per_level_and_every_nonzero_cell_drawn_once_where_the_geometry_says():
    values = [[0.9, -0.9, 0.0], [0.2, -0.45, 0.7], [-0.1, 0.5, 0.3]]
    p = Picture(heat(values, "W"))
    left, top, cw, ch, rows, cols = map(int, p.svg["data-heat"].split())
    assert (rows, cols) == (3, 3)
    assert set(p.paths) <= {f"lab-heat-{s}{k}" for s in "pn" for k in range(1, 5)}
    seen = {}
    for level, d in p.paths.items():
        for x, y, w, h in squares(d):
            assert (w, h) == (cw, ch)
            seen[((y - top) // ch, (x - left) // cw)] = level
    assert (0, 2) not in seen  # zero: no colour
    assert len(seen) == sum(1 for row in values for v in row if v) == 8
    # the levels: |v| / the largest |v| in quarters, the sign picks the colour
    assert seen[(0, 0)] == "lab-heat-p4" and seen[(0, 1)] == "lab-heat-n4"
    assert seen[(1, 0)] == "lab-heat-p1" and seen[(1, 1)] == "lab-heat-n2"
    assert seen[(1, 2)] == "lab-heat-p4" and seen[(2, 1)] == "lab-heat-p3" and seen[(2, 0)] == "lab-heat-n1"


def test_a_fixed_scale_for_probabilities_and_empty_cells():
    probs = [[0.1, 0.6, 0.3], [None, 1.0, 0.0]]
    p = Picture(heat(probs, "P", scale=1.0))
    assert all(k.startswith("lab-heat-p") for k in p.paths)  # never negative: only the positive shades
    by_level = {k: len(squares(d)) for k, d in p.paths.items()}
    assert by_level == {"lab-heat-p1": 1, "lab-heat-p2": 1, "lab-heat-p3": 1, "lab-heat-p4": 1}
    assert decode(p) == [["0,1", "0,6", "0,3"], ["", "1", "0"]]
    # a scale below the values: the strongest shade, never a fifth
    over = Picture(heat([[3.0, -5.0]], "x", scale=1.0))
    assert set(over.paths) == {"lab-heat-p4", "lab-heat-n4"}


def test_the_values_decode_back_to_the_numbers_at_three_significant_digits():
    rng = random.Random(7)
    values = [[rng.gauss(0, 10 ** rng.randint(-6, 3)) for _ in range(16)] for _ in range(24)]
    back = decode(Picture(heat(values, "G")))
    for row, texts in zip(values, back):
        for v, t in zip(row, texts):
            mantissa, _, power = t.partition(" × 10")
            exponent = int(power.translate(str.maketrans("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", "0123456789-"))) if power else 0
            read = float(mantissa.replace("\u2212", "-").replace(",", ".")) * 10**exponent
            assert abs(read - v) <= 0.005 * abs(v), (v, t)
    assert values_text([[1234.5, -0.000012345, 0.5, 2]]) == "1,23 × 10³;−1,23 × 10⁻⁵;0,5;2"


def test_names_are_drawn_short_and_read_whole():
    rows = ["gatto", "precipitevolissimevolmente"]
    p = Picture(heat([[1, 2], [3, 4]], "E", row_labels=rows, col_labels=["a", "b & c"]))
    assert json.loads(p.svg["data-row-names"]) == rows
    assert json.loads(p.svg["data-col-names"]) == ["a", "b & c"]
    assert "gatto" in p.names and "precipite…" in p.names and "b & c" in p.names
    left, top = map(int, p.svg["data-heat"].split()[:2])
    assert left > 8 * 9 and top > 4  # room beside for the row names, above for the column names
    plain = Picture(heat([[1, 2]], "x"))
    assert "data-row-names" not in plain.svg and plain.names == []


def test_the_page_reads_it_focuses_it_and_owns_the_mark_and_the_readout():
    p = Picture(heat([[1, -1]], "W", part="pesi"))
    assert p.svg["tabindex"] == "0" and p.svg["role"] == "img"
    assert "data-page-owned" in p.mark and "data-page-owned" in p.readout
    assert p.readout["aria-live"] == "polite"
    assert p.box["data-part"] == "pesi"


def test_the_description_is_the_kit_s_for_a_matrix():
    values = [[0.5, -1.5, 2.0], [0.0, 1.0, -0.25]]
    p = Picture(heat(values, "W", row_labels=["uno", "due"]))
    assert p.desc == describe_matrix(values, ["uno", "due"])
    assert "il valore più grande è 2" in p.desc
    own = Picture(heat(values, "W", description="Solo questo."))
    assert own.desc == "Solo questo."
    more = Picture(heat(values, "W", description=lambda auto: auto + " Ancora."))
    assert more.desc == describe_matrix(values) + " Ancora."


def test_a_short_row_and_an_empty_matrix():
    p = Picture(heat([[1.0, 2.0, 3.0], [4.0]], "R"))
    assert decode(p) == [["1", "2", "3"], ["4", "", ""]]
    empty = Picture(heat([], "vuota"))
    assert empty.svg["data-values"] == "" and empty.desc == "Una tabella vuota."


def test_a_large_matrix_stays_a_few_elements():
    rng = random.Random(1)
    values = [[rng.uniform(-1, 1) for _ in range(16)] for _ in range(64)]
    html = str(heat(values, "W₂"))
    assert html.count("<path") <= 8 and "<td" not in html
    assert sum(len(squares(d)) for d in Picture(html).paths.values()) == 64 * 16
