"""Each assistant tool is one declaration; its schema, checks and names are derived (contract 5,
7, 10, 12; R32, R54, R56).

The schemas the model is offered are generated from each tool's arguments model:
they must stay exactly the wire format the contract fixes, byte for byte, and the
desktop app's facts (bridge/tools.py) must be the ones the backend declares.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bridge.tools import READ_ACTIVE_NOTE, TOOL_FACTS
from workers.database import Database
from workers.deliveries import DeliveryCredentials
from workers.documents import Workspaces
from workers.model.prompt import INSTRUCTIONS, TOOL_SCHEMAS
from workers.model.tool_choice import beside_the_first_read, offered, open_note_use
from workers.settings import Settings
from workers.tools import DECLARATIONS, OPEN_NOTE_TOOL, TOOLS, ToolContext, active_note
from workers.tools.declaration import ToolDeclaration, wire_names

CONTRACT_SIGNATURES = {
    # Contract 5, 10 and 12 as written there: "?" marks an argument that may be left out.
    "read_active_note": "{maxBytes?}",
    "read_document": "{path, maxBytes?}",
    "list_documents": "{prefix?}",
    "search_documents": "{query, prefix?}",
    "propose_note_edit": "{path?, edits, summary?}",
}
_MAX_BYTES = {
    "type": "integer",
    "minimum": 1,
    "description": "Read at most this many bytes (default 65536, at most 262144).",
}
_PREFIX = {
    "type": "string",
    "description": "Only notes whose path starts with this, such as notes/.",
}
WIRE_SCHEMAS = [
    # What the model was offered when each schema was written by hand: kept byte for byte.
    {"type": "function", "function": {
        "name": "read_active_note",
        "description": 'Read the saved text of the note the user has open ("this note"). Call it '
        "first for any request that names no note, and again on every new turn.",
        "parameters": {"type": "object", "properties": {"maxBytes": _MAX_BYTES},
                       "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "read_document",
        "description": "Read the saved text of a note named by its workspace path.",
        "parameters": {"type": "object", "properties": {
            "path": {"type": "string",
                     "description": "The note's workspace path, such as notes/today.md."},
            "maxBytes": _MAX_BYTES}, "required": ["path"], "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "list_documents",
        "description": "List the notes in the workspace, optionally under a path prefix.",
        "parameters": {"type": "object", "properties": {"prefix": _PREFIX},
                       "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "search_documents",
        "description": "Find the notes that mention some words, with their matching lines "
        "(any case; at most 50 notes and 5 lines each).",
        "parameters": {"type": "object", "properties": {
            "query": {"type": "string", "description": "The words to look for."},
            "prefix": _PREFIX}, "required": ["query"], "additionalProperties": False}}},
    {"type": "function", "function": {
        "name": "propose_note_edit",
        "description": "Propose a change to a note (the open one unless a path is given). The "
        "user reviews it and applies it; nothing changes until then. Each oldText must be "
        "copied exactly from the note and occur in it exactly once.",
        "parameters": {"type": "object", "properties": {
            "path": {"type": "string",
                     "description": "The note's workspace path; omit it for the open note."},
            "edits": {"type": "array", "minItems": 1, "maxItems": 50, "items": {
                "type": "object",
                "properties": {"oldText": {"type": "string", "minLength": 1},
                               "newText": {"type": "string"}},
                "required": ["oldText", "newText"], "additionalProperties": False}},
            "summary": {"type": "string", "description": "One line saying what the change does."},
        }, "required": ["edits"], "additionalProperties": False}}},
]  # fmt: skip


def test_r32_the_generated_schemas_are_the_wire_format_byte_for_byte() -> None:
    assert json.dumps(TOOL_SCHEMAS, ensure_ascii=False) == json.dumps(
        WIRE_SCHEMAS, ensure_ascii=False
    )


def test_r32_each_schema_takes_exactly_the_contracts_arguments() -> None:
    offered_signatures = {}
    for schema in TOOL_SCHEMAS:
        parameters = schema["function"]["parameters"]
        required = set(parameters.get("required", []))
        names = [name + ("" if name in required else "?") for name in parameters["properties"]]
        offered_signatures[schema["function"]["name"]] = "{" + ", ".join(names) + "}"
        assert parameters["additionalProperties"] is False  # nothing else is taken
    assert offered_signatures == CONTRACT_SIGNATURES


def test_r28_the_checks_take_the_names_the_schema_offers() -> None:
    for tool, schema in zip(DECLARATIONS, TOOL_SCHEMAS, strict=True):
        assert wire_names(tool.arguments) == tuple(schema["function"]["parameters"]["properties"])


def test_the_desktop_apps_facts_are_the_backends_declarations_in_order() -> None:
    assert [tool.facts for tool in DECLARATIONS] == list(TOOL_FACTS.values())
    assert list(TOOLS) == list(TOOL_FACTS)
    for tool in DECLARATIONS:  # R77: a kept record keeps only arguments the tool takes
        assert set(tool.facts.kept_arguments) <= set(wire_names(tool.arguments)), tool.name


def test_r32_the_system_message_names_every_tool_with_its_sentence() -> None:
    sentence = INSTRUCTIONS.splitlines()[1]
    assert sentence == (
        "Tools: read_active_note reads the open note; read_document reads a note by its "
        "workspace path; list_documents lists the notes; search_documents finds the notes "
        "that mention some words; propose_note_edit proposes a change to a note, which the "
        "user reviews and applies (read the note first)."
    )


@pytest.fixture
def context(tmp_path: Path) -> Iterator[ToolContext]:
    settings = Settings(data_dir=tmp_path)
    database = Database(f"sqlite:///{tmp_path / 'tools.db'}")
    try:
        yield ToolContext(
            session=None,
            conversation="c1",
            deliveries=DeliveryCredentials(database, settings),
            workspaces=Workspaces(settings),
            clock=settings.clock,
        )
    finally:
        database.close()


def _another_open_note_reader() -> ToolDeclaration[active_note.ReadActiveNoteArguments]:
    """A sixth tool that works on "this note", declared the way the five are."""
    facts = replace(READ_ACTIVE_NOTE, name="outline_active_note")
    return replace(active_note.TOOL, facts=facts, instruction="outlines the open note")


def test_r23_r75_an_unnamed_ask_is_answered_from_the_open_note_alone_today(
    context: ToolContext,
) -> None:
    assert beside_the_first_read() == ()
    use = open_note_use(context, "summarise this")
    assert use.first and use.alone


def test_r23_r75_a_declared_open_note_tool_is_offered_on_an_unnamed_ask(
    context: ToolContext,
) -> None:
    declarations = (*DECLARATIONS, _another_open_note_reader())
    assert beside_the_first_read(declarations) == ("outline_active_note",)
    use = open_note_use(context, "summarise this", declarations)
    assert use.first and not use.alone  # the model is offered the tools and chooses
    schemas = [tool.schema() for tool in declarations]
    without_a_note = offered(schemas, has_pointer=False, declarations=declarations)
    names = [schema["function"]["name"] for schema in without_a_note]
    assert OPEN_NOTE_TOOL not in names and "outline_active_note" not in names  # R27
    assert "read_document" in names
