"""Every command a person gives the main window, declared once (R84).

Each :class:`ActionDeclaration` names an action's id, its menu title, its keys,
its menu, when it is enabled and what it does. The menus and their shortcuts
(:mod:`app.commands.menus`), Help ▸ Keyboard shortcuts, the README's shortcut table (a
test holds it equal), and the command a scenario or a test triggers
(``window.driver.trigger(id)``) all read this one tuple.

A handler receives the window's :class:`ActionHost` (the menus object), never the
window itself, so this module imports nothing of the window's.

Keys a widget binds for itself (Enter in the assistant's input, Alt+1…4 in a
note, Ctrl+I in the editor) are listed in :func:`widget_keys`, from the constants
those widgets bind, so Help names them too.

Why not napari's ``app-model``: it declares actions as pydantic models resolved
through in-n-out's injection and reaches Qt through qtpy; that is three more
packages, and models built at import time before the first paint, for what one
frozen dataclass and a tuple hold here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal, Protocol

from PySide6.QtGui import QKeySequence

from renderer.frames.assistant.message_input import INPUT_KEYS
from renderer.frames.find_bar import FIND_KEYS
from renderer.frames.inbox.controls import BACK_FROM_NOTE_KEY, LEAVE_NOTE_KEY
from renderer.frames.inbox.inline_prompt import ACTION_TEXT as ASK_AI_TITLE
from renderer.frames.inbox.inline_prompt import SHORTCUT as ASK_AI_KEYS
from renderer.frames.inbox.view_kinds import view_keys_does, view_keys_text

MenuName = Literal["File", "Edit", "Frames", "Assistant", "Help"]
MENUS: Final[tuple[MenuName, ...]] = ("File", "Edit", "Frames", "Assistant", "Help")
MENU_TITLES: Final[dict[MenuName, str]] = {
    "File": "&File",
    "Edit": "&Edit",
    "Frames": "F&rames",
    "Assistant": "&Assistant",
    "Help": "&Help",
}
EditCommand = Literal["undo", "redo", "cut", "copy", "paste", "selectAll"]
Key = str | QKeySequence.StandardKey
MAX_FRAME_SHORTCUTS: Final = 9


class ActionHost(Protocol):
    """What the handlers call: the window's menus object provides each."""

    def ask_new_note(self) -> object: ...
    def ask_open_note(self) -> None: ...
    def quick_open(self) -> object: ...
    def ask_workspace(self) -> object: ...
    def show_workspace_folder(self) -> None: ...
    def save_now(self) -> None: ...
    def quit(self) -> None: ...
    def edit_focused(self, command: EditCommand) -> None: ...
    def find(self, *, replace: bool) -> None: ...
    def find_again(self, step: int) -> None: ...
    def ask_ai(self) -> None: ...
    def has_note(self) -> bool: ...
    def focus_assistant(self) -> None: ...
    def focus_next_frame(self, step: int) -> None: ...
    def focus_frame_number(self, number: int) -> None: ...
    def focus_browser(self) -> None: ...
    def add_browser(self) -> None: ...
    def move_active(self, offset: int) -> None: ...
    def close_active(self) -> None: ...
    def can_close_active(self) -> bool: ...
    def open_assistant_settings(self) -> object: ...
    def clear_conversation(self) -> None: ...
    def show_shortcuts(self) -> object: ...
    def show_assistant_help(self) -> object: ...
    def show_about(self) -> object: ...


Handler = Callable[[ActionHost], object]


@dataclass(frozen=True)
class ActionDeclaration:
    """One user action: everything the menus, shortcuts, Help and the tests know of it."""

    id: str
    title: str
    """The menu text; ``&`` marks the mnemonic."""
    menu: MenuName
    handler: Handler
    keys: tuple[Key, ...] = ()
    enabled_when: Callable[[ActionHost], bool] | None = None
    shown_keys: str = ""
    """Keys a widget binds for itself (named in the menu, bound there, not here)."""
    separator_before: bool = False
    listed: bool = True
    """False for the members of a family Help names in one row (Ctrl+2…9 under Ctrl+1's)."""
    help_row: tuple[str, str] | None = None
    """(keys, what it does) when Help names a family in this one's row."""
    recorded: bool = False
    """The recorder writes a ``command`` step for it: what it does is seen nowhere else
    (activation, typing and frames are recorded as themselves)."""

    @property
    def plain_title(self) -> str:
        """The title as read aloud and listed in Help: no mnemonic mark, no ellipsis."""
        return self.title.replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…")

    def key_sequences(self) -> list[QKeySequence]:
        """The sequences the window binds (the platform's own for a standard key)."""
        sequences: list[QKeySequence] = []
        for key in self.keys:
            if isinstance(key, QKeySequence.StandardKey):
                sequences.extend(QKeySequence.keyBindings(key))
            else:
                sequences.append(QKeySequence(key))
        return sequences

    def key_text(self) -> str:
        """The keys as Help and the README list them: the platform's first binding of each."""
        if self.shown_keys:
            return self.shown_keys
        return ", ".join(
            QKeySequence(key).toString(QKeySequence.SequenceFormat.PortableText)
            for key in self.keys
        )


def _focus_number(number: int) -> ActionDeclaration:
    return ActionDeclaration(
        f"frames.focus-{number}",
        f"Focus note frame &{number}",
        "Frames",
        lambda host: host.focus_frame_number(number),
        (f"Ctrl+{number}",),
        listed=number == 1,
        help_row=(f"Ctrl+1…{MAX_FRAME_SHORTCUTS}", "Focus the note frame of that number")
        if number == 1
        else None,
    )


Standard = QKeySequence.StandardKey

ACTIONS: Final[tuple[ActionDeclaration, ...]] = (
    # File
    ActionDeclaration("file.new", "&New note…", "File", lambda h: h.ask_new_note(), ("Ctrl+N",)),
    ActionDeclaration("file.open", "&Open note…", "File", lambda h: h.ask_open_note(), ("Ctrl+O",)),
    ActionDeclaration(
        "file.quick-open", "&Quick open…", "File", lambda h: h.quick_open(), ("Ctrl+P",)
    ),
    ActionDeclaration(
        "file.save", "&Save now", "File", lambda h: h.save_now(), (Standard.Save,), recorded=True
    ),
    ActionDeclaration(
        "file.switch-workspace",
        "&Switch workspace…",
        "File",
        lambda h: h.ask_workspace(),
        ("Ctrl+Shift+O",),
    ),
    ActionDeclaration(
        "file.workspace-folder",
        "Show &workspace folder",
        "File",
        lambda h: h.show_workspace_folder(),
    ),
    ActionDeclaration(
        "file.quit", "&Quit", "File", lambda h: h.quit(), ("Ctrl+Q",), separator_before=True
    ),
    # Edit: the standard commands act on whichever widget has keyboard focus.
    ActionDeclaration(
        "edit.undo", "&Undo", "Edit", lambda h: h.edit_focused("undo"), (Standard.Undo,)
    ),
    ActionDeclaration(
        "edit.redo", "&Redo", "Edit", lambda h: h.edit_focused("redo"), (Standard.Redo,)
    ),
    ActionDeclaration(
        "edit.cut",
        "Cu&t",
        "Edit",
        lambda h: h.edit_focused("cut"),
        (Standard.Cut,),
        separator_before=True,
    ),
    ActionDeclaration(
        "edit.copy", "&Copy", "Edit", lambda h: h.edit_focused("copy"), (Standard.Copy,)
    ),
    ActionDeclaration(
        "edit.paste", "&Paste", "Edit", lambda h: h.edit_focused("paste"), (Standard.Paste,)
    ),
    ActionDeclaration(
        "edit.select-all",
        "Select &all",
        "Edit",
        lambda h: h.edit_focused("selectAll"),
        (Standard.SelectAll,),
    ),
    ActionDeclaration(
        "edit.find",
        "&Find…",
        "Edit",
        lambda h: h.find(replace=False),
        (FIND_KEYS.find,),
        enabled_when=lambda h: h.has_note(),
        separator_before=True,
    ),
    ActionDeclaration(
        "edit.find-next",
        "Find &next",
        "Edit",
        lambda h: h.find_again(1),
        (FIND_KEYS.next,),
        enabled_when=lambda h: h.has_note(),
    ),
    ActionDeclaration(
        "edit.find-previous",
        "Find pre&vious",
        "Edit",
        lambda h: h.find_again(-1),
        (FIND_KEYS.previous,),
        enabled_when=lambda h: h.has_note(),
    ),
    ActionDeclaration(
        "edit.replace",
        "R&eplace…",
        "Edit",
        lambda h: h.find(replace=True),
        (FIND_KEYS.replace,),
        enabled_when=lambda h: h.has_note(),
    ),
    ActionDeclaration(
        "edit.ask-ai",
        ASK_AI_TITLE,
        "Edit",
        lambda h: h.ask_ai(),
        shown_keys=ASK_AI_KEYS,
        enabled_when=lambda h: h.has_note(),
        separator_before=True,
    ),
    # Frames
    ActionDeclaration(
        "frames.focus-assistant",
        "Focus the &assistant",
        "Frames",
        lambda h: h.focus_assistant(),
        ("Ctrl+L",),
    ),
    ActionDeclaration(
        "frames.next", "&Next frame", "Frames", lambda h: h.focus_next_frame(1), ("F6",)
    ),
    ActionDeclaration(
        "frames.previous",
        "&Previous frame",
        "Frames",
        lambda h: h.focus_next_frame(-1),
        ("Shift+F6",),
    ),
    *(_focus_number(number) for number in range(1, MAX_FRAME_SHORTCUTS + 1)),
    ActionDeclaration(
        "frames.focus-browser",
        "Focus the &workspace browser",
        "Frames",
        lambda h: h.focus_browser(),
        ("Ctrl+Shift+E",),
    ),
    ActionDeclaration(
        "frames.add-browser", "Add a &workspace browser", "Frames", lambda h: h.add_browser()
    ),
    ActionDeclaration(
        "frames.move-up",
        "Move frame &up",
        "Frames",
        lambda h: h.move_active(-1),
        ("Ctrl+Shift+Up",),
        separator_before=True,
        recorded=True,
    ),
    ActionDeclaration(
        "frames.move-down",
        "Move frame &down",
        "Frames",
        lambda h: h.move_active(1),
        ("Ctrl+Shift+Down",),
        recorded=True,
    ),
    ActionDeclaration(
        "frames.close",
        "&Close frame",
        "Frames",
        lambda h: h.close_active(),
        ("Ctrl+W",),
        enabled_when=lambda h: h.can_close_active(),
    ),
    # Assistant
    ActionDeclaration(
        "assistant.settings",
        "Assistant &settings…",
        "Assistant",
        lambda h: h.open_assistant_settings(),
    ),
    ActionDeclaration(
        "assistant.clear", "&Clear conversation", "Assistant", lambda h: h.clear_conversation()
    ),
    # Help
    ActionDeclaration(
        "help.shortcuts", "&Keyboard shortcuts", "Help", lambda h: h.show_shortcuts(), ("F1",)
    ),
    ActionDeclaration(
        "help.assistant",
        "&What the assistant understands",
        "Help",
        lambda h: h.show_assistant_help(),
    ),
    ActionDeclaration("help.about", "&About Ambient Notes", "Help", lambda h: h.show_about()),
)

ACTIONS_BY_ID: Final[dict[str, ActionDeclaration]] = {action.id: action for action in ACTIONS}


@dataclass(frozen=True)
class WidgetKeys:
    """Keys a widget binds for itself, named here so Help lists them."""

    where: str
    keys: str
    does: str


def widget_keys() -> tuple[WidgetKeys, ...]:
    """The keys widgets bind for themselves; the views' row follows the registered views."""
    return (
        WidgetKeys("Assistant's input", INPUT_KEYS.send, "Send the message"),
        WidgetKeys("Assistant's input", INPUT_KEYS.new_line, "Start a new line"),
        WidgetKeys("Assistant's input", INPUT_KEYS.leave, "Leave the input (Shift+Tab goes back)"),
        WidgetKeys("Assistant", INPUT_KEYS.stop, "Stop the reply"),
        WidgetKeys("Note", view_keys_text(), view_keys_does()),
        WidgetKeys(
            "Note",
            LEAVE_NOTE_KEY,
            f"Leave the note's text ({BACK_FROM_NOTE_KEY} goes back; Tab types a tab)",
        ),
        WidgetKeys("Find bar", FIND_KEYS.close, "Close the find bar, back to the note"),
        WidgetKeys("Find bar", FIND_KEYS.replace_all, "Replace all (one undo step)"),
    )


def shortcut_rows() -> list[tuple[str, str, str]]:
    """(where, keys, what it does) for every key the app binds: Help and the README list these."""
    rows = [
        (f"{action.menu} menu", *(action.help_row or (action.key_text(), action.plain_title)))
        for action in ACTIONS
        if action.key_text() and action.listed
    ]
    rows.extend((widget.where, widget.keys, widget.does) for widget in widget_keys())
    return rows


def shortcut_table() -> str:
    """The shortcut list as a Markdown table (the README's, kept equal by a test)."""
    lines = ["| where | keys | what it does |", "| --- | --- | --- |"]
    lines.extend(f"| {where} | {keys} | {does} |" for where, keys, does in shortcut_rows())
    return "\n".join(lines)


README_BEGIN: Final = "<!-- shortcuts: generated from app/commands/actions.py, do not edit -->"
README_END: Final = "<!-- end of shortcuts -->"


def with_shortcut_table(readme: str) -> str:
    """The README's text with its shortcut table replaced by the declarations' one."""
    head, found, rest = readme.partition(README_BEGIN + "\n")
    _old, closed, tail = rest.partition(README_END)
    if not found or not closed:
        raise ValueError("the README has no shortcut table markers")
    return f"{head}{README_BEGIN}\n{shortcut_table()}\n{README_END}{tail}"


if __name__ == "__main__":  # QT_QPA_PLATFORM=offscreen python -m app.commands.actions README.md
    import sys
    from pathlib import Path

    from PySide6.QtGui import QGuiApplication

    application = QGuiApplication(sys.argv[:1])  # the platform's standard keys need one
    target = Path(sys.argv[1])
    target.write_text(with_shortcut_table(target.read_text(encoding="utf-8")), encoding="utf-8")
