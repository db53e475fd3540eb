"""Reads and strictly validates QA scenario files (contract section 6) into typed steps.

Every problem names the file, the 1-based step number and the field, so QA can
fix a case without reading code. Unknown verbs and keys are errors, never
ignored. The verbs and expect keys are read off :mod:`app.scenario.catalogue`;
nothing here runs the app: a file is fully validated before anything runs.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Final, cast

import yaml
from pydantic import (
    Field,
    ValidationError,
)

from app.scenario.catalogue import BY_NAME
from app.scenario.expectations import ExpectBody
from app.scenario.problems import Problem, ScenarioFileError, describe_pydantic
from app.scenario.registry import Step
from app.scenario.step_fields import StepBody, Strict
from app.scenario.steps import (
    ActivateStep,
    CaptionStep,
    MountStep,
    NewNoteStep,
    OpenStep,
    PopoutStep,
    SelectStep,
    ShareStep,
    TypeStep,
    UnmountStep,
    ViewStep,
)
from bridge.paths import WorkspacePathError, check_workspace_path

SCENARIO_SUFFIXES: tuple[str, ...] = (".yaml", ".yml", ".json")


VERBS: tuple[str, ...] = tuple(BY_NAME)
"""Every verb a step may use (declared in :mod:`app.scenario.catalogue`)."""


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


class _BackendBody(Strict):
    saveDelay: Annotated[float, Field(ge=0, le=60)] = 0.0
    loadDelay: Annotated[float, Field(ge=0, le=60)] = 0.0


_TOP_KEYS = frozenset({"name", "description", "rules", "workspace", "backend", "steps"})
_RULE = re.compile(r"^R([1-9]|[1-8][0-9]|9[0-3])$")
"""The spec's rules are R1-R93 (contract 13)."""


MAX_NESTING: Final = 32
"""How deep a scenario's data may nest (the library's deepest is 5, Python's stack holds
about 300): deeper is an invalid file, found before anything is built (R93)."""
MAX_NODES: Final = 20_000
"""Values (each text, number, list and mapping) one file may hold; the library's largest
holds a few hundred."""
MAX_STEPS: Final = 1_000
"""Steps one scenario may have, nested ones included (the library's longest has 20)."""
MAX_PROBLEMS: Final = 100
"""Problems reported for one file; the rest are counted in one more line."""

_BaseLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's parser when PyYAML has it (its wheels do): the pure-Python one takes about a
millisecond a value on a busy machine, so a 1 MiB file took over a minute."""


class _UniqueKeyLoader(_BaseLoader):  # type: ignore[valid-type,misc]
    """A YAML loader that refuses a key given twice in one mapping instead of keeping the last."""


def check_shape(text: str) -> None:
    """Refuse, from the parser's events and before anything is built, a file nested deeper
    than :data:`MAX_NESTING`, holding more than :data:`MAX_NODES` values, or using anchors
    and aliases (a small file that stands for an exponential one) (R93).

    Raises :class:`yaml.YAMLError`; stops at the first event past a limit, so a hostile
    file costs what its first :data:`MAX_NODES` values cost.
    """
    depth = 0
    nodes = 0
    for event in yaml.parse(text, Loader=_BaseLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
            raise _refused(event, "anchors and aliases (&name, *name) are not read in a scenario")
        if isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        nodes += 1
        if nodes > MAX_NODES:
            raise _refused(event, f"the file holds more than {MAX_NODES:,} values")
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_NESTING:
                raise _refused(event, f"the file nests deeper than {MAX_NESTING} levels")


def _refused(event: yaml.Event, problem: str) -> yaml.YAMLError:
    # libyaml's events carry its own Mark type, with the same line and column.
    return yaml.MarkedYAMLError(None, None, problem, cast("yaml.error.Mark", event.start_mark))


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
    mapping: dict[Any, Any] = loader.construct_mapping(node)
    return mapping


_UniqueKeyLoader.add_constructor(
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
    _construct_unique_mapping,
)


class _StepParser:
    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []
        self.found = 0
        self.steps = 0

    def problem(self, step: str | None, field_name: str | None, message: str) -> None:
        self.found += 1
        if len(self.problems) < MAX_PROBLEMS:
            self.problems.append(Problem(self.file, message, step, field_name))

    def all_problems(self) -> list[Problem]:
        """The problems listed, and a count of those past :data:`MAX_PROBLEMS`."""
        more = self.found - len(self.problems)
        if more == 0:
            return self.problems
        return [*self.problems, Problem(self.file, f"… and {more:,} more problems")]

    def parse(self, raw: object, step: str, prefix: str, nested: bool) -> Step | None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            if self.steps == MAX_STEPS + 1:
                self.problem(step, prefix or None, f"a scenario has at most {MAX_STEPS:,} steps")
            return None
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
        declared = BY_NAME[verb]
        if nested and not declared.during:
            self.problem(step, where, f"'{verb}' cannot run during a flush")
            return None
        if declared.coerce is not None:
            body = declared.coerce(body)
        if declared.parse is not None:
            parsed: Step | None = declared.parse(self, body, step, where)
            return parsed
        if declared.scalar is not None:
            if not isinstance(body, str):
                self.problem(
                    step, where, f"'{verb}' takes one {declared.scalar} name as plain text"
                )
                return None
            return self.validate(declared.model, {declared.scalar: body}, step, where, scalar=True)
        if not isinstance(body, Mapping):
            self.problem(step, where, f"'{verb}' takes a mapping of keys")
            return None
        return self.validate(declared.model, body, step, where, scalar=False)

    def validate(
        self, model: type[StepBody], body: Mapping[Any, Any], step: str, where: str, *, scalar: bool
    ) -> Step | None:
        try:
            parsed = model.model_validate(dict(body))
        except ValidationError as error:
            for field_name, message in describe_pydantic(error, where, model):
                # A one-value verb has no keys of its own to name: the verb is the field.
                self.problem(step, where if scalar else field_name, message)
            return None
        return parsed


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
    _check_selections(steps, workspace, parser)
    if parser.problems:
        raise ScenarioFileError(parser.all_problems())
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


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


_KEEPS_TEXT = (ActivateStep, ViewStep, PopoutStep, CaptionStep, ExpectBody, ShareStep)
"""Verbs that never change a note's text: the lengths known before them still hold."""


def _check_selections(
    steps: Sequence[Step], workspace: Mapping[str, str], parser: _StepParser
) -> None:
    """A ``select`` past the end of a note whose length the file itself fixes is an error now,
    not a silent clamp at run time; after a step that may change text in ways the file does
    not say (a send's flush, Apply, another instance...) the run checks it instead."""
    paths: dict[str, str] = {}  # frame id -> the note it shows
    lengths: dict[str, int | None] = {path: _utf16(text) for path, text in workspace.items()}

    for number, step in enumerate(steps, start=1):
        if isinstance(step, MountStep | OpenStep) and step.path is not None:
            paths[step.frame] = step.path
            lengths.setdefault(step.path, 0)  # a note that does not exist opens empty
        elif isinstance(step, NewNoteStep) and step.frame is not None:
            paths[step.frame] = step.path
            lengths.setdefault(step.path, 0)
        elif isinstance(step, TypeStep) and step.frame in paths:
            path = paths[step.frame]
            known = lengths.get(path)
            lengths[path] = None if known is None else known + _utf16(step.text)
        elif isinstance(step, UnmountStep):
            paths.pop(step.frame, None)
        elif isinstance(step, SelectStep) and step.frame in paths:
            known = lengths.get(paths[step.frame])
            for name, value in (("anchor", step.anchor), ("head", step.head)):
                if known is not None and value > known:
                    parser.problem(
                        str(number),
                        f"select.{name}",
                        f"{value} is past the end of {paths[step.frame]} in '{step.frame}' "
                        f"({known} UTF-16 units at this step): 0–{known} are allowed",
                    )
        elif not isinstance(step, _KEEPS_TEXT):
            lengths = dict.fromkeys(lengths)  # may have changed: the run checks from here


def _parse_rules(raw: object, parser: _StepParser) -> tuple[str, ...]:
    if not isinstance(raw, list) or not all(isinstance(rule, str) for rule in raw):
        parser.problem(None, "rules", "rules is a list like [R4, R5]")
        return ()
    bad = [rule for rule in raw if not _RULE.match(rule)]
    if bad:
        parser.problem(None, "rules", f"not a rule number R1-R93: {', '.join(bad)}")
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
        for field_name, message in describe_pydantic(error, "backend", _BackendBody):
            parser.problem(None, field_name, message)
        return _BackendBody()


MAX_SCENARIO_BYTES: Final = 1024 * 1024
"""A scenario file's size at most: the library's longest is a few KiB (R93: a file is data)."""
_OPEN_FLAGS: Final = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)


def _read_scenario_bytes(path: Path) -> bytes:
    """The file's bytes, if it is a regular file of at most :data:`MAX_SCENARIO_BYTES`.

    Opened without blocking (a FIFO named ``a.yaml`` would wait for a writer for ever)
    and looked at before reading (a link to ``/dev/zero`` never ends).
    """
    descriptor = os.open(path, _OPEN_FLAGS)
    try:
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError
        if not stat.S_ISREG(status.st_mode):
            raise ScenarioFileError([Problem(str(path), "this is not a regular file")])
        if status.st_size > MAX_SCENARIO_BYTES:
            raise ScenarioFileError([Problem(str(path), _TOO_BIG)])
        with os.fdopen(descriptor, "rb", closefd=False) as file:
            data = file.read(MAX_SCENARIO_BYTES + 1)
    finally:
        os.close(descriptor)
    if len(data) > MAX_SCENARIO_BYTES:  # grew while read
        raise ScenarioFileError([Problem(str(path), _TOO_BIG)])
    return data


_TOO_BIG: Final = f"the file is larger than the {MAX_SCENARIO_BYTES:,} bytes a scenario may have"


def load_scenario(path: Path) -> Scenario:
    """Read and validate one scenario file (YAML; JSON is YAML too)."""
    file = str(path)
    try:
        text = _read_scenario_bytes(path).decode("utf-8")
    except FileNotFoundError:
        raise ScenarioFileError([Problem(file, "the file does not exist")]) from None
    except IsADirectoryError:
        raise ScenarioFileError([Problem(file, "this is a folder, not a scenario file")]) from None
    except UnicodeDecodeError:
        raise ScenarioFileError([Problem(file, "the file is not UTF-8 text")]) from None
    except OSError as error:
        raise ScenarioFileError([Problem(file, f"cannot be read: {error.strerror}")]) from None
    try:
        check_shape(text)
        data = yaml.load(text, Loader=_UniqueKeyLoader)  # a SafeLoader: plain data only
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        line = f" at line {mark.line + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        raise ScenarioFileError([Problem(file, f"not valid YAML{line}: {problem}")]) from None
    except (RecursionError, TypeError, ValueError) as error:
        # R93: nesting deeper than Python recurses, a list as a key, an integer of
        # thousands of digits: an invalid file like any other, never a traceback.
        raise ScenarioFileError([Problem(file, _unreadable(error))]) from None
    try:
        return parse_scenario(data, path)
    except (RecursionError, TypeError, ValueError) as error:
        raise ScenarioFileError([Problem(file, _unreadable(error))]) from None


def _unreadable(error: Exception) -> str:
    if isinstance(error, RecursionError):
        return "not a scenario: nested deeper than the runner reads"
    return f"not a scenario the runner can read: {type(error).__name__}"


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
