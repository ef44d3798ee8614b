"""SVG primitives. Colours come from CSS classes (see labs.css), so every
drawing follows the site's light or dark scheme."""

from .html import Html, tag


def svg(width, height, *children, label, class_="lab-svg"):
    """An SVG canvas of width × height user units that scales to its box.

    label is read by screen readers (role="img").
    """
    return tag(
        "svg",
        tag("title", label),
        *children,
        viewBox=f"0 0 {width} {height}",
        class_=class_,
        role="img",
        xmlns="http://www.w3.org/2000/svg",
    )


def group(*children, **attrs):
    return tag("g", *children, **attrs)


def line(x1, y1, x2, y2, class_=None, width=None, **attrs):
    return tag("line", x1=float(x1), y1=float(y1), x2=float(x2), y2=float(y2), class_=class_,
               stroke_width=None if width is None else float(width), **attrs)


def circle(cx, cy, r, class_=None, **attrs):
    return tag("circle", cx=float(cx), cy=float(cy), r=float(r), class_=class_, **attrs)


def rect(x, y, width, height, class_=None, rx=None, **attrs):
    return tag("rect", x=float(x), y=float(y), width=float(width), height=float(height),
               rx=None if rx is None else float(rx), class_=class_, **attrs)


def text(x, y, content, class_=None, anchor="middle", **attrs):
    """Text centred on (x, y) by default; content is escaped."""
    return tag("text", content, x=float(x), y=float(y), class_=class_, text_anchor=anchor,
               dominant_baseline="middle", **attrs)


def path(d, class_=None, **attrs):
    return tag("path", d=d, class_=class_, **attrs)


def arrow_marker(id_="lab-arrow"):
    """The arrowhead that lines with marker_end=f"url(#{id_})" point with."""
    return Html(
        f'<defs><marker id="{id_}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="lab-arrowhead"/>'
        f"</marker></defs>"
    )
