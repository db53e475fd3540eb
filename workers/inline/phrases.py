"""The inline answers' sentences, in English; message ids of the ``inline`` catalogues.

The translations live in ``workers/offline/locale/<language>/LC_MESSAGES/inline.po``,
beside the offline assistant's (R38, R70).
"""

from __future__ import annotations

from typing import Final

from workers.offline.catalogue import message_ids

DOMAIN: Final = "inline"

TASKS: Final = "Made the lines a task list."
TICK: Final = "Ticked the selected tasks."
UNTICK: Final = "Unticked the selected tasks."
SORT: Final = "Sorted the lines."
NUMBER: Final = "Numbered the lines."
HEADING: Final = "Made the lines a heading."
BOLD: Final = "Made the text bold."
ITALIC: Final = "Made the text italic."
REMOVE_EMPTY: Final = "Removed the empty lines."
REMOVE_REPEATED: Final = "Removed the repeated lines."
UPPER_CASE: Final = "Changed the text to upper case."
LOWER_CASE: Final = "Changed the text to lower case."
TITLE_CASE: Final = "Changed the text to title case."
JOIN: Final = "Joined the lines into one."
SUMMARY: Final = "Summarised the selection in one line."
NO_CHANGE: Final = "The selection already reads that way, so nothing changes."
REFUSAL: Final = (
    "Offline I can make lines a task list, tick or untick tasks, sort, number, make a "
    "heading, make text bold or italic, remove empty or repeated lines, change the case, "
    "join lines or summarise them in one line; a configured model would serve the rest."
)
NEEDS_SELECTION: Final = (
    "Offline I change selected text only: select the lines to change and ask again; a "
    "configured model can also write new text at the cursor."
)

ALL: Final = message_ids(globals(), pieces={DOMAIN})
"""Every message id: each ``inline`` catalogue translates all of them."""
