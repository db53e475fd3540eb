"""The caveat of R25, byte-exact, and when it is said: the backend's tools and the app's sidecar.

Both realms answer ``read_active_note`` (contract 5 and 11) and both compare the saved
copy with the pointer the same way, through :func:`saved_copy_is_behind` and
:func:`caveat_for`, so the rule cannot drift between them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

CAVEAT: Final = (
    "The saved copy is behind what the user has on screen — their most recent "
    "keystrokes may be missing from the text above."
)
"""Added when a complete read of the saved copy disagrees with the pointer (R25)."""


def saved_copy_is_behind(
    *,
    pointed_bytes: object,
    pointed_sha256: object,
    flushed: object,
    saved_bytes: int,
    saved_sha256: Callable[[], str],
) -> bool:
    """R25: the saved copy is not the text on screen, as far as the pointer can tell.

    Another size, a flush that did not finish (``flushed`` not true), or another hash.
    The hash is asked for last and only when needed: hashing a large note is the costly part.
    """
    return pointed_bytes != saved_bytes or flushed is not True or pointed_sha256 != saved_sha256()


def caveat_for(*, behind: bool, partial: bool) -> str | None:
    """The caveat when the saved copy is behind; none for a partial read (R26: never compared)."""
    return CAVEAT if behind and not partial else None
