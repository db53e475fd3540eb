"""What each model request of a turn offers: the tools its step can use, and no more (R75).

A turn is planned from the offline classifier's reading of the ask, so both
assistants agree on what "this note" and "an edit" are:

- a note-only ask ("summarise this"): the backend reads the open note itself (a real,
  recorded ``read_active_note`` call) and asks once, for the answer, with no tools;
- an edit ask (tick, untick, add or remove a task, rename or change a line): the
  backend reads the note, then asks for ``propose_note_edit`` by name, then for a
  short answer with no tools;
- anything else: every usable tool, the model choosing (tool choice "auto").

How the ask needs the open note, and which tools are usable, is
:mod:`workers.model.tool_choice`'s, read off the tool declarations.

The forced edit call's schema lists the note's lines that occur once as the only
values ``oldText`` may take, and asks for one edit (on a small enough note): a server
that constrains tool arguments to their schema (llama.cpp does) can then only propose
a change that applies, whatever the model's size.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Final, Literal

from workers.model.prompt import TOOL_SCHEMAS
from workers.model.tool_choice import offered, open_note_use
from workers.offline.intents import words_of
from workers.offline.table import classify, intent_of
from workers.tools import OPEN_NOTE_TOOL, PROPOSE_TOOL, ToolContext

__all__ = ["OPEN_NOTE_TOOL", "Plan", "Step", "auto_tools", "edit_tools", "forced_tools", "plan"]

Step = Literal["answer", "edit", "auto"]

EDIT_WORDS: Final = frozenset(
    {
        # English, French, German, Spanish: the verbs of an edit the task words do not cover.
        # Not "edit" or "fix": "how do I edit notes?" asks for no change.
        # ("rename", "renomme", "benenne", "renombra" are the table's rename intent.)
        "reword", "replace", "change",
        "renommer", "remplace", "remplacer", "modifie", "modifier",
        "umbenennen", "ersetze", "ersetzen", "ändere", "ändern",
        "renombrar", "reemplaza", "reemplazar", "cambia", "cambiar",
    }
)  # fmt: skip
EDIT_PHRASES_CJK: Final = ("名前を変更", "書き換え", "置き換え", "重命名", "替换", "바꿔")
ENUM_MAX_LINES: Final = 200
ENUM_MAX_BYTES: Final = 16 * 1024
"""Beyond this the note's lines are not listed in the schema: the prompt would double."""


@dataclass(frozen=True)
class Plan:
    read_first: bool
    """The backend runs ``read_active_note`` before the first model request."""
    step: Step


def is_edit_ask(message: str) -> bool:
    """An ask to change the note: the offline edit words, or a verb of change."""
    if intent_of(classify(message)).edits:
        return True
    if any(phrase in message for phrase in EDIT_PHRASES_CJK):
        return True
    return any(word in EDIT_WORDS for word in words_of(message[:4096]).split())


def plan(context: ToolContext, message: str, *, has_pointer: bool, first_tool: str) -> Plan:
    """How the turn starts; ``first_tool`` is the settings knob ("auto" in the product)."""
    if context.session is None:
        return Plan(read_first=False, step="answer")  # no workspace: no tool can read anything
    if first_tool == OPEN_NOTE_TOOL:  # the knob: read the open note first, whatever is asked
        edit = is_edit_ask(message)
        alone = open_note_use(context, message).alone
        return Plan(read_first=True, step="edit" if edit else "answer" if alone else "auto")
    if not has_pointer:
        return Plan(read_first=False, step="auto")
    if is_edit_ask(message) and not _names_a_path(message):
        return Plan(read_first=True, step="edit")
    use = open_note_use(context, message)
    if use.first:
        return Plan(read_first=True, step="answer" if use.alone else "auto")
    return Plan(read_first=False, step="auto")


def _names_a_path(message: str) -> bool:
    request = classify(message)
    return intent_of(request).edits and bool(request.paths)


def auto_tools(*, has_pointer: bool) -> list[dict[str, Any]]:
    """Every tool a model may pick; without an open note, none that reads it."""
    return offered(TOOL_SCHEMAS, has_pointer=has_pointer)


def forced_tools(name: str) -> list[dict[str, Any]]:
    """The one tool a request names, without ``maxBytes``: a forced call's grammar makes a
    small model write some number there (up to 6×10^13 was seen), and the default is right."""
    found = [copy.deepcopy(t) for t in TOOL_SCHEMAS if t["function"]["name"] == name]
    for tool in found:
        tool["function"]["parameters"]["properties"].pop("maxBytes", None)
    return found


def edit_tools(note: str | None) -> list[dict[str, Any]]:
    """``propose_note_edit`` alone, its ``oldText`` bound to the note's single lines if small."""
    [tool] = [t for t in TOOL_SCHEMAS if t["function"]["name"] == PROPOSE_TOOL]
    lines = _single_lines(note) if note is not None else []
    if not lines:
        return [tool]
    bound = copy.deepcopy(tool)
    edits_schema = bound["function"]["parameters"]["properties"]["edits"]
    edits_schema["items"]["properties"]["oldText"] = {"type": "string", "enum": lines}
    # One change per ask: a small model writes the same edit twice, which overlaps.
    edits_schema["maxItems"] = 1
    return [bound]


def _single_lines(note: str) -> list[str]:
    """The note's non-blank lines that occur in it exactly once (an ``oldText`` that applies).

    Bounded: only a note of at most 200 lines and 16 KiB is looked at, so the count
    per line stays small.
    """
    if len(note.encode("utf-8")) > ENUM_MAX_BYTES:
        return []
    lines = [line for line in note.splitlines() if line.strip()]
    if len(lines) > ENUM_MAX_LINES:
        return []
    unique = dict.fromkeys(line for line in lines if note.count(line) == 1)
    return list(unique)
