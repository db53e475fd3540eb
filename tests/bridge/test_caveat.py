"""When a read of the saved copy carries R25's caveat: one rule for the backend and the sidecar."""

from __future__ import annotations

from bridge.caveat import CAVEAT, caveat_for, saved_copy_is_behind
from bridge.pointer import fingerprint

TEXT = "# Today\n- call Sam\n"


def _behind(text_on_screen: str, *, flushed: object = True, saved: str = TEXT) -> bool:
    size, sha = fingerprint(text_on_screen)
    saved_size, saved_sha = fingerprint(saved)
    return saved_copy_is_behind(
        pointed_bytes=size,
        pointed_sha256=sha,
        flushed=flushed,
        saved_bytes=saved_size,
        saved_sha256=lambda: saved_sha,
    )


def test_r25_the_saved_copy_is_behind_when_size_hash_or_flush_disagree() -> None:
    assert not _behind(TEXT)
    assert _behind(TEXT + "x")  # another size
    assert _behind(TEXT.replace("Sam", "Sue"))  # same size, another hash
    assert _behind(TEXT, flushed=False)
    assert _behind(TEXT, flushed=None)  # a stored pointer without the field is not flushed


def test_r25_the_hash_is_only_computed_when_the_size_and_flush_agree() -> None:
    def never() -> str:
        raise AssertionError("hashed although the size already differs")

    assert saved_copy_is_behind(
        pointed_bytes=3, pointed_sha256="0" * 16, flushed=True, saved_bytes=4, saved_sha256=never
    )


def test_r25_r26_the_caveat_is_said_for_a_complete_read_only() -> None:
    assert caveat_for(behind=True, partial=False) == CAVEAT
    assert caveat_for(behind=False, partial=False) is None
    assert caveat_for(behind=True, partial=True) is None  # R26: a partial read is not compared
