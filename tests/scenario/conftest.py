"""Fixtures for the scenario tests: windows a test drives come from the app's ``make_app``."""

from __future__ import annotations

from tests.app.conftest import make_app

__all__ = ["make_app"]
