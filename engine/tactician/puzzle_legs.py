"""Legs through the world's puzzles: the pilot hands a `search` step here, and this keeps what has been
tried (engine.puzzles) between legs and across checkpoints."""

from __future__ import annotations

from dataclasses import replace

from engine.frozen import Frozen
from engine.game.models import Direction, GameState
from engine.puzzles.boulders import Push, replay
from engine.puzzles.seafoam import (
    Drop,
    drop_floor,
    entry_for,
    exits,
    next_drop,
    pushes_for,
    resets_outside,
    seafoam_floors,
)
from engine.puzzles.seafoam import live_boulders as seafoam_boulders
from engine.puzzles.strength import BOULDER_SPRITE, advise, live_boulders, strength_floor, strength_floors
from engine.puzzles.switch_doors import MANSION_SWITCHES, mansion_maps, next_press, switch_on
from engine.puzzles.trash_cans import TrashCanSearch
from engine.story.graph import Step
from engine.world.errors import WorldError
from engine.world.goals import HereGoal, Leg, MapGoal, ObjectGoal, SquareGoal, ThingGoal
from engine.world.planner import Planner, Surroundings, Target, surroundings
from engine.world.targets import AwayTarget, MapTarget, target_for
from engine.world.world import STEPS, World

TRASH_GYM = "VERMILION_GYM"
OUTSIDE = "CINNABAR_ISLAND"  # where the mansion's doors lead out
# Victory Road's floors and the maps at its two ends: a plan through it stays among them.
VICTORY_ROAD_ENDS = ("ROUTE_23", "INDIGO_PLATEAU")
FIRST_FLOOR = "VICTORY_ROAD_1F"
WAY_OUT = "ROUTE_22"  # south of Route 23's badge checks: the rest of Kanto


class PuzzleSnapshot(Frozen):
    trash_cans: TrashCanSearch = TrashCanSearch()


class PuzzleGuide:
    def __init__(self, world: World | None) -> None:
        self.world = world
        self.trash_cans = TrashCanSearch()
        self._looking: tuple[int, tuple[int, int, int]] | None = None  # the can, and (x, y, facing) to look
        # A floor's plan of pushes: each push with where the boulders stand before it, and why.
        self._push_plan: tuple[int, tuple[tuple[frozenset[tuple[int, int]], Push], ...], str] | None = None
        # The square a Seafoam floor is to be entered at for a fall (its event), till the player stands there.
        self._seafoam_entry: tuple[str, tuple[int, int, int]] | None = None

    def leg(self, step: Step, state: GameState) -> Leg | None:
        """The next look for the step's puzzle; None when there is nothing to look at."""
        if step.puzzle == "switch_doors" and self.world is not None:
            return self._switch_leg(self.world, step, state)
        if step.puzzle == "seafoam" and self.world is not None:
            return self._seafoam_leg(self.world, state)
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

    def _seafoam_leg(self, world: World, state: GameState) -> Leg | None:
        """The next fall of the Seafoam Islands' boulders: to its floor, a push of the plan in hand, into the
        floor where pushes from there make it, or off the floor so that its boulders are put back."""
        drop = next_drop(world, state)
        if drop is None or drop.floor not in world.by_name:
            return None
        leg = self._seafoam_step(world, state, drop)
        inside = state.overworld.map_id in seafoam_floors(world)
        if leg is None or not inside or not resets_outside(world, state):
            return leg
        return leg.model_copy(update={"shut": exits(world)})  # never out to Route 20 halfway through

    def _seafoam_step(self, world: World, state: GameState, drop: Drop) -> Leg | None:
        floor_id = world.by_name[drop.floor].id
        why = f"boulder {drop.boulder} of {drop.floor} down the hole at {drop.hole}"
        entered = (
            self._seafoam_entry if self._seafoam_entry and self._seafoam_entry[0] == drop.event else None
        )
        here = state.overworld
        if entered is not None and (here.map_id, here.x, here.y) != entered[1]:
            # On the way to the square the floor is to be entered at: a battle on the way ends a leg off
            # the floor, and the nearest way onto it would be another entrance.
            map_id, x, y = entered[1]
            return Leg(
                goal=SquareGoal(map_id=map_id, x=x, y=y), reason=f"{why}: the floor entered at ({x}, {y})"
            )
        self._seafoam_entry = None
        if here.map_id != floor_id:
            return Leg(goal=MapGoal(map_id=floor_id), reason=f"to {drop.floor}: {why}")
        planned = self._planned_push(state)
        if planned is not None:
            return planned
        around = surroundings(world, state)
        now = seafoam_boulders(state)
        floor = drop_floor(world, around, drop, frozenset(now.values()))
        pushes = pushes_for(floor, (state.overworld.x, state.overworld.y), now, drop)
        if pushes:
            before = replay(now.values(), pushes, floor.holes)
            self._push_plan = (
                floor_id,
                tuple(zip(before, pushes, strict=True)),
                f"{why} ({len(pushes)} pushes)",
            )
            return self._planned_push(state)
        entry = entry_for(world, state, around, drop)
        if entry is not None:
            (map_id, x, y), count = entry
            self._seafoam_entry = (drop.event, (map_id, x, y))
            reason = f"{why}: {count} pushes from ({x}, {y}), the floor entered there, its boulders put back"
            return Leg(goal=SquareGoal(map_id=map_id, x=x, y=y), reason=reason)
        return self._leave_floor(world, state, around, f"{why}: no pushes from here; the floor is reset")

    def inside(self, state: GameState) -> bool:
        """The player is among a puzzle's floors (the mansion's, Victory Road's, the Seafoam Islands'), where
        the puzzle leads."""
        if self.world is None:
            return False
        floors = mansion_maps(self.world) | strength_floors(self.world) | seafoam_floors(self.world)
        return state.overworld.map_id in floors

    def through_boulders(self, leg: Leg, state: GameState) -> Leg:
        """Through Victory Road: `leg` if the boulders and their switches let it through, else the next
        push (or the floor to go to, or a floor left so that its boulders are put back)."""
        world = self.world
        if world is None or isinstance(leg.goal, HereGoal):
            return leg
        floors = strength_floors(world)
        area = floors | {world.by_name[name].id for name in VICTORY_ROAD_ENDS if name in world.by_name}
        inside, beyond = state.overworld.map_id in area, getattr(leg.goal, "map_id", None) not in area
        if not inside:
            return leg if beyond else self._into_victory_road(world, leg, state)
        around = replace(surroundings(world, state), within=area)
        try:
            target = target_for(world, around, leg.goal)
            if beyond:  # a Pokémon Center, say: only the way out to Route 22 has to be opened
                if Planner(world, replace(around, within=frozenset())).plan(target) is not None:
                    return leg
                out = world.by_name.get(WAY_OUT)
                if out is None:
                    return leg
                around, target = replace(around, within=area | {out.id}), MapTarget(out.id)
        except WorldError:
            return leg
        if Planner(world, around).plan(target) is not None:
            self._push_plan = None
            return leg
        here = state.overworld.map_id
        planned = self._planned_push(state)
        if planned is not None:
            return planned
        advice = advise(world, state, around, target)
        if advice is None:
            return leg
        if advice.pushes:
            floor = strength_floor(world, here)
            before = replay(live_boulders(state), advice.pushes, floor.holes)
            self._push_plan = (here, tuple(zip(before, advice.pushes, strict=True)), advice.why)
            return self._planned_push(state) or leg
        if advice.square is not None:
            map_id, x, y = advice.square
            return Leg(goal=SquareGoal(map_id=map_id, x=x, y=y), reason=advice.why)
        if advice.floor is not None and advice.floor != here:
            return Leg(goal=MapGoal(map_id=advice.floor), reason=advice.why)
        return self._leave_floor(world, state, around, advice.why) or leg

    def _planned_push(self, state: GameState) -> Leg | None:
        """The push of the plan in hand whose boulders stand as they do now (None off the plan)."""
        if self._push_plan is None or self._push_plan[0] != state.overworld.map_id:
            return None
        here, plan, why = self._push_plan
        now = live_boulders(state)
        for number, (before, push) in enumerate(plan):
            if before == now:
                (x, y), facing = push.boulder, push.direction
                goal = ThingGoal(map_id=here, x=x, y=y, facing=facing)
                reason = f"push the boulder at ({x}, {y}) {facing.value}, {number + 1} of {len(plan)}: {why}"
                return Leg(goal=goal, push=True, reason=reason)
        return None

    @staticmethod
    def _into_victory_road(world: World, leg: Leg, state: GameState) -> Leg:
        """From outside: `leg` if it can be walked as things are, else to Victory Road's first floor, where
        the boulders are dealt with."""
        first = world.by_name.get(FIRST_FLOOR)
        around = surroundings(world, state)
        try:
            if first is None or Planner(world, around).plan(target_for(world, around, leg.goal)) is not None:
                return leg
        except WorldError:
            return leg
        return leg.model_copy(update={"goal": MapGoal(map_id=first.id)})

    @staticmethod
    def _leave_floor(world: World, state: GameState, around: Surroundings, why: str) -> Leg | None:
        """Off this floor by its nearest way out, whichever map that is: entering again puts its boulders
        back where the map's data has them."""
        here = state.overworld.map_id
        plan = Planner(world, around).plan(AwayTarget(here))
        if plan is None or plan.end[0] == here:
            return None
        return Leg(goal=MapGoal(map_id=plan.end[0]), reason=why)

    def travelled(self, before: GameState, after: GameState) -> str | None:
        """Learn from a look that was made (the player stood where the look is made from); what a leg
        did for a puzzle that the story's tests do not see (a boulder pushed), or None."""
        self._look_learned(before, after)
        return self._pushed(before, after)

    def _pushed(self, before: GameState, after: GameState) -> str | None:
        if self.world is None or before.overworld.map_id != after.overworld.map_id:
            return None
        if after.overworld.map_id not in strength_floors(self.world) | seafoam_floors(self.world):
            return None
        was = {(s.index, s.x, s.y) for s in before.overworld.sprites if s.picture == BOULDER_SPRITE}
        moved = [
            s
            for s in after.overworld.sprites
            if s.picture == BOULDER_SPRITE and (s.index, s.x, s.y) not in was
        ]
        return f"pushed a boulder to ({moved[0].x}, {moved[0].y})" if moved else None

    def _look_learned(self, before: GameState, after: GameState) -> None:
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
