"""Every file and folder the developer guide and the README cite exists (issue 39).

A backticked path that starts in one of the repository's folders (``app/session.py``,
``workers/tools/``, ``bridge/tools.py::TOOL_FACTS``) is read from the repository's
root; a module written from inside its package (``routers/agent.py`` in the page on
the backend's routes) must be in one of the product's folders. One with a placeholder
in it (``<tool>``, ``*``, ``…``, ``{…}``) names a family: the part before the
placeholder must exist. Other paths (the person's notes, ``out/qa/``, the data
folder's files) are not the repository's.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [*sorted((ROOT / "docs" / "dev").glob("*.md")), ROOT / "README.md"]
BACKTICKED = re.compile(r"`([^`\n]+)`")
PATH_LIKE = re.compile(r"^[\w.-]+(/[\w.<>*{}…-]*)+$|^[\w-]+\.(py|md|toml|yaml|cfg|ini)$")
PLACEHOLDER = re.compile(r"[<*{…]")
OUTSIDE = ("../", "/", "~")
"""Beside the checkout (``../shared``), absolute or in the home folder: not the repository's."""
REPOSITORY_FOLDERS = (
    "app", "assets", "benchmarks", "bridge", "docs", "renderer", "scenarios", "scripts",
    "tests", "workers",
)  # fmt: skip
CODE_SUFFIXES = (".py", ".po")
"""A module or catalogue cited from inside its package is still the repository's."""


def cited_paths(text: str) -> list[str]:
    """The repository paths a Markdown text cites in backticks."""
    found: list[str] = []
    for quoted in BACKTICKED.findall(text):
        candidate = quoted.split("::", 1)[0].strip()
        if candidate.startswith(OUTSIDE):
            continue
        in_a_folder = "/" in candidate and candidate.split("/", 1)[0] in REPOSITORY_FOLDERS
        if PATH_LIKE.match(candidate) and (in_a_folder or candidate.endswith(CODE_SUFFIXES)):
            found.append(candidate)
    return found


def existing_part(path: str) -> str:
    """The part of ``path`` before any placeholder: a family's folder or its own name."""
    placeholder = PLACEHOLDER.search(path)
    if placeholder is not None:
        return path[: placeholder.start()].rsplit("/", 1)[0]
    return path


def exists(path: str) -> bool:
    """``path`` is in the repository: from its root, or from inside one of its folders."""
    part = existing_part(path)
    if (ROOT / part).exists():
        return True
    if "/" in part and part.split("/", 1)[0] in REPOSITORY_FOLDERS:
        return False
    return any(
        found.as_posix().endswith("/" + part)
        for folder in REPOSITORY_FOLDERS
        for found in (ROOT / folder).rglob(part.rsplit("/", 1)[-1])
    )


@pytest.mark.parametrize("doc", DOCS, ids=[doc.relative_to(ROOT).as_posix() for doc in DOCS])
def test_every_cited_path_exists(doc: Path) -> None:
    missing = [path for path in cited_paths(doc.read_text(encoding="utf-8")) if not exists(path)]
    assert not missing, f"{doc.relative_to(ROOT)} cites paths that do not exist: {missing}"


def test_the_reading_finds_paths_and_leaves_words_alone() -> None:
    """The check above can fail: it sees a cited module, a folder and a family."""
    text = (
        "See `workers/tools.py`, `workers/tools/`, `workers/tools/<tool>.py`, "
        "`bridge/tools.py::TOOL_FACTS`, `routers/agent.py`, `routers/gone.py`, `elsewhere.py`, "
        "`../shared/spec/`, `out/qa/`, `notes/a.md`, `make test`, `a | b` and `R12`."
    )
    cited = cited_paths(text)
    assert cited == [
        "workers/tools.py",
        "workers/tools/",
        "workers/tools/<tool>.py",
        "bridge/tools.py",
        "routers/agent.py",
        "routers/gone.py",
        "elsewhere.py",
    ]
    assert [exists(path) for path in cited] == [False, True, True, True, True, False, True]
