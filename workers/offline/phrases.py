"""The offline assistant's own phrases, in English; each is a message id of the catalogues.

The translations live in ``locale/<language>/LC_MESSAGES/offline.po`` (gettext
catalogues, see :mod:`workers.offline.catalogue`). Placeholders in braces are
filled after translation; note text quoted into a reply is never translated.
"""

from __future__ import annotations

from typing import Final

from workers.offline.catalogue import message_ids

NO_NOTE: Final = (
    "No note is open, so I can't tell which note you mean. Name a note (for example "
    "notes/today.md) or ask me to list your notes."
)
NOTE_LEFT_OUT: Final = (
    "You left the note out of this message, so I haven't read it. Send again with the "
    "note included, name a note by its path, or ask me to list your notes."
)
TITLE_ACTIVE: Final = "**{title}** ({path}, {view} view)"
TITLE_DOCUMENT: Final = "**{title}** ({path})"
EMPTY_NOTE: Final = "The note is empty."
COUNTS: Final = "Headings: {headings}. Open tasks: {tasks}."
PARTIAL: Final = (
    "I only saw the first {seen} of its {total} bytes, so this is about the beginning only."
)
CAVEAT: Final = (
    "The saved copy is behind your screen: your latest typing may not be in what I read."
)
TASKS: Final = "Open tasks in {path}:"
TASKS_ALL_DONE: Final = "Nothing is open in {path}: every task is ticked."
TASKS_NONE: Final = "{path} has no tasks. Lines like “- [ ] call Sam” are tasks."
OUTLINE: Final = "Headings in {path}:"
OUTLINE_NONE: Final = "{path} has no headings."
FIND: Final = "Lines in {path} that mention “{term}”:"
FIND_NONE: Final = "{path} does not mention “{term}”."
FIND_WHAT: Final = "What should I look for? Ask, for example: where do I mention the dentist?"
SEARCH: Final = "Notes that mention “{term}” ({count}):"
SEARCH_MORE: Final = "Notes that mention “{term}” (the first {count}):"
SEARCH_NONE: Final = "No note mentions “{term}”."
SELECTION: Final = "Your selection in {path} (lines {first}–{last}):"
SELECTION_STALE: Final = (
    "You have text selected, but the saved copy of {path} is not what is on your screen, "
    "so I can't tell which text it is. Here is the whole note instead."
)
COMPARE: Final = "Comparing {first} with {second}:"
COMPARE_SHARED_HEADINGS: Final = "Headings in both: {items}"
COMPARE_ONLY_HEADINGS: Final = "Headings only in {path}: {items}"
COMPARE_SHARED_WORDS: Final = "Words in both: {items}"
COMPARE_SHARED_LINES: Final = "Identical lines: {count}"
COMPARE_NOTHING_SHARED: Final = "They share no headings, lines or words."
COMPARE_TASKS: Final = "Open tasks: {first} in {first_path}, {second} in {second_path}."
WHICH_NOTE: Final = "Which note do you mean? Name it by its path:"
COMPARE_WHICH: Final = (
    "Which note should I compare with? Name it, for example: compare this with notes/b.md"
)
LISTING: Final = "Notes in this workspace ({count}):"
LISTING_EMPTY: Final = "This workspace has no notes yet."
TOOL_FAILED: Final = "I couldn't read that: {message}"
GREETING: Final = "Hello! I'm the offline assistant."
OTHER: Final = (
    "I can't answer that offline: I only work with your notes; a model could, connected "
    "under Assistant → Assistant settings…"
)
UNSUPPORTED: Final = (
    "I can't do that offline; a model can, connected under Assistant → Assistant settings…"
)
DATES: Final = "Lines in {path} with dates or times:"
DATES_NONE: Final = "{path} has no dates, weekdays or times."
DUE: Final = "{path}: what is {when} ({span}):"
DUE_NONE: Final = "Nothing in {path} is {when} ({span})."
WHEN_TODAY: Final = "due today"
WHEN_TOMORROW: Final = "due tomorrow"
WHEN_THIS_WEEK: Final = "due this week"
WHEN_NEXT_WEEK: Final = "due next week"
WHEN_OVERDUE: Final = "overdue"
MORE_ITEMS: Final = "… and {count} more"
CAN_DO: Final = "I can:"
CAN_EDIT: Final = (
    "tick, untick, add or remove a task, as a change you review and apply "
    "(“tick off the first open task”, “add a task: buy milk”)"
)
CAN_RENAME: Final = "rename a heading (“rename the heading Notes to Details”)"
CAN_MOVE: Final = "move a task in its list (“move the last task to the top”)"
CAN_SUMMARY: Final = "summarise the open note, or the text you selected (“summarise this”)"
CAN_TASKS: Final = "list its open tasks (“what's still open here?”)"
CAN_OUTLINE: Final = "show its headings (“what are the headings?”)"
CAN_FIND: Final = "find lines (“where do I mention the dentist?”)"
CAN_DATES: Final = "show the lines with dates and deadlines (“any deadlines here?”)"
CAN_SEARCH: Final = "search all your notes (“which notes mention Sam?”)"
CAN_COMPARE: Final = "compare it with another note (“compare this with notes/b.md”)"
CAN_LIST: Final = "list your notes (“list my notes”)"
CAN_DONE: Final = "list what is ticked already (“what have I done?”)"
CAN_ASK: Final = "answer from the note's own lines (“what time is the standup?”)"
MODEL: Final = "To connect a model, use **Assistant → Assistant settings…**."
DONE: Final = "Ticked tasks in {path}:"
DONE_NONE: Final = "Nothing in {path} is ticked yet."
ANSWER: Final = "From {path}:"
NOT_IN_NOTE: Final = "I can't answer that offline: no line of {path} is about it."
TRY: Final = "Try: “{example}”"
TRY_TICK: Final = "tick off ‘{task}’"
SELECTION_COUNTS: Final = "Headings: {headings}. Tasks: {tasks} ({open} open)."
SELECTION_WORDS: Final = "Words that stand out: {words}"

ALL: Final = message_ids(globals())
"""Every message id: each catalogue translates all of them."""
