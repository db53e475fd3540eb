"""The wire contract is declared once (issue 39): no class name lives in both the bridge and
the backend, and the answers' models are the bridge's, on both sides."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

from bridge import wire

PROJECT = Path(__file__).resolve().parents[2]


def _classes(package: str) -> dict[str, list[str]]:
    """Every class a package defines (nested ones too), with where each is defined."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted((PROJECT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                found[node.name].append(f"{path.relative_to(PROJECT)}:{node.lineno}")
    return found


def test_issue39_no_class_name_is_defined_in_both_the_bridge_and_the_backend() -> None:
    bridge, workers = _classes("bridge"), _classes("workers")
    both = {name: bridge[name] + workers[name] for name in sorted(bridge.keys() & workers.keys())}
    assert both == {}


def test_issue39_the_scan_sees_the_answer_models_and_a_nested_class(tmp_path: Path) -> None:
    # The scan can fail: it finds the models in bridge/wire.py and a class inside a function.
    assert "TurnAnswer" in _classes("bridge") and "Proposal" in _classes("bridge")
    (tmp_path / "nested.py").write_text("def f():\n    class Inner:\n        pass\n")
    tree = ast.parse((tmp_path / "nested.py").read_text())
    assert [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef)] == ["Inner"]


def test_issue39_every_answer_openapi_names_is_a_bridge_model(tmp_path: Path) -> None:
    """Each success answer the backend documents is a class of bridge/wire.py, not a copy."""
    from workers.app import create_app
    from workers.settings import Settings

    spec = create_app(Settings(data_dir=tmp_path, device_token="t")).openapi()
    answers = {
        content["schema"]["$ref"].rsplit("/", 1)[1]
        for operations in spec["paths"].values()
        for operation in operations.values()
        for status, answer in operation["responses"].items()
        if status.startswith("2")
        for content in answer.get("content", {}).values()
        if "$ref" in content.get("schema", {})
    }
    assert len(answers) >= 15
    assert {name for name in answers if not isinstance(getattr(wire, name, None), type)} == set()
