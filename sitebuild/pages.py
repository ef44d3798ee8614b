"""Stage 3: the Markdown pages (home, one per lab, the authors' guide) through the Jinja templates,
with each lab's code highlighted by Pygments, and the assets they use."""

import html
import importlib.util
import json
import re
import shutil

import jinja2
import pygments
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

import labs
from labs import code, code_exercises
from labs.kit import prerendered
from labs.kit.experiments import prose_with_experiments
from labs.kit.italian import control_value
from labs.kit.stepping import StepMachine
from labs.registry import split_more
from labs.styles import lab_styles

from . import DOCS, PACKAGE, ROOT
from .contract import prerender

# browser libraries from npm (package-lock.json pins them), served by the site itself
VENDOR = {"morphdom/dist/morphdom-esm.js": "assets/labs/vendor/morphdom.js"}
LAB_STYLES = "assets/labs/lab-styles.css"  # every lab's own stylesheet, scoped (labs/styles.py); mkdocs.yml links it
GUIDE_PAGE = "scrivere-un-laboratorio.md"
PROGRESS_PAGE = "i-tuoi-esercizi.md"


def templates():
    """The Jinja environment of templates/, with the filters the pages use."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(ROOT / "templates"),
        autoescape=jinja2.select_autoescape(enabled_extensions=("html.j2",), default_for_string=False),
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    env.filters["it"] = control_value  # a slider's output, grouped as the runtime groups it (500.000)
    env.filters["tojson"] = lambda value: json.dumps(value, ensure_ascii=False)
    # raw HTML in the Markdown page must not hold blank lines: newlines become entities
    env.filters["oneline"] = lambda value: html.escape(value).replace("\n", "&#10;")
    # numbers as JavaScript's String() writes them, so the runtime can tell a default from a change
    env.filters["js"] = lambda value: str(int(value)) if isinstance(value, float) and value.is_integer() else str(value)
    return env


def guide_page(env):
    """The author's guide, «Scrivere un laboratorio», as Markdown, from templates/guide/ and the kit itself."""
    spec = importlib.util.spec_from_file_location("guide.guida", ROOT / "templates" / "guide" / "guida.py")
    guide = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(guide)
    return env.get_template("guide.md.j2").render(**guide.context())


def write_guide(env):
    """The author's guide into DOCS."""
    (DOCS / GUIDE_PAGE).write_text(guide_page(env), encoding="utf-8")


def code_panel(lab):
    """«Il codice Python»: the lab's functions highlighted now (Pygments), so
    the page ships no highlighter; the editor comes only with «Modifica»."""
    formatter = HtmlFormatter(cssclass="highlight")
    functions = [
        {
            "file": file,
            "name": name,
            "caption": caption,
            # a long function scrolls inside its box, which the keyboard can reach (tabindex)
            "html": pygments.highlight(source, PythonLexer(), formatter)
            .replace("<pre>", '<pre tabindex="0">', 1)
            .replace("\n", "&#10;"),
        }
        for file, name, caption, source in code.listing(lab.module)
    ]
    return {"functions": functions, "edits": suggested_edits(lab)}


def inline(text):
    """A short Italian text with `code` and **bold** marks as HTML, everything else escaped."""
    escaped = html.escape(text, quote=False)
    escaped = re.sub(r"`([^`]+)`", r"<code>\1</code>", escaped)
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", escaped)


def exercise_blocks(lab):
    """«Esercizio»: each exercise of the lab as its block needs it: the task and hints as HTML, the code the
    reader starts from (as text, and highlighted), how many cases «Verifica» runs."""
    formatter = HtmlFormatter(cssclass="highlight")
    blocks = []
    for exercise in getattr(lab.module, "EXERCISES", ()):
        starter = exercise.starter()
        blocks.append(
            {
                "name": exercise.name,
                "task": inline(exercise.task),
                "hints": [inline(hint) for hint in exercise.hints],
                "starter": starter,
                # a wide line scrolls inside the block: the keyboard can reach it (tabindex)
                "starter_html": pygments.highlight(starter, PythonLexer(), formatter)
                .replace("<pre>", '<pre tabindex="0">', 1)
                .replace("\n", "&#10;"),
                "cases": len(code_exercises.cases(exercise)),
            }
        )
    return blocks


def suggested_edits(lab):
    """«Prova a cambiare…»: each edit of the lab's EDITS as the panel's button needs it (the text to
    replace and its replacement, the line to go to, the controls to set as name=value;…)."""
    edits = []
    for edit in getattr(lab.module, "EDITS", ()):
        old, new = code.edit_change(lab.module, edit)
        _, line = code.apply_edit(lab.module, edit)
        params = ";".join(f"{k}={v}" for k, v in code.raw_params(edit.params).items())
        edits.append(
            {"title": edit.title, "expect": edit.expect, "old": old, "new": new, "line": line, "params": params}
        )
    return edits


def copy_assets():
    """templates/assets, every lab's scoped styles and the npm libraries."""
    shutil.copytree(ROOT / "templates" / "assets", DOCS / "assets")
    (DOCS / LAB_STYLES).write_text(lab_styles(labs.all_labs()), encoding="utf-8")
    for source, target in VENDOR.items():
        (DOCS / target).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / "node_modules" / source, DOCS / target)


def known_answers(lab):
    """The answers of the @known functions (labs.kit.prerendered) that the lab's defaults need, as its page
    carries them for the browser's first drawing ("" if its modules have none): recorded while the defaults are
    computed from nothing (a stepped lab replays from step 0: no checkpoint of an earlier drawing in between)."""
    if not any(
        name == lab.module.__name__ or name.startswith(f"{lab.module.__name__}.") for name in prerendered.MODULES
    ):
        return ""
    params = lab.parse({})
    compute = lab.module.compute
    draw = compute.replay if isinstance(compute, StepMachine) else compute
    return prerendered.answers_text(prerendered.recorded(lambda: draw(params)))


def lab_page(env, lab, download_bytes, answers=None, checkpoints=None):
    """A lab's page as Markdown: its prose with the «Prova» of its experiments (answers: {index: file} of
    those whose answer the build ships, sitebuild/answers.py), its prerendered view and controls, its code panel;
    checkpoints: the manifest of its default run's checkpoints (labs.answers.Checkpoints), for its data-checkpoints."""
    return env.get_template("lab.md.j2").render(
        checkpoints=json.dumps(checkpoints, separators=(",", ":")) if checkpoints else "",
        known=known_answers(lab),
        lab=lab,
        parts=split_more(prose_with_experiments(lab.prose, lab.id, lab.experiments, answers)),
        result=prerender(lab),
        code=code_panel(lab),
        exercises=exercise_blocks(lab),
        package=PACKAGE,
        download_bytes=download_bytes,
    )


def chapters_of(all_labs):
    """{chapter: [its labs]} in the labs' order."""
    chapters = {}
    for lab in all_labs:
        chapters.setdefault(lab.chapter, []).append(lab)
    return chapters


def index_page(env, all_labs):
    """The home page as Markdown: a card per lab, a section per chapter."""
    return env.get_template("index.md.j2").render(chapters=chapters_of(all_labs).items())


def progress_page(env, all_labs):
    """«I tuoi esercizi»: every exercise and every «Prevedi» of the site, with a link; the reader's progress,
    kept in their browser, is filled in by the runtime (page/progress-page.js)."""
    exercises = [(lab, exercise) for lab in all_labs for exercise in getattr(lab.module, "EXERCISES", ())]
    questions = [
        (lab, f"{lab.id}/{i}", e.predict) for lab in all_labs for i, e in enumerate(lab.experiments) if e.predict
    ]
    return env.get_template("progress.md.j2").render(exercises=exercises, questions=questions)


def navigation(all_labs):
    """The navigation mkdocs gets: the home, a section per chapter, the guide."""
    nav = [{"Tutti i laboratori": "index.md"}]
    for chapter, chapter_labs in chapters_of(all_labs).items():
        nav.append(
            {chapter.label: [{f"{lab.ref} {lab.title}": f"{lab.chapter.slug}/{lab.id}.md"} for lab in chapter_labs]}
        )
    nav.append({"I tuoi esercizi": PROGRESS_PAGE})
    nav.append({"Scrivere un laboratorio": GUIDE_PAGE})
    return nav


def lab_page_path(lab):
    """Where a lab's Markdown page goes, inside DOCS."""
    return f"{lab.chapter.slug}/{lab.id}.md"


def write_pages(env, download_bytes, answers=None, checkpoints=None):
    """Every page into DOCS (answers: {lab id: {experiment index: answer file}}, checkpoints: {lab id: manifest});
    the navigation mkdocs gets: the home, a section per chapter, the guide."""
    for lab in labs.all_labs():
        page = DOCS / lab_page_path(lab)
        page.parent.mkdir(parents=True, exist_ok=True)
        text = lab_page(env, lab, download_bytes[lab.id], (answers or {}).get(lab.id), (checkpoints or {}).get(lab.id))
        page.write_text(text, encoding="utf-8")
    (DOCS / "index.md").write_text(index_page(env, labs.all_labs()), encoding="utf-8")
    (DOCS / PROGRESS_PAGE).write_text(progress_page(env, labs.all_labs()), encoding="utf-8")
    write_guide(env)
    return navigation(labs.all_labs())
