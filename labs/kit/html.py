"""Safe HTML: text is escaped unless it is already Html built by the kit.

Every component takes plain strings for text and escapes them, so a lab
cannot show a reader's input unescaped by accident.
"""

import math
import re
from collections import namedtuple


class Html(str):
    """Markup that is already safe to insert (built by tag() or raw())."""


# between a number and its unit (19,2 %, 13,5 GB): a space a line never breaks at
NBSP = "\u00a0"
_ESCAPED = {}  # short texts already escaped: views write the same class names and numbers thousands of times


def escape(text):
    """Il testo con & < > " ' scritti come entità HTML, ricordato se è corto.

    The same as the standard html.escape(text, quote=True), written here:
    importing the html package brings html.entities (2,000 names), which
    costs Pyodide a tenth of a second before the first view."""
    done = _ESCAPED.get(text)
    if done is None:
        done = (
            text.replace("&", "&amp;")
            .replace("<", "&lt;")
            .replace(">", "&gt;")
            .replace('"', "&quot;")
            .replace("'", "&#x27;")
        )
        if len(text) <= 40:
            if len(_ESCAPED) >= 8192:
                _ESCAPED.clear()
            _ESCAPED[text] = done
    return done


_ENTITIES = re.compile(r"&(amp|lt|gt|quot|#x27|#39);")
_CHARACTERS = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "#x27": "'", "#39": "'"}


def unescape(text):
    """Il testo con le entità che escape() scrive tornate caratteri (il kit non ne scrive altre)."""
    return _ENTITIES.sub(lambda m: _CHARACTERS[m.group(1)], text) if "&" in text else text


def esc(value):
    """value as safe Html: escaped text, or itself if it is Html already."""
    if isinstance(value, Html):
        return value
    return Html(escape(str(value)))


def raw(markup):
    """Trust markup as it is (for constants written in the code, never for input)."""
    return Html(markup)


_ATTR_NAMES = {}  # class_ → class, data_x → data-x: worked out once per keyword (views write thousands)


def attrs_html(attrs):
    """key=value pairs as HTML attributes; class_ → class, data_x → data-x.
    None and False are left out; True is written as a bare attribute."""
    parts = []
    for key, value in attrs.items():
        if value is None or value is False:
            continue
        name = _ATTR_NAMES.get(key)
        if name is None:
            name = _ATTR_NAMES[key] = key.rstrip("_").replace("_", "-")
        if value is True:
            parts.append(f" {name}")
        elif type(value) is int:  # digits and a minus: nothing to escape
            parts.append(f' {name}="{value}"')
        elif isinstance(value, float):
            parts.append(f' {name}="{svg_number(value)}"')
        else:
            parts.append(f' {name}="{escape(str(value))}"')
    return "".join(parts)


# A superscript or subscript glyph (10⁻⁴, w₁) is drawn at 0,5–0,7 of its font's size: in text a reader sees it
# gets a bigger font of its own (.lab-sup, .lab-sub in labs.css) and reads at least as big as the text around it.
SCRIPTS = re.compile("([⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻ⁱⁿ]+)|([₀₁₂₃₄₅₆₇₈₉₊₋ₐₑₒₓᵢⱼₖₗₘₙₚₛₜ]+)")
_NOT_SHOWN = frozenset(("title", "desc", "option", "textarea", "script", "style"))  # text only tooltips or inputs hold
_SVG_TEXT = frozenset(("text", "tspan", "textPath"))


def shown_text(text, name):
    """text escaped as the content of a <name> element, its superscript and subscript runs in their own font."""
    done = escape(text)
    if name in _NOT_SHOWN or not SCRIPTS.search(done):
        return done
    inline = "tspan" if name in _SVG_TEXT else "span"
    return SCRIPTS.sub(lambda m: f'<{inline} class="lab-{"sup" if m[1] else "sub"}">{m[0]}</{inline}>', done)


_SCRIPT_SPANS = re.compile(r'<(t?span) class="lab-su[bp]">([^<]*)</\1>')


def unwrapped_scripts(html):
    """The markup with shown_text()'s spans around superscripts and subscripts taken off: «10⁻⁴» as written."""
    return _SCRIPT_SPANS.sub(r"\2", str(html))


def tag(name, *children, **attrs):
    """<name attrs>children</name>, with every child that is not Html escaped (shown_text)."""
    inner = "".join([c if isinstance(c, Html) else shown_text(str(c), name) for c in children if c is not None])
    return Html(f"<{name}{attrs_html(attrs)}>{inner}</{name}>")


def void(name, **attrs):
    """A tag with no content and no closing tag (<input>, <br>)."""
    return Html(f"<{name}{attrs_html(attrs)}>")


def join(*parts):
    """Several pieces one after the other, each escaped unless Html."""
    return Html("".join(esc(p) for p in parts if p is not None))


def svg_number(x):
    """A coordinate for SVG: short, with a dot, never '-0'."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


# A number num() wrote while a view was drawn: its value, its decimals, its text, the quantity it is a number
# of (if the lab or a kit component said so) and whether its decimals follow from significant digits or lost
# their last zeros (13,5 GB beside 1,35 GB; a cell's 1,5 beside 1,25) rather than from a choice of decimals.
Noted = namedtuple("Noted", "value digits text quantity shortened", defaults=(None, False))


# The numbers num() writes while a view is drawn under noting_numbers(): a Noted each. A test reads them to
# check that one value, and one quantity, is written with one number of decimals in one view.
_NOTED = []


class noting_numbers:
    """with noting_numbers() as noted: the view drawn inside; noted holds what num() wrote."""

    def __enter__(self):
        self.noted = []
        _NOTED.append(self.noted)
        return self.noted

    def __exit__(self, *exc):
        _NOTED.remove(self.noted)


def noting():
    """Whether the numbers written now are noted (a test is drawing a view under noting_numbers())."""
    return bool(_NOTED)


def num(x, digits=2, signed=False, quantity=None):
    """x written the Italian way: decimal comma, true minus sign (−0,88).

    Not-a-number and infinities are written in words, never as 'nan'.
    quantity: what x is a number of (η, «p studente»): in one view the numbers of one quantity are
    written with one number of decimals, which a test checks.
    """
    text = _written(x, digits, signed)
    if _NOTED:
        _NOTED[-1].append(Noted(x, digits, text, quantity))
    return text


_POWER = re.compile("× 10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+")
_WRITTEN = re.compile(r"[−+]?\d[\d.]*(?:,\d+)?")
_TAGS = re.compile("<[^>]*>")


def naming(quantity, texts):
    """Under noting_numbers(): each of `texts` (a table's cell, a stat's value) that shows one number alone
    (with its unit, or × 10ⁿ) names the last number written with that text a number of `quantity`; a text
    with more numbers (0,8 × 1 + 0,5 × 0 = 0,8) names none."""
    if not _NOTED or not quantity:
        return
    noted = _NOTED[-1]
    for text in texts:
        shown = unescape(_TAGS.sub("", text)) if isinstance(text, Html) else str(text)
        found = _WRITTEN.findall(_POWER.sub("", shown))
        if len(found) != 1:
            continue
        written = found[0].lstrip("+")
        for i in range(len(noted) - 1, -1, -1):
            if noted[i].text.lstrip("+") == written:
                if noted[i].quantity is None:
                    noted[i] = noted[i]._replace(quantity=quantity)
                break


def mark_shortened():
    """Under noting_numbers(): the number just written has its decimals from significant digits or is about
    to lose its last zeros (1,50 → 1,5), not from a choice of decimals."""
    if _NOTED and _NOTED[-1]:
        _NOTED[-1][-1] = _NOTED[-1][-1]._replace(shortened=True)


def _written(x, digits, signed):
    if x.__class__ is float and -999.0 < x < 999.0:  # most numbers: no thousands to group, nothing to spell
        text = f"{x:.{digits}f}".replace(".", ",")
        if text[0] == "-":
            text = "−" + text[1:] if text.strip("-0,") else text[1:]
        elif signed and x > 0:
            text = "+" + text
        return text
    if isinstance(x, float) and math.isnan(x):
        return "indefinito"
    if isinstance(x, float) and math.isinf(x):
        return "infinito" if x > 0 else "−infinito"
    text = f"{x:,}" if isinstance(x, int) else f"{x:,.{digits}f}"
    text = text.replace(",", "\u2009").replace(".", ",").replace("\u2009", ".")
    if text.startswith("-"):
        text = "−" + text[1:]
        if set(text[1:]) <= set("0,."):
            text = text[1:]
    elif signed and x > 0:
        text = "+" + text
    return text


def same_value(a, b):
    """Whether two numbers are one value written twice: they differ by a billionth of their size at most,
    or by rounding noise around zero (0.1 + 0.2 and 0.3, −1e-16 and 0 are the same value)."""
    return abs(a - b) <= max(1e-12, 1e-9 * max(abs(a), abs(b)))


def digits_apart(values, least=2, most=8):
    """The fewest decimals, least at least, with which num() writes any two different values among
    `values` differently: the edges 0, 0.0039, 0.0078 want 3 (with 2 they all read «0,00»). Values
    that are the same (same_value) may read the same; beyond `most` decimals, most."""
    distinct = []
    for v in sorted(v for v in values if isinstance(v, (int, float)) and math.isfinite(v)):
        if not distinct or not same_value(distinct[-1], v):
            distinct.append(v)
    for d in range(least, most):
        texts = [_written(float(v), d, False) for v in distinct]  # tried, not written
        if all(a != b for a, b in zip(texts, texts[1:])):
            return d
    return max(least, most)


def digits_each(values, least=2, most=8):
    """For each of `values`, the fewest decimals from `least` up with which num() writes it apart from every
    other different value among them: only the values that would read alike get more (0,001 and 0,002 beside
    50,0), so a value keeps the decimals the rest of its view writes it with. Beyond `most`, most."""
    digits = [least] * len(values)
    while True:
        readings = {}
        for i, v in enumerate(values):
            if isinstance(v, (int, float)) and math.isfinite(v):
                readings.setdefault(float(f"{v:.{digits[i]}f}"), []).append(i)
        crowded = [
            i
            for group in readings.values()
            if any(not same_value(values[group[0]], values[j]) for j in group[1:])
            for i in group
            if digits[i] < most
        ]
        if not crowded:
            return digits
        for i in crowded:
            digits[i] += 1


def numbers(values, digits=2, signed=False):
    """num() of each value, with digits decimals or as many more as tell two different values apart."""
    d = digits_apart(values, digits)
    return [num(v, d, signed) for v in values]


def labelled(value):
    """The exact value a number written in a figure stands for, as the kit marks it (data-labelled):
    tests read it to check that different values never read the same."""
    return " ".join(f"{float(v):.17g}" for v in value) if isinstance(value, (tuple, list)) else f"{float(value):.17g}"


def factor(x, digits=2):
    """x as a factor in a product: negatives in brackets, 2 × (−0,5)."""
    text = num(x, digits)
    return f"({text})" if text.startswith("−") else text


def percent(p, digits=0):
    """p in 0–1 written as a percentage: 0.28 → '28 %', with a non-breaking space before «%»."""
    return num(100 * p, digits) + NBSP + "%"
