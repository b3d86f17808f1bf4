"""Replays and counterfactuals on a real cartridge: a battle logged by `engine run` replays as logged, and
a battle lost to a bad choice shows which choice would have won it, in-process and on a Ray pool."""

from __future__ import annotations

import argparse
import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.battles.files import battle_log_path
from engine.cli import main
from engine.commands.replay import execute, register
from engine.config import EngineConfig
from engine.emulator.session import EmulatorSession
from engine.replay.after_loss import LossReplays
from engine.replay.errors import ReplayError
from engine.replay.logs import find_battle_log
from engine.replay.pool import PoolSettings
from engine.replay.replayer import ReplayOptions, replay_battle
from tests.support.replay_fixtures import always_tail_whip, record_battle
from tests.support.scenarios import set_party, set_party_hp, start_battle

pytestmark = pytest.mark.rom

# SQUIRTLE L13 with 16 of 38 HP against BROCK, using TAIL_WHIP every turn: lost in six decisions (short
# enough for counterfactuals in a test), while BUBBLE would have won.
BAD_BROCK_HP = 16


def replay(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    parser = argparse.ArgumentParser(prog="engine")
    register(parser.add_subparsers(dest="command"))
    code = execute(parser.parse_args(["replay", *args, "--json"]))
    return code, json.loads(capsys.readouterr().out)


def logged_by_engine_run(game: EmulatorSession, rom: Path, folder: Path) -> tuple[Path, str]:
    """A wild battle (SQUIRTLE L8 vs RATTATA L6: several turns of damage rolls) played by
    `engine run --local` from a save state; its data directory and battle id."""
    set_party(game, [("SQUIRTLE", 8)])
    start_battle(game, "RATTATA", 6)
    state = folder / "start.state"
    state.write_bytes(game.save_state())
    data = folder / "data"
    summary = folder / "summary.json"
    args = ["run", "--local", "--rom", str(rom), "--state", str(state), "--max-battles", "1"]
    assert main([*args, "--data-dir", str(data), "--summary", str(summary)]) == 0
    (battle_id,) = [
        battle["battle_id"] for battle in json.loads(summary.read_text(encoding="utf-8"))["battles"]
    ]
    return data, battle_id


def test_a_battle_logged_by_engine_run_replays_frame_for_frame(
    game: EmulatorSession,
    rom_path: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data, battle_id = logged_by_engine_run(game, rom_path, tmp_path)
    capsys.readouterr()
    code, report = replay(["--battle", battle_id, "--rom", str(rom_path), "--data-dir", str(data)], capsys)
    assert code == 0 and report["matches_log"] and report["first_divergence"] is None
    assert report["frames_match"] and report["logged_frames"] == report["replayed_frames"]
    assert report["replayed_outcome"] == report["logged_outcome"] == "victory"
    assert report["decisions_compared"] == report["logged_decisions"] == report["replayed_decisions"] >= 3
    assert [d["replayed_enemy_hp"] for d in report["decisions"]] == [
        d["enemy_hp"] for d in report["decisions"]
    ]
    assert report["counterfactuals"] == [] and report["rollouts"] is None


# -- a battle lost to a bad choice -----------------------------------------------------------------
@pytest.fixture(scope="module")
def bad_brock(
    rom_path: Path, boot_record: tuple[bytes, list], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[Path, str]]:
    """BROCK beats a SQUIRTLE that only ever uses TAIL_WHIP: logged as the (fixed) conductor logs it."""
    with EmulatorSession(rom_path) as session:
        session.load_state(boot_record[0])
        set_party(session, [("SQUIRTLE", 13)])
        set_party_hp(session, 0, BAD_BROCK_HP)
        start_battle(session, "BROCK", 1)
        state = session.save_state()
    data = tmp_path_factory.mktemp("bad_brock")
    battle_id = record_battle(rom_path, state, always_tail_whip(), data, "tailwhip")
    yield data, battle_id
    shutil.rmtree(data, ignore_errors=True)


@pytest.fixture(scope="module")
def local_counterfactuals(rom_path: Path, bad_brock: tuple[Path, str]) -> dict[str, Any]:
    """Counterfactuals of the bad battle, every rollout in this process (the library, as --local runs it)."""
    data, battle_id = bad_brock
    config = EngineConfig()
    pool = PoolSettings(rom=rom_path, emulator=config.emulator, player=config.player, mode="local")
    options = ReplayOptions(pool=pool, counterfactuals=True)
    return replay_battle(find_battle_log(data, battle_id), options).model_dump(mode="json")


def test_counterfactuals_find_the_move_that_wins_a_lost_battle(local_counterfactuals: dict[str, Any]) -> None:
    report = local_counterfactuals
    assert report["matches_log"] and report["logged_outcome"] == "defeat" and report["frames_match"]
    decisions = report["logged_decisions"]
    assert {d["action"] for d in report["decisions"]} == {"use TAIL_WHIP"}
    # A baseline and two alternatives (TACKLE, BUBBLE) at every decision.
    assert report["rollouts"]["rollouts"] == 3 * decisions and report["rollouts"]["mode"] == "local"
    assert len(report["counterfactuals"]) == 2 * decisions
    regrets = report["regrets"]
    assert regrets and all(r["alternative_outcome"] == "victory" for r in regrets)
    assert any(
        r["alternative"] == "use BUBBLE" and r["baseline_outcome"] == "defeat" and r["changed_outcome"]
        for r in regrets
    )
    bubble = next(lesson for lesson in report["lessons"] if lesson["move"] == "BUBBLE")
    assert bubble["text"].startswith(
        "vs BROCK #1 (GEODUDE L12): SQUIRTLE L13 should use BUBBLE, not TAIL WHIP"
    )
    assert "defeat became victory" in bubble["text"] and len(bubble["text"]) <= 300
    assert bubble["species"] == ["SQUIRTLE", "GEODUDE"] and bubble["opponent"] == "BROCK #1"
    assert bubble["kind"] == "move" and bubble["provenance"] == [report["battle_id"]]


def test_a_run_replays_a_lost_battle_in_a_process_of_its_own(
    rom_path: Path, bad_brock: tuple[Path, str]
) -> None:
    """What Reflection asks after a battle lost to a trainer (`engine replay --counterfactuals
    --max-rollouts`): a regret the next try follows (BUBBLE, not TAIL_WHIP, against BROCK's GEODUDE)."""
    data, battle_id = bad_brock
    lessons = LossReplays(rom_path, EngineConfig().model_dump(mode="json"))(battle_log_path(data, battle_id))
    bubble = [lesson for lesson in lessons if lesson.prefer == "use BUBBLE"]
    assert bubble and bubble[0].instead_of == "use TAIL_WHIP" and bubble[0].opponent == "BROCK #1"
    assert bubble[0].species == ("SQUIRTLE", "GEODUDE") and "defeat became victory" in bubble[0].text
    with pytest.raises(ReplayError, match="cannot be read"):
        LossReplays(data / "no.gb", {})(battle_log_path(data, battle_id))
    over = LossReplays(rom_path, {})
    over.stop()  # the run ended: no replay starts after it
    with pytest.raises(ReplayError, match="the run is over"):
        over(battle_log_path(data, battle_id))


def test_a_log_that_disagrees_with_the_game_diverges(
    rom_path: Path, bad_brock: tuple[Path, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, battle_id = bad_brock
    copy = tmp_path / "data"
    shutil.copytree(data / "runs", copy / "runs")
    (path,) = copy.glob(f"runs/*/battles/{battle_id}.json")
    log = json.loads(path.read_text(encoding="utf-8"))
    log["decisions"][2]["ours"]["hp_percent"] = 99.0
    path.write_text(json.dumps(log), encoding="utf-8")
    code, report = replay(["--battle", battle_id, "--rom", str(rom_path), "--data-dir", str(copy)], capsys)
    assert code == 1 and not report["matches_log"]
    assert report["first_divergence"]["decision"] == 2
    assert "our side: logged SQUIRTLE L13 99% OK" in report["first_divergence"]["what"]
    assert report["replayed_outcome"] == "defeat"  # the replay itself still follows the game


@pytest.mark.ray
def test_rollouts_run_on_a_pool_of_ray_actors_with_the_same_results(
    rom_path: Path,
    ray_instance: Any,
    bad_brock: tuple[Path, str],
    local_counterfactuals: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    from ray.util.state import list_actors

    data, battle_id = bad_brock
    args = ["--battle", battle_id, "--rom", str(rom_path), "--data-dir", str(data), "--counterfactuals"]
    code, report = replay([*args, "--workers", "2"], capsys)
    assert code == 0 and report["rollouts"]["mode"] == "ray" and report["rollouts"]["workers"] == 2
    # Each rollout depends on its state and action alone: the pool finds exactly what one process found.
    assert report["counterfactuals"] == local_counterfactuals["counterfactuals"]
    assert [lesson["text"] for lesson in report["lessons"]] == [
        lesson["text"] for lesson in local_counterfactuals["lessons"]
    ]

    def workers(*states: str) -> list[Any]:
        found = list_actors(
            address=f"http://{ray_instance.dashboard_url}",  # other Ray instances may run on this machine
            filters=[("class_name", "=", "RolloutActor")],
            limit=1000,
        )
        return [actor for actor in found if not states or actor.state in states]

    assert len(workers()) == 2  # two actors played the rollouts between them
    deadline = time.monotonic() + 20  # a killed actor's state reaches the state API within a few seconds
    while workers("ALIVE") and time.monotonic() < deadline:
        time.sleep(0.5)
    assert workers("ALIVE") == []
