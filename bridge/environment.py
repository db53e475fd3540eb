"""What the app and the backend both read from the environment and the data folder.

The app reaches a backend it did not start with the same device token the
backend reads, so both take the names from here.
"""

from __future__ import annotations

from typing import Final

DEVICE_TOKEN_ENV: Final = "AMBIENT_DEVICE_TOKEN"
"""The device token (the account), when it is not read from the data folder."""

DATABASE_URL_ENV: Final = "AMBIENT_DATABASE_URL"
"""A SQLAlchemy URL that replaces the SQLite file in the data folder."""

DEVICE_TOKEN_FILE: Final = "device-token"
"""The device token's file in the data folder (created 0600 on the backend's first start)."""

SWEEP_SECONDS_ENV: Final = "AMBIENT_SWEEP_SECONDS"
"""Seconds between the backend's sweeps of expired rows (R41; at most 60)."""

MODEL_BASE_URL_ENV: Final = "AMBIENT_MODEL_BASE_URL"
"""An OpenAI-compatible endpoint: with ``AMBIENT_MODEL``, the model assistant (contract 7)."""

MODEL_ENV: Final = "AMBIENT_MODEL"
"""The model id at that endpoint."""

MODEL_API_KEY_ENV: Final = "AMBIENT_MODEL_API_KEY"
"""Sent as ``Authorization: Bearer``; never a command-line flag, never logged or returned."""
