"""Asking the GUI thread from the server's event loop, never the other way round.

The server thread posts an operation to the GUI thread as a queued Qt signal and
awaits its answer with a bound; the GUI thread never waits for the server. An
operation gets a ``reply`` callable and may call it later (after a flush, after a
worker read), always on the GUI thread.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Qt, Signal

Reply = Callable[[Any], None]
Operation = Callable[[Reply], None]
"""Runs on the GUI thread; calls ``reply(value)`` once, then or later, on the GUI thread."""


class GuiGone(RuntimeError):
    """The GUI did not answer in time, or is closing."""


class GuiCalls(QObject):
    """Lives on the GUI thread; :meth:`ask` may be awaited on any event loop thread."""

    _posted = Signal(object)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._posted.connect(self._run, Qt.ConnectionType.QueuedConnection)
        self.closed = False

    async def ask(self, operation: Operation, timeout: float) -> Any:
        """Run ``operation`` on the GUI thread; its reply, or GuiGone after ``timeout`` s."""
        if self.closed:
            raise GuiGone("The app is closing.")
        # Imported here, on the server's thread: asyncio (and ssl with it) is 40 modules
        # the window's start need not wait for, and sharing is off unless turned on (R58).
        import asyncio

        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()

        def settle(value: Any) -> None:
            if not future.done():
                future.set_result(value)

        def reply(value: Any) -> None:  # GUI thread
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits
                loop.call_soon_threadsafe(settle, value)

        self._posted.emit(lambda: operation(reply))
        try:
            return await asyncio.wait_for(future, timeout)
        except TimeoutError as error:
            raise GuiGone("The app did not answer in time.") from error

    def _run(self, call: Callable[[], None]) -> None:
        if not self.closed:
            call()
