"""Trainers to walk around: an unbeaten trainer near the player whom the team, as it is now, is forecast
to beat less often than FEAR_BELOW is named on the leg (`Leg.feared`), and the walk pays FEARED_COST for
each square it watches (world/planner.py), so it goes around where a way round exists. Five of eight runs
of seeds 50-53 walked a SQUIRTLE L9 past the JR. TRAINER in BROCK's gym (DIGLETT and SANDSHREW L11, a 31
to 46% chance), lost, and trained 14,000 to 16,000 frames before going on.

A trainer no walk to the leg's goal avoids, and whom the team healed would likely beat, is met healed when
what healing adds to the chance, times what a defeat costs (DEFEAT_FRAMES), is more than the walk to the
nurse and back: the nurse first (`healing_helps`). Three of five runs of seeds 54-57 walked a SQUIRTLE L13
at 40-60% of its HP from BROCK's gym onto Route 3, where YOUNGSTER #1 watches the map's entry, lost, and
trained 20,000 to 26,000 frames before going on. Healed only below half a chance, five of twelve runs of
seeds 173-178 still lost to him, met at 50-99% after the trainers before him, each loss 14,000-16,000
frames more from BROCK to Mt. Moon than the runs that won.

A forecast is worked out once per team and trainer (the team's levels, HP and PP as the key)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from engine.combat.position import forecast
from engine.game.models import GameState
from engine.game.tables import game_data
from engine.world.errors import WorldError
from engine.world.goals import HereGoal, Leg, ObjectGoal
from engine.world.planner import Planner, feared_squares, surroundings
from engine.world.tables import OPP_ID_OFFSET
from engine.world.targets import target_for
from engine.world.world import World

FEAR_BELOW = 0.5
# A defeat by a trainer the story does not need: the whiteout, the walk back and the levels it asks for.
# Route 3's YOUNGSTER #1 cost seeds 173-178 14,000-16,000 frames a loss (BROCK to Mt. Moon, against the
# runs that beat him first).
DEFEAT_FRAMES = 15_000
NURSE_FRAMES = 700  # the nurse's words and the healing tune
FRAMES_PER_STEP = 16
NEAR_HOPS = 1  # around the player and around the leg's goal: one warp or edge away
KEPT = 512  # forecasts remembered before the memo starts again

Trainer = tuple[int, int]  # map id, object index (1-based)


class Wary:
    def __init__(self, world: World | None) -> None:
        self.world = world
        self._chances: dict[tuple[object, ...], float] = {}

    def around(self, state: GameState, leg: Leg) -> Leg:
        """The leg with the trainers it should walk around; the leg itself when there are none, when it
        walks nowhere, or when its goal is one of them (a fight the plan chose)."""
        if self.world is None or isinstance(leg.goal, HereGoal) or leg.stop is not None:
            return leg
        target = (leg.goal.map_id, leg.goal.index) if isinstance(leg.goal, ObjectGoal) else None
        goal_map = getattr(leg.goal, "map_id", None)
        feared = tuple(trainer for trainer in self.feared(state, goal_map) if trainer != target)
        return leg.model_copy(update={"feared": feared}) if feared else leg

    def feared(self, state: GameState, goal_map: int | None = None) -> list[Trainer]:
        """The unbeaten trainers the team would likely lose to, on the maps near the player and near the
        leg's goal (a walk from Pewter's Pokémon Center to BROCK ends two maps away, in his gym)."""
        found = []
        for trainer, name, number in self._unbeaten_near(state, goal_map):
            chance = self._chance(state, name, number)
            if chance is not None and chance < FEAR_BELOW:
                found.append(trainer)
        return found

    def _unbeaten_near(self, state: GameState, goal_map: int | None) -> list[tuple[Trainer, str, int]]:
        """The unbeaten trainers with eyes on the maps near the player and the leg's goal: each as (map,
        object), its class's name and its party's number."""
        assert self.world is not None
        near = self.world.maps_near(state.overworld.map_id, NEAR_HOPS)
        if goal_map is not None and goal_map in self.world.maps:
            near |= self.world.maps_near(goal_map, NEAR_HOPS)
        found = []
        for map_id in sorted(near):
            for thing in self.world.maps[map_id].objects:
                beaten = thing.beaten_event
                if thing.trainer_class is None or thing.sight <= 0 or beaten is None or beaten < 0:
                    continue
                if beaten in state.story.event_flags or (
                    thing.toggle is not None and thing.toggle in state.story.hidden_objects
                ):
                    continue
                trainer = game_data().trainer_classes.get(thing.trainer_class - OPP_ID_OFFSET)
                if trainer is not None:
                    found.append(((map_id, thing.index), trainer.name, thing.trainer_number or 0))
        return found

    def healing_helps(
        self, state: GameState, leg: Leg, nurse_steps: Callable[[], int | None]
    ) -> tuple[str, Trainer] | None:
        """Why the team should see a nurse before this leg, and for whom: a trainer watches every way to
        the leg's goal, the team healed would likely beat it, and the chance healing adds, times
        DEFEAT_FRAMES, is more than the walk to the nurse and back (`nurse_steps`, asked only then: it
        plans a walk); None otherwise."""
        if self.world is None or isinstance(leg.goal, HereGoal) or leg.stop is not None:
            return None
        target = (leg.goal.map_id, leg.goal.index) if isinstance(leg.goal, ObjectGoal) else None
        steps: int | None = None
        for trainer, name, number in self._unbeaten_near(state, getattr(leg.goal, "map_id", None)):
            now = self._chance(state, name, number)
            then = self._chance(state, name, number, healed=True)
            if trainer == target or now is None or then is None or then < FEAR_BELOW:
                continue
            if (then - now) * DEFEAT_FRAMES <= NURSE_FRAMES:
                continue  # no walk to a nurse is short enough
            # The walks are planned only for a trainer whose odds healing turns: this runs on every leg.
            if not self._unavoidable(state, leg, (trainer,)):
                continue
            steps = nurse_steps() if steps is None else steps
            if steps is None:
                return None
            walk = 2 * steps * FRAMES_PER_STEP + NURSE_FRAMES
            if (then - now) * DEFEAT_FRAMES > walk:
                why = (f"{name} #{number} watches every way on, and the team beats it {now:.0%} of the time "
                       f"as it is, {then:.0%} healed, {steps} steps from a nurse")  # fmt: skip
                return why, trainer
        return None

    def _unavoidable(self, state: GameState, leg: Leg, trainers: tuple[Trainer, ...]) -> bool:
        """No walk to the leg's goal keeps out of these trainers' sight, while one that does not mind
        them reaches it."""
        assert self.world is not None
        around = surroundings(self.world, state)
        watched = feared_squares(self.world, state, trainers)
        try:
            target = target_for(self.world, around, leg.goal)
        except WorldError:
            return False
        walled = replace(around, blocked=around.blocked | watched)
        if Planner(self.world, walled, leg.intent).plan(target) is not None:
            return False
        return Planner(self.world, around, leg.intent).plan(target) is not None

    def _chance(self, state: GameState, name: str, number: int, healed: bool = False) -> float | None:
        team = tuple(
            (m.species_id, m.level, tuple(s.move_id for s in m.moves),
             None if healed else (m.hp, m.status, tuple(s.pp for s in m.moves)))
            for m in state.party
        )  # fmt: skip
        key = (team, name, number, healed)
        if key not in self._chances:
            if len(self._chances) >= KEPT:
                self._chances.clear()
            found = forecast(state, name, number, healed=healed)
            self._chances[key] = -1.0 if found is None else found
        chance = self._chances[key]
        return None if chance < 0 else chance
