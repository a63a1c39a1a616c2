PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint bench docs samples screenshot clean fuzz fuzz-sample

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/foldctl show sample_checkpoints/nested_chain.json
	@echo
	@echo '$$ foldctl grep -F pending_approval sample_checkpoints/nested_chain.json'
	@$(BIN)/foldctl grep -F pending_approval sample_checkpoints/nested_chain.json

test: $(STAMP)
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check foldctl tests scripts tools
	$(BIN)/ruff format --check foldctl tests scripts tools
	$(BIN)/mypy

samples: $(STAMP)
	$(BIN)/python scripts/make_samples.py sample_checkpoints
	$(BIN)/python scripts/make_store.py sample_checkpoints/sessions.db

docs: $(STAMP)
	$(BIN)/python scripts/update_readme.py

screenshot: $(STAMP)
	FOLDCTL_UPDATE_SCREENSHOT=1 $(BIN)/pytest tests/test_report_browser.py -k screenshot

bench: $(STAMP)
	$(BIN)/python scripts/bench.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache

# The mutation fuzzer (docs/fuzzing.md): N mutants from SEED, reproducers in fuzz-out/.
N      ?= 2000
SEED   ?= 1
JOBS   ?= 2
FUZZ_ARGS ?=

fuzz: $(STAMP)
	$(BIN)/python -m tools.fuzz run -n $(N) --seed $(SEED) --jobs $(JOBS) $(FUZZ_ARGS)

fuzz-sample: $(STAMP)
	$(BIN)/pytest tests/fuzz -m fuzz
