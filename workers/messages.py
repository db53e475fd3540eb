"""Every plain-language message the backend and its tools speak, in one place (R25, R28).

The document API and the tools raise the same access messages, so the user hears
the same sentence whichever way a note was refused.
"""

from __future__ import annotations

from typing import Final

from bridge.contract import ACCESS_TTL
from bridge.headers import KEY_SESSION_HEADER
from bridge.paths import PATH_NOT_ALLOWED
from bridge.reading import MAX_BYTES_INVALID, NO_ACTIVE_NOTE
from bridge.tools import READ_DOCUMENT, SEARCH_DOCUMENTS

__all__ = ["MAX_BYTES_INVALID", "NO_ACTIVE_NOTE"]  # re-exported: the words are the bridge's

_MINUTES: Final = int(ACCESS_TTL.total_seconds() // 60)

# Identity and workspace access (contract 2, 3; R19, R28).
DEVICE_TOKEN_INVALID: Final = (
    "This device is not signed in: send the device token as 'Authorization: Bearer <token>'."
)
KEY_SESSION_MISSING: Final = (
    "No workspace access: this request needs a key session for the workspace "
    f"(the {KEY_SESSION_HEADER} header)."
)
KEY_SESSION_UNKNOWN: Final = (
    "Workspace access was refused: the key session is not recognised. Open the workspace again."
)
KEY_SESSION_EXPIRED: Final = (
    "Workspace access has expired: the key session is no longer valid. Open the workspace again."
)
KEY_SESSION_OTHER_WORKSPACE: Final = (
    "Workspace access was refused: this key session belongs to another workspace."
)
DELIVERY_EXPIRED: Final = (
    "Access to the open note has expired for this conversation (it lasts "
    f"{_MINUTES} minutes after the latest message). Send the message again."
)
WORKSPACE_NOT_FOUND: Final = "There is no workspace named '{workspace}'."

# Documents (contract 3).
DOCUMENT_NOT_FOUND: Final = "There is no saved document at '{path}' in this workspace."
PATH_INVALID: Final = PATH_NOT_ALLOWED
PATH_OUTSIDE_WORKSPACE: Final = (
    "That document path leads outside the workspace (through a symbolic link), "
    "so it cannot be read or written."
)
PATH_NOT_A_FOLDER: Final = "That document path runs through a file as if it were a folder."
DOCUMENT_NOT_UTF8: Final = "The document is not valid UTF-8 text, so it was not saved."
DOCUMENT_WRITE_FAILED: Final = "The document could not be saved: {reason}"
DOCUMENT_READ_FAILED: Final = "The document could not be read: {reason}"
DOCUMENT_CHANGED: Final = (
    "The document's folder changed on disk while it was being opened; try again."
)
DOCUMENT_HARD_LINKED: Final = (
    "That document has other hard links, which may lead outside the workspace, "
    "so it is not read. Save it again (a save makes a file of its own) to read it."
)
NOTE_CHANGED: Final = (
    "The note changed since it was read (another window, app or device saved it), "
    "so this save was not written."
)
NOTE_EXISTS: Final = "A note already exists at that path, so it was not overwritten."
EDITS_INVALID: Final = (
    "The edits must be a list of 1 to {most} objects, each with oldText and newText."
)
EDIT_OLD_TEXT_EMPTY: Final = "Each edit needs a non-empty oldText and a newText (text)."
EDIT_OLD_TEXT_COUNT: Final = (
    "The text “{text}” occurs {count} times in the note; an edit's oldText must occur "
    "exactly once. Quote more of the surrounding text."
)
EDITS_OVERLAP: Final = "Two edits change overlapping text; combine them into one."
SUMMARY_INVALID: Final = "The summary must be text."
PROPOSAL_OTHER_NOTE: Final = (
    "Nothing was proposed: the user asked about {asked}, and {path} is another note, which "
    "their message does not name. Propose changes to {asked} only, or ask the user first."
)
PATH_RESERVED: Final = "Names starting with '.ambient-save-' are kept for saves in progress."
HOST_NOT_LOOPBACK: Final = (
    "This backend answers only requests addressed to 127.0.0.1, localhost or [::1]; "
    "start it with --host to serve other names."
)
DOCUMENT_TOO_LARGE: Final = (
    "'{path}' is {size} bytes, larger than the {limit} bytes a note may have, so it is not "
    "opened here. Open it in another editor to make it smaller."
)

# Requests in general.
BODY_TOO_LARGE: Final = "The request body is larger than {limit} bytes."
BODY_NOT_JSON: Final = "The request body must be a JSON object."
BODY_INVALID: Final = "The request is not valid: {detail}"
CONVERSATION_HAS_NUL: Final = "a conversation name cannot contain the NUL character"
CONTENT_LENGTH_INVALID: Final = "The Content-Length header is not a number."
ROUTE_NOT_FOUND: Final = "There is nothing at this address."
PROPOSAL_NOT_FOUND: Final = (
    "This conversation has no proposal with that id: it was cleared, or never made here."
)
METHOD_NOT_ALLOWED: Final = "This address does not accept that method."
INTERNAL_ERROR: Final = "Something went wrong on the server; nothing was changed by this request."
NO_DELIVERY: Final = "There is no current delivery for this conversation."

# Agent ingress (R18).
AMBIENT_NO_KEY_SESSION: Final = "No key session: nothing stored."
AMBIENT_SEVERAL_HEADERS: Final = "More than one ambient note header was sent."
AMBIENT_LEFT_OUT: Final = "The user left the note out of this message: nothing stored."
AMBIENT_PRIVATE: Final = "The open note is private (.aiexclude): nothing stored."

# Tools (contract 5; R21, R27).
NOTE_LEFT_OUT: Final = (
    "The user left the open note out of this message; ask them to name a note "
    "or send again with it."
)
"""R48: read_active_note when the turn said the note was left out (the chip's Leave out)."""
ARGUMENTS_NOT_OBJECT: Final = "The tool arguments must be a JSON object."
ARGUMENT_UNKNOWN: Final = "The tool {tool} does not take the argument '{name}'."
PATH_ARGUMENT_MISSING: Final = f"{READ_DOCUMENT.name} needs a 'path': the workspace path of a note."
PREFIX_INVALID: Final = "prefix must be text."
QUERY_MISSING: Final = f"{SEARCH_DOCUMENTS.name} needs a 'query': the words to look for."
QUERY_TOO_LONG: Final = "The query is too long: search for at most {limit} characters."
UNKNOWN_TOOL: Final = "There is no tool named '{name}'. The tools are: {tools}."
TOOL_COMMAND_INVALID: Final = (
    "The tool command must look like '/tool NAME {{json arguments}}': {detail}"
)
