"""State files as the engine keeps them: packed with zlib behind a marker, read in every form they were ever
written in, and the battles whose start state a run keeps (`checkpoint.keep_battle_states`)."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest

from engine.battles.files import dropped_start_state, keeps_start_state, not_kept
from engine.battles.models import BattleLog, BattleSummary
from engine.emulator import state_file
from engine.emulator.errors import SaveStateError
from engine.emulator.state_file import (
    PACKED,
    Cartridge,
    export,
    is_packed,
    missing_state,
    pack,
    plain,
    read_state,
    seal,
    unpack,
)

# Like a PyBoy state: its format's version byte first, long runs of zeros, some repeated tiles.
MACHINE = bytes([29]) + bytes(120_000) + bytes(range(256)) * 200
RED = Cartridge(title="POKEMON RED", sha256="ab" * 32)


def test_a_packed_state_is_much_smaller_and_unpacks_to_the_same_bytes() -> None:
    packed = pack(MACHINE)
    assert packed.startswith(PACKED) and is_packed(packed)
    assert len(packed) * 20 < len(MACHINE)
    assert unpack(packed) == MACHINE


def test_a_plain_state_reads_as_it_is() -> None:
    assert not is_packed(MACHINE)
    assert unpack(MACHINE) == MACHINE


def test_every_form_a_state_file_was_written_in_reads_the_same() -> None:
    # Packed and naming its cartridge (this engine), plain with the footer (earlier engines), bare (PyBoy).
    for data, made_with in ((export(MACHINE, RED), RED), (seal(MACHINE, RED), RED), (MACHINE, None)):
        state = read_state(data)
        assert (state.machine, state.made_with) == (MACHINE, made_with)


def test_plain_unpacks_and_keeps_the_footer_that_names_the_cartridge() -> None:
    exported = export(MACHINE, RED)
    assert plain(exported) == seal(MACHINE, RED)
    assert plain(MACHINE) == MACHINE  # plain already
    assert read_state(plain(exported)).made_with == RED


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda packed: packed[: len(packed) // 2], "truncated"),
        (lambda packed: PACKED + b"\x00not zlib at all", "damaged"),
    ],
)
def test_a_damaged_packed_state_is_refused(damage: object, message: str) -> None:
    assert callable(damage)
    with pytest.raises(SaveStateError, match=message):
        unpack(damage(pack(MACHINE)))


def test_a_packed_state_that_inflates_past_any_game_boy_state_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(state_file, "MAX_MACHINE_BYTES", 1000)
    with pytest.raises(SaveStateError, match="inflates past 1000 bytes"):
        unpack(PACKED + zlib.compress(bytes(5000)))


def summary(battle_type: str, outcome: str) -> BattleSummary:
    played = {"battle_id": "r-b001", "outcome": outcome, "battle_type": battle_type, "opponent": "RATTATA",
              "turns": 2, "decisions": 2, "frames": 900, "wall_seconds": 0.1}  # fmt: skip
    return BattleSummary.model_validate(played)


@pytest.mark.parametrize(
    ("battle_type", "outcome", "kept"),
    [
        ("trainer", "victory", True),
        ("trainer", "defeat", True),
        ("wild", "defeat", True),
        ("wild", "draw", True),
        ("wild", "victory", False),
        ("wild", "flee", False),  # a catch too
    ],
)
def test_which_battles_keep_their_start_state(battle_type: str, outcome: str, kept: bool) -> None:
    played = summary(battle_type, outcome)
    assert keeps_start_state("trainer_and_losses", played) is kept
    assert keeps_start_state("all", played) is True
    assert keeps_start_state("none", played) is False


def write_log(folder: Path, start_state: str | None) -> Path:
    log = BattleLog(summary=summary("wild", "victory"), run_id="r", start_frame=10, decisions=(),
                    start_state=start_state)  # fmt: skip
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "r-b001.json").write_text(log.model_dump_json(), encoding="utf-8")
    return folder / "r-b001.state"


def test_a_battle_state_not_kept_says_why_in_one_line(tmp_path: Path) -> None:
    state = write_log(tmp_path / "battles", None)
    why = dropped_start_state(state)
    log = BattleLog.model_validate_json((tmp_path / "battles" / "r-b001.json").read_text(encoding="utf-8"))
    assert why == not_kept(log)
    assert why is not None and "\n" not in why
    assert "(wild, victory) has no start state" in why and "checkpoint.keep_battle_states" in why
    assert missing_state(state) == f"save state not found: {state} ({why})"


def test_any_other_missing_state_is_only_not_found(tmp_path: Path) -> None:
    named = write_log(tmp_path / "named", "r-b001.state")  # the log names it: deleted by hand
    assert missing_state(named) == f"save state not found: {named}"
    alone = tmp_path / "mine.state"
    assert missing_state(alone) == f"save state not found: {alone}"
    (tmp_path / "mine.json").write_text("not a battle log", encoding="utf-8")
    assert missing_state(alone) == f"save state not found: {alone}"
