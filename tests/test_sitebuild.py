"""The build's stages alone (sitebuild/): each importable and checked without running the whole build."""

import re

import pytest

from sitebuild import theme, wheels
from sitebuild.secure import LISTING_PAGE, script_hashes, skip_to_lab, split_listing


def test_a_theme_upgrade_that_changes_a_block_stops_the_build_with_an_italian_line():
    base = (theme.THEME / "base.html").read_text(encoding="utf-8")
    assert re.fullmatch(r"assets/javascripts/bundle\.[0-9a-f]+\.min\.js", theme.theme_script(base))
    changed = base.replace("{% block scripts %}\n      <script src=", "{% block scripts %}\n      <script defer src=")
    with pytest.raises(SystemExit, match="il tema ha cambiato il blocco «scripts» di base.html"):
        theme.theme_script(changed)
    with pytest.raises(SystemExit, match="il tema ha cambiato il blocco «site_meta»"):
        theme.theme_script(base.replace('<meta charset="utf-8">', "<meta charset=utf-8>"))


def test_an_overridden_partial_must_be_the_themes_own_plus_our_name(tmp_path):
    theme.check_partials()  # the installed theme: as our overrides expect
    (tmp_path / "partials").mkdir()
    for name in theme.NAMED:
        text = (theme.THEME / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text.replace('role="', 'data-new role="', 1), encoding="utf-8")
    with pytest.raises(SystemExit, match="il tema ha cambiato partials/"):
        theme.check_partials(theme=tmp_path)


def test_a_dependency_cycle_between_wheels_is_named():
    assert wheels.dependency_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert wheels.dependency_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_the_csp_hashes_every_inline_script_but_json_and_the_skip_link_goes_to_lab_pages_only():
    pages = {"a": '<script>one()</script><script type="application/json">{}</script>', "b": "<script>one()</script>"}
    assert len(script_hashes(pages)) == 1
    skip = '<div data-md-component="skip">'
    assert "Vai al laboratorio" in skip_to_lab(f'{skip}<h2 id="laboratorio">', "x")
    assert skip_to_lab(f"{skip}<h2>", "x") == f"{skip}<h2>"


def test_a_lab_s_listing_goes_to_a_page_of_its_own_and_a_theme_change_that_hides_it_stops_the_build():
    head = (
        '<head><meta charset="utf-8"><title>1.1 Ombrello - Laboratori LLM</title><link rel="stylesheet" href="a.css">'
    )
    fn = '<section data-lab-code-file="core/x.py"><div class="highlight"><pre>a = 1&#10;</pre></div></section>'
    page = f'{head}</head><h2 id="laboratorio"></h2><div class="lab-code-listing" data-lab-code-listing>{fn}</div>\n</details><p>'
    lab, listing = split_listing(page, "x")
    assert fn not in lab and lab.endswith(
        f'<a href="{LISTING_PAGE}">Il codice, in una pagina a parte</a></p></div>\n</details><p>'
    )
    assert fn in listing and '<link rel="stylesheet" href="a.css">' in listing and "· 1.1 Ombrello</h1>" in listing
    assert split_listing("<p>no lab</p>", "x") == ("<p>no lab</p>", None)
    with pytest.raises(SystemExit, match="non trovo l'elenco del codice"):
        split_listing(page.replace("</div>\n</details>", "</div></details>"), "x")


def test_slim_blanks_docstrings_and_comments_and_keeps_every_statement_on_its_line():
    from sitebuild.slim import slim

    source = (
        '"""The module."""\n'
        "import math  # a comment\n"
        "\n"
        "\n"
        "def f(x):\n"
        '    """Twice x,\n'
        '    on two lines."""\n'
        '    return 2 * x  # "#" in a comment\n'
        "\n"
        "\n"
        "def g():\n"
        '    """Only a docstring: it stays, or the body would be empty."""\n'
        "\n"
        "\n"
        "class A:\n"
        '    """A class."""\n'
        '    sign = "#"  # the hash inside the string stays\n'
    )
    assert slim(source) == (
        "\n"
        "import math\n"
        "\n"
        "\n"
        "def f(x):\n"
        "\n"
        "\n"
        "    return 2 * x\n"
        "\n"
        "\n"
        "def g():\n"
        '    """Only a docstring: it stays, or the body would be empty."""\n'
        "\n"
        "\n"
        "class A:\n"
        "\n"
        '    sign = "#"\n'
    )


def test_the_slimmed_kit_is_the_kit_statement_for_statement_and_line_for_line():
    import ast
    import io
    import tokenize

    from sitebuild.slim import slim

    def without_docstrings(text):
        tree = ast.parse(text)
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)):
                first = body[0]
                if isinstance(first, ast.Expr) and isinstance(getattr(first.value, "value", None), str):
                    if isinstance(node, ast.Module) or len(body) > 1:
                        node.body = body[1:]
        return ast.dump(tree, include_attributes=True)

    version, groups, parents, requires = wheels.plan_wheels()
    base = groups[wheels.PACKAGE]
    assert len(base) > 20
    for name, path in base.items():
        source = path.read_text(encoding="utf-8")
        slimmed = slim(source)
        tokens = tokenize.generate_tokens(io.StringIO(slimmed).readline)
        assert not [t for t in tokens if t.type == tokenize.COMMENT], name
        assert without_docstrings(slimmed) == without_docstrings(source), name
