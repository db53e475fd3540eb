"""Start the real backend (``python -m workers serve``) in a subprocess for end-to-end tests.

The process gets a temporary data folder, a fresh device token and a free port; the
fixture waits for its ``workers listening on`` line (no polling, no sleeps) and
terminates it in teardown.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Mapping, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from bridge.environment import DEVICE_TOKEN_ENV
from workers.settings import WORKSPACES_FOLDER

LISTENING_PREFIX = "workers listening on "
START_TIMEOUT_SECONDS = 30.0
STOP_TIMEOUT_SECONDS = 10.0


@dataclass(frozen=True)
class RunningBackend:
    url: str
    token: str
    data_dir: Path
    process: subprocess.Popen[str]
    errors: IO[str] | None = None

    def stderr_text(self) -> str:
        """What the server has written to stderr so far (its log: warnings, tracebacks)."""
        if self.errors is None:
            return ""
        self.errors.flush()
        self.errors.seek(0)
        return self.errors.read()

    @property
    def auth(self) -> dict[str, str]:
        """The Authorization header for this backend's device token."""
        return {"Authorization": f"Bearer {self.token}"}

    def error_output(self) -> str:
        """What the process wrote to stderr so far."""
        if self.errors is None:
            return ""
        self.errors.flush()
        self.errors.seek(0)
        return self.errors.read()


def make_workspace(data_dir: Path, workspace_id: str, files: Mapping[str, str]) -> Path:
    """Create ``DIR/workspaces/<id>`` holding ``files`` (workspace path → UTF-8 text)."""
    root = data_dir / WORKSPACES_FOLDER / workspace_id
    root.mkdir(parents=True, exist_ok=True)
    for relative, text in files.items():
        target = root.joinpath(*relative.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(text.encode("utf-8"))
    return root


def _read_listening_line(process: subprocess.Popen[str]) -> str:
    """The first stdout line, or an error when the process exits or stays silent too long."""
    assert process.stdout is not None
    lines: list[str] = []
    arrived = threading.Event()

    def reader() -> None:
        assert process.stdout is not None
        lines.append(process.stdout.readline())
        arrived.set()

    thread = threading.Thread(target=reader, name="backend-stdout", daemon=True)
    thread.start()
    if not arrived.wait(START_TIMEOUT_SECONDS):
        raise RuntimeError("The backend did not announce that it was listening in time.")
    thread.join()
    return lines[0]


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(STOP_TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stdout is not None:
        process.stdout.close()


def _serve_command(data_dir: Path, extra_args: Sequence[str]) -> list[str]:
    return [
        sys.executable,
        "-m",
        "workers",
        "serve",
        "--data-dir",
        str(data_dir),
        "--port",
        "0",
        *extra_args,
    ]


_SERVE_ON_SIGNAL = """
import sys
from workers.__main__ import main
print("ready", flush=True)
sys.stdin.readline()
sys.exit(main(sys.argv[1:]))
"""
"""``python -m workers`` with its imports done before it waits for the go: a true joint start."""


@contextmanager
def start_backend_processes(
    data_dir: Path, count: int, *, env: Mapping[str, str] | None = None
) -> Iterator[list[RunningBackend]]:
    """Start ``count`` backends on ``data_dir`` at the same moment; yield them once all listen.

    Each process loads the code first and then waits; all are released together, so
    they open (and migrate) the database at once. A process that fails to start makes
    this raise with its stderr.
    """
    environment = {**os.environ, **(env or {})}
    token = (env or {}).get(DEVICE_TOKEN_ENV) or secrets.token_urlsafe(24)
    environment[DEVICE_TOKEN_ENV] = token
    with ExitStack() as stack:
        launched: list[tuple[subprocess.Popen[str], IO[str]]] = []
        for _ in range(count):
            error_file: IO[str] = stack.enter_context(
                tempfile.TemporaryFile("w+", encoding="utf-8")
            )
            process = subprocess.Popen(
                [sys.executable, "-c", _SERVE_ON_SIGNAL, *_serve_command(data_dir, ())[3:]],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=error_file,
                text=True,
                encoding="utf-8",
                env=environment,
            )
            stack.callback(_stop, process)
            launched.append((process, error_file))
        for process, _errors in launched:
            if _read_listening_line(process) != "ready\n":
                raise RuntimeError("A backend process failed before it was released.")
        for process, _errors in launched:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.close()
        running = []
        for process, errors in launched:
            line = _read_listening_line(process)
            if not line.startswith(LISTENING_PREFIX):
                process.wait(STOP_TIMEOUT_SECONDS)
                errors.seek(0)
                raise RuntimeError(f"A backend did not start: {line!r}\n{errors.read()}")
            url = line[len(LISTENING_PREFIX) :].strip()
            running.append(RunningBackend(url, token, data_dir, process, errors))
        yield running


@contextmanager
def start_backend_process(
    data_dir: Path,
    *,
    extra_args: Sequence[str] = (),
    env: Mapping[str, str] | None = None,
) -> Iterator[RunningBackend]:
    """Run ``python -m workers serve --data-dir DIR --port 0`` until the block ends."""
    environment = {**os.environ, **(env or {})}
    token = (env or {}).get(DEVICE_TOKEN_ENV) or secrets.token_urlsafe(24)
    environment[DEVICE_TOKEN_ENV] = token
    command = _serve_command(data_dir, extra_args)
    # A file, not a pipe, for stderr: nobody drains it while the tests run.
    with tempfile.TemporaryFile("w+", encoding="utf-8") as errors:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=errors,
            text=True,
            encoding="utf-8",
            env=environment,
        )
        try:
            line = _read_listening_line(process)
            if not line.startswith(LISTENING_PREFIX):
                _stop(process)
                errors.seek(0)
                raise RuntimeError(f"The backend did not start: {line!r}\n{errors.read()}")
            url = line[len(LISTENING_PREFIX) :].strip()
            yield RunningBackend(
                url=url, token=token, data_dir=data_dir, process=process, errors=errors
            )
        finally:
            _stop(process)
