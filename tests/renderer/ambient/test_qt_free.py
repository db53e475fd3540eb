"""The ambient core and the bridge import and run with Qt absent (architecture: Qt-free core)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROBE = textwrap.dedent(
    """
    import importlib
    import importlib.abc
    import pkgutil
    import sys

    BLOCKED = ("PySide6", "shiboken6", "app")

    class BlockQt(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ImportError(f"{name} is blocked: the core must not need it")
            return None

    sys.meta_path.insert(0, BlockQt())

    import bridge
    import renderer.ambient

    imported = []
    for package in (renderer.ambient, bridge):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
            imported.append(info.name)

    # Exercise the core end to end with Qt absent.
    from bridge.pointer import decode_header
    from renderer.ambient import AmbientStore, SystemClock, prepare_send

    class Editor:
        frame_id = "inbox-1"
        def current_path(self): return "notes/a.md"
        def current_view(self): return "edit"
        def is_loaded(self): return True
        def read_text(self): return "alpha"
        def read_selection(self): return None

    class Timers:
        def call_later(self, seconds, callback): return lambda: None

    store = AmbientStore()
    store.publish(Editor())
    prepared = []
    prepare_send(
        store,
        clock=SystemClock(),
        timers=Timers(),
        start_flush=lambda done: done(True),
        on_prepared=prepared.append,
    )
    result = prepared[0].capture
    assert decode_header(result.header) == result.pointer
    assert not [m for m in sys.modules if m.split(".")[0] in BLOCKED]
    print("\\n".join(imported))
    """
)


def test_core_and_bridge_import_with_pyside6_blocked() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    imported = set(completed.stdout.split())
    assert {"renderer.ambient.store", "renderer.ambient.capture", "bridge.pointer"} <= imported
    modules = {
        f"{package}.{path.stem}"
        for package, folder in (("renderer.ambient", "renderer/ambient"), ("bridge", "bridge"))
        for path in (ROOT / folder).glob("*.py")
        if path.stem != "__init__"
    }
    assert modules <= imported
