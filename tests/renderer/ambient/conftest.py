"""Every core test leaves no thread behind (flush threads included)."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from tests.renderer.ambient.fakes import join_new_threads


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    before = set(threading.enumerate())
    yield
    assert join_new_threads(before) == []
