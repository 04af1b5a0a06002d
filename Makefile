# `make run` starts the bot, `make test` runs the checks: both create .venv from uv.lock first.
# A machine needs Python 3.11+ and make; uv (the installer that reads the lock) is put into .venv with pip.
PYTHON ?= python3
VENV ?= .venv
UV_VERSION := 0.13.9
BIN := $(VENV)/bin
# uv reads none of pip's configuration: it installs exactly what uv.lock names, from PyPI, compiled to bytecode
# once, so the processes the tests start don't each compile every library they import.
UV := UV_PROJECT_ENVIRONMENT=$(VENV) UV_PYTHON_DOWNLOADS=never UV_COMPILE_BYTECODE=1 $(BIN)/uv
# The project's own modules are compiled once too, even where the environment says not to write bytecode.
export PYTHONDONTWRITEBYTECODE :=
# Four test workers, even on two cores: most of a test's time is spent waiting (on sockets, child processes and
# timers), and on a 2-core machine four workers finish the suite in about two thirds of the time two take.
WORKERS ?= 4

.PHONY: install run test lint check docs docs-examples bench lock clean

$(BIN)/uv:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -qq --disable-pip-version-check "uv==$(UV_VERSION)"

$(VENV)/.installed: pyproject.toml uv.lock | $(BIN)/uv
	$(UV) sync --locked --quiet
	touch $@

install: $(VENV)/.installed

run: $(VENV)/.installed
	$(BIN)/cyclebot run

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

test: lint
	$(BIN)/pytest -n $(WORKERS)

# The core alone (rules, cards, card data, goldfish engine): no PostgreSQL, no wire tests, under a minute.
check: $(VENV)/.installed
	$(BIN)/pytest -n $(WORKERS) -m "not discord and not postgres and not wire and not slow" \
		tests/rules tests/documents tests/judge tests/carddb tests/cards tests/goldfish tests/test_layers.py

# The site in site/ (the dev group includes the docs tools). The theme's banner about its successor is noise here.
docs: $(VENV)/.installed
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict

# The example outputs in README.md and docs/, run again from the code (a test fails when a page drifts).
docs-examples: $(VENV)/.installed
	$(BIN)/python -m tests.docs.examples

bench: $(VENV)/.installed
	$(BIN)/python benchmarks/run_all.py

# After changing dependencies in pyproject.toml: resolve them again into uv.lock (commit both).
lock: | $(BIN)/uv
	$(UV) lock

clean:
	rm -rf $(VENV) site
