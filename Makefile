PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: demo test lint bench claims-score claims-heldout docs samples screenshot clean fuzz fuzz-sample

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev,fleet,mcp]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/foldctl show sample_checkpoints/nested_chain.json
	@echo
	@echo '$$ foldctl grep -F pending_approval sample_checkpoints/nested_chain.json'
	@$(BIN)/foldctl grep -F pending_approval sample_checkpoints/nested_chain.json

test: $(STAMP)
	$(BIN)/pytest

lint: $(STAMP)
	$(BIN)/ruff check foldctl tests tools
	$(BIN)/ruff format --check foldctl tests tools
	$(BIN)/mypy

samples: $(STAMP)
	$(BIN)/python -m tools.make_samples sample_checkpoints
	$(BIN)/python -m tools.make_store sample_checkpoints/sessions.db

docs: $(STAMP)
	$(BIN)/python -m tools.update_readme

screenshot: $(STAMP)
	FOLDCTL_UPDATE_SCREENSHOT=1 $(BIN)/pytest tests/cli/test_report_browser.py -k screenshot

claims-score: $(STAMP)
	$(BIN)/python -m tools.claims_score

# The held-out families (tools/claims_heldout/README.md): scored, never tuned on.
claims-heldout: $(STAMP)
	$(BIN)/python -m tools.claims_heldout

# ripgrep is a contender in the fleet and session-folder benchmarks: installed when missing
# (as root, with apt).
bench: $(STAMP)
	@command -v rg >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null \
		&& apt-get update -qq && apt-get install -y -q ripgrep >/dev/null; } || echo "ripgrep not installed: the grep comparison is left out"
	$(BIN)/python -m tools.bench $(BENCH_ARGS)

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
