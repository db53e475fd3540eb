"""The app's reading of proposals: parse, review lines, and rebase onto live text (R50–R52)."""

from __future__ import annotations

import pytest

from bridge.proposals import apply_edits, changed_span, rebase, review
from bridge.wire import Proposal, ProposalEdit

BASE = "# A\nalpha\n- [ ] first task\n- [x] done task\n"
MARK = BASE.index("[ ]") + 1
TICK = [ProposalEdit(start=MARK, end=MARK + 1, text="x")]


def test_r52_an_untouched_edit_moves_with_typing_before_it() -> None:
    live = "typed " + BASE
    moved = rebase(BASE, live, TICK)
    assert moved is not None
    assert apply_edits(live, moved) == "typed " + BASE.replace("[ ] first", "[x] first")


def test_r52_typing_after_the_edit_leaves_it_where_it_is() -> None:
    live = BASE + "more\n"
    assert rebase(BASE, live, TICK) == TICK


@pytest.mark.parametrize("at", [MARK, MARK + 1])
def test_r52_typing_inside_or_right_at_the_edited_range_refuses(at: int) -> None:
    live = BASE[:at] + "!" + BASE[at:]
    assert rebase(BASE, live, TICK) is None


def test_r52_typing_one_character_before_the_range_is_elsewhere() -> None:
    live = BASE[: MARK - 1] + "!" + BASE[MARK - 1 :]
    moved = rebase(BASE, live, TICK)
    assert moved == [ProposalEdit(start=MARK + 1, end=MARK + 2, text="x")]


def test_the_changed_span_is_found_across_chunks() -> None:
    base = "a" * 10_000 + "b" + "c" * 9_000
    live = "a" * 10_000 + "XY" + "c" * 9_000
    assert changed_span(base, live) == (10_000, 10_001, 10_002)
    assert changed_span(base, base) == (len(base), len(base), len(base))


def test_r51_review_lines_number_the_removed_and_added_lines() -> None:
    lines, removed, added = review(BASE, TICK)
    assert (removed, added) == (1, 1)
    assert [(line.kind, line.number, line.text) for line in lines] == [
        ("removed", 3, "- [ ] first task"),
        ("added", 3, "- [x] first task"),
    ]


def test_a_malformed_proposal_is_refused() -> None:
    good = {
        "id": "p",
        "path": "notes/a.md",
        "base": {"bytes": 1, "sha256": "0" * 64},
        "edits": [{"start": 0, "end": 1, "text": "x"}],
        "summary": "",
    }
    assert Proposal.model_validate(good).edits == [ProposalEdit(start=0, end=1, text="x")]
    overlapping = {
        **good,
        "edits": [{"start": 0, "end": 3, "text": ""}, {"start": 2, "end": 4, "text": ""}],
    }
    with pytest.raises(ValueError):
        Proposal.model_validate(overlapping)


def test_r51_a_review_marks_only_the_lines_that_changed() -> None:
    """Issue 38: "add a task: call mom" showed the unchanged line 10 removed and added again."""
    base = "".join(f"line {n}\n" for n in range(1, 10)) + "- [ ] milk\n## Later\n"
    end_of_ten = base.index("- [ ] milk") + len("- [ ] milk")
    line_ten = base.index("- [ ] milk")
    # The whole line rewritten with the new task after it, as the offline assistant proposes.
    rewritten = [ProposalEdit(start=line_ten, end=end_of_ten, text="- [ ] milk\n- [ ] call mom")]
    inserted = [ProposalEdit(start=end_of_ten, end=end_of_ten, text="\n- [ ] call mom")]
    for edits in (rewritten, inserted):
        lines, removed, added = review(base, edits)
        assert [(line.kind, line.number, line.text) for line in lines] == [
            ("added", 11, "- [ ] call mom")
        ]
        assert (removed, added) == (0, 1)
    # A line taken out among kept ones: only it, with its own number.
    removed = [ProposalEdit(start=base.index("line 3"), end=base.index("line 5"), text="line 3\n")]
    lines, *counts = review(base, removed)
    assert [(line.kind, line.number, line.text) for line in lines] == [("removed", 4, "line 4")]
    assert counts == [1, 0]


def test_r51_r78_the_shared_lines_of_a_huge_rewrite_cost_no_line_objects() -> None:
    """A million kept lines around one changed line: the review is that line, found in C."""
    base = "same\n" * 500_000 + "old\n" + "same\n" * 500_000
    edits = [ProposalEdit(start=0, end=len(base), text=base.replace("old", "new"))]
    lines, removed, added = review(base, edits, 40)
    assert [(line.kind, line.number, line.text) for line in lines] == [
        ("removed", 500_001, "old"),
        ("added", 500_001, "new"),
    ]
    assert (removed, added) == (1, 1)
