"""What a scenario verb and an expect key are: one declaration each, everything else derived.

A :class:`Verb` names its step model (the pydantic shape a file's value is read
into), how it runs and the rows the QA guide shows for it; an :class:`ExpectKey`
names its value's type, whether it is about the window now or about the latest
send, and how it is checked. :mod:`app.scenario.catalogue` gathers the
declarations; the parser, the dispatch, the ``expect`` model and the tables in
``scenarios/README.md`` are all read off it, so nothing keeps a second list.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, Generic, Literal, Protocol, TypeVar

if TYPE_CHECKING:
    from app.scenario.report import Mismatch, SendRecord, StepResult
    from app.window.main_window import MainWindow


class Step(Protocol):
    """Any scenario step: its verb, its report line and its value as a file writes it."""

    verb: ClassVar[str]

    def describe(self) -> str: ...

    def body(self) -> object:
        """The value under the verb, as a scenario file holds it (what the recorder writes)."""
        ...


def step_data(step: Step) -> dict[str, object]:
    """One step as a scenario file holds it: ``{verb: value}``."""
    return {step.verb: step.body()}


class Replay(Protocol):
    """What a verb runs against: the replay's window, its connected tool, its sends."""

    @property
    def window(self) -> MainWindow: ...

    @property
    def peer(self) -> object:
        """The tool connected to the sidecar (:class:`app.scenario.sharing.SharingPeer`)."""

    def act(self, step: Step, outcome: StepResult) -> None:
        """Run a nested step (the steps under ``during`` / ``duringFlush``)."""

    def send(self, step: Any, outcome: StepResult) -> None: ...

    def check(self, step: Any) -> list[Mismatch]: ...

    def restart(self) -> None: ...


class StepParser(Protocol):
    """The file reader, for verbs whose value holds further steps."""

    def problem(self, step: str | None, field_name: str | None, message: str) -> None: ...

    def parse(self, raw: object, step: str, prefix: str, nested: bool) -> Step | None: ...

    def validate(
        self, model: Any, body: Mapping[Any, Any], step: str, where: str, *, scalar: bool
    ) -> Any: ...


S = TypeVar("S", bound=Step)
T = TypeVar("T")
Run = Callable[["Replay", S, "StepResult"], None]
"""Performs one step and waits until it has taken effect; a step error when it cannot."""
Parse = Callable[[StepParser, object, str, str], Any]
"""Reads a step's value (``step`` number, ``where`` in the file); None after a problem."""


@dataclass(frozen=True)
class Verb(Generic[S]):
    """One scenario verb.

    The model's ``scalar`` names the one field a plain-text value fills
    (``activate: inbox-1``); without it the value is a mapping of the model's keys.
    ``parse`` replaces both for a verb whose value holds further steps. ``coerce``
    turns a value a person naturally writes into the one the model reads (YAML's
    bare ``on`` is true).
    ``rows`` are the QA guide's table rows: (what to write, what the user does).
    """

    model: type[S]
    run: Run[S]
    rows: tuple[tuple[str, str], ...]
    parse: Parse | None = None
    coerce: Callable[[object], object] | None = None
    during: bool = True
    """May run while a send's flush or an inline request is in flight (the user keeps working)."""

    @property
    def name(self) -> str:
        return self.model.verb

    @property
    def scalar(self) -> str | None:
        field_name: str | None = getattr(self.model, "scalar", None)
        return field_name


def on_window(act: Callable[[MainWindow, S], object]) -> Run[S]:
    """A verb's run that needs only the window (most of them)."""

    def run(replay: Replay, step: S, _outcome: StepResult) -> None:
        act(replay.window, step)

    return run


class Checking(Protocol):
    """What an expect key is checked against: the window now, the latest send, the tool."""

    @property
    def window(self) -> MainWindow: ...

    @property
    def send(self) -> SendRecord:
        """The latest send; only asked by keys about a send, once one exists."""
        ...

    @property
    def peer(self) -> object:
        """The tool connected to the sidecar (:class:`app.scenario.sharing.SharingPeer`)."""


Check = Callable[[Checking, T], "list[Mismatch]"]
About = Literal["now", "latest send"]
NOW: Final = "now"
"""A key about the window as it is now (usable before any send)."""
SEND: Final = "latest send"
"""A key about the latest send (an ``expect`` before any send fails it)."""


@dataclass(frozen=True)
class ExpectKey(Generic[T]):
    """One key of ``expect``.

    ``about`` says whether it looks at the window as it is now or at the latest send
    (an ``expect`` with a key about a send fails when there was none). ``nullable``:
    ``key: null`` means something (no header, no note); otherwise null is refused.
    ``needs_reply``: when the send got no reply, one "reply" mismatch stands for the
    keys that read it. ``rows`` are the QA guide's table rows.
    """

    name: str
    annotation: Any
    about: About
    check: Check[T]
    rows: tuple[tuple[str, str], ...]
    nullable: bool = False
    needs_reply: bool = False


def table(header: tuple[str, str], rows: Iterable[tuple[str, str]]) -> str:
    """A Markdown table (the guide's verb and key tables are generated with this)."""
    lines = [f"| {header[0]} | {header[1]} |", "| --- | --- |"]
    lines += [f"| {left} | {right} |" for left, right in rows]
    return "\n".join(lines)
