# Two commands on a fresh machine: `make demo` and `make test`. Everything else is installed here.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test bench lint

setup: $(STAMP)

# Reinstall only when the project's dependency list changed.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

demo: setup
	$(BIN)/python -m ec2audit.demo --out demo-out

test: setup
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python benchmarks/audit_throughput.py

lint: setup
	$(BIN)/ruff check ec2audit tests benchmarks
	$(BIN)/ruff format --check ec2audit tests benchmarks
