"""Fixtures for the bridge tests: the real backend process on loopback, and clients of it."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from bridge.client import BackendClient
from tests.renderer.ambient.fakes import join_new_threads
from tests.support.backend import RunningBackend, make_workspace, start_backend_process
from workers.settings import WORKSPACES_FOLDER


@pytest.fixture(scope="module")
def backend(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningBackend]:
    """One real ``python -m workers serve`` per test module."""
    with start_backend_process(tmp_path_factory.mktemp("backend")) as running:
        yield running


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    """Flush threads, relays and one-shot servers are all gone when a test ends."""
    before = set(threading.enumerate())
    yield
    assert join_new_threads(before) == []


@pytest.fixture
def client(backend: RunningBackend) -> Iterator[BackendClient]:
    with BackendClient(backend.url, backend.token) as opened:
        yield opened


@pytest.fixture
def workspace_factory(backend: RunningBackend) -> WorkspaceFactory:
    return WorkspaceFactory(backend.data_dir)


class WorkspaceFactory:
    """Makes a fresh workspace with a unique id on the backend's disk."""

    def __init__(self, data_dir: Path) -> None:
        self.data_dir = data_dir

    def __call__(self, files: dict[str, str] | None = None) -> str:
        workspace = f"ws-{uuid.uuid4().hex[:12]}"
        make_workspace(self.data_dir, workspace, files or {})
        return workspace

    def root(self, workspace: str) -> Path:
        return self.data_dir / WORKSPACES_FOLDER / workspace
