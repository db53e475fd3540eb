"""Which notes a person keeps from the assistant: the workspace's ``.aiexclude`` (R86, contract 14).

One declaration both realms use: the backend asks it before any tool, pointer or
inline request touches a note, the app before it names "this note" in a send. The
file is in gitignore syntax (matched by :mod:`pathspec`'s ``GitIgnoreSpec``) at the
workspace's root, and may be edited by the app, by hand or by another tool: each
question checks the file's identity (inode, size, modification and change times, one
``lstat``) and reads it again only when that changed, so an edit applies from the
next send and an unchanged file costs a system call.

A file that is there but cannot be read (a link, a FIFO, a folder, larger than
:data:`MAX_AIEXCLUDE_BYTES`, no permission) fails closed: every note is private until
it can be read, and :attr:`PrivacyRules.problem` says why in plain words, for a banner.
``.aiexclude`` itself is always private: no tool reads or lists it.
"""

from __future__ import annotations

import contextlib
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from bridge.private_files import OwnFileRefused, read_own_file, write_in_folder

if TYPE_CHECKING:
    # Imported where a file's rules are compiled: a workspace without ``.aiexclude``
    # (most) never loads pathspec's 30 modules, and the app's start never waits for them.
    from pathspec import GitIgnoreSpec

AIEXCLUDE: Final = ".aiexclude"
MAX_AIEXCLUDE_BYTES: Final = 1024 * 1024
"""A list of patterns past 1 MiB is not one a person wrote: it is refused, failing closed."""
MAX_AIEXCLUDE_PATTERNS: Final = 1000
"""Each pattern is compiled to a regular expression (a fraction of a millisecond each) and
asked about every note listed or searched: past this many the file fails closed, with a
banner saying so, instead of stalling every send and search."""
KEEP_PRIVATE: Final = "Keep private from the assistant"
SHARE: Final = "Share with the assistant"
UNREADABLE: Final = (
    "The workspace's .aiexclude can't be read ({reason}), so every note is kept private "
    "from the assistant until it can be."
)
STILL_PRIVATE: Final = (
    "{path} is still private: another line of .aiexclude keeps it from the assistant "
    "(a folder it is in, or a pattern that matches it). Edit .aiexclude to share it."
)
NOTE_PRIVATE: Final = (
    "That note is private: you keep it from the assistant (.aiexclude), so nothing of it "
    "can be read. Share it from the note's title bar or the workspace list to let me see it."
)
"""Every read of a private note by name answers this (``status: private``), no path, no text."""
OPEN_NOTE_PRIVATE: Final = (
    "The open note is private: you keep it from the assistant (.aiexclude), so nothing of "
    "it can be read. Share it from the note's title bar or the workspace list to let me see it."
)
"""``read_active_note`` when "this note" is private."""
PRIVATE_LEFT_OUT: Final = (
    "{count} private note(s) you keep from the assistant (.aiexclude) were left out."
)
"""What a listing or a search says beside ``privateCount`` when it left notes out."""
CHIP_PRIVATE: Final = "Private — the assistant can't see this note"
_SPECIAL: Final = re.compile(r"([\\*?\[\]!#])")
"""Characters a gitignore pattern reads as wildcards or markers; escaped to name one path."""


@dataclass(frozen=True)
class PrivacyRules:
    """One reading of ``.aiexclude``: ask :meth:`is_private` about a workspace path."""

    spec: GitIgnoreSpec | None
    """The patterns; None when there is no file (nothing private) or it failed closed."""
    problem: str | None = None
    """Why the file could not be read: then every note is private (fail closed)."""
    pending: bool = False
    """Not read yet (a remote backend's copy on its way): every note is private meanwhile."""

    @property
    def everything_private(self) -> bool:
        return self.problem is not None or self.pending

    def is_private(self, path: str) -> bool:
        """Whether the workspace path ``path`` (a note or a folder) is kept from the assistant."""
        if self.everything_private or path == AIEXCLUDE:
            return True
        return self.spec is not None and self.spec.match_file(path)


NOTHING_PRIVATE: Final = PrivacyRules(None)


def parse_rules(text: str) -> PrivacyRules:
    """The rules of an ``.aiexclude`` text (gitignore syntax: comments, ``!``, folders)."""
    from pathspec import GitIgnoreSpec

    spec = GitIgnoreSpec.from_lines(text.splitlines())
    return PrivacyRules(spec if spec.patterns else None)


def _identity(info: os.stat_result) -> tuple[int, ...]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


class WorkspacePrivacy:
    """A workspace folder's ``.aiexclude``, read again whenever it changes; thread-safe."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._lock = threading.Lock()
        self._seen: tuple[int, ...] | None = None
        self._rules = NOTHING_PRIVATE

    @property
    def file(self) -> Path:
        return self.folder / AIEXCLUDE

    def rules(self) -> PrivacyRules:
        """The rules as the file is now: one ``lstat``, and a read only when it changed."""
        try:
            info = os.lstat(self.file)
        except FileNotFoundError:
            return NOTHING_PRIVATE
        except OSError as error:  # the folder itself can't be searched
            return PrivacyRules(None, UNREADABLE.format(reason=error.strerror or "unknown"))
        identity = _identity(info)
        with self._lock:
            if identity != self._seen:
                self._rules = _read_rules(self.file)
                self._seen = identity
            return self._rules

    def peek(self) -> tuple[PrivacyRules | None, int]:
        """The rules when the file is as last read, else None; and its size now (one ``lstat``).

        Lets a caller that must stay quick (the GUI thread) read a large changed file
        elsewhere; a missing file is known at once (nothing private).
        """
        try:
            info = os.lstat(self.file)
        except FileNotFoundError:
            return NOTHING_PRIVATE, 0
        except OSError:
            return None, 0
        with self._lock:
            return (self._rules if _identity(info) == self._seen else None), info.st_size

    def is_private(self, path: str) -> bool:
        return self.rules().is_private(path)

    def set_private(self, path: str, private: bool, *, folder: bool = False) -> str | None:
        """Keep ``path`` from the assistant or share it, editing ``.aiexclude``; OSError if not.

        Keeping adds one line naming exactly that note (or folder). Sharing removes the
        lines that name exactly it; if another line still matches it, a ``!`` line
        re-includes it. Answers None when done, or a sentence saying why it is still
        private (a folder around it is private: gitignore cannot re-include below it).
        """
        with self._lock:
            text = marked_text(_read_text(self.file), path, private, folder=folder)
            folder_fd = os.open(self.folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                write_in_folder(folder_fd, AIEXCLUDE, text.encode("utf-8"))
            finally:
                os.close(folder_fd)
            self._seen = None  # read again on the next question, whatever the clock says
        return still_private(self.rules(), path, private, folder=folder)


def marked_text(current: str, path: str, private: bool, *, folder: bool = False) -> str:
    """``.aiexclude``'s text with ``path`` kept private or shared (see ``set_private``)."""
    pattern = exact_pattern(path, folder=folder)
    probe = path + "/" if folder else path  # gitignore asks about a folder so
    lines = current.splitlines()
    if private:
        if not parse_rules(current).is_private(probe):
            lines.append(pattern)
    else:
        lines = [line for line in lines if line.strip() != pattern]
        if parse_rules("\n".join(lines)).is_private(probe):
            lines.append("!" + pattern)
    return "\n".join(lines) + "\n" if lines else ""


def still_private(rules: PrivacyRules, path: str, private: bool, *, folder: bool) -> str | None:
    """Why sharing ``path`` did not share it (a private folder around it), or None."""
    if not private and rules.is_private(path + "/" if folder else path):
        return STILL_PRIVATE.format(path=path)
    return None


def exact_pattern(path: str, *, folder: bool = False) -> str:
    """A gitignore line naming exactly the workspace path ``path`` (anchored, escaped)."""
    escaped = _SPECIAL.sub(r"\\\1", path)
    if escaped.endswith(" "):
        escaped = escaped[:-1] + "\\ "  # a trailing space is dropped unless escaped
    return "/" + escaped + ("/" if folder else "")


def _read_text(file: Path) -> str:
    """The file's text for an edit: missing is empty; one that can't be read is an OSError."""
    try:
        data = read_own_file(file, MAX_AIEXCLUDE_BYTES)
    except FileNotFoundError:
        return ""
    return data.decode("utf-8", errors="replace")


def _pattern_count(text: str) -> int:
    """The lines gitignore reads as patterns (not blank, not comments): one linear pass."""
    return sum(1 for line in text.splitlines() if line.strip() and not line.startswith("#"))


def _read_rules(file: Path) -> PrivacyRules:
    """Read and parse once; anything that stops the read fails closed with its reason."""
    try:
        data = read_own_file(file, MAX_AIEXCLUDE_BYTES)
    except FileNotFoundError:
        return NOTHING_PRIVATE
    except OwnFileRefused as refused:
        return PrivacyRules(None, UNREADABLE.format(reason=refused.reason))
    except OSError as error:
        return PrivacyRules(None, UNREADABLE.format(reason=error.strerror or "unknown error"))
    return rules_of_text(data.decode("utf-8", errors="replace"))


def rules_of_text(text: str) -> PrivacyRules:
    """The rules of a file's text, or failing closed when there are too many to compile."""
    if len(text.encode("utf-8", errors="surrogatepass")) > MAX_AIEXCLUDE_BYTES:
        reason = f"it is larger than {MAX_AIEXCLUDE_BYTES:,} bytes"
        return PrivacyRules(None, UNREADABLE.format(reason=reason))
    if _pattern_count(text) > MAX_AIEXCLUDE_PATTERNS:
        reason = f"it has more than {MAX_AIEXCLUDE_PATTERNS:,} patterns"
        return PrivacyRules(None, UNREADABLE.format(reason=reason))
    with contextlib.suppress(ValueError):  # a pattern pathspec can't compile: fail closed
        return parse_rules(text)
    return PrivacyRules(None, UNREADABLE.format(reason="a pattern in it is not valid"))
