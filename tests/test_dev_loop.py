"""make dev: the incremental rebuild writes what build.py writes, keeps the last good page when a lab breaks,
and tells the open pages over Server-Sent Events; nothing of it reaches the built site."""

import json
import os
import re
import shutil
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


def files_of(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def copy(tmp_path_factory, site_dir):
    """The sources and the last full build (site/ and build/, as make build left them) in a temporary folder."""
    from sitebuild import WORK

    target = tmp_path_factory.mktemp("dev") / "repo"
    target.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for name in COPIED:
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

    full = subprocess.run(
        [sys.executable, "build.py"],
        cwd=copy,
        env=clean_env(
            LABS_SITE_DIR=str(copy / "full-site"),
            LABS_BUILD_DIR=str(copy / "full-build"),
            LABS_ANSWERS_DIR=str(copy / "build" / "answers"),  # make build's, copied: not computed again
        ),
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert full.returncode == 0, full.stderr[-3000:]
    dev, built = files_of(copy / "site"), files_of(copy / "full-site")
    assert sorted(dev) == sorted(built)
    assert [name for name in built if dev[name] != built[name]] == []
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
