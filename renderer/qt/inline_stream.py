"""An inline request streamed off the GUI thread; its text comes back as signals (R71, R72).

It is a :class:`renderer.qt.turn_stream.StreamedRequest`, as a turn is: a worker
thread reads the bridge's :class:`~bridge.inline.InlineStream`, wakes the GUI thread
with at most one queued signal at a time, and the replacement so far is shown at most
every :data:`~renderer.qt.turn_stream.RENDER_INTERVAL_MS`. Nothing on the GUI thread
waits for the network, so typing goes on while a request runs.
"""

from __future__ import annotations

from bridge.errors import BackendError
from bridge.wire import InlineAnswer
from renderer.qt.turn_stream import StreamedRequest

InlineOutcome = InlineAnswer | BackendError | BaseException | None
"""How a request ended: its answer, a failure, or None when it was stopped."""


class StreamedInline(StreamedRequest):
    """One inline request; ``finished`` fires once, on the GUI thread, with an
    :data:`InlineOutcome`; ``text_changed`` carries the replacement so far."""

    answer_type = InlineAnswer
