"""A table's cells as text: a number written the Italian way for a cell, and what a table of numbers says to a
screen reader (its shape, its largest and smallest values and where, the cells and lines it highlights)."""

import math
import re

from .html import Html
from .html import mark_shortened
from .html import num
from .svg import counted
from .svg import quoted


def cell_text(value, digits=2, trim=True):
    """A number for a cell: Italian, and with trim 1,50 → 1,5 and 2,00 → 2.

    Strings and Html are shown as they are (escaped), None as an empty cell."""
    if value is None:
        return ""
    if isinstance(value, (str, Html)):
        return value
    if isinstance(value, bool):
        value = int(value)
    text = num(value, digits)
    if trim and isinstance(value, float) and "," in text:
        mark_shortened()
        text = text.rstrip("0").rstrip(",")
        if text in ("−0", ""):
            text = "0"
    return text


def plain_text(value):
    """The text of a label, without its markup (for the line under a picture)."""
    return re.sub(r"<[^>]*>", "", str(value)) if isinstance(value, Html) else str(value)


def describe_matrix(rows, row_labels=None, col_labels=None, digits=2, trim=True, hl_cells=(), hl_rows=(), hl_cols=()):
    """«2 righe e 3 colonne; il valore più grande è 2 (riga 2, colonna b), il
    più piccolo −1,5 (riga 2, colonna a).» A single row or column is told
    by position (its names, or «posizione 2»); a value in several cells by
    how many; then the cell, row or column in evidence, if only one. A lab
    that draws a matrix its own way (a heat picture) describes it with this."""
    n_rows, n_cols = len(rows), max((len(r) for r in rows), default=0)
    if not n_cols:
        return "Una tabella vuota."
    line = n_rows == 1 or n_cols == 1

    def row_name(i):
        return quoted(plain_text(row_labels[i])) if row_labels and i < len(row_labels) else str(i + 1)

    def col_name(j):
        return quoted(plain_text(col_labels[j])) if col_labels and j < len(col_labels) else str(j + 1)

    def where(i, j):
        if n_cols == 1:
            return f"posizione {row_name(i)}"
        if n_rows == 1:
            return f"posizione {col_name(j)}"
        return f"riga {row_name(i)}, colonna {col_name(j)}"

    head = (
        counted(max(n_rows, n_cols), "valore", "valori")
        if line
        else f"{counted(n_rows, 'riga', 'righe', feminine=True)} e "
        f"{counted(n_cols, 'colonna', 'colonne', feminine=True)}"
    )
    head = head[0].upper() + head[1:]
    # max, min, count and index run in C: a lab redraws a 96 × 24 picture of weights at every training step
    try:  # every cell a finite number (the sum would be nan or infinite otherwise)
        top, low = max(map(max, rows)), min(map(min, rows))
        whole = math.isfinite(sum(map(sum, rows)))
    except (TypeError, ValueError):  # text, None or an empty row
        whole = False
    if whole:
        count = lambda value: sum(row.count(value) for row in rows)  # noqa: E731
        n_values = sum(map(len, rows))
    else:
        values = [v for row in rows for v in row if v.__class__ in (int, float) and -math.inf < v < math.inf]
        if not values:
            return f"{head} di testo, senza numeri."
        top, low, count, n_values = max(values), min(values), values.count, len(values)
    shown = lambda v: cell_text(v, digits, trim)  # noqa: E731  as the cell writes it

    def told(value):
        same = count(value)
        if same > 1:
            return f"{shown(value)} (in {same} caselle)"
        i = next(i for i, row in enumerate(rows) if value in row)
        return f"{shown(value)} ({where(i, list(rows[i]).index(value))})"

    if top == low:
        text_ = f"{head}, {'tutti uguali a ' if n_values > 1 else ''}{shown(top)}."
    else:
        text_ = f"{head}; il valore più grande è {told(top)}, il più piccolo {told(low)}."
    hl_cells = [c for c in hl_cells if c[0] < n_rows and c[1] < len(rows[c[0]])]
    if len(hl_cells) == 1:
        i, j = hl_cells[0]
        text_ += f" In evidenza: {where(i, j)}, {shown(rows[i][j]) or 'vuota'}."
    elif not hl_cells and len(hl_rows) == 1 and not line:
        text_ += f" In evidenza la riga {row_name(next(iter(hl_rows)))}."
    elif not hl_cells and len(hl_cols) == 1 and not line:
        text_ += f" In evidenza la colonna {col_name(next(iter(hl_cols)))}."
    return text_
