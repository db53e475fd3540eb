# The whole set-up is `make run` or `make test`: each creates .venv when it is missing.
PYTHON ?= python3
SHELL := /bin/bash  # PIPESTATUS: a failed install fails the target through the filters
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed

MODEL_INSTALLED := $(VENV)/.model-installed
MODEL_SERVER := $(PY) scripts/model_server.py run --log out/model-server.log --

# The Gemini CLI's own IDE client for the sidecar tests (R58-R60), installed by npm from
# the committed lock file into the folder beside it (ignored by git).
GEMINI_CLIENT := tests/sidecar/gemini
GEMINI_INSTALLED := $(GEMINI_CLIENT)/node_modules/.installed
NPM_CI := npm ci --ignore-scripts --omit=optional --no-audit --no-fund --loglevel=error

.PHONY: bytecode run test test-postgres test-model test-mcp-clients run-model lint bench bench-peer stress demo qa screenshots clean

# The first run installs for a minute or two: say so, and show pip's lines as it goes.
$(INSTALLED): pyproject.toml
	@echo "Setting up Ambient Notes in $(VENV): the first time takes a minute or two (later runs skip this)."
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@PYTHONUNBUFFERED=1 $(PY) -m pip install --disable-pip-version-check --progress-bar off -e '.[dev,postgres]' \
		| grep --line-buffered -E '^(Collecting|Installing collected|Successfully installed)' \
		| sed -u -e 's/^Collecting \([^ ]*\).*/  getting \1/' -e 's/^Installing collected.*/  installing…/' \
			-e 's/^Successfully installed.*/  installed./'; test $${PIPESTATUS[0]} -eq 0
	@touch $(INSTALLED)
	@echo "Set up."

# llama-cpp-python has no binary wheel: pip builds it once (about 11 minutes on 2 cores)
# and reuses the built wheel from its cache afterwards. Portable: no -march=native.
$(MODEL_INSTALLED): $(INSTALLED)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(PY) -m pip install --quiet --disable-pip-version-check \
		-e '.[dev,postgres,model-server]'
	touch $(MODEL_INSTALLED)

# Where PYTHONDONTWRITEBYTECODE is set, Python compiles every module afresh at each start;
# compiled here once (and again only for what changed), start-up is half a second shorter.
bytecode: $(INSTALLED)
	$(PY) -m compileall -q -j 0 app bridge renderer workers

run: bytecode
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
	if command -v node >/dev/null 2>&1; then $(MAKE) --no-print-directory $(GEMINI_INSTALLED); fi
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/pytest $(if $(filter true,$(CI)),-m 'not postgres')

# The backend suite and the two-instance test on a throwaway PostgreSQL server.
test-postgres: $(INSTALLED)
	scripts/postgres.sh start >/dev/null
	url="$$(scripts/postgres.sh url)"; \
	AMBIENT_DATABASE_URL="$$url" QT_QPA_PLATFORM=offscreen $(VENV)/bin/pytest tests/workers; \
	status=$$?; scripts/postgres.sh stop; exit $$status

$(GEMINI_INSTALLED): $(GEMINI_CLIENT)/package.json $(GEMINI_CLIENT)/package-lock.json
	cd $(GEMINI_CLIENT) && $(NPM_CI)
	touch $(GEMINI_INSTALLED)

# The sidecar against real MCP clients: the official SDK's and the Gemini CLI's own IDE
# client. Without node this fails: CI must run them.
test-mcp-clients: $(INSTALLED)
	@command -v node >/dev/null 2>&1 || { echo "make test-mcp-clients needs node (and npm)."; exit 1; }
	$(MAKE) --no-print-directory $(GEMINI_INSTALLED)
	QT_QPA_PLATFORM=offscreen AMBIENT_TEST_MCP_CLIENTS_REQUIRED=1 $(VENV)/bin/pytest \
		tests/app/sidecar

# The model-assistant tests against a real model server on loopback; a missing server fails.
test-model: $(MODEL_INSTALLED)
	QT_QPA_PLATFORM=offscreen AMBIENT_TEST_MODEL_REQUIRED=1 $(MODEL_SERVER) \
		$(VENV)/bin/pytest -m model tests/model

# The app with the bundled small model answering: the pointer, the tool call, the stream.
run-model: $(MODEL_INSTALLED) bytecode
	$(PY) -m app.system_packages
	$(MODEL_SERVER) $(PY) -m app --model-base-url '{base_url}' --model '{model}'

# The README's pictures of the offline assistant, made offscreen from the demo workspace,
# the main window in the light and the dark colour scheme (R82).
screenshots: $(INSTALLED)
	$(PY) -m app.screenshot docs/screenshot.png --scheme light
	$(PY) -m app.screenshot docs/screenshot-dark.png --scheme dark
	$(PY) -m app.screenshot docs/offline-assistant.png --part assistant --size 1360x1000 \
		--no-details --message "what's still open here?" \
		--message "where do I mention the dentist?" --message "やることは何が残ってる？" \
		--message "résume cette note"
	$(PY) -m app.screenshot docs/proposal.png --part assistant --size 1360x820 --no-details \
		--message "tick off watering the plants" --message "add a task: buy milk"

bench: bytecode
	QT_QPA_PLATFORM=offscreen $(PY) -m benchmarks

# The app against ReText 8.1.0, installed once into .bench-peer/venv (never a dependency):
# start-up, idle memory and a 5 MiB preview, sides alternated (benchmarks/peer.py).
bench-peer: bytecode
	$(PY) -m benchmarks.peer

# The reliability suite at full size (minutes); prints one figure per part, fails on any loss.
stress: $(INSTALLED)
	$(PY) -m tests.stress

clean:
	rm -rf $(VENV) .bench-peer out .pytest_cache .mypy_cache .ruff_cache $(GEMINI_CLIENT)/node_modules

demo: bytecode
	QT_QPA_PLATFORM=offscreen $(PY) -m app scenario demo --out out/demo

# QA's CI job (R79, R89): every shipped scenario, the JUnit XML and one HTML report into out/qa/.
# QA_FILES picks the files or folders: make qa QA_FILES="my-cases scenarios/demo";
# QA_ARGS narrows them: make qa QA_ARGS="-k popped" or QA_ARGS="--rules R29".
# The run's own exit code (1: a scenario failed, 2: a file is not valid) is written to
# $(QA_OUT)/exit-code and said on the last line; make itself ends with 2 whenever it fails.
QA_FILES ?= scenarios scenarios/demo
QA_ARGS ?=
QA_OUT ?= out/qa
qa: bytecode
	@mkdir -p $(QA_OUT); \
	QT_QPA_PLATFORM=offscreen $(PY) -m app scenario run $(QA_FILES) \
		--junit $(QA_OUT)/junit.xml --html $(QA_OUT)/report.html --report $(QA_OUT)/report.json \
		$(QA_ARGS); \
	code=$$?; echo $$code > $(QA_OUT)/exit-code; \
	case $$code in 0) ;; 1) echo "make qa: exit 1, a scenario failed (see $(QA_OUT)/report.html)";; \
		2) echo "make qa: exit 2, a scenario file is not valid or nothing was selected";; \
		*) echo "make qa: exit $$code";; esac; \
	exit $$code
