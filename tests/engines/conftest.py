"""Firefox ESR and WebKitGTK, one browser and one page each for all the engine tests of a module: the page
moves between the labs by instant navigation, as a reader's does, and Pyodide stays warm in it.

An engine that is not installed skips its tests with the reason; in CI (CI=true) it fails them instead."""

import os

import drivers
import pytest

ENGINES = ("firefox", "webkit")


def pytest_collection_modifyitems(items):
    for item in items:
        if "engines" in item.path.parts:
            item.add_marker(pytest.mark.engines)
            engine = getattr(item, "callspec", None) and item.callspec.params.get("engine")
            if engine:
                item.add_marker(getattr(pytest.mark, engine))


@pytest.fixture(scope="module")
def launched():
    """Each engine's browser, launched when a module first asks for it, closed at the module's end: WebKitGTK
    keeps running a worker it was told to terminate inside a `while True` (the runaway exercise's), a core
    busy until its browser quits, and the rest of the suite runs beside it in the same process."""
    browsers = {}

    def get(name):
        reason = drivers.missing(name)
        if reason:
            if os.environ.get("CI") == "true":
                pytest.fail(f"{name}: {reason} (in CI ogni motore deve esserci)")
            pytest.skip(f"{name}: {reason}")
        if name not in browsers:
            browsers[name] = drivers.launch(name)
        return browsers[name]

    yield get
    for browser in browsers.values():
        browser.close()


@pytest.fixture(scope="module", params=ENGINES)
def engine(request, launched):
    """The engine's browser, for all the tests of a module."""
    return launched(request.param)


@pytest.fixture(scope="module")
def engine_site(engine, site_dir):
    """The built site served for this engine alone (its offline test switches the server off)."""
    from serve import make_server, serve_in_background

    server = make_server(site_dir)
    yield server, serve_in_background(server)
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def engine_page(engine, engine_site):
    """The engine's one page, at a phone's size, opened on the home page."""
    page = engine.new_page()
    page.viewport = page.set_viewport(*drivers.PHONE)
    page.goto(engine_site[1])
    return page
