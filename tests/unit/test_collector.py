"""The battle search runs with the cycle collector paused and leaves it as it found it."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from engine.combat.collector import collector_paused
from engine.combat.fighter import Duel, Side, fighter_of
from engine.combat.judge import Judge, Outlook, win_probability
from engine.combat.search import attacks, search


@pytest.fixture(autouse=True)
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@collector_paused
def seen_inside() -> bool:
    """Whether the collector was on inside the call."""
    return gc.isenabled()


def test_the_collector_is_off_during_the_call_and_on_after_it() -> None:
    assert seen_inside() is False
    assert gc.isenabled()


def test_a_nested_call_does_not_turn_it_back_on_early() -> None:
    @collector_paused
    def outer() -> tuple[bool, bool]:
        inner = seen_inside()
        return inner, gc.isenabled()

    assert outer() == (False, False)
    assert gc.isenabled()


def test_an_error_inside_still_turns_it_back_on() -> None:
    @collector_paused
    def failing() -> None:
        raise ValueError("boom")

    with pytest.raises(ValueError, match="boom"):
        failing()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    assert seen_inside() is False
    assert not gc.isenabled()


def test_overlapping_calls_in_two_threads_leave_it_on() -> None:
    inside, release = threading.Event(), threading.Event()

    @collector_paused
    def waiting() -> bool:
        inside.set()
        release.wait(timeout=10)
        return gc.isenabled()

    seen: list[bool] = []
    thread = threading.Thread(target=lambda: seen.append(waiting()))
    thread.start()
    assert inside.wait(timeout=10)
    assert seen_inside() is False  # the other thread's call is still running: still paused
    assert not gc.isenabled()
    release.set()
    thread.join(timeout=10)
    assert seen == [False] and gc.isenabled()


def test_the_search_and_the_forecast_judge_with_it_paused(monkeypatch: pytest.MonkeyPatch) -> None:
    duel = Duel(
        us=Side(members=(fighter_of("CHARMANDER", 12),)), them=Side(members=(fighter_of("RATTATA", 8),))
    )
    seen: list[bool] = []
    judged = Judge.outlook

    def watched(judge: Judge, position: Duel, mass: float = 1.0) -> Outlook:
        seen.append(gc.isenabled())
        return judged(judge, position, mass)

    monkeypatch.setattr(Judge, "outlook", watched)
    search(duel, attacks(duel))
    win_probability(duel)
    assert seen and not any(seen)
    assert gc.isenabled()
