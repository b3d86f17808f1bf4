"""What earlier runs' boss fights teach the next run: the gap between the forecast a boss was entered on and
the result (a Beta posterior, engine/experience/calibration.py), the bar it moves, a wrong record that
later fights contradict losing its weight, and the records kept in the real lesson memory and read back by
the next run's tactician."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.config import MemoryConfig
from engine.experience.calibration import (
    MAX_BAR,
    MAX_LOWER,
    MIN_BAR,
    PRIOR_FIGHTS,
    Calibration,
    calibrate,
)
from engine.experience.errors import ExperienceError
from engine.experience.outcomes import FightOutcome, clock_seconds
from engine.game.capture import load_capture
from engine.game.models import GameState
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.memory.service import LessonMemory
from engine.story.graph import GAUNTLET_KEY, parse_graph
from engine.tactician.explorer import Explorer
from engine.tactician.fights import read_calibration
from engine.tactician.pilot import FIRST_ENTRY_BAR, Pilot
from engine.tactician.tactician import Tactician
from tests.conftest import GEN1_FIXTURES
from tests.unit.test_defeats import charmander, graph, pilot, squirtle
from tests.unit.test_pilot import world


def fight(key: str, forecast: float, won: bool, level: int = 20) -> FightOutcome:
    return FightOutcome(key=key, forecast=forecast, won=won, level=level)


def test_a_boss_lost_at_a_forecast_of_70_raises_its_bar_and_one_won_there_lowers_it() -> None:
    lost = calibrate([(fight("BROCK", 0.7, won=False), 1.0)]).of("BROCK")
    won = calibrate([(fight("BROCK", 0.7, won=True), 1.0)]).of("BROCK")
    assert lost is not None and lost.gap == pytest.approx(-0.7 / (PRIOR_FIGHTS + 1))
    assert won is not None and won.gap == pytest.approx(0.3 / (PRIOR_FIGHTS + 1))
    assert lost.bar(0.7) == pytest.approx(0.84) and won.bar(0.7) == pytest.approx(0.64)


def test_the_gap_is_the_posterior_mean_less_the_mean_forecast_and_keys_stay_apart() -> None:
    fights = [
        (fight("MISTY", 0.5, True), 1.0),
        (fight("MISTY", 0.6, True), 0.5),
        (fight("BROCK", 0.9, False), 1.0),
    ]
    misty = calibrate(fights).of("MISTY")
    assert misty is not None
    mean = (0.5 * 1.0 + 0.6 * 0.5) / 1.5
    posterior = (PRIOR_FIGHTS * mean + 1.5) / (PRIOR_FIGHTS + 1.5)  # Beta(K·f̄ + wins, K·(1 − f̄) + losses)
    assert misty.gap == pytest.approx(posterior - mean)
    assert (misty.fights, misty.won) == (2, 2) and misty.mean_forecast == pytest.approx(mean)
    brock = calibrate(fights).of("BROCK")
    assert brock is not None and brock.gap < 0 and calibrate(fights).of("KOGA") is None


def test_bars_move_only_within_their_limits() -> None:
    many_wins = calibrate([(fight("BROCK", 0.5, True), 1.0)] * 20).of("BROCK")
    many_losses = calibrate([(fight("BROCK", 0.5, False), 1.0)] * 20).of("BROCK")
    assert many_wins is not None and many_wins.bar(0.5) == MIN_BAR  # never a long shot
    assert many_wins.bar(0.7) == pytest.approx(0.7 - MAX_LOWER)  # nor far under the plan's bar
    assert many_losses is not None and many_losses.bar(0.7) == MAX_BAR
    assert many_wins.bar(0.0) == 0.0 and many_wins.bar(2.0) == 2.0  # a spent budget, an unreachable bar


def test_a_wrong_record_loses_its_weight_once_later_fights_contradict_it() -> None:
    wrong = (fight("SABRINA", 0.95, won=False), 1.0)  # a loss no later fight bears out
    alone = calibrate([wrong]).of("SABRINA")
    assert alone is not None and alone.bar(0.5) > 0.65  # it would hold a plan back
    contradicted = calibrate([wrong, (fight("SABRINA", 0.6, True), 1.0), (fight("SABRINA", 0.55, True), 1.0)])
    found = contradicted.of("SABRINA")
    assert found is not None and found.gap > 0 and found.bar(0.5) < 0.5  # two wins outweigh it
    plain = (-0.95 + 0.4 + 0.45) / (PRIOR_FIGHTS + 3)  # as it would be with its full weight
    assert plain < 0  # without the contradiction rule it would still raise the bar
    faded = calibrate([(fight("SABRINA", 0.95, won=False), 0.1)]).of("SABRINA")  # confidence gone with time
    assert faded is not None and abs(faded.gap) < abs(alone.gap) / 5


def test_the_game_clock_reads_as_seconds_and_a_bad_one_says_so() -> None:
    assert clock_seconds("4:24:01") == 4 * 3600 + 24 * 60 + 1 and clock_seconds("0:07") == 420
    with pytest.raises(ExperienceError, match="H:MM"):
        clock_seconds("four hours")


BAR = 0.65


def fighting_pilot() -> Pilot:
    """BROCK trained for until a forecast of 65%, then fought on the road."""
    w = world()
    steps = [
        {"do": "train", "boss": ["BROCK", 1], "win_at": BAR},
        {"do": "fight", "map": "ROAD", "why": "the gym"},
    ]
    brock = {"name": "beat_brock", "title": "beat Brock", "done": [["badge:BOULDER"]], "source": "test"}
    story = parse_graph({"objectives": [brock | {"steps": steps}]})
    return Pilot(w, story, Explorer(w), stuck_legs=3)


def test_the_pilot_trains_to_the_bar_earlier_fights_set_and_says_which_lesson_did() -> None:
    step = graph().named("beat_brock").steps[0]
    level = next(
        lv for lv in range(10, 40) if BAR - MAX_LOWER <= (step.forecast(charmander(lv)) or 0.0) < BAR
    )
    state = charmander(level)
    chance = step.forecast(state) or 0.0
    plain = fighting_pilot()
    leg = plain.leg(state, "beat_brock")
    assert leg is not None and "train" in leg.reason and "lesson" not in leg.reason  # short of 65%
    taught = fighting_pilot()
    taught.book.calibration = calibrate([(fight("BROCK", BAR, True), 1.0)] * 5)  # won five times at 65%
    bar = taught.book.calibration.of("BROCK")
    assert bar is not None and bar.bar(BAR) <= chance
    leg = taught.leg(state, "beat_brock")
    assert leg is not None and leg.reason.startswith("beat Brock: fight")  # the lowered bar is met
    assert "lesson: BROCK won 5 of 5 earlier fights" in leg.reason  # and the fight says why it is fought
    leg = taught.leg(charmander(level + 8), "beat_brock")
    assert leg is not None and "fight" in leg.reason and "lesson" not in leg.reason  # the plan's bar is met
    taught = pilot()
    taught.book.calibration = calibrate([(fight("BROCK", 0.7, True), 1.0)] * 5)
    leg = taught.leg(charmander(10), "beat_brock")
    assert leg is not None and "lesson: BROCK won 5 of 5 earlier fights" in leg.reason


def test_a_snapshot_keeps_the_calibration_a_run_began_with() -> None:
    flown = pilot()
    flown.book.calibration = calibrate([(fight(GAUNTLET_KEY, 0.6, True), 1.0)])
    restored = pilot()
    restored.restore(flown.snapshot())
    assert restored.book.calibration == flown.book.calibration
    assert restored._bars_now(squirtle(10))[GAUNTLET_KEY] < FIRST_ENTRY_BAR


def brock_battle() -> GameState:
    return decode_state(load_capture(GEN1_FIXTURES / "red_brock_main_menu"), RED_BLUE)


def test_a_boss_fight_kept_by_one_run_moves_the_next_runs_bar(tmp_path: Path) -> None:
    memory = LessonMemory(MemoryConfig(), tmp_path / "memory")
    try:
        first = Tactician(memory=memory)
        start = brock_battle()
        first.choose_battle(start, None, battle_id="run1-b001")
        forecast = first.pilot.book.entered.get("BROCK")
        assert forecast is not None  # noted as the fight began
        first.battle_ended("victory", "BROCK #1", start)
        first.choose_battle(start, None, battle_id="run1-b002")  # a second try, kept as its own record
        first.battle_ended("defeat", "BROCK #1", start)
        kept = memory.fights()
        assert [lesson.fight.won for lesson, _ in kept if lesson.fight] == [True, False]
        assert all(lesson.kind == "outcome" and lesson.opponent == "BROCK" for lesson, _ in kept)
        assert kept[0][0].provenance == ("run1-b001",) and kept[0][0].fight.forecast == forecast  # type: ignore[union-attr]
        memory.learn([kept[1][0].model_copy(update={"lesson_id": "again"})])  # the same fight once more
        assert len(memory.fights()) == 2  # never merged into another fight's record
        nxt = Tactician(memory=memory)
        assert nxt.pilot.book.calibration is None
        lines = nxt.read_experience()  # the conductor asks before the first decision, and logs them
        assert len(lines) == 1 and lines[0].startswith("2 earlier fights of BROCK: 1 won, gap -")
        assert nxt.read_experience() == []  # once a run
        found = nxt.pilot.book.calibration.of("BROCK") if nxt.pilot.book.calibration else None
        assert found is not None and found.fights == 2 and found.won == 1
        unasked = Tactician(memory=memory)  # a caller that never asked: read at its first decision
        unasked.choose_battle(start, None, battle_id="run3-b001")
        assert unasked.pilot.book.calibration == nxt.pilot.book.calibration
    finally:
        memory.close()


def test_no_memory_or_a_broken_one_leaves_every_bar_as_planned() -> None:
    class Broken:
        def fights(self) -> list[object]:
            raise ConnectionError("the memory actor is gone")

    assert read_calibration(None) == Calibration()
    assert read_calibration(Broken()) == Calibration()  # type: ignore[arg-type]
    assert Pilot(None, graph(), pilot().explorer, 3).book.calibration is None
