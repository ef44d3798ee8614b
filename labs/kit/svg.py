"""SVG primitives. Colours come from CSS classes (see labs.css), so every
drawing follows the site's light or dark scheme.

Every figure also says in words what it shows now: a short Italian
description of its current data (the kit's figures compute one, a lab may
replace or extend it with description=), written in the drawing's <desc>
and in a paragraph only screen readers see (class lab-sr), which the
drawing names with aria-describedby: a screen reader hears the title, then
what the figure shows. It is drawn with the view, so it follows the state.
"""

import math
import re
import zlib

from .html import Html
from .html import escape
from .html import join
from .html import num
from .html import shown_text
from .html import svg_number
from .html import tag
from .italian import plural
from .quantities import big
from .quantities import sci
from .quantities import significant

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


def svg(
    width, height, *children, label, class_="lab-svg", text=12.0, grow=GROW, framed=True, description=None, **attrs
):
    """An SVG canvas of width × height user units that scales to its box,
    in a frame (framed=False returns the <svg>, with its description, and
    its narrowest width in px, for the caller to frame).

    label is read by screen readers (role="img"). description says what the
    drawing shows now, in a sentence or two of Italian (a lab's own drawing
    writes it from its state): read after the label (described()). text is
    the size of the smallest text inside, in user units (the CSS of its
    classes; labs.css writes none under 12): the figure never shrinks below
    the width where it reads MIN_TEXT px (fit()).
    """
    narrowest, widest = fit(width, text, grow)
    desc, note, attrs["aria_describedby"] = described(label, description)
    drawing = tag(
        "svg",
        tag("title", label),
        desc,
        *children,
        viewBox=f"0 0 {width} {height}",
        width=str(widest),
        class_=class_,
        # a drawing with points to press is a group of controls: role=img would hide them
        role="group" if focusable(children) else "img",
        xmlns="http://www.w3.org/2000/svg",
        **attrs,
    )
    if note is not None:
        drawing = join(drawing, note)
    return frame(drawing, narrowest) if framed else (drawing, narrowest)


def description_text(description, automatic):
    """The description a figure shows: the lab's own sentence (a string), or
    the kit's automatic one (automatic(), called only when needed), or what
    the lab's function makes of it (description=lambda auto: auto + " …")."""
    if description is None:
        return automatic()
    if callable(description):
        return str(description(automatic()))
    return description


def described(label, description):
    """(<desc>, the hidden paragraph, its id) for a figure named label that
    shows description; (None, None, None) without a description.

    The id comes from the label and the text, so the same view always
    writes the same ids (the page morphs a view into the next one, and the
    build's page equals the browser's) and two figures of a view get two."""
    if description is None or not str(description).strip():
        return None, None, None
    id_ = f"lab-d-{zlib.crc32(f'{label}|{description}'.encode()):08x}"
    return tag("desc", description), tag("p", description, id=id_, class_="lab-sr"), id_


def quoted(name):
    """A name inside a sentence, in «»: once, if the name has them already («gatto»)."""
    name = str(name)
    return name if name.startswith("«") else f"«{name}»"


def counted(n, one, many, feminine=False):
    """A count as a sentence says it: «una barra», «un punto», «3 barre»."""
    return f"{'una' if feminine else 'un'} {one}" if n == 1 else plural(n, one, many)


# patterns that start with a literal, which the regex engine finds fast (a view can be 100 kB)
DESCRIPTION_ID = re.compile(r' id="(lab-d-[0-9a-f]{8})"')
DESCRIPTION_VALUE = re.compile(r'="(lab-d-[0-9a-f]{8})"')


def unique_ids(html):
    """The view with every description's id unique. A figure drawn twice in
    one view (the same matrix in a formula and in its product) writes the
    same id twice; the second pair (aria-describedby, then the paragraph's
    id, as described() writes them) becomes lab-d-…-2, the third -3. Any
    other value (a lab's view that is not Html) is returned as it is."""
    if not isinstance(html, Html):
        return html
    ids = DESCRIPTION_ID.findall(html)
    if len(ids) == len(set(ids)):
        return html
    seen = {}

    def rename(match):
        id_ = match.group(1)
        n = seen.get(id_, 0) + 1
        if match.string.startswith(" id", match.start() - 3):  # the paragraph; else the figure's aria-describedby
            seen[id_] = n
        return match.group(0) if n == 1 else f'="{id_}-{n}"'

    return Html(DESCRIPTION_VALUE.sub(rename, html))


def amount(x, sig=3):
    """A number for a sentence: about sig significant digits, Italian
    (0,741; 2,3; −0,88); counts of a million and more in words (6,74
    miliardi), tiny values as a power of ten (4,2 × 10⁻⁵)."""
    if isinstance(x, bool):
        x = int(x)
    if not math.isfinite(x):
        return num(float(x))
    if x == 0:
        return "0"
    if abs(x) >= 1e6:
        return big(x)
    if isinstance(x, int):
        return num(x)
    if abs(x) < 1e-3:
        return sci(x)
    return significant(x, sig)


def focusable(children):
    """True if something inside takes the keyboard focus (a clickable point or bar)."""
    return any('tabindex="0"' in str(child) for child in children if child is not None)


def group(*children, **attrs):
    return tag("g", *children, **attrs)


# The shapes below are most of a drawing's elements (a chart's ticks, a bar's rectangles): with no
# other attributes their markup is written in one string, the same that tag() writes, attribute by
# attribute in the same order.


def _class(class_):
    return "" if class_ is None or class_ is False else f' class="{escape(str(class_))}"'


def line(x1, y1, x2, y2, class_=None, width=None, **attrs):
    if attrs or width is not None:
        return tag(
            "line",
            x1=float(x1),
            y1=float(y1),
            x2=float(x2),
            y2=float(y2),
            class_=class_,
            stroke_width=None if width is None else float(width),
            **attrs,
        )
    return Html(
        f'<line x1="{svg_number(float(x1))}" y1="{svg_number(float(y1))}" x2="{svg_number(float(x2))}" '
        f'y2="{svg_number(float(y2))}"{_class(class_)}></line>'
    )


def circle(cx, cy, r, class_=None, **attrs):
    if attrs:
        return tag("circle", cx=float(cx), cy=float(cy), r=float(r), class_=class_, **attrs)
    return Html(
        f'<circle cx="{svg_number(float(cx))}" cy="{svg_number(float(cy))}" r="{svg_number(float(r))}"'
        f"{_class(class_)}></circle>"
    )


def rect(x, y, width, height, class_=None, rx=None, **attrs):
    if attrs:
        return tag(
            "rect",
            x=float(x),
            y=float(y),
            width=float(width),
            height=float(height),
            rx=None if rx is None else float(rx),
            class_=class_,
            **attrs,
        )
    corner = "" if rx is None else f' rx="{svg_number(float(rx))}"'
    return Html(
        f'<rect x="{svg_number(float(x))}" y="{svg_number(float(y))}" width="{svg_number(float(width))}" '
        f'height="{svg_number(float(height))}"{corner}{_class(class_)}></rect>'
    )


def text(x, y, content, class_=None, anchor="middle", **attrs):
    """Text centred on (x, y) by default; content is escaped."""
    if attrs:
        return tag(
            "text",
            content,
            x=float(x),
            y=float(y),
            class_=class_,
            text_anchor=anchor,
            dominant_baseline="middle",
            **attrs,
        )
    inner = "" if content is None else content if isinstance(content, Html) else shown_text(str(content), "text")
    aligned = "" if anchor is None or anchor is False else f' text-anchor="{escape(str(anchor))}"'
    return Html(
        f'<text x="{svg_number(float(x))}" y="{svg_number(float(y))}"{_class(class_)}{aligned} '
        f'dominant-baseline="middle">{inner}</text>'
    )


def path(d, class_=None, **attrs):
    return tag("path", d=d, class_=class_, **attrs)


def arrow_marker(id_="lab-arrow"):
    """The arrowhead that lines with marker_end=f"url(#{id_})" point with."""
    return Html(
        f'<defs><marker id="{id_}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
        f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" class="lab-arrowhead"/>'
        f"</marker></defs>"
    )
