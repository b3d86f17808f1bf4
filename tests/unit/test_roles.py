"""The plain role classes on real captures: Vision's gate, Observer's events, Strategist's triggers."""

from __future__ import annotations

import hashlib

from engine.game.capture import load_capture
from engine.game.cartridge import Game
from engine.game.memory import DECODER_REGIONS
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.messages import EventName, Frame, Perception
from engine.observer.journey import Observer
from engine.strategist.strategist import Strategist
from engine.vision.perceiver import Vision
from tests.conftest import GEN1_FIXTURES


def frame_of(name: str, number: int = 0) -> Frame:
    image = load_capture(GEN1_FIXTURES / name)
    regions = tuple((start, image.read(start, end - start)) for start, end in DECODER_REGIONS)
    digest = hashlib.blake2b(b"".join(chunk for _, chunk in regions), digest_size=8).hexdigest()
    return Frame(number=number, digest=digest, regions=regions)


def perception(name: str, number: int = 0) -> Perception:
    image = load_capture(GEN1_FIXTURES / name)
    return Perception(frame=number, digest=name, state=decode_state(image, RED_BLUE))


def test_vision_decodes_changed_frames_and_reuses_unchanged_ones() -> None:
    vision = Vision(Game.RED)
    first = vision.perceive(frame_of("red_wild_main_menu", 10))
    again = vision.perceive(frame_of("red_wild_main_menu", 12))
    other = vision.perceive(frame_of("red_wild_move_menu_move1", 14))
    assert first.state.battle is not None and first.state.battle.enemy.species_name == "PIDGEY"
    assert (first.reused, again.reused, other.reused) == (False, True, False)
    assert again.frame == 12 and again.state == first.state
    counters = vision.report().counters
    assert counters == {"decoded": 2.0, "reused": 1.0, "screens_read": 0.0, "screens_reused": 0.0}


def test_observer_reports_battle_start_then_nothing_new() -> None:
    observer = Observer()
    names = [e.name for e in observer.observe(perception("red_pallet_town_overworld"))]
    assert EventName.NEW_MAP in names
    started = {e.name: e for e in observer.observe(perception("red_wild_main_menu"))}
    assert EventName.BATTLE_START in started
    assert "wild vs PIDGEY" in started[EventName.BATTLE_START].detail
    assert observer.observe(perception("red_wild_move_menu_move1")) == []


def test_observer_sees_the_next_enemy_member() -> None:
    observer = Observer()
    observer.observe(perception("red_brock_main_menu"))
    events = observer.observe(perception("red_brock_second_mon_onix"))
    assert EventName.NEW_ENEMY in [e.name for e in events]


def test_observer_journey_counts_battles() -> None:
    observer = Observer()
    observer.observe(perception("red_wild_main_menu"))
    ended = observer.battle_ended("victory", "PIDGEY", 500, ["SQUIRTLE"])
    snapshot = observer.journey()
    assert ended.name is EventName.BATTLE_END
    assert snapshot["battles"] == {"victory": 1} and snapshot["team"] == ["SQUIRTLE"]


def test_strategist_fires_on_triggers_only() -> None:
    strategist = Strategist()
    observer = Observer()
    state = perception("red_wild_main_menu")
    events = observer.observe(state)
    directive = strategist.consider(events, state.state)
    assert directive is not None and directive.trigger is EventName.BATTLE_START
    assert "win the wild battle" in directive.objective
    overworld = perception("red_pallet_town_overworld")
    new_map = strategist.consider(observer.observe(overworld), overworld.state)
    # A new map refreshes the orders from the story graph (rule-based: it never pays for a model).
    assert new_map is not None and new_map.trigger is EventName.NEW_MAP
    assert new_map.objective_id is not None and new_map.objective.startswith(new_map.objective_id)
    assert strategist.consider([], state.state) is None
    assert strategist.report().counters == {"battle_start": 1.0, "new_map": 1.0, "model_directives": 0.0}


def test_two_badges_are_two_though_their_bits_read_three() -> None:
    seen = perception("red_pallet_town_overworld")
    progress = seen.state.progress.model_copy(update={"badges": 0b11, "badge_names": ("BOULDER", "CASCADE")})
    with_two = seen.model_copy(update={"state": seen.state.model_copy(update={"progress": progress})})
    observer = Observer()
    observer.observe(seen)
    (badge,) = [event for event in observer.observe(with_two) if event.name is EventName.BADGE]
    assert badge.detail == "2 badges" and with_two.state.progress.badge_count == 2
