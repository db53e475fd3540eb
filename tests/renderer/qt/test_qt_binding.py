"""The installed Qt binding keeps Python's singletons alive through long sessions.

PySide6-Essentials 6.12.0 on CPython 3.11 drops a reference to ``None`` on void Qt
calls and to ``True`` on ``Signal.emit``; a session then dies with "deallocating
None". pyproject.toml excludes that release; this test fails if a build like it is
installed again.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

PROBE = textwrap.dedent(
    """
    import os, sys
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QObject, Signal
    from PySide6.QtWidgets import QApplication, QLabel

    class Emitter(QObject):
        changed = Signal(str)

    app = QApplication([])
    emitter = Emitter()
    emitter.changed.connect(lambda value: None)
    label = QLabel()
    none_before, true_before = sys.getrefcount(None), sys.getrefcount(True)
    for _ in range(20_000):
        label.setText("x")
        emitter.changed.emit("y")
    print(sys.getrefcount(None) - none_before, sys.getrefcount(True) - true_before)
    """
)


def test_void_calls_and_emits_do_not_leak_singleton_references() -> None:
    # A subprocess, because a binding with the fault aborts the interpreter.
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    none_delta, true_delta = (int(part) for part in done.stdout.split())
    # A few references may move for unrelated reasons; 20,000 lost ones may not.
    assert abs(none_delta) < 100 and abs(true_delta) < 100, done.stdout
