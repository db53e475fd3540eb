"""The limits and the cut both realms use for "this note" (R21, R26)."""

from __future__ import annotations

from bridge.contract import MAX_MAX_BYTES
from bridge.reading import cut_at_character, parse_max_bytes_value


def test_r21_max_bytes_is_clamped_and_bad_values_refused() -> None:
    assert parse_max_bytes_value(MAX_MAX_BYTES - 1) == MAX_MAX_BYTES - 1
    assert parse_max_bytes_value(10**9) == MAX_MAX_BYTES
    for bad in (0, -1, 1.5, "10", True, None):
        assert parse_max_bytes_value(bad) is None


def test_r26_the_cut_never_splits_a_character() -> None:
    data = "aé日😀".encode()  # 1 + 2 + 3 + 4 bytes
    assert [cut_at_character(data, n) for n in range(11)] == [
        b"",
        b"a",
        b"a",
        "aé".encode(),
        "aé".encode(),
        "aé".encode(),
        "aé日".encode(),
        "aé日".encode(),
        "aé日".encode(),
        "aé日".encode(),
        data,
    ]
