"""Debian's Chromium, as the tests and the scripts start it: Playwright cannot download a browser of its own
here, so where Debian's is installed it is the one, always with the same flags."""

import shutil

# no traffic of the browser's own (updates, sync, QUIC), no GPU, no sandbox (CI runs as root)
FLAGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
]


def system_chromium():
    """The path of Debian's chromium, or None (then Playwright's own browser, where it has one)."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def launch(playwright, extra=()):
    """A Chromium through Playwright: Debian's with FLAGS where installed, otherwise Playwright's own; extra: more
    flags (a benchmark's)."""
    path = system_chromium()
    args = [*FLAGS, *extra] if path else [*extra]
    return (
        playwright.chromium.launch(executable_path=path, args=args) if path else playwright.chromium.launch(args=args)
    )
