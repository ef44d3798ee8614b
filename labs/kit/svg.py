"""SVG primitives. Colours come from CSS classes (see labs.css), so every
drawing follows the site's light or dark scheme."""

from .html import Html, tag


MIN_TEXT = 11.0  # CSS px: no text of a figure reads smaller, at any width (tests/browser/test_layout.py)
GROW = 1.25  # a figure is shown at most this many times its drawn size, so its text does not balloon


def fit(width, text=MIN_TEXT, grow=GROW):
    """(narrowest, widest) in CSS px for a figure width user units wide: it
    follows the width of its box, but never below the width at which its
    smallest text (text user units) would read MIN_TEXT px, nor above grow
    times its drawn size. Narrower than that, its frame scrolls (frame())."""
    return round(width * MIN_TEXT / text), round(width * grow)


def frame(figure, narrowest, **attrs):
    """A figure in a frame that scrolls sideways when the screen is narrower
    than narrowest px; a shadow marks the side with more to see.

    The page allows no style attributes (its CSP), so the minimum width is
    an empty strut of that width laid in the same grid cell as the figure
    (labs.css, «kit figure»); the figure's own width attribute is its widest."""
    strut = tag("svg", width=str(narrowest), height="0", class_="lab-fig-strut", aria_hidden="true")
    return tag("div", strut, figure, class_="lab-fig", data_scroll_frame="", **attrs)


def svg(width, height, *children, label, class_="lab-svg", text=12.0, grow=GROW, framed=True, **attrs):
    """An SVG canvas of width × height user units that scales to its box,
    in a frame (framed=False returns the <svg> and its narrowest width in
    px, for the caller to frame).

    label is read by screen readers (role="img"). text is the size of the
    smallest text inside, in user units (the CSS of its classes; labs.css
    writes none under 12): the figure never shrinks below the width where
    it reads MIN_TEXT px (fit()).
    """
    narrowest, widest = fit(width, text, grow)
    drawing = tag(
        "svg",
        tag("title", label),
        *children,
        viewBox=f"0 0 {width} {height}",
        width=str(widest),
        class_=class_,
        # a drawing with points to press is a group of controls: role=img would hide them
        role="group" if focusable(children) else "img",
        xmlns="http://www.w3.org/2000/svg",
        **attrs,
    )
    return frame(drawing, narrowest) if framed else (drawing, narrowest)


def focusable(children):
    """True if something inside takes the keyboard focus (a clickable point or bar)."""
    return any('tabindex="0"' in str(child) for child in children if child is not None)


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
