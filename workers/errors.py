"""The JSON error envelope and the exceptions that carry it (contract 2)."""

from __future__ import annotations

from collections.abc import Mapping


class ApiError(Exception):
    """A refusal with an HTTP status, a slug and a plain-language message."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        *,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = dict(headers or {})


class AccessDenied(Exception):
    """Workspace access refused; the message is one of :mod:`workers.messages` (R28)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class DocumentRefused(Exception):
    """A document path or body the workspace will not serve or store."""

    def __init__(self, kind: str, code: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind  # "invalid", "outside", "not_found", "changed", "precondition"
        self.code = code
        self.message = message
