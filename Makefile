# The two commands of the README: `make run` and `make test`. Both create the virtual
# environment and install what they need on first use. `make test-deep` is `make test` with the
# randomised tests at their full depth, `make soak` the cluster's failure scenarios at their
# long form (tests/depth.py: BURRACO_TEST_DEPTH).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run match test test-deep soak bench bench-bots bench-server format clean

$(STAMP): pyproject.toml
	./scripts/setup-venv

run: $(STAMP)
	$(BIN)/burraco serve

match: $(STAMP)
	$(BIN)/burraco play --players 2 --bots heuristic,greedy --smazzate 3

test:
	./scripts/test

test-deep:
	BURRACO_TEST_DEPTH=deep ./scripts/test

soak:
	BURRACO_TEST_DEPTH=soak ./scripts/soak

bench: $(STAMP)
	./scripts/bench

bench-bots: $(STAMP)
	$(BIN)/python bench/bots_bench.py speed
	$(BIN)/python bench/bots_bench.py arena

bench-server: $(STAMP)
	./scripts/bench-server

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
