"""Reads and strictly validates QA scenario files (contract section 6) into typed steps.

Every problem names the file, the 1-based step number and the field, so QA can
fix a case without reading code. Unknown verbs and keys are errors, never
ignored. Nothing here touches Qt or the app: a file is fully validated before
anything runs.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, ClassVar, Literal

import yaml
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from bridge.drops import DROP_REASONS
from bridge.paths import WorkspacePathError, check_workspace_path
from bridge.pointer import View
from workers.identity import is_workspace_id

ASSISTANT_FRAME = "assistant"
SCENARIO_SUFFIXES: tuple[str, ...] = (".yaml", ".yml", ".json")
NO_DROP = "none"
AmbientStatus = Literal["stored", "absent", "rejected"]

FrameId = Annotated[str, Field(min_length=1, max_length=256)]
NonNegative = Annotated[int, Field(ge=0)]


# -- problems ------------------------------------------------------------------


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a scenario file, located by step and field."""

    file: str
    message: str
    step: str | None = None
    field: str | None = None

    def __str__(self) -> str:
        where = [self.file]
        if self.step is not None:
            where.append(f"step {self.step}")
        if self.field is not None:
            where.append(f"field '{self.field}'")
        return ": ".join([*where, self.message])


class ScenarioFileError(Exception):
    """A scenario file could not be read or did not validate; nothing of it has run."""

    def __init__(self, problems: Sequence[Problem]) -> None:
        self.problems = tuple(problems)
        super().__init__("\n".join(str(problem) for problem in self.problems))


# -- step bodies -----------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class _Body(_Strict):
    verb: ClassVar[str]
    # The step's line in reports, filled from its fields (``{frame}``); or override describe().
    summary: ClassVar[str]

    def describe(self) -> str:
        """One line for reports and screenshots' captions."""
        return self.summary.format_map(dict(self))


class _Subset(_Strict):
    """Expected values: only the keys the scenario gives are compared."""

    def expected(self) -> dict[str, Any]:
        return self.model_dump(exclude_unset=True)


_SHOWN_PATH_CHARS = 72


def _shown(path: str | None) -> str:
    """A path short enough for a report line; the middle of a very long one is elided."""
    text = path or ""
    if len(text) <= _SHOWN_PATH_CHARS:
        return text
    half = _SHOWN_PATH_CHARS // 2
    return f"{text[:half]}…{text[-half:]}"


def _workspace_path(value: str) -> str:
    try:
        return check_workspace_path(value)
    except WorkspacePathError as error:
        raise ValueError(str(error)) from error


WorkspacePath = Annotated[str, AfterValidator(_workspace_path)]


class MountStep(_Body):
    """Mount an Inbox frame on a note, or a non-Inbox provider frame."""

    verb: ClassVar[str] = "mount"
    frame: FrameId
    path: WorkspacePath | None = None
    view: View | None = None
    provider: str | None = Field(default=None, min_length=1)
    wait: bool = True
    """False: go on at once, while the note is still loading (an Inbox frame only)."""

    @field_validator("frame")
    @classmethod
    def _not_assistant(cls, value: str) -> str:
        if value == ASSISTANT_FRAME:
            raise ValueError("the assistant frame always exists and cannot be mounted")
        return value

    @model_validator(mode="after")
    def _inbox_or_provider(self) -> MountStep:
        if (self.path is None) == (self.provider is None):
            raise ValueError("give either 'path' (an Inbox frame) or 'provider', not both")
        if self.provider is not None and self.view is not None:
            raise ValueError("'view' applies to Inbox frames only")
        if self.provider is not None and not self.wait:
            raise ValueError("'wait' applies to Inbox frames only")
        return self

    @property
    def inbox_view(self) -> View:
        return self.view or "edit"

    def describe(self) -> str:
        if self.provider is not None:
            return f"mount provider {self.provider} as {self.frame}"
        described = f"mount {self.frame} on {_shown(self.path)} ({self.inbox_view})"
        return described + ("" if self.wait else ", without waiting for it to load")


class ActivateStep(_Body):
    """Activate a frame the way a click does."""

    verb: ClassVar[str] = "activate"
    summary: ClassVar[str] = "activate {frame}"
    frame: FrameId


class TypeStep(_Body):
    """Type text into an Inbox frame's editor."""

    verb: ClassVar[str] = "type"
    summary: ClassVar[str] = "type {text!r} into {frame} at {at}"
    frame: FrameId
    text: str
    at: Literal["end"] | NonNegative = "end"

    @field_validator("at", mode="before")
    @classmethod
    def _end_or_offset(cls, value: object) -> object:
        if value == "end" or (type(value) is int and value >= 0):
            return value
        raise ValueError("'at' is 'end' or an offset (a whole number, 0 or more)")


class SelectStep(_Body):
    """Select a range in an Inbox frame's editor (UTF-16 offsets)."""

    verb: ClassVar[str] = "select"
    summary: ClassVar[str] = "select {anchor}..{head} in {frame}"
    frame: FrameId
    anchor: NonNegative
    head: NonNegative


class ViewStep(_Body):
    """Switch an Inbox frame's view."""

    verb: ClassVar[str] = "view"
    summary: ClassVar[str] = "show {frame} as {view}"
    frame: FrameId
    view: View


class OpenStep(_Body):
    """Make an Inbox frame show another note."""

    verb: ClassVar[str] = "open"
    frame: FrameId
    path: WorkspacePath
    wait: bool = True
    """False: go on at once, while the note is still loading."""

    def describe(self) -> str:
        described = f"open {_shown(self.path)} in {self.frame}"
        return described + ("" if self.wait else ", without waiting for it to load")


class PopoutStep(_Body):
    """Move an Inbox frame into its own process (R29)."""

    verb: ClassVar[str] = "popout"
    summary: ClassVar[str] = "pop out {frame}"
    frame: FrameId


class UnmountStep(_Body):
    """Close a frame."""

    verb: ClassVar[str] = "unmount"
    summary: ClassVar[str] = "unmount {frame}"
    frame: FrameId


class SwitchWorkspaceStep(_Body):
    """Cross the workspace boundary into another workspace (R7)."""

    verb: ClassVar[str] = "switch-workspace"
    summary: ClassVar[str] = "switch to workspace {workspace}"
    workspace: str

    @field_validator("workspace")
    @classmethod
    def _workspace_id(cls, value: str) -> str:
        if not is_workspace_id(value):
            raise ValueError(
                "a workspace name is 1-64 letters, digits, '.', '_' or '-', "
                "starting with a letter or digit"
            )
        return value


class CaptionStep(_Body):
    """A sentence for the reader of a report; does nothing to the app."""

    verb: ClassVar[str] = "caption"
    summary: ClassVar[str] = "{text}"
    text: str = Field(min_length=1)


class _SendBody(_Strict):
    message: str = Field(min_length=1)
    duringFlush: list[Any] = Field(default_factory=list)
    includeAmbient: bool = True


@dataclass(frozen=True)
class SendStep:
    """Send a message from the assistant; ``during_flush`` runs while its flush is in flight."""

    verb: ClassVar[str] = "send"
    message: str
    during_flush: tuple[Step, ...] = ()
    include_ambient: bool = True

    def describe(self) -> str:
        extra = "" if self.include_ambient else " (ambient context excluded)"
        return f"send {self.message!r}{extra}"


class SelectionExpectation(_Strict):
    anchor: NonNegative
    head: NonNegative


class PointerExpectation(_Subset):
    """A subset of the pointer's fields."""

    v: int | None = None
    path: str | None = None
    view: View | None = None
    frameId: str | None = None
    selection: SelectionExpectation | None = None
    bytes: NonNegative | None = None
    sha256: str | None = None
    flushed: bool | None = None
    capturedAt: str | None = None


class StoredExpectation(_Subset):
    """A subset of the backend's delivery row columns; ``ambient_meta`` is a subset too."""

    ambient_path: str | None = None
    ambient_view: View | None = None
    ambient_meta: dict[str, Any] | None = None


class ResolvesExpectation(_Subset):
    """What "this note" resolves to right now, before any send."""

    frameId: str | None = None
    path: str | None = None
    view: View | None = None


class ExpectStep(_Body):
    """Expectations about the latest send (and ``resolves``: about now); every key optional."""

    verb: ClassVar[str] = "expect"
    pointer: PointerExpectation | None = None
    dropped: str | None = None
    stored: StoredExpectation | None = None
    tools: list[str] | None = None
    caveat: bool | None = None
    partial: bool | None = None
    replyContains: str | None = None
    ambientStatus: AmbientStatus | None = None
    resolves: ResolvesExpectation | None = None
    chip: str | None = None
    """Now, not about a send: the chip's ``path`` or ``path:lines``; null = no note (R48)."""

    @field_validator("dropped")
    @classmethod
    def _known_reason(cls, value: str | None) -> str | None:
        allowed = (NO_DROP, *DROP_REASONS)
        if value is not None and value not in allowed:
            raise ValueError(f"dropped is one of: {', '.join(allowed)}")
        return value

    @model_validator(mode="after")
    def _something_expected(self) -> ExpectStep:
        if not self.model_fields_set:
            raise ValueError("expect needs at least one key")
        for key in ("dropped", "tools", "caveat", "partial", "replyContains", "ambientStatus"):
            if key in self.model_fields_set and getattr(self, key) is None:
                raise ValueError(f"'{key}' cannot be null")
        return self

    @property
    def about_send(self) -> bool:
        """True when any key looks at the latest send (all but ``resolves`` and ``chip``)."""
        return bool(self.model_fields_set - {"resolves", "chip"})

    def describe(self) -> str:
        parts: list[str] = []
        for key in type(self).model_fields:
            if key not in self.model_fields_set:
                continue
            value = getattr(self, key)
            if isinstance(value, BaseModel):
                value = value.model_dump(exclude_unset=True)
            parts.append(f"{key} {json.dumps(value, ensure_ascii=False)}")
        return "expect " + ", ".join(parts)


Step = (
    MountStep
    | ActivateStep
    | TypeStep
    | SelectStep
    | ViewStep
    | OpenStep
    | PopoutStep
    | UnmountStep
    | SwitchWorkspaceStep
    | SendStep
    | ExpectStep
    | CaptionStep
)

_MAPPING_VERBS: dict[str, type[_Body]] = {
    model.verb: model for model in (MountStep, TypeStep, SelectStep, ViewStep, OpenStep, ExpectStep)
}
# Verbs whose value is one plain string, and the field it fills.
_SCALAR_VERBS: dict[str, tuple[type[_Body], str]] = {
    model.verb: (model, field_name)
    for model, field_name in (
        (ActivateStep, "frame"),
        (PopoutStep, "frame"),
        (UnmountStep, "frame"),
        (SwitchWorkspaceStep, "workspace"),
        (CaptionStep, "text"),
    )
}
VERBS: tuple[str, ...] = (*_MAPPING_VERBS, *_SCALAR_VERBS, SendStep.verb)
# Steps that make sense while a flush is in flight: the user keeps working.
_DURING_FLUSH_EXCLUDED = frozenset({SendStep.verb, ExpectStep.verb, CaptionStep.verb})


# -- the scenario ----------------------------------------------------------------


@dataclass(frozen=True)
class Scenario:
    """A validated scenario file, ready to run."""

    source: Path
    name: str
    steps: tuple[Step, ...]
    workspace: dict[str, str] = field(default_factory=dict)
    save_delay: float = 0.0
    load_delay: float = 0.0
    description: str | None = None
    rules: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """The file as the person running it would name it (relative to here when inside)."""
        try:
            return self.source.resolve().relative_to(Path.cwd().resolve()).as_posix()
        except ValueError:
            return str(self.source)


class _BackendBody(_Strict):
    saveDelay: Annotated[float, Field(ge=0, le=60)] = 0.0
    loadDelay: Annotated[float, Field(ge=0, le=60)] = 0.0


_TOP_KEYS = frozenset({"name", "description", "rules", "workspace", "backend", "steps"})
_RULE = re.compile(r"^R([1-9]|[1-4][0-9])$")  # R1–R49


class _UniqueKeyLoader(yaml.SafeLoader):
    """A YAML loader that refuses a key given twice in one mapping instead of keeping the last."""


def _construct_unique_mapping(loader: _UniqueKeyLoader, node: yaml.MappingNode) -> dict[Any, Any]:
    seen: set[Any] = set()
    for key_node, _ in node.value:
        key = loader.construct_object(key_node)
        if key in seen:
            line = key_node.start_mark.line + 1
            raise yaml.constructor.ConstructorError(
                None, None, f"the key '{key}' appears twice (line {line})", key_node.start_mark
            )
        seen.add(key)
    return loader.construct_mapping(node)


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
    _construct_unique_mapping,
)


def _describe_pydantic(error: ValidationError, prefix: str) -> list[tuple[str, str]]:
    located: list[tuple[str, str]] = []
    for item in error.errors():
        loc = [str(part) for part in item.get("loc", ())]
        where = ".".join([prefix, *loc]) if prefix else ".".join(loc)
        if item.get("type") == "extra_forbidden":
            located.append((where, f"unknown key '{loc[-1] if loc else ''}'"))
            continue
        message = str(item.get("msg", "is invalid"))
        message = message.removeprefix("Value error, ")
        located.append((where, message))
    return located


class _StepParser:
    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []

    def problem(self, step: str | None, field_name: str | None, message: str) -> None:
        self.problems.append(Problem(self.file, message, step, field_name))

    def parse(self, raw: object, step: str, prefix: str, nested: bool) -> Step | None:
        if not isinstance(raw, Mapping) or len(raw) != 1:
            self.problem(
                step,
                prefix or None,
                "a step is a mapping with exactly one verb, e.g. '- activate: inbox-1'; "
                f"verbs: {', '.join(VERBS)}",
            )
            return None
        ((verb, body),) = raw.items()
        where = f"{prefix}.{verb}" if prefix else str(verb)
        if verb not in VERBS:
            self.problem(step, where, f"unknown verb '{verb}'; verbs: {', '.join(VERBS)}")
            return None
        if nested and verb in _DURING_FLUSH_EXCLUDED:
            self.problem(step, where, f"'{verb}' cannot run during a flush")
            return None
        if verb == SendStep.verb:
            return self._parse_send(body, step, where)
        if verb in _SCALAR_VERBS:
            model, field_name = _SCALAR_VERBS[verb]
            if not isinstance(body, str):
                self.problem(step, where, f"'{verb}' takes one {field_name} name as plain text")
                return None
            return self._validate(model, {field_name: body}, step, where, scalar=True)
        if not isinstance(body, Mapping):
            self.problem(step, where, f"'{verb}' takes a mapping of keys")
            return None
        return self._validate(_MAPPING_VERBS[verb], body, step, where, scalar=False)

    def _validate(
        self, model: type[_Body], body: Mapping[Any, Any], step: str, where: str, *, scalar: bool
    ) -> Step | None:
        try:
            parsed = model.model_validate(dict(body))
        except ValidationError as error:
            for field_name, message in _describe_pydantic(error, where):
                # A one-value verb has no keys of its own to name: the verb is the field.
                self.problem(step, where if scalar else field_name, message)
            return None
        return parsed  # type: ignore[return-value]

    def _parse_send(self, body: object, step: str, where: str) -> SendStep | None:
        if isinstance(body, str):
            body = {"message": body}
        if not isinstance(body, Mapping):
            self.problem(step, where, "'send' takes a message or a mapping with 'message'")
            return None
        try:
            parsed = _SendBody.model_validate(dict(body))
        except ValidationError as error:
            for field_name, message in _describe_pydantic(error, where):
                self.problem(step, field_name, message)
            return None
        during: list[Step] = []
        for index, raw in enumerate(parsed.duringFlush, start=1):
            inner = self.parse(raw, f"{step}.{index}", f"{where}.duringFlush[{index}]", True)
            if inner is not None:
                during.append(inner)
        return SendStep(parsed.message, tuple(during), parsed.includeAmbient)


def parse_scenario(data: object, source: Path) -> Scenario:
    """Validate already-loaded scenario data; raises :class:`ScenarioFileError`."""
    file = str(source)
    parser = _StepParser(file)
    if not isinstance(data, Mapping):
        raise ScenarioFileError([Problem(file, "a scenario is a mapping with a 'steps' list")])
    for key in data:
        if key not in _TOP_KEYS:
            parser.problem(
                None, str(key), f"unknown key; a scenario has: {', '.join(sorted(_TOP_KEYS))}"
            )
    name = data.get("name", source.stem)
    if not isinstance(name, str) or not name.strip():
        parser.problem(None, "name", "the name is a non-empty text")
        name = source.stem
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        parser.problem(None, "description", "the description is text")
        description = None
    rules = _parse_rules(data.get("rules", []), parser)
    workspace = _parse_workspace(data.get("workspace", {}), parser)
    backend = _parse_backend(data.get("backend", {}), parser)
    raw_steps = data.get("steps")
    steps: list[Step] = []
    if not isinstance(raw_steps, list) or not raw_steps:
        parser.problem(None, "steps", "a scenario needs a non-empty list of steps")
    else:
        for number, raw in enumerate(raw_steps, start=1):
            step = parser.parse(raw, str(number), "", False)
            if step is not None:
                steps.append(step)
    if parser.problems:
        raise ScenarioFileError(parser.problems)
    return Scenario(
        source=source,
        name=name,
        steps=tuple(steps),
        workspace=workspace,
        save_delay=backend.saveDelay,
        load_delay=backend.loadDelay,
        description=description,
        rules=rules,
    )


def _parse_rules(raw: object, parser: _StepParser) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(rule, str) for rule in raw):
        parser.problem(None, "rules", "rules is a list like [R4, R5]")
        return ()
    bad = [rule for rule in raw if not _RULE.match(rule)]
    if bad:
        parser.problem(None, "rules", f"not a rule number R1-R49: {', '.join(bad)}")
    return tuple(raw)


def _parse_workspace(raw: object, parser: _StepParser) -> dict[str, str]:
    if not isinstance(raw, Mapping):
        parser.problem(None, "workspace", "workspace maps document paths to their text")
        return {}
    documents: dict[str, str] = {}
    for path, text in raw.items():
        where = f"workspace.{path}"
        if not isinstance(path, str):
            parser.problem(None, where, "a document path is text")
            continue
        try:
            check_workspace_path(path)
        except WorkspacePathError as error:
            parser.problem(None, where, str(error))
            continue
        if not isinstance(text, str):
            parser.problem(None, where, "a document's content is text (quote it)")
            continue
        documents[path] = text
    return documents


def _parse_backend(raw: object, parser: _StepParser) -> _BackendBody:
    if not isinstance(raw, Mapping):
        parser.problem(None, "backend", "backend is a mapping, e.g. {saveDelay: 4}")
        return _BackendBody()
    try:
        return _BackendBody.model_validate(dict(raw))
    except ValidationError as error:
        for field_name, message in _describe_pydantic(error, "backend"):
            parser.problem(None, field_name, message)
        return _BackendBody()


def load_scenario(path: Path) -> Scenario:
    """Read and validate one scenario file (YAML; JSON is YAML too)."""
    file = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioFileError([Problem(file, "the file does not exist")]) from None
    except IsADirectoryError:
        raise ScenarioFileError([Problem(file, "this is a folder, not a scenario file")]) from None
    except UnicodeDecodeError:
        raise ScenarioFileError([Problem(file, "the file is not UTF-8 text")]) from None
    except OSError as error:
        raise ScenarioFileError([Problem(file, f"cannot be read: {error.strerror}")]) from None
    try:
        data = yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader: plain data only
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        raise ScenarioFileError([Problem(file, f"not valid YAML{line}: {problem}")]) from None
    return parse_scenario(data, path)


def expand_sources(paths: Sequence[Path]) -> list[Path]:
    """Scenario files named directly, and those directly inside named folders (sorted)."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(
                sorted(child for child in path.iterdir() if child.suffix in SCENARIO_SUFFIXES)
            )
        else:
            files.append(path)
    return files


def load_all(paths: Sequence[Path]) -> list[Scenario]:
    """Load every file, reporting the problems of all of them together."""
    scenarios: list[Scenario] = []
    problems: list[Problem] = []
    for path in expand_sources(paths):
        try:
            scenarios.append(load_scenario(path))
        except ScenarioFileError as error:
            problems.extend(error.problems)
    if problems:
        raise ScenarioFileError(problems)
    return scenarios
