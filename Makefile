# The whole set-up is `make run` or `make test`: each creates .venv when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run test lint bench stress demo clean

$(INSTALLED): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(INSTALLED)

run: $(INSTALLED)
	$(PY) -m app.system_packages
	$(PY) -m app

lint: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: lint
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/pytest

bench: $(INSTALLED)
	QT_QPA_PLATFORM=offscreen $(PY) -m benchmarks

# The reliability suite at full size (minutes); prints one figure per part, fails on any loss.
stress: $(INSTALLED)
	$(PY) -m tests.stress

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache

demo: $(INSTALLED)
	QT_QPA_PLATFORM=offscreen $(PY) -m app scenario demo --out out/demo
