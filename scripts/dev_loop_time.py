"""How long make dev takes from a save to the page reloaded: a lab's file, then a core/ file.

    python scripts/dev_loop_time.py [--lab bpe] [--core core/bpe.py] [--saves 10]

Starts the dev server (scripts/serve.py --dev) on a free port, opens the lab's page in headless Chromium
(Debian's, as the tests use it), then saves the lab's module --saves times with a new last sentence in its
prose and times save → that sentence visible in the reloaded page; then saves the core/ module as many
times with a comment added at its end and times save → the reloaded page names the new lockfile (the core
wheel changed). Each file is put back as it was at the end. Prints, for each file, the median and the
maximum of save → page, and of the rebuild alone (the server's own line, no browser).
"""

import argparse
import ast
import os
import queue
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class DevServer:
    """scripts/serve.py --dev in a process of its own, its lines read by a thread."""

    def __init__(self, port, work):
        # a site of its own: the author's site/ and build/ are left alone
        env = {k: v for k, v in os.environ.items() if not k.startswith(("LABS_", "SITE_URL"))}
        env |= {"LABS_SITE_DIR": str(work / "site"), "LABS_BUILD_DIR": str(work / "build")}
        if (ROOT / "build" / "answers").is_dir():  # make build's answers, read (and added to): not replayed
            env["LABS_ANSWERS_DIR"] = str(ROOT / "build" / "answers")
        self.process = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "serve.py"), "--dev", "--port", str(port)],
            cwd=ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        for line in self.process.stdout:
            self.lines.put((time.perf_counter(), line.rstrip("\n")))

    def wait_for(self, pattern, timeout):
        """(when it was printed, the line): the first line of the server that matches pattern (a regex),
        or RuntimeError after timeout."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                printed, line = self.lines.get(timeout=max(0.01, end - time.monotonic()))
            except queue.Empty:
                break
            if re.search(pattern, line):
                return printed, line
            if re.search(r"riga \d+|errore", line):
                raise RuntimeError(f"il server dice: {line}")
        raise RuntimeError(f"nessuna riga «{pattern}» dal server in {timeout} s")

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=20)


def prose_end(path):
    """The line number (1-based) of the closing quotes of a module's docstring."""
    return ast.parse(path.read_text(encoding="utf-8")).body[0].end_lineno


def with_sentence(text, end_line, sentence):
    """The module with one more paragraph at the end of its docstring."""
    lines = text.split("\n")
    last = lines[end_line - 1]
    closing = last.rindex('"""')
    lines[end_line - 1] = f"{last[:closing].rstrip()}\n\n{sentence}\n{last[closing:]}"
    return "\n".join(lines)


def settle(page):
    """Wait until the lab has started (or 15 s): the next save does not race Python's start in the page."""
    try:
        page.wait_for_function("() => !document.querySelector('[data-lab-fieldset]')?.disabled", timeout=15000)
    except Exception:
        pass


def rebuilt(server):
    """(when the server printed its line, the seconds the rebuild took by its own count)."""
    printed, line = server.wait_for(r"^ricostruit.* in [\d.]+ s$", timeout=120)
    return printed, float(line.rsplit(" in ", 1)[1].split()[0])


def timed_saves(page, server, path, saves, save):
    """Saves path `saves` times through save(original, n), which writes the file and returns how to wait
    until the page shows the save; (seconds from each save to the page, the server's rebuild times)."""
    original = path.read_text(encoding="utf-8")
    loops, rebuilds = [], []
    try:
        for n in range(1, saves + 1):
            settle(page)
            shown = save(original, n)
            saved = time.perf_counter()
            shown()
            loops.append(time.perf_counter() - saved)
            printed, took = rebuilt(server)
            rebuilds.append(took)
            print(
                f"  {path.relative_to(ROOT)} #{n}: pagina {loops[-1]:.2f} s, server pronto {printed - saved:.2f} s, "
                f"ricostruzione {took:.2f} s"
            )
    finally:
        path.write_text(original, encoding="utf-8")
    return loops, rebuilds


def measure_lab(page, server, path, saves):
    """A sentence added to the lab's prose at each save: the page is back when it shows the sentence."""
    end_line = prose_end(path)

    def save(original, n):
        sentence = f"Misura del ciclo di sviluppo, salvataggio {n}."
        path.write_text(with_sentence(original, end_line, sentence), encoding="utf-8")
        return lambda: page.get_by_text(sentence).first.wait_for(timeout=60000)

    return timed_saves(page, server, path, saves, save)


def lockfile_of(page):
    try:
        return page.evaluate("() => document.querySelector('[data-lab]')?.dataset.lockfile")
    except Exception:  # the page is being replaced
        return None


def measure_core(page, server, path, saves):
    """A comment added to a file of core/ at each save: the page is back when it names another lockfile."""

    def save(original, n):
        before = lockfile_of(page)
        path.write_text(f"{original.rstrip()}\n# misura del ciclo di sviluppo, salvataggio {n}\n", encoding="utf-8")
        started = time.perf_counter()

        def shown():
            while lockfile_of(page) in (before, None):
                if time.perf_counter() - started > 60:
                    raise RuntimeError("la pagina non si è ricaricata in 60 s")
                time.sleep(0.01)

        return shown

    return timed_saves(page, server, path, saves, save)


def summary(name, loops, rebuilds):
    return (
        f"{name}: salvato → pagina ricaricata mediana {statistics.median(loops):.2f} s, massimo {max(loops):.2f} s; "
        f"ricostruzione sola mediana {statistics.median(rebuilds):.2f} s, massimo {max(rebuilds):.2f} s "
        f"({len(loops)} salvataggi)"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lab", default="bpe", help="l'id del laboratorio da salvare e guardare")
    parser.add_argument("--core", default="core/bpe.py", help="il file di core/ da salvare")
    parser.add_argument("--saves", type=int, default=10)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from chromium import launch
    from playwright.sync_api import sync_playwright

    import labs

    lab = labs.get(args.lab)
    lab_file = Path(lab.module.__file__)
    port = free_port()
    work = Path(tempfile.mkdtemp(prefix="dev-loop-"))
    server = DevServer(port, work)
    try:
        started = time.perf_counter()
        server.wait_for(r"^Laboratori LLM su http", timeout=900)
        print(f"make dev pronto in {time.perf_counter() - started:.1f} s (build completo e stato in memoria)")
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/{lab.path}")
            lab_times = measure_lab(page, server, lab_file, args.saves)
            rebuilt(server)  # the lab's file put back
            core_times = measure_core(page, server, ROOT / args.core, args.saves)
            browser.close()
        rebuilt(server)  # the core file put back: its rebuild waited for before stopping
        print(summary(lab_file.relative_to(ROOT).as_posix(), *lab_times))
        print(summary(args.core, *core_times))
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
