"""The renderer-local ambient store: mounted Inbox runtimes, activation order, the resolver (R1–R7).

All methods run on the thread that owns the frames (the GUI thread in the app);
the store is not thread-safe and never touches note text. Its changes are psygnal
signals (Qt-free, so the core stays headless): a listener connects to one, is
called synchronously on that same thread in the order it connected, and a
listener that disconnects during an emit is still called for that emit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from psygnal import Signal

from bridge.privacy import NOTHING_PRIVATE, PrivacyRules
from bridge.views import View
from renderer.ambient.runtime import InboxRuntime


class Resolution(NamedTuple):
    """What "this note" resolves to right now.

    A named tuple rather than a frozen dataclass: every send and every selection
    change makes one, and a tuple is made in half the time.
    """

    frame_id: str
    path: str
    view: View


class AmbientStore:
    """Tracks mounted Inbox runtimes and frame activations; resolves the ambient note."""

    resolution_changed = Signal(object)
    """Each new resolution (a :class:`Resolution`, or None with no Inbox frame mounted).

    Not emitted on connecting: :meth:`resolve` gives the state now.
    """
    frame_loaded = Signal(str)
    """The frame id of a mounted Inbox frame whose note has just loaded."""
    frame_selection_changed = Signal(str)
    """The frame id of a mounted Inbox frame whose selection has just changed."""
    frame_activated = Signal(str)
    """The id of a frame of any kind that has just been activated."""

    def __init__(self) -> None:
        # Insertion order is mount order: the last key is the most recently mounted (R4).
        self._runtimes: dict[str, InboxRuntime] = {}
        # Most-recently-used order of activated frames of any kind; last key is the latest.
        self._activations: dict[str, None] = {}
        self._last_activated: str | None = None
        self._epoch = 0
        self._last_emitted: Resolution | None = None
        self.privacy: Callable[[], PrivacyRules] = lambda: NOTHING_PRIVATE
        """The open workspace's ``.aiexclude`` as it is now (R86); the app sets it."""

    def is_private(self, path: str) -> bool:
        """R86: whether ``path`` is kept from the assistant, as ``.aiexclude`` says now."""
        return self.privacy().is_private(path)

    # -- publishing (R1) -------------------------------------------------

    def publish(self, runtime: InboxRuntime) -> None:
        """An Inbox view mounted: make its live runtime a candidate (O(1), no text read).

        Publishing again for a frame that is already mounted replaces its handle
        but keeps its place in mount order: it is the same mount, not a new one.
        """
        self._runtimes[runtime.frame_id] = runtime
        self._emit_if_changed()

    def withdraw(self, frame_id: str) -> None:
        """An Inbox view unmounted (closed or popped out): it is no longer a candidate.

        Its activation is forgotten too, so a later mount under the same id starts
        as a never-activated frame (R4) instead of inheriting an old choice.
        """
        if self._runtimes.pop(frame_id, None) is None:
            return
        self._activations.pop(frame_id, None)
        self._emit_if_changed()

    def runtime_changed(self, frame_id: str) -> None:
        """A mounted frame now shows another path or view; listeners may need to know."""
        if frame_id in self._runtimes:
            self._emit_if_changed()

    def runtime_loaded(self, frame_id: str) -> None:
        """A mounted frame's editor now holds the text of its path; a waiting send may go on."""
        if frame_id not in self._runtimes:
            return
        self.frame_loaded.emit(frame_id)

    def selection_changed(self, frame_id: str) -> None:
        """A mounted frame's selection changed; the chip shows its lines (R48).

        Called only when the selection itself changes, not for each keystroke.
        """
        if frame_id not in self._runtimes:
            return
        self.frame_selection_changed.emit(frame_id)

    # -- activation (R2, R5) ---------------------------------------------

    def activate(self, frame_id: str) -> None:
        """Record that a frame of any kind was activated.

        Only Inbox runtimes can resolve, so activating the assistant or another
        provider is recorded without changing the Inbox choice (R5).
        """
        self._last_activated = frame_id
        self._activations.pop(frame_id, None)
        self._activations[frame_id] = None
        self._emit_if_changed()
        self.frame_activated.emit(frame_id)

    @property
    def last_activated_frame(self) -> str | None:
        """The most recently activated frame of any kind, or None."""
        return self._last_activated

    @property
    def activation_history(self) -> tuple[str, ...]:
        """Activated frames of any kind, least recent first."""
        return tuple(self._activations)

    # -- workspace boundary (R7) -----------------------------------------

    @property
    def epoch(self) -> int:
        """Bumped at each workspace boundary; a capture from an older epoch is discarded."""
        return self._epoch

    def cross_workspace_boundary(self) -> None:
        """Clear the runtimes, the choice and the activation history; invalidate captures."""
        self._epoch += 1
        self._runtimes.clear()
        self._activations.clear()
        self._last_activated = None
        self._emit_if_changed()

    # -- resolution (R3, R4, R6) -----------------------------------------

    @property
    def mounted_frame_ids(self) -> tuple[str, ...]:
        """Mounted Inbox frames in mount order."""
        return tuple(self._runtimes)

    def resolve_runtime(self) -> InboxRuntime | None:
        """The runtime "this note" means now, or None when no Inbox view is mounted (R6)."""
        if not self._runtimes:
            return None
        # R4: the most recently activated mounted Inbox frame first; activations of
        # the assistant or other providers are skipped here, which is R5.
        for frame_id in reversed(self._activations):
            runtime = self._runtimes.get(frame_id)
            if runtime is not None:
                return runtime
        # None activated: the most recently mounted wins (R3 is the one-frame case).
        return self._runtimes[next(reversed(self._runtimes))]

    def resolve(self) -> Resolution | None:
        """The current resolution as plain values (reads path and view from the runtime)."""
        runtime = self.resolve_runtime()
        if runtime is None:
            return None
        return Resolution(runtime.frame_id, runtime.current_path(), runtime.current_view())

    # -- change events ---------------------------------------------------

    def privacy_changed(self) -> None:
        """R86: ``.aiexclude`` changed; whoever shows "this note" reads it again."""
        current = self.resolve()
        self._last_emitted = current
        self.resolution_changed.emit(current)

    def _emit_if_changed(self) -> None:
        current = self.resolve()
        if current == self._last_emitted:
            return
        self._last_emitted = current
        self.resolution_changed.emit(current)
