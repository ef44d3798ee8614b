# Laboratori LLM: `make serve` to see the site, `make test` to check everything.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000

.PHONY: setup build serve dev test test-fast lint test-js bench shots layout browser check clean

# A venv with a Python >= 3.12 (pyodide-build needs it), found by scripts/find-python.sh.
$(VENV)/.installed: pyproject.toml
	@python=$$(scripts/find-python.sh) || exit 1; \
	[ -x $(PY) ] || { echo "venv con $$python"; "$$python" -m venv $(VENV); }
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

setup: $(VENV)/.installed node_modules/.installed

build: setup
	$(PY) build.py

# the author's loop: build, serve, rebuild what each save changes (one lab: under a second), reload the open page;
# make serve is its other name
dev: setup
	$(PY) scripts/serve.py --dev --port $(PORT)

serve: dev

# Chromium for the browser tests: Debian's if installed, else Playwright's own
# (needs internet: 'playwright install chromium').
browser: setup
	@if command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1; then \
	  echo "browser: $$(command -v chromium || command -v chromium-browser)"; \
	else \
	  echo "chromium non trovato: provo 'playwright install chromium'"; \
	  $(VENV)/bin/playwright install chromium; \
	fi

# the Python with ruff (pyproject.toml: lint and format, zero findings), the browser runtime's JavaScript with
# ESLint (eslint.config.mjs); test-js runs node's test runner on the runtime's pure parts
lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	node_modules/.bin/eslint .

test-js: setup
	node --test tests/js/

# JavaScript first (seconds), then pytest in two processes: every Chromium test in one (one Chromium, one warm
# Pyodide), the Python tests and the other engines (tests/engines: Firefox ESR, WebKitGTK, nginx) in the other
test: lint test-js build browser
	$(PY) -m pytest -n 2

# only the tests that need no browser
test-fast: build
	$(PY) -m pytest -m "not browser and not engines" -n 2

bench: build browser
	$(PY) scripts/bench.py
	$(PY) scripts/bench_limits.py

# a screenshot of every lab, phone and desktop, light and dark, in shots/ (open shots/index.html)
shots: build browser
	$(PY) scripts/shots.py --dark

# how many labs fail each layout check (page width, sideways scroll, text size, overlaps), phone and desktop
layout: build browser
	$(PY) scripts/layout_check.py

# every check of one lab, one summary line each (contract, its tests, its page, layout, axe, edits): make check LAB=<id>
check: build browser
	@test -n "$(LAB)" || { echo "uso: make check LAB=<id del laboratorio>"; exit 2; }
	$(PY) scripts/check_lab.py $(LAB)

clean:
	rm -rf site build dist shots *.egg-info
