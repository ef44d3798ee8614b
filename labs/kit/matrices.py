"""Matrices and vectors drawn as HTML tables, and equations made of them.

A table rather than SVG: it wraps, scrolls and stays legible on a phone,
and screen readers read it cell by cell. The brackets, the highlights and
the heat colours are CSS classes (labs.css, «kit: matrix»), so light and
dark schemes both work. Nothing here knows any lab.

A matrix too wide for a phone (its numbers would need more than PHONE px)
is also a picture: where the room around it is narrower than its numbers
need (a CSS container query, by the class mx-fit-<px>), the cells hide
their numbers (screen readers still read them) and keep their heat
colours, the column names turn vertical, tapping or hovering a cell writes
its row, column and value over the title (its data-tip), and «Mostra i
numeri» turns the same table back into numbers, in a frame that scrolls
with the row names kept in sight. Where it fits, it is the table of
numbers, as any other matrix. Nothing is drawn twice: the page stays light.
"""

import math

from .cells import cell_text
from .cells import describe_matrix
from .cells import plain_text
from .html import Html
from .html import escape
from .html import num
from .html import shown_text
from .html import tag
from .memory import Memory
from .memory import typed
from .svg import described
from .svg import description_text

HEAT_LEVELS = 4
PHONE = 340  # px: a table of numbers wider than this does not fit a phone's view, and gets its picture
FIT_STEP = 60  # px: the widths a picture gives way to its numbers at (mx-fit-360, -420, …, labs.css)
FIT_MAX = 1200


def shape_label(*dims):
    """A shape the way the guide writes it: [2 × 3], [4], [2 × 3 × 4].

    The spaces are no-break spaces, so a shape never splits across lines."""
    return "[" + "\u00a0×\u00a0".join(num(d) for d in dims) + "]"


def heat_class(value, scale):
    """lab-heat-p1 … p4 for positive values, n1 … n4 for negative ones, by
    |value| / scale; None for zero, for non-numbers and when scale is 0."""
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        return None
    if value == 0 or not scale:
        return None
    level = max(1, min(HEAT_LEVELS, math.ceil(HEAT_LEVELS * min(1.0, abs(value) / scale) - 1e-9)))
    return f"lab-heat-{'p' if value > 0 else 'n'}{level}"


def _heat_scale(rows, heat):
    if heat is True:
        finite = [
            abs(v)
            for row in rows
            for v in row
            if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
        ]
        return max(finite, default=0)
    return float(heat)


def _corners(i, j, n_rows, n_cols):
    parts = []
    if j == 0:
        parts.append("mx-l")
        parts += ["mx-tl"] * (i == 0) + ["mx-bl"] * (i == n_rows - 1)
    if j == n_cols - 1:
        parts.append("mx-r")
        parts += ["mx-tr"] * (i == 0) + ["mx-br"] * (i == n_rows - 1)
    return parts


def numbers_width(rows, row_labels, col_labels, digits, trim, texts=None):
    """Roughly how many px the table of numbers needs (labs.css: cells in
    0.75rem text, names in 0.65rem, at the site's 20 px rem). texts: the
    cells as cell_text() writes them, if already known."""
    n_cols = max((len(r) for r in rows), default=0)
    if texts is None:
        texts = [[cell_text(v, digits, trim) for v in r] for r in rows]
    widest = [max([len(str(r[j])) for r in texts if j < len(r)] or [0]) for j in range(n_cols)]
    names = [len(str(col_labels[j])) if col_labels and j < len(col_labels) else 0 for j in range(n_cols)]
    cells = sum(max(33, 8.4 * w + 18, 7.3 * c + 16) for w, c in zip(widest, names))
    side = 7.3 * max((len(str(r)) for r in row_labels or ()), default=0) + 16 if row_labels else 0
    return cells + side + 8


def fit_class(width):
    """mx-fit-<px>: the room from which the numbers are shown instead of the picture."""
    return f"mx-fit-{min(FIT_MAX, FIT_STEP * math.ceil(width / FIT_STEP))}"


DRAWN = Memory(64)  # the last tables drawn, by everything they show: a view draws the same weights at every change


def matrix(
    values,
    label=None,
    row_labels=None,
    col_labels=None,
    highlight_rows=(),
    highlight_cols=(),
    highlight_cells=(),
    muted_rows=(),
    muted_cols=(),
    digits=2,
    trim=True,
    clickable=None,
    heat=False,
    shape=True,
    caption=None,
    part=None,
    description=None,
    pick_row=None,
):
    """A matrix (a list of rows) as a bracketed table.

    label: its name (A, W₁, «Embedding»), written above with the shape
    «[2 × 3]» (shape=False hides it, a string replaces it). caption: a note
    under the table. row_labels / col_labels: names beside and above.
    highlight_rows / cols / cells: (i, j) pairs stand out; muted rows and
    columns fade (e.g. rows weighted by 0). clickable(i, j) returns the
    cell's data-set string ("i=1;j=2"), or (data-set, aria-label), or None:
    the runtime sets those controls when the cell is clicked or activated
    with Enter / Space. pick_row(i), for a table whose click only chooses
    a row, returns the row's data-set string (or (data-set, aria-label), or
    None): the row's name becomes one button (one tab stop per row, not one
    per cell) and a click anywhere in the row sets the same controls; the
    highlighted rows' buttons say they are the current one. It needs
    row_labels. heat=True colours cells by sign and size (scale = the
    largest |value|); a number fixes the scale instead. part names the
    figure (data-part) for tests and styling. A matrix too wide for a phone
    is also drawn as a picture (see the module's docstring): its cells are
    heat-coloured even without heat=True. description: what a screen
    reader hears of the table besides its cells, as for bars(): by default
    its size, its largest and smallest value and where they are.

    A table is a pure function of what it shows: the same arguments (the
    cells' targets in place of clickable) give the same markup, remembered
    for the last 64 tables, so the weights a view shows again at a
    change of another control are not written again.
    """
    rows = [list(r) for r in values]
    n_cols = max((len(r) for r in rows), default=0)
    # read once: both the memory's key and the drawing see them
    highlight_rows, highlight_cols, muted_rows, muted_cols = (
        tuple(sorted(set(x))) for x in (highlight_rows, highlight_cols, muted_rows, muted_cols)
    )
    highlight_cells = tuple(sorted({tuple(c) for c in highlight_cells}))
    targets = None if clickable is None else [[clickable(i, j) for j in range(n_cols)] for i in range(len(rows))]
    if pick_row is not None and row_labels is None:
        raise ValueError("matrix(pick_row=…) needs row_labels: the button of a row is its name")
    picks = None if pick_row is None else [pick_row(i) for i in range(len(rows))]
    drawing = dict(
        rows=rows,
        n_cols=n_cols,
        label=label,
        row_labels=row_labels,
        col_labels=col_labels,
        highlight_rows=highlight_rows,
        highlight_cols=highlight_cols,
        highlight_cells=highlight_cells,
        muted_rows=muted_rows,
        muted_cols=muted_cols,
        digits=digits,
        trim=trim,
        targets=targets,
        heat=heat,
        shape=shape,
        caption=caption,
        part=part,
        description=description,
        picks=picks,
    )
    # a lab's own function of the sentence as description: drawn every time
    key = None if callable(description) else typed(tuple(drawing.values()))
    return DRAWN.get(key, lambda: _table(**drawing))


def _inner(value):
    """A header cell's content as tag() writes it: Html as it is, anything else escaped, None empty."""
    return "" if value is None else value if isinstance(value, Html) else shown_text(str(value), "th")


def _table(
    rows,
    n_cols,
    label,
    row_labels,
    col_labels,
    highlight_rows,
    highlight_cols,
    highlight_cells,
    muted_rows,
    muted_cols,
    digits,
    trim,
    targets,
    heat,
    shape,
    caption,
    part,
    description,
    picks,
):
    """matrix()'s markup, from its rows, the cells' targets and the rows' (see matrix)."""
    n_rows = len(rows)
    hl_rows, hl_cols, hl_cells = set(highlight_rows), set(highlight_cols), {tuple(c) for c in highlight_cells}
    mute_rows, mute_cols = set(muted_rows), set(muted_cols)
    texts = [[cell_text(v, digits, trim) for v in r] for r in rows]
    needed = numbers_width(rows, row_labels, col_labels, digits, trim, texts)
    big = needed > PHONE
    if big and heat is False:
        heat = True
    scale = _heat_scale(rows, heat) if heat is not False else 0

    head = None
    if col_labels is not None:
        corner = [tag("td", "", class_="lab-mx-corner")] if row_labels is not None else []  # no header: nothing to name
        head = tag(
            "thead",
            tag(
                "tr",
                *corner,
                *(
                    Html(
                        f'<th scope="col" class="lab-mx-col{" is-hl" if j in hl_cols else ""}">'
                        f"{_inner(col_labels[j] if j < len(col_labels) else '')}</th>"
                    )
                    for j in range(n_cols)
                ),
            ),
        )

    body_rows = []
    # one string per cell, written here rather than through tag(): a view draws hundreds of cells per step
    col_names = (
        [plain_text(col_labels[j]) if col_labels and j < len(col_labels) else f"colonna {j + 1}" for j in range(n_cols)]
        if big
        else None
    )
    col_class = [" is-col" if j in hl_cols else "" for j in range(n_cols)]
    col_muted = [j in mute_cols for j in range(n_cols)]
    last_row, last_col = n_rows - 1, n_cols - 1
    for i, row in enumerate(rows):
        cells = []
        name = row_labels[i] if row_labels is not None and i < len(row_labels) else None
        head_class = "lab-mx-row is-hl" if i in hl_rows else "lab-mx-row"
        pick = picks[i] if picks else None
        if pick:
            data_set, aria = pick if isinstance(pick, tuple) else (pick, None)
            plain = f"riga {i + 1}" if name is None else plain_text(name)
            aria = None if aria is None else str(aria)
            # the spoken name holds the visible one (what a voice-control user says), then what it does
            said = f"Seleziona {plain}" if aria is None else aria if plain in aria else f"{plain}: {aria}"
            current = ' aria-current="true"' if i in hl_rows else ""
            opening = f'<tr data-set="{escape(str(data_set))}" class="is-pick">'
            cells.append(
                f'<th scope="row" class="{head_class}"><button type="button" class="lab-mx-pick" '
                f'aria-label="{escape(said)}"{current}>{_inner(name)}</button></th>'
            )
        else:
            opening = "<tr>"
            if row_labels is not None:
                cells.append(f'<th scope="row" class="{head_class}">{_inner(name)}</th>')
        row_name = (
            (plain_text(row_labels[i]) if row_labels and i < len(row_labels) else f"riga {i + 1}") if big else None
        )
        row_class = " is-row" if i in hl_rows else ""
        row_muted = i in mute_rows
        first = (
            " mx-l mx-tl mx-bl"
            if i == 0 == last_row
            else (" mx-l mx-tl" if i == 0 else " mx-l mx-bl" if i == last_row else " mx-l")
        )
        final = (
            " mx-r mx-tr mx-br"
            if i == 0 == last_row
            else (" mx-r mx-tr" if i == 0 else " mx-r mx-br" if i == last_row else " mx-r")
        )
        width = len(row)
        for j in range(n_cols):
            value = row[j] if j < width else None
            classes = "lab-mx-cell" + (first if j == 0 else "") + (final if j == last_col else "")
            classes += row_class + col_class[j]
            if hl_cells and (i, j) in hl_cells:
                classes += " is-hl"
            if row_muted or col_muted[j]:
                classes += " is-muted"
            if heat is not False:
                level = heat_class(value, scale)
                if level:
                    classes += " " + level
            shown = texts[i][j] if j < width else ""
            target = targets[i][j] if targets else None
            if target:
                data_set, aria = target if isinstance(target, tuple) else (target, None)
                if aria is None:
                    where = [
                        row_labels[i] if row_labels and i < len(row_labels) else f"riga {i}",
                        col_labels[j] if col_labels and j < len(col_labels) else f"colonna {j}",
                    ]
                    if n_cols == 1:
                        where = where[:1]
                    elif n_rows == 1:
                        where = where[1:]
                    aria = "Seleziona " + ", ".join(str(w) for w in where)
                # the name holds the number the cell shows (what a voice-control user says), then what it does
                named = f"{shown}: {aria}" if shown else aria
                extra = (
                    f' data-set="{escape(str(data_set))}" tabindex="0" role="button" aria-label="{escape(str(named))}"'
                )
                classes += " is-clickable"
            else:
                extra = ' tabindex="-1"' if big else ""  # a tap on a cell of the picture writes its value
            if big:
                extra += f' data-tip="{escape(f"{row_name} · {col_names[j]}: {plain_text(shown) or 'vuota'}")}"'
            text = shown if isinstance(shown, Html) else shown_text(str(shown), "td")
            cells.append(f'<td class="{classes}" data-i="{i}" data-j="{j}"{extra}>{text}</td>')
        body_rows.append(Html(f"{opening}{''.join(cells)}</tr>"))

    if shape is True:
        shape_text = shape_label(n_rows, n_cols)
    else:
        shape_text = shape or None
    title = None
    if label is not None or shape_text or big:
        title = tag(
            "figcaption",
            tag("span", label, class_="lab-mx-name") if label is not None else None,
            " " if label is not None and shape_text else None,
            tag("span", shape_text, class_="lab-mx-shape") if shape_text else None,
            tag("span", " · tocca una casella per leggerla", class_="lab-mx-hint") if big else None,
            class_="lab-mx-title",
        )
    note = tag("p", caption, class_="lab-mx-note") if caption is not None else None
    told = description_text(
        description, lambda: describe_matrix(rows, row_labels, col_labels, digits, trim, hl_cells, hl_rows, hl_cols)
    )
    _, hidden, describedby = described(plain_text(label) if label is not None else shape_text or "", told)
    table = tag(
        "table",
        head,
        tag("tbody", *body_rows),
        class_="lab-mx-table" + (" has-heat" if heat else ""),
        aria_describedby=describedby,
    )
    # the picture's switch back to numbers: a <details>, whose state survives the view's updates
    numbers = (
        tag(
            "details",
            tag(
                "summary",
                tag("span", "Mostra i numeri", class_="lab-mx-show"),
                tag("span", "Torna alla figura", class_="lab-mx-back"),
            ),
            class_="lab-mx-numbers",
        )
        if big
        else None
    )
    return tag(
        "figure",
        title,
        tag("div", table, class_="lab-mx-scroll", data_scroll_frame=""),
        numbers,
        note,
        hidden,
        class_="lab-mx" + (f" is-big {fit_class(needed)}" if big else ""),
        data_part=part,
        data_rows=n_rows,
        data_cols=n_cols,
    )


def equation(*parts):
    """Matrices, vectors and operators in a row that wraps on small screens:
    equation(matrix(A), "·", matrix(B), "=", matrix(C)). Plain strings are
    operators (escaped); Html pieces are kept. An operator stays with the
    piece after it, so a line breaks before «=», never after it."""
    items, pending = [], []
    for p in parts:
        if p is None:
            continue
        if isinstance(p, Html):
            items.append(tag("span", *pending, p, class_="lab-eq-group") if pending else p)
            pending = []
        else:
            pending.append(tag("span", p, class_="lab-eq-op" + (" is-text" if len(p) > 2 else "")))
    items += pending
    return tag("div", *items, class_="lab-eq")


__all__ = ["matrix", "equation", "shape_label", "cell_text", "heat_class"]
