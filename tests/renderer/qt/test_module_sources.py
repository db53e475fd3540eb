"""PySide6's import hook answers as before but keeps no module's source (issue 33)."""

from __future__ import annotations

import linecache
import subprocess
import sys
import textwrap

from renderer.qt.module_sources import check_sources_uncached

PROBE = textwrap.dedent(
    """
    import linecache, sys
    import PySide6.QtCore
    from renderer.qt.module_sources import check_sources_uncached
    assert check_sources_uncached()  # before the imports below
    linecache.clearcache()
    from renderer.qt.tasks import TaskRunner
    from bridge.documents import etag_of
    feature = sys.modules["shibokensupport.feature"].pyside_feature_dict
    uses = feature["renderer.qt.tasks"], feature["bridge.documents"]
    kept = [name for name in linecache.cache if name.endswith(("tasks.py", "documents.py"))]
    print(uses, kept)
    """
)


def test_r67_modules_imported_after_qt_are_checked_without_keeping_their_source() -> None:
    answer = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, check=True, timeout=120
    ).stdout.strip()
    # 0: the module uses PySide6 (feature switching on), -1: it does not; no source kept.
    assert answer == "(0, -1) []"


def test_the_replacement_is_made_once() -> None:
    assert check_sources_uncached()  # PySide6 is imported in the test process
    assert check_sources_uncached()  # before the imports below
    feature = sys.modules["shibokensupport.feature"]
    assert getattr(feature._mod_uses_pyside, "uncached", False)
    assert isinstance(linecache.cache, dict)
