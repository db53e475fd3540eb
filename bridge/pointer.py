"""The ambient note pointer and its ``X-Ambient-Note`` header codec (R8, R14, R15).

This is the only place that builds or parses the header. The pointer carries
metadata about the live note, never its body (R8).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from datetime import UTC, datetime
from typing import Annotated, Any, Final, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from bridge.contract import MAX_HEADER_BYTES, MAX_POINTER_NUMBER, SHA256_PREFIX_CHARS
from bridge.paths import WorkspacePathError, check_workspace_path
from bridge.views import KnownView, View, is_view

POINTER_VERSION: Literal[1] = 1
SHA_PREFIX_PATTERN = r"^[0-9a-f]{16}$"
_BASE64URL = re.compile(r"^[A-Za-z0-9_-]*$")
NonNegative = Annotated[int, Field(ge=0, le=MAX_POINTER_NUMBER)]
_RECEIVED = "received"
_UTC_MILLISECONDS = "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ"
"""ISO-8601 in UTC with milliseconds and a ``Z``, as isoformat(timespec="milliseconds") has it."""
_URLSAFE = bytes.maketrans(b"+/", b"-_")
"""Standard base64 to base64url (RFC 4648 §5)."""
FRAME_ID_MIN_CHARS = 1
FRAME_ID_MAX_CHARS = 256
_Model = TypeVar("_Model", bound=BaseModel)
_new_object = object.__new__
_set_slot = object.__setattr__


def _holding(model: _Model, fields: dict[str, Any], fields_set: set[str]) -> _Model:
    """``model`` holding ``fields`` as they are: values its validation is known to accept.

    What BaseModel.model_construct stores, without its loop over every field's
    default and alias: a send makes a pointer and a selection, and validating them
    would cost a third of a small capture (R67). The tests hold the result equal,
    state for state, to the validated model's.
    """
    _set_slot(model, "__dict__", fields)
    _set_slot(model, "__pydantic_fields_set__", fields_set)
    _set_slot(model, "__pydantic_extra__", None)
    _set_slot(model, "__pydantic_private__", None)
    return model


class Selection(BaseModel):
    """The main selection range in UTF-16 code units, as CodeMirror and Qt count them."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    anchor: NonNegative
    head: NonNegative


_OFFSETS: Final = frozenset(Selection.model_fields)


def editor_selection(anchor: int, head: int) -> Selection:
    """The editor's selection for a send; refuses what :class:`Selection` refuses.

    Two plain integers in R65's range are stored as they are: every send with the
    editor in view makes one, and validating it costs a tenth of a small capture
    (R67). Anything else goes through the model's validation, which accepts or
    refuses it with its own message. A received selection is always validated.
    """
    if (
        type(anchor) is int
        and type(head) is int
        and 0 <= anchor <= MAX_POINTER_NUMBER
        and 0 <= head <= MAX_POINTER_NUMBER
    ):
        return _holding(_new_object(Selection), {"anchor": anchor, "head": head}, set(_OFFSETS))
    return Selection(anchor=anchor, head=head)


class AmbientPointer(BaseModel):
    """What "this note" is at the moment of a send: identity and fingerprint, no body."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    v: Literal[1] = POINTER_VERSION
    path: str
    view: KnownView
    frameId: str = Field(min_length=FRAME_ID_MIN_CHARS, max_length=FRAME_ID_MAX_CHARS)
    selection: Selection | None = None
    bytes: NonNegative
    sha256: str = Field(pattern=SHA_PREFIX_PATTERN)
    """16 lowercase hexadecimal characters (checked by pydantic's own, compiled, pattern)."""
    flushed: bool
    capturedAt: str

    @field_validator("v", mode="before")
    @classmethod
    def _v_is_an_integer(cls, value: object) -> object:
        # Literal[1] takes True and 1.0 as equal to 1; the contract says an integer.
        if type(value) is not int:
            raise ValueError("v must be the integer 1")
        return value

    @field_validator("path")
    @classmethod
    def _path_is_workspace_relative(cls, value: str) -> str:
        try:
            return check_workspace_path(value)
        except WorkspacePathError as error:
            raise ValueError(str(error)) from error

    @field_validator("capturedAt")
    @classmethod
    def _captured_at_is_iso(cls, value: str) -> str:
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError as error:
            raise ValueError("capturedAt must be an ISO-8601 time") from error
        if parsed.tzinfo is None:
            raise ValueError("capturedAt must carry a time zone")
        return value

    @model_validator(mode="after")
    def _selection_within_note(self, info: ValidationInfo) -> AmbientPointer:
        # R65: offsets count UTF-16 code units, never more than the note's UTF-8 bytes,
        # so a received selection past ``bytes`` describes no note at all. Checked on
        # what arrives (decode_header), not on what the app builds from its own editor.
        if (
            isinstance(info.context, dict)
            and info.context.get(_RECEIVED)
            and self.selection is not None
            and max(self.selection.anchor, self.selection.head) > self.bytes
        ):
            raise ValueError("the selection ends past the note's end")
        return self

    def to_json(self) -> str:
        """Compact JSON; ``selection`` is left out when there is none."""
        return self.model_dump_json(exclude_none=True)


class HeaderRejection(BaseModel):
    """Why a received header value was refused, in plain language."""

    model_config = ConfigDict(frozen=True)

    reason: str


def fingerprint(text: str) -> tuple[int, str]:
    """UTF-8 byte count and the 16-hex SHA-256 prefix of ``text`` (R8)."""
    data = text.encode("utf-8", errors="surrogatepass")
    return len(data), sha16(data)


def sha16(data: bytes) -> str:
    """The 16-hex SHA-256 prefix the pointer and the document listing carry."""
    return hashlib.sha256(data).hexdigest()[:SHA256_PREFIX_CHARS]


def format_captured_at(moment: datetime) -> str:
    """UTC ISO-8601 with milliseconds and a ``Z``, as in the contract's example."""
    # The fields formatted at once: this runs on every send, and it costs a third of
    # isoformat's milliseconds and half of strftime's (R67's capture target).
    if moment.tzinfo is not UTC:
        moment = moment.astimezone(UTC)
    return _UTC_MILLISECONDS % (
        moment.year,
        moment.month,
        moment.day,
        moment.hour,
        moment.minute,
        moment.second,
        moment.microsecond // 1000,
    )


_CAPTURED_FIELDS = frozenset(AmbientPointer.model_fields) - {"v"}
"""The fields a capture sets, as :func:`capture_pointer`'s validated route records them."""


def capture_pointer(
    text: str,
    *,
    path: str,
    view: View,
    frame_id: str,
    selection: Selection | None,
    flushed: bool,
    moment: datetime,
) -> AmbientPointer:
    """The pointer to the note ``text`` read now; refuses what :class:`AmbientPointer` refuses.

    Raises :class:`pydantic.ValidationError` for a value the model refuses, with the
    model's own message. The fingerprint and ``capturedAt`` are made here, by the
    functions whose output the model's rules describe; of what comes from outside,
    the usual values (plain strings, an ASCII frame id, a path the workspace rules
    accept) are checked against the model's own rules and constants and stored as
    they are, and anything else goes through the model's validation in full. Every
    send makes one: validation would cost a third of a small capture (R67).
    """
    size, digest = fingerprint(text)
    captured_at = format_captured_at(moment)
    fields: dict[str, Any] = {
        "path": path,
        "view": view,
        "frameId": frame_id,
        "selection": selection,
        "bytes": size,
        "sha256": digest,
        "flushed": flushed,
        "capturedAt": captured_at,
    }
    if size <= MAX_POINTER_NUMBER and _usual_capture(path, view, frame_id, selection, flushed):
        stored = {"v": POINTER_VERSION, **fields}
        return _holding(_new_object(AmbientPointer), stored, set(_CAPTURED_FIELDS))
    return AmbientPointer.model_validate(fields)


def _usual_capture(
    path: object, view: object, frame_id: object, selection: object, flushed: object
) -> bool:
    """True when the model's rules plainly accept these values as they are (strict types).

    False sends them through the model's validation, which accepts or refuses them.
    """
    if type(path) is not str or type(view) is not str or type(frame_id) is not str:
        return False
    if not is_view(view) or not frame_id.isascii():
        return False  # a non-ASCII id may hold a lone surrogate, which the model refuses
    if not FRAME_ID_MIN_CHARS <= len(frame_id) <= FRAME_ID_MAX_CHARS:
        return False
    if type(flushed) is not bool or not (selection is None or type(selection) is Selection):
        return False
    try:
        check_workspace_path(path)  # the model's path rule, remembered for an accepted path
    except WorkspacePathError:
        return False
    return True


def encode_header(pointer: AmbientPointer) -> str | None:
    """The header value, or ``None`` when it would exceed 2,048 bytes (R15: never truncated)."""
    raw = pointer.__pydantic_serializer__.to_json(pointer, exclude_none=True)
    # base64.urlsafe_b64encode in one call less: this runs on every send.
    encoded = binascii.b2a_base64(raw, newline=False).translate(_URLSAFE)
    value = encoded.rstrip(b"=").decode("ascii")
    if len(value) > MAX_HEADER_BYTES:
        return None
    return value


def decode_header(value: str | bytes) -> AmbientPointer | HeaderRejection:
    """Parse a received header value; never raises, whatever the input."""
    if isinstance(value, bytes):
        try:
            value = value.decode("ascii")
        except UnicodeDecodeError:
            return HeaderRejection(reason="The ambient note header is not ASCII base64url text.")
    if len(value) > MAX_HEADER_BYTES:
        return HeaderRejection(
            reason=f"The ambient note header is longer than {MAX_HEADER_BYTES} bytes."
        )
    value = value.strip()
    if not value:
        return HeaderRejection(reason="The ambient note header is empty.")
    if not _BASE64URL.match(value) or len(value) % 4 == 1:
        return HeaderRejection(reason="The ambient note header is not valid base64url.")
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        return HeaderRejection(reason="The ambient note header is not valid base64url.")
    try:
        return AmbientPointer.model_validate_json(raw, context={_RECEIVED: True})
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "pointer"
        return HeaderRejection(
            reason=f"The ambient note pointer is invalid at '{where}': {first.get('msg', '')}."
        )
    except ValueError:
        return HeaderRejection(reason="The ambient note header is not valid JSON.")
