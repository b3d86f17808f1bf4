"""Legs through the world's puzzles: the pilot hands a `search` step here, and this keeps what has been
tried (engine.puzzles) between legs and across checkpoints."""

from __future__ import annotations

from dataclasses import replace

from engine.frozen import Frozen
from engine.game.models import Direction, GameState
from engine.puzzles.switch_doors import MANSION_SWITCHES, mansion_maps, next_press, switch_on
from engine.puzzles.trash_cans import TrashCanSearch
from engine.story.graph import Step
from engine.world.errors import WorldError
from engine.world.goals import Leg, MapGoal, ObjectGoal, ThingGoal
from engine.world.planner import Planner, Target, surroundings
from engine.world.targets import MapTarget, target_for
from engine.world.world import STEPS, World

TRASH_GYM = "VERMILION_GYM"
OUTSIDE = "CINNABAR_ISLAND"  # where the mansion's doors lead out


class PuzzleSnapshot(Frozen):
    trash_cans: TrashCanSearch = TrashCanSearch()


class PuzzleGuide:
    def __init__(self, world: World | None) -> None:
        self.world = world
        self.trash_cans = TrashCanSearch()
        self._looking: tuple[int, tuple[int, int, int]] | None = None  # the can, and (x, y, facing) to look

    def leg(self, step: Step, state: GameState) -> Leg | None:
        """The next look for the step's puzzle; None when there is nothing to look at."""
        if step.puzzle == "switch_doors" and self.world is not None:
            return self._switch_leg(self.world, step, state)
        if step.puzzle != "trash_cans" or self.world is None or TRASH_GYM not in self.world.by_name:
            return None
        can = self.trash_cans.next_can(state)
        if can is None:
            return None
        gym = self.world.by_name[TRASH_GYM]
        x, y = TrashCanSearch.square(can)
        for direction, (dx, dy) in STEPS.items():
            if self.world.walkable(gym.id, x - dx, y - dy):
                self._looking = (can, (x - dx, y - dy, gym.id))
                why = (f"look in trash can {can} ({self.trash_cans.looks} looked in, "
                       f"{self.trash_cans.resets} resets)")  # fmt: skip
                return Leg(
                    goal=ThingGoal(map_id=gym.id, x=x, y=y, facing=direction), interact=True, reason=why
                )
        return None

    def _switch_leg(self, world: World, step: Step, state: GameState) -> Leg | None:
        """To the step's object if the doors let the player through, else to the secret switch whose
        press leads there with the fewest presses; None when no presses would."""
        data = world.by_name.get(step.map or "")
        if data is None or step.object is None:
            return None
        goal = ObjectGoal(map_id=data.id, index=step.object)
        leg = Leg(goal=goal, interact=True, answer=step.answer, reason=step.why)
        return self.through_switches(leg, state, always=True)

    def through_switches(self, leg: Leg, state: GameState, always: bool = False) -> Leg | None:
        """In the Pokémon Mansion: `leg` if the doors let it through (or, for a goal outside, let the
        player out), else a press of the secret switch on the fewest-press way there; None when no presses
        would help. With `always` (a goal inside), from outside: first into the mansion."""
        world = self.world
        if world is None:
            return leg
        floors = mansion_maps(world)
        if state.overworld.map_id not in floors:
            if not always:
                return leg
            entrance = world.by_name[MANSION_SWITCHES[0][0]].id
            return leg.model_copy(update={"goal": MapGoal(map_id=entrance), "interact": False})
        around = surroundings(world, state)
        outside = world.by_name.get(OUTSIDE)
        if getattr(leg.goal, "map_id", None) in floors or outside is None:
            try:
                target: Target = target_for(world, around, leg.goal)
            except WorldError:
                return leg
        else:  # a goal beyond the mansion: the doors only have to let the player out
            target, floors = MapTarget(outside.id), floors | {outside.id}
        around = replace(around, within=floors)  # an unreachable target: no search of the whole world
        if Planner(world, around).plan(target) is not None:
            return leg
        switch = next_press(world, state, around, target)
        if switch is None:
            return None
        map_id, x, y = switch
        on = "on" if not switch_on(state) else "off"
        why = f"press the mansion's secret switch at {world.maps[map_id].name} ({x}, {y}) to turn it {on}"
        goal_at = ThingGoal(map_id=map_id, x=x, y=y, facing=Direction.UP)
        return Leg(goal=goal_at, interact=True, answer="yes", reason=why)

    def travelled(self, before: GameState, after: GameState) -> None:
        """Learn from a look that was made (the player stood where the look is made from)."""
        where = after.overworld
        looking, self._looking = self._looking, None
        if where.map_name != TRASH_GYM:
            self.trash_cans = self.trash_cans.left_the_gym()
            return
        if looking is None:
            return
        can, (x, y, map_id) = looking
        if (where.map_id, where.x, where.y) == (map_id, x, y):
            self.trash_cans = self.trash_cans.looked(can, before, after)

    def snapshot(self) -> PuzzleSnapshot:
        return PuzzleSnapshot(trash_cans=self.trash_cans)

    def restore(self, snapshot: PuzzleSnapshot) -> None:
        self.trash_cans = snapshot.trash_cans
