"""A note's saved copy fetched for its frame, with how its editor is to wrap it (R63, R67)."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtGui import QTextOption

from renderer.ambient.backend import WorkspaceLink
from renderer.qt.long_lines import wrap_mode_for


class LoadedNote(NamedTuple):
    """A note's saved copy as a load hands it to the GUI thread."""

    text: str
    etag: str | None
    wrap: QTextOption.WrapMode
    """How its lines wrap (R63)."""


def fetch_note(link: WorkspaceLink, path: str) -> LoadedNote:
    """The saved copy of ``path`` (blocks: call on a worker).

    The look for endless runs is linear in the note, about 30 ms for 5 MiB: here it
    is done on the worker, not on the GUI thread. While the embedded backend starts,
    the note is read from its workspace folder, tagged with its bytes' ETag, so the
    first note shows without waiting for the backend (issue 33).
    """
    early = link.read_while_opening(path)
    text, etag = early or link.call(lambda client, key: client.get_document_tagged(key, path))
    return LoadedNote(text, etag, wrap_mode_for(text))
