"""Splits against the personal best: which milestones are the run's own."""

from __future__ import annotations

from engine.game.capture import load_capture
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.runtime.milestones import Milestones
from engine.story.graph import story_graph
from tests.conftest import GEN1_FIXTURES


def test_a_state_in_a_battle_has_its_milestones_at_the_start() -> None:
    battle = decode_state(load_capture(GEN1_FIXTURES / "red_brock_main_menu"), RED_BLUE).battle
    after = decode_state(load_capture(GEN1_FIXTURES / "red_wild_post_battle_overworld"), RED_BLUE)
    in_battle = after.model_copy(update={"battle": battle})  # a state with a story, saved in a battle
    assert battle is not None
    milestones = Milestones(story_graph())
    first = milestones.check(in_battle, 0, 0, 0.0)
    assert first and all(split.at_start for split in first)  # not the run's own once the battle ends
    assert milestones.check(in_battle, 500, 1, 1.0) == []  # later in a battle: nothing recorded
