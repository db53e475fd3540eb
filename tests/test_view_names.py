"""A view's name is written in at most two product modules: the names' list and its own (issue 39).

Everywhere else reads the name from :mod:`bridge.views` (a constant, or the list),
so a view is added, renamed or removed in one place and nothing silently keeps
the old name. The same word naming another concept (a word a person types, the
inline command's answer kind) is a different string: those modules are listed
below with what the word means there.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from bridge.views import view_names

ROOT = Path(__file__).resolve().parent.parent
PRODUCT_PACKAGES = ("app", "renderer", "bridge", "workers")
MOST_MODULES = 2

OTHER_MEANINGS: dict[str, dict[str, str]] = {
    "edit": {
        "bridge/wire.py": "the inline command's answer kind (an edit or a refusal)",
        "app/scenario/inline_steps.py": "the same answer kind, expected by a scenario",
        "workers/model/steps.py": "the model planner's step (answer, edit, auto)",
        "workers/model/assistant.py": "the same planner step",
    },
    "todo": {
        "workers/offline/words.py": "a word a person types to ask for their tasks",
        "workers/offline/edit_words.py": "a word around a task's words in a request",
        "workers/offline/positions.py": "a word that names no task by itself",
    },
}


def modules_writing(names: tuple[str, ...]) -> dict[str, set[str]]:
    """For each name, the product modules holding it as a whole string literal."""
    found: dict[str, set[str]] = defaultdict(set)
    for package in PRODUCT_PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            module = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), module)):
                if isinstance(node, ast.Constant) and node.value in names:
                    found[str(node.value)].add(module)
    return found


def test_each_view_name_is_written_in_at_most_two_product_modules() -> None:
    names = view_names()
    assert len(names) >= 4  # the app's own views are all registered on import
    found = modules_writing(names)
    for name in names:
        writing = found[name] - set(OTHER_MEANINGS.get(name, {}))
        assert "bridge/views.py" in writing, f"{name!r} is not declared in bridge/views.py"
        assert len(writing) <= MOST_MODULES, (
            f"the view name {name!r} is written in {sorted(writing)}: "
            "read it from bridge.views instead"
        )


def test_the_other_meanings_listed_are_still_there() -> None:
    """An entry above that no longer holds the word is dropped, not left to excuse a view."""
    found = modules_writing(tuple(OTHER_MEANINGS))
    for name, modules in OTHER_MEANINGS.items():
        assert set(modules) <= found[name], set(modules) - found[name]
