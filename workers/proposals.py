"""Proposals: a change to a note computed from its saved copy, never applied here (R50).

A proposal names its base (byte count and full SHA-256 of the saved copy), its edits
as sorted, non-overlapping code-point ranges of that text with their replacement, and
a one-line summary (contract 10). The app applies it; the backend only proposes.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from workers import messages

MAX_EDITS: Final = 50
"""Contract 10: a proposal holds 1–50 edits."""
MAX_SUMMARY_CHARS: Final = 200


class ProposalError(ValueError):
    """Edits that cannot be proposed; the message is plain language."""


@dataclass(frozen=True)
class TextEdit:
    """One replacement of ``text[start:end]`` (code points) by ``text``."""

    start: int
    end: int
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"start": self.start, "end": self.end, "text": self.text}


def parse_text_edits(value: Any) -> list[tuple[str, str]]:
    """The tool's ``edits`` argument as (oldText, newText) pairs; raises ProposalError."""
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_EDITS:
        raise ProposalError(messages.EDITS_INVALID.format(most=MAX_EDITS))
    pairs: list[tuple[str, str]] = []
    for item in value:
        if not isinstance(item, dict) or set(item) - {"oldText", "newText"}:
            raise ProposalError(messages.EDITS_INVALID.format(most=MAX_EDITS))
        old, new = item.get("oldText"), item.get("newText")
        if not isinstance(old, str) or not old or not isinstance(new, str):
            raise ProposalError(messages.EDIT_OLD_TEXT_EMPTY)
        pairs.append((old, new))
    return pairs


def locate_edits(text: str, pairs: Sequence[tuple[str, str]]) -> list[TextEdit]:
    """Each ``oldText`` found exactly once in ``text``; sorted, refused when they overlap."""
    edits: list[TextEdit] = []
    for old, new in pairs:
        start = text.find(old)
        if start < 0 or text.find(old, start + 1) >= 0:
            count = text.count(old)
            raise ProposalError(messages.EDIT_OLD_TEXT_COUNT.format(text=_quoted(old), count=count))
        edits.append(TextEdit(start, start + len(old), new))
    edits.sort(key=lambda edit: edit.start)
    for before, after in itertools.pairwise(edits):
        if after.start < before.end:
            raise ProposalError(messages.EDITS_OVERLAP)
    return edits


def make_proposal(
    path: str, data: bytes, edits: Sequence[TextEdit], summary: str
) -> dict[str, Any]:
    """The proposal's JSON (contract 10) over the saved copy ``data``."""
    return {
        "id": secrets.token_hex(8),
        "path": path,
        "base": {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()},
        "edits": [edit.to_json() for edit in edits],
        "summary": " ".join(summary.split())[:MAX_SUMMARY_CHARS],
    }


def kept_arguments(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """What a conversation keeps of a propose call: the path and the summary, never text (R50)."""
    return {name: arguments[name] for name in ("path", "summary") if name in arguments}


def _quoted(text: str, most: int = 60) -> str:
    line = " ".join(text.split())
    return line if len(line) <= most else line[: most - 1] + "…"
