"""The HTTP header names both realms agree on (contract 2, 4)."""

from __future__ import annotations

from typing import Final

HEADER_NAME: Final = "X-Ambient-Note"
"""The ambient note pointer of one turn (R14): at most 2,048 bytes of base64url JSON."""

KEY_SESSION_HEADER: Final = "X-Key-Session"
"""Workspace access: the key session the request acts under."""
