"""Every scenario verb and expect key, gathered from the modules that declare them.

The file reader (:mod:`app.scenario.model`), the replay (:mod:`app.scenario.runner`)
and the QA guide's tables all read this catalogue: a new verb or key is one
declaration beside its code, plus its family's tuple here when the family is new.
The verbs that belong to the replay itself (``send``, ``expect``, ``restart``,
``caption``) are declared here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.scenario import (
    actions,
    checks,
    elsewhere_actions,
    inline_actions,
    proposal_actions,
    sharing,
)
from app.scenario.expectations import ExpectBody, expect_model
from app.scenario.registry import ExpectKey, Replay, Step, Verb, table
from app.scenario.report import StepResult
from app.scenario.steps import CaptionStep, RestartStep, SendStep, parse_restart, parse_send

EXPECT_KEYS: tuple[ExpectKey[Any], ...] = (
    *checks.EXPECT_KEYS,
    *proposal_actions.EXPECT_KEYS,
    *sharing.EXPECT_KEYS,
    *elsewhere_actions.EXPECT_KEYS,
    *inline_actions.EXPECT_KEYS,
)


ExpectStep = expect_model(EXPECT_KEYS, __name__)
"""An ``expect`` step (an :class:`~app.scenario.expectations.ExpectBody`)."""


def _send(replay: Replay, step: SendStep, outcome: StepResult) -> None:
    replay.send(step, outcome)


def _expect(replay: Replay, step: ExpectBody, outcome: StepResult) -> None:
    outcome.mismatches = replay.check(step)
    if outcome.mismatches:
        outcome.status = "failed"


def _restart(replay: Replay, _step: RestartStep, _outcome: StepResult) -> None:
    replay.restart()


def _caption(_replay: Replay, _step: CaptionStep, _outcome: StepResult) -> None:
    return None


_REPLAY_VERBS: tuple[Verb[Any], ...] = (
    Verb(
        SendStep,
        _send,
        (
            ('`send: "message"`', "sends a message from the assistant and waits for the reply."),
            (
                "`send: {message: M, includeAmbient: false}`",
                "sends with the context chip's toggle off: no note context.",
            ),
            (
                "`send: {message: M, duringFlush: [steps]}`",
                "sends, and performs the listed steps while the send is still saving pending "
                "edits (before the pointer is read). Only action steps may appear here (no "
                "`send`, `expect`, `caption`). With nothing to save first (no Inbox frame, "
                "context off) the steps cannot run, and the send step fails saying so.",
            ),
        ),
        parse=parse_send,
        during=False,
    ),
    Verb(
        RestartStep,
        _restart,
        (
            (
                "`restart: {}`",
                "quits the app the way a person does (pending saves land, the layout is "
                "written) and starts it again on the same data folder and workspace, so what "
                "R45 restores can be checked.",
            ),
        ),
        parse=parse_restart,
        during=False,
    ),
    Verb(
        CaptionStep,
        _caption,
        (
            (
                '`caption: "text"`',
                "does nothing to the app; a sentence for the report (the demo tour uses it).",
            ),
        ),
        during=False,
    ),
    Verb(ExpectStep, _expect, (), during=False),
)
"""``expect`` has a table of its own (its keys), so no row among the verbs."""

VERBS: tuple[Verb[Any], ...] = (
    *actions.VERBS,
    *_REPLAY_VERBS,
    *proposal_actions.VERBS,
    *sharing.VERBS,
    *elsewhere_actions.VERBS,
    *inline_actions.VERBS,
)
"""Every verb, in the order the QA guide lists them."""

BY_NAME: Mapping[str, Verb[Any]] = {verb.name: verb for verb in VERBS}
_BY_MODEL: Mapping[type, Verb[Any]] = {verb.model: verb for verb in VERBS}


def verb_of(step: Step) -> Verb[Any]:
    """The declaration of ``step``'s verb."""
    return _BY_MODEL[type(step)]


VERB_HEADER = ("step", "what the user does")
KEY_HEADER = ("key", "passes when")
NOW_NOTE = "*not about a send*: "
"""How the guide marks a key about the window now (derived from the key's ``about``)."""


def verb_table() -> str:
    """The QA guide's table of verbs (``scenarios/README.md``), generated."""
    return table(VERB_HEADER, (row for verb in VERBS for row in verb.rows))


def key_table() -> str:
    """The QA guide's table of expect keys, generated; keys about now say so."""
    return table(
        KEY_HEADER,
        (
            (left, (NOW_NOTE if key.about == "now" else "") + right)
            for key in EXPECT_KEYS
            for left, right in key.rows
        ),
    )


GUIDE_TABLES: Mapping[str, Callable[[], str]] = {"verbs": verb_table, "expect-keys": key_table}
"""The generated tables of ``scenarios/README.md``, by the name their markers carry."""


def _markers(name: str) -> tuple[str, str]:
    return (
        f"<!-- {name}: generated from app/scenario/catalogue.py, do not edit -->",
        f"<!-- end of {name} -->",
    )


def with_tables(guide: str) -> str:
    """The guide's text with each generated table replaced by the catalogue's."""
    for name, render in GUIDE_TABLES.items():
        begin, end = _markers(name)
        head, found, rest = guide.partition(begin + "\n")
        _old, closed, tail = rest.partition(end)
        if not found or not closed:
            raise ValueError(f"the guide has no '{name}' table markers")
        guide = f"{head}{begin}\n{render()}\n{end}{tail}"
    return guide


if __name__ == "__main__":  # python -m app.scenario.catalogue scenarios/README.md
    import sys
    from pathlib import Path

    target = Path(sys.argv[1])
    target.write_text(with_tables(target.read_text(encoding="utf-8")), encoding="utf-8")
