# Set-up is part of every target: a fresh clone needs only Python 3.11+, make and git.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.installed
ROM ?=
ARGS ?=
# pytest-xdist workers: the suite is CPU-bound, and Ray's tests keep to one of them (tests/conftest.py).
TEST_WORKERS ?= 2

.PHONY: run test lint setup clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11 or newer is needed (found " + sys.version.split()[0] + "); set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	@if [ -z "$(ROM)" ]; then echo "usage: make run ROM=path/to/pokemon_red.gb" >&2; exit 2; fi
	$(VENV)/bin/engine run --rom "$(ROM)" $(ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check engine tests benchmarks
	$(VENV)/bin/ruff format --check engine tests benchmarks
	$(VENV)/bin/mypy

test: lint
	$(VENV)/bin/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

clean:
	rm -rf $(VENV) *.egg-info .pytest_cache .ruff_cache .mypy_cache
