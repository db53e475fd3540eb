"""Backend settings: data folder, identity, storage and the injected clock."""

from __future__ import annotations

import os
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bridge.contract import ACCESS_TTL, LONGEST_SWEEP_INTERVAL
from bridge.environment import (
    DATABASE_URL_ENV,
    DEVICE_TOKEN_ENV,
    DEVICE_TOKEN_FILE,
    MODEL_API_KEY_ENV,
    MODEL_BASE_URL_ENV,
    MODEL_ENV,
    SWEEP_SECONDS_ENV,
)
from bridge.private_files import PRIVATE_FILE_MODE, OwnFileRefused, make_folders, read_own_file

HEADER_TIMEOUT_SECONDS = 10.0
"""R44: a request's headers must all arrive within this time."""
BODY_TIMEOUT_SECONDS = 60.0
"""R44: a request's whole body must arrive within this time after the app asks for it."""
IDLE_TIMEOUT_SECONDS = 5
"""R44: a kept-alive connection with no new request is closed after this time."""

SWEEP_INTERVAL = timedelta(seconds=30)
"""Time between sweeps of expired rows; with a sweep's own run time, inside R41's minute."""

MODEL_READ_TIMEOUT_SECONDS = 120.0
"""Between two pieces of a model's answer; small local models on a CPU can be slow."""

DATABASE_FILE = "ambient.db"
WORKSPACES_FOLDER = "workspaces"


def utc_now() -> datetime:
    """The real clock, always timezone-aware UTC."""
    return datetime.now(UTC)


@dataclass
class Settings:
    """Everything the backend needs to start; tests override any field."""

    data_dir: Path
    device_token: str | None = None
    database_url: str | None = None
    save_delay_seconds: float = 0.0
    load_delay_seconds: float = 0.0
    workspace_roots: dict[str, Path] = field(default_factory=dict)
    clock: Callable[[], datetime] = utc_now
    key_session_ttl: timedelta = ACCESS_TTL
    delivery_ttl: timedelta = ACCESS_TTL
    header_timeout_seconds: float = HEADER_TIMEOUT_SECONDS
    body_timeout_seconds: float = BODY_TIMEOUT_SECONDS
    idle_timeout_seconds: int = IDLE_TIMEOUT_SECONDS
    sweep_interval: timedelta | None = None
    # The model assistant (contract 7); without a base URL and a model, the offline one.
    model_base_url: str | None = None
    model: str | None = None
    model_api_key: str | None = field(default=None, repr=False)
    model_read_timeout_seconds: float = MODEL_READ_TIMEOUT_SECONDS
    # Tests against a real small model force the first tool for determinism (contract 9);
    # the product always lets the model choose.
    model_first_tool_choice: str = "auto"
    # R65: only loopback Host headers are served unless the backend was started with --host.
    any_host: bool = False

    @property
    def workspaces_dir(self) -> Path:
        return self.data_dir / WORKSPACES_FOLDER

    def resolve_device_token(self) -> str:
        """The explicit token, else the environment, else ``DIR/device-token`` (created 0600)."""
        return _explicit_or_env(self.device_token, DEVICE_TOKEN_ENV) or _read_or_create_token_file(
            self.data_dir / DEVICE_TOKEN_FILE
        )

    def resolve_database_url(self) -> str:
        """The explicit URL, else the environment, else the SQLite file in the data folder."""
        return (
            _explicit_or_env(self.database_url, DATABASE_URL_ENV)
            or f"sqlite:///{(self.data_dir / DATABASE_FILE).resolve()}"
        )

    def resolve_sweep_interval(self) -> timedelta:
        """The explicit interval, else ``AMBIENT_SWEEP_SECONDS``, else 30 s; at most 60 s."""
        if self.sweep_interval is not None:
            interval = self.sweep_interval
        else:
            configured = _explicit_or_env(None, SWEEP_SECONDS_ENV)
            interval = SWEEP_INTERVAL if configured is None else _seconds(configured)
        if not timedelta(0) < interval <= LONGEST_SWEEP_INTERVAL:
            raise ValueError(
                f"{SWEEP_SECONDS_ENV} must be more than 0 and at most "
                f"{LONGEST_SWEEP_INTERVAL.total_seconds():g} seconds."
            )
        return interval

    def resolve_model_endpoint(self) -> tuple[str | None, str | None, str | None]:
        """Base URL, model id and API key: each explicit, else from the environment."""
        return (
            _explicit_or_env(self.model_base_url, MODEL_BASE_URL_ENV),
            _explicit_or_env(self.model, MODEL_ENV),
            _explicit_or_env(self.model_api_key, MODEL_API_KEY_ENV),
        )


def _seconds(value: str) -> timedelta:
    try:
        return timedelta(seconds=float(value))
    except (ValueError, OverflowError):
        message = f"{SWEEP_SECONDS_ENV} must be a number of seconds, not {value!r}."
        raise ValueError(message) from None


def _explicit_or_env(explicit: str | None, variable: str) -> str | None:
    """The explicit value, else the non-blank environment variable, else None."""
    return explicit or os.environ.get(variable, "").strip() or None


TOKEN_FILE_MAX_BYTES = 4096


def _read_or_create_token_file(path: Path) -> str:
    make_folders(path.parent)  # R77: every folder the app makes is 0700
    try:
        # O_EXCL so two starting processes never both write a token; 0600 from birth.
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE_MODE)
    except FileExistsError:
        try:  # R64: a FIFO or a device in its place must not hang the start
            token = read_own_file(path, TOKEN_FILE_MAX_BYTES).decode("utf-8", "replace").strip()
        except OwnFileRefused as refused:
            raise RuntimeError(
                f"The device token file {path} cannot be used: {refused.reason}. "
                "Move it away to make a new one."
            ) from None
        if token:
            return token
        raise RuntimeError(
            f"The device token file {path} is empty; delete it to make a new one."
        ) from None
    token = secrets.token_urlsafe(32)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(token + "\n")
    return token
