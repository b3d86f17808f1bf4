"""Items worth a detour: the item balls on the map the player is on whose item pays for the steps to it.

A speedrunner picks up what saves time later and walks past the rest. What an item is worth is counted in
steps: a RARE_CANDY is a level of the strongest member (many wild battles' worth of experience), a PP item
is a fight the gauntlet does not lose to empty moves, a TM is worth its detour only when the machine
planner would teach it (engine/team/machines.py: it raises the team's potential against the bosses ahead).
Everything else is left where it lies. Each ball is tried TRIES times at most.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.game.models import BagItem, GameState
from engine.game.tables import game_data
from engine.team.machines import MachinePlanner
from engine.team.planner import Bosses
from engine.world.goals import Leg
from engine.world.models import Square
from engine.world.world import World

# The most steps each item is worth walking for (a step is 16 frames on foot). Vitamins are not among them:
# a member that has fought long has the stat experience they give already (pret ItemUseVitamin refuses
# past 25,600).
WORTH_STEPS = {"RARE_CANDY": 80, "PP_UP": 40, "MAX_ELIXER": 60, "ELIXER": 50, "MAX_ETHER": 30, "ETHER": 25}
TM_STEPS = 1000  # a TM is worth this many steps for each whole rise of the potential it brings
TM_HOPS = 2  # a TM is looked for this many map edges and warps away, other items only on the map
LEG_SLACK = 30  # what a leg to a person allows beyond its plan (tactician/explorer.py)
# A walk to a ball is often cut short by a trainer who sees the player or the ship's scripts: on two Blue and
# Red runs both tries at Mt. Moon's MEGA PUNCH and the S.S. Anne's BODY SLAM ended in a battle or a script.
TRIES = 4
FAR_MARGIN = 20  # steps a ball planned from elsewhere on the same map may have come nearer

Nearest = Callable[[GameState, dict[tuple[int, int], Square]], Leg | None]
Feared = Callable[[GameState, int], bool]  # a trainer the team would likely lose to is near this map


class Collector:
    def __init__(self, world: World, machines: MachinePlanner) -> None:
        self.world = world
        self.machines = machines
        self.tries: dict[tuple[int, int], int] = {}
        # (the player's map, a ball): the steps to it last planned from that map (None: no way), so a ball
        # out of reach is not planned for again at every leg on the same map.
        self._far: dict[tuple[int, tuple[int, int]], int | None] = {}

    def leg(
        self, state: GameState, bosses: Bosses, nearest: Nearest, feared: Feared | None = None
    ) -> Leg | None:
        """A leg to the most worthwhile item ball on this map within its worth in steps; None if none. A
        ball near a trainer the team would likely lose to waits for a stronger team (`feared`): Red seed
        53 walked for a TM past a YOUNGSTER it had no chance against, lost, and trained 14,000 frames."""
        best: tuple[float, Leg] | None = None
        for key, name, square in self._balls(state):
            worth = self._worth(state, name, bosses)
            if (
                worth <= 0
                or self.tries.get(key, 0) >= TRIES
                or (feared is not None and feared(state, key[0]))
            ):
                continue
            if self._known_far(state, key, worth):
                continue
            leg = nearest(state, {key: square})
            steps = leg.max_steps - LEG_SLACK if leg is not None else None
            self._far[(state.overworld.map_id, key)] = steps
            if leg is None or steps is None or steps > worth:
                continue
            if best is None or worth - steps > best[0]:
                why = f"pick up the {name}, {steps} steps away (worth {worth})"
                best = (worth - steps, leg.model_copy(update={"reason": why}))
        if best is None:
            return None
        goal = best[1].goal
        key = (getattr(goal, "map_id", -1), getattr(goal, "index", -1))
        self.tries[key] = self.tries.get(key, 0) + 1
        return best[1]

    def _known_far(self, state: GameState, key: tuple[int, int], worth: float) -> bool:
        here = (state.overworld.map_id, key)
        if here not in self._far:
            return False
        steps = self._far[here]
        return steps is None or steps > worth + FAR_MARGIN

    def _balls(self, state: GameState) -> list[tuple[tuple[int, int], str, Square]]:
        """The item balls still lying on the player's map (its sprites show them), and the TMs on the maps
        near it (an item ball's toggle is set once it is taken): (map, object), the item, where it lies."""
        here = state.overworld.map_id
        shown = {sprite.index for sprite in state.overworld.sprites}
        found = []
        for map_id in self.world.maps_near(here, TM_HOPS):
            for thing in self.world.maps[map_id].objects:
                item = game_data().items.get(thing.item) if thing.item is not None else None
                if item is None or not item.name:
                    continue
                if map_id == here:
                    lying = thing.index in shown
                else:
                    taken = thing.toggle is not None and thing.toggle in state.story.hidden_objects
                    lying = item.name.startswith("TM_") and not taken
                if lying:
                    found.append(((map_id, thing.index), item.name, (map_id, thing.x, thing.y)))
        return found

    def _worth(self, state: GameState, name: str, bosses: Bosses) -> float:
        if name in WORTH_STEPS:
            return WORTH_STEPS[name]
        if not name.startswith("TM_") or not bosses:
            return 0
        held = BagItem(item_id=game_data().item_ids.get(name, 0), name=name, quantity=1)
        with_it = state.model_copy(update={"bag": (*state.bag, held)})
        lesson = self.machines.lesson(with_it, bosses)
        if lesson is None or lesson.item != name:
            return 0
        return TM_STEPS * (lesson.after - lesson.before)
