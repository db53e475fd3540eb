"""The contract's numbers, once: every bound that requirements.md or contract.md states.

Each is named for what it bounds and cites its rule. The module that applies one
imports it from here, and so do the tests and the scenario runner, which derive
their timings and sizes from these names. ``tests/bridge/test_contract_numbers.py``
alone writes the literals, each beside the words of the spec it pins them to.
How to add one: ``docs/dev/contract-constants.md``. Plain values, no imports of the
project's own: both realms and every layer may import this module.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Final

# -- A send and its pointer (R10–R15, R65; contract 4, 12) ----------------------------

FLUSH_LIMIT_SECONDS: Final = 1.5
"""R10, R12: the bound on a send's whole preparation (the flush and the note's load),
not on each save; past it the pointer leaves with ``flushed: false``."""
MAX_HEADER_BYTES: Final = 2048
"""R15: the complete encoded ``X-Ambient-Note`` value; a longer one is left out whole."""
MAX_POINTER_NUMBER: Final = 2**53 - 1
"""R65: the largest offset or byte count a pointer may carry (what JSON numbers hold exactly)."""
SHA256_PREFIX_CHARS: Final = 16
"""Contract 3, 4: a pointer's and a listing's ``sha256`` is this many lowercase hex digits."""

# -- Access (R19, R41; contract 4, 8) ------------------------------------------------

ACCESS_TTL: Final = timedelta(minutes=15)
"""R19: a delivery row lives 15 minutes from the latest send; a key session is given
the same lifetime, so one constant serves both."""
LONGEST_SWEEP_INTERVAL: Final = timedelta(seconds=60)
"""R41, contract 8: expired rows are deleted within 60 s of expiring, so no interval
between sweeps may exceed it."""

# -- Reading "this note" and others (R21; contract 3, 5, 12) --------------------------

DEFAULT_MAX_BYTES: Final = 64 * 1024
"""R21: ``maxBytes`` when the call names none."""
MAX_MAX_BYTES: Final = 256 * 1024
"""R21: a larger ``maxBytes`` is clamped to this."""
MAX_PATH_BYTES: Final = 4096
"""Contract 3: a workspace path is at most this many UTF-8 bytes."""
MAX_SEGMENT_BYTES: Final = 255
"""Contract 3: each segment of a workspace path is at most this many UTF-8 bytes."""
MAX_DOCUMENT_BYTES: Final = 10 * 1024 * 1024
"""Contract 12: the PUT limit; a larger note is refused on PUT and on GET (413)."""
SEARCH_MAX_NOTES: Final = 50
"""R56, contract 12: ``search_documents`` answers at most this many notes..."""
SEARCH_MAX_LINES: Final = 5
"""... and at most this many lines of each."""

# -- Turns (contract 4, 7) ------------------------------------------------------------

MAX_CONVERSATION_CHARS: Final = 128
"""Contract 4: a conversation id is 1 to 128 characters."""
MODEL_CONNECT_TIMEOUT_SECONDS: Final = 10.0
"""Contract 7: connecting to the model endpoint gives up within 10 s."""
MAX_MODEL_CALLS: Final = 8
"""R32: model calls per turn; then the turn ends with a plain-language reply."""

# -- The inline command (R69; contract 13) --------------------------------------------

MAX_SELECTION_BYTES: Final = 16 * 1024
"""R69: the selected text sent, in UTF-8 bytes; more is refused before sending."""
MAX_AROUND_BYTES: Final = 2 * 1024
"""R69: the text sent before and after the selection, each, in UTF-8 bytes."""
MAX_INSTRUCTION_CHARS: Final = 2000
"""Contract 13: an instruction is 1 to 2,000 code points."""
MAX_INLINE_TOKENS: Final = 4096
"""Contract 13: the model is asked for an inline answer with ``max_tokens`` at most this."""

# -- The sidecar (contract 11) --------------------------------------------------------

SELECTED_TEXT_MAX_BYTES: Final = 16 * 1024
"""Contract 11: the context update's ``selectedText`` is at most 16 KiB."""
CONTEXT_DEBOUNCE_MS: Final = 50
"""Contract 11: context updates are debounced about 50 ms."""

# -- QA scenarios (contract 10) -------------------------------------------------------

SAVED_WAIT_SECONDS: Final = 5.0
"""Contract 10: the ``saved`` expect key waits up to 5 s for the saved copy."""
