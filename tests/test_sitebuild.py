"""The build's stages alone (sitebuild/): each importable and checked without running the whole build."""

import re

import pytest

from sitebuild import theme, wheels
from sitebuild.secure import script_hashes, skip_to_lab


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
