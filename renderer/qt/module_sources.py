"""Keeps PySide6's import hook from holding the source of every module the app imports.

PySide6 looks at each module imported after it for the word "PySide6", to know which
modules may use its ``__feature__`` switches. It reads the source with
``inspect.getsource``, which keeps every line of every file in :mod:`linecache` for
good: about 860 files and 12 million characters once the embedded backend has loaded
(SQLAlchemy, FastAPI, pydantic...), some 30 MiB of the app's idle memory, and the
time to split them into lines at every import (issue 33).

:func:`check_sources_uncached` asks the same question of a module's file read whole,
without keeping it; modules without a ``.py`` file get PySide6's own check.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from types import ModuleType

_FEATURE_MODULE = "shibokensupport.feature"
_CHECK = "_mod_uses_pyside"
_MARK = b"PySide6"


def check_sources_uncached() -> bool:
    """Replace PySide6's per-module check with one that caches nothing; False if absent.

    Call once PySide6 is imported. A PySide6 without that check is left as it is.
    """
    feature = sys.modules.get(_FEATURE_MODULE)
    original: Callable[[ModuleType], bool] | None = getattr(feature, _CHECK, None)
    if feature is None or original is None:
        return False
    if getattr(original, "uncached", False):
        return True

    def uses_pyside(module: ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if not isinstance(path, str) or not path.endswith(".py"):
            return original(module)
        try:
            with open(path, "rb") as source:
                return _MARK in source.read()
        except OSError:  # a module without its file: what PySide6's own check answers
            return False

    uses_pyside.uncached = True  # type: ignore[attr-defined]
    setattr(feature, _CHECK, uses_pyside)
    return True
