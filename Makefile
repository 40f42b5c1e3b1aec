# `make run` and `make test` set everything up themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run
CHROMIUM := /usr/bin/chromium
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: setup run test lint bench soak played clean chromium

# the whole toolchain (tests, lint, benchmarks)
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

# only what serving the page needs (`make run`)
$(RUN_STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

setup: $(STAMP)

run: $(RUN_STAMP)
	$(BIN)/survive-us serve --host $(HOST) --port $(PORT) --demo

test: $(STAMP) chromium
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist loadfile

# The page's browser tests drive Debian's chromium (Playwright from PyPI brings no browser).
chromium:
	@test -x $(CHROMIUM) || ! command -v apt-get >/dev/null || { \
		SUDO=$$(test "$$(id -u)" = 0 || echo sudo); \
		echo "installing chromium with apt-get for the page's browser tests"; \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
		$$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
			chromium fonts-dejavu-core >/dev/null; }

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict geometry rules scenarios service ai bench vision i18n

bench: $(STAMP)
	MALLOC_TRIM_THRESHOLD_=134217728 MALLOC_MMAP_THRESHOLD_=16777216 \
		$(BIN)/python -m bench --out docs/benchmarks.md

soak: $(STAMP)
	SOAK_GAMES=2000 $(BIN)/python -m pytest -q tests/test_random_play.py

# every recorded game played again (the suite plays a part of them: tests/test_played_games.py)
played: $(STAMP)
	SURVIVE_US_PLAYED=all $(BIN)/python -m pytest -q -n auto --maxprocesses 4 tests/test_played_games.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
