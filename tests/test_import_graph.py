"""The shape of the product's imports: no cycles, and only entry points build the window.

TYPE_CHECKING imports count: a cycle hidden behind one is still a cycle a reader
has to untangle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import grimp
import pytest

PRODUCT_PACKAGES = ("app", "renderer", "bridge", "workers")
WINDOW_MODULE = "app.window.main_window"
WINDOW_BUILDERS = {"app.__main__", "app.screenshot"}
"""Entry points that start the app; the scenario runner (``app.scenario``) drives it too."""


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PRODUCT_PACKAGES, exclude_type_checking_imports=False)


def cycles(imports: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The groups of modules that import each other, round and round (Tarjan's SCCs)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(start: str) -> None:
        # Iterative, so a deep chain of imports cannot exhaust the recursion limit.
        work = [(start, iter(sorted(imports.get(start, ()))))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(imports.get(target, ())))))
                elif target in on_stack:
                    low[module] = min(low[module], index[target])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                group: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == module:
                        break
                if len(group) > 1:
                    found.append(sorted(group))

    for module in sorted(imports):
        if module not in index:
            visit(module)
    return found


def test_the_cycle_finder_finds_a_cycle_and_passes_a_chain() -> None:
    assert cycles({"a": ["b"], "b": ["c"], "c": ["a"], "d": ["a"]}) == [["a", "b", "c"]]
    assert cycles({"a": ["b"], "b": ["c"], "c": []}) == []


def test_no_product_module_is_part_of_an_import_cycle(graph: grimp.ImportGraph) -> None:
    imports = {
        module: [
            target
            for target in graph.find_modules_directly_imported_by(module)
            if target in graph.modules
        ]
        for module in graph.modules
    }
    assert cycles(imports) == []


def test_only_entry_points_and_the_scenario_runner_import_the_window(
    graph: grimp.ImportGraph,
) -> None:
    importers = graph.find_modules_that_directly_import(WINDOW_MODULE)
    helpers = {
        module
        for module in importers
        if module not in WINDOW_BUILDERS and not module.startswith("app.scenario.")
    }
    assert helpers == set()
