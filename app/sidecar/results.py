"""The sidecar's tool results as JSON objects, built from what the GUI thread answered.

Pure functions over plain values: the pointer fields of R8 (never note text), the
contract 5 shape of ``read_active_note`` with R25's caveat and R26's cut, and the
document API's refusals in its own words (R28).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from app.sidecar.notes import CapturedNote
from bridge.caveat import caveat_for, saved_copy_is_behind
from bridge.errors import AccessRefused, BackendError, NotFound, RequestRejected
from bridge.pointer import sha16
from bridge.privacy import AIEXCLUDE, OPEN_NOTE_PRIVATE, PRIVATE_LEFT_OUT
from bridge.reading import NO_ACTIVE_NOTE, cut_at_character, read_result
from bridge.wire import DocumentEntry

Result = dict[str, Any]

NOT_NOW: Final = {
    "discarded": "The active note changed while it was being looked at. Ask again.",
    "loading": "The active note is still opening. Ask again in a moment.",
    "invalid": "The active note's path cannot be described. Ask for it by name instead.",
}


def pointer_result(captured: CapturedNote) -> Result:
    """``get_active_note``: the pointer's fields and the absolute path, or why there is none."""
    pointer = captured.pointer
    if pointer is None:
        if captured.dropped == "private":  # R86: not its path, nor anything else of it
            return {"status": "private", "message": OPEN_NOTE_PRIVATE}
        if captured.dropped in NOT_NOW:
            return {"status": "unavailable", "message": NOT_NOW[captured.dropped or ""]}
        return {"status": "no_active_note", "message": NO_ACTIVE_NOTE}
    fields = pointer.model_dump(mode="json", exclude_none=True)
    fields.pop("v", None)
    return {"status": "ok", **fields, "absolutePath": captured.absolute_path}


def saved_copy_result(captured: CapturedNote, saved: object, limit: int) -> Result:
    """``read_active_note`` (contract 5): the saved copy, cut at ``limit`` bytes (R24–R26)."""
    pointer = captured.pointer
    if pointer is None:
        said = pointer_result(captured)
        status = "private" if said["status"] == "private" else "no_active_note"
        return read_result(status, said["message"])
    if not isinstance(saved, str):
        status, message = refusal(saved)
        return read_result(status, message, path=pointer.path, view=pointer.view)
    data = saved.encode("utf-8", errors="surrogatepass")
    kept = cut_at_character(data, limit)
    partial = len(kept) < len(data)
    behind = saved_copy_is_behind(
        pointed_bytes=pointer.bytes,
        pointed_sha256=pointer.sha256,
        flushed=pointer.flushed,
        saved_bytes=len(data),
        saved_sha256=lambda: sha16(data),
    )
    return read_result(
        "ok",
        path=pointer.path,
        view=pointer.view,
        text=kept.decode("utf-8", errors="surrogatepass") if partial else saved,
        size=len(data),
        partial=partial,
        caveat=caveat_for(behind=behind, partial=partial),
    )


def listing_result(answer: object, is_private: Callable[[str], bool]) -> Result:
    """``list_notes``: the listing without the private notes (R86), and how many it left out."""
    if isinstance(answer, list):
        infos = [item for item in answer if isinstance(item, DocumentEntry)]
        shared = [item.model_dump() for item in infos if not is_private(item.path)]
        left_out = sum(1 for item in infos if item.path != AIEXCLUDE and is_private(item.path))
        result: Result = {"status": "ok", "message": None, "documents": shared}
        if left_out:
            result.update(privateCount=left_out, message=PRIVATE_LEFT_OUT.format(count=left_out))
        return result
    status, message = refusal(answer)
    return {"status": status, "message": message, "documents": []}


def refusal(error: object) -> tuple[str, str]:
    """The contract 5 status and the backend's own plain-language message for a refusal."""
    if isinstance(error, NotFound):
        return "not_found", error.message
    if isinstance(error, RequestRejected):
        return "invalid_argument", error.message
    if isinstance(error, AccessRefused | BackendError):
        return "access_denied", error.message
    return "access_denied", f"The workspace could not be reached: {error}"
