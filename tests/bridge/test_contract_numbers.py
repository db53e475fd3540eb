"""The contract's numbers, written out once against the spec's words (requirements.md, contract.md).

The one place these literals stand in the tests: every other test and the scenario
runner import :mod:`bridge.contract`, so a change of a bound fails here and only here.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from bridge import contract

# name: (the literal, where the spec says it, in its words)
SPEC: dict[str, tuple[object, str]] = {
    "FLUSH_LIMIT_SECONDS": (1.5, "R12: If the preparation does not finish within 1.5 s"),
    "MAX_HEADER_BYTES": (2048, "R15: The complete encoded header value is at most 2,048 bytes"),
    "MAX_POINTER_NUMBER": (
        9_007_199_254_740_991,
        "R65: offsets and byte counts are integers from 0 to 2^53−1",
    ),
    "SHA256_PREFIX_CHARS": (16, "contract 3: `sha256`: 16 lowercase hex characters"),
    "ACCESS_TTL": (timedelta(minutes=15), "R19: The delivery row lasts 15 minutes"),
    "LONGEST_SWEEP_INTERVAL": (
        timedelta(seconds=60),
        "contract 8: deleted at start and within 60 s of expiring",
    ),
    "DEFAULT_MAX_BYTES": (65_536, "R21: Optional `maxBytes`: default 64 KiB (65,536)"),
    "MAX_MAX_BYTES": (262_144, "R21: clamped to 256 KiB (262,144)"),
    "MAX_PATH_BYTES": (4096, "contract 3: at most 4,096 bytes"),
    "MAX_SEGMENT_BYTES": (255, "contract 3: each segment at most 255 bytes"),
    "MAX_DOCUMENT_BYTES": (10 * 1024 * 1024, "contract 12: the PUT limit (10 MiB)"),
    "SEARCH_MAX_NOTES": (50, "contract 12: at most 50 notes"),
    "SEARCH_MAX_LINES": (5, "contract 12: and 5 lines each"),
    "MAX_CONVERSATION_CHARS": (128, 'contract 4: {"conversation": "<1-128 chars>"}'),
    "MODEL_CONNECT_TIMEOUT_SECONDS": (
        10.0,
        "contract 7: Connecting to the provider times out within 10 s",
    ),
    "MAX_MODEL_CALLS": (8, "R32: A turn makes at most 8 model calls"),
    "MAX_INLINE_TOKENS": (4096, "contract 13: with `max_tokens` at most 4,096"),
    "MAX_SELECTION_BYTES": (16_384, "R69: the selected text (at most 16 KiB"),
    "MAX_AROUND_BYTES": (2048, "R69: at most 2 KiB before and 2 KiB after"),
    "MAX_INSTRUCTION_CHARS": (2000, "contract 13: `instruction` 1 to 2,000 code points"),
    "SELECTED_TEXT_MAX_BYTES": (16_384, "contract 11: `selectedText` at most 16 KiB"),
    "CONTEXT_DEBOUNCE_MS": (50, "contract 11: debounced about 50 ms"),
    "SAVED_WAIT_SECONDS": (5.0, "contract 10: `saved: {path: P, ...}` (waits up to 5 s"),
}


@pytest.mark.parametrize("name", sorted(SPEC))
def test_each_contract_number_is_the_specs(name: str) -> None:
    literal, words = SPEC[name]
    assert getattr(contract, name) == literal, words


def test_every_contract_number_is_pinned_here() -> None:
    """A number added to bridge/contract.py without its line above fails: pin it with its rule."""
    declared = {name for name in vars(contract) if name.isupper()}
    assert declared == set(SPEC)
