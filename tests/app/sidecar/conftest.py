"""Fixtures of the sidecar tests (R58–R60): a temporary folder of their own, a connected client."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.scenario.sidecar_client import SdkClient
from tests.app.conftest import AppFactory, AppUnderTest


@pytest.fixture(autouse=True)
def own_tmpdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The Gemini CLI companion file goes to $TMPDIR/gemini/ide: one of this test's own."""
    folder = tmp_path / "own-tmp"
    folder.mkdir()
    monkeypatch.setenv("TMPDIR", str(folder))
    return folder


@pytest.fixture
def shared(make_app: AppFactory) -> Iterator[tuple[AppUnderTest, SdkClient]]:
    """An app with sharing on and the official MCP SDK's client connected to it."""
    app = make_app()
    app.window.sharing.turn_on()
    server = app.window.sharing.server
    assert server is not None
    client = SdkClient(app.qtbot, server.url, server.token)
    yield app, client
    client.close()
