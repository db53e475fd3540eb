"""A capture's pointer is the model's pointer: same values, same refusals (R8, R15, R65, R67).

:func:`bridge.pointer.capture_pointer` stores the usual values without running the
model's validation; these tests hold it to the model for any input, good or bad.
"""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from bridge.pointer import (
    AmbientPointer,
    HeaderRejection,
    Selection,
    capture_pointer,
    decode_header,
    editor_selection,
    encode_header,
    fingerprint,
    format_captured_at,
)

MOMENT = datetime(2026, 11, 29, 19, 8, 18, 123456, tzinfo=UTC)


class Text(str):
    """A ``str`` subclass: the model stores it as a plain ``str``."""


def modelled(
    text: str,
    path: object,
    view: object,
    frame_id: object,
    selection: object,
    flushed: object,
) -> AmbientPointer | None:
    """What the model's own validation makes of the same values; None when it refuses."""
    size, digest = fingerprint(text)
    try:
        return AmbientPointer.model_validate(
            {
                "path": path,
                "view": view,
                "frameId": frame_id,
                "selection": selection,
                "bytes": size,
                "sha256": digest,
                "flushed": flushed,
                "capturedAt": format_captured_at(MOMENT),
            }
        )
    except ValidationError:
        return None


def captured(
    text: str,
    path: object,
    view: object,
    frame_id: object,
    selection: object,
    flushed: object,
) -> AmbientPointer | None:
    try:
        return capture_pointer(
            text,
            path=path,  # type: ignore[arg-type]  # bad values on purpose
            view=view,  # type: ignore[arg-type]
            frame_id=frame_id,  # type: ignore[arg-type]
            selection=selection,  # type: ignore[arg-type]
            flushed=flushed,  # type: ignore[arg-type]
            moment=MOMENT,
        )
    except ValidationError:
        return None


def assert_same_as_model(
    text: str,
    path: object,
    view: object,
    frame_id: object,
    selection: object,
    flushed: object,
) -> AmbientPointer | None:
    expected = modelled(text, path, view, frame_id, selection, flushed)
    actual = captured(text, path, view, frame_id, selection, flushed)
    if expected is None:
        assert actual is None, f"the model refuses {path!r}, {frame_id!r} but the capture did not"
        return None
    assert actual is not None, f"the model accepts {path!r}, {frame_id!r} but the capture did not"
    # Everything a pydantic model holds (what pickling keeps), and what the header carries.
    assert actual.__getstate__() == expected.__getstate__()
    assert type(actual.path) is str and type(actual.frameId) is str
    assert encode_header(actual) == encode_header(expected)
    return actual


# Paths and frame ids of every kind, most of them refused: the workspace path rules'
# corner cases (R8), lone surrogates, lengths either side of the limits.
path_parts = st.sampled_from(
    ["notes", "a.md", ".", "..", "", "ノート", "\x00", "\\", "\ud800", "x" * 255, "y" * 256, " "]
)
bad_paths = st.lists(path_parts, min_size=0, max_size=6).map("/".join) | st.sampled_from(
    ["/abs.md", "n/" * 2500 + "x.md", "a" * 4096, "a" * 4097, "a//b", "a/"]
)
any_paths = bad_paths | st.text(max_size=60)
frame_ids = (
    st.text(max_size=300)
    | st.text(alphabet="ab", min_size=250, max_size=260)
    | st.text(alphabet="😀", min_size=250, max_size=260)
    | st.sampled_from(["", "inbox-1", "\ud800", "a\udfff", "x" * 256, "x" * 257])
)
views = st.sampled_from(["edit", "preview", "todo", "mindmap", "Edit", "", "source"])
selections = st.none() | st.builds(
    Selection, anchor=st.integers(0, 2**53 - 1), head=st.integers(0, 2**53 - 1)
)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    text=st.text(max_size=200),
    path=any_paths,
    view=views,
    frame_id=frame_ids,
    selection=selections,
    flushed=st.booleans(),
)
def test_r67_a_capture_pointer_accepts_and_refuses_what_the_model_does(
    text: str, path: str, view: str, frame_id: str, selection: Selection | None, flushed: bool
) -> None:
    assert_same_as_model(text, path, view, frame_id, selection, flushed)


@pytest.mark.parametrize(
    ("path", "view", "frame_id", "selection", "flushed"),
    [
        (Text("notes/a.md"), "edit", "inbox-1", None, True),  # str subclasses: stored as str
        ("notes/a.md", Text("edit"), Text("inbox-1"), None, True),
        ("notes/a.md", "edit", "x" * 256, None, False),  # the longest frame id
        ("notes/a.md", "edit", "ノート", None, True),  # a non-ASCII frame id
        ("notes/a.md", "edit", "inbox-1", Selection(anchor=3, head=1), True),
        ("notes/a.md", "edit", "inbox-1", None, 1),  # strict: 1 is not a bool
        ("notes/a.md", "edit", "inbox-1", {"anchor": 0, "head": 1}, True),
        ("notes/a.md", "edit", 7, None, True),
        (b"notes/a.md", "edit", "inbox-1", None, True),
        ("notes/a.md", None, "inbox-1", None, True),
        ("../outside.md", "edit", "inbox-1", None, True),
        ("notes/\ud800.md", "edit", "inbox-1", None, True),
        ("notes/a.md", "edit", "x" * 257, None, True),
        ("notes/a.md", "edit", "", None, True),
        ("notes/a.md", "edit", "inbox-\ud800", None, True),
    ],
)
def test_r67_a_capture_pointer_matches_the_model_at_the_edges(
    path: object, view: object, frame_id: object, selection: object, flushed: object
) -> None:
    assert_same_as_model("# Weekly review\n", path, view, frame_id, selection, flushed)


def test_r8_a_capture_pointer_fingerprints_the_text_and_stamps_the_moment() -> None:
    moment = datetime(2026, 11, 29, 20, 8, 18, 123999, tzinfo=timezone(timedelta(hours=1)))
    pointer = capture_pointer(
        "このノート",
        path="notes/a.md",
        view="edit",
        frame_id="inbox-1",
        selection=None,
        flushed=True,
        moment=moment,
    )
    assert (pointer.bytes, pointer.sha256) == fingerprint("このノート")
    assert pointer.bytes == 15
    assert pointer.capturedAt == "2026-11-29T19:08:18.123Z"
    assert pointer.model_fields_set == set(AmbientPointer.model_fields) - {"v"}


def a_body_pointer(*, flushed: bool) -> AmbientPointer:
    """The capture of a small note with the editor's first four characters selected."""
    return capture_pointer(
        "body",
        path="notes/a.md",
        view="edit",
        frame_id="inbox-1",
        selection=Selection(anchor=0, head=4),
        flushed=flushed,
        moment=MOMENT,
    )


def test_r67_a_capture_pointer_behaves_as_a_model() -> None:
    pointer = a_body_pointer(flushed=False)
    with pytest.raises(ValidationError):
        pointer.path = "other.md"  # frozen, as the model is
    moved = pointer.model_copy(update={"path": "notes/b.md"})
    assert moved.path == "notes/b.md" and "path" in moved.model_fields_set
    assert AmbientPointer.model_validate_json(pointer.to_json()) == pointer
    assert hash(pointer) == hash(
        modelled("body", "notes/a.md", "edit", "inbox-1", pointer.selection, False)
    )


offsets = (
    st.integers(min_value=-3, max_value=2**53 + 3)
    | st.sampled_from([0, 2**53 - 1, 2**53, -1, True, False, 1.0, "1", None, 2**64])
    | st.floats(allow_nan=False)
)


@settings(max_examples=400, deadline=None)
@given(anchor=offsets, head=offsets)
def test_r65_an_editor_selection_is_made_as_the_model_validates_it(
    anchor: object, head: object
) -> None:
    # editor_selection stores two plain in-range integers itself; it must agree with
    # the model's own validation for any input (R65: 0 ≤ offset ≤ 2^53 − 1).
    data = {"anchor": anchor, "head": head}
    try:
        expected = Selection.model_validate(data)
    except ValidationError as refusal:
        with pytest.raises(ValidationError) as made:
            editor_selection(anchor, head)  # type: ignore[arg-type]  # bad values on purpose
        assert made.value.errors() == refusal.errors()
        return
    made_directly = editor_selection(anchor, head)  # type: ignore[arg-type]
    assert made_directly.__getstate__() == expected.__getstate__()
    assert made_directly.model_dump_json() == expected.model_dump_json()
    assert made_directly == expected and hash(made_directly) == hash(expected)


def test_r65_a_received_selection_is_still_validated_by_the_model() -> None:
    # A received header's selection is validated by the model, never stored as it is.
    base = a_body_pointer(flushed=True)
    header = encode_header(base)
    assert header is not None
    assert decode_header(header) == base
    raw = base.to_json().replace('"head":4', '"head":-1')
    rejected = decode_header(base64.urlsafe_b64encode(raw.encode()).rstrip(b"=").decode())
    assert isinstance(rejected, HeaderRejection)
    assert "'selection.head'" in rejected.reason
    raw = base.to_json().replace('"head":4', '"head":4,"tail":1')
    rejected = decode_header(base64.urlsafe_b64encode(raw.encode()).rstrip(b"=").decode())
    assert isinstance(rejected, HeaderRejection)
    assert "'selection.tail'" in rejected.reason
