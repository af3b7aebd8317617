# Two commands matter on a fresh machine: `make run` and `make test`.
# Everything they need is installed here, idempotently, into .venv and
# client_web/node_modules (and, for the tests, chromium and nginx via apt-get).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed-stamp
NODE_STAMP := client_web/node_modules/.installed-stamp
# Each page's script bundled into one file (client_web/build/bundle.mjs), built again
# whenever a client file changes; the server serves the modules one by one while it is not
# fresh (server/edge/bundle.py).
BUNDLE := client_web/.bundle/manifest.json
CLIENT_SOURCES := $(wildcard client_web/*.mjs client_web/i18n/*.mjs)

.PHONY: run test setup bundle lint typecheck conformance test-js test-py system-deps bench clean

setup: $(STAMP) $(NODE_STAMP) $(BUNDLE)

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e ".[dev]"
	touch $(STAMP)

$(NODE_STAMP): client_web/package.json
	cd client_web && npm install --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

bundle: $(BUNDLE)

$(BUNDLE): $(NODE_STAMP) $(CLIENT_SOURCES) client_web/build/bundle.mjs
	cd client_web && npm run --silent bundle

## Run the server (one process, embedded store) and print the URL to open.
run: setup
	$(PY) -m server --log-format text

## Install everything the tests need, then run the whole suite.
test: setup system-deps lint typecheck conformance test-js test-py

system-deps:
	@bash tests/install_system_deps.sh

lint: $(STAMP)
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: $(STAMP)
	$(PY) -m mypy

conformance: $(STAMP)
	$(PY) -m server.rules.conformance tests/conformance

test-js: $(NODE_STAMP)
	cd client_web && ./node_modules/.bin/tsc -p jsconfig.json
	node --test client_web/tests/

# The suite starts a few hundred Python processes (servers, nodes, their workers, fuzz
# runs) that import the same modules, and pytest rewrites every test module's asserts:
# compiled once into a cache under .venv (none in the source tree), they are loaded, not
# compiled again, even where the environment says not to write bytecode.
# Most of a test's time is spent waiting on its servers, browsers and sockets (a serial run
# keeps one core about half busy), so pytest-xdist runs the tests in PYTEST_WORKERS
# processes, each test free to go to whichever is idle (worksteal). Every test already
# starts its own servers, Redis and nginx on free ports. PYTEST_WORKERS=0 runs serially.
# On two cores two workers left the machine idle a quarter of the time (waits on clocks,
# sockets and page loads: 477 of 1 673 core-seconds); three keep it busy nine tenths of
# the time and finish the suite 13 % sooner (693 s against 808 s on the same machine).
# The run ends with its 25 slowest tests, where to look first when the suite grows long.
PYTEST_WORKERS ?= 3
test-py: $(STAMP) $(BUNDLE)
	PYTHONDONTWRITEBYTECODE= PYTHONPYCACHEPREFIX="$(abspath $(VENV))/pycache" $(PY) -m pytest -q -n $(PYTEST_WORKERS) --dist worksteal --durations=25

## Coverage-guided fuzzing: every atheris target for FUZZ_SECONDS (see tests/fuzz/README.md).
FUZZ_SECONDS ?= 300
.PHONY: fuzz-atheris
fuzz-atheris: $(STAMP)
	@for target in decoder trajectory referee table; do \
		$(PY) -m tests.fuzz.atheris_run $$target --seconds $(FUZZ_SECONDS) || exit 1; \
	done

## Quick benchmarks (see bench/README.md for the long ones: pooltool, load, soak).
bench: setup
	$(PY) bench/physics_bench.py
	$(PY) bench/shot_latency.py --shots 300

clean:
	rm -rf $(VENV) client_web/node_modules client_web/.bundle .mypy_cache .ruff_cache .pytest_cache
