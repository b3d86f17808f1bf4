"""The battles journal: summaries appended in order, read back, cut to a checkpoint's count."""

from __future__ import annotations

from pathlib import Path

from engine.battles.models import BattleSummary
from engine.runtime.battle_journal import BattleJournal


def summary(number: int) -> BattleSummary:
    return BattleSummary(battle_id=f"run-b{number:03d}", outcome="victory", battle_type="wild",
                         opponent="PIDGEY", turns=2, decisions=2, frames=900, wall_seconds=0.1)  # fmt: skip


def test_summaries_read_back_in_the_order_they_ended(tmp_path: Path) -> None:
    journal = BattleJournal(tmp_path / "battles.jsonl")
    for number in range(1, 6):
        journal.append(summary(number))
    assert [s.battle_id for s in journal.read()] == [f"run-b{n:03d}" for n in range(1, 6)]
    assert [s.battle_id for s in journal.read(2)] == ["run-b001", "run-b002"]


def test_a_missing_journal_reads_as_no_battles(tmp_path: Path) -> None:
    assert BattleJournal(tmp_path / "battles.jsonl").read() == []


def test_keep_cuts_the_battles_a_rollback_undid(tmp_path: Path) -> None:
    journal = BattleJournal(tmp_path / "battles.jsonl")
    for number in range(1, 6):
        journal.append(summary(number))
    journal.keep(3)
    assert [s.battle_id for s in journal.read()] == ["run-b001", "run-b002", "run-b003"]
    journal.append(summary(9))
    assert [s.battle_id for s in journal.read()][-1] == "run-b009"


def test_a_torn_last_line_is_left_out_and_cut_away(tmp_path: Path) -> None:
    path = tmp_path / "battles.jsonl"
    journal = BattleJournal(path)
    journal.append(summary(1))
    journal.append(summary(2))
    with path.open("ab") as handle:
        handle.write(b'{"battle_id": "run-b003", "outc')  # a process killed mid-line
    assert len(journal.read()) == 2
    journal.keep(2)
    journal.append(summary(3))
    assert [s.battle_id for s in journal.read()] == ["run-b001", "run-b002", "run-b003"]


def test_an_older_checkpoints_battles_are_written_back(tmp_path: Path) -> None:
    journal = BattleJournal(tmp_path / "battles.jsonl")
    journal.append(summary(1))
    journal.keep(3, known=[summary(1), summary(2), summary(3)])
    assert [s.battle_id for s in journal.read()] == ["run-b001", "run-b002", "run-b003"]
