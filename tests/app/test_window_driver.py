"""What QA and the tests do to a window goes through one driver, not forwards on the window.

Issue 28 ("cohesion over line counts"): ``MainWindow`` had 26 one-line methods that
only passed a call on to one of its parts. Read from the source, so nothing is built.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MOST_FORWARDS = 5
"""A handful: the reads every step and test needs (session, store, frames, assistant...)."""


def _is_self_chain(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name) and node.id == "self"


def _forwards(node: ast.FunctionDef) -> bool:
    """One statement (after a docstring) handing the call or read on to a part of ``self``."""
    body = [
        statement
        for statement in node.body
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant))
    ]
    if len(body) != 1 or not isinstance(body[0], ast.Return | ast.Expr):
        return False
    value = body[0].value
    if isinstance(value, ast.Call):
        value = value.func
    # ``self.part.thing``: handed on to a part (``self.setWindowTitle`` is the window's own).
    return (
        isinstance(value, ast.Attribute)
        and isinstance(value.value, ast.Attribute)
        and _is_self_chain(value.value)
    )


def forwarding_methods(source: str, class_name: str) -> list[str]:
    tree = ast.parse(source)
    (found,) = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == class_name]
    return [
        member.name
        for member in found.body
        if isinstance(member, ast.FunctionDef) and _forwards(member)
    ]


def test_the_main_window_keeps_at_most_a_handful_of_forwards() -> None:
    source = (ROOT / "app" / "window" / "main_window.py").read_text(encoding="utf-8")
    forwards = forwarding_methods(source, "MainWindow")
    assert len(forwards) <= MOST_FORWARDS, forwards


def test_the_reading_finds_a_forward() -> None:
    """The check above can fail: one-line hand-offs are counted, real work is not."""
    source = (
        "class MainWindow:\n"
        "    def mount(self, frame_id):\n"
        '        """Mount."""\n'
        "        return self.window_frames.mount(frame_id)\n"
        "    @property\n"
        "    def store(self):\n"
        "        return self._session.store\n"
        "    def title(self, name):\n"
        "        self.setWindowTitle(name)\n"
        "    def close_all(self):\n"
        "        for frame in self.frames:\n"
        "            frame.close()\n"
    )
    assert forwarding_methods(source, "MainWindow") == ["mount", "store"]


def _driver_methods() -> list[str]:
    source = (ROOT / "app" / "window" / "driver.py").read_text(encoding="utf-8")
    (driver,) = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ClassDef) and node.name == "WindowDriver"
    ]
    return [
        member.name
        for member in driver.body
        if isinstance(member, ast.FunctionDef) and not member.name.startswith("_")
    ]


def _on_a_driver(node: ast.expr) -> bool:
    """``window.driver`` or a name bound to it (``driver``)."""
    if isinstance(node, ast.Attribute):
        return node.attr == "driver"
    return isinstance(node, ast.Name) and node.id == "driver"


def test_every_action_of_the_driver_is_used_by_a_scenario_step_a_tool_or_a_test() -> None:
    """The driver is the vocabulary QA and the tests speak; a word nobody says goes."""
    said: set[str] = set()
    for folder in ("app", "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            if path == ROOT / "app" / "window" / "driver.py":
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and _on_a_driver(node.value):
                    said.add(node.attr)
    methods = _driver_methods()
    assert methods, "no WindowDriver found"
    unused = [name for name in methods if name not in said]
    assert not unused, f"WindowDriver methods nobody calls: {unused}"
