"""The caveat sentence of R25, byte-exact: the backend's tools say it, the app shows it."""

from __future__ import annotations

from typing import Final

CAVEAT: Final = (
    "The saved copy is behind what the user has on screen — their most recent "
    "keystrokes may be missing from the text above."
)
"""Added when a complete read of the saved copy disagrees with the pointer (R25)."""
