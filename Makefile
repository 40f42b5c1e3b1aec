# `make run` and `make test` set everything up themselves on a fresh machine.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup run test lint bench soak clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(BIN)/survive-us serve --host 127.0.0.1 --port 8000 --demo

test: $(STAMP)
	$(BIN)/python -m pytest -q

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy --strict geometry rules scenarios service ai bench

bench: $(STAMP)
	MALLOC_TRIM_THRESHOLD_=134217728 MALLOC_MMAP_THRESHOLD_=16777216 \
		$(BIN)/python -m bench --out docs/benchmarks.md

soak: $(STAMP)
	SOAK_GAMES=2000 $(BIN)/python -m pytest -q tests/test_random_play.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
