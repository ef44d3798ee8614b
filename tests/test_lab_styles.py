"""Lab stylesheets are scoped to their lab by the build, a class a lab names is its own or the kit's,
and the global stylesheet keeps only the kit's rules."""

import re
import textwrap
from pathlib import Path

import pytest

import labs
from labs.kit.contract import ContractError
from labs.styles import class_prefix, classes, lab_styles, orphans, scope, scope_for, selectors, stylesheet

ROOT = Path(__file__).resolve().parent.parent

# A valid lab; the tests break one thing at a time. Line numbers below count from 1.

# --- stylesheets -----------------------------------------------------------------------------------------------------


def test_every_rule_of_every_lab_stylesheet_is_scoped_to_its_lab():
    sheets = [(lab, stylesheet(lab)) for lab in labs.all_labs() if stylesheet(lab)]
    assert {lab.id for lab, _ in sheets} >= {"transformer-miniatura", "bpe", "bigrammi"}
    assert orphans(ROOT / "labs", labs.all_labs()) == []
    for lab, path in sheets:
        written = selectors(path.read_text(encoding="utf-8"), path)
        served = selectors(scope(path.read_text(encoding="utf-8"), lab.id, path))
        assert len(written) == len(served) > 0
        for selector, _ in served:
            assert scope_for(lab.id) in selector, f"{lab.id}: «{selector}» non è dentro il laboratorio"
            assert not selector.startswith((".lab-", "[data-lab-")), selector


def test_every_class_a_lab_names_is_its_own_or_the_kits():
    """A lab's classes start with the prefix its id gives (class_prefix); any other lab- class it names, in its
    stylesheet or its module, is the kit's (styled in labs.css). No lab's prefix starts another's, nor a kit class."""
    kit_css = (ROOT / "templates" / "assets" / "labs" / "labs.css").read_text(encoding="utf-8")
    kit = {name for name in classes(kit_css) if name.startswith("lab-")}
    kit |= {
        name
        for path in (ROOT / "labs" / "kit").glob("*.py")
        for name in re.findall(r"\blab-[a-z0-9-]*[a-z0-9]", path.read_text(encoding="utf-8"))
    }
    ids = [lab.id for lab in labs.all_labs()]
    for lab in labs.all_labs():
        own = class_prefix(lab.id)
        assert not [other for other in ids if other != lab.id and class_prefix(other).startswith(own)], lab.id
        assert not [name for name in kit if name.startswith(own)], f"{lab.id}: una classe del kit ha il suo prefisso"
        path = stylesheet(lab)
        strays = {
            name
            for name in (classes(path.read_text(encoding="utf-8")) if path else [])
            if name.startswith("lab-") and not name.startswith(own) and name not in kit | {own[:-1]}
        }
        written = re.findall(r"\blab-[a-z0-9-]+", Path(lab.module.__file__).read_text(encoding="utf-8"))
        strays |= {
            name
            for name in written
            if not name.startswith(own)
            and name != own[:-1]
            and not any(k.startswith(name) or name.startswith(k) for k in kit)
        }
        assert not strays, f"{lab.id}: classi non sue né del kit: {sorted(strays)} (le sue cominciano con {own})"


def test_a_stylesheet_naming_another_labs_class_is_refused(tmp_path):
    """Two labs cannot share a class: the build refuses a stylesheet that names one of another lab's prefix."""

    class Lab:
        def __init__(self, lab_id, css):
            path = tmp_path / f"{lab_id.replace('-', '_')}.py"
            path.write_text("")
            path.with_suffix(".css").write_text(css)
            self.id, self.module = lab_id, type("M", (), {"__file__": str(path)})

    mine = Lab("testa-attention", ".lab-testa-attention-row { color: red; }\n")
    assert "lab-testa-attention-row" in lab_styles([mine, Lab("transformer-allenato", ".lab-mx-cell { gap: 0; }")])
    with pytest.raises(ContractError, match="comincia come quelle di «testa-attention»"):
        lab_styles([mine, Lab("transformer-allenato", ".a, .lab-testa-attention-row { gap: 0; }")])
    with pytest.raises(ContractError, match="comincia come quelle di «testa-attention»"):  # a prefix inside another
        lab_styles([mine, Lab("testa", ".lab-testa-attention-row { gap: 0; }")])


def test_scoping_keeps_what_lies_outside_the_lab_outside():
    css = textwrap.dedent("""\
        /* a comment { with braces } */
        .a, .b:is(.c, .d) > span { color: red; }
        .md-typeset ol.lista li { margin: 0; }
        [data-md-color-scheme="slate"] .a { color: white; }
        @media (min-width: 60em) { .a { display: grid; } }
        """)
    out = scope(css, "mio-lab", "labs/ch1/mio_lab.css")
    s = '[data-lab="mio-lab"]'
    assert f"{s} .a, {s} .b:is(.c, .d) > span {{ color: red; }}" in out
    assert f".md-typeset {s} ol.lista li {{ margin: 0; }}" in out
    assert f'[data-md-color-scheme="slate"] {s} .a {{ color: white; }}' in out
    assert f"@media (min-width: 60em) {{\n  {s} .a {{ display: grid; }}\n}}" in out
    assert "comment" not in out


@pytest.mark.parametrize(
    "css, line, says",
    [
        (".a { color: red; }\n\n@keyframes giro { from { opacity: 0; } }\n", 3, "@keyframes vale per tutto il sito"),
        ('@import "altro.css";\n', 1, "non è una regola"),
        (".a { color: red;\n.b { color: blue; }\n", 1, "manca la graffa chiusa"),
    ],
)
def test_a_stylesheet_the_build_cannot_scope_names_file_and_line(css, line, says):
    with pytest.raises(ContractError) as error:
        scope(css, "mio-lab", ROOT / "labs" / "ch1" / "mio_lab.css")
    assert str(error.value).startswith(f"labs/ch1/mio_lab.css, riga {line}:") and says in str(error.value)


def test_the_global_stylesheet_keeps_only_the_kits_rules():
    """Every class labs.css styles is drawn by the kit or the templates, or shared by several labs."""
    css = (ROOT / "templates" / "assets" / "labs" / "labs.css").read_text(encoding="utf-8")
    shared = [
        *(ROOT / "labs" / "kit").glob("*.py"),
        *(ROOT / "templates").rglob("*.j2"),
        *(ROOT / "templates" / "assets" / "labs").glob("*.js"),
        ROOT / "labs" / "__init__.py",
    ]
    shared_text = "".join(p.read_text(encoding="utf-8") for p in shared)
    modules = {lab.id: Path(lab.module.__file__).read_text(encoding="utf-8") for lab in labs.all_labs()}
    for name in sorted(set(re.findall(r"\.(lab-[\w-]+)", css))):
        stem = re.sub(r"-?\w+$", "", name) if re.search(r"\d$", name) else name  # lab-heat-p1 is written lab-heat-…
        if stem in shared_text:
            continue
        users = [lab_id for lab_id, text in modules.items() if stem in text]
        assert len(users) != 1, f"labs.css: .{name} serve solo a {users[0]}: va nel suo foglio di stile"
