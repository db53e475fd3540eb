"""What the backend has learnt about each model endpoint while it runs (R57)."""

from __future__ import annotations

import threading
from typing import Final


class StreamingMemory:
    """Endpoints known not to stream requests with a kind of tool choice.

    llama-cpp-python streams a named tool and a plain answer, but drops a streamed
    request that lets the model choose. Such requests go to that endpoint without
    streaming from then on, for every assistant made for it: only its first refusal
    costs a second request.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._plain: set[tuple[str, str]] = set()

    def streams(self, base_url: str, choice: str) -> bool:
        """Whether to stream a request with this kind of tool choice ("auto", "named", "none")."""
        with self._lock:
            return (base_url, choice) not in self._plain

    def remember_not_streaming(self, base_url: str, choice: str) -> None:
        with self._lock:
            self._plain.add((base_url, choice))


STREAMING: Final = StreamingMemory()
