"""No font for Japanese, Chinese or Korean: the window says it once, with the package (R38)."""

from __future__ import annotations

import os
from pathlib import Path

from PySide6.QtCore import QCoreApplication

from app.system_packages import install_prefix
from app.window.font_banner import FONT_TOPIC, offer_font_advice
from tests.app.conftest import AppFactory
from tests.app.test_system_packages import fake_fc_list


def _font_banners(app_banners: object) -> list[str]:
    return [b.label.text() for b in app_banners.banners if b.topic == FONT_TOPIC]  # type: ignore[attr-defined]


def test_a_language_without_a_font_is_said_once_in_the_window_with_the_package_R38(
    make_app: AppFactory, tmp_path: Path
) -> None:
    app = make_app()
    banners = app.window.banners
    assert _font_banners(banners) == []  # offscreen: nobody to read it
    environment = {"PATH": f"{fake_fc_list(tmp_path / 'bin', ['ko'])}{os.pathsep}/usr/bin:/bin"}
    for _ in range(2):  # a second check (another window, a restart of the check) adds nothing
        offer_font_advice(banners, app.session.runner, environment=environment, platform="xcb")
        app.qtbot.waitUntil(lambda: bool(_font_banners(banners)))
    (text,) = _font_banners(banners)
    assert text.startswith("Korean text will show as empty boxes")
    assert text.endswith(f"Install one with: {install_prefix()}apt-get install -y fonts-noto-cjk")
    assert "Japanese" not in text and "\n" not in text


def test_every_language_covered_means_no_banner(make_app: AppFactory, tmp_path: Path) -> None:
    app = make_app()
    banners = app.window.banners
    environment = {"PATH": f"{fake_fc_list(tmp_path / 'bin', [])}{os.pathsep}/usr/bin:/bin"}
    future = offer_font_advice(banners, app.session.runner, environment=environment, platform="xcb")
    assert future is not None
    app.qtbot.waitUntil(future.done)
    QCoreApplication.sendPostedEvents()  # the result is delivered to the GUI thread
    assert future.result() == ()
    assert _font_banners(banners) == []
