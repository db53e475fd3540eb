"""Exact edges of the X-Ambient-Note codec: alphabet, padding and the 2,048-byte limit.

The property tests draw random pointers and rarely reach these edges, so each one is
pinned here by a fixed example on both sides: the encoder and the ingress (R14, R15).
"""

from __future__ import annotations

import base64
import json
from typing import Any

from bridge.contract import MAX_HEADER_BYTES
from bridge.pointer import (
    AmbientPointer,
    HeaderRejection,
    Selection,
    decode_header,
    encode_header,
)
from tests.support.pointers import make_pointer
from tests.workers.conftest import NOTES, Backend, pointer_header

SEGMENT = "d" * 200


def _pointer(path: str, frame_id: str = "inbox-1") -> AmbientPointer:
    return make_pointer(path, frameId=frame_id, selection=None, bytes=12)


def _pointer_of_json_size(size: int) -> AmbientPointer:
    """A pointer whose compact JSON is exactly ``size`` bytes (ASCII path, so 1 char = 1 byte)."""
    base = _pointer(f"{SEGMENT}/x")
    missing = size - len(base.to_json().encode())
    segments, rest = divmod(missing, len(SEGMENT) + 1)
    path = "/".join([SEGMENT] * (segments + 1) + ["x" * (rest + 1)])
    pointer = _pointer(path)
    assert len(pointer.to_json().encode()) == size
    return pointer


def _base64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def _refused_at_ingress(backend: Backend, key: str, value: str) -> dict[str, Any]:
    """Send ``value`` after a good pointer: the ingress must refuse it and clear the columns."""
    backend.turn("fill", key=key, ambient=pointer_header("notes/a.md", NOTES["notes/a.md"]))
    reply = backend.turn("/tool list_documents", key=key, ambient=value)
    stored = backend.delivery(key)
    assert stored is not None and stored["ambient_path"] is None
    ambient: dict[str, Any] = reply["ambient"]
    return ambient


def test_r15_a_header_of_exactly_2048_bytes_is_sent_and_stored(backend: Backend) -> None:
    pointer = _pointer_of_json_size(MAX_HEADER_BYTES // 4 * 3)
    header = encode_header(pointer)
    assert header is not None and len(header) == MAX_HEADER_BYTES
    assert decode_header(header) == pointer
    key = backend.key()
    reply = backend.turn("/tool list_documents", key=key, ambient=header)
    assert reply["ambient"] == {"status": "stored", "reason": None}
    stored = backend.delivery(key)
    assert stored is not None and stored["ambient_path"] == pointer.path


def test_r15_one_byte_more_is_omitted_whole_and_refused_by_the_ingress(backend: Backend) -> None:
    pointer = _pointer_of_json_size(MAX_HEADER_BYTES // 4 * 3 + 1)
    full = _base64url(pointer.to_json().encode())
    assert len(full) == MAX_HEADER_BYTES + 2  # base64url has no length MAX_HEADER_BYTES + 1
    assert encode_header(pointer) is None  # never a truncated value
    rejection = decode_header(full)
    assert isinstance(rejection, HeaderRejection)
    assert f"longer than {MAX_HEADER_BYTES} bytes" in rejection.reason
    ambient = _refused_at_ingress(backend, backend.key(), full)
    assert ambient == {"status": "rejected", "reason": rejection.reason}


def test_r14_padded_base64url_is_refused(backend: Backend) -> None:
    raw = _pointer("notes/a.md").to_json().encode()
    padded = base64.urlsafe_b64encode(raw).decode("ascii")
    assert padded.endswith("=")  # the example really carries padding
    assert encode_header(_pointer("notes/a.md")) == padded.rstrip("=")
    assert isinstance(decode_header(padded), HeaderRejection)
    ambient = _refused_at_ingress(backend, backend.key(), padded)
    assert ambient["status"] == "rejected" and ambient["reason"]


def test_r14_standard_base64_alphabet_is_refused(backend: Backend) -> None:
    pointer = _pointer("notes/a.md", frame_id="inbox-?>")
    raw = pointer.to_json().encode()
    standard = base64.b64encode(raw).rstrip(b"=").decode("ascii")
    assert set(standard) & {"+", "/"}  # the example differs from base64url
    assert encode_header(pointer) == _base64url(raw)
    assert isinstance(decode_header(standard), HeaderRejection)
    ambient = _refused_at_ingress(backend, backend.key(), standard)
    assert ambient["status"] == "rejected" and ambient["reason"]


def test_r8_r14_selection_is_left_out_of_the_header_when_there_is_none() -> None:
    """Contract 4: ``selection`` is omitted, not sent as null, when there is none."""
    without = encode_header(_pointer("notes/a.md"))
    assert without is not None
    assert "selection" not in json.loads(base64.urlsafe_b64decode(without + "=="))
    with_selection = _pointer("notes/a.md").model_copy(
        update={"selection": Selection(anchor=3, head=1)}
    )
    header = encode_header(with_selection)
    assert header is not None
    decoded = json.loads(base64.urlsafe_b64decode(header + "=="))
    assert decoded["selection"] == {"anchor": 3, "head": 1}
