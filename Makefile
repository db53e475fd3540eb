# The whole set-up is `make run` or `make test`: each creates .venv when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

MODEL_INSTALLED := $(VENV)/.model-installed
MODEL_SERVER := $(PY) scripts/model_server.py run --log out/model-server.log --

.PHONY: run test test-postgres test-model run-model lint bench stress demo screenshots clean

$(INSTALLED): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev,postgres]'
	touch $(INSTALLED)

# llama-cpp-python has no binary wheel: pip builds it once (about 11 minutes on 2 cores)
# and reuses the built wheel from its cache afterwards. Portable: no -march=native.
$(MODEL_INSTALLED): $(INSTALLED)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(PY) -m pip install --quiet --disable-pip-version-check \
		-e '.[dev,postgres,model-server]'
	touch $(MODEL_INSTALLED)

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

# The model-assistant tests against a real model server on loopback; a missing server fails.
test-model: $(MODEL_INSTALLED)
	QT_QPA_PLATFORM=offscreen AMBIENT_TEST_MODEL_REQUIRED=1 $(MODEL_SERVER) \
		$(VENV)/bin/pytest -m model tests/model

# The app with the bundled small model answering: the pointer, the tool call, the stream.
run-model: $(MODEL_INSTALLED)
	$(PY) -m app.system_packages
	$(MODEL_SERVER) $(PY) -m app --model-base-url '{base_url}' --model '{model}'

# The README's pictures of the offline assistant, made offscreen from the demo workspace.
screenshots: $(INSTALLED)
	$(PY) -m app.screenshot docs/screenshot.png
	$(PY) -m app.screenshot docs/offline-assistant.png --part assistant --size 1360x1000 \
		--no-details --message "what's still open here?" \
		--message "where do I mention the dentist?" --message "やることは何が残ってる？" \
		--message "résume cette note"
	$(PY) -m app.screenshot docs/proposal.png --part assistant --size 1360x820 --no-details \
		--message "tick off watering the plants" --message "add a task: buy milk"

bench: $(INSTALLED)
	QT_QPA_PLATFORM=offscreen $(PY) -m benchmarks

# The reliability suite at full size (minutes); prints one figure per part, fails on any loss.
stress: $(INSTALLED)
	$(PY) -m tests.stress

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache

demo: $(INSTALLED)
	QT_QPA_PLATFORM=offscreen $(PY) -m app scenario demo --out out/demo
