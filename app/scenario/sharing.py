"""The ``share`` verb and the ``shared`` expect key: the sidecar as a connected tool sees it.

``share: on`` turns sharing on as the Assistant menu does and connects the official
MCP SDK's client to it (R58); ``share: off`` turns it off and that client is
disconnected. ``expect: {shared: …}`` asks the client: ``get_active_note`` for the
pointer and the latest ``ide/contextUpdate`` for the open notes, once the context has
settled (the update is debounced).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import PurePath
from typing import Any, Final

from app.scenario.expectations import SharedExpectation
from app.scenario.registry import NOW, Checking, ExpectKey, Replay, Verb
from app.scenario.report import Mismatch, StepResult
from app.scenario.sidecar_client import SdkClient
from app.scenario.steps import ShareStep
from app.scenario.waiting import StepError, wait_until
from app.window.main_window import MainWindow

SETTLE_SECONDS: Final = 5.0


class _Waits:
    """``waitUntil`` over the runner's own wait: the Qt event loop runs meanwhile."""

    def waitUntil(self, callback: Callable[[], bool], *, timeout: int) -> None:
        wait_until(callback, timeout=timeout / 1000, what="the sidecar's answer")


class SharingPeer:
    """The tool a scenario connects while sharing is on (at most one)."""

    def __init__(self) -> None:
        self.client: SdkClient | None = None

    def share(self, window: MainWindow, step: ShareStep) -> None:
        sharing = window.sharing
        if not step.on:
            self.close()
            sharing.choose(False)
            return
        sharing.choose(True)  # as the menu does: the SDK may load on a thread first
        wait_until(
            lambda: not sharing.loading,
            timeout=SETTLE_SECONDS,
            what="sharing to start",
            wake_on=(sharing.state_changed,),
        )
        server = sharing.server
        if server is None:
            raise StepError("Sharing the active note did not start.")
        if self.client is None:
            self.client = SdkClient(_Waits(), server.url, server.token)
            wait_until(
                lambda: sharing.connected >= 1, timeout=SETTLE_SECONDS, what="the tool to connect"
            )

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None

    def check(self, expected: SharedExpectation, window: MainWindow) -> list[Mismatch]:
        if self.client is None:
            return [Mismatch("shared", "a connected tool (share: on first)", "sharing is off")]
        return _compare(expected, self.client, window)


def _compare(expected: SharedExpectation, client: SdkClient, window: MainWindow) -> list[Mismatch]:
    sharing = window.sharing
    given = expected.model_fields_set
    mismatches: list[Mismatch] = []
    if "activeNote" in given:
        body = client.call("get_active_note").structured_content or {}
        actual = {k: v for k, v in body.items() if k not in ("status", "message", "absolutePath")}
        wanted = expected.activeNote.expected() if expected.activeNote is not None else None
        seen = {k: actual.get(k) for k in wanted} if wanted is not None and actual else None
        if seen != wanted:
            mismatches.append(Mismatch("shared.activeNote", wanted, actual or None))
    if given & {"openFiles", "active"}:
        wanted_context = sharing.feed.context()
        wait_until(
            lambda: _latest(client) == wanted_context,
            timeout=SETTLE_SECONDS,
            what="the tool to hear the current context",
        )
        files = _latest(client)["workspaceState"]["openFiles"]
        root = sharing.notes.workspace_folder()
        paths = [_relative(entry["path"], root) for entry in files]
        active = next((p for p, e in zip(paths, files, strict=True) if e.get("isActive")), None)
        if "openFiles" in given and paths != expected.openFiles:
            mismatches.append(Mismatch("shared.openFiles", expected.openFiles, paths))
        if "active" in given and active != expected.active:
            mismatches.append(Mismatch("shared.active", expected.active, active))
    if "connected" in given and sharing.connected != expected.connected:
        mismatches.append(Mismatch("shared.connected", expected.connected, sharing.connected))
    return mismatches


def _latest(client: SdkClient) -> dict[str, Any]:
    updates = client.notifications("ide/contextUpdate")
    return updates[-1] if updates else {}


def _relative(path: str, root: PurePath | None) -> str:
    if root is None:
        return path
    try:
        return PurePath(path).relative_to(root).as_posix()
    except ValueError:
        return path


def _peer(holder: Replay | Checking) -> SharingPeer:
    # The registry names the peer loosely, so it need not import this module back.
    peer = holder.peer
    assert isinstance(peer, SharingPeer)
    return peer


def _share(replay: Replay, step: ShareStep, _outcome: StepResult) -> None:
    _peer(replay).share(replay.window, step)


def _on_or_off(value: object) -> object:
    """YAML reads a bare ``on``/``off`` as true/false."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return value


def _check_shared(against: Checking, expected: SharedExpectation) -> list[Mismatch]:
    return _peer(against).check(expected, against.window)


VERBS: tuple[Verb[Any], ...] = (
    Verb(
        ShareStep,
        _share,
        (
            (
                "`share: on` / `share: off`",
                "Assistant ▸ Share the active note with other tools (R58); `on` also connects a "
                "tool (the official MCP SDK's client) and waits until the window counts it, "
                "`off` disconnects it.",
            ),
        ),
        coerce=_on_or_off,
    ),
)

EXPECT_KEYS: tuple[ExpectKey[Any], ...] = (
    ExpectKey(
        "shared",
        SharedExpectation,
        NOW,
        _check_shared,
        (
            (
                "`shared: {activeNote, openFiles, active, connected}`",
                "what a tool connected to the sidecar sees (R60): `activeNote` a subset of "
                "`get_active_note`'s pointer (null: no note), `openFiles` the workspace paths "
                "of the latest `ide/contextUpdate`, newest first (waits until it carries the "
                "current context), `active` the one marked active, `connected` the count the "
                "window shows. Needs `share: on` first.",
            ),
        ),
    ),
)
