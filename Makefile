# The two commands of the README: `make run` and `make test`. Both create the virtual
# environment and install what they need on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench lint format clean

$(STAMP): pyproject.toml
	./scripts/setup-venv

run: $(STAMP)
	$(BIN)/burraco play --players 2 --bots greedy,random --smazzate 3

test:
	./scripts/test

bench: $(STAMP)
	./scripts/bench

format: $(STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
