"""A Cartesian plane for the labs about vectors: grid, axes, and items
(arrows, points, dashed guides, shapes, circles, angle marks, labels)
given in data coordinates.

The data rectangle fills the whole viewBox, and the <svg> says so in
data-plane="xmin xmax ymin ymax": that is how the browser runtime turns a
pointer position back into data coordinates when the reader drags a point
whose item was given drag=("xname", "yname") (two Slider names). When the
sliders hold a shift from a fixed place rather than the position itself,
drag_origin names that place: the handle then sits in a nested <svg> whose
data-plane is moved by it, so the runtime writes position − origin.

Colours come only from CSS classes (see «kit: plane» in labs.css): every item
takes a style among STYLES.
"""

import math

from .cells import cell_text
from .html import digits_apart
from .html import join
from .html import labelled
from .html import svg_number
from .html import tag
from .label_layout import OFFSETS
from .label_layout import overlap
from .label_layout import place_labels
from .label_layout import text_box
from .label_layout import text_width
from .memory import Memory
from .memory import typed
from .plane_items import STYLES
from .plane_items import Arc
from .plane_items import Arrow
from .plane_items import Circle
from .plane_items import Guide
from .plane_items import Label
from .plane_items import Point
from .plane_items import Shape
from .svg import circle
from .svg import counted
from .svg import described
from .svg import description_text
from .svg import fit
from .svg import frame as scroll_frame
from .svg import line
from .svg import path
from .svg import text

# Text sizes in user units, as labs.css draws them («kit: plane»): the plane
# never shrinks below the width where its tick numbers read 11 px (svg.fit);
# the default width, 400, fits a phone's 358 px.
TICK, LABEL, NAME = 12.5, 13, 13


def tick_digits(step):
    """Decimals needed to write multiples of step: 1 → 0, 0.2 → 1, 0.25 → 2."""
    text_ = f"{step:g}"
    return len(text_.split(".")[1]) if "." in text_ else 0


def multiples(step, low, high):
    """The multiples of step in [low, high], rounded so that 0.1·3 is 0.3."""
    first, last = math.ceil(low / step - 1e-9), math.floor(high / step + 1e-9)
    return [round(k * step, 10) for k in range(first, last + 1)]


class Frame:
    """Data coordinates → drawing units: x to the right, y up."""

    def __init__(self, x_range, y_range, width, height):
        (self.xmin, self.xmax), (self.ymin, self.ymax) = x_range, y_range
        self.width, self.height = width, height

    def x(self, x):
        return (x - self.xmin) / (self.xmax - self.xmin) * self.width

    def y(self, y):
        return (self.ymax - y) / (self.ymax - self.ymin) * self.height

    def __call__(self, p):
        return self.x(p[0]), self.y(p[1])


def style_class(kind, style):
    if style not in STYLES:
        raise ValueError(f"stile sconosciuto: {style!r} (disponibili: {', '.join(STYLES)})")
    return f"lab-plane-{kind} is-{style}"


def place_label(frame, x, y, content, style, where):
    """A label asked next to (x, y), on the side where: plane() places every
    label at the end (write_labels), so that none covers another."""
    return x, y, content, style, where


def inside(frame, x, y, content, anchor):
    """(x, y) moved so that the label stays inside the drawing (text width estimated)."""
    w = text_width(content, LABEL)
    if anchor == "start":
        low, high = 4, frame.width - (4 + w)
    elif anchor == "middle":
        low, high = 4 + w / 2, frame.width - (4 + w / 2)
    else:
        low, high = 4 + w, frame.width - 4
    # min(max(x, low), max(low, high)) and the same for y, as comparisons: asked for every place tried
    x, y, high, bottom = x if x >= low else low, y if y >= 10 else 10, low if low >= high else high, frame.height - 10
    return x if x <= high else high, y if y <= bottom else bottom


def write_labels(frame, requests, taken):
    """The labels, each on its side unless it would cover a label already
    written, a tick number or a point: then on the nearest side that covers
    nothing (or least). A centred label («c») moves a little up, down or
    aside. Labels of points that share a place, or that are pushed to the
    same edge because their point is out of view, stack a line apart."""
    sides = ("ne", "nw", "se", "sw", "e", "w", "n", "s")

    def places(x, y, content, order):  # made one at a time: the first free one ends the search
        for shift in (0, 16, -16, 32, -32, 48, -48):
            for side in order:
                dx, dy, anchor = OFFSETS[side]
                px, py = inside(frame, x + dx, y + dy, content, anchor)
                yield (*inside(frame, px, py + shift, content, anchor), anchor)

    asks = []
    for x, y, content, _, where in requests:
        order = ("c", "n", "s", "e", "w") if where == "c" else (where, *(s for s in sides if s != where))
        asks.append((content, LABEL, places(x, y, content, order)))
    chosen = place_labels(asks, taken, (0, 0, frame.width, frame.height))
    return [
        text(x, y, content, class_=style_class("label", style), anchor=anchor)
        for (x, y, anchor), (_, _, content, style, _) in zip(chosen, requests)
    ]


def direction_of(dx, dy):
    """The compass direction that continues a screen vector (y down)."""
    angle = math.degrees(math.atan2(-dy, dx)) % 360
    return ("e", "ne", "n", "nw", "w", "sw", "s", "se")[int((angle + 22.5) // 45) % 8]


def handle(frame, p, drag, what, origin=None):
    """A large invisible target on a draggable point (the sliders remain its keyboard access).

    With an origin the sliders hold p − origin: the target goes in a nested
    <svg> over the same pixels whose data-plane is the frame's moved by −origin."""
    x, y = frame(p)
    target = tag(
        "circle",
        tag("title", f"Trascina per spostare {what}".strip()),
        cx=float(x),
        cy=float(y),
        r=18.0,
        class_="lab-plane-handle",
        data_drag=f"{drag[0]} {drag[1]}",
    )
    if not origin:
        return target
    f, (ox, oy) = frame, origin
    return tag(
        "svg",
        target,
        x=0.0,
        y=0.0,
        width=float(f.width),
        height=float(f.height),
        viewBox=f"0 0 {svg_number(f.width)} {svg_number(f.height)}",
        overflow="visible",
        data_plane=" ".join(f"{v:.12g}" for v in (f.xmin - ox, f.xmax - ox, f.ymin - oy, f.ymax - oy)),
    )


def draw_arrow(frame, item, labels, handles):
    (x1, y1), (x2, y2) = frame(item.start), frame(item.end)
    length = math.hypot(x2 - x1, y2 - y1)
    parts = []
    if length >= 1:
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        head = min(11.0, length / 1.5)
        bx, by = x2 - head * ux, y2 - head * uy
        w = head * 0.45
        parts.append(line(x1, y1, bx, by, class_="lab-plane-shaft" + (" is-dashed" if item.dashed else "")))
        parts.append(
            tag(
                "polygon",
                points=" ".join(
                    f"{px:.2f},{py:.2f}"
                    for px, py in ((x2, y2), (bx - w * uy, by + w * ux), (bx + w * uy, by - w * ux))
                ),
                class_="lab-plane-head",
            )
        )
    else:  # the zero vector is a point: keep something visible to grab
        parts.append(circle(x2, y2, 3.5, class_="lab-plane-head"))
    if item.label:
        where = item.label_at if item.label_at != "auto" else (direction_of(x2 - x1, y2 - y1) if length >= 1 else "ne")
        labels.append(place_label(frame, x2, y2, item.label, item.style, where))
    if item.drag:
        handles.append(handle(frame, item.end, item.drag, item.label, item.drag_origin))
    return tag("g", *parts, class_=style_class("arrow", item.style))


def draw_point(frame, item, labels, handles):
    x, y = frame(item.at)
    if item.label:
        labels.append(place_label(frame, x, y, item.label, item.style, item.label_at))
    if item.drag:
        handles.append(handle(frame, item.at, item.drag, item.label, item.drag_origin))
    return circle(
        x,
        y,
        5.5 if item.hollow else 4.5,
        class_=style_class("point", item.style) + (" is-hollow" if item.hollow else ""),
    )


def draw_guide(frame, item, labels, handles):
    (x1, y1), (x2, y2) = frame(item.start), frame(item.end)
    if item.label:
        labels.append(place_label(frame, (x1 + x2) / 2, (y1 + y2) / 2, item.label, item.style, "c"))
    return line(x1, y1, x2, y2, class_=style_class("guide", item.style))


def draw_shape(frame, item, labels, handles):
    d = " ".join(("M" if i == 0 else "L") + f"{x:.2f},{y:.2f}" for i, (x, y) in enumerate(map(frame, item.points)))
    cls = (
        style_class("shape", item.style)
        + (" is-filled" if item.filled and item.closed else "")
        + (" is-thin" if item.thin else "")
    )
    return path(d + (" Z" if item.closed else ""), class_=cls)


def draw_circle(frame, item, labels, handles):
    x, y = frame(item.center)
    r = abs(frame.x(item.radius) - frame.x(0))
    return circle(x, y, r, class_=style_class("circle", item.style) + (" is-dashed" if item.dashed else ""))


def draw_arc(frame, item, labels, handles):
    x, y = frame(item.center)
    a1, a2 = math.atan2(item.u[1], item.u[0]), math.atan2(item.v[1], item.v[0])
    sweep = (a2 - a1 + math.pi) % (2 * math.pi) - math.pi  # the smaller turn, signed
    r = item.radius
    steps = max(2, int(abs(sweep) / 0.1))
    turns = [a1 + sweep * i / steps for i in range(steps + 1)]
    pts = [(x + r * math.cos(t), y - r * math.sin(t)) for t in turns]
    if item.label:
        mid = a1 + sweep / 2
        labels.append(
            place_label(frame, x + (r + 12) * math.cos(mid), y - (r + 12) * math.sin(mid), item.label, item.style, "c")
        )
    d = " ".join(("M" if i == 0 else "L") + f"{px:.2f},{py:.2f}" for i, (px, py) in enumerate(pts))
    return path(d, class_=style_class("arc", item.style))


def draw_label(frame, item, labels, handles):
    x, y = frame(item.at)
    labels.append(place_label(frame, x, y, item.text, item.style, item.label_at))
    return None


DRAW = {
    Arrow: draw_arrow,
    Point: draw_point,
    Guide: draw_guide,
    Shape: draw_shape,
    Circle: draw_circle,
    Arc: draw_arc,
    Label: draw_label,
}


GRIDS = Memory(16)  # the grids and axes drawn last: a plane's ranges rarely move with a control


def grid_and_axes(frame, grid, ticks, axis_names):
    """Grid lines, the two axes (or the edges when 0 is out of view), tick
    numbers, axis names; and the boxes of those texts. A tick number that
    would touch the one before is left out. Remembered by everything they
    depend on (GRIDS)."""
    f = frame
    key = (f.xmin, f.xmax, f.ymin, f.ymax, f.width, f.height, grid, ticks, typed(axis_names))
    return GRIDS.get(key, lambda: _grid_and_axes(frame, grid, ticks, axis_names))


def _grid_and_axes(frame, grid, ticks, axis_names):
    f, parts, boxes = frame, [], []

    def write(x, y, content, class_, anchor="middle", size=TICK, value=None):
        box = text_box(x, y, content, size, anchor)
        if any(overlap(box, other) > 0 for other in boxes):
            return
        boxes.append(box)
        parts.append(
            text(
                x,
                y,
                content,
                class_=class_,
                anchor=anchor,
                **({} if value is None else {"data_labelled": labelled(value)}),
            )
        )

    for v in multiples(grid, f.xmin, f.xmax):
        parts.append(line(f.x(v), 0, f.x(v), f.height, class_="lab-plane-grid"))
    for v in multiples(grid, f.ymin, f.ymax):
        parts.append(line(0, f.y(v), f.width, f.y(v), class_="lab-plane-grid"))
    # tick numbers ride on the axes when they are in view, otherwise on the bottom / left edge
    ax_y = min(max(f.y(0), 0), f.height)
    ax_x = min(max(f.x(0), 0), f.width)
    parts.append(line(0, ax_y, f.width, ax_y, class_="lab-plane-axis"))
    parts.append(line(ax_x, 0, ax_x, f.height, class_="lab-plane-axis"))
    below = ax_y + 20 <= f.height
    x_values = multiples(ticks, f.xmin, f.xmax)
    y_values = multiples(ticks, f.ymin, f.ymax)
    digits = digits_apart(x_values + y_values, tick_digits(ticks), 10)
    widest = max((text_width(cell_text(float(v), digits), TICK) for v in y_values), default=0)
    left = ax_x - 5 - widest >= 2
    if 0 <= f.x(0) <= f.width and 0 <= f.y(0) <= f.height and left and below:
        write(ax_x - 5, ax_y + 12, "0", "lab-plane-tick", "end")
    for v in x_values:
        x = f.x(v)
        content = cell_text(float(v), digits)
        if v != 0 and text_width(content, TICK) / 2 + 2 <= x <= f.width - text_width(content, TICK) / 2 - 2:
            write(x, ax_y + 12 if below else ax_y - 10, content, "lab-plane-tick", value=v)
    for v in y_values:
        y = f.y(v)
        if v != 0 and 10 <= y <= f.height - 10:
            write(
                ax_x - 5 if left else ax_x + 5,
                y,
                cell_text(float(v), digits),
                "lab-plane-tick",
                "end" if left else "start",
                value=v,
            )
    x_name, y_name = axis_names
    if x_name:
        write(f.width - 6, ax_y - 12 if ax_y - 12 > 12 else ax_y + 28, x_name, "lab-plane-axis-name", "end", NAME)
    if y_name:
        side = ax_x + 8 if ax_x + 8 + text_width(y_name, NAME) < f.width else ax_x - 8
        write(side, 12, y_name, "lab-plane-axis-name", "start" if side > ax_x else "end", NAME)
    return tag("g", *parts, class_="lab-plane-frame"), tuple(boxes)


NAMED_TOLD = 4  # up to this many named points are all told; beyond, the farthest and nearest


def describe_plane(items):
    """«2 frecce e 1 punto: a [2 ; 1], b [−1 ; 1,5], c [0 ; 0]»: what is on the
    plane and where; with more than NAMED_TOLD named points, the farthest
    from the origin and the nearest, and the result (style "result")."""
    arrows = [item for item in items if isinstance(item, Arrow)]
    points = [item for item in items if isinstance(item, Point)]
    kinds = [counted(len(arrows), "freccia", "frecce", feminine=True)] * bool(arrows) + [
        counted(len(points), "punto", "punti")
    ] * bool(points)
    if not kinds:
        return "Un piano senza frecce né punti."
    head = " e ".join(kinds)
    head = head[0].upper() + head[1:]
    named = [
        (item.label, item.end if isinstance(item, Arrow) else item.at, item.style)
        for item in items
        if isinstance(item, (Arrow, Point)) and item.label
    ]
    if not named:
        return f"{head}, senza nomi."
    where = lambda n: f"{n[0]} {vector_text(n[1])}"  # noqa: E731
    if len(named) <= NAMED_TOLD:
        return f"{head}: {', '.join(map(where, named))}."
    far = max(named, key=lambda n: math.hypot(*n[1]))
    near = min(named, key=lambda n: math.hypot(*n[1]))
    text_ = f"{head}; il più lontano dall'origine è {where(far)}, il più vicino {where(near)}"
    results = [n for n in named if n[2] == "result" and n not in (far, near)]
    return text_ + (f"; in evidenza {where(results[0])}" if results else "") + "."


def plane(
    items,
    x_range,
    y_range,
    label,
    width=400,
    height=None,
    grid=1.0,
    ticks=None,
    axis_names=("", ""),
    small=False,
    description=None,
):
    """An SVG plane showing x_range × y_range, with the items drawn in order.

    Both axes have the same scale unless a height is given. grid is the
    spacing of the grid lines, ticks that of the numbers (the grid's by
    default). axis_names names the x and y axes (e.g. «regale», «femminile»).
    small=True keeps it about half as wide on the page, for a detail beside
    a main plane (give it a smaller width too, so its text keeps its size).
    label is what a screen reader says of the figure, then description
    (as for bars(): by default the arrows and points and where they are).
    Two planes in the same view need different ranges: the runtime finds a
    plane again by them.
    """
    (xmin, xmax), (ymin, ymax) = x_range, y_range
    if not (xmax > xmin and ymax > ymin):
        raise ValueError("un piano vuole xmin < xmax e ymin < ymax")
    if height is None:
        height = width * (ymax - ymin) / (xmax - xmin)
    height = round(height, 2)  # written as is in the viewBox, so the mapping stays exact
    frame = Frame(x_range, y_range, width, height)
    labels, handles, drawn = [], [], []
    for item in items:
        drawn.append(DRAW[type(item)](frame, item, labels, handles))
    # what labels must not cover: the tick numbers and axis names, the points
    axes, boxes = grid_and_axes(frame, grid, ticks or grid, axis_names)
    taken = list(boxes)
    for item in items:
        if isinstance(item, Point):
            x, y = frame(item.at)
            taken.append((x - 5, y - 5, x + 5, y + 5))
    # the inner <svg> clips whatever leaves the data rectangle; labels and handles sit on top
    inner = tag(
        "svg",
        axes,
        *drawn,
        tag("g", *write_labels(frame, labels, taken), class_="lab-plane-labels"),
        tag("g", *handles),
        x=0.0,
        y=0.0,
        width=float(width),
        height=float(height),
        class_="lab-plane-clip",
    )
    narrowest, widest = fit(width, TICK)
    desc, note, describedby = described(label, description_text(description, lambda: describe_plane(items)))
    return scroll_frame(
        join(
            tag(
                "svg",
                tag("title", label),
                desc,
                inner,
                viewBox=f"0 0 {svg_number(width)} {svg_number(height)}",
                width=str(widest),
                class_="lab-svg lab-plane" + (" is-small" if small else ""),
                role="group" if 'tabindex="0"' in str(inner) else "img",  # points to press are controls, not an image
                xmlns="http://www.w3.org/2000/svg",
                data_plane=" ".join(f"{v:.12g}" for v in (xmin, xmax, ymin, ymax)),
                aria_describedby=describedby,
            ),
            note,
        ),
        narrowest,
    )


def term(x, digits=2):
    """A number inside a sum or a product: trimmed (1,50 → 1,5), in brackets when negative."""
    text_ = cell_text(float(x), digits)
    return f"({text_})" if text_.startswith("−") else text_


def vector_text(v, digits=2):
    """[2 ; 1,5] written the guide's way: Italian numbers, «;» between them."""
    return "[" + " ; ".join(cell_text(float(x), digits) for x in v) + "]"


def presets(caption, options):
    """A row of buttons that set controls when pressed: options are
    (text, {control name: value}) pairs, e.g. ("Rotazione 30°", {"a11": 0.87, ...})."""
    buttons = [
        tag(
            "button",
            text_,
            type="button",
            class_="md-button",
            data_set=";".join(
                f"{name}={value:g}" if isinstance(value, float) else f"{name}={value}" for name, value in values.items()
            ),
            aria_label=f"{caption} {text_}",
        )
        for text_, values in options
    ]
    return tag("div", tag("span", caption), *buttons, class_="lab-presets", role="group")


__all__ = ["plane", "presets", "term", "vector_text"]
