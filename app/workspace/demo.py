"""The demo workspace: notes shipped in ``assets/`` copied once into the user's data folder.

The shipped files are never edited: the app works on the copy.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import platformdirs

from bridge.paths import is_workspace_id

APP_NAME = "ambient-notes"
DEMO_WORKSPACE = "demo"
DEMO_ASSETS = Path(__file__).resolve().parents[2] / "assets" / "demo-workspace"
DEMO_FRAMES: tuple[tuple[str, str], ...] = (
    ("inbox-1", "inbox/today.md"),
    ("inbox-2", "projects/launch-plan.md"),
)
_NOT_ID_CHARS = re.compile(r"[^A-Za-z0-9._-]+")


def default_data_dir() -> Path:
    """Where the app keeps its backend data when none is given."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def install_demo_workspace(workspaces_dir: Path) -> Path:
    """Copy the demo notes into ``workspaces_dir/demo`` unless that folder already exists."""
    target = workspaces_dir / DEMO_WORKSPACE
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(DEMO_ASSETS, target)
    return target


def workspace_id_for(directory: Path) -> str:
    """A valid workspace id derived from a folder's name."""
    cleaned = _NOT_ID_CHARS.sub("-", directory.resolve().name).strip("-._")[:64]
    return cleaned if cleaned and is_workspace_id(cleaned) else "workspace"
