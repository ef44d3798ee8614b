"""Stage 4: formulas in a lab's prose, $…$ inline and $$…$$ on their own (\\$ is a dollar sign).

KaTeX renders them here, once, by node (scripts/katex.mjs): the page gets HTML and CSS, no KaTeX JavaScript.
"""

import json
import re
import shutil
import subprocess

from labs.kit.errors import place

from . import DOCS, ROOT, fail

DISPLAY_MATH = re.compile(r"\$\$(.+?)\$\$", re.S)
INLINE_MATH = re.compile(r"(?<![\\$])\$(?=\S)([^$]+?)(?<=[^\s\\])\$(?![$\d])")
KATEX = "assets/katex"


def formulas_of(prose):
    """[(tex, display)] of a prose: the displayed formulas first, then the inline ones."""
    display = [(m.group(1).strip(), True) for m in DISPLAY_MATH.finditer(prose)]
    inline = [(m.group(1), False) for m in INLINE_MATH.finditer(DISPLAY_MATH.sub("", prose))]
    return display + inline


def render_formulas(all_labs):
    """({(tex, display): html}, css) for every formula in every lab's prose, from scripts/katex.mjs."""
    owners = {}
    for lab in all_labs:
        for formula in formulas_of(lab.prose):
            owners.setdefault(formula, lab)
    formulas = list(owners)
    if not formulas:
        return {}, ""
    result = subprocess.run(
        ["node", str(ROOT / "scripts" / "katex.mjs")],
        capture_output=True,
        text=True,
        input=json.dumps([{"tex": tex, "display": display} for tex, display in formulas]),
    )
    if result.returncode != 0:
        found = re.match(r"formula (\d+): (.*)", result.stderr, re.S)
        if not found:
            fail(f"scripts/katex.mjs non è riuscito:\n{result.stderr}")
        (tex, _), lab = formulas[int(found.group(1))], owners[formulas[int(found.group(1))]]
        fail(f"{place(lab.module.__file__)}: KaTeX non capisce la formula «{tex}»: {found.group(2).strip()}")
    rendered = json.loads(result.stdout)
    return dict(zip(formulas, rendered["html"])), rendered["css"]


def tex_filter(rendered):
    """The Jinja filter that puts the rendered formulas in a prose (raw HTML that Markdown leaves alone)."""

    def tex(prose):
        prose = DISPLAY_MATH.sub(
            lambda m: f'\n\n<div class="lab-math">{rendered[(m.group(1).strip(), True)]}</div>\n\n', prose
        )
        return INLINE_MATH.sub(lambda m: rendered[(m.group(1), False)], prose).replace(r"\$", "$")

    return tex


def write_katex(css):
    """KaTeX's stylesheet and fonts (woff2, which every browser the site supports reads), served by the site."""
    source = ROOT / "node_modules" / "katex" / "dist"
    target = DOCS / KATEX
    (target / "fonts").mkdir(parents=True)
    for font in (source / "fonts").glob("*.woff2"):
        shutil.copy2(font, target / "fonts" / font.name)
    stylesheet = (source / "katex.min.css").read_text(encoding="utf-8")
    stylesheet = re.sub(r',url\(fonts/[^)]+\.(?:woff|ttf)\) format\("(?:woff|truetype)"\)', "", stylesheet)
    (target / "katex.css").write_text(stylesheet, encoding="utf-8")
    (target / "formulas.css").write_text(css, encoding="utf-8")  # KaTeX's inline styles, as classes
