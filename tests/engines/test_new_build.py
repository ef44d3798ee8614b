"""A new build published while a reader is on the site, in Firefox.

Build N is site/; build N+1 is built from a copy of the sources where 9E's text (so its page and its
wheel) changed. The server serves whichever build its folder link points at, and the link is swapped
while a page of build N is open; the reader then follows a link to 9E by instant navigation."""

import functools
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reader import CHANGE, GO_AND_WAIT_READY

import labs

pytestmark = pytest.mark.firefox
ROOT = Path(__file__).resolve().parents[2]
CHANGED = labs.get("softmax-temperatura")  # 9E
START = labs.get("vettori")  # another lab of chapter 9, opened on build N
OLD_TEXT = "Qui i candidati sono sei."
NEW_TEXT = "Qui i candidati sono sei (build successiva)."


@pytest.fixture(scope="module")
def next_build(tmp_path_factory, site_dir):
    """site/ (build N) and a build N+1 whose 9E differs in its text."""
    work = tmp_path_factory.mktemp("next-build")
    source = work / "src"
    source.mkdir()
    for name in ("core", "labs", "sitebuild", "templates", "scripts"):
        shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("build.py", "mkdocs.yml", "pyproject.toml", "package.json"):
        shutil.copy2(ROOT / name, source / name)
    (source / "node_modules").symlink_to(ROOT / "node_modules")
    module = source / "labs" / "ch9" / "softmax_temperatura.py"
    text = module.read_text(encoding="utf-8")
    assert OLD_TEXT in text
    module.write_text(text.replace(OLD_TEXT, NEW_TEXT), encoding="utf-8")
    env = {**os.environ, "LABS_BUILD_DIR": str(work / "build"), "LABS_SITE_DIR": str(work / "site")}
    subprocess.run([sys.executable, str(source / "build.py")], env=env, check=True, capture_output=True, cwd=source)
    return site_dir, work / "site"


def swappable_server(link, service_worker):
    """The site at the folder link points to, read anew at each request; without service_worker,
    sw.js is missing (a browser that blocks it, or has none)."""
    from serve import make_server, serve_in_background

    server = make_server(link)
    handler = server.RequestHandlerClass

    class Handler(handler.func):
        def do_GET(self):
            if not service_worker and self.path.split("?")[0].endswith("/sw.js"):
                return self.send_error(404)
            return super().do_GET()

    server.RequestHandlerClass = functools.partial(Handler, *handler.args, **handler.keywords)
    serve_in_background(server)
    return server


def read_on_while_the_site_changes(launched, next_build, tmp_path, service_worker):
    """A page of build N, build N+1 published, a link followed to 9E: what the reader then meets."""
    old, new = next_build
    link = tmp_path / "published"
    link.symlink_to(old)
    server = swappable_server(link, service_worker)
    url = f"http://127.0.0.1:{server.server_port}/"
    page = launched("firefox").new_page()
    try:
        page.goto(f"{url}{START.path}")
        page.wait_for(f"() => document.querySelector('[data-lab=\"{START.id}\"]')?.dataset.ready === 'true'")
        if service_worker:
            page.wait_for(
                "async () => Boolean((await navigator.serviceWorker.ready) && navigator.serviceWorker.controller)",
                timeout=120,
            )
        page.evaluate("() => { window.__sameDocument = true; }")
        link.unlink()
        link.symlink_to(new)
        try:
            page.evaluate(GO_AND_WAIT_READY, f"{url}{CHANGED.path}", CHANGED.id)
        except RuntimeError:  # the page loaded itself anew: a build other than its worker's (runtime page/main.js)
            page.loaded(f"{url}{CHANGED.path}")
        page.wait_for(f"() => document.querySelector('[data-lab=\"{CHANGED.id}\"]')?.dataset.ready === 'true'")
        shown = page.evaluate("() => [document.querySelector('article').textContent, window.__sameDocument === true]")
        changed = page.evaluate(
            f"""async (change) => {{
            const watch = ({CHANGE});
            return await Promise.race([watch(...change),
              new Promise((resolve) => setTimeout(() => resolve({{ ms: null }}), 20000))]);
        }}""",
            [CHANGED.id, "set", "temperatura", "2"],
        )
        message = page.evaluate(
            "() => { const m = document.querySelector('[data-lab-message]');"
            " return m && m.offsetParent !== null ? m.textContent : null; }"
        )
        return {
            "new_text": NEW_TEXT in shown[0],
            "same_document": shown[1],
            "answered": changed["ms"] is not None,
            "error": changed.get("error"),
            "message": message,
        }
    finally:
        page.close()
        server.shutdown()
        server.server_close()


def test_with_the_service_worker_in_control_the_tab_keeps_its_build(launched, next_build, tmp_path):
    seen = read_on_while_the_site_changes(launched, next_build, tmp_path, service_worker=True)
    assert seen == {"new_text": False, "same_document": True, "answered": True, "error": None, "message": None}


def test_without_a_service_worker_a_new_build_runs_on_a_matching_worker_or_reloads(launched, next_build, tmp_path):
    seen = read_on_while_the_site_changes(launched, next_build, tmp_path, service_worker=False)
    assert seen["answered"] and seen["error"] is None and seen["message"] is None, seen
    assert seen["new_text"], seen  # the page of the build that is published now, working
    assert not seen["same_document"], seen  # reached by loading the page anew, once
