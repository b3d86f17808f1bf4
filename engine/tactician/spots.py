"""Where the pilot trains: of the maps whose wild Pokémon give the member in front the most experience per
frame (engine/team/training.py), the best the planner can reach, its walk there spread over a stretch of
training. Chosen again when the lead gains a level or the player is on another map."""

from __future__ import annotations

from engine.game.models import GameState
from engine.tactician.explorer import Explorer
from engine.team.training import Spot, ranked_spots
from engine.world.tables import GHOST_MAPS, GHOST_SEER, SAFARI_MAPS
from engine.world.world import World

CANDIDATES = 5  # the best spots on paper whose way there is planned
STRETCH = 30  # battles a walk to a spot is spread over
FRAMES_PER_STEP = 16
SEARCH_NODES = 20_000  # a spot further than this search reaches is not worth its walk


class SpotChooser:
    def __init__(self, world: World, explorer: Explorer) -> None:
        self.world = world
        self.explorer = explorer
        self._chosen: dict[tuple[int, int, bool], Spot | None] = {}
        # Maps the planner found no way to, and how many story events were set then (a gate may open).
        self._out_of_reach: dict[int, int] = {}

    def best(self, state: GameState) -> Spot | None:
        """The spot to train at now; None when no map with wild Pokémon is in reach."""
        lead = next((mon for mon in state.party if mon.hp > 0), None)
        if lead is None:
            return None
        key = (state.overworld.map_id, lead.level, any(entry.name == GHOST_SEER for entry in state.bag))
        if key not in self._chosen:
            self._chosen[key] = self._choose(state, lead.level)
        return self._chosen[key]

    def _choose(self, state: GameState, level: int) -> Spot | None:
        seer = any(entry.name == GHOST_SEER for entry in state.bag)
        shut = SAFARI_MAPS if seer else SAFARI_MAPS | GHOST_MAPS  # no experience from Safari or ghost battles
        wild = {map_id: table for map_id, table in self.world.wild.items()
                if self.world.maps[map_id].name not in shut}  # fmt: skip
        best: tuple[float, Spot] | None = None
        events = len(state.story.event_flags)
        reachable = [
            spot for spot in ranked_spots(wild, level) if self._out_of_reach.get(spot.map_id) != events
        ]
        for spot in reachable[:CANDIDATES]:
            steps = self.explorer.grass_steps(state, {spot.map_id}, max_nodes=SEARCH_NODES)
            if steps is None:
                self._out_of_reach[spot.map_id] = events
                continue
            frames = STRETCH * spot.frames_per_battle + steps * FRAMES_PER_STEP
            rate = STRETCH * spot.exp_per_battle / frames
            if best is None or rate > best[0]:
                best = (rate, spot)
        return best[1] if best is not None else None
