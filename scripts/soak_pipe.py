"""The soak's control without Playwright: what the browser keeps of instant navigation when no DevTools network
agent watches the page (scripts/bench_soak.py drives Chromium through Playwright, which turns that agent on for
every page, and it keeps each response it sees: the page the theme fetches as a blob at every navigation too).

    python scripts/soak_pipe.py [--visits 80] [--rounds 3]

Chromium is driven over --remote-debugging-pipe with the protocol's Target, Page, Runtime, HeapProfiler,
SystemInfo and Tracing domains only (no Network): the same visits as the soak's control (the same lab pages,
Python's worker never started), each round's RSS after a collection by process and the memory-infra figures of
bench_soak.ALLOCATORS. It needs a built site (LABS_SITE_DIR, default site/). Nothing asserts."""

import argparse
import fcntl
import json
import os
import subprocess
import tempfile
import time

from bench_page import bench_server
from bench_soak import (
    ALLOCATORS,
    FLAGS,
    GO,
    IDLE,
    MB,
    MEMORY_INFRA,
    MOUNTED,
    SILENT_PYTHON,
    allocators,
    memory_by_process,
    process_kind,
)
from chromium import FLAGS as CHROMIUM_FLAGS
from chromium import system_chromium
from serve import serve_in_background

import labs


def on_3_and_4(reads, writes):
    """In the child: the pipe's ends where Chromium looks for them, by way of descriptors above both (either
    may be 3 or 4 already)."""
    reads, writes = (fcntl.fcntl(fd, fcntl.F_DUPFD, 10) for fd in (reads, writes))
    os.dup2(reads, 3)
    os.dup2(writes, 4)


class Pipe:
    """A Chromium whose DevTools protocol is its descriptors 3 (it reads) and 4 (it writes), messages ended by NUL."""

    def __init__(self):
        to_chromium, self.write = os.pipe()
        self.read, from_chromium = os.pipe()
        self.process = subprocess.Popen(
            [
                system_chromium(),
                "--headless",
                *CHROMIUM_FLAGS,
                *FLAGS,
                f"--user-data-dir={tempfile.mkdtemp()}",
                "--remote-debugging-pipe",
                "about:blank",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=False,
            preexec_fn=lambda: on_3_and_4(to_chromium, from_chromium),
        )
        os.close(to_chromium)
        os.close(from_chromium)
        self.buffer, self.last, self.events = b"", 0, []

    def receive(self):
        while b"\0" not in self.buffer:
            chunk = os.read(self.read, 1 << 20)
            if not chunk:
                raise EOFError("Chromium ha chiuso il canale")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method, params=None, session=None):
        """The command's result; the events that come meanwhile are kept in self.events."""
        self.last += 1
        message = {"id": self.last, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.write, json.dumps(message).encode() + b"\0")
        while (answer := self.receive()).get("id") != self.last:
            self.events.append(answer)
        if "error" in answer:
            raise RuntimeError(f"{method}: {answer['error']}")
        return answer["result"]

    def call(self, session, function, argument=None):
        """A page function's value (awaited)."""
        expression = f"({function})({json.dumps(argument)})"
        result = self.send(
            "Runtime.evaluate", {"expression": expression, "awaitPromise": True, "returnByValue": True}, session
        )
        if "exceptionDetails" in result:
            raise RuntimeError(result["exceptionDetails"])
        return result["result"].get("value")

    def close(self):
        self.process.terminate()
        self.process.wait()


def round_memory(chromium, session):
    """After a collection of the page: RSS by kind of process (bytes) and a memory-infra dump's figures."""
    chromium.send("HeapProfiler.collectGarbage", session=session)
    time.sleep(2)
    rss = memory_by_process(chromium)  # the Pipe speaks as Playwright's browser session does
    kinds = {info["id"]: process_kind(info) for info in chromium.send("SystemInfo.getProcessInfo")["processInfo"]}
    chromium.send("Tracing.requestMemoryDump", {"deterministic": True, "levelOfDetail": "detailed"})
    return rss, kinds


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--visits", type=int, default=80, help="lab visits over two rounds (a round visits visits/2)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    server = bench_server()
    base = serve_in_background(server)
    chromium = Pipe()
    try:
        context = chromium.send("Target.createBrowserContext")["browserContextId"]
        target = chromium.send("Target.createTarget", {"url": "about:blank", "browserContextId": context})
        session = chromium.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})["sessionId"]
        chromium.send("Page.enable", session=session)
        chromium.send("Page.addScriptToEvaluateOnNewDocument", {"source": SILENT_PYTHON}, session)
        chromium.send("Tracing.start", {"traceConfig": MEMORY_INFRA, "transferMode": "ReportEvents"})
        chromium.send("Page.navigate", {"url": base}, session)
        time.sleep(3)
        measured = []
        for _ in range(args.rounds):
            for lab in labs.all_labs()[: max(1, args.visits // 2)]:
                chromium.call(session, GO, f"{base}{lab.path}")
                while not chromium.call(session, MOUNTED, lab.id):
                    time.sleep(0.1)
                chromium.call(session, IDLE)
            measured.append(round_memory(chromium, session))
        chromium.send("Tracing.end")
        while not any(e.get("method") == "Tracing.tracingComplete" for e in chromium.events):
            chromium.events.append(chromium.receive())
    finally:
        chromium.close()
        server.shutdown()
    events = [e for m in chromium.events if m.get("method") == "Tracing.dataCollected" for e in m["params"]["value"]]
    ids = sorted({e["id"] for e in events if e.get("ph") == "v"}, key=lambda i: int(i, 16))[-args.rounds :]
    print(
        f"Controllo senza Playwright: {args.visits} visite a giro diviso due, Python mai partito, RSS dopo una GC (MB):"
    )
    for n, ((rss, kinds), dump) in enumerate(zip(measured, ids), 1):
        parts = " · ".join(f"{kind} {b / MB:.1f}" for kind, b in sorted(rss.items()))
        found = allocators([e for e in events if e.get("ph") == "v" and e["id"] == dump], kinds)
        infra = " · ".join(
            f"{kind} {name} {found.get(kind, {}).get(name, 0) / MB:.1f}" for (kind, _, _), name in ALLOCATORS.items()
        )
        print(f"  giro {n}: totale {sum(rss.values()) / MB:.1f} ({parts})\n    memory-infra: {infra}")


if __name__ == "__main__":
    main()
