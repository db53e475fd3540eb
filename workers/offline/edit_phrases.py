"""The offline edit replies and summaries, in English; message ids of the ``edits`` catalogues.

The translations live in ``locale/<language>/LC_MESSAGES/edits.po`` (R38, R54).
"""

from __future__ import annotations

from typing import Final

from workers.offline.catalogue import message_ids

REVIEW: Final = "Review the change under this reply and apply it if it is right."
PROPOSED_TICK: Final = "I can tick “{task}” in {path}. " + REVIEW
PROPOSED_UNTICK: Final = "I can untick “{task}” in {path}. " + REVIEW
PROPOSED_ADD: Final = "I can add the task “{task}” to {path}. " + REVIEW
PROPOSED_REMOVE: Final = "I can remove the task “{task}” from {path}. " + REVIEW
SUMMARY_TICK: Final = "Tick “{task}”"
SUMMARY_UNTICK: Final = "Untick “{task}”"
SUMMARY_ADD: Final = "Add the task “{task}”"
SUMMARY_REMOVE: Final = "Remove the task “{task}”"
AMBIGUOUS: Final = (
    "Several tasks in {path} match “{words}”, so I changed nothing. Which one do you mean? "
    "Quote its words:"
)
NO_MATCH: Final = "No task in {path} matches “{words}”, so I changed nothing."
CANDIDATES: Final = "These are the tasks I could change:"
NO_TASKS: Final = "{path} has no tasks, so I changed nothing."
WHICH_TASK: Final = "Which task in {path}? Name it by its words, for example: tick off the dentist."
ADD_WHAT: Final = "What should the new task say? Ask, for example: add a task: buy milk."
PROPOSED_RENAME: Final = "I can rename the heading “{heading}” to “{name}” in {path}. " + REVIEW
SUMMARY_RENAME: Final = "Rename the heading “{heading}” to “{name}”"
PROPOSED_MOVE_TOP: Final = "I can move “{task}” to the top of its list in {path}. " + REVIEW
PROPOSED_MOVE_BOTTOM: Final = "I can move “{task}” to the bottom of its list in {path}. " + REVIEW
PROPOSED_MOVE_AFTER: Final = "I can move “{task}” after “{other}” in {path}. " + REVIEW
PROPOSED_MOVE_BEFORE: Final = "I can move “{task}” before “{other}” in {path}. " + REVIEW
SUMMARY_MOVE: Final = "Move “{task}”"
MOVE_ALREADY: Final = "“{task}” is already there in {path}, so I changed nothing."
NO_HEADINGS: Final = "{path} has no headings, so I changed nothing."
WHICH_HEADING: Final = "Which heading in {path} do you mean? Name it by its words:"
NO_HEADING_MATCH: Final = (
    "No heading in {path} matches “{words}”, so I changed nothing. Its headings are:"
)
RENAME_TO_WHAT: Final = (
    "What should the heading be called? Ask, for example: rename the heading Notes to Details."
)

ALL: Final = message_ids(globals(), pieces={REVIEW})
"""Every message id: each ``edits`` catalogue translates all of them."""
