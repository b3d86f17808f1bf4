"""Progress tests, in the spirit of unit-test rewards: small pure functions of the state before and after
some play, each saying what got better (or nothing). The tactician runs them after every leg of its
objective; when none passes for a while, it is stuck and says so."""

from __future__ import annotations

from collections.abc import Callable

from engine.game.models import GameState
from engine.story.conditions import party_hp
from engine.story.graph import Step

ProgressTest = Callable[[GameState, GameState], str | None]


def new_event(before: GameState, after: GameState) -> str | None:
    new = after.story.event_flags - before.story.event_flags
    return f"{len(new)} event flag(s) set" if new else None


def new_town(before: GameState, after: GameState) -> str | None:
    new = after.story.towns_visited - before.story.towns_visited
    return f"visited {', '.join(sorted(new))}" if new else None


def stronger(before: GameState, after: GameState) -> str | None:
    levels = sum(mon.level for mon in after.party) - sum(mon.level for mon in before.party)
    return f"{levels} level(s) gained" if levels > 0 else None


def new_member(before: GameState, after: GameState) -> str | None:
    grew = after.progress.pokedex_owned > before.progress.pokedex_owned or len(after.party) > len(
        before.party
    )
    return "a Pokémon caught" if grew else None


def met_wild(before: GameState, after: GameState) -> str | None:
    """A wild battle began: what walking in the grass is for."""
    return "a wild battle" if after.battle is not None and after.battle.kind == "wild" else None


def repel_wearing_off(before: GameState, after: GameState) -> str | None:
    """A REPEL bought for a walk still keeps the wild Pokémon away: the steps it has left are spent."""
    spent = before.overworld.repel_steps - after.overworld.repel_steps
    return f"{spent} steps of a REPEL spent" if spent > 0 else None


def healed(before: GameState, after: GameState) -> str | None:
    return "the team healed" if party_hp(after) > party_hp(before) + 0.01 else None


def cured(before: GameState, after: GameState) -> str | None:
    ill = sum(mon.status != "OK" for mon in after.party) < sum(mon.status != "OK" for mon in before.party)
    return "a status cured" if ill else None


def stocked(before: GameState, after: GameState) -> str | None:
    held = {item.name: item.quantity for item in before.bag}
    more = [item.name for item in after.bag if item.quantity > held.get(item.name, 0)]
    return f"got {', '.join(str(name) for name in more)}" if more else None


def entered(map_name: str) -> ProgressTest:
    def test(before: GameState, after: GameState) -> str | None:
        arrived = after.overworld.map_name == map_name and before.overworld.map_name != map_name
        return f"entered {map_name}" if arrived else None

    return test


def closer(before_steps: int | None, after_steps: int | None) -> str | None:
    """The planner's way to the step's target got shorter than it has ever been."""
    if before_steps is None or after_steps is None or after_steps >= before_steps:
        return None
    return f"{before_steps - after_steps} steps closer"


_BY_ACTION: dict[str, tuple[ProgressTest, ...]] = {
    "heal": (healed, cured),
    "buy": (stocked,),
    "catch": (new_member, stronger, met_wild, repel_wearing_off),
    "train": (stronger, new_member, met_wild, repel_wearing_off),
}


def tests_for(step: Step) -> tuple[ProgressTest, ...]:
    """What counts as progress while this step is played, besides the story moving on."""
    found = [new_event, new_town, *_BY_ACTION.get(step.do, ())]
    if step.map is not None:
        found.append(entered(step.map))
    return tuple(found)


def progress(step: Step, before: GameState, after: GameState) -> str | None:
    """The first progress test that passes, in words; None when play got nowhere."""
    return next((found for test in tests_for(step) if (found := test(before, after))), None)
