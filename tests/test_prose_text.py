"""Prose is text: what a lab's prose writes between «…» is on the page, never swallowed as an HTML tag.

Every lab's page prose (with its «Prova» boxes) is rendered by Markdown with the site's extensions (mkdocs.yml),
as mkdocs renders it; every «…» quote of its text must still hold something (4.3 wrote «<fine>», which became
a tag and left «» on the page).
"""

import html
import re

import markdown
import pytest

import labs
from labs.kit.experiments import prose_text

EXTENSIONS = ["attr_list", "admonition", "md_in_html", "toc"]
ALL = labs.all_labs()


def shown_text(prose):
    """The words a reader sees of a Markdown prose: rendered, tags dropped, entities read."""
    rendered = markdown.markdown(prose, extensions=EXTENSIONS)
    return html.unescape(re.sub(r"<[^>]+>", "", rendered))


def empty_quotes(prose):
    text = shown_text(prose)
    return [text[max(0, m.start() - 40) : m.end() + 20] for m in re.finditer(r"«\s*»", text)]


@pytest.mark.parametrize("lab", ALL, ids=lambda lab: lab.id)
def test_every_quote_of_the_prose_shows_something(lab):
    empty = empty_quotes(lab.page_prose)
    assert not empty, f"{lab.id}: nella pagina resta «» vuoto: …{empty[0]}…"


def test_a_token_in_angle_brackets_is_shown_as_written():
    prose = "Muovi «Parigi» e «<fine>», poi `<b>` e $a<b$; <sub>2</sub> resta un pedice, </div> è testo."
    assert empty_quotes(prose) == [empty_quotes(prose)[0]]  # raw, the token is swallowed
    text = shown_text(prose_text(prose))
    assert "«<fine>»" in text and "</div> è testo" in text and "`" not in text and "<b>" in text
    assert "$a<b$" in prose_text(prose) and "<sub>2</sub>" in prose_text(prose)
