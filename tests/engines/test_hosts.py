"""The site behind other hosts, in Firefox: nginx configured by scripts/nginx_conf.py from site/_headers,
for a deploy under a sub-path (/laboratori/); and a host that sends no header (GitHub Pages: the CSP only
in each page's <meta>, no cross-origin isolation). A few labs go through every feature on each; a
retraining the reader left is stopped where the page is isolated, and runs to its end where it is not."""

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import drivers
import pytest
from reader import GO_AND_WAIT_READY, check_lab

import labs
from labs.kit import num

pytestmark = pytest.mark.firefox
ROOT = Path(__file__).resolve().parents[2]
NGINX = "/usr/sbin/nginx"
# a few labs through every feature: sliders, a stepped lab with a slow training, text, a code panel's error
HOST_LABS = [labs.get(lab_id) for lab_id in ("ombrello", "transformer-allenato", "softmax-temperatura", "bpe")]
TRAINED = labs.get("transformer-allenato")


def fetch(url):
    """(status, headers) of a GET, a 404 included."""
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.headers
    except urllib.error.HTTPError as error:
        return error.code, error.headers


@pytest.fixture(scope="module")
def nginx_site(tmp_path_factory):
    """The site built for http://127.0.0.1:PORT/laboratori/ and served there by nginx, as an unprivileged
    process in the foreground, configured by scripts/nginx_conf.py."""
    if not os.access(NGINX, os.X_OK):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{NGINX} manca (apt-get install nginx)")
        pytest.skip(f"{NGINX} manca (apt-get install nginx)")
    import nginx_conf

    work = tmp_path_factory.mktemp("nginx")
    port = drivers.free_port()
    url = f"http://127.0.0.1:{port}/laboratori/"
    env = {**os.environ, "SITE_URL": url, "LABS_BUILD_DIR": str(work / "build"), "LABS_SITE_DIR": str(work / "site")}
    subprocess.run([sys.executable, str(ROOT / "build.py")], env=env, check=True, capture_output=True)
    (work / "nginx.conf").write_text(
        nginx_conf.standalone(nginx_conf.server_block(work / "site", "/laboratori/", port), work), encoding="utf-8"
    )
    server = subprocess.Popen(
        [NGINX, "-p", str(work), "-c", str(work / "nginx.conf")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    for _ in range(100):
        try:
            fetch(url)
            break
        except OSError:
            time.sleep(0.1)
    yield work / "site", url
    server.terminate()
    server.wait(10)


@pytest.fixture(scope="module")
def bare_site(site_dir):
    """The built site served with no header from _headers."""
    from serve import make_server, serve_in_background

    server = make_server(site_dir, headers=False)
    yield serve_in_background(server)
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def firefox_page(launched):
    page = launched("firefox").new_page()
    page.set_viewport(*drivers.PHONE)
    return page


def retrain_twice(page, site_url):
    """3.2 at step 60: another learning rate retrains from step 0, and the reader moves it again while
    that retraining runs. Returns how many answers the page stopped, and the lab's timeline text."""
    page.evaluate(GO_AND_WAIT_READY, f"{site_url}{TRAINED.path}", TRAINED.id)
    return page.evaluate("""async () => {
        const root = document.querySelector('[data-lab="transformer-allenato"]');
        const idle = async () => { while (root.dataset.busy !== undefined) await new Promise((r) => setTimeout(r, 20)); };
        const set = (input, value) => { input.value = value; input.dispatchEvent(new Event("input", { bubbles: true })); };
        const lr = root.querySelector('[data-param="lr"]'), working = root.querySelector("[data-lab-working]");
        set(root.querySelector("input.lab-scrubber"), "60");
        await idle();
        const before = labsMeasure.unwantedAnswers;
        set(lr, "0.02");
        while (working.hidden) await new Promise((r) => setTimeout(r, 10));  // the retraining is under way
        set(lr, "0.015");
        await idle();
        return { stopped: labsMeasure.unwantedAnswers - before, lr: lr.value,
                 timeline: root.querySelector("[data-lab-timeline]").textContent };
    }""")


def trained_loss(lr):
    return num(TRAINED.compute(TRAINED.parse({"passo": "60", "lr": str(lr)}))["batch_losses"][-1], 3)


def test_nginx_sends_the_headers_of_the_build_and_the_types_pyodide_needs(nginx_site):
    site, url = nginx_site
    policy = (
        (site / "_headers").read_text(encoding="utf-8").split("Content-Security-Policy:")[1].splitlines()[0].strip()
    )
    for path in ("", "capitolo-1/ombrello/", "manca/del/tutto/"):
        status, headers = fetch(f"{url}{path}")
        assert status == (404 if "manca" in path else 200), path
        assert headers["Content-Security-Policy"] == policy, path
        assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
        assert headers["Cross-Origin-Embedder-Policy"] == "require-corp"
    wheel = next((site / "pyodide").glob("*.whl")).name
    for path, kind in (
        ("pyodide/pyodide.asm.mjs", "text/javascript"),
        ("pyodide/pyodide.asm.wasm", "application/wasm"),
        (f"pyodide/{wheel}", "application/zip"),
    ):
        status, headers = fetch(f"{url}{path}")
        assert (status, headers.get_content_type()) == (200, kind), path
    assert fetch(url.replace("/laboratori/", "/index.html"))[0] == 404  # nothing outside the sub-path


def test_labs_behind_nginx_under_a_sub_path(firefox_page, nginx_site):
    page = firefox_page
    site, url = nginx_site
    page.goto(url)
    for lab in HOST_LABS:
        check_lab(page, url, lab)
    result = retrain_twice(page, url)
    assert result["stopped"] == 1, "la pagina isolata non ha fermato il riallenamento lasciato"
    assert result["lr"] == "0.015" and f"loss del batch: {trained_loss(0.015)}" in result["timeline"]
    page.goto(f"{url}a/b/manca/")
    assert page.evaluate("() => document.querySelector('h1').textContent") == "Pagina non trovata"
    assert page.evaluate("() => [...document.styleSheets].some((s) => s.href?.includes('/laboratori/assets/'))")


def test_a_host_without_headers_works_and_lets_a_retraining_end(firefox_page, bare_site):
    """No CSP header (each page's <meta> still holds it), no COOP/COEP: every feature works, the page is
    not cross-origin isolated, and a retraining the reader left runs to its end before the next answer,
    which is still the one drawn."""
    page = firefox_page
    status, headers = fetch(f"{bare_site}capitolo-1/ombrello/")
    assert status == 200 and "Content-Security-Policy" not in headers and "Cross-Origin-Opener-Policy" not in headers
    page.goto(bare_site)
    assert page.evaluate("() => document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]') !== null")
    for lab in HOST_LABS:
        check_lab(page, bare_site, lab, isolated=False)
    assert page.evaluate("() => labsRuntime.unwanted") is None  # no shared memory with the worker
    result = retrain_twice(page, bare_site)
    assert result["stopped"] == 0
    assert result["lr"] == "0.015" and f"loss del batch: {trained_loss(0.015)}" in result["timeline"]
    assert page.errors() == []
