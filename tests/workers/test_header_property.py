"""Property tests of the X-Ambient-Note codec and of what the ingress stores (R14, R15, R18)."""

from __future__ import annotations

import base64
from collections.abc import Iterator
from datetime import UTC

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.contract import MAX_HEADER_BYTES
from bridge.paths import is_workspace_path
from bridge.pointer import (
    AmbientPointer,
    HeaderRejection,
    Selection,
    decode_header,
    encode_header,
    format_captured_at,
)
from bridge.views import view_names
from tests.workers.conftest import DEVICE_TOKEN, TestClient, client_with_key
from workers.deliveries import pointer_columns

segments = st.text(
    alphabet=st.characters(codec="utf-8", exclude_characters="/\\\x00"),
    min_size=1,
    max_size=40,
)
paths = st.lists(segments, min_size=1, max_size=60).map("/".join).filter(is_workspace_path)


def _within_note(pointer: AmbientPointer) -> AmbientPointer:
    """A pointer as an editor sends it: its selection ends within the note (R65)."""
    if pointer.selection is None:
        return pointer
    end = max(pointer.selection.anchor, pointer.selection.head)
    return pointer.model_copy(update={"bytes": max(pointer.bytes, end)})


pointers = st.builds(
    AmbientPointer,
    path=paths,
    view=st.sampled_from(view_names()),
    frameId=st.text(min_size=1, max_size=256),
    selection=st.one_of(
        st.none(),
        st.builds(Selection, anchor=st.integers(0, 2**40), head=st.integers(0, 2**40)),
    ),
    bytes=st.integers(0, 2**53 - 1),
    sha256=st.text(alphabet="0123456789abcdef", min_size=16, max_size=16),
    flushed=st.booleans(),
    capturedAt=st.datetimes(timezones=st.just(UTC)).map(format_captured_at),
).map(_within_note)


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(st.text(max_size=3000), st.binary(max_size=3000)))
def test_r18_decoder_never_raises(value: str | bytes) -> None:
    result = decode_header(value)
    assert isinstance(result, (AmbientPointer, HeaderRejection))


@settings(max_examples=200, deadline=None)
@given(raw=st.binary(max_size=1500))
def test_r18_decoder_never_raises_on_base64url_of_any_bytes(raw: bytes) -> None:
    value = base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
    assert isinstance(decode_header(value), (AmbientPointer, HeaderRejection))


@settings(max_examples=200, deadline=None)
@given(pointer=pointers)
def test_r14_r15_round_trip_or_none(pointer: AmbientPointer) -> None:
    header = encode_header(pointer)
    full = base64.urlsafe_b64encode(pointer.to_json().encode()).rstrip(b"=").decode()
    if len(full) <= MAX_HEADER_BYTES:  # R15
        assert header == full
        assert decode_header(header) == pointer
    else:
        assert header is None  # R15: omitted whole, never a shorter string


@pytest.fixture(scope="module")
def ingress(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[TestClient, str]]:
    with client_with_key(tmp_path_factory.mktemp("ingress")) as opened:
        yield opened


@settings(max_examples=200, deadline=None)
@given(
    value=st.one_of(
        st.text(alphabet=st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=400),
        pointers.map(encode_header).filter(lambda header: header is not None),
    )
)
def test_r18_ingress_stores_exactly_what_the_decoder_accepts(
    ingress: tuple[TestClient, str], value: str
) -> None:
    client, key = ingress
    headers = {
        "Authorization": f"Bearer {DEVICE_TOKEN}",
        "X-Key-Session": key,
        "X-Ambient-Note": value,
    }
    turn = client.post(
        "/v1/agent/turns",
        json={"conversation": "p", "message": "/tool list_documents"},
        headers=headers,
    )
    assert turn.status_code == 200
    stored = client.get("/v1/agent/deliveries/p", headers=headers).json()
    decoded = decode_header(value)
    if isinstance(decoded, AmbientPointer):
        assert turn.json()["ambient"]["status"] == "stored"
        expected = pointer_columns(decoded)
        assert stored["ambient_path"] == expected["ambient_path"]
        assert stored["ambient_view"] == expected["ambient_view"]
    else:
        assert turn.json()["ambient"] == {"status": "rejected", "reason": decoded.reason}
        assert stored["ambient_path"] is None and stored["ambient_meta"] is None
