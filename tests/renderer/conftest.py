"""Fixtures for the renderer tests.

Widgets are tested against a store with fakes where the window is not the point;
where it is, the window comes from the app's one factory, ``make_app``, with its
leak checks.
"""

from __future__ import annotations

from tests.app.conftest import make_app

__all__ = ["make_app"]
