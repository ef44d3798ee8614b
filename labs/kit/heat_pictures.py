"""A large matrix as a heat picture: one SVG path per colour level, the cell read from the pointer.

A table of numbers costs the browser its layout, cell by cell; a picture of
a 64 × 16 matrix is a frame, at most eight paths (four shades of the
positive colour, four of the negative one) and its row names, so a view can
draw it again at every step. What the picture does not write, the page
reads for the reader: the <svg> carries its geometry (data-heat) and its
values as the kit writes them in Italian (data-values), and the runtime
(templates/runtime/page/heat.js) writes «riga, colonna: valore» for the
cell under the pointer or the finger, or moved to with the arrow keys,
in a line that screen readers hear (aria-live), and marks the cell. That
line and the mark belong to the page (data-page-owned): the view morphed
at the next step leaves them, and the runtime reads the marked cell's new
value again. A screen reader hears the figure's description first:
its shape, its largest and smallest value and where they are.

The colours are CSS classes (labs.css, «kit: heat»), so light and dark
schemes both work: lab-heat-p1 … p4 for positive values, n1 … n4 for
negative ones, by |value| / scale. Values that are never negative
(probabilities) use only the positive shades; scale=1.0 gives a
probability of 1 the strongest one.
"""

import json
import math
import re

from .cells import describe_matrix
from .cells import plain_text
from .html import tag
from .matrices import heat_class
from .svg import description_text
from .svg import svg
from .svg import text as svg_text

LEVELS = ("p1", "p2", "p3", "p4", "n1", "n2", "n3", "n4")
HINT = "Passa sopra una casella, o toccala, per leggerne il valore; sulla figura, le frecce la spostano."
NAME_CHARS = 10  # a drawn row or column name is cut here (the readout says it whole)

ITALIAN = str.maketrans({".": ",", "-": "\u2212"})
SUPERSCRIPT = str.maketrans("0123456789−", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
EXPONENT = re.compile(r"e([+−])0*(\d+)")


def _power(match):
    sign = "−" if match.group(1) == "−" else ""
    return " × 10" + (sign + match.group(2)).translate(SUPERSCRIPT)


def values_text(values, cols=None):
    """The cells row by row, joined by «;», each with three significant
    digits written the Italian way (0,0123; −1,5; 1,23 × 10⁻⁵); an empty
    or non-finite cell is an empty field, and a short row is filled with
    empty fields up to cols. Formatted in one pass over the whole string:
    a view writes a 64 × 16 matrix at every step."""
    width = max((len(r) for r in values), default=0) if cols is None else cols
    fields = [
        format(v, ".3g") if v.__class__ in (int, float) and -math.inf < v < math.inf else ""
        for row in values
        for v in (list(row) + [None] * (width - len(row)) if len(row) < width else row)
    ]
    text = ";".join(fields).translate(ITALIAN)
    return EXPONENT.sub(_power, text) if "e" in text else text


def _short(name):
    name = plain_text(name)
    return name if len(name) <= NAME_CHARS else name[: NAME_CHARS - 1] + "…"


def heat(values, label, row_labels=None, col_labels=None, scale=None, part=None, description=None):
    """values (a list of rows) as a picture of coloured cells, with its
    readout (see the module's docstring).

    label: what the picture is, for its title. row_labels / col_labels:
    names written beside and above the cells (cut to ten characters; the
    readout says them whole), else «riga 3», «colonna 5». scale: the
    |value| that gets the strongest shade (None: the largest |value| of
    the matrix); a larger value gets it too. None and non-finite cells stay
    empty. description: what a screen reader hears besides the title: by
    default describe_matrix() (the shape, the largest and smallest value),
    or a sentence, or a function of that default (as for the kit's figures).
    part names the figure (data-part) for tests and styling.
    """
    rows, cols = len(values), max((len(r) for r in values), default=0)
    cell = max(6, min(16, 320 // max(cols, 1)))  # whole pixels: the path stays short
    height_cell = max(cell, 14) if row_labels else cell
    left = 8 + 8 * max((len(_short(r)) for r in row_labels), default=0) if row_labels else 4
    top = 8 + 7 * max((len(_short(c)) for c in col_labels), default=0) if col_labels else 4
    if scale is None:
        finite = [abs(v) for row in values for v in row if v.__class__ in (int, float) and -math.inf < v < math.inf]
        scale = max(finite, default=0) or 1.0
    shapes = {level: [] for level in LEVELS}
    for i, row in enumerate(values):
        y = top + i * height_cell
        for j, v in enumerate(row):
            level = heat_class(v, scale)
            if level:
                shapes[level[-2:]].append(f"M{left + j * cell} {y}h{cell}v{height_cell}h-{cell}z")
    width, height = left + cols * cell + 4, top + 4 + rows * height_cell
    names = [
        svg_text(left - 4, top + (i + 0.5) * height_cell, _short(r), class_="lab-heat-name", anchor="end")
        for i, r in enumerate(row_labels or ())
    ]
    names += [
        svg_text(
            left + (j + 0.5) * cell,
            top - 4,
            _short(c),
            class_="lab-heat-name",
            anchor="start",
            transform=f"rotate(-90 {left + (j + 0.5) * cell} {top - 4})",
        )
        for j, c in enumerate(col_labels or ())
    ]
    attrs = {
        "data_heat": f"{left} {top} {cell} {height_cell} {rows} {cols}",
        "data_values": values_text(values, cols),
        "tabindex": "0",
    }
    if row_labels:
        attrs["data_row_names"] = json.dumps([plain_text(r) for r in row_labels], ensure_ascii=False)
    if col_labels:
        attrs["data_col_names"] = json.dumps([plain_text(c) for c in col_labels], ensure_ascii=False)
    told = description_text(
        description,
        lambda: describe_matrix(
            values,
            [str(r) for r in row_labels] if row_labels else None,
            [str(c) for c in col_labels] if col_labels else None,
        ),
    )
    picture = svg(
        round(width),
        round(height),
        tag(
            "rect",
            x=float(left),
            y=float(top),
            width=float(cols * cell),
            height=float(rows * height_cell),
            class_="lab-heat-frame",
        ),
        tag(
            "g",
            *(tag("path", d=" ".join(d), class_=f"lab-heat-{level}") for level, d in shapes.items() if d),
            class_="lab-heat-cells",
        ),
        tag("g", *names, class_="lab-heat-names"),
        # the mark is the page's (heat.js): drawn last, over the cells, and kept as it is when the view is morphed
        tag("rect", x="0", y="0", width="0", height="0", class_="lab-heat-mark", data_page_owned=""),
        label=label,
        class_="lab-svg lab-heat",
        text=12,
        description=told,
        **attrs,
    )
    readout = tag("p", HINT, class_="lab-heat-readout", aria_live="polite", data_page_owned="")
    return tag("div", picture, readout, class_="lab-heat-box", data_part=part)


__all__ = ["heat", "values_text"]
