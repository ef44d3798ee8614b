"""A lab's own styles: a stylesheet beside its module (labs/ch1/ombrello.css
beside labs/ch1/ombrello.py), scoped to that lab when the site is built.

The lab's own classes start with a prefix made of its id, class_prefix():
`lab-transformer-miniatura-` for transformer-miniatura, so two labs can
never name a class alike; a stylesheet that names a class of another lab's
prefix is refused when the site is built. Classes of the kit (`lab-mx-…`,
`lab-heat-…`) may be restyled inside a lab.

The author writes plain rules (`.lab-bpe-tok { … }`); scope() puts the lab's
root, [data-lab="<id>"], in front of every selector, so a rule can never
reach another lab or the page around it. Selectors that start outside the
lab keep that start and get the scope after it: `.md-typeset ol.x` becomes
`.md-typeset [data-lab="id"] ol.x`, `[data-md-color-scheme="slate"] .x`
becomes `[data-md-color-scheme="slate"] [data-lab="id"] .x`. @media,
@supports and @container blocks are scoped inside; other at-rules
(@import, @font-face, @keyframes, …) are global by nature and refused.

build.py joins the scoped sheets of every lab into one file that every page
links: with mkdocs-material's instant navigation a stylesheet in <head> is
loaded once and is ready when the reader moves to the next lab, and the
scope makes the shared file safe.
"""

import re
from pathlib import Path

from .kit.errors import ContractError
from .kit.errors import place

NESTING = ("media", "supports", "container")
# the start of a selector that lies outside the lab: the page, the theme's scheme, the Markdown body
OUTSIDE = re.compile(r'(?:(?::root|html|body|\.md-typeset|\[data-md-[\w-]+(?:="[^"]*")?\])\s+)+')


def stylesheet(lab):
    """The lab's own stylesheet (a Path), or None."""
    path = Path(lab.module.__file__).with_suffix(".css")
    return path if path.exists() else None


def scope_for(lab_id):
    return f'[data-lab="{lab_id}"]'


def class_prefix(lab_id):
    """The start of every class of the lab's own: «lab-», its id, «-». Lab ids are unique, so are these."""
    return f"lab-{lab_id}-"


def classes(css):
    """Every class a stylesheet names, in order of appearance, once each."""
    return list(dict.fromkeys(re.findall(r"\.(-?[_a-zA-Z][\w-]*)", blank_comments(css))))


def owner(name, lab_ids):
    """The lab whose prefix the class starts with (the longest such prefix), or None."""
    return max((i for i in lab_ids if name.startswith(class_prefix(i))), key=len, default=None)


def foreign_classes(css, lab_id, lab_ids):
    """The classes of the stylesheet that belong to another lab's prefix: [(class, that lab's id)]."""
    return [(name, other) for name in classes(css) if (other := owner(name, lab_ids)) not in (None, lab_id)]


def blank_comments(css):
    """css with its comments turned to spaces (newlines kept, so lines still count)."""
    return re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group()), css, flags=re.S)


def outside_brackets(text, start=0):
    """(index, character) of each character of text from start that stands outside strings, () and []."""
    quote, depth = None, 0
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif depth == 0:
            yield i, ch


def split_top(text, sep=","):
    """text split at sep, except inside (), [] and strings."""
    cuts = [i for i, ch in outside_brackets(text) if ch == sep]
    return [text[a + 1 : b] for a, b in zip([-1, *cuts], [*cuts, len(text)])]


def scope_selector(selector, lab_id):
    selector = " ".join(selector.split())
    scope = scope_for(lab_id)
    if scope in selector:
        return selector
    outside = OUTSIDE.match(selector + " ")
    head = outside.group().strip() if outside else ""
    rest = selector[len(head) :].strip()
    return " ".join(p for p in (head, scope, rest) if p)


class Reader:
    """Walks a stylesheet rule by rule, keeping track of lines for messages."""

    def __init__(self, css, filename):
        self.text = blank_comments(css)
        self.filename = filename

    def refuse(self, at, message):
        raise ContractError(f"{place(self.filename, self.text.count(chr(10), 0, at) + 1)}: {message}")

    def stop(self, i, chars):
        """The index of the first of chars at or after i, outside strings and brackets."""
        return next((j for j, ch in outside_brackets(self.text, i) if ch in chars), len(self.text))

    def block_end(self, opening):
        """Index of the } that closes the { at opening (a missing one is reported at the opening's line)."""
        depth, i = 0, opening
        while True:
            j = self.stop(i, "{}")
            if j >= len(self.text):
                self.refuse(opening, "manca la graffa chiusa «}» di questa regola")
            depth += 1 if self.text[j] == "{" else -1
            if depth == 0:
                return j
            i = j + 1

    def rules(self, i, end):
        """(prelude, start, body_start, body_end) for each rule between i and end."""
        while True:
            while i < end and self.text[i].isspace():
                i += 1
            if i >= end:
                return
            j = self.stop(i, "{};")
            if j >= end or self.text[j] != "{":
                self.refuse(i, f"«{self.text[i:j].strip()[:40]}» non è una regola (selettore {{ … }})")
            close = self.block_end(j)
            yield self.text[i:j].strip(), i, j + 1, close
            i = close + 1


def scope(css, lab_id, filename):
    """The stylesheet with every rule scoped to the lab (see the module's
    docstring); ContractError naming the file and line of a rule it cannot take."""
    reader = Reader(css, filename)
    out = []

    def walk(i, end, indent):
        for prelude, start, body, close in reader.rules(i, end):
            if prelude.startswith("@"):
                name = re.match(r"@([\w-]*)", prelude).group(1)
                if name not in NESTING:
                    reader.refuse(
                        start,
                        f"@{name} vale per tutto il sito: in un foglio di laboratorio "
                        "vanno solo regole, anche dentro @media, @supports o @container",
                    )
                out.append(f"{indent}{' '.join(prelude.split())} {{")
                walk(body, close, indent + "  ")
                out.append(f"{indent}}}")
            elif not prelude:
                reader.refuse(start, "una regola senza selettore")
            else:
                selectors = [scope_selector(s, lab_id) for s in split_top(prelude)]
                declarations = " ".join(reader.text[body:close].split())
                out.append(f"{indent}{', '.join(selectors)} {{ {declarations} }}")

    walk(0, len(reader.text), "")
    return "\n".join(out) + "\n"


def selectors(css, filename="?"):
    """Every selector of every style rule, with its line: [(selector, line)]."""
    reader = Reader(css, filename)
    found = []

    def walk(i, end):
        for prelude, start, body, close in reader.rules(i, end):
            if prelude.startswith("@"):
                walk(body, close)
            else:
                line = reader.text.count("\n", 0, start) + 1
                found.extend((" ".join(s.split()), line) for s in split_top(prelude))

    walk(0, len(reader.text))
    return found


def lab_styles(labs):
    """One stylesheet for the site: each lab's own, scoped, under a comment naming its file.
    ContractError if a stylesheet names a class of another lab's prefix (see class_prefix)."""
    parts, ids = [], [lab.id for lab in labs]
    for lab in labs:
        path = stylesheet(lab)
        if path:
            css = path.read_text(encoding="utf-8")
            for name, other in foreign_classes(css, lab.id, ids):
                raise ContractError(
                    f"{place(path)}: la classe .{name} comincia come quelle di «{other}»: "
                    f"le classi di questo laboratorio cominciano con {class_prefix(lab.id)}"
                )
            parts.append(f"/* {place(path)} */\n{scope(css, lab.id, path)}")
    return "\n".join(parts)


def orphans(labs_dir, labs):
    """Stylesheets in the chapter folders with no lab beside them: one Italian line each."""
    owned = {stylesheet(lab) for lab in labs}
    return [
        f"{place(path)}: foglio di stile senza laboratorio: si chiama come il modulo del laboratorio ({path.stem}.py)"
        for path in sorted(Path(labs_dir).glob("ch*/*.css"))
        if path not in owned
    ]


__all__ = ["class_prefix", "classes", "lab_styles", "orphans", "scope", "scope_for", "selectors", "stylesheet"]
