"""Figures that several labs share: a layered network, a chain of
operations, callouts and tables. Each takes plain values and strings and
returns safe Html."""

from dataclasses import KW_ONLY
from dataclasses import dataclass

from .arithmetic import settle
from .cells import cell_text
from .cells import plain_text
from .html import Html
from .html import naming
from .html import noting
from .html import num
from .html import tag
from .label_layout import place_labels
from .label_layout import text_width
from .svg import arrow_marker
from .svg import circle
from .svg import counted
from .svg import description_text
from .svg import group
from .svg import line
from .svg import rect
from .svg import svg
from .svg import text

# Text sizes in user units, as labs.css draws them (network, chain of
# operations): a figure never shrinks below the width where its smallest
# text reads 11 px (svg.fit).
NETWORK_TEXT, CHAIN_TEXT = 13, 14


@dataclass(frozen=True)
class Node:
    """A neuron (or an input) in a network drawing.

    activation in 0–1 sets how lit the node is; caption is the number written
    inside it; label the name under it.
    """

    label: str
    activation: float = 0.0
    _: KW_ONLY
    caption: str = ""


OUTPUTS_TOLD = 3  # a description names the outputs of a network only when there are this many or fewer


def describe_network(layers, weights):
    """«Rete con 3 strati (2, 3 e 1 nodi) e 9 pesi; il più forte è 0,9, da
    nuvole a ombrello. In uscita: ombrello 0,62.»"""
    sizes = [len(layer) for layer in layers]
    shown = [str(n) for n in sizes]
    head = (
        f"Rete con {len(layers)} strati ({', '.join(shown[:-1])} e {shown[-1]} nodi)"
        if len(layers) > 1
        else f"Rete con {counted(sizes[0] if sizes else 0, 'nodo', 'nodi')}"
    )
    name = lambda k, i: layers[k][i].label or f"il nodo {i + 1} dello strato {k + 1}"  # noqa: E731
    found = [
        (abs(w), w, k, j, i) for k, rows in enumerate(weights) for j, row in enumerate(rows) for i, w in enumerate(row)
    ]
    text_ = head
    if found:
        _, w, k, j, i = max(found, key=lambda f: f[0])  # the first of the strongest
        text_ += (
            f" e {counted(len(found), 'peso', 'pesi')}; il più forte è {cell_text(float(w))}, "
            f"da {name(k, i)} a {name(k + 1, j)}"
        )
    last = layers[-1] if layers else []
    outputs = [f"{node.label or f'il nodo {i + 1}'} {node.caption}" for i, node in enumerate(last) if node.caption]
    if outputs and len(last) <= OUTPUTS_TOLD:
        text_ += f". In uscita: {', '.join(outputs)}"
    return text_ + "."


def network(layers, weights, label, width=420, row_gap=120, radius=26, description=None):
    """A layered network: layers[k] is a list of Node, weights[k][j][i] the
    weight from node i of layer k to node j of layer k + 1 (one row per
    neuron, as core.neuron.dense takes them).

    Edge thickness grows with |weight|; its colour says the sign. Each
    weight is written on its edge, near its start, where it covers neither
    another weight nor a node (label_layout). The drawing is at least 120
    units per column gap wide. description, as for bars(): by default the
    layers, the strongest weight and the outputs' captions.
    """
    height = max(len(layer) for layer in layers) * row_gap + 40
    margin = radius + 62  # room for the name under a node of the first and last column
    width = max(width, 2 * margin + 120 * (len(layers) - 1))
    column_gap = (width - 2 * margin) / max(1, len(layers) - 1)

    def position(k, i):
        n = len(layers[k])
        return margin + k * column_gap, height / 2 + (i - (n - 1) / 2) * row_gap

    largest = max((abs(w) for rows in weights for row in rows for w in row), default=1.0) or 1.0
    edges, asks, signs = [], [], []
    for k, rows in enumerate(weights):
        for j, row in enumerate(rows):
            for i, w in enumerate(row):
                (x1, y1), (x2, y2) = position(k, i), position(k + 1, j)
                sign = "lab-pos" if w > 0 else "lab-neg" if w < 0 else "lab-zero"
                edges.append(line(x1, y1, x2, y2, class_=f"lab-edge {sign}", width=1 + 6 * abs(w) / largest))
                # near the start, where the edges leaving one node are still apart; further on if that is taken
                asks.append(
                    (
                        num(w, 1),
                        NETWORK_TEXT,
                        [(x1 + t * (x2 - x1), y1 + t * (y2 - y1), "middle") for t in (0.3, 0.4, 0.22, 0.5, 0.6, 0.7)],
                    )
                )
                signs.append(sign)
    nodes_taken = [
        (x - radius, y - radius, x + radius, y + radius)
        for k, layer in enumerate(layers)
        for x, y in (position(k, i) for i in range(len(layer)))
    ]
    edge_labels = []
    for (content, _, _), (lx, ly, _), sign in zip(asks, place_labels(asks, nodes_taken, (0, 0, width, height)), signs):
        half = text_width(content, NETWORK_TEXT) / 2 + 4
        edge_labels.append(
            group(
                rect(lx - half, ly - 11, 2 * half, 22, class_="lab-label-bg", rx=4),
                text(lx, ly, content, class_=f"lab-edge-label {sign}"),
            )
        )
    nodes = []
    for k, layer in enumerate(layers):
        for i, node in enumerate(layer):
            x, y = position(k, i)
            lit = min(1.0, max(0.0, node.activation))
            nodes.append(
                group(
                    circle(x, y, radius, class_="lab-node"),
                    circle(x, y, radius, class_="lab-node-glow", fill_opacity=round(lit, 3)),
                    text(x, y, node.caption, class_="lab-node-value" + (" is-lit" if lit > 0.55 else "")),
                    text(x, y + radius + 16, node.label, class_="lab-node-label"),
                    data_activation=round(lit, 4),
                )
            )
    return svg(
        width,
        height,
        group(*edges),
        group(*edge_labels),
        group(*nodes),
        label=label,
        text=NETWORK_TEXT,
        description=description_text(description, lambda: describe_network(layers, weights)),
    )


@dataclass(frozen=True)
class ChainNode:
    """A box in a chain of operations: its name, and the forward value and
    gradient once they are known (None keeps the slot empty)."""

    name: str
    value: str | None = None
    grad: str | None = None
    _: KW_ONLY
    active: bool = False
    off: bool = False


def describe_chain(nodes):
    """«w = 0,5 → z = w·x = 1 → L = ? . Gradienti: w −0,4, z = w·x −0,2.»: the
    boxes in order with their values (? while unknown), then the gradients known."""
    text_ = " → ".join(f"{node.name} = {node.value if node.value is not None else '?'}" for node in nodes)
    grads = [f"{node.name}: {node.grad}" for node in nodes if node.grad is not None]
    return f"Catena: {text_}." + (f" Gradienti: {'; '.join(grads)}." if grads else " Gradienti non ancora calcolati.")


def chain(nodes, edge_labels, label, active_edge=None, width=640, description=None):
    """Boxes left to right joined by arrows; above each arrow its label
    (a local derivative, once revealed). Values sit inside the boxes,
    gradients under them. description, as for bars(): by default the
    boxes with their values, then the gradients known."""
    box_w, box_h, top = 100, 70, 44
    gap = (width - box_w * len(nodes)) / max(1, len(nodes) - 1)
    parts = [arrow_marker()]
    for i, node in enumerate(nodes):
        x = i * (box_w + gap)
        cls = "lab-box" + (" is-active" if node.active else "") + (" is-off" if node.off else "")
        parts.append(
            group(
                rect(x, top, box_w, box_h, class_=cls, rx=8),
                text(x + box_w / 2, top + 20, node.name, class_="lab-box-name"),
                text(x + box_w / 2, top + 48, node.value if node.value is not None else "?", class_="lab-box-value"),
                text(
                    x + box_w / 2,
                    top + box_h + 22,
                    "" if node.grad is None else f"∂L = {node.grad}",
                    class_="lab-box-grad",
                ),
            )
        )
        if i + 1 < len(nodes):
            x1, x2, y = x + box_w + 3, x + box_w + gap - 3, top + box_h / 2
            cls = "lab-flow" + (" is-active" if active_edge == i else "")
            parts.append(line(x1, y, x2, y, class_=cls, marker_end="url(#lab-arrow)"))
            if edge_labels[i]:
                # alternate heights so neighbouring labels never touch
                parts.append(
                    text(
                        (x1 + x2) / 2,
                        top - 12 - 18 * (i % 2),
                        edge_labels[i],
                        class_="lab-flow-label" + (" is-active" if active_edge == i else ""),
                    )
                )
    return svg(
        width,
        top + box_h + 40,
        *parts,
        label=label,
        text=CHAIN_TEXT,
        description=description_text(description, lambda: describe_chain(nodes)),
    )


def callout(*content, tone="info"):
    """A boxed message: tone is info, ok, warn or error."""
    return tag("div", *content, class_=f"lab-callout is-{tone}", role="status" if tone != "error" else "alert")


def panel(*content, title=None, part=None, class_=None, **attributes):
    """A framed block of a view (class lab-panel): a <section> under an h3 when it has a title, a <div>
    otherwise. part names it (data-part) for the prose's links and the tests; class_ adds a class of the
    lab's own, attributes go on the block."""
    return tag(
        "section" if title else "div",
        tag("h3", title) if title else None,
        *content,
        class_="lab-panel" + (f" {class_}" if class_ else ""),
        data_part=part,
        **attributes,
    )


def columns(*panels):
    """Panels side by side where the page is wide enough, one under the other on a phone."""
    return tag("div", *panels, class_="lab-columns")


def fold(summary, part, is_open, draw, class_=None, **attributes):
    """A section the reader opens and closes (a <details>), whose content Python draws only while it is open.

    The lab names it in FOLDS = ("part", …) and asks opened(params, "part") for is_open: draw() is
    called only then, and what only this section shows need not be computed either. Closed, it holds
    a line in place of its content, so the steps and changes the reader makes with it closed cost
    nothing of it; opened, the page asks Python to draw it at once. It is framed as every section of a
    view that opens and closes (class lab-section, labs.css); class_ adds a class of the lab's own,
    attributes go on the <details>."""
    body = (
        draw()
        if is_open
        else [tag("p", "Questa parte la disegna Python quando la apri: un momento.", class_="lab-fold-wait")]
    )
    return tag(
        "details",
        tag("summary", summary),
        *body,
        open=is_open,
        class_="lab-section" + (f" {class_}" if class_ else ""),
        data_part=part,
        data_fold=part,
        **attributes,
    )


# The minimum widths, in ch, a column of words may get (.lab-wrap-N in labs.css)
WRAP_WIDTHS = (10, 15, 20, 25, 30, 35, 40)


def table(header, rows, class_="lab-table", wrap=(), quantities="columns"):
    """A table of cells (strings are escaped, Html kept). A cell is one line (labs.css); wider than the
    screen, the table scrolls sideways in its own box (a marked frame). The columns whose indices are in
    wrap hold words and take two lines at most: each gets a minimum width of half its longest text.
    quantities: what a cell's number is a number of: its column's header ("columns"), the first cell of
    its row ("rows": a table of named values, h | 0,4621 | …), or nothing to say (None)."""
    widths = {k: wrap_class(header, rows, k) for k in wrap}
    # an empty header cell names no column: a td, so screen readers do not announce a nameless header
    head = (
        tag(
            "thead",
            tag(
                "tr",
                *(
                    tag("th", h, scope="col", class_=widths.get(k)) if str(h).strip() else tag("td", h)
                    for k, h in enumerate(header)
                ),
            ),
        )
        if header
        else None
    )
    body = tag("tbody", *(tag("tr", *(tag("td", c, class_=widths.get(k)) for k, c in enumerate(row))) for row in rows))
    if noting():
        name_quantities(header, rows, quantities)
    return tag("table", head, body, class_=class_, data_scroll_frame="")


def name_quantities(header, rows, quantities):
    """Under noting_numbers(): a cell's number is one of its column's quantity, or of its row's."""
    if quantities == "columns" and header:
        for k, h in enumerate(header):
            naming(plain_text(h).strip(), [row[k] for row in rows if k < len(row)])
    elif quantities == "rows":
        for row in rows:
            naming(plain_text(row[0]).strip(), row[1:])


def wrap_class(header, rows, k):
    """The class of column k's cells: the narrowest WRAP_WIDTHS that holds its longest text in two lines."""
    need = max(two_lines(plain_text(row[k])) for row in [*([header] if header else []), *rows]) + 1
    return f"lab-wrap-{next((w for w in WRAP_WIDTHS if w >= need), WRAP_WIDTHS[-1])}"


def two_lines(text):
    """The characters a line needs for text to take two lines at most, broken between words."""
    words = text.split()
    return min(
        (max(len(" ".join(words[:k])), len(" ".join(words[k:]))) for k in range(1, len(words))), default=len(text)
    )


def stat(label, value, tone=None):
    """A figure with its caption, for the numbers a lab is about (a number of the quantity its label names)."""
    if noting():
        naming(plain_text(label).strip(), [value])
    return tag(
        "div",
        tag("span", label, class_="lab-stat-label"),
        tag("strong", value, class_="lab-stat-value"),
        class_="lab-stat" + (f" is-{tone}" if tone else ""),
    )


def stats(*items):
    """Several stat() figures in a row that wraps."""
    return tag("div", *items, class_="lab-stats")


def formula(*parts, mistaken=False):
    """A line of maths written with plain text and Html pieces. In the text pieces each «=» between
    two calculations that do not agree on the numbers as written becomes «≈» (arithmetic.settle).
    mistaken=True: the line shows a wrong step on purpose (a model's mistake), written as it is and
    marked data-arith="wrong", so the test that redoes every calculation on screen leaves it be."""
    if mistaken:
        return tag("p", *parts, class_="lab-formula", data_arith="wrong")
    return tag("p", *(settle(p) for p in parts), class_="lab-formula")


__all__ = [
    "Node",
    "network",
    "ChainNode",
    "chain",
    "callout",
    "panel",
    "columns",
    "table",
    "stat",
    "stats",
    "formula",
    "Html",
]
