PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint bench docs samples clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/foldctl show sample_checkpoints/nested_chain.json
	$(BIN)/foldctl expand sample_checkpoints/nested_chain.json --depth 1

test: $(STAMP)
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check foldctl tests scripts
	$(BIN)/ruff format --check foldctl tests scripts
	$(BIN)/mypy

samples: $(STAMP)
	$(BIN)/python scripts/make_samples.py sample_checkpoints

docs: $(STAMP)
	$(BIN)/python scripts/update_readme.py

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
