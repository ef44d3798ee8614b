"""Stage 6: mkdocs with mkdocs-material, changed the theme's way (templates/overrides/: main.html extends
the theme's blocks, partials/ override two partials), and the theme's search index without the labs' drawings.

The theme's templates are checked first: a theme upgrade that changes a block or a partial we build on
stops the build with one Italian line, instead of a site that silently lost its boot script or its names.
"""

import json
import re
from pathlib import Path

import material
from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config

import labs
from labs import code

from . import DOCS, ROOT, SITE, fail

THEME = Path(material.__file__).parent / "templates"
OVERRIDES = ROOT / "templates" / "overrides"
# the blocks of the theme's base.html that main.html extends, as they begin
BLOCKS = {
    "site_meta": '{% block site_meta %}\n      <meta charset="utf-8">',
    "scripts": "{% block scripts %}\n      <script src=\"{{ '",
}
THEME_SCRIPT = re.compile(
    r"\{% block scripts %\}\s*<script src=\"\{\{ '(assets/javascripts/bundle\.[0-9a-f]+\.min\.js)'"
    r" \| url \}\}\"></script>\s*\{% for script in config\.extra_javascript %\}\s*"
    r"\{\{ script \| script_tag \}\}\s*\{% endfor %\}\s*\{% endblock %\}"
)
# each partial we override: the theme's own with one attribute more
NAMED = {
    "partials/progress.html": ' aria-label="Caricamento della pagina" aria-hidden="true"',
    "partials/search.html": ' aria-label="Cerca nel sito"',
}
COMMENT = re.compile(r"^\{#-.*?-#\}\n", re.S)


def theme_script(base):
    """The theme's script as base.html's block «scripts» names it, or the build stops: main.html
    replaces that block on a lab page and must know what it holds."""
    for name, start in BLOCKS.items():
        if start not in base:
            fail(
                f"il tema ha cambiato il blocco «{name}» di base.html: aggiorna templates/overrides/main.html "
                "e sitebuild/theme.py"
            )
    found = THEME_SCRIPT.search(base)
    if not found:
        fail(
            "il tema ha cambiato il blocco «scripts» di base.html: aggiorna templates/overrides/main.html "
            "e sitebuild/theme.py"
        )
    return found.group(1)


def check_partials(theme=THEME, overrides=OVERRIDES):
    """Each overridden partial is the theme's own with our attribute added, or the build stops."""
    for name, added in NAMED.items():
        ours = COMMENT.sub("", (overrides / name).read_text(encoding="utf-8"))
        theirs = COMMENT.sub("", (theme / name).read_text(encoding="utf-8"))
        if added not in ours or ours.replace(added, "", 1) != theirs:
            fail(f"il tema ha cambiato {name}: aggiorna templates/overrides/{name} (il suo, con{added})")


def mkdocs_config(nav, boot):
    """mkdocs' configuration (strict, from DOCS into SITE) with the theme checked; a lab page's <head>
    gets the boot script's code."""
    script = theme_script((THEME / "base.html").read_text(encoding="utf-8"))
    check_partials()
    return load_config(
        str(ROOT / "mkdocs.yml"),
        docs_dir=str(DOCS),
        site_dir=str(SITE),
        nav=nav,
        strict=True,
        extra={"lab_boot": boot, "theme_script": script},
    )


def run_mkdocs(nav, boot):
    """mkdocs (strict) from DOCS into SITE; a lab page's <head> gets the boot script's code."""
    mkdocs_build(mkdocs_config(nav, boot))


def lab_search_text(lab):
    """What the search index keeps of a lab's section: the functions it runs, with what each computes."""
    return " ".join(f"{name} ({file}): {caption}" for file, name, caption, _ in code.listing(lab.module))


def search_index(site=SITE):
    """The theme's search index without the labs' drawings. A lab's section («Il laboratorio»)
    reaches the index as the text of its controls, its prerendered view and its code: numbers and
    options, four fifths of the index, which no reader searches for and which the theme's search
    worker downloads and indexes in the reader's browser while Python starts on a lab page. The
    section keeps what it is about: the functions the lab runs, with what each computes."""
    path = site / "search" / "search_index.json"
    index = json.loads(path.read_text(encoding="utf-8"))
    by_place = {f"{lab.path}#laboratorio": lab for lab in labs.all_labs()}
    for doc in index["docs"]:
        lab = by_place.get(doc["location"])
        if lab:
            doc["text"] = lab_search_text(lab)
    missing = set(by_place) - {doc["location"] for doc in index["docs"]}
    if missing:
        fail(f"l'indice della ricerca non ha la sezione del laboratorio di {', '.join(sorted(missing))}")
    path.write_text(json.dumps(index, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
