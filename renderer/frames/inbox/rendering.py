"""Drawing a note's view without stopping the window (R67).

A render has two halves. The reading (Markdown parsed into what the view draws)
is plain Python with no widgets, so for any note but a small one it runs in a
reading process of its own (:class:`ReadingProcess`): a 5 MiB note parses into
about a million short-lived objects, which in the app's process would hold the
interpreter lock against the GUI thread for long stretches and leave its heap
hundreds of MiB larger after they are freed. The drawing builds widgets, which
only the GUI thread may do, so it is a generator that the :class:`SlicedRender`
steps through a slice at a time, each slice a few milliseconds, returning to the
event loop between slices:
typing, scrolling and a click on another view go on while a big note draws.

The note's text reaches the reading process through shared memory, taken from
the editor and encoded a step at a time on the GUI thread: sent down a pipe,
5 MiB of text was encoded and written by a feeder thread that held the
interpreter lock against the GUI thread for 50-150 ms at a time on a busy machine.

A new render (another view, or new text) cancels the one under way: its
drawing stops at the next slice, and the result of a reading still on its
worker is dropped when it arrives. At most one reading per frame runs at a time;
the latest request waits for it instead of piling up behind it.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import re
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from multiprocessing.shared_memory import SharedMemory
from pathlib import Path
from typing import Any, Final

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QTextCursor, QTextDocument

from renderer.frames.inbox.runtime import BLOCK_SEPARATOR
from renderer.qt import collector
from renderer.qt.tasks import TaskRunner

READING_NICENESS: Final = 10
"""The reading process's scheduling niceness: the cores go to the window's threads first.

A reading keeps a core busy for seconds. On a machine whose cores are all busy,
a thread of the app waiting for one meanwhile also holds the GUI thread up: it
asked for the interpreter lock, and the GUI thread, having let go of it, sleeps
until that thread has run. Niced, the reading runs as fast on an idle core and
gives way on a busy one.
"""
SLICE_SECONDS: Final = 0.008
"""Drawing done in one go before the event loop runs again: well under a 16 ms frame."""
INLINE_CHARACTERS: Final = 4096
"""Notes up to this size are read and drawn at once: that takes a few milliseconds."""

RAW_CHARACTERS_PER_STEP: Final = 1 << 18
"""Characters of a big note's text taken from the editor in one step: a millisecond or two.

Taking all of a 5 MiB note at once (``toRawText``) holds the GUI thread for tens of
milliseconds, and for over a hundred on a busy machine.
"""

SEGMENT_PREFIX: Final = "ambient-notes-reading-"
"""Shared memory blocks of a reading are named so, then the app's process id and a count:
a start finds the blocks an app killed meanwhile left behind (R92), and only those."""
SHARED_MEMORY_FOLDER: Final = Path("/dev/shm")
_LEFT_SEGMENT: Final = re.compile(rf"{SEGMENT_PREFIX}(\d{{1,10}})-\d+")
_segment_numbers = itertools.count()

Reading = Callable[..., Any]
"""A module-level, Qt-free function of the note's text (and plain values): it is sent
to the reading process by name."""
Drawing = Callable[[Any], Iterator[None]]


class ReadingProcess:
    """One process for every frame's readings: started on first use, stopped with its last user."""

    _lock = threading.Lock()
    _users = 0
    _running = 0
    _pool: ProcessPoolExecutor | None = None

    @classmethod
    def join(cls) -> None:
        with cls._lock:
            cls._users += 1

    @classmethod
    def leave(cls) -> None:
        with cls._lock:
            cls._users = max(0, cls._users - 1)
            pool = cls._pool if cls._users == 0 else None
            if pool is not None:
                cls._pool = None
            idle = cls._running == 0
        if pool is not None:
            # Idle, the process and its thread end at once; a reading under way is let
            # finish on its own rather than have the closing window wait for it.
            pool.shutdown(wait=idle, cancel_futures=True)

    @classmethod
    def read(cls, function: Reading, chunks: list[bytes], *args: object) -> object:
        """``function(text, *args)`` in the reading process (blocks: call on a worker thread).

        ``chunks`` is the editor's raw text, UTF-8 encoded a step at a time
        (:func:`raw_text_chunks`); it is copied into a shared memory block, a chunk
        at a time, and only the block's name goes down the pipe.
        """
        size = sum(len(chunk) for chunk in chunks)
        name = f"{SEGMENT_PREFIX}{os.getpid()}-{next(_segment_numbers)}"
        block = SharedMemory(name=name, create=True, size=max(size, 1))
        try:
            with _memory(block) as memory:
                offset = 0
                for chunk in chunks:
                    memory[offset : offset + len(chunk)] = chunk
                    offset += len(chunk)
            return cls._run(_read_shared_text, function, block.name, size, *args)
        finally:
            block.close()
            block.unlink()

    @classmethod
    def _run(cls, function: Reading, *args: object) -> object:
        with cls._lock:
            if cls._pool is None:
                # Spawned, not forked: a fork of a process running Qt and threads is unsafe.
                context = multiprocessing.get_context("spawn")
                cls._pool = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=context,
                    initializer=os.nice,
                    initargs=(READING_NICENESS,),
                )
            pool = cls._pool
            cls._running += 1
        try:
            return pool.submit(function, *args).result()
        except BrokenProcessPool:
            with cls._lock:
                if cls._pool is pool:
                    cls._pool = None  # the next reading starts a new process
            return function(*args)  # this one is read here rather than lost
        finally:
            with cls._lock:
                cls._running -= 1


def remove_left_segments(folder: Path = SHARED_MEMORY_FOLDER) -> list[str]:
    """Remove the readings' shared memory that apps no longer running left; their names.

    A block is removed by the reading that made it; an app killed mid-reading leaves
    its block (the note's text) behind. Only this user's blocks named by
    :data:`SEGMENT_PREFIX` whose process is gone are removed.
    """
    removed: list[str] = []
    try:
        names = [name for name in os.listdir(folder) if name.startswith(SEGMENT_PREFIX)]
    except OSError:
        return removed  # no such folder on this system: nothing was left there
    for name in names:
        match = _LEFT_SEGMENT.fullmatch(name)
        if match is None or _process_runs(int(match[1])):
            continue
        path = folder / name
        try:
            if path.lstat().st_uid != os.getuid():
                continue
            path.unlink()
        except OSError:
            continue
        removed.append(name)
    return removed


def _process_runs(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True  # another user's process, or not a process id: not ours to judge
    return True


def _memory(block: SharedMemory) -> memoryview:
    """The block's memory, a view to release (``with``) before the block is closed."""
    memory = block.buf
    if memory is None:  # only once closed
        raise ValueError("the shared memory block is closed")
    return memory[:]


def _read_shared_text(function: Reading, name: str, size: int, *args: object) -> object:
    """``function`` of the editor's raw text that :meth:`ReadingProcess.read` shared."""
    block = SharedMemory(name=name)
    try:
        with _memory(block) as memory, memory[:size] as shared:
            raw = str(shared, "utf-8", "surrogatepass")
    finally:
        block.close()
    return _read_editor_text(function, raw, *args)


def _read_editor_text(function: Reading, raw: str, *args: object) -> object:
    """``function`` of the editor's raw text, its block separators made line breaks here.

    The same text :func:`~renderer.frames.inbox.runtime.read_document_text` gives;
    the replacing is done in the reading process, off the GUI thread.
    """
    return function(raw.replace(BLOCK_SEPARATOR, "\n"), *args)


def raw_text_steps(document: QTextDocument, pieces: list[str]) -> Iterator[None]:
    """Append the document's raw text (as ``toRawText`` gives it) to ``pieces``, step by step.

    Each step takes whole blocks of about :data:`RAW_CHARACTERS_PER_STEP`
    characters (one longer block whole), so no step splits a surrogate pair.
    """
    end_of_text = document.characterCount() - 1  # the last block's separator is not text
    cursor = QTextCursor(document)
    start = 0
    while start < end_of_text:
        block = document.findBlock(min(start + RAW_CHARACTERS_PER_STEP, end_of_text))
        end = block.position()
        if end <= start:  # one block longer than a step: all of it
            end = block.position() + block.length()
        end = min(end, end_of_text)
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        pieces.append(cursor.selectedText())
        start = end
        yield


def raw_text_chunks(document: QTextDocument, chunks: list[bytes]) -> Iterator[None]:
    """:func:`raw_text_steps`, each step's text UTF-8 encoded as it is taken.

    ``surrogatepass`` carries a lone surrogate the editor may hold, as pickling would.
    """
    pieces: list[str] = []
    for _ in raw_text_steps(document, pieces):
        chunks.append(pieces.pop().encode("utf-8", "surrogatepass"))
        yield


@dataclass(frozen=True)
class _Request:
    generation: int
    read: Callable[[], object]
    draw: Drawing


class SlicedRender(QObject):
    """Runs one view's render at a time: reading on a worker, drawing in slices."""

    busy_changed = Signal(bool)
    """True while a render is under way (its reading or its drawing), False when it ends."""
    finished = Signal()
    """A render drew its last slice (a cancelled one never says so)."""

    def __init__(self, runner: TaskRunner, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._runner = runner
        self._joined = False
        self._generation = 0
        self._reading: int | None = None
        """The generation whose reading is on a worker, if one is."""
        self._waiting: _Request | None = None
        self._steps: Iterator[None] | None = None
        self._then: Callable[[], None] | None = None
        """What follows the steps under way when they are not a drawing (taking the text)."""
        self._busy = False
        self._deferring = False
        """Whether this render holds timed collections off (see :func:`collector.defer`)."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._draw_slice)

    @property
    def busy(self) -> bool:
        return self._busy

    def render_document(
        self, read: Reading, document: QTextDocument, *args: object, draw: Drawing
    ) -> None:
        """Cancel the render under way and start this one, of ``document``'s raw text.

        ``read(text, *args)`` runs in the reading process unless the note has at most
        :data:`INLINE_CHARACTERS`; ``draw`` gets its result on the GUI thread. A big
        note's text is taken a slice at a time; a note edited meanwhile is taken
        again from the start.
        """
        self.cancel()
        if document.characterCount() - 1 <= INLINE_CHARACTERS:
            for _ in draw(_read_editor_text(read, document.toRawText(), *args)):
                pass
            self.finished.emit()
            return
        self._set_busy(True)
        chunks: list[bytes] = []
        revision = document.revision()

        def taken() -> None:
            if document.revision() != revision:
                self.render_document(read, document, *args, draw=draw)
            else:
                self._begin(read, chunks, args, draw)

        self._steps, self._then = raw_text_chunks(document, chunks), taken
        self._draw_slice()

    def _begin(
        self, read: Reading, chunks: list[bytes], args: tuple[object, ...], draw: Drawing
    ) -> None:
        if not self._joined:
            self._joined = True
            ReadingProcess.join()
        request = _Request(self._generation, lambda: ReadingProcess.read(read, chunks, *args), draw)
        self._set_busy(True)
        if self._reading is not None:
            self._waiting = request  # starts when the reading under way comes back
            return
        self._start_reading(request)

    def close(self) -> None:
        """Cancel, and no longer keep the reading process for this frame."""
        self.cancel()
        if self._joined:
            self._joined = False
            ReadingProcess.leave()

    def cancel(self) -> None:
        """Stop the render under way: no further slice is drawn, no reading result used."""
        self._generation += 1
        self._waiting = None
        self._steps = None
        self._then = None
        self._timer.stop()
        self._set_busy(False)

    def _start_reading(self, request: _Request) -> None:
        self._reading = request.generation
        self._defer_collections(True)
        future = self._runner.submit(
            request.read,
            on_done=lambda result: self._on_read(request, result),
            on_error=lambda _error: self._on_read(request, None, failed=True),
        )
        if future is None:  # the runner is shut down: the window is closing
            self._defer_collections(False)
            self._reading = None
            self._set_busy(False)

    def _on_read(self, request: _Request, result: object, *, failed: bool = False) -> None:
        self._reading = None
        waiting, self._waiting = self._waiting, None
        if waiting is not None and waiting.generation == self._generation:
            self._start_reading(waiting)
            return
        if request.generation != self._generation:
            return
        if failed:
            self._set_busy(False)
            return
        self._steps, self._then = request.draw(result), None
        self._draw_slice()

    def _defer_collections(self, defer: bool) -> None:
        """Hold timed collections off from a reading's start to its drawing's end.

        The reading's young objects, and the drawing's, would each be walked by a
        collection that frees none of them; after the render the counts are low again.
        """
        if defer == self._deferring:
            return
        self._deferring = defer
        if defer:
            collector.defer()
        else:
            collector.resume()

    def _draw_slice(self) -> None:
        steps = self._steps
        if steps is None:
            return
        deadline = time.perf_counter() + SLICE_SECONDS
        for _ in steps:
            if time.perf_counter() >= deadline:
                self._timer.start()
                return
        self._steps = None
        then, self._then = self._then, None
        if then is not None:
            then()
            return
        self._set_busy(False)
        self.finished.emit()

    def _set_busy(self, busy: bool) -> None:
        if not busy and self._reading is None:
            self._defer_collections(False)
        if busy != self._busy:
            self._busy = busy
            self.busy_changed.emit(busy)
