"""The short version of each ``make stress`` part, against a real server (R40–R44).

The same code as the full-size run, with small counts; each must end 0 lost, 0 leaked,
0 × 5xx. The symlink swap race runs in ``tests/workers/test_documents_hold.py`` and the
slow-client part in ``tests/workers/test_connections.py``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.stress.__main__ import FULL
from tests.stress.conversations import interleaved_turns
from tests.stress.crash import kill_during_saves
from tests.stress.fuzz import fuzz
from tests.stress.hostile import hostile_inputs
from tests.stress.load import sustained_load
from tests.stress.sidecar import sidecar_attacks
from tests.stress.start import hostile_starts, sizes_for

pytestmark = pytest.mark.slow


def test_r15_r18_fuzzed_headers_bodies_and_paths(tmp_path: Path) -> None:
    figure = fuzz(tmp_path, headers=200, bodies=100, paths=100)
    assert figure.ok, figure.line()


def test_r43_kill_9_during_saves_leaves_whole_notes_and_nothing_behind(tmp_path: Path) -> None:
    figure = kill_during_saves(tmp_path, kills=3)
    assert figure.ok, figure.line()


def test_r17_r18_interleaved_conversations_under_two_key_sessions(tmp_path: Path) -> None:
    figure = interleaved_turns(tmp_path, turns=10)
    assert figure.ok, figure.line()


def test_r40_sustained_load_from_four_threads(tmp_path: Path) -> None:
    figure = sustained_load(tmp_path, seconds=3.0, threads=4)
    assert figure.ok, figure.line()


def test_r65_the_header_fuzz_at_its_full_size_finds_no_5xx(tmp_path: Path) -> None:
    """The size ``make stress`` runs, where huge numbers once answered 500 (orjson)."""
    figure = fuzz(tmp_path, headers=int(FULL["headers"]), bodies=0, paths=0)
    assert figure.server_errors == 0, figure.line()
    assert figure.ok, figure.line()


def test_r63_r64_r65_hostile_hosts_notes_and_data_files(tmp_path: Path) -> None:
    figure = hostile_inputs(tmp_path, hosts=100)
    assert figure.ok, figure.line()


def test_r76_r78_the_sidecar_under_idle_connections_a_stuck_reader_and_many_diffs(
    tmp_path: Path, qapp: object
) -> None:
    figure = sidecar_attacks(tmp_path, idle=100, diffs=20)
    assert figure.ok, figure.line()
    assert figure.details["stuck tool dropped"] is True


def test_r92_python_m_app_starts_over_each_hostile_data_folder(tmp_path: Path) -> None:
    figure = hostile_starts(tmp_path, sizes_for(100))
    assert figure.ok, figure.line()
    assert figure.cases == 5
