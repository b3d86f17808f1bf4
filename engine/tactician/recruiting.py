"""The pilot's recruiting: while the next boss is not yet forecast to fall, a wild species near at hand that
would bring it within reach (engine/team/recruits.py) is looked for on its map and caught, before any
training; a recruit not found within MAX_LEGS legs or MAX_SECONDS of the game clock is given up, and each
species is tried once per boss."""

from __future__ import annotations

from engine.experience.outcomes import clock_seconds
from engine.frozen import Frozen
from engine.game.models import GameState
from engine.story.graph import Step
from engine.tactician.explorer import Explorer
from engine.tactician.spots import puzzle_floors
from engine.team.changes import Recruit
from engine.team.recruits import BALLS, MAX_FRAMES_TO_MEET, recruits_for
from engine.world.goals import Leg
from engine.world.tables import no_ordinary_battle
from engine.world.world import World

HOPS = 4  # map edges and warps from the player's map that a recruit may be looked for within (a building's
# door is one of them)
MAX_LEGS = 40  # legs of looking before a recruit is given up
# ...and the game clock's seconds from the choice, other legs between them included: the hunt's legs may
# alternate with a trip's (Blue seed 139's RATICATE hunt with the HM02 trip), and a recruit is worth only
# the training it saves. Twice the longest expected wait to meet one (team/recruits.py MAX_FRAMES_TO_MEET).
MAX_SECONDS = 2 * MAX_FRAMES_TO_MEET // 60
CANDIDATES = 6  # the best recruits on paper whose way there is planned
MAX_STEPS = 200  # the longest walk to a recruit's grass
SEARCH_NODES = 20_000


class RecruitingSnapshot(Frozen):
    recruit: Recruit | None = None
    legs: int = 0
    began: int = 0  # the game clock's seconds when the recruit was chosen
    tried: tuple[str, ...] = ()


class Recruiting:
    def __init__(self, world: World, explorer: Explorer) -> None:
        self.world = world
        self.explorer = explorer
        self.recruit: Recruit | None = None
        self.legs = 0
        self.began = 0
        self.tried: set[str] = set()  # "boss species": recruits given up or caught
        self._weighed: set[tuple[object, ...]] = set()
        self.note = ""  # the last give-up or catch, for the next leg's reason
        self._puzzle_floors = puzzle_floors(world)

    def leg(self, state: GameState, boss: Step | None, bar: float | None) -> Leg | None:
        """A leg looking for the recruit on its map; None when there is none to look for."""
        if self.recruit is not None and self._joined(state):
            self.note = f"caught the {self.recruit.species} it recruited"
            self.recruit = None
        if self.recruit is None and boss is not None:
            self.recruit = self._choose(state, boss, boss.win_at if bar is None else bar)
            self.legs, self.began = 0, clock_seconds(state.progress.play_time)
        if self.recruit is None:
            return None
        spent = clock_seconds(state.progress.play_time) - self.began
        if self.legs >= MAX_LEGS or spent >= MAX_SECONDS:
            species = self.recruit.species
            self.note = f"gave up looking for a {species} after {self.legs} legs and {spent} s of play"
            self.recruit = None
            return None
        if not any(entry.name in BALLS and entry.quantity for entry in state.bag):
            # The balls ran out on the way: every one met now is fought, not caught (Red seed 39 threw its
            # last two POKé BALLs at a GASTLY and then knocked out eleven more over 40 legs).
            self.note = f"gave up looking for a {self.recruit.species}: no ball left"
            self.recruit = None
            return None
        self.legs += 1
        leg = self.explorer.training_leg(state, f"recruit: {self.recruit.reason}", {self.recruit.map_id})
        return leg.model_copy(update={"reason": f"recruit: {self.recruit.reason}"})

    def species(self) -> str | None:
        return self.recruit.species if self.recruit is not None else None

    def _joined(self, state: GameState) -> bool:
        assert self.recruit is not None
        return any(mon.species_name == self.recruit.species for mon in (*state.party, *state.box))

    def _choose(self, state: GameState, boss: Step, bar: float) -> Recruit | None:
        key = (boss.bar_key, state.overworld.map_id, tuple((m.species_id, m.level) for m in state.party))
        if key in self._weighed:
            return None
        self._weighed.add(key)
        shut = no_ordinary_battle(entry.name for entry in state.bag)
        maps = {
            m
            for m in self.world.maps_near(state.overworld.map_id, HOPS) - self._puzzle_floors
            if self.world.maps[m].name not in shut
        }
        # Of the recruits that reach the bar, the nearest; failing that, the one that lifts the forecast most.
        best: tuple[bool, int, Recruit] | None = None
        for found in recruits_for(state, self.world, maps, boss.forecast, bar)[:CANDIDATES]:
            if f"{boss.bar_key} {found.species}" in self.tried:
                continue
            steps = self.explorer.grass_steps(state, {found.map_id}, max_nodes=SEARCH_NODES)
            if steps is None or steps > MAX_STEPS:
                continue
            rank = (found.after < bar, steps if found.after >= bar else -round(100 * found.after), found)
            if best is None or rank[:2] < best[:2]:
                best = rank
        if best is None:
            return None
        self.tried.add(f"{boss.bar_key} {best[2].species}")
        return best[2]

    def snapshot(self) -> RecruitingSnapshot:
        return RecruitingSnapshot(recruit=self.recruit, legs=self.legs, began=self.began,
                                  tried=tuple(sorted(self.tried)))  # fmt: skip

    def restore(self, snapshot: RecruitingSnapshot) -> None:
        self.recruit, self.legs, self.began = snapshot.recruit, snapshot.legs, snapshot.began
        self.tried = set(snapshot.tried)
