"""`engine run` end to end on a real cartridge: from power-on, from a save state, exploring into battles."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from engine.cli import main
from engine.emulator.session import EmulatorSession
from engine.emulator.state_file import read_state
from engine.game.models import DecisionPoint
from tests.support.scenarios import advance_to, set_party, set_party_hp, start_battle

pytestmark = pytest.mark.rom

# wPlayerBattleStatus1 / wEnemyBattleStatus1 bit INVULNERABLE (pret constants/battle_constants.asm), set
# while a Pokémon is underground or in the air (DIG, FLY): every move but SWIFT misses it (core.asm
# MoveHitTest). Set by hand it stays, so each attack on that side misses, deterministically.
INVULNERABLE = 1 << 6


def run(args: list[str], tmp_path: Path) -> tuple[int, dict[str, Any], Path]:
    summary = tmp_path / "summary.json"
    code = main(["run", "--local", "--data-dir", str(tmp_path / "data"), "--summary", str(summary), *args])
    (run_dir,) = (tmp_path / "data" / "runs").iterdir()
    return code, json.loads(summary.read_text(encoding="utf-8")), run_dir


def save(game: EmulatorSession, tmp_path: Path) -> Path:
    path = tmp_path / "start.state"
    path.write_bytes(game.save_state())
    return path


def test_from_power_on_reaches_the_overworld(rom_path: Path, tmp_path: Path) -> None:
    code, summary, run_dir = run(["--rom", str(rom_path), "--max-decisions", "3"], tmp_path)
    assert code == 0 and summary["stopped"] == "max_decisions"
    steps = [json.loads(line) for line in (run_dir / "decisions.jsonl").read_text().splitlines()]
    # The house, Oak's stop in the grass, the starter's ball: legs, before the rival's battle.
    assert [step["kind"] for step in steps] == ["overworld"] * 3 and summary["decisions"] == 3
    # Each decision is a leg of one or more steps.
    assert summary["overworld_steps"] == sum(step["steps"] for step in steps) >= 3
    assert "overworld: REDS_HOUSE_2F" in (run_dir / "run.log").read_text(encoding="utf-8")


def test_a_battle_from_a_save_state(game: EmulatorSession, rom_path: Path, tmp_path: Path) -> None:
    set_party(game, [("SQUIRTLE", 8)])
    start_battle(game, "RATTATA", 6)
    code, summary, run_dir = run(
        ["--rom", str(rom_path), "--state", str(save(game, tmp_path)), "--max-battles", "1"], tmp_path
    )
    assert code == 0 and summary["stopped"] == "max_battles"
    (battle,) = summary["battles"]
    assert (battle["outcome"], battle["battle_type"], battle["opponent"]) == ("victory", "wild", "RATTATA")
    assert battle["turns"] >= 1 and battle["decisions"] == summary["decisions"]
    assert summary["llm_calls"] == 0 and summary["cost_usd"] == 0.0 and summary["frames"] > 0
    log = json.loads((run_dir / "battles" / f"{battle['battle_id']}.json").read_text(encoding="utf-8"))
    assert len(log["decisions"]) == battle["decisions"] == len(log["turns"])
    first = log["decisions"][0]
    assert first["ours"]["species"] == "SQUIRTLE" and first["enemy"]["species"] == "RATTATA"
    assert first["enemy"]["hp"] is None and any(o.startswith("use ") for o in first["options"])
    # Victory: the enemy's HP bar went from full to empty over the turns, and it fainted on the last.
    dealt = [t["enemy_hp_lost_percent"] for t in log["turns"] if t["enemy_hp_lost_percent"] is not None]
    assert sum(dealt) == first["enemy"]["hp_percent"] == 100 and log["turns"][-1]["enemy_fainted"]
    start = run_dir / "battles" / log["start_state"]
    kept = read_state(start.read_bytes())  # packed, and naming its cartridge: loadable with --state
    assert start.stat().st_size < 20_000 < 100_000 < len(kept.machine) and kept.made_with is not None
    assert json.loads((run_dir / "summary.json").read_text(encoding="utf-8")) == summary
    assert summary["battle_ids"] == [battle["battle_id"]]
    # What the game said each turn: our BUBBLE, its PP, and RATTATA's moves.
    assert all(turn["text"] for turn in log["turns"])
    assert {turn["move"] for turn in log["turns"]} == {"BUBBLE"}
    assert all("SQUIRTLE used BUBBLE!" in turn["text"] for turn in log["turns"])
    assert all(turn["pp_used"] == 1 for turn in log["turns"])
    assert any(line.startswith("Enemy RATTATA used ") for turn in log["turns"] for line in turn["text"])


def battle_log(run_dir: Path, summary: dict[str, Any]) -> dict[str, Any]:
    (battle_id,) = summary["battle_ids"]
    return json.loads((run_dir / "battles" / f"{battle_id}.json").read_text(encoding="utf-8"))


def at_first_menu(game: EmulatorSession, party: list, opponent: str, level: int, tmp_path: Path) -> Path:
    set_party(game, party)
    start_battle(game, opponent, level)
    advance_to(game, {DecisionPoint.BATTLE_MAIN_MENU})
    return save(game, tmp_path)


def invulnerable(game: EmulatorSession, status_address: int) -> None:
    game.write_u8(status_address, game.read_u8(status_address) | INVULNERABLE)


def test_the_battle_log_reads_super_effective_from_the_game(
    game: EmulatorSession, rom_path: Path, tmp_path: Path
) -> None:
    """SQUIRTLE's water moves against BROCK's GEODUDE and ONIX: "It's super effective!" every time."""
    # L15: what the L13 of earlier set-ups became at its first win (its experience was level³).
    state = at_first_menu(game, [("SQUIRTLE", 15)], "BROCK", 1, tmp_path)
    code, summary, run_dir = run(
        ["--rom", str(rom_path), "--state", str(state), "--max-battles", "1"], tmp_path
    )
    assert code == 0 and summary["battles"][0]["outcome"] == "victory"
    turns = battle_log(run_dir, summary)["turns"]
    attacks = [turn for turn in turns if turn["move"] is not None]
    assert len(attacks) >= 2 and {turn["move"] for turn in attacks} <= {"BUBBLE", "WATER_GUN"}
    for turn in attacks:
        used = f"SQUIRTLE used {turn['move'].replace('_', ' ')}!"
        assert turn["text"].index(used) + 1 == turn["text"].index("It's super effective!")
        assert (turn["effectiveness"], turn["missed"], turn["pp_used"]) == ("super", False, 1)
        assert turn["enemy_fainted"] and len(turn["text"]) <= 12
    # GEODUDE fainted and ONIX came out before the next decision: only the message tells the faint.
    assert "Enemy GEODUDE fainted!" in attacks[0]["text"] and attacks[0]["enemy_hp_lost_percent"] is None


def test_the_battle_log_tells_our_misses(game: EmulatorSession, rom_path: Path, tmp_path: Path) -> None:
    """GEODUDE made invulnerable: each of our attacks misses ("SQUIRTLE's attack missed!", PP spent all
    the same) and its TACKLEs knock SQUIRTLE out."""
    set_party_hp(game, 0, 9)
    state_path = at_first_menu(game, [("SQUIRTLE", 8)], "GEODUDE", 7, tmp_path)
    game.load_state(state_path.read_bytes())
    invulnerable(game, game.ram_map.wEnemyBattleStatus1)
    state = save(game, tmp_path)
    code, summary, run_dir = run(
        ["--rom", str(rom_path), "--state", str(state), "--max-battles", "1"], tmp_path
    )
    assert code == 0 and summary["battles"][0]["outcome"] == "defeat"
    attacks = [turn for turn in battle_log(run_dir, summary)["turns"] if turn["move"] is not None]
    assert attacks and all(turn["missed"] and not turn["enemy_missed"] for turn in attacks)
    assert all("SQUIRTLE's attack missed!" in turn["text"] for turn in attacks)
    assert all(turn["effectiveness"] is None and turn["enemy_hp_lost_percent"] == 0 for turn in attacks)
    assert all(turn["pp_used"] == 1 for turn in attacks)


def test_the_battle_log_tells_the_enemys_misses_and_weak_hits(
    game: EmulatorSession, rom_path: Path, tmp_path: Path
) -> None:
    """SQUIRTLE made invulnerable, with only TACKLE against a GEODUDE (rock resists it): every TACKLE is
    "not very effective", and every GEODUDE TACKLE misses."""
    state_path = at_first_menu(game, [("SQUIRTLE", 8, ["TACKLE"])], "GEODUDE", 7, tmp_path)
    game.load_state(state_path.read_bytes())
    invulnerable(game, game.ram_map.wPlayerBattleStatus1)
    state = save(game, tmp_path)
    code, summary, run_dir = run(
        ["--rom", str(rom_path), "--state", str(state), "--max-battles", "1"], tmp_path
    )
    assert code == 0 and summary["battles"][0]["outcome"] == "victory"
    turns = battle_log(run_dir, summary)["turns"]
    assert {turn["move"] for turn in turns} == {"TACKLE"} and turns[-1]["enemy_fainted"]
    # TACKLE itself misses now and then (95% accurate): then the game says so instead.
    assert all(
        (turn["effectiveness"], turn["missed"]) in {("not_very", False), (None, True)} for turn in turns
    )
    assert sum(turn["effectiveness"] == "not_very" for turn in turns) > len(turns) / 2
    assert all(turn["hp_lost_percent"] == 0 and turn["pp_used"] == 1 for turn in turns)
    # "Enemy GEODUDE used TACKLE" may be read before its "!" is printed: the miss follows at once.
    enemy_moves = [turn for turn in turns if any(m.startswith("Enemy GEODUDE used") for m in turn["text"])]
    assert enemy_moves and all(turn["enemy_missed"] for turn in enemy_moves)
    assert all("Enemy GEODUDE's attack missed!" in turn["text"] for turn in enemy_moves)


def test_a_new_game_finds_and_wins_its_first_battles(rom_path: Path, tmp_path: Path) -> None:
    """From power-on with no party: the story leaves the house, takes a starter from Oak's table, fights
    the rival in the lab (SQUIRTLE L5 against the rival's BULBASAUR goes either way: the story carries on
    after a loss) and meets a wild Pokémon: beaten, caught when the story's catch comes first, or lost to
    when the starter left the rival's battle nearly fainted (the game sends the player home, and on)."""
    code, summary, run_dir = run(
        ["--rom", str(rom_path), "--max-battles", "2", "--max-decisions", "8000"], tmp_path
    )
    assert code == 0 and summary["stopped"] == "max_battles"
    rival, wild = summary["battles"]
    assert (rival["battle_type"], rival["opponent"].split()[0]) == ("trainer", "RIVAL1")
    assert rival["outcome"] in ("victory", "defeat") and rival["turns"] >= 1
    assert wild["battle_type"] == "wild"
    assert wild["outcome"] in ("victory", "defeat") or (wild["outcome"] == "flee" and wild["caught"]), wild
    assert wild["turns"] >= 1
    assert summary["overworld_steps"] > 0
    assert (
        len(list((run_dir / "battles").glob("*.json")))
        == 2
        == len(list((run_dir / "battles").glob("*.state")))
    )


@pytest.mark.parametrize("flag", ["--max-battles", "--max-decisions"])
def test_a_broken_state_is_refused_without_a_run(flag: str, rom_path: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.state"
    broken.write_bytes(b"\x00" * 100)
    code = main(
        [
            "run",
            "--local",
            "--rom",
            str(rom_path),
            "--state",
            str(broken),
            flag,
            "1",
            "--data-dir",
            str(tmp_path / "data"),
        ]
    )
    assert code == 2


def test_a_run_keeping_trainer_and_lost_battles_drops_the_won_wild_ones(
    rom_path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`checkpoint.keep_battle_states: trainer_and_losses` on a new game's first battles: the rival's start
    state stays (compressed, loadable by plain PyBoy once `engine plain-state` unpacks it), a wild battle won
    or run from loses its own, and whatever asks for it gets one line."""
    config = tmp_path / "keep.yaml"
    config.write_text("checkpoint:\n  keep_battle_states: trainer_and_losses\n", encoding="utf-8")
    args = ["--rom", str(rom_path), "--max-battles", "6", "--max-decisions", "8000", "--config", str(config)]
    code, summary, run_dir = run(args, tmp_path)
    assert code == 0
    rival = summary["battles"][0]
    # The first wild battle won or run from (a catch, which comes first in some runs, keeps its state; a
    # wild battle that serves nothing is run from).
    wild = next(
        b for b in summary["battles"] if b["battle_type"] == "wild" and b["outcome"] in ("victory", "flee")
    )
    assert (rival["battle_type"], rival["opponent"].split()[0]) == ("trainer", "RIVAL1")
    battles = run_dir / "battles"
    kept = {path.name for path in battles.glob("*.state")}
    assert f"{rival['battle_id']}.state" in kept and f"{wild['battle_id']}.state" not in kept
    wild_log = json.loads((battles / f"{wild['battle_id']}.json").read_text(encoding="utf-8"))
    assert wild_log["start_state"] is None and len(wild_log["decisions"]) == wild["decisions"]
    capsys.readouterr()
    data = tmp_path / "data"
    replay = ["replay", "--local", "--no-learn", "--battle", wild["battle_id"], "--rom", str(rom_path)]
    assert main([*replay, "--data-dir", str(data)]) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert f"battle {wild['battle_id']} (wild, {wild['outcome']}) has no start state" in line
    gone = battles / f"{wild['battle_id']}.state"
    again = ["run", "--local", "--rom", str(rom_path), "--state", str(gone), "--data-dir", str(data)]
    assert main(again) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line.startswith(f"engine: error: save state not found: {gone} (battle ")
    assert "keep_battle_states" in line
    plain = tmp_path / "rival.state"
    assert main(["plain-state", str(battles / f"{rival['battle_id']}.state"), "--out", str(plain)]) == 0
    with EmulatorSession(rom_path) as session:
        session.pyboy.load_state(io.BytesIO(plain.read_bytes()))  # PyBoy itself, no engine in between
        assert session.read_u8(session.ram_map.wIsInBattle) == 2  # a trainer battle, at its first decision
