"""The offline assistant's intents, each declared once: how it is recognised, how it is
answered, and its line in "what I can do" (R38, R54, R56).

The table is ordered: the first entry that recognises a request names its intent.
The model path plans its turn from the same entries (:mod:`workers.model.steps`,
:mod:`workers.model.tool_choice`): whether an ask is about one note, may name a
note by its words, or asks for an edit is read off the entry, never written again.
Adding an intent is one entry here, its answer, its phrases and their translations.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from bridge.markdown import NoteReading
from workers.offline import answers, edits, lines, phrases, replies, words
from workers.offline.answers import Answer, History
from workers.offline.catalogue import phrase
from workers.offline.intents import (
    Asked,
    Request,
    asked_of,
    found,
    is_greeting,
    is_listing,
    is_summary,
    phrased,
    searched,
)
from workers.outcomes import TurnOutcome
from workers.tools import ToolContext, ToolResult


def _never(_asked: Asked) -> bool:
    return False


@dataclass(frozen=True)
class Intent:
    """One intent: its recognition, its answer and what it tells a person it can do."""

    name: str
    answer: Answer
    matches: Callable[[Asked], bool] = _never
    term: Callable[[Asked], str | None] | None = None
    """For an intent that looks for words: the words, or None when the request is not one
    (then ``matches`` is not asked)."""
    can_do: str = ""
    """Its line in "what I can do" (a message id of :mod:`workers.offline.phrases`), if any."""
    takes_paths: bool = True
    """The request keeps the paths it names."""
    about_a_note: bool = False
    """Answered from one note: the named one, else the open one (R23)."""
    keeps_text: bool = False
    """The request keeps its text without the paths: read for a note named by its words."""
    edits: bool = False
    """It asks for a change to the note: a proposal (R54); the model path forces one."""
    compares: bool = False
    """It reads two notes: the open one first when it names only one (R23)."""
    may_be_general: bool = False
    """It may ask about the world rather than the note ("what's the capital of Peru?"):
    offline its words are looked for in the note; a model is offered every tool and chooses."""

    def recognise(self, asked: Asked) -> Request | None:
        if self.edits:
            edit = edits.edit_in(asked.rest, asked.paths[0] if asked.paths else None)
            if edit is None or edit.kind != self.name:
                return None
            paths = [edit.path] if edit.path else []
            return Request(self.name, edit.language, paths, edit.target, more=edit.more)
        if self.term is not None:
            term = self.term(asked)
            if term is None:
                return None
        elif not self.matches(asked):
            return None
        else:
            term = ""
        paths = asked.paths if self.takes_paths else []
        text = asked.rest if self.keeps_text else ""
        return Request(self.name, asked.language, paths, term, text)

    @property
    def names_a_note_by_words(self) -> bool:
        """Its request's text may name another note by its title ("the budget")."""
        return self.keeps_text


_EXAMPLE: Final = re.compile(r"“([^”]+)”|«\s?([^»]+?)\s?»|„([^“]+)“|「([^」]+)」")


def examples(language: str, line: str = "") -> list[str]:
    """The asks "what I can do" gives as examples (or one line of it gives), in the
    language asked, as written there."""
    lines_of = [line] if line else [intent.can_do for intent in INTENTS if intent.can_do]
    found: list[str] = []
    for can_do in lines_of:
        found += ["".join(groups) for groups in _EXAMPLE.findall(phrase(language, can_do))]
    return found


def nearest(language: str, text: str, reading: NoteReading | None = None) -> str:
    """ "Try: …": the example nearest the ask by its words; with none near, for a note
    with open tasks, ticking its first one (R83)."""
    asked = lines.question(text)
    scored = [(lines.score(asked, example), example) for example in examples(language)]
    best, example = max(scored, key=lambda pair: pair[0], default=(0, ""))
    if best == 0 and reading is not None and reading.open_tasks:
        example = phrase(language, phrases.TRY_TICK, task=reading.open_tasks[0].text)
    elif best == 0:
        example = examples(language, phrases.CAN_SUMMARY)[0]  # "summarise this"
    return phrase(language, phrases.TRY, example=example)


def capabilities(language: str) -> str:
    """What the offline assistant can do, a line per intent that has one, then how to get more."""
    lines = [phrase(language, phrases.CAN_DO)]
    lines += [f"- {phrase(language, intent.can_do)}" for intent in INTENTS if intent.can_do]
    return "\n".join(lines) + "\n\n" + phrase(language, phrases.MODEL)


def _capabilities(_context: ToolContext, request: Request, _history: History) -> TurnOutcome:
    return TurnOutcome(capabilities(request.language))


def _saying(opening: str) -> Answer:
    """An answer of one sentence, and once per conversation what it can do (R56)."""

    def answer(_context: ToolContext, request: Request, history: History) -> TurnOutcome:
        reply = phrase(request.language, opening)
        if opening != phrases.GREETING:  # what it can't do: the nearest ask it can (R83)
            reply += "\n\n" + nearest(request.language, request.text)
        listed = any(
            item.role == "assistant" and replies.lists_abilities(item.text) for item in history
        )
        if not listed:
            reply += "\n\n" + capabilities(request.language)
        return TurnOutcome(reply)

    return answer


def _answered(
    context: ToolContext, request: Request, result: ToolResult, reading: NoteReading
) -> list[str]:
    """A question answered from the note's own lines, or said plainly that it can't be."""
    found = lines.answering_lines(reading, lines.question(request.text))
    if found:
        return replies.answer(request.language, result, found)
    cannot = phrase(request.language, phrases.NOT_IN_NOTE, path=result["path"])
    return [cannot, nearest(request.language, request.text, reading)]


def _is_question(asked: Asked) -> bool:
    """An ask about something (a question mark, a question word) whose words could be
    on the note's lines: "what time is the standup?", "is Sam around on friday"."""
    tokens = asked.padded.split()
    asking = (
        "?" in asked.lowered
        or "？" in asked.lowered
        or (bool(tokens) and tokens[0] in words.QUESTION_OPENERS)
        or any(word in asked.lowered for word in words.CJK_QUESTION_ASKS)
    )
    return asking and not lines.question(asked.rest).empty


def _done(asked: Asked) -> bool:
    return asked.has(words.DONE) and not asked.has(words.STILL_OPEN)


def _edit(name: str, can_do: str = "") -> Intent:
    return Intent(name, answers.edit, edits=True, can_do=can_do)


INTENTS: Final[tuple[Intent, ...]] = (
    # In order: the first that recognises a request names its intent. Untick before
    # tick: some untick phrases hold a tick phrase ("mark as not done").
    _edit("add", phrases.CAN_EDIT),  # first: the only things it can change (R80)
    _edit("move", phrases.CAN_MOVE),
    _edit("rename", phrases.CAN_RENAME),
    _edit("untick"),
    _edit("tick"),
    _edit("remove"),
    Intent(
        "compare",
        answers.compare,
        phrased(words.COMPARE),
        can_do=phrases.CAN_COMPARE,
        compares=True,
    ),
    Intent("search", answers.search, term=searched, takes_paths=False, can_do=phrases.CAN_SEARCH),
    Intent("listing", answers.listing, is_listing, takes_paths=False, can_do=phrases.CAN_LIST),
    Intent(
        "find",
        answers.about_a_note(answers.find_part),
        term=found,
        about_a_note=True,
        can_do=phrases.CAN_FIND,
    ),
    Intent(
        "ticked",
        answers.about_a_note(answers.ticked_part),
        _done,
        can_do=phrases.CAN_DONE,
        about_a_note=True,
        keeps_text=True,
    ),
    Intent(
        "unsupported", _saying(phrases.UNSUPPORTED), phrased(words.UNSUPPORTED), keeps_text=True
    ),
    Intent(
        "dates",
        answers.about_a_note(answers.dates_part),
        phrased(words.DATES),
        can_do=phrases.CAN_DATES,
        about_a_note=True,
        keeps_text=True,
    ),
    Intent(
        "tasks",
        answers.about_a_note(answers.tasks_part),
        phrased(words.TASKS),
        can_do=phrases.CAN_TASKS,
        about_a_note=True,
        keeps_text=True,
    ),
    Intent(
        "outline",
        answers.about_a_note(answers.outline_part),
        phrased(words.OUTLINE),
        can_do=phrases.CAN_OUTLINE,
        about_a_note=True,
        keeps_text=True,
    ),
    Intent(
        "summary",
        answers.about_a_note(answers.summary_part),
        is_summary,
        can_do=phrases.CAN_SUMMARY,
        about_a_note=True,
        keeps_text=True,
    ),
    Intent("help", _capabilities, phrased(words.HELP), takes_paths=False),
    Intent("greeting", _saying(phrases.GREETING), is_greeting, takes_paths=False),
    Intent(
        "question",
        answers.about_a_note(_answered),
        _is_question,
        can_do=phrases.CAN_ASK,
        about_a_note=True,
        keeps_text=True,
        may_be_general=True,
    ),
    Intent(
        "other", _saying(phrases.OTHER), lambda _asked: True, takes_paths=False, keeps_text=True
    ),
)
"""The offline classifier (R38): one entry per intent, tried in this order."""

BY_NAME: Final = {intent.name: intent for intent in INTENTS}


def classify(message: str) -> Request:
    """The intent of a request, the paths it names and its language."""
    asked = asked_of(message)
    for intent in INTENTS:
        request = intent.recognise(asked)
        if request is not None:
            return request
    raise AssertionError("the last intent recognises every request")  # pragma: no cover


def intent_of(request: Request) -> Intent:
    return BY_NAME[request.intent]
