"""Pairs alternate which side runs first, so neither side always runs on a warmed cache."""

from __future__ import annotations

from benchmarks.measure import alternating_pairs, paired_ratios


def test_every_pair_alternates_which_side_runs_first() -> None:
    order: list[str] = []

    def side(name: str, seconds: float) -> float:
        order.append(name)
        return seconds

    subject, floor = alternating_pairs(
        lambda: side("subject", 2.0), lambda: side("floor", 1.0), repeat=4
    )
    firsts = order[0::2]
    assert firsts == ["floor", "subject", "floor", "subject"]
    assert sorted(order[:2]) == sorted(order[2:4]) == ["floor", "subject"]
    assert subject == [2.0] * 4 and floor == [1.0] * 4


def test_paired_ratios_alternate_too() -> None:
    order: list[str] = []
    paired_ratios(lambda: order.append("subject"), lambda: order.append("floor"), repeat=3)
    assert order == ["floor", "subject", "subject", "floor", "floor", "subject"]
