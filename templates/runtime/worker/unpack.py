# Run by the worker (wheels.js) once Python has started: the function it returns unpacks our wheels.
import os
import sys
import zipfile


def unpack(paths):
    """Unpacks the wheels at these paths (one a line) into site-packages, and deletes them."""
    folder = next(p for p in sys.path if p.endswith("site-packages"))
    for path in paths.splitlines():
        with zipfile.ZipFile(path) as wheel:
            wheel.extractall(folder)
        os.remove(path)
    # what new files make stale is the path finders' listings of their folders; importlib.invalidate_caches()
    # would also import importlib.metadata (and email, csv…) for its own finder, on every page's way to «pronto»
    for finder in list(sys.path_importer_cache.values()):
        if hasattr(finder, "invalidate_caches"):
            finder.invalidate_caches()


unpack  # noqa: B018 (the value runPython returns to wheels.js)
