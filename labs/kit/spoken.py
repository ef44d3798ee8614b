"""The line a screen reader hears after an update: the key result in words.

A lab may define summary(state) -> str; otherwise the line is read off the
view: its first row of stat() figures («Neurone dell'ombrello: 0,90;
Soglia di decisione: 0,50»), else its first callout, else its first
heading. One short polite line, never the whole drawing.
"""

import re

from .html import unescape

LIMIT = 300  # characters: a sentence, not a page
SVG_TAG = re.compile(r"<(/?)svg\b[^>]*>")
STATS = re.compile(r'class="(?:[^"]*\s)?lab-stats(?:\s[^"]*)?"')
CALLOUT = re.compile(r'class="(?:[^"]*\s)?lab-callout(?:\s[^"]*)?"')


class _Read(Exception):
    """The part the parser was told to stop at is complete: the rest of the view need not be parsed."""


# a view's markup, written by the kit: comments, tags (attribute values in quotes) and text between them
TOKEN = re.compile(r'<!--.*?-->|<(/?)([A-Za-z][\w:-]*)((?:[^>"\']|"[^"]*"|\'[^\']*\')*)>|([^<]+)|<', re.S)
CLASS = re.compile(r'\sclass\s*=\s*"([^"]*)"')


class _FirstParts:
    """Collects the text of the first stats row, callout and h3/h4 of a view.

    A small reader of the kit's own markup (well formed, attribute values in
    quotes): the standard html.parser would cost Pyodide a tenth of a second
    of imports before the first view."""

    def __init__(self, stop_at="stats"):
        self.stop_at = stop_at  # a stats row with text wins: nothing after it can change the line
        self.stack = []  # (tag, kind) of the open elements
        self.stats, self.callout, self.heading = [], [], []
        self.done = set()

    def feed(self, text):
        for match in TOKEN.finditer(text):
            closing, tag, attrs, data = match.groups()
            if data is not None:
                self.handle_data(unescape(data))
            elif tag is None:
                continue  # a comment, or a lone «<»
            elif closing:
                self.handle_endtag(tag.lower())
            else:
                self.handle_starttag(tag.lower(), attrs)
                if attrs.rstrip().endswith("/"):
                    self.handle_endtag(tag.lower())

    def close(self):
        pass

    def kind(self, tag, attrs):
        found = CLASS.search(attrs)
        classes = unescape(found.group(1)).split() if found else []
        if "lab-stats" in classes and "stats" not in self.done:
            return "stats"
        if "lab-stat-label" in classes:
            return "label"
        if "lab-stat-value" in classes:
            return "value"
        if "lab-callout" in classes and "callout" not in self.done:
            return "callout"
        if tag in ("h3", "h4") and "heading" not in self.done:
            return "heading"
        return None

    def handle_starttag(self, tag, attrs):
        if tag in ("br", "img", "input", "hr", "wbr", "meta", "link"):
            return
        self.stack.append((tag, self.kind(tag, attrs)))

    def handle_endtag(self, tag):
        while self.stack:
            open_tag, kind = self.stack.pop()
            if kind in ("stats", "callout", "heading"):
                self.done.add(kind)
                if kind == self.stop_at and self.text(kind).strip():
                    raise _Read
            if open_tag == tag:
                break

    def text(self, kind):
        return "".join(text for _, text in self.stats) if kind == "stats" else "".join(getattr(self, kind))

    def inside(self, kind):
        return any(k == kind for _, k in self.stack)

    def handle_data(self, data):
        if any(tag in ("svg", "title", "style", "script") for tag, _ in self.stack):
            return
        if self.inside("stats"):
            if self.inside("label"):
                self.stats.append(["label", data])
            elif self.inside("value"):
                self.stats.append(["value", data])
        elif self.inside("callout"):
            self.callout.append(data)
        elif self.inside("heading"):
            self.heading.append(data)


def _squash(text):
    return " ".join(text.split())


def _empty_svgs(text):
    """text with every outermost <svg> emptied: nothing inside one is read, and
    parsing a drawing's thousands of elements would cost more than the lab."""
    parts, depth, start = [], 0, 0
    for match in SVG_TAG.finditer(text):
        if match.group(0).endswith("/>"):  # <svg/>: nothing inside
            continue
        if not match.group(1):
            if depth == 0:
                parts.append(text[start : match.end()])
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                start = match.start()
    parts.append(text[start:] if depth == 0 else "")
    return "".join(parts)


def _parsed(text, stop_at="stats"):
    parser = _FirstParts(stop_at)
    try:
        parser.feed(text)
        parser.close()
    except _Read:
        pass
    return parser


def _line(parser):
    pairs, label = [], None
    for kind, text in parser.stats:
        if kind == "label":
            label = (label or "") + text
        else:
            pairs.append(f"{_squash(label or '')}: {_squash(text)}" if label else _squash(text))
            label = None
    for text in (", ".join(p for p in pairs if p), "".join(parser.callout), "".join(parser.heading)):
        text = _squash(text)
        if text:
            return text
    return ""


def first_class(text, name, pattern):
    """pattern.search(text) for a class attribute holding the class name, started at each place the name
    is written: the regex alone tries every class attribute of the view (0,2 ms in CPython on 60 kB)."""
    at = text.find(name)
    while at != -1:
        start = text.rfind('class="', 0, at)
        found = pattern.match(text, start) if start != -1 else None
        if found and found.end() > at:
            return found
        at = text.find(name, at + 1)
    return None


def read_off(html):
    """The first stats row, callout or heading of a view's HTML, as one line.

    What comes before the first stats row (or, with none, the first callout)
    cannot change the line, so parsing starts at it; only when it gives no
    text is the whole view parsed."""
    text = _empty_svgs(str(html))
    stats = first_class(text, "lab-stats", STATS)
    first = stats or first_class(text, "lab-callout", CALLOUT)
    if first:
        kind = "stats" if stats else "callout"
        parser = _parsed(text[text.rfind("<", 0, first.start()) :], kind)
        if parser.text(kind).strip():
            return _line(parser)
    return _line(_parsed(text))


def first_words(html):
    """The view's first paragraph or drawing title (what it shows), as plain text: the last resort."""
    found = re.search(r"<(title|p)\b[^>]*>(.*?)</\1>", str(html), re.S)
    return _squash(unescape(re.sub(r"<[^>]+>", "", found.group(2)))) if found else ""


def spoken_summary(module, state, html):
    """The lab's own summary(state) if it has one, else the line read off its view (or,
    with no stats, callout or heading, its first paragraph or drawing title); at most LIMIT characters."""
    own = getattr(module, "summary", None)
    text = _squash(str(own(state))) if callable(own) else read_off(html) or first_words(html)
    return text if len(text) <= LIMIT else text[: LIMIT - 1].rstrip() + "…"


__all__ = ["first_words", "read_off", "spoken_summary"]
