"""The shape of the product's classes: whole classes with real collaborators, never mixins.

A class split into mixins that reach into each other's private attributes through
self-annotated Protocols is harder to read than one long class (issue 28, "cohesion
over line counts"). Read from the source, so no product module is imported.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT_PACKAGES = ("app", "renderer", "bridge", "workers")


def _modules(root: Path) -> list[tuple[str, ast.Module]]:
    found = []
    for package in PRODUCT_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            relative = path.relative_to(root).with_suffix("")
            found.append((".".join(relative.parts), ast.parse(path.read_text(encoding="utf-8"))))
    return found


def _is_product(module: str) -> bool:
    return module.split(".", 1)[0] in PRODUCT_PACKAGES


def product_bases(tree: ast.Module) -> dict[str, list[str]]:
    """Each class of the module and those of its bases that are the project's own classes."""
    own = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and _is_product(node.module):
            imported.update(alias.asname or alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            imported.update(
                (alias.asname or alias.name).split(".", 1)[0]
                for alias in node.names
                if _is_product(alias.name)
            )
    classes: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            names = [ast.unparse(base) for base in node.bases]
            classes[node.name] = [name for name in names if name.split(".", 1)[0] in own | imported]
    return classes


def mixed_classes(root: Path) -> list[str]:
    """Classes built from two or more of the project's own classes."""
    return [
        f"{module}.{name}({', '.join(bases)})"
        for module, tree in _modules(root)
        for name, bases in product_bases(tree).items()
        if len(bases) > 1
    ]


def self_protocol_methods(root: Path) -> list[str]:
    """Methods whose ``self`` is annotated: a mixin describing the class it is mixed into."""
    found = []
    for module, tree in _modules(root):
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.args.args:
                first = node.args.args[0]
                if first.arg == "self" and first.annotation is not None:
                    found.append(f"{module}.{node.name}")
    return found


def test_no_product_class_mixes_in_two_of_the_projects_own_classes() -> None:
    assert mixed_classes(ROOT) == []


def test_no_method_describes_its_class_through_a_self_protocol() -> None:
    assert self_protocol_methods(ROOT) == []


def test_the_reading_sees_a_mixin_and_a_self_protocol(tmp_path: Path) -> None:
    """The checks above can fail: a mixed class and an annotated ``self`` are found."""
    package = tmp_path / "renderer"
    package.mkdir()
    (package / "mixed.py").write_text(
        "from typing import Protocol\n"
        "from renderer.frames.base import FrameBase\n"
        "class _Host(Protocol):\n"
        "    _secret: int\n"
        "class Actions:\n"
        "    def act(self: _Host) -> int:\n"
        "        return self._secret\n"
        "class Frame(Actions, FrameBase, Protocol):\n"
        "    pass\n",
        encoding="utf-8",
    )
    assert mixed_classes(tmp_path) == ["renderer.mixed.Frame(Actions, FrameBase)"]
    assert self_protocol_methods(tmp_path) == ["renderer.mixed.act"]
