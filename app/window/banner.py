"""A non-modal message strip above the frames: a sentence, optional actions, and dismiss."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

BannerAction = tuple[str, Callable[[], object]]
"""A button title and what it does (its result is ignored); the banner goes once it ran."""


def save_failed_text_on_screen(path: str, reason: str) -> str:
    """The message for a failed save of a note that is still open: nothing is lost."""
    return (
        f"{path} could not be saved: {reason} Your text stays on screen; the app tries again "
        "on its own, and with your next edit or message."
    )


class Banner(QFrame):
    """One message; it removes itself when dismissed or when an action runs."""

    dismissed = Signal()

    def __init__(
        self,
        text: str,
        *,
        tone: str = "info",
        actions: list[BannerAction] | None = None,
        topic: str | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.topic = topic
        self.setObjectName("banner")
        self.setProperty("tone", tone)
        self.label = QLabel(text, self)
        self.label.setWordWrap(True)
        self.setAccessibleName(text)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(12, 6, 6, 6)
        layout.addWidget(self.label, 1)
        self.buttons: dict[str, QPushButton] = {}
        for title, action in actions or []:
            button = QPushButton(title, self)
            button.setAccessibleName(title)
            button.clicked.connect(lambda _c=False, run=action: self._run(run))
            layout.addWidget(button)
            self.buttons[title] = button
        close = QPushButton("Dismiss", self)
        close.setAccessibleName("Dismiss this message")
        close.clicked.connect(self.dismiss)
        layout.addWidget(close)

    def _run(self, action: Callable[[], object]) -> None:
        action()
        self.dismiss()

    def dismiss(self) -> None:
        self.hide()
        self.dismissed.emit()
        self.deleteLater()


class Banners(Protocol):
    """What a part of the window needs to tell the user something: a message, then its end."""

    def show_message(
        self,
        text: str,
        *,
        tone: str = "info",
        actions: list[BannerAction] | None = None,
        topic: str | None = None,
    ) -> Banner: ...

    def dismiss_topic(self, topic: str) -> None: ...


class BannerArea(QWidget):
    """A column of banners; the newest at the bottom."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(4)
        self.banners: list[Banner] = []
        self.setVisible(False)

    def show_message(
        self,
        text: str,
        *,
        tone: str = "info",
        actions: list[BannerAction] | None = None,
        topic: str | None = None,
    ) -> Banner:
        """Show ``text``; a newer message on the same ``topic`` replaces the older one."""
        if topic is not None:
            self.dismiss_topic(topic)
        for shown in self.banners:
            if shown.label.text() == text and not shown.buttons and not actions:
                return shown  # the same plain message once is enough
        banner = Banner(text, tone=tone, actions=actions, topic=topic, parent=self)
        banner.dismissed.connect(lambda: self._forget(banner))
        self._layout.addWidget(banner)
        self.banners.append(banner)
        self.setVisible(True)
        return banner

    def dismiss_topic(self, topic: str) -> None:
        """Take down the message on ``topic`` (what it said no longer holds)."""
        for shown in [banner for banner in self.banners if banner.topic == topic]:
            shown.dismiss()

    def _forget(self, banner: Banner) -> None:
        if banner in self.banners:
            self.banners.remove(banner)
        self.setVisible(bool(self.banners))
