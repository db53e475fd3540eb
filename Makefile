# The whole set-up is `make run` or `make test`: each creates .venv when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

MODEL_INSTALLED := $(VENV)/.model-installed
MODEL_SERVER := $(PY) scripts/model_server.py run --log out/model-server.log --

.PHONY: run test lint bench demo clean test-model run-model

$(INSTALLED): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(INSTALLED)

# llama-cpp-python has no binary wheel: pip builds it once (about 11 minutes on 2 cores)
# and reuses the built wheel from its cache afterwards. Portable: no -march=native.
$(MODEL_INSTALLED): $(INSTALLED)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(PY) -m pip install --quiet --disable-pip-version-check \
		-e '.[dev,model-server]'
	touch $(MODEL_INSTALLED)

run: $(INSTALLED)
	$(PY) -m app

lint: $(INSTALLED)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

test: lint
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/pytest

# The model-assistant tests against a real model server on loopback; a missing server fails.
test-model: lint $(MODEL_INSTALLED)
	QT_QPA_PLATFORM=offscreen AMBIENT_TEST_MODEL_REQUIRED=1 $(MODEL_SERVER) \
		$(VENV)/bin/pytest -m model tests/model

# The app with the bundled small model answering: the pointer, the tool call, the stream.
run-model: $(MODEL_INSTALLED)
	$(MODEL_SERVER) $(PY) -m app --model-base-url '{base_url}' --model '{model}'

bench: $(INSTALLED)
	QT_QPA_PLATFORM=offscreen $(PY) -m benchmarks

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache

demo: $(INSTALLED)
	QT_QPA_PLATFORM=offscreen $(PY) -m app scenario demo --out out/demo
