"""make dev: the incremental rebuild writes what build.py writes, keeps the last good page when a lab breaks,
and tells the open pages over Server-Sent Events; nothing of it reaches the built site."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
COPIED = ("core", "labs", "templates", "sitebuild", "scripts", "build.py", "mkdocs.yml", "pyproject.toml")
LAB = "labs/ch9/softmax_temperatura.py"
PAGE = "capitolo-9/softmax-temperatura/index.html"

# run inside the copy: the last build's state, then a lab broken twice, then a real change
DRIVER = textwrap.dedent(
    """
    import json, sys
    from pathlib import Path
    from sitebuild.dev import DevBuild, Failed

    lab, page = Path(sys.argv[1]), Path(sys.argv[2])
    good, shown = lab.read_text(encoding="utf-8"), page.read_bytes()
    build = DevBuild()
    build.warm()
    report = {}
    line = "    t, extra = params[\\"temperatura\\"], params[\\"aggiunta\\"]\\n"
    for name, text in (("crash", good.replace(line, line + "    1 / 0\\n")), ("syntax", good.replace(line, line + "    (\\n"))):
        lab.write_text(text, encoding="utf-8")
        try:
            report[name] = build.rebuild([sys.argv[1]])
        except Failed as error:
            report[name] = str(error)
        report[name + "_kept"] = page.read_bytes() == shown
    lab.write_text(good.replace("Qui i candidati sono sei.", "Qui i candidati, in prova, sono sei.")
                   .replace("    t, extra = ", "    unused = 0\\n    t, extra = "), encoding="utf-8")
    report["change"] = build.rebuild([sys.argv[1]])
    build.finish()
    print(json.dumps(report))
    """
)


def clean_env(**more):
    return {k: v for k, v in os.environ.items() if not k.startswith(("LABS_", "PYTEST_", "SITE_URL"))} | more


def same_as_build_py(target):
    """build.py run on the copy's sources into a site of its own (with make build's answers, copied: not
    computed again): the copy's site/, as make dev left it, holds the same files with the same bytes; those files."""
    full = subprocess.run(
        [sys.executable, "build.py"],
        cwd=target,
        env=clean_env(
            LABS_SITE_DIR=str(target / "full-site"),
            LABS_BUILD_DIR=str(target / "full-build"),
            LABS_ANSWERS_DIR=str(target / "build" / "answers"),
        ),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert full.returncode == 0, full.stderr[-3000:]
    dev, built = files_of(target / "site"), files_of(target / "full-site")
    assert sorted(dev) == sorted(built)
    assert [name for name in built if dev[name] != built[name]] == []
    return built


def files_of(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def copy(tmp_path_factory, site_dir):
    """The sources and the last full build (site/ and build/, as make build left them) in a temporary folder."""
    return copied(tmp_path_factory, site_dir)


def copied(tmp_path_factory, site_dir, more=()):
    """The sources and the last full build in a new temporary folder (more: other folders, as tests/)."""
    from sitebuild import WORK

    target = tmp_path_factory.mktemp("dev") / "repo"
    target.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    for name in (*COPIED, *more):
        source = ROOT / name
        (
            shutil.copytree(source, target / name, ignore=skip)
            if source.is_dir()
            else shutil.copy2(source, target / name)
        )
    (target / "node_modules").symlink_to(ROOT / "node_modules")
    shutil.copytree(site_dir, target / "site")
    shutil.copytree(WORK, target / "build")
    return target


def test_a_dev_rebuild_writes_what_build_py_writes_and_a_broken_lab_keeps_the_last_good_page(copy):
    ran = subprocess.run(
        [sys.executable, "-c", DRIVER, LAB, f"site/{PAGE}"],
        cwd=copy,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    report = json.loads(ran.stdout.strip().splitlines()[-1])
    # an exception in compute: the contract's Italian line, with the file and the line that raised
    assert re.fullmatch(
        r"labs/ch9/softmax_temperatura\.py, riga \d+: il laboratorio «softmax-temperatura» si è interrotto: "
        r"ZeroDivisionError.*",
        report["crash"],
    ), report["crash"]
    assert re.fullmatch(r"labs/ch9/softmax_temperatura\.py, riga \d+: errore di sintassi .*", report["syntax"])
    assert report["crash_kept"] and report["syntax_kept"]
    assert report["change"].startswith("ricostruito capitolo-9/softmax-temperatura in ")

    built = same_as_build_py(copy)
    assert "in prova" in built[PAGE].decode()


@pytest.fixture
def dev_server(site_dir):
    """The dev server's HTTP side over the built site (no rebuilds: the test publishes the news itself)."""
    from serve import DevHub, make_server, serve_in_background

    hub = DevHub()
    server = make_server(site_dir, hub=hub)
    yield hub, serve_in_background(server)
    server.shutdown()


def read_event(stream):
    """(name, data) of the next Server-Sent Event, comments skipped."""
    name, data = None, None
    while True:
        line = stream.readline().decode().rstrip("\n")
        if line.startswith("event: "):
            name = line[7:]
        elif line.startswith("data: "):
            data = json.loads(line[6:])
        elif not line and name:
            return name, data


def test_the_events_say_hello_then_reload_after_a_good_rebuild_and_the_line_of_a_failed_one(dev_server):
    hub, url = dev_server
    with urllib.request.urlopen(f"{url}__labs_dev__/events", timeout=20) as stream:
        assert stream.headers["Content-Type"] == "text/event-stream"
        name, hello = read_event(stream)
        assert name == "hello" and hello["failed"] is None
        hub.publish()
        name, data = read_event(stream)
        assert name == "reload" and data["build"] != hello["build"]
        hub.publish("labs/ch9/x.py, riga 3: errore di sintassi")
        assert read_event(stream) == ("failed", {"line": "labs/ch9/x.py, riga 3: errore di sintassi"})
    page = urllib.request.urlopen(f"{url}{PAGE.removesuffix('index.html')}").read().decode()
    assert page.count(f'<script src="/__labs_dev__/client.js" data-build="{hub.hello()["build"]}" defer>') == 1
    assert "no-store" in urllib.request.urlopen(url).headers["Cache-Control"]
    worker = urllib.request.urlopen(f"{url}sw.js").read().decode()
    assert "caches.delete" in worker and "FILES" not in worker  # the dev sw.js keeps nothing


def test_nothing_of_make_dev_is_in_the_built_site(site_dir):
    found = [
        path.relative_to(site_dir).as_posix()
        for path in site_dir.rglob("*")
        if path.is_file() and any(word in path.read_bytes() for word in (b"__labs_dev__", b"labs-dev-error"))
    ]
    assert found == []


@pytest.mark.browser
def test_an_open_lab_page_reloads_keeping_its_url_and_shows_a_failed_rebuild_over_it(dev_server, page):
    hub, url = dev_server
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    address = f"{url}{PAGE.removesuffix('index.html')}?temperatura=2"
    page.goto(address)
    page.wait_for_function("() => document.querySelector('script[src$=\"/__labs_dev__/client.js\"]')")
    page.evaluate("() => { window.devMarker = 1; }")
    page.wait_for_timeout(300)  # the event stream is open
    hub.publish()
    page.wait_for_function("() => window.devMarker === undefined && document.readyState !== 'loading'")
    assert page.url == address
    hub.publish("labs/ch9/softmax_temperatura.py, riga 7: <b>errore</b> di sintassi")
    overlay = page.locator("#labs-dev-error")
    overlay.wait_for()
    assert "labs/ch9/softmax_temperatura.py, riga 7: <b>errore</b> di sintassi" in overlay.inner_text()
    assert overlay.locator("b").count() == 0  # the line is text, never markup
    hub.publish()
    page.wait_for_function("() => !document.getElementById('labs-dev-error')")
    assert not [p for p in problems if "Content Security Policy" in p or "__labs_dev__" in p]


def test_tool_caches_and_editor_files_are_never_a_change(tmp_path, monkeypatch):
    """ruff's and pytest's caches, bytecode, and what vim and emacs write beside a file while it is edited are
    not sources: writing them changes nothing make dev watches; a lab written beside them does."""
    from sitebuild import dev_graph

    monkeypatch.setattr(dev_graph, "ROOT", tmp_path)
    chapter = tmp_path / "labs" / "ch2"
    chapter.mkdir(parents=True)
    (chapter / "loss.py").write_text("x = 1\n")
    before = dev_graph.sources()
    assert list(before) == ["labs/ch2/loss.py"]
    tools = [
        "labs/.ruff_cache/0.9.0/123456",
        ".ruff_cache/CACHEDIR.TAG",
        "labs/ch2/.pytest_cache/v/cache/nodeids",
        "labs/ch2/__pycache__/loss.cpython-312.pyc",
        "core/__pycache__/neuron.cpython-314.pyc",
        "labs/ch2/.loss.py.swp",
        "labs/ch2/.loss.py.swx",
        "labs/ch2/loss.py.swp",
        "labs/ch2/loss.py~",
        "labs/ch2/4913",
        "labs/ch2/#loss.py#",
        "labs/ch2/.#loss.py",
        "templates/.DS_Store",
    ]
    for name in tools:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("cache")
        assert dev_graph.is_tool_file(name), name
    assert dev_graph.changed_files(before, dev_graph.sources()) == []
    (chapter / "nuovo.py").write_text("x = 2\n")
    (tmp_path / "core").joinpath("nuovo.py").write_text("x = 3\n")
    assert dev_graph.changed_files(before, dev_graph.sources()) == ["core/nuovo.py", "labs/ch2/nuovo.py"]


# run inside a copy: make dev's first build, with a lab written while build.py runs (after it has read the
# labs), then what the watcher does next: the files changed since the sources the build read, rebuilt
DURING = textwrap.dedent(
    """
    import json, subprocess
    from pathlib import Path
    from labs.scaffold import TEMPLATE
    from sitebuild.dev import DevBuild
    from sitebuild.dev_graph import changed_files, sources

    new = Path("labs/ch2/creato_durante.py")
    real_run = subprocess.run

    def build_py_while_the_author_saves(*args, **kwargs):
        done = real_run(*args, **kwargs)
        new.write_text(TEMPLATE.format(title='"Creato durante la build"', ref='"2.4.1"', lab_id="creato-durante"))
        return done

    subprocess.run = build_py_while_the_author_saves
    build = DevBuild()
    first = build.full()
    subprocess.run = real_run
    changed = changed_files(build.files, sources())
    then = build.rebuild(changed)
    build.finish()
    print(json.dumps({"first": first, "changed": changed, "then": then}))
    """
)


def test_a_lab_created_during_the_first_build_is_built_after_it(tmp_path_factory, site_dir):
    target = copied(tmp_path_factory, site_dir)
    ran = subprocess.run(
        [sys.executable, "-c", DURING],
        cwd=target,
        env=clean_env(LABS_ANSWERS_DIR=str(target / "build" / "answers")),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    report = json.loads(ran.stdout.strip().splitlines()[-1])
    assert report["changed"] == ["labs/ch2/creato_durante.py"], report
    page = target / "site" / "capitolo-2" / "creato-durante" / "index.html"
    assert page.exists(), report
    home = (target / "site" / "index.html").read_text(encoding="utf-8")
    assert home.index('data-lab-card="learning-rate"') < home.index('data-lab-card="creato-durante"')
    assert "2.4.1 Creato durante la build" in (target / "site" / "capitolo-2" / "loss" / "index.html").read_text(
        encoding="utf-8"
    )  # every page's navigation lists it


# run inside a copy: make dev without its first build (the copied one is the last good build), its watcher on
SERVE_DEV = textwrap.dedent(
    """
    import sys
    sys.path.insert(0, "scripts")
    from serve import DevHub, make_server, serve_in_background, watch
    from sitebuild import SITE
    from sitebuild.dev import DevBuild

    build = DevBuild()
    build.warm()
    hub = DevHub()
    server = make_server(SITE, port=0, hub=hub)
    print(serve_in_background(server), flush=True)
    watch(build, hub, server)
    """
)


@pytest.mark.browser
def test_a_class_without_its_caption_is_in_the_page_banner_when_the_lab_is_saved(tmp_path_factory, site_dir, page):
    """The code panel's caption rule holds for classes too, at save time: the banner over the open page names the
    file and the line of the class, as the terminal does."""
    target = copied(tmp_path_factory, site_dir)
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE_DEV], cwd=target, env=clean_env(), stdout=subprocess.PIPE, text=True
    )
    try:
        url = server.stdout.readline().strip()
        assert url.startswith("http://"), url
        page.goto(f"{url}capitolo-2/learning-rate/")
        page.wait_for_function("() => document.querySelector('script[src$=\"/__labs_dev__/client.js\"]')")
        page.wait_for_timeout(300)  # the event stream is open
        lab = target / "labs" / "ch2" / "learning_rate.py"
        source = lab.read_text(encoding="utf-8")
        source = source.replace(
            "def compute(params):\n",
            "from dataclasses import dataclass  # noqa: E402\n\n\n@dataclass(frozen=True)\nclass Discesa:\n"
            "    weights: list\n\n\ndef compute(params):\n",
        ).replace('    eta, w0, n = params["eta"]', '    Discesa(weights=[])\n    eta, w0, n = params["eta"]')
        lab.write_text(source, encoding="utf-8")
        line = next(i for i, text in enumerate(source.splitlines(), 1) if text.startswith("class Discesa"))
        overlay = page.locator("#labs-dev-error")
        overlay.wait_for(timeout=60_000)
        assert f"labs/ch2/learning_rate.py, riga {line}: la classe Discesa non ha una docstring" in overlay.inner_text()
    finally:
        server.terminate()
        server.wait(timeout=30)


# run inside a copy: a new module of core/ saved alone, then the lab that starts using it
NEW_CORE = textwrap.dedent(
    """
    import json, time
    from pathlib import Path
    from sitebuild.dev import DevBuild

    build = DevBuild()
    build.warm()
    report = {}
    Path("core/prova_nuova.py").write_text(
        '\"\"\"Un modulo di prova.\"\"\"\\n\\n\\ndef doppio_di(x):\\n    \"\"\"Il doppio di x, per la prova.\"\"\"\\n'
        '    return 2 * x\\n', encoding="utf-8")
    started = time.perf_counter()
    report["core"] = build.rebuild(["core/prova_nuova.py"])
    report["core_seconds"] = time.perf_counter() - started
    build.finish()
    lab = Path("labs/ch9/softmax_temperatura.py")
    line = "    t, extra = params[\\"temperatura\\"], params[\\"aggiunta\\"]\\n"
    lab.write_text(lab.read_text(encoding="utf-8").replace(
        "from core.softmax import entropy\\n", "from core.prova_nuova import doppio_di\\nfrom core.softmax import entropy\\n"
    ).replace(line, line + "    extra = doppio_di(extra) / 2\\n"), encoding="utf-8")
    report["lab"] = build.rebuild([str(lab)])
    build.finish()
    print(json.dumps(report))
    """
)


def test_a_new_core_module_is_one_wheel_more_and_no_full_rebuild(tmp_path_factory, site_dir):
    """A new core/ module rebuilds no page (a wheel and the lockfile, written as build.py writes them); the lab
    that then imports it rebuilds its own page; the site is the same bytes as build.py's from these sources."""
    target = copied(tmp_path_factory, site_dir)
    ran = subprocess.run(
        [sys.executable, "-c", NEW_CORE], cwd=target, env=clean_env(), capture_output=True, text=True, timeout=900
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    report = json.loads(ran.stdout.strip().splitlines()[-1])
    assert report["core"].startswith("ricostruito nulla"), report
    assert report["lab"].startswith("ricostruito capitolo-9/softmax-temperatura in "), report
    print(f"\nun modulo nuovo di core/: {report['core_seconds']:.2f} s")
    built = same_as_build_py(target)
    assert any(name.startswith("pyodide/laboratori_llm_core_prova_nuova-") for name in built)


# run inside a copy: a lab written as `labs new --dopo learning-rate … --passi` writes it, then a lab removed
NEW_LAB = textwrap.dedent(
    """
    import json, subprocess, sys, time
    from pathlib import Path
    from sitebuild.dev import DevBuild

    build = DevBuild()
    build.warm()
    report = {}
    Path("tests/labs").mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "labs", "new", "--dopo", "learning-rate", "neurone-passo",
                    "Un neurone, passo dopo passo", "--passi"], check=True, capture_output=True)
    started = time.perf_counter()
    report["added"] = build.rebuild(["labs/ch2/neurone_passo.py"])
    report["added_seconds"] = time.perf_counter() - started
    build.finish()
    Path("labs/ch2/backprop_due_pesi.py").unlink()
    started = time.perf_counter()
    report["removed"] = build.rebuild(["labs/ch2/backprop_due_pesi.py"])
    report["removed_seconds"] = time.perf_counter() - started
    build.finish()
    print(json.dumps(report))
    """
)


def test_a_lab_added_or_removed_rebuilds_its_page_and_every_navigation_not_the_site(tmp_path_factory, site_dir):
    """A new lab (as `labs new --passi` writes it) is its page, its wheel in the lockfile, its answers, and every
    page's navigation rendered again from the Markdown already read; a lab removed takes its page, its wheel and
    its answers away: no full build, and the site is the same bytes as build.py's from these sources."""
    target = copied(tmp_path_factory, site_dir)
    ran = subprocess.run(
        [sys.executable, "-c", NEW_LAB],
        cwd=target,
        env=clean_env(LABS_ANSWERS_DIR=str(target / "build" / "answers")),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert ran.returncode == 0, ran.stderr[-3000:]
    report = json.loads(ran.stdout.strip().splitlines()[-1])
    assert "ricostruisco tutto" not in ran.stdout, ran.stdout
    assert report["added"].startswith("ricostruito capitolo-2/neurone-passo, index, la navigazione di ogni pagina"), (
        report
    )
    assert report["removed"].startswith("ricostruito index, capitolo-2/backprop-due-pesi, la navigazione"), report
    print(f"\nun laboratorio nuovo: {report['added_seconds']:.2f} s, uno tolto: {report['removed_seconds']:.2f} s")
    built = same_as_build_py(target)
    assert "capitolo-2/neurone-passo/prova-1.json" in built
    assert not any(name.startswith("capitolo-2/backprop-due-pesi/") for name in built)
    assert "2.4.1 Un neurone, passo dopo passo" in built["capitolo-1/ombrello/index.html"].decode()


# run inside a copy: make dev without its first build, its watcher on with the checks of a saved lab
SERVE_CHECKS = SERVE_DEV.replace(
    "from serve import DevHub, make_server, serve_in_background, watch",
    "from serve import DevHub, SaveChecks, make_server, serve_in_background, watch",
).replace("watch(build, hub, server)", "watch(build, hub, server, checks=SaveChecks(hub))")


def test_a_saved_lab_hears_of_make_checks_rules_with_its_file_and_line(tmp_path_factory, site_dir):
    """After a good save, make dev runs make check's checks of the saved lab in the background: one experiment
    fewer than the rule wants and an English sentence that a figure says only at a setting other than the
    defaults each come to the pages' banner as the line of the lab that breaks the rule."""
    target = copied(tmp_path_factory, site_dir, more=("tests",))
    server = subprocess.Popen(
        [sys.executable, "-c", SERVE_CHECKS],
        cwd=target,
        env=clean_env(),
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        url = server.stdout.readline().strip()
        assert url.startswith("http://"), url
        lab = target / "labs" / "ch2" / "learning_rate.py"
        source = lab.read_text(encoding="utf-8")
        first = source.index("    Experiment(", source.index("EXPERIMENTS = ["))
        source = source[:first] + source[source.rindex("    Experiment(") :]  # the last experiment alone
        source = source.replace(
            '                "w dopo ogni passo",\n',
            '                "the weight after each step" if s["eta"] > 1 else "w dopo ogni passo",\n',
        )
        lines = source.splitlines()
        experiments = next(i for i, text in enumerate(lines, 1) if text.startswith("EXPERIMENTS"))
        english = next(i for i, text in enumerate(lines, 1) if "the weight after each step" in text)
        with urllib.request.urlopen(f"{url}__labs_dev__/events", timeout=300) as stream:
            assert read_event(stream)[0] == "hello"
            lab.write_text(source, encoding="utf-8")
            assert read_event(stream)[0] == "reload"  # the page first, at once
            said = ""
            while f"riga {english}:" not in said:
                name, data = read_event(stream)
                assert name == "failed", (name, data)
                said = data["line"]
        assert f"labs/ch2/learning_rate.py, riga {experiments}: " in said, said
        assert "1 esperimenti (ne servono almeno due)" in said, said
        assert f"labs/ch2/learning_rate.py, riga {english}: " in said and "parole inglesi" in said, said
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
