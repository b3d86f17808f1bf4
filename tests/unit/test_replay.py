"""Replays and counterfactuals without a cartridge: finding logs, comparing a replay with its log, which
ending is better, regrets into lessons, the report's text and the command's flags."""

from __future__ import annotations

import argparse
import io
from collections.abc import Sequence
from pathlib import Path

import pytest

from engine.battles.errors import BattleLogError
from engine.battles.models import BattleLog, BattleSummary, DecisionRecord, Outcome, SideView
from engine.commands.replay import StderrProgress, execute, register
from engine.errors import UserInputError
from engine.game.capture import load_capture
from engine.game.models import DecisionPoint
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.mechanics.battle_driver import Option, Step
from engine.replay import judge
from engine.replay.after_loss import LossReplays
from engine.replay.compare import check_decisions, first_divergence, frames_match
from engine.replay.counterfactuals import assemble, plan, turn_numbers
from engine.replay.errors import ReplayError
from engine.replay.lessons import MAX_CONFIDENCE, lessons_from_regrets
from engine.replay.logs import find_battle_log
from engine.replay.models import Counterfactual, RolloutResult, RolloutRun
from engine.replay.pool import run_locally
from engine.replay.render import render_report
from engine.replay.replayer import compare
from engine.replay.rollouts import RolloutTask, enemies_left, party_hp_percent
from tests.conftest import GEN1_FIXTURES
from tests.support.romgen import write_rom

MAIN = DecisionPoint.BATTLE_MAIN_MENU
MOVES = ("use TACKLE", "use TAIL_WHIP", "use BUBBLE")
START_FRAME = 1000


# -- building blocks -------------------------------------------------------------------------------
def squirtle(percent: float) -> SideView:
    hp = round(38 * percent / 100)
    return SideView(species="SQUIRTLE", level=13, hp=hp, max_hp=38, hp_percent=percent, status="OK")


def geodude(percent: float) -> SideView:
    return SideView(species="GEODUDE", level=12, hp_percent=percent, status="OK")


def record(
    ours: float, enemy: float, action: str = "use TAIL_WHIP", frame: int = START_FRAME
) -> DecisionRecord:
    return DecisionRecord(point=MAIN, action=action, reason="r", frame=frame, options=MOVES,
                          ours=squirtle(ours), enemy=geodude(enemy))  # fmt: skip


def battle_log(
    records: Sequence[DecisionRecord], outcome: Outcome = "defeat", frames: int = 900
) -> BattleLog:
    summary = BattleSummary(
        battle_id="run-b001", outcome=outcome, battle_type="trainer", opponent="BROCK #1", turns=len(records),
        decisions=len(records), frames=frames, wall_seconds=1.0,
    )  # fmt: skip
    return BattleLog(summary=summary, run_id="run", start_frame=START_FRAME, decisions=tuple(records),
                     start_state="run-b001.state")  # fmt: skip


def step(rec: DecisionRecord, frame: int | None = None) -> Step:
    options = tuple(Option(label=label, move=label.removeprefix("use ")) for label in rec.options)
    offset = (rec.frame or START_FRAME) - START_FRAME if frame is None else frame
    return Step(record=rec, frame=offset, options=options, state=b"state")


TRAJECTORY = [record(100, 100, frame=1000), record(80, 100, frame=1300), record(60, 100, frame=1600)]


def result(outcome: Outcome | None, party: float = 50.0, *, decision: int = 0, action: str = "use BUBBLE",
           baseline: bool = False, actions: tuple[str, ...] = ()) -> RolloutResult:  # fmt: skip
    return RolloutResult(decision=decision, action=action, baseline=baseline, outcome=outcome, decisions=3,
                         party_hp_percent=party, active_hp_percent=party, enemy_hp_percent=0.0,
                         enemies_left=0, frames=500, actions=actions or (action,))  # fmt: skip


# -- finding the log -------------------------------------------------------------------------------
def write_battle(data_dir: Path, log: BattleLog, state: bytes | None = b"\x01" * 64) -> Path:
    folder = data_dir / "runs" / log.run_id / "battles"
    folder.mkdir(parents=True)
    (folder / f"{log.summary.battle_id}.json").write_text(log.model_dump_json(), encoding="utf-8")
    if state is not None:
        (folder / f"{log.summary.battle_id}.state").write_bytes(state)
    return folder


def test_a_battle_log_is_found_in_any_run(tmp_path: Path) -> None:
    write_battle(tmp_path, battle_log(TRAJECTORY))
    found = find_battle_log(tmp_path, "run-b001")
    assert found.log.summary.battle_id == "run-b001" and found.start_state == b"\x01" * 64
    assert found.path.name == "run-b001.json"


@pytest.mark.parametrize(
    ("battle_id", "fragment"),
    [
        ("run-b002", "no battle log run-b002.json"),
        ("../x", "expected a battle id"),
        ("", "expected a battle id"),
    ],
)
def test_a_missing_or_odd_battle_id_is_named(tmp_path: Path, battle_id: str, fragment: str) -> None:
    write_battle(tmp_path, battle_log(TRAJECTORY))
    with pytest.raises(BattleLogError) as caught:
        find_battle_log(tmp_path, battle_id)
    assert fragment in str(caught.value) and isinstance(caught.value, UserInputError)


def test_a_data_dir_without_runs_says_so(tmp_path: Path) -> None:
    with pytest.raises(BattleLogError, match="no runs/ folder"):
        find_battle_log(tmp_path, "run-b001")


def test_a_missing_start_state_is_named(tmp_path: Path) -> None:
    folder = write_battle(tmp_path, battle_log(TRAJECTORY), state=None)
    with pytest.raises(BattleLogError, match=r"start state .*run-b001\.state is missing") as caught:
        find_battle_log(tmp_path, "run-b001")
    assert str(folder) in str(caught.value)


def test_a_battle_whose_start_state_was_not_kept_says_so_in_one_line(tmp_path: Path) -> None:
    write_battle(tmp_path, battle_log(TRAJECTORY).model_copy(update={"start_state": None}))
    with pytest.raises(BattleLogError) as caught:
        find_battle_log(tmp_path, "run-b001")
    assert str(caught.value) == (
        "battle run-b001 (trainer, defeat) has no start state: its run did not keep one for such a battle "
        "(checkpoint.keep_battle_states), so it cannot be replayed or played from"
    )


def test_an_empty_start_state_or_a_broken_log_is_refused(tmp_path: Path) -> None:
    folder = write_battle(tmp_path, battle_log(TRAJECTORY), state=b"")
    with pytest.raises(BattleLogError, match="is empty"):
        find_battle_log(tmp_path, "run-b001")
    (folder / "run-b001.json").write_text('{"summary": 1}', encoding="utf-8")
    with pytest.raises(BattleLogError, match=r"is not a battle log \(summary: "):
        find_battle_log(tmp_path, "run-b001")


# -- comparing -------------------------------------------------------------------------------------
def test_an_identical_replay_matches_frame_for_frame() -> None:
    log = battle_log(TRAJECTORY)
    steps = [step(rec) for rec in TRAJECTORY]
    checks = check_decisions(log, steps, None)
    assert all(check.matches for check in checks) and len(checks) == 3
    assert first_divergence(log, checks, log, None) is None
    assert frames_match(log, checks, log)
    assert [check.replayed_frame for check in checks] == [0, 300, 600]


def test_the_first_hp_difference_is_the_divergence() -> None:
    log = battle_log(TRAJECTORY)
    replayed = [TRAJECTORY[0], record(80, 90, frame=1300), record(50, 90, frame=1600)]
    checks = check_decisions(log, [step(rec) for rec in replayed], None)
    divergence = first_divergence(log, checks, log, None)
    assert divergence is not None and divergence.decision == 1
    assert divergence.what == "enemy: logged GEODUDE L12 100% OK, replayed GEODUDE L12 90% OK"
    assert [check.matches for check in checks] == [True, False, False]
    assert (checks[2].ours_hp, checks[2].replayed_ours_hp) == (60, 50)


def test_details_a_log_does_not_carry_are_not_compared() -> None:
    log = battle_log(TRAJECTORY)
    richer = [rec.model_copy(update={"ours": rec.ours.model_copy(update={"moves": ("TACKLE",)})})
              for rec in TRAJECTORY]  # fmt: skip
    checks = check_decisions(log, [step(rec) for rec in richer], None)
    assert all(check.matches for check in checks)


def test_a_replay_that_halts_diverges_where_it_halted() -> None:
    log = battle_log(TRAJECTORY)
    halt = "the logged 'use TAIL_WHIP' is not legal here (legal: use TACKLE)"
    checks = check_decisions(log, [step(TRAJECTORY[0])], halt)
    assert [check.matches for check in checks] == [True, False, False]
    assert checks[1].difference == halt and checks[2].difference == "not replayed"
    divergence = first_divergence(log, checks, None, halt)
    assert divergence is not None and (divergence.decision, divergence.what) == (1, halt)


def test_a_replay_that_goes_on_past_the_log_diverges_after_its_last_decision() -> None:
    log = battle_log(TRAJECTORY)
    halt = "the log ends after 3 decisions; the replay goes on at battle_main_menu"
    checks = check_decisions(log, [step(rec) for rec in TRAJECTORY], halt)
    divergence = first_divergence(log, checks, None, halt)
    assert divergence is not None and divergence.decision == 3


def test_a_different_outcome_is_a_divergence_at_the_end() -> None:
    log = battle_log(TRAJECTORY, outcome="defeat")
    won = battle_log(TRAJECTORY, outcome="victory")
    checks = check_decisions(log, [step(rec) for rec in TRAJECTORY], None)
    divergence = first_divergence(log, checks, won, None)
    assert divergence is not None and divergence.decision is None
    assert divergence.what == "outcome: logged defeat, replayed victory"


def test_frames_off_by_two_still_match_the_battle_but_not_the_frames() -> None:
    log = battle_log(TRAJECTORY)
    steps = [
        step(TRAJECTORY[0]),
        *(step(rec, frame=(rec.frame or 0) - START_FRAME + 2) for rec in TRAJECTORY[1:]),
    ]
    checks = check_decisions(log, steps, None)
    assert first_divergence(log, checks, log, None) is None
    assert not frames_match(log, checks, log)


# -- which ending is better ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("baseline", "alternative", "better"),
    [
        (result("defeat", 0), result("victory", 10), True),
        (result("defeat", 0), result("draw", 0), True),
        (result("draw", 0), result("flee", 40), True),
        (result("flee", 80), result("victory", 10), True),  # an escape that was not deliberate
        (result("victory", 20), result("defeat", 0), False),
        (result("victory", 20), result("victory", 40), True),  # clearly more HP kept
        (result("victory", 20), result("victory", 39.9), False),  # within the noise margin
        (result("defeat", 0), result("defeat", 0), False),
        (result(None), result("victory", 90), False),
        (result("defeat", 0), result(None), False),
    ],
)
def test_outcome_order_and_hp_margin(
    baseline: RolloutResult, alternative: RolloutResult, better: bool
) -> None:
    assert judge.better(baseline, alternative) is better


def test_a_deliberate_escape_is_not_beaten_by_a_win() -> None:
    ran = result("flee", 60, action="run")
    caught = result("flee", 60, action="throw POKE_BALL")
    assert ran.deliberate_escape and caught.deliberate_escape
    assert not judge.better(ran, result("victory", 90))
    assert judge.better(ran, result("flee", 90, action="run"))
    assert not judge.better(ran, result("defeat", 0))


def test_a_regret_beats_both_the_baseline_and_the_logged_battle() -> None:
    lost, won = result("defeat", 0, baseline=True), result("victory", 30)
    assert judge.regret(lost, won, "defeat")
    assert not judge.regret(lost, won, "victory")  # the logged battle was won anyway
    assert not judge.regret(result("victory", 10, baseline=True), result("victory", 90), "defeat")  # HP only


# -- planning and assembling counterfactuals -------------------------------------------------------
def test_each_choice_gets_a_baseline_and_one_rollout_per_alternative() -> None:
    only_one = record(50, 100, action="let it evolve").model_copy(
        update={"point": DecisionPoint.EVOLUTION, "options": ("let it evolve",)}
    )
    tasks = plan([step(TRAJECTORY[0]), step(only_one), step(TRAJECTORY[1])], max_decisions=50)
    assert [(t.decision, t.action, t.baseline) for t in tasks] == [
        (0, "use TAIL_WHIP", True), (0, "use TACKLE", False), (0, "use BUBBLE", False),
        (2, "use TAIL_WHIP", True), (2, "use TACKLE", False), (2, "use BUBBLE", False),
    ]  # fmt: skip
    assert {t.max_decisions for t in tasks} == {50}


def test_a_budget_of_rollouts_keeps_the_latest_decisions_whole() -> None:
    steps = [step(rec) for rec in TRAJECTORY]  # three decisions, three labels each
    assert [t.decision for t in plan(steps, max_rollouts=7)] == [1, 1, 1, 2, 2, 2]
    assert plan(steps, max_rollouts=2) == [] and len(plan(steps, max_rollouts=9)) == 9


def test_turns_count_main_menu_choices() -> None:
    evolve = step(TRAJECTORY[0].model_copy(update={"point": DecisionPoint.EVOLUTION}))
    assert turn_numbers([evolve, step(TRAJECTORY[0]), evolve, step(TRAJECTORY[1])]) == [1, 1, 1, 2]


def counterfactuals() -> list[Counterfactual]:
    steps = [step(rec) for rec in TRAJECTORY]
    results = []
    for decision, won_with_bubble in enumerate([False, True, True]):
        results += [
            result("defeat", 0, decision=decision, action="use TAIL_WHIP", baseline=True),
            result("defeat", 0, decision=decision, action="use TACKLE"),
            result("victory" if won_with_bubble else "defeat", 30, decision=decision, action="use BUBBLE"),
        ]
    return assemble(steps, results, "defeat")


def test_assembled_counterfactuals_name_both_sides_and_mark_regrets() -> None:
    entries = counterfactuals()
    assert len(entries) == 6
    regrets = [entry for entry in entries if entry.regret]
    assert [(e.decision, e.turn, e.alternative) for e in regrets] == [
        (1, 2, "use BUBBLE"),
        (2, 3, "use BUBBLE"),
    ]
    first = regrets[0]
    assert (first.logged_move, first.alternative_move) == ("TAIL_WHIP", "BUBBLE")
    assert (first.baseline_outcome, first.alternative_outcome, first.changed_outcome) == (
        "defeat",
        "victory",
        True,
    )
    assert first.ours is not None and first.ours.species == "SQUIRTLE"


# -- regrets into lessons --------------------------------------------------------------------------
def test_regrets_become_one_lesson_per_swap() -> None:
    ids = iter(["a" * 32, "b" * 32])
    (lesson,) = lessons_from_regrets(counterfactuals(), "run-b001", "BROCK #1", new_id=lambda: next(ids))
    assert lesson.lesson_id == "a" * 32 and lesson.kind == "move"
    assert lesson.text == (
        "vs BROCK #1 (GEODUDE L12): SQUIRTLE L13 should use BUBBLE, not TAIL WHIP, at turns 2, 3: "
        "defeat became victory in counterfactual rollouts"
    )
    assert lesson.species == ("SQUIRTLE", "GEODUDE") and lesson.move == "BUBBLE"
    assert lesson.opponent == "BROCK #1" and lesson.attacker_types == ("WATER",)
    assert set(lesson.defender_types) == {"ROCK", "GROUND"}
    assert lesson.provenance == ("run-b001",) and lesson.evidence == 1
    assert (lesson.prefer, lesson.instead_of) == ("use BUBBLE", "use TAIL_WHIP")  # what the policy follows
    assert lesson.created_play_hours == lesson.updated_play_hours == 0.0
    # Tried at three turns, a regret at two of them.
    assert lesson.confidence == pytest.approx(0.4 + 0.5 * 2 / 3, abs=0.01)
    assert lesson.confidence <= MAX_CONFIDENCE


def test_a_lesson_has_a_fresh_hex_id_and_fits_its_text_limit() -> None:
    long_name = "X" * 200
    entries = [e.model_copy(update={"alternative": f"switch to {long_name}", "alternative_move": None})
               for e in counterfactuals()]  # fmt: skip
    (lesson,) = lessons_from_regrets(entries, "run-b001", "BROCK #1")
    assert len(lesson.text) <= 300 and lesson.kind == "sequence" and lesson.move is None
    assert len(lesson.lesson_id) == 32 and int(lesson.lesson_id, 16) >= 0


def test_no_regrets_no_lessons() -> None:
    quiet = [e.model_copy(update={"regret": False}) for e in counterfactuals()]
    assert lessons_from_regrets(quiet, "run-b001", "BROCK #1") == ()


# -- how a rollout ended ---------------------------------------------------------------------------
def test_enemies_left_and_party_hp_at_the_last_look() -> None:
    geodude_out = decode_state(load_capture(GEN1_FIXTURES / "red_brock_main_menu"), RED_BLUE)
    onix_out = decode_state(load_capture(GEN1_FIXTURES / "red_brock_second_mon_onix"), RED_BLUE)
    wild = decode_state(load_capture(GEN1_FIXTURES / "red_wild_main_menu"), RED_BLUE)
    assert (enemies_left(geodude_out), enemies_left(onix_out), enemies_left(wild)) == (2, 1, 1)
    battle = onix_out.battle
    assert battle is not None and battle.player is not None
    # The active member's HP lives in the battle struct while it fights.
    hurt = battle.player.model_copy(update={"hp": battle.player.max_hp // 2})
    halved = onix_out.model_copy(update={"battle": battle.model_copy(update={"player": hurt})})
    assert party_hp_percent(onix_out) == 100.0 and party_hp_percent(halved) == 50.0


# -- running rollouts in-process -------------------------------------------------------------------
class ScriptedWorker:
    """Stands in for RolloutWorker: the task's label decides the outcome."""

    def __init__(self) -> None:
        self.closed = False
        self.seen: list[bytes] = []

    def run(self, state: bytes, task: RolloutTask) -> RolloutResult:
        self.seen.append(state)
        outcome: Outcome = "victory" if task.action == "use BUBBLE" else "defeat"
        return result(outcome, decision=task.decision, action=task.action, baseline=task.baseline)

    def close(self) -> None:
        self.closed = True


def test_local_rollouts_run_in_order_with_progress_and_close_the_worker() -> None:
    worker = ScriptedWorker()
    tasks = plan([step(rec) for rec in TRAJECTORY[:2]])
    progress: list[tuple[int, int]] = []
    results = run_locally(tasks, {0: b"s0", 1: b"s1"}, lambda: worker, lambda d, t: progress.append((d, t)))
    assert [(r.decision, r.action) for r in results] == [(t.decision, t.action) for t in tasks]
    assert progress == [(n, 6) for n in range(1, 7)] and worker.closed
    assert worker.seen == [b"s0"] * 3 + [b"s1"] * 3


def test_progress_lines_are_throttled_but_the_last_always_shows() -> None:
    stream = io.StringIO()
    progress = StderrProgress(stream, every_seconds=3600)
    for done in range(1, 31):
        progress(done, 30)
    assert stream.getvalue().splitlines() == ["rollouts 1/30", "rollouts 30/30"]


# -- the report and the command --------------------------------------------------------------------
def test_the_text_report_reads_top_down(tmp_path: Path) -> None:
    from engine.mechanics.battle_driver import DrivenBattle
    from engine.replay.logs import LoggedBattle

    log = battle_log(TRAJECTORY)
    driven = DrivenBattle(steps=tuple(step(rec) for rec in TRAJECTORY), log=log, halted=None, final=None,
                          frames=900)  # fmt: skip
    report = compare(LoggedBattle(path=tmp_path / "x.json", log=log, start_state=b"s"), driven, 1.5)
    assert report.matches_log and report.frames_match and report.decisions_compared == 3
    entries = counterfactuals()
    run = RolloutRun(mode="ray", workers=2, rollouts=9, max_decisions=200, wall_seconds=3.0)
    regrets = tuple(e for e in entries if e.regret)
    report = report.model_copy(
        update={"rollouts": run, "counterfactuals": tuple(entries), "regrets": regrets}
    )
    text = render_report(report)
    assert "matches the log (frame for frame)" in text
    assert "turn 2 (decision 1): logged use TAIL_WHIP -> defeat" in text
    assert "counterfactuals: 9 rollouts on 2 Ray workers in 3.0 s" in text
    assert "use BUBBLE" in text and "BETTER REGRET" in text and "regrets: 2" in text


def parse(args: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="engine")
    register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["replay", *args])


def test_the_replay_flags() -> None:
    args = parse(
        ["--battle", "run-b001", "--rom", "red.gb", "--counterfactuals", "--workers", "3", "--local"]
    )
    assert (args.battle, args.rom, args.data_dir) == ("run-b001", Path("red.gb"), Path("."))
    assert args.counterfactuals and args.workers == 3 and args.local and args.address is None
    assert not args.json and args.max_decisions == 200
    with pytest.raises(SystemExit):
        parse(["--battle", "x", "--rom", "r", "--local", "--address", "auto"])
    with pytest.raises(SystemExit):
        parse(["--battle", "x", "--rom", "r", "--workers", "0"])
    with pytest.raises(SystemExit):
        parse(["--rom", "r"])


def test_a_missing_rom_or_log_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match="ROM file not found"):
        execute(parse(["--battle", "run-b001", "--rom", str(tmp_path / "none.gb")]))
    rom = write_rom(tmp_path, title=b"POKEMON RED")
    with pytest.raises(UserInputError, match="no runs/ folder"):
        execute(parse(["--battle", "run-b001", "--rom", str(rom), "--data-dir", str(tmp_path)]))


def test_the_replays_after_a_loss_travel_to_a_ray_actor_as_their_recipe(tmp_path: Path) -> None:
    import ray.cloudpickle

    replays = LossReplays(tmp_path / "red.gb", {"memory": {"replay_losses": True}}, seconds=30.0)
    sent = ray.cloudpickle.loads(ray.cloudpickle.dumps(replays))
    assert (sent.rom, sent.config, sent.seconds) == (replays.rom, replays.config, 30.0)
    with pytest.raises(ReplayError, match="cannot be read"):
        sent(tmp_path / "runs" / "r" / "battles" / "r-b001.json")  # no cartridge there
    stopped = LossReplays(Path(__file__), {})  # a readable file stands in for the cartridge
    stopped.stop()
    with pytest.raises(ReplayError, match="the run is over"):
        stopped(tmp_path / "runs" / "r" / "battles" / "r-b001.json")
