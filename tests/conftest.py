"""Shared fixtures: the built site served on 127.0.0.1, and Chromium."""

import os
import statistics
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# No deadline for any Hypothesis example: Hypothesis' default (200 ms an example) is a timing assert, and on a
# loaded CI machine a BPE example took 250 ms once (test_every_token_lies_inside_one_chunk)
settings.register_profile("labs", deadline=None)
settings.load_profile("labs")

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("LABS_SITE_DIR", ROOT / "site")).resolve()
sys.path.insert(0, str(ROOT / "scripts"))
from chromium import FLAGS, system_chromium  # noqa: E402

# Every build a test runs (a sub-path, nginx, a next build, a copy of the sources) reads the «Prova» answers of
# the build under test: the same sources give the same answers, and replaying 3.2's trainings takes minutes.
os.environ.setdefault(
    "LABS_ANSWERS_DIR", str(Path(os.environ.get("LABS_BUILD_DIR", ROOT / "build")).resolve() / "answers")
)


@pytest.fixture(scope="session")
def site_dir():
    if not (SITE / "index.html").exists():
        pytest.fail("site/ non esiste: esegui 'make build' (make test lo fa da sé)")
    return SITE


@pytest.fixture(scope="session")
def site_url(site_dir):
    """Base URL of the built site, served by a thread for the whole session."""
    from serve import make_server, serve_in_background

    server = make_server(site_dir)
    yield serve_in_background(server)
    server.shutdown()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    """Debian's chromium where installed (no download possible here),
    otherwise the browser Playwright installed for itself."""
    args = dict(browser_type_launch_args)
    path = system_chromium()
    if path:
        args["executable_path"] = path
        args["args"] = [*args.get("args", []), *FLAGS]
    return args


def pytest_collection_modifyitems(items):
    for item in items:
        if "browser" in item.path.parts:
            item.add_marker(pytest.mark.browser)
        if item.path.parent.name == "labs" and item.path.parent.parent.name == "tests":
            # tests/labs/test_prodotto_scalare.py answers to -k prodotto-scalare, as the tests over every lab do
            item.extra_keyword_matches.add(item.path.stem.removeprefix("test_").replace("_", "-"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """With pytest-xdist (make test: -n 2) every Chromium test runs in one process, so they share one
    Chromium and one warm Pyodide, and every test of the other engines in the other process (the
    largest group after it: xdist hands out the largest first), which also runs the Python tests.
    (xdist's own --dist loadgroup cannot do it under pytest 9: it renames tests through an attribute
    pytest 9 no longer reads.)"""
    from xdist.scheduler import LoadScopeScheduling

    class BrowserTestsTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid):
            for group in ("browser", "engines"):
                if nodeid.startswith(f"tests/{group}/"):
                    return group
            return nodeid

    return BrowserTestsTogether(config, log)


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A throwaway labs-like package to write labs into and discover (tests/lab_package.py)."""
    from lab_package import made_package

    yield from made_package(tmp_path, monkeypatch)


@pytest.fixture
def goto_holding_the_wasm():
    """page.goto(url) on a lab page with Pyodide's wasm held until runtime.js has taken the <head>'s worker
    over and shows its progress: on a loaded machine the local download could end before there is a bar
    or a phase to show (a reader's network is slower)."""

    def goto(page, url):
        held = []
        page.route("**/pyodide.asm.wasm", lambda route: held.append(route))
        page.goto(url)
        page.wait_for_function(
            "() => window.labsRuntime?.worker && !self.labsEarly && document.querySelector('[data-lab-progress]')"
        )
        for _ in range(200):
            if held:
                break
            page.wait_for_timeout(100)
        held[0].continue_()
        page.unroute("**/pyodide.asm.wasm")

    return goto


MEASURE = ROOT / "scripts" / "measure.js"  # the measurement the site does not ship (labTiming, times, …)


@pytest.fixture
def measured(page):
    """The page with scripts/measure.js injected before its own scripts: window.labsMeasure, root.labTiming."""
    page.add_init_script(path=str(MEASURE))
    return page


def pytest_terminal_summary(terminalreporter):
    """Per engine, the medians over the labs of this run (the properties tests/engines gives its reports,
    sent back by xdist's workers too): link → «ready», control → view drawn."""
    times = {}
    for report in terminalreporter.stats.get("passed", []):
        props = dict(getattr(report, "user_properties", ()))
        if "engine" in props and report.when == "call":
            for kind in ("ready_ms", "change_ms"):
                times.setdefault(props["engine"], {}).setdefault(kind, []).append(props[kind])
    for engine, kinds in times.items():
        terminalreporter.write_line(
            f"{engine}: "
            + ", ".join(
                f"{kind.removesuffix('_ms')} mediana {statistics.median(ms):.0f} ms (max {max(ms):.0f}, {len(ms)} laboratori)"
                for kind, ms in kinds.items()
            )
        )
