"""The pointer model and the X-Ambient-Note codec (R8, R14, R15)."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta, timezone

import pytest

from bridge.pointer import (
    HeaderRejection,
    decode_header,
    encode_header,
    fingerprint,
    format_captured_at,
)
from tests.support.pointers import make_pointer


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
    result = decode_header("A" * 2049)
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


def encode_raw(fields: dict[str, object]) -> str:
    raw = json.dumps(fields, separators=(",", ":")).encode("utf-8")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def valid_fields() -> dict[str, object]:
    return json.loads(make_pointer().to_json())


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"body": "the note text"}, "body"),
        ({"bytes": "1834"}, "bytes"),
        ({"bytes": -1}, "bytes"),
        ({"flushed": "yes"}, "flushed"),
        ({"view": "source"}, "view"),
        ({"path": "../etc/passwd"}, "path"),
        ({"path": "notes//a.md"}, "path"),
        ({"path": "C:\\notes\\a.md"}, "path"),
        ({"sha256": "9F86D081884C7D65"}, "sha256"),
        ({"sha256": "9f86d081884c7d65aa"}, "sha256"),
        ({"capturedAt": "yesterday"}, "capturedAt"),
        ({"capturedAt": "2026-11-29T19:08:18"}, "capturedAt"),
        ({"v": 2}, "v"),
        ({"v": True}, "v"),  # JSON true is not the integer 1
        ({"v": 1.0}, "v"),  # nor is 1.0
        ({"v": "1"}, "v"),
        ({"selection": {"anchor": 1}}, "selection"),
        ({"frameId": ""}, "frameId"),
    ],
)
def test_r18_invalid_pointers_are_refused_with_a_reason(
    change: dict[str, object], where: str
) -> None:
    fields = {**valid_fields(), **change}
    result = decode_header(encode_raw(fields))
    assert isinstance(result, HeaderRejection)
    assert where in result.reason


def test_r18_a_missing_field_is_refused() -> None:
    fields = valid_fields()
    del fields["sha256"]
    assert isinstance(decode_header(encode_raw(fields)), HeaderRejection)


def test_r14_padding_and_non_ascii_values_are_refused() -> None:
    header = encode_header(make_pointer())
    assert header is not None
    assert isinstance(decode_header(header + "=="), HeaderRejection)
    assert isinstance(decode_header("ノート".encode()), HeaderRejection)
    assert decode_header(header.encode("ascii")) == make_pointer()


def test_r8_captured_at_is_utc_with_milliseconds() -> None:
    tokyo = timezone(timedelta(hours=9))
    moment = datetime(2026, 11, 30, 4, 8, 18, 123999, tzinfo=tokyo)
    assert format_captured_at(moment) == "2026-11-29T19:08:18.123Z"
    whole = datetime(2026, 11, 29, 19, 8, 18, tzinfo=UTC)
    assert format_captured_at(whole) == "2026-11-29T19:08:18.000Z"
