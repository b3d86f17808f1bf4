"""The Vermilion Gym's trash cans: where the second switch can be, the search's memory (tried cans, the
first switch, resets), and the search against the game's own rule played many times over."""

from __future__ import annotations

import random
from fractions import Fraction

from engine.game.models import GameState, Story
from engine.puzzles.trash_cans import (
    BOTH_FOUND,
    CANS,
    FIRST_CANDIDATES,
    FIRST_FOUND,
    ROWS,
    TrashCanSearch,
    second_candidates,
)
from engine.story.graph import Step
from engine.tactician.puzzle_legs import PuzzleGuide
from engine.world.goals import ThingGoal
from tests.support.tiny_world import overworld_state

PALLET = overworld_state()
MAX_LOOKS = 400  # far above what the search needs (about a dozen looks on average, see below)


def flags(*events: str) -> GameState:
    return PALLET.model_copy(update={"story": Story(events=frozenset(events))})


def test_the_second_switch_follows_the_rows_mask_and_the_fall_off_onto_can_0() -> None:
    assert second_candidates(4) == ((0, Fraction(1, 2)), (7, Fraction(1, 2)))  # mask 4: the fourth or can 0
    assert second_candidates(0) == ((0, Fraction(1, 2)), (3, Fraction(1, 2)))  # mask 2: the second or can 0
    assert dict(second_candidates(6)) == {0: Fraction(1, 4), 3: Fraction(1, 4), 7: Fraction(1, 4),
                                          9: Fraction(1, 4)}  # fmt: skip
    for first in FIRST_CANDIDATES:
        assert sum(chance for _, chance in second_candidates(first)) == 1
    assert len(CANS) == len(ROWS) == 15 and FIRST_CANDIDATES == (0, 2, 4, 6, 8, 10, 12, 14)


def test_the_search_tries_each_even_can_once_then_the_second_switchs_cans() -> None:
    search = TrashCanSearch()
    none, first = flags(), flags(FIRST_FOUND)
    assert search.next_can(none) == 0
    search = search.looked(0, none, none).looked(2, none, none)
    assert search.next_can(none) == 4 and search.tried == (0, 2)
    search = search.looked(4, none, first)  # the first switch was in can 4
    assert search.first == 4 and search.next_can(first) == 0  # can 0 or can 7, even odds
    search = search.looked(0, first, none)  # wrong: both switches are drawn again
    assert (search.first, search.tried, search.resets, search.looks) == (None, (), 1, 4)
    assert search.next_can(none) == 0
    assert search.next_can(flags(FIRST_FOUND, BOTH_FOUND)) is None


def test_leaving_the_gym_forgets_the_tries_until_the_first_switch_is_found() -> None:
    none = flags()
    tried = TrashCanSearch().looked(0, none, none)
    assert tried.left_the_gym().tried == ()
    found = TrashCanSearch().looked(6, none, flags(FIRST_FOUND))
    assert found.left_the_gym() == found


def play(rng: random.Random) -> int:
    """The game's rule (pret GymTrashScript), independently of the search: how many looks the search takes."""
    first, second = rng.randrange(0, 15) & 0x0E, None
    search, events = TrashCanSearch(), set[str]()
    for looks in range(1, MAX_LOOKS + 1):
        before = flags(*events)
        can = search.next_can(before)
        assert can is not None
        if FIRST_FOUND not in events and can == first:
            events.add(FIRST_FOUND)
            mask, row = ROWS[can]
            pick = ((rng.randrange(256) >> 4) & mask) - 1
            second = 0 if pick < 0 or pick >= len(row) else row[pick]
        elif FIRST_FOUND in events:
            if can == second:
                return looks
            events.discard(FIRST_FOUND)
            first = rng.randrange(0, 256) & 0x0E
        search = search.looked(can, before, flags(*events))
    raise AssertionError(f"not solved in {MAX_LOOKS} looks")


def test_against_the_games_own_draws_the_search_always_opens_the_doors() -> None:
    rng = random.Random(7)
    looks = [play(rng) for _ in range(2000)]
    assert max(looks) < MAX_LOOKS
    assert sum(looks) / len(looks) < 16  # measured: 12.4 on average, median 9, p95 33


def test_the_guide_walks_to_face_the_next_can_and_learns_from_the_look() -> None:
    from tests.support.tiny_world import INDOOR, TinyMap, build_world, state_at

    art = ["." * 12 for _ in range(14)]
    for x, y in CANS:
        art[y] = art[y][:x] + "#" + art[y][x + 1 :]
    gym = build_world(TinyMap(5, "VERMILION_GYM", art, tileset=INDOOR))
    guide = PuzzleGuide(gym)
    step = Step(do="search", map="VERMILION_GYM", puzzle="trash_cans")
    here = state_at(flags(), 5, 0, 0)
    here = here.model_copy(
        update={"overworld": here.overworld.model_copy(update={"map_name": "VERMILION_GYM"})}
    )
    leg = guide.leg(step, here)
    assert leg is not None and leg.interact and isinstance(leg.goal, ThingGoal)
    assert (leg.goal.x, leg.goal.y) == CANS[0]
    dx, dy = {"up": (0, -1), "down": (0, 1), "left": (-1, 0), "right": (1, 0)}[leg.goal.facing.value]
    stood = here.model_copy(update={"overworld": here.overworld.model_copy(
        update={"x": CANS[0][0] - dx, "y": CANS[0][1] - dy})})  # fmt: skip
    guide.travelled(here, stood)
    assert guide.trash_cans.tried == (0,) and guide.snapshot().trash_cans.looks == 1
