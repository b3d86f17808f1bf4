"""Legs through the world's puzzles: the pilot hands a `search` step here, and this keeps what has been
tried (engine.puzzles) between legs and across checkpoints."""

from __future__ import annotations

from engine.frozen import Frozen
from engine.game.models import GameState
from engine.puzzles.trash_cans import TrashCanSearch
from engine.story.graph import Step
from engine.world.goals import Leg, ThingGoal
from engine.world.world import STEPS, World

TRASH_GYM = "VERMILION_GYM"


class PuzzleSnapshot(Frozen):
    trash_cans: TrashCanSearch = TrashCanSearch()


class PuzzleGuide:
    def __init__(self, world: World | None) -> None:
        self.world = world
        self.trash_cans = TrashCanSearch()
        self._looking: tuple[int, tuple[int, int, int]] | None = None  # the can, and (x, y, facing) to look

    def leg(self, step: Step, state: GameState) -> Leg | None:
        """The next look for the step's puzzle; None when there is nothing to look at."""
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
