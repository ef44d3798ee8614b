"""Firefox and WebKit driven through the standard WebDriver protocols, with no driver download.

Firefox ESR speaks WebDriver BiDi itself (--remote-debugging-port): a WebSocket, here websocket-client.
WebKitGTK's WebKitWebDriver (Debian's webkit2gtk-driver) speaks classic WebDriver over HTTP and starts
MiniBrowser, which needs an X display: an Xvfb of our own. Both give the same small Page: evaluate a JS
function in the page (JSON in, JSON out, promises awaited), go to a URL, size the viewport, read the
errors the page met."""

import glob
import itertools
import json
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

FIREFOX = "/usr/bin/firefox-esr"
MEASURE = Path(__file__).resolve().parents[2] / "scripts" / "measure.js"
WEBKIT_DRIVER = "/usr/bin/WebKitWebDriver"
PHONE = (390, 844)  # a small phone's viewport, in CSS pixels
TICKS = os.sysconf("SC_CLK_TCK")  # the unit of a thread's CPU time in /proc

# every error and CSP violation of the document, kept on window (instant navigation keeps the document)
WATCH = """() => {
  if (window.__engineErrors) return;
  window.__engineErrors = [];
  const keep = (text) => window.__engineErrors.push(String(text));
  // «ResizeObserver loop completed with undelivered notifications» (Firefox reports it as an error event,
  // Chromium does not): the browser delivers the rest of a layout's size changes in the next frame
  addEventListener("error", (e) => /^ResizeObserver loop/.test(e.message) || keep(`error: ${e.message} ${e.filename}:${e.lineno}`));
  addEventListener("unhandledrejection", (e) => keep(`unhandled rejection: ${e.reason?.message ?? e.reason}`));
  document.addEventListener("securitypolicyviolation",
    (e) => keep(`CSP: ${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
  const error = console.error.bind(console);
  console.error = (...args) => { keep(`console.error: ${args.join(" ")}`); error(...args); };
}"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def missing(engine):
    """Why engine cannot run here, or None."""
    if engine == "firefox":
        return None if os.access(FIREFOX, os.X_OK) else f"{FIREFOX} manca (apt-get install firefox-esr)"
    if not os.access(WEBKIT_DRIVER, os.X_OK):
        return f"{WEBKIT_DRIVER} manca (apt-get install webkit2gtk-driver)"
    if not minibrowser():
        return "MiniBrowser di WebKitGTK manca (apt-get install libwebkit2gtk-4.1-0)"
    if not shutil.which("Xvfb"):
        return "Xvfb manca (apt-get install xvfb)"
    return None


def minibrowser():
    return next(iter(sorted(glob.glob("/usr/lib/*/webkit2gtk-4.*/MiniBrowser"))), None)


def launch(engine):
    return Firefox() if engine == "firefox" else WebKit()


class Firefox:
    """Firefox ESR, headless, on a fresh profile, through WebDriver BiDi."""

    name = "firefox"
    service_workers = True
    worker_thread = "DOM Worker"  # a web worker's thread, as /proc names it

    def __init__(self):
        import websocket

        self.profile = tempfile.mkdtemp(prefix="labs-firefox-")
        with open(os.path.join(self.profile, "user.js"), "w") as prefs:
            for name, value in {
                "browser.shell.checkDefaultBrowser": False,
                "app.update.disabledForTesting": True,
                "datareporting.policy.dataSubmissionEnabled": False,
                "toolkit.telemetry.enabled": False,
                "browser.startup.homepage_override.mstone": "ignore",
                "network.proxy.type": 0,
                "browser.safebrowsing.update.enabled": False,
                "extensions.update.enabled": False,
                "dom.disable_open_during_load": False,
            }.items():
                prefs.write(f"user_pref({json.dumps(name)}, {json.dumps(value)});\n")
        port = free_port()
        self.process = subprocess.Popen(
            [
                FIREFOX,
                "--headless",
                "--no-remote",
                "--profile",
                self.profile,
                f"--remote-debugging-port={port}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        for line in self.process.stderr:  # «WebDriver BiDi listening on ws://…» once it accepts connections
            if "WebDriver BiDi listening" in line:
                break
        else:
            raise RuntimeError("Firefox non ha aperto WebDriver BiDi")
        threading.Thread(target=lambda: [None for _ in self.process.stderr], daemon=True).start()
        self.ws = websocket.create_connection(f"ws://127.0.0.1:{port}/session", suppress_origin=True, timeout=None)
        self.ids = itertools.count(1)
        self.answers, self.waiting, self.lock = {}, {}, threading.Lock()
        self.log = []  # console errors (the page's and its workers'), from log.entryAdded
        threading.Thread(target=self.read, daemon=True).start()
        self.version = self.send("session.new", {"capabilities": {}})["capabilities"]["browserVersion"]
        self.send("session.subscribe", {"events": ["log.entryAdded"]})
        self.send("script.addPreloadScript", {"functionDeclaration": WATCH})
        # the measurement the site does not ship (window.labsMeasure: stopped answers, phase times)
        self.send(
            "script.addPreloadScript", {"functionDeclaration": f"() => {{ {MEASURE.read_text(encoding='utf-8')} }}"}
        )

    def read(self):
        while True:
            try:
                message = json.loads(self.ws.recv())
            except Exception:
                return
            if message.get("method") == "log.entryAdded":
                entry = message["params"]
                if entry.get("level") == "error":
                    self.log.append(f"console: {entry.get('text')}")
            elif "id" in message:
                with self.lock:
                    self.answers[message["id"]] = message
                    event = self.waiting.pop(message["id"], None)
                if event:
                    event.set()

    def send(self, method, params, timeout=180):
        number = next(self.ids)
        event = threading.Event()
        with self.lock:
            self.waiting[number] = event
        self.ws.send(json.dumps({"id": number, "method": method, "params": params}))
        if not event.wait(timeout):
            raise TimeoutError(f"{method}: nessuna risposta in {timeout} s")
        answer = self.answers.pop(number)
        if answer.get("type") == "error":
            raise RuntimeError(f"{method}: {answer.get('error')}: {answer.get('message')}")
        return answer["result"]

    @property
    def pid(self):
        return self.process.pid

    def new_page(self):
        context = self.send("browsingContext.create", {"type": "tab"})["context"]
        return FirefoxPage(self, context)

    def close(self):
        try:
            self.send("browser.close", {}, timeout=30)
        except Exception:
            pass
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


def descendants(root):
    """The pids of root's process and of all its descendants."""
    children = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue  # ended meanwhile
        children.setdefault(ppid, []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def worker_ticks(browser):
    """{(pid, tid): CPU time used so far, in ticks} of the web-worker threads of the browser's processes."""
    ticks = {}
    for pid in descendants(browser.pid):
        for stat in Path(f"/proc/{pid}/task").glob("*/stat"):
            try:
                text = stat.read_text()
            except OSError:
                continue
            name, rest = text[text.index("(") + 1 :].rsplit(")", 1)
            if name == browser.worker_thread:
                fields = rest.split()  # from proc(5)'s field 3: utime and stime are fields 14 and 15
                ticks[pid, int(stat.parent.name)] = int(fields[11]) + int(fields[12])
    return ticks


def worker_shares(browser, seconds=1.0):
    """{(pid, tid): the share of one core each web-worker thread of the browser used over the next seconds}
    (a thread that ended meanwhile used none)."""
    before = worker_ticks(browser)
    time.sleep(seconds)
    after = worker_ticks(browser)
    return {thread: (after.get(thread, ticks) - ticks) / TICKS / seconds for thread, ticks in before.items()}


class Page:
    """What the engine suite asks of a page, in either protocol."""

    def wait_for(self, function, *args, timeout=90):
        """Waits, inside the page, until function(*args) is truthy; returns its value."""
        return self.evaluate(
            f"""async (...args) => {{
            const until = performance.now() + {timeout * 1000};
            for (;;) {{
              const value = await ({function})(...args);
              if (value) return value;
              if (performance.now() > until) throw new Error("attesa scaduta: " + {json.dumps(function[:120])});
              await new Promise((r) => setTimeout(r, 20));
            }}
        }}""",
            *args,
            timeout=timeout + 30,
        )

    def errors(self):
        return self.evaluate("() => window.__engineErrors ?? []")

    def loaded(self, url, timeout=120):
        """Waits until the document at url has loaded (a script sent meanwhile may meet the one before)."""
        until = time.monotonic() + timeout
        while time.monotonic() < until:
            try:
                if self.evaluate("u => document.readyState === 'complete' && location.href === u", url, timeout=30):
                    return
            except RuntimeError:
                pass
            time.sleep(0.1)
        raise TimeoutError(f"{url} non si è caricato")


class FirefoxPage(Page):
    def __init__(self, browser, context):
        self.browser, self.context = browser, context

    def evaluate(self, function, *args, timeout=660):
        result = self.browser.send(
            "script.callFunction",
            {
                "functionDeclaration": f"async (a) => JSON.stringify((await ({function})(...JSON.parse(a))) ?? null)",
                "arguments": [{"type": "string", "value": json.dumps(args)}],
                "target": {"context": self.context},
                "awaitPromise": True,
            },
            timeout=timeout,
        )
        if result["type"] == "exception":
            raise RuntimeError(result["exceptionDetails"]["text"])
        return json.loads(result["result"]["value"])

    def goto(self, url):
        self.browser.send("browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"})
        self.loaded(url)

    def set_viewport(self, width, height):
        self.browser.send(
            "browsingContext.setViewport", {"context": self.context, "viewport": {"width": width, "height": height}}
        )
        return self.evaluate("() => [innerWidth, innerHeight]")

    def errors(self):
        return [*self.browser.log, *super().errors()]

    def close(self):
        self.browser.send("browsingContext.close", {"context": self.context})

    def clear_errors(self):
        self.browser.log.clear()
        self.evaluate("() => { if (window.__engineErrors) window.__engineErrors.length = 0; }")


class WebKit:
    """WebKitGTK's MiniBrowser through WebKitWebDriver, on an Xvfb display of its own."""

    name = "webkit"
    service_workers = True
    worker_thread = "WebCore: Worker"

    def __init__(self):
        self.xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", "1", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        display = self.xvfb.stdout.readline().strip()
        if not display:
            raise RuntimeError("Xvfb non è partito")
        self.port = free_port()
        self.driver = subprocess.Popen(
            [WEBKIT_DRIVER, f"--port={self.port}"],
            env={**os.environ, "DISPLAY": f":{display}"},
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for _ in range(100):
            try:
                self.http("GET", "/status")
                break
            except OSError:
                time.sleep(0.1)
        answer = self.http(
            "POST",
            "/session",
            {
                "capabilities": {
                    "alwaysMatch": {
                        "browserName": "MiniBrowser",
                        "webkitgtk:browserOptions": {"binary": minibrowser(), "args": ["--automation"]},
                    }
                }
            },
            timeout=180,
        )
        self.session = f"/session/{answer['sessionId']}"
        self.version = answer["capabilities"].get("browserVersion")
        self.http("POST", f"{self.session}/timeouts", {"script": 600_000, "pageLoad": 180_000})

    def http(self, method, path, body=None, timeout=600):
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.load(response)["value"]
        except urllib.error.HTTPError as error:
            value = json.load(error)["value"]
            raise RuntimeError(f"{value.get('error')}: {value.get('message')}") from None

    @property
    def pid(self):
        return self.driver.pid  # MiniBrowser and its web processes are the driver's descendants

    def new_page(self):
        return WebKitPage(self)

    def close(self):
        try:
            self.http("DELETE", self.session, timeout=30)
        except Exception:
            pass
        for process in (self.driver, self.xvfb):
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


class WebKitPage(Page):
    """The session's one window. Classic WebDriver has no script run before the page's own: the error
    watcher is installed once each document has loaded (instant navigation then keeps it)."""

    def close(self):
        """The session's one window stays open."""

    def __init__(self, browser):
        self.browser = browser

    def evaluate(self, function, *args, timeout=660):
        script = (
            f"const done = arguments[1]; Promise.resolve().then(() => ({function})(...JSON.parse(arguments[0])))"
            ".then((v) => done(JSON.stringify({value: v ?? null})), (e) => done(JSON.stringify({error: String(e)})));"
        )
        answer = json.loads(
            self.browser.http(
                "POST",
                f"{self.browser.session}/execute/async",
                {"script": script, "args": [json.dumps(args)]},
                timeout=timeout,
            )
        )
        if "error" in answer:
            raise RuntimeError(answer["error"])
        return answer["value"]

    def goto(self, url):
        self.browser.http("POST", f"{self.browser.session}/url", {"url": url})
        self.loaded(url)
        self.evaluate(WATCH)

    def set_viewport(self, width, height):
        """The window sized so that the page's viewport is width × height, or as near as the window can be
        (MiniBrowser's window is never narrower than its toolbar). Returns the viewport's size."""
        self.browser.http("POST", f"{self.browser.session}/window/rect", {"width": width, "height": height})
        inner = self.evaluate("() => [innerWidth, innerHeight]")
        self.browser.http(
            "POST",
            f"{self.browser.session}/window/rect",
            {"width": 2 * width - inner[0], "height": 2 * height - inner[1]},
        )
        return self.evaluate("() => [innerWidth, innerHeight]")

    def clear_errors(self):
        self.evaluate("() => { if (window.__engineErrors) window.__engineErrors.length = 0; }")
