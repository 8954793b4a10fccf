# The two commands of the README: `make run` and `make test`. Both create the virtual
# environment and install what they need on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run match test bench bench-bots bench-server format clean

$(STAMP): pyproject.toml
	./scripts/setup-venv

run: $(STAMP)
	$(BIN)/burraco serve

match: $(STAMP)
	$(BIN)/burraco play --players 2 --bots heuristic,greedy --smazzate 3

test:
	./scripts/test

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
