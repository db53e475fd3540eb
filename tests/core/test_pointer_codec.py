"""The pointer model and the X-Ambient-Note codec (R8, R14, R15)."""

from __future__ import annotations

import base64
import json

import pytest

from bridge.pointer import (
    MAX_HEADER_BYTES,
    AmbientPointer,
    HeaderRejection,
    Selection,
    decode_header,
    encode_header,
    fingerprint,
)


def make_pointer(path: str = "inbox/today.md", **changes: object) -> AmbientPointer:
    fields: dict[str, object] = {
        "path": path,
        "view": "edit",
        "frameId": "inbox-1",
        "selection": Selection(anchor=10, head=24),
        "bytes": 1834,
        "sha256": "9f86d081884c7d65",
        "flushed": True,
        "capturedAt": "2026-11-29T19:08:18.123Z",
    }
    fields.update(changes)
    return AmbientPointer.model_validate(fields)


def test_r14_header_is_unpadded_base64url_of_compact_json() -> None:
    header = encode_header(make_pointer())
    assert header is not None
    assert "=" not in header and "+" not in header and "/" not in header
    raw = base64.urlsafe_b64decode(header + "=" * (-len(header) % 4))
    assert b" " not in raw  # compact
    assert json.loads(raw)["path"] == "inbox/today.md"
    assert decode_header(header) == make_pointer()


def test_r15_oversize_pointer_has_no_header_at_all() -> None:
    deep = "/".join(["ノート" * 20] * 20) + ".md"
    assert encode_header(make_pointer(deep)) is None


def test_r15_header_over_limit_is_rejected_not_truncated() -> None:
    result = decode_header("A" * (MAX_HEADER_BYTES + 1))
    assert isinstance(result, HeaderRejection)


def test_r8_selection_omitted_when_absent() -> None:
    pointer = make_pointer(selection=None, view="preview")
    assert "selection" not in json.loads(pointer.to_json())


@pytest.mark.parametrize("bad", ["", "%%%", "a", "e30", "bnVsbA"])
def test_r18_malformed_headers_are_rejections(bad: str) -> None:
    assert isinstance(decode_header(bad), HeaderRejection)


def test_r8_fingerprint_counts_utf8_bytes() -> None:
    size, digest = fingerprint("このノート")
    assert size == len("このノート".encode())
    assert len(digest) == 16
