# The whole set-up is `make run` or `make test`: each creates .venv when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

.PHONY: run test test-postgres lint bench stress demo clean

$(INSTALLED): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev,postgres]'
	touch $(INSTALLED)

run: $(INSTALLED)
	$(PY) -m app.system_packages
	$(PY) -m app

lint: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

# Under CI=true the PostgreSQL tests are left to test-postgres, which .ci/run runs next;
# elsewhere they run when AMBIENT_DATABASE_URL names a server, else skip saying why.
test: lint
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/pytest $(if $(filter true,$(CI)),-m 'not postgres')

# The backend suite and the two-instance test on a throwaway PostgreSQL server.
test-postgres: $(INSTALLED)
	scripts/postgres.sh start >/dev/null
	url="$$(scripts/postgres.sh url)"; \
	AMBIENT_DATABASE_URL="$$url" QT_QPA_PLATFORM=offscreen $(VENV)/bin/pytest tests/workers; \
	status=$$?; scripts/postgres.sh stop; exit $$status

bench: $(INSTALLED)
	QT_QPA_PLATFORM=offscreen $(PY) -m benchmarks

# The reliability suite at full size (minutes); prints one figure per part, fails on any loss.
stress: $(INSTALLED)
	$(PY) -m tests.stress

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache

demo: $(INSTALLED)
	QT_QPA_PLATFORM=offscreen $(PY) -m app scenario demo --out out/demo
