"""Say once, in the window, when no installed font covers Japanese, Chinese or Korean.

``make run`` says it on the terminal (:mod:`app.system_packages`); a person who
started the app another way, or never read the terminal, sees the same advice as
one banner with the package to install. ``fc-list`` runs on a worker: the GUI
thread never waits on it. Offscreen there is no one to read it (tests, pictures).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from concurrent.futures import Future

from PySide6.QtGui import QGuiApplication
from shiboken6 import isValid

from app.system_packages import font_banner_text, languages_without_fonts
from app.window.banner import BannerArea
from renderer.qt.tasks import TaskRunner

FONT_TOPIC = "fonts"
_OFFSCREEN = "offscreen"


def offer_font_advice(
    banners: BannerArea,
    runner: TaskRunner,
    *,
    environment: Mapping[str, str] | None = None,
    platform: str | None = None,
) -> Future[object] | None:
    """Check the fonts off the GUI thread; when a language lacks one, show the banner.

    Returns the check's future (None offscreen, or once the runner has shut down).
    """
    if (platform or QGuiApplication.platformName()) == _OFFSCREEN:
        return None
    env = dict(os.environ if environment is None else environment)

    def show(lacking: Sequence[str]) -> None:
        if lacking and isValid(banners):  # the window may have closed meanwhile
            banners.show_message(font_banner_text(lacking), topic=FONT_TOPIC)

    return runner.submit(lambda: languages_without_fonts(env), on_done=show)
