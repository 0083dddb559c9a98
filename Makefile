# bgcompanion: two commands set everything up on a fresh Debian 12 machine.
#   make test   installs what is missing (apt, .venv, the project), then runs all checks
#   make demo   installs, then runs the companion on the embedded demo
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: all install test lint typecheck pytest demo bench clean

all: test

install: $(STAMP)

$(STAMP): pyproject.toml scripts/install-system.sh
	./scripts/install-system.sh
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev]'
	touch $(STAMP)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: install
	$(BIN)/mypy --strict companion calibration sim

pytest: install
	$(BIN)/pytest -q -n auto --dist loadfile

test: lint typecheck pytest

demo: install
	$(BIN)/bgcompanion run

bench: install
	$(BIN)/python benchmarks/movegen.py
	$(BIN)/python benchmarks/store.py
	$(BIN)/python benchmarks/calibrate.py
	$(BIN)/python benchmarks/drift.py
	$(BIN)/python benchmarks/dice.py
	$(BIN)/python benchmarks/link.py
	$(BIN)/python benchmarks/board.py
	$(BIN)/python benchmarks/occlusion.py
	$(BIN)/python benchmarks/occlusion.py --beside
	$(BIN)/python benchmarks/referee.py
	$(BIN)/python benchmarks/referee.py --noise
	$(BIN)/python benchmarks/real.py --variants
	$(BIN)/python benchmarks/table.py
	$(BIN)/python benchmarks/watchers.py
	$(BIN)/python benchmarks/hall.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
