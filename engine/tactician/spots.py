"""Where the pilot trains: of the maps whose wild Pokémon give the member in front the most experience per
frame (engine/team/training.py), the best the planner can reach, its walk there spread over a stretch of
training; or, better still where one is near, a trainer not beaten yet that the team is sure to beat: a
trainer's Pokémon give half again as much and need no walking in the grass to meet. Chosen again when the
lead gains a level or the player is on another map, but a spot chosen elsewhere is kept until the player is
on it: each map sees the spots a few maps off, and a choice made afresh on the way can point back."""

from __future__ import annotations

from dataclasses import dataclass

from engine.combat.position import forecast
from engine.frozen import Frozen
from engine.game.decoders import ELITE_FOUR_MAPS
from engine.game.field_moves import usable_field_moves
from engine.game.models import GameState
from engine.game.tables import game_data
from engine.puzzles.seafoam import BOTTOM_FLOOR, seafoam_floors
from engine.puzzles.strength import strength_floors
from engine.tactician.by_air import by_air
from engine.tactician.explorer import LEG_SLACK, Explorer
from engine.team.training import Spot, ranked_spots, trainer_battle
from engine.world.goals import Leg, MapGoal
from engine.world.models import Square
from engine.world.tables import FLY_SPOTS, GHOST_SEER, OPP_ID_OFFSET, SLOPE_MAPS, no_ordinary_battle
from engine.world.world import World

CANDIDATES = 5  # the best spots on paper whose way there is planned
STRETCH = 20  # battles a walk to a spot is spread over
SPOT_HOPS = 3  # map edges and warps from the player's map that a training spot may be on
FRAMES_PER_STEP = 16
SEARCH_NODES = 20_000  # a spot further than this search reaches is not worth its walk
TRAINER_HOPS = 2  # map edges and warps from the player's map that a trainer to fight may be on
TRAINER_CANDIDATES = 5  # the richest trainers on paper whose way there is planned
SURE = 0.9  # a trainer is fought for experience only with this forecast, as the team is now
AIR_HOPS = 2  # map edges and warps from a visited town that a spot flown to may be on
FLIGHT_FRAMES = 400  # the party menu, the town map and the bird, spread over a stretch like a walk


@dataclass(frozen=True)
class Candidate:
    name: str
    number: int
    key: tuple[int, int]  # (map, object)
    square: Square
    exp: float
    frames: float


@dataclass(frozen=True)
class Held:
    """A spot chosen on another map than its own, and what it was chosen for."""

    spot: Spot
    avoid: frozenset[int]
    level: int
    events: int


class TrainerSpot(Frozen):
    """An unbeaten trainer worth fighting for experience: the leg to it and the experience per frame."""

    leg: Leg
    exp_per_frame: float
    trainer: str
    key: tuple[int, int]  # (map, object)


def puzzle_floors(world: World) -> frozenset[int]:
    """Floors no errand (training, a catch) is sent to. Victory Road's: their boulders, put back on every
    visit, can shut the way out (to a nurse above all). The Seafoam Islands': their holes drop one way to a
    bottom floor walled by currents; Red seed 31 trained there for the gauntlet, Blue seed 34 went in to
    catch a SLOWBRO, and both fell to B4F and found no walk out in 500 legs."""
    bottom = {data.id for name, data in world.by_name.items() if name == BOTTOM_FLOOR}
    return strength_floors(world) | seafoam_floors(world) | bottom


class SpotChooser:
    def __init__(self, world: World, explorer: Explorer) -> None:
        self.world = world
        self.explorer = explorer
        self._chosen: dict[tuple[int, int, bool, frozenset[int]], Spot | None] = {}
        # Maps the planner found no way to, and how many story events were set then (a gate may open).
        self._out_of_reach: dict[int, int] = {}
        self._trainers: dict[tuple[int, int, int], TrainerSpot | None] = {}
        self._puzzle_floors = puzzle_floors(world)
        # Trainers a hunt's walk could not reach (the plan saw a way the walk did not), and how many story
        # events were set then.
        self._unreached: dict[tuple[int, int], int] = {}
        self._held: Held | None = None
        # Whether a held spot's grass is in walking reach from a map, as the story stands (map, spot, events).
        self._reach: dict[tuple[int, int, int], bool] = {}

    def unreached(self, key: tuple[int, int], state: GameState) -> None:
        """A hunt's walk to this trainer moved the player nowhere: leave it out until the story moves on."""
        self._unreached[key] = len(state.story.event_flags)
        self._trainers = {}

    def best(self, state: GameState, avoid: frozenset[int] = frozenset()) -> Spot | None:
        """The spot to train at now, not on the `avoid` maps; None when no map with wild Pokémon is in
        reach. A spot chosen on another map is kept on the way to it, for the same lead level, story and
        `avoid`: Blue seed 174, after a defeat on Route 6, chose Route 10 from Route 11 and Route 11 from
        Route 6 (Route 10 is not within reach of its search there), and walked between them for 140,000
        frames."""
        lead = next((mon for mon in state.party if mon.hp > 0), None)
        if lead is None:
            return None
        here, events = state.overworld.map_id, len(state.story.event_flags)
        held = self._held
        same_aim = held is not None and (held.avoid, held.level, held.events) == (avoid, lead.level, events)
        if held is not None and same_aim and held.spot.map_id != here and self._reaches(state, held.spot):
            return held.spot
        found = self._fresh(state, lead.level, avoid)
        away = found is not None and found.map_id != here
        self._held = Held(found, avoid, lead.level, events) if found is not None and away else None
        return found

    def _fresh(self, state: GameState, level: int, avoid: frozenset[int]) -> Spot | None:
        """The spot chosen from the player's map, as if none were held."""
        seer = any(entry.name == GHOST_SEER for entry in state.bag)
        key = (state.overworld.map_id, level, seer, avoid)
        if key not in self._chosen:
            self._chosen[key] = self._choose(state, level, avoid)
        return self._chosen[key]

    def _reaches(self, state: GameState, spot: Spot) -> bool:
        if spot.by_air:
            return True  # flown to: no walk to plan
        key = (state.overworld.map_id, spot.map_id, len(state.story.event_flags))
        if key not in self._reach:
            self._reach[key] = self.explorer.grass_steps(state, {spot.map_id}, SEARCH_NODES) is not None
        return self._reach[key]

    def rate(self, state: GameState) -> float:
        """The best wild spot's experience per frame for the lead, its walk spread over a stretch, as
        chosen from here (a held spot is left as it is)."""
        lead = next((mon for mon in state.party if mon.hp > 0), None)
        found = self._fresh(state, lead.level, frozenset()) if lead is not None else None
        return found.exp_per_frame if found is not None else 0.0

    def trainer(self, state: GameState) -> TrainerSpot | None:
        """The unbeaten trainer near the player that gives the most experience per frame, walk included,
        among those the team as it is now is sure to beat; None when there is none."""
        lead = next((mon for mon in state.party if mon.hp > 0), None)
        if lead is None:
            return None
        key = (state.overworld.map_id, lead.level, len(state.story.event_flags))
        if key not in self._trainers:
            self._trainers = {key: self._hunt(state, lead.level)}
        return self._trainers[key]

    def _hunt(self, state: GameState, level: int) -> TrainerSpot | None:
        found = sorted(self._unbeaten(state, level), key=lambda c: -c.exp / c.frames)[:TRAINER_CANDIDATES]
        best: TrainerSpot | None = None
        for candidate in found:
            # Not through a closed story gate: a trainer behind Saffron's thirsty guards is out of reach.
            leg = self.explorer.nearest_talk(state, {candidate.key: candidate.square}, through_gates=False)
            if leg is None or (forecast(state, candidate.name, candidate.number) or 0.0) < SURE:
                continue
            rate = candidate.exp / (candidate.frames + (leg.max_steps - LEG_SLACK) * FRAMES_PER_STEP)
            if best is None or rate > best.exp_per_frame:
                who = f"{candidate.name} #{candidate.number}"
                why = f"fight {who} for experience ({rate:.2f} a frame, the walk included)"
                leg = leg.model_copy(update={"reason": why, "intent": "travel"})
                best = TrainerSpot(leg=leg, exp_per_frame=rate, trainer=who, key=candidate.key)
        return best

    def _unbeaten(self, state: GameState, level: int) -> list[Candidate]:
        """The trainers near the player not beaten yet (a scripted one, whose flag is no trainer's, left
        out), with what they would give a lead of this level."""
        found = []
        events = len(state.story.event_flags)
        for map_id in self.world.maps_near(state.overworld.map_id, TRAINER_HOPS) - self._puzzle_floors:
            if self.world.maps[map_id].name in ELITE_FOUR_MAPS:
                # The gauntlet is the boss trained for, not a trainer to train on: from the lobby LORELEI
                # looked sure, and Blue seed 33 walked in seven times "for experience", lost each time,
                # and each defeat raised the bar the real entry waits for.
                continue
            for thing in self.world.maps[map_id].objects:
                beaten = thing.beaten_event
                if thing.trainer_class is None or beaten is None or beaten < 0:
                    continue
                if thing.toggle is not None and thing.toggle in state.story.hidden_objects:
                    # Gone from the map though never beaten: Silph Co.'s Rockets leave with Giovanni, and
                    # Red seed 31 walked its floors for 208,000 frames after them, for 16 battles.
                    continue
                if self._unreached.get((map_id, thing.index)) == events:
                    continue
                trainer = game_data().trainer_classes.get(thing.trainer_class - OPP_ID_OFFSET)
                number = thing.trainer_number or 0
                party = _party(trainer.name, number) if trainer is not None else ()
                if trainer is None or not party or beaten in state.story.event_flags:
                    continue
                exp, frames = trainer_battle(party, level)
                square = (map_id, thing.x, thing.y)
                found.append(Candidate(trainer.name, number, (map_id, thing.index), square, exp, frames))
        return found

    def _choose(self, state: GameState, level: int, avoid: frozenset[int]) -> Spot | None:
        # No experience from Safari or ghost battles; a slope to ride up against after every battle.
        shut = no_ordinary_battle(entry.name for entry in state.bag) | SLOPE_MAPS
        near = self.world.maps_near(state.overworld.map_id, SPOT_HOPS)  # a spot further off leads elsewhere
        near -= self._puzzle_floors | avoid
        wild = {map_id: table for map_id, table in self.world.wild.items()
                if map_id in near and self.world.maps[map_id].name not in shut}  # fmt: skip
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
                best = (rate, spot.model_copy(update={"exp_per_frame": rate}))
        if best is None:
            return self._by_air(state, level, shut | {self.world.maps[m].name for m in avoid})
        return best[1]

    def _by_air(self, state: GameState, level: int, shut: set[str] | frozenset[str]) -> Spot | None:
        """With no spot in walking reach (the plateau, whose only grass is Victory Road's floors), the best
        one near a town FLY reaches, once a member can fly: the pilot's walk there becomes a flight."""
        if "FLY" not in usable_field_moves(state):
            return None
        near: set[int] = set()
        for town in state.story.towns_visited & FLY_SPOTS.keys():
            data = self.world.by_name.get(town)
            if data is not None:
                near |= self.world.maps_near(data.id, AIR_HOPS)
        near -= self._puzzle_floors
        wild = {map_id: table for map_id, table in self.world.wild.items()
                if map_id in near and self.world.maps[map_id].name not in shut}  # fmt: skip
        for spot in ranked_spots(wild, level)[:CANDIDATES]:
            walk = Leg(goal=MapGoal(map_id=spot.map_id))
            if by_air(self.world, state, walk) is walk:
                continue  # no flight gets there either (Cerulean Cave behind its guard)
            rate = STRETCH * spot.exp_per_battle / (STRETCH * spot.frames_per_battle + FLIGHT_FRAMES)
            return spot.model_copy(update={"exp_per_frame": rate, "by_air": True})
        return None


def _party(trainer: str | None, number: int) -> tuple[tuple[str, int], ...]:
    for party in game_data().trainer_parties:
        if party.trainer_class == trainer and party.number == number:
            return tuple((member.species, member.level) for member in party.party)
    return ()
