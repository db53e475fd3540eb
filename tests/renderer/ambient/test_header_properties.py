"""Properties of the header for any note: no body, within the limit, exact (R8, R14, R15)."""

from __future__ import annotations

import base64
import hashlib
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bridge.contract import MAX_HEADER_BYTES, MAX_PATH_BYTES
from bridge.pointer import AmbientPointer, Selection, decode_header
from renderer.ambient import AmbientStore
from tests.renderer.ambient.fakes import FakeClock, FakeEditor, send_flushed

CONTRACT_FIELDS = {
    "v",
    "path",
    "view",
    "frameId",
    "selection",
    "bytes",
    "sha256",
    "flushed",
    "capturedAt",
}
WINDOW = 8  # the shortest slice of a body that would count as leaking it

segments = st.text(
    alphabet=st.characters(exclude_categories=["Cs"], exclude_characters="/\\\x00"),
    min_size=1,
    max_size=40,
).filter(lambda s: s not in (".", "..") and len(s.encode("utf-8")) <= 255)
paths = st.lists(segments, min_size=1, max_size=40).map("/".join)
frame_ids = st.text(alphabet=st.characters(exclude_categories=["Cs"]), min_size=1, max_size=40)
bodies = st.text(max_size=3000)
views = st.sampled_from(["edit", "preview", "todo", "mindmap"])


def slices(text: str) -> set[str]:
    return {text[i : i + WINDOW] for i in range(len(text) - WINDOW + 1)}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    body=bodies,
    path=paths,
    frame_id=frame_ids,
    view=views,
    anchor=st.integers(min_value=0, max_value=10_000),
    head=st.integers(min_value=0, max_value=10_000),
    flushed=st.booleans(),
)
def test_r8_r14_r15_header_carries_metadata_only_within_the_limit(
    body: str, path: str, frame_id: str, view: str, anchor: int, head: int, flushed: bool
) -> None:
    # An editor's selection lies within its text (R65: offsets at most the note's length).
    length = len(body.encode("utf-16-le", errors="surrogatepass")) // 2
    anchor, head = min(anchor, length), min(head, length)
    editor = FakeEditor(frame_id, path, body, selection=Selection(anchor=anchor, head=head))
    editor.view = view  # type: ignore[assignment]
    store = AmbientStore()
    store.publish(editor)
    result = send_flushed(store, FakeClock(), ok=flushed)

    if result.header is None:
        # R15: omitted as a whole, only because it would not fit.
        assert result.dropped == "oversize"
        if result.oversize_pointer is None:
            # A path too long for the document API can never fit in a header either.
            assert len(path.encode("utf-8")) > MAX_PATH_BYTES
            return
        raw = result.oversize_pointer.to_json().encode("utf-8")
        assert len(base64.urlsafe_b64encode(raw).rstrip(b"=")) > MAX_HEADER_BYTES
        return

    assert len(result.header.encode("ascii")) <= MAX_HEADER_BYTES
    decoded = decode_header(result.header)
    assert decoded == result.pointer  # round-trips exactly
    assert isinstance(decoded, AmbientPointer)
    wire = base64.urlsafe_b64decode(result.header + "=" * (-len(result.header) % 4))
    fields = json.loads(wire)
    assert set(fields) <= CONTRACT_FIELDS
    # Every value is the metadata worked out independently of the pointer code.
    data = body.encode("utf-8")
    expected = {
        "v": 1,
        "path": path,
        "view": view,
        "frameId": frame_id,
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest()[:16],
        "flushed": flushed,
        "capturedAt": "2026-11-29T19:08:18.123Z",
    }
    if view == "edit":
        expected["selection"] = {"anchor": anchor, "head": head}
    assert fields == expected
    # No slice of the body appears, unless the identifiers themselves hold it.
    identifiers = json.dumps(expected, ensure_ascii=False)
    text = wire.decode("utf-8")
    leaked = {s for s in slices(body) if s in text and s not in identifiers}
    assert leaked == set()


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=3000) | st.text(max_size=3000))
def test_r14_decoding_never_raises(value: bytes | str) -> None:
    result = decode_header(value)
    assert result is not None


@settings(max_examples=200, deadline=None)
@given(body=bodies, path=paths)
def test_r8_an_edited_body_changes_the_fingerprint_not_the_identity(body: str, path: str) -> None:
    editor = FakeEditor("inbox-1", path, body)
    store = AmbientStore()
    store.publish(editor)
    before = send_flushed(store, FakeClock())
    editor.type("!")
    after = send_flushed(store, FakeClock())
    if before.pointer is None or after.pointer is None:
        assert before.dropped == after.dropped == "oversize"
        return
    assert after.pointer.bytes == before.pointer.bytes + 1
    assert after.pointer.sha256 != before.pointer.sha256
    assert after.pointer.path == before.pointer.path
