# Two commands for a new user: `make demo` and `make test`. Each bootstraps .venv with what
# it needs, using any Python 3.10+ (override with PYTHON=...).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test bench lint clean

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 10), "weft needs Python 3.10+"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.demo: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e '.[bench]'
	touch $@

$(VENV)/.test: $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install -q -e '.[test,bench,dask]' ruff
	touch $@

demo: $(VENV)/.demo
	$(BIN)/python -m weft

test: $(VENV)/.test
	$(BIN)/python -m pytest -q -n auto tests

bench: $(VENV)/.test
	$(BIN)/python benchmarks/run.py

lint: $(VENV)/.test
	$(BIN)/ruff check src tests benchmarks

clean:
	rm -rf $(VENV)
