"""The story pilot: turns the directive's objective into legs, step by step, and notices when it gets
nowhere.

Each step of the objective's plan becomes one leg through the world model's actions: go to a map, walk
into a story gate, talk to or fight a person, heal at the nearest Pokémon Center, buy at a Mart, walk in
tall grass to catch or train. After every leg the step's progress tests run (`story/progress.py`); when
none has passed for `stuck_legs` legs the pilot escalates, one stage per `stuck_legs` more: re-plan through
story gates, then let the explorer look around, then try another objective the graph allows, then start
over. Every escalation is in the leg's reason, so the run log says why.
"""

from __future__ import annotations

import logging

from pydantic import Field

from engine.battles.outcome import opponent_name
from engine.combat.chance import percent
from engine.combat.hits import OHKO, deals_damage
from engine.combat.search import LAST_ROOM
from engine.experience.outcomes import clock_seconds
from engine.frozen import Frozen
from engine.game.bag_room import has_room_for, least_needed
from engine.game.decoders import BOXES, ELITE_FOUR_MAPS, MONS_PER_BOX
from engine.game.field_moves import FIELD_MOVE_BADGES
from engine.game.mending import fighters, next_mend
from engine.game.models import Direction, GameState, PartyMon
from engine.game.stock import gauntlet_stock
from engine.game.tables import game_data
from engine.game.teaching import can_learn, choose_student, machine_move
from engine.puzzles.strength import strength_floors
from engine.story.conditions import party_hp
from engine.story.graph import GAUNTLET_KEY, Objective, Step, StoryGraph
from engine.story.progress import closer, progress
from engine.tactician.asides import Asides, Helpers
from engine.tactician.by_air import by_air
from engine.tactician.by_bike import by_bike
from engine.tactician.catching import owned
from engine.tactician.explorer import Explorer
from engine.tactician.fights import FightBook, FightBookSnapshot
from engine.tactician.puzzle_legs import PuzzleGuide, PuzzleSnapshot
from engine.tactician.recruiting import Recruiting, RecruitingSnapshot
from engine.tactician.spots import SpotChooser
from engine.tactician.wary import Wary
from engine.team.gauntlet import PROJECTED_GAINS, levels_to
from engine.team.planner import TeamPlanner, gauntlet
from engine.team.training import Spot
from engine.world.gates import closed_gates
from engine.world.goals import (
    Give,
    HereGoal,
    Leg,
    MapGoal,
    ObjectGoal,
    PcOrder,
    Purchase,
    SquareGoal,
    Teach,
    ThingGoal,
)
from engine.world.models import Square
from engine.world.planner import gate_squares
from engine.world.tables import PC_SQUARE, PC_SQUARES, no_ordinary_battle
from engine.world.world import World

HEALED_ENOUGH = 0.5  # once healed for an objective, the team goes back to a nurse only below this share
FIT = 0.8  # a fighter's HP share under which it is no fit for a boss
WORN = 0.1  # a boss's forecast this much under the healed team's: the team sees a nurse first
# ...and so does a strongest member with fewer uses of its attacks left than this: Blue seed 26, training
# for the gauntlet, walked its BLASTOISE with no PP into a BIRD KEEPER's battle and lost it to STRUGGLE.
DRY_PP = 3
HEAL_BELOW = 0.35  # party HP share under which a catch or training trip first goes to a Pokémon Center
# The first object of every Pokémon Center is its nurse, of every Mart its clerk (pret data/maps/objects).
COUNTER_PERSON = 1
# Buildings of a kind without its name: the Indigo Plateau's lobby has a nurse as its first object too (pret
# data/maps/objects/IndigoPlateauLobby.asm); beyond Victory Road it is the only one a walk reaches.
ALSO = {"_POKECENTER": ("INDIGO_PLATEAU_LOBBY",)}
# A defeat raises the forecast the boss's next try waits for by this much over the bar it was fought at
# (with LEVELS_AFTER_DEFEAT more levels). Not over the forecast after the defeat: the lost battle's
# experience lifts it, and Red seed 66, beaten by the rival on Route 22 at a bar of 50%, read 83% after it
# and was sent to train for 93%.
BAR_RAISE = 0.1
# ...but not the gauntlet's: its chain forecast holds against the chain played (benchmarks.gauntlet: 85%
# forecast, 83% finished over 30 plays from runs' own entries), so a loss at 70% is the three in ten it
# said, and the next entry waits for the same bar two levels on. Raised ten points, Red 38 and Blue 36 waited
# for 80% and spent 651,913 and 595,328 frames between the loss and the next entry.
GAUNTLET_BAR_RAISE = 0.0
# The chain's first entry waits for this forecast, not the step's 70%: an entry lost is cheap training (the
# plateau's nurse is the whiteout's, and its rooms give more experience a frame than the grass a lone fighter
# of L60 trains in), and the forecast is a floor. First entries of seeds 50-63 at 57-69% won 8 of 14, and
# Red 63 trained 650,000 frames from 3% to 66% before a first entry it won. A retry waits for the same bar,
# LEVELS_AFTER_DEFEAT on (battle_ended): waiting for the step's 70%, Blue seeds 156 and 159 trained half an
# hour after a loss for the forecast to go from 59% to 61% and from 60% to 62%, and ended at 5:11:35 and
# 5:07:32 of game time; retries at 59-70% won 3 of 4 on seeds 150-159.
FIRST_ENTRY_BAR = 0.5
MAX_BAR = 0.95
LEVELS_AFTER_DEFEAT = 2  # a boss that won is tried again only after the strongest member gains this many
UNREACHABLE = 2.0  # a bar no forecast reaches
MAX_IDLE = 500  # legs with nothing moving on (progress_mark) before the run stops and says why
MAX_IDLE_SECONDS = 3600  # the same in the game's own clock: an hour of play with nothing moving on
# Experience the team earns training for one boss before its forecast is not awaited.
MAX_TRAINING_EXP = 60_000
MAX_TRAINING = 12  # levels the strongest member trains for one boss before the forecast is no longer awaited
# ...and the game clock's seconds one budget lasts: a lone L55 fighter in L25 grass earns a level in many
# battles, and neither bound above ends its budget (Blue seed 115 trained 215,186 frames, an hour of play, for
# the gauntlet's forecast to go from 46% to 50%).
MAX_TRAINING_SECONDS = 15 * 60
# The game clock's seconds of training for one bar, budgets renewed by a rising forecast and projections
# included, after which the bar is not awaited any longer. Red seed 116 trained 290,000 frames after a loss
# for the gauntlet's forecast to rise from 54% to 66% against a bar of 70%, and Blue 115 311,591 frames.
MAX_TRAINING_TOTAL_SECONDS = 30 * 60
# The levels a defeat by a trainer the story does not need asks for are trained for at most this long:
# of 25 such stretches in seeds 173-180, 23 took 5,500-28,300 frames; Red seed 174 trained 101,038 frames
# in Route 5's grass for two levels of the party, with a WARTORTLE far above the grass in front.
MAX_CATCH_UP_SECONDS = 10 * 60
# ...unless the forecast rose this much over those levels: training still pays, and a new budget begins
# (Blue seed 26 gave up on the gauntlet at 41% after 60,000 experience that had raised it from 0%).
MIN_RISE = 0.1
log = logging.getLogger("engine.tactician")
STAGES = ("plan", "re-plan through story gates", "explore", "try another objective", "start over")


def _fought_next(objective: Objective, step: Step) -> Step | None:
    """The objective's boss step (a gym leader's, not the gauntlet's) once its training is behind: the
    boss is fought next."""
    trained = next((s for s in objective.steps if s.boss is not None and not s.gauntlet), None)
    return trained if trained is not None and step is not trained and step.do != "train" else None


def progress_mark(state: GameState) -> tuple[int, ...]:
    """What only grows while the play gets somewhere for good: event flags (a trainer beaten, an item
    taken, a scene played), towns visited, badges, levels, species owned."""
    return (
        len(state.story.event_flags), len(state.story.towns_visited), state.progress.badge_count,
        sum(mon.level for mon in state.party), state.progress.pokedex_owned,
    )  # fmt: skip


def fit(state: GameState) -> bool:
    """Every fighter (game/mending.py) awake and free of status, with most of its HP: fit for a boss."""
    return all(mon.hp > 0 and mon.status == "OK" and mon.hp >= FIT * mon.max_hp for mon in fighters(state))


def _fresh(objective: Objective, state: GameState) -> bool:
    """The boss's forecast with the team as it is (HP, status, PP) is close to the healed team's, which the
    plan waited for: a carrier whose CUT ran dry before ERIKA is no fighter the forecast counted on."""
    step = next((s for s in objective.steps if s.do == "train" and s.boss is not None), None)
    if step is None:
        return True
    now, healed = step.forecast_now(state), step.forecast(state)
    return now is None or healed is None or now >= healed - WORN


def party_levels(state: GameState) -> int:
    """The party's levels added up: what a defeat by a trainer no step trains for asks to grow."""
    return sum(mon.level for mon in state.party)


def game_seconds(state: GameState) -> int:
    """The game's own clock (wPlayTimeHours/Minutes/Seconds) in seconds."""
    return clock_seconds(state.progress.play_time)


def _planned_bars(graph: StoryGraph) -> dict[str, float]:
    """The bar each key's `train` step sets (the gauntlet's first entry waits for FIRST_ENTRY_BAR)."""
    steps = (step for objective in graph.objectives for step in objective.steps if step.do == "train")
    return {step.bar_key: step.win_at for step in steps if step.bar_key is not None} | {
        GAUNTLET_KEY: FIRST_ENTRY_BAR
    }


def _where(state: GameState) -> tuple[int, int, int]:
    return state.overworld.map_id, state.overworld.x, state.overworld.y


def needs_nurse(state: GameState) -> bool:
    """The team should see a nurse before anything else: little HP left in all, or the strongest member
    down or with its attacks run dry (the rest would only lose the next battle)."""
    strongest = max(state.party, key=lambda mon: mon.level, default=None)
    return party_hp(state) < HEAL_BELOW or (strongest is not None and (strongest.hp == 0 or _dry(strongest)))


def unworn_aside(aside: Leg | None, state: GameState) -> Leg | None:
    """An aside that walks waits while the team needs a nurse (the objective's leg goes to one first); one
    done where the player stands does not. Blue seed 53 walked for a RARE CANDY with its WARTORTLE down, met
    a BUG CATCHER with a PIDGEY L6, lost, and trained 10,000 frames before going on."""
    if aside is None or isinstance(aside.goal, HereGoal) or not needs_nurse(state):
        return aside
    return None


def _dry(mon: PartyMon) -> bool:
    """Its attacks have run (nearly) dry: a nurse would give back what it fights with (a member with no
    attack at all, an ABRA with TELEPORT, is not dry). A one-hit knock-out move's PP does not count: it
    misses seven times in ten and fails against a faster foe, and a run's BLASTOISE trained on with FISSURE
    alone, its other moves at 0 PP, through forty wild battles."""
    moves = game_data().moves_by_name
    known = [(slot, moves[slot.name]) for slot in mon.moves if slot.name in moves]
    attacks = [(slot, move) for slot, move in known if deals_damage(move)]
    steady = sum(slot.pp for slot, move in attacks if move.effect != OHKO)
    return bool(attacks) and steady < DRY_PP


def _worn_words(state: GameState) -> str:
    strongest = max(state.party, key=lambda mon: mon.level)
    if strongest.hp > 0 and _dry(strongest):
        name = strongest.species_name or "the strongest member"
        return f"{name}'s attacks have run dry"
    return f"the team is at {party_hp(state):.0%} HP"


class PilotSnapshot(Frozen):
    objective: str | None
    idle_legs: int
    detour: str | None
    puzzles: PuzzleSnapshot = PuzzleSnapshot()
    bars: dict[str, float] = Field(default_factory=dict)
    training_from: dict[str, int] = Field(default_factory=dict)
    training_exp: dict[str, int] = Field(default_factory=dict)
    training_chance: dict[str, float] = Field(default_factory=dict)
    training_clock: dict[str, int] = Field(default_factory=dict)
    training_began: dict[str, int] = Field(default_factory=dict)
    latest_chance: dict[str, float] = Field(default_factory=dict)
    floors: dict[str, int] = Field(default_factory=dict)
    projected: dict[str, int] = Field(default_factory=dict)
    catch_up: int = 0
    catch_up_since: int = 0  # the game clock (seconds) at the defeat that asked for `catch_up`
    shunned: int | None = None
    since_progress: int = 0
    progress_mark: tuple[int, ...] = ()
    progress_at: int = 0
    recruiting: RecruitingSnapshot = RecruitingSnapshot()
    fights: FightBookSnapshot = FightBookSnapshot()


class Pilot:
    def __init__(
        self,
        world: World | None,
        graph: StoryGraph,
        explorer: Explorer,
        stuck_legs: int,
        team: TeamPlanner | None = None,
    ) -> None:
        self.world = world
        self.graph = graph
        self.explorer = explorer
        self.stuck_legs = max(1, stuck_legs)
        self.objective: str | None = None
        self.idle_legs = 0
        self.detour: str | None = None
        self._step: Step | None = None
        self._nearest: int | None = None  # the fewest steps the step's target has been away, this step
        self._nearest_of: Step | None = None
        self.wary = Wary(world)  # the trainers a walk goes around, and the balls that wait near them
        # The pilot's own last leg: only its legs say how near the step's target is (the explorer's do not).
        self.last_leg: Leg | None = None
        self._shortcut = False  # the last leg was a shortcut's (FLY, the BICYCLE), not the step's own walk
        self.puzzles = PuzzleGuide(world)
        self.asides = Asides(world, graph, team) if world is not None else None
        self.spots = SpotChooser(world, explorer) if world is not None else None
        self._strength_floors = strength_floors(world) if world is not None else frozenset()
        self.recruiting = Recruiting(world, explorer) if world is not None else None
        self._changing_team = False  # the last leg was for the team or the bag, not the step's
        self._hunted: tuple[int, int] | None = None  # the trainer the last leg walked to fight, if any
        self._catching_up = False  # the last leg trained after a defeat
        # The forecast a boss (or the gauntlet) is trained for after a defeat, by the step's bar key.
        self.bars: dict[str, float] = {}
        # The strongest member's level when training for a bar key began (reset by a defeat).
        self.training_from: dict[str, int] = {}
        self.training_exp: dict[str, int] = {}  # the party's experience then
        self.training_chance: dict[str, float] = {}  # the forecast then
        self.training_clock: dict[str, int] = {}  # the game clock's seconds then
        self.training_began: dict[str, int] = {}  # ...when the first budget for the bar began
        self._told_out: set[str] = set()  # bars whose training time ran out, said once in the log
        self.latest_chance: dict[str, float] = {}  # the forecast at the last training leg
        # The level the strongest member reaches before a boss that won is tried again.
        self.floors: dict[str, int] = {}
        # The level at which the gauntlet's forecast reaches its bar by projection (team/gauntlet.levels_to),
        # worked out once a training budget is spent with the forecast flat (0: no projected level does).
        self.projected: dict[str, int] = {}
        # The party's levels added up that a defeat by a trainer no step trains for asks for (0: none).
        self.catch_up = 0
        self.catch_up_since = 0
        # The map of that defeat: no training there until the level is reached (the rival on Route 22
        # stands beside its grass and would be met again at once).
        self.shunned: int | None = None
        self.since_progress = 0  # legs since the play last moved on (progress_mark)
        self.progress_at = 0  # the game clock's seconds when it last did
        self._mark: tuple[int, ...] = ()
        self._wants: tuple[object, Step | None] | None = None  # boss_ahead for the team it was asked for
        self.healed: set[tuple[str, int]] = set()  # (objective, step index): heals done while it was in hand
        self.book = FightBook()  # the boss fights kept for later runs, and what earlier runs' fights say
        self._win_at = _planned_bars(graph)

    # -- choosing ----------------------------------------------------------------------------------
    def leg(self, state: GameState, objective_name: str) -> Leg | None:
        """The next leg for the objective; None leaves the choice to the explorer; a leg with `stop` when
        the play has not moved on for MAX_IDLE legs (the run stops and says why)."""
        idle_seconds = game_seconds(state) - self.progress_at if self.since_progress else 0
        if self.since_progress >= MAX_IDLE or idle_seconds >= MAX_IDLE_SECONDS:
            doing = self._step.words() if self._step is not None else "none"
            minutes = idle_seconds // 60
            why = (f"{objective_name}: nothing moved on in {self.since_progress} legs and {minutes} minutes "
                   f"of game time (no event, town, badge, level or member), the step in hand: "
                   f"{doing}")  # fmt: skip
            return Leg(goal=HereGoal(), stop=why, reason=why)
        if objective_name != self.objective:
            self.objective, self.idle_legs, self.detour = objective_name, 0, None
            self.healed = set()
        done = self.graph.done(state)
        stage = self.stage
        name = self._detour(state, done) if stage == "try another objective" else objective_name
        if name is None or name in done or self.world is None:
            return None
        objective = self.graph.named(name)
        for key in (step.bar_key for step in objective.steps if step.do == "train"):
            if key is not None:
                self.book.looked(key, state)
        self._review_training(objective, state)
        step = self.graph.next_step(
            objective, state, self._bars_now(state), self._healed_steps(objective, state)
        )
        self._step = step
        if step is None or stage == "explore":
            return None
        catch_up = self._catch_up_leg(state)
        self._catching_up = catch_up is not None
        if catch_up is not None:
            # Training after a defeat moves the step no nearer, and is no leg lost either (unless its walk
            # found no way at all: travelled).
            self._changing_team = True
            self.last_leg = catch_up
            return catch_up
        aside = None
        if self.asides is not None and stage == "plan" and not self.puzzles.inside(state):
            helpers = Helpers(counter=self._counter, at_pc=self._at_pc, nearest=self.explorer.nearest_talk,
                              feared=lambda at, goal_map: bool(self.wary.feared(at, goal_map)))  # fmt: skip
            wants = self.wants_experience(state)
            upcoming = _fought_next(objective, step)
            aside = self.asides.leg(state, step, done, helpers, self.boss_ahead(state), wants, upcoming)
        if (
            aside is None
            and self.recruiting is not None
            and stage == "plan"
            and not self.puzzles.inside(state)
        ):
            aside = self._recruit_leg(state)
        aside = unworn_aside(aside, state)
        self._changing_team = aside is not None
        if aside is not None:
            self.last_leg = by_air(self.world, state, aside) if self.world is not None else aside
            return self.last_leg
        leg = self._leg_for(objective, step, state, cross_gates=stage != "plan")
        if (
            leg is not None
            and leg.intent == "travel"
            and step.do != "fight"
            and not self.wants_experience(state)
        ):
            leg = leg.model_copy(update={"intent": "pass"})  # a trainer's battle on the way only costs time
        if leg is not None and step.do != "search" and not isinstance(leg.goal, HereGoal):
            # The mansion's doors, if the player is inside (a `search` leg has been through them already).
            leg = self.puzzles.through_switches(leg, state)
        if leg is not None:
            leg = self.puzzles.through_boulders(leg, state)  # Victory Road's boulders, if the player is there
        if leg is not None and not leg.cross_gates and self._on_closed_gate(state):
            leg = leg.model_copy(update={"cross_gates": True})  # a script left the player there: walk out
        planned = leg
        if leg is not None and not leg.push and not self.puzzles.inside(state):
            leg = by_air(self.world, state, leg)  # FLY instead of a long walk, once a member can
            leg = by_bike(self.world, state, leg)  # on the BICYCLE for a long ride, once it is in the bag
        # A flight, the walk out of doors before one, or getting on the bicycle ends where the step's
        # own walk does not: how far it left the player is no measure of the step's progress.
        self._shortcut = leg is not planned
        if leg is None:
            return None
        prefix = f"{objective.title}: {step.do}"
        if stage != "plan":
            prefix = f"stuck for {self.idle_legs} legs, {stage}; {prefix}"
        self.last_leg = leg.model_copy(update={"reason": f"{prefix} ({leg.reason or step.why})"})
        return self.last_leg

    @property
    def stage(self) -> str:
        return STAGES[min(self.idle_legs // self.stuck_legs, len(STAGES) - 1)]

    def explore_reason(self) -> str:
        """Why the explorer chooses now, when the pilot gave the choice away."""
        if self.stage == "explore":
            return f"stuck for {self.idle_legs} legs: explore"
        return ""

    def _detour(self, state: GameState, done: frozenset[str]) -> str | None:
        others = [
            objective.name for objective in self.graph.open(state, done) if objective.name != self.objective
        ]
        if self.detour not in others:
            self.detour = others[0] if others else None
        return self.detour

    def _leg_for(self, objective: Objective, step: Step, state: GameState, cross_gates: bool) -> Leg | None:
        room = self._room_for_item(step.gives, state) if step.gives is not None else None
        if room is not None:
            return room
        if step.do != "heal" and needs_nurse(state):
            why = f"heal first: {_worn_words(state)}"
            # Between the Elite Four's rooms the way back to the lobby's nurse is shut: the bag it is.
            inside = state.overworld.map_name in ELITE_FOUR_MAPS
            # On Victory Road's floors a nurse only a closed gate leads to is no nurse (its boulders do not
            # open for a walk to the lobby): the bag, else on as things are (a whiteout heals at the lobby).
            puzzled = state.overworld.map_id in self._strength_floors
            heal = (
                self._mend(state)
                if inside
                else self._counter(state, "_POKECENTER", None, why, through_gates=not puzzled)
            )
            if heal is None and puzzled:
                heal = self._mend(state)
            if heal is not None:
                return heal
        if (
            step.do == "fight"
            and self._boss_objective(objective)
            and not (fit(state) and _fresh(objective, state))
        ):
            # The gym's own trainers put the team to sleep, poison it and wear it down on the way: a boss is
            # fought by a fit team, mended from the bag where it can be, else at the nearest nurse (which
            # also gives back the PP a forecast of the healed team counted on).
            mend = self._mend(state)
            if mend is not None:
                return mend.model_copy(update={"reason": f"before the boss: {mend.reason}"})
            heal = self._counter(state, "_POKECENTER", None, "before the boss: the team is not fit to fight")
            if heal is not None:
                return heal
        if step.do == "train" and step.bar_key is not None:
            self._count_training(step.bar_key, step.forecast(state), state)
        if step.do in ("catch", "train"):
            chance = f" ({self._forecast_words(step, state)})" if step.boss or step.gauntlet else ""
            wanted = f" (one that can learn {machine_move(step.machine)})" if step.machine else ""
            if step.do == "catch" and len(state.party) >= 6 and state.progress.box_count >= MONS_PER_BOX:
                return self._new_box(state)
            if step.do == "catch" and step.machine is not None and len(state.party) >= 6:
                room = self._room_in_party(state)
                if room is not None:
                    return room
            if step.new:
                wanted = " (a species the Pokédex lacks)"
            hunt = self._trainer_to_fight(state) if step.do == "train" else None
            if hunt is not None:
                return hunt.model_copy(update={"reason": f"{step.do}{chance}: {hunt.reason}"})
            if step.do == "catch":
                return self.explorer.training_leg(
                    state, f"{step.do}{wanted}{chance}", self._catch_maps(step, state)
                )
            return self._training_leg(state, f"{step.do}{wanted}{chance}")
        if step.do == "teach":
            return self._teach(step, state)
        if step.do == "search":
            found = self.puzzles.leg(step, state)
            return (self._room_for(found.goal, state) or found) if found is not None else None
        if step.do == "heal" and step.bag:
            return self._mend(state)
        if step.do == "heal":
            return self._counter(state, "_POKECENTER", step.map, step.why)
        if step.do == "buy":
            return self._buy(step, state, cross_gates)
        if step.do == "gate":
            return self._gate(step, state)
        walk = self._walk(step, state, cross_gates)
        lesson = self._lesson_taken(objective, state) if walk is not None and step.do == "fight" else None
        return walk.model_copy(update={"reason": f"{walk.reason}; {lesson}"}) if walk and lesson else walk

    def _lesson_taken(self, objective: Objective, state: GameState) -> str | None:
        """The lesson that let the boss be fought short of the bar its step sets, in words; None when none
        did (the forecast meets the planned bar, or no earlier fight lowered it)."""
        train = next((step for step in objective.steps if step.do == "train" and step.bar_key), None)
        found = self.book.calibration.of(train.bar_key or "") if train and self.book.calibration else None
        if train is None or found is None or found.gap <= 0:
            return None
        planned = self.bars.get(found.key, self._win_at.get(found.key, train.win_at))
        chance = train.forecast(state)
        return found.words(planned) if chance is not None and chance < planned else None

    def _buy(self, step: Step, state: GameState, cross_gates: bool) -> Leg | None:
        """A leg to the step's clerk or vending machine with what to buy: its own items, or the stock the
        money and the bag call for (nothing left to buy: no leg)."""
        items = step.items
        if step.stock is not None:
            items = tuple(Purchase(item=item, quantity=n) for item, n in gauntlet_stock(state))
            if not items:
                return None
        # A kind of item the bag does not hold needs a free place in it.
        room = next(filter(None, (self._room_for_item(p.item, state) for p in items)), None)
        if room is not None:
            return room
        if step.thing is not None:  # a vending machine
            machine = self._walk(step, state, cross_gates)
            return machine.model_copy(update={"buy": items, "interact": False}) if machine else None
        leg = self._counter(state, "_MART", step.map, step.why, step.object or COUNTER_PERSON)
        return leg.model_copy(update={"buy": items}) if leg is not None else None

    def _catch_maps(self, step: Step, state: GameState) -> frozenset[int] | None:
        """Where to look for the wild Pokémon the step wants: its map, or the maps whose grass has a
        species not owned yet (or one that can learn the step's TM or HM); None: any grass."""
        if self.world is None:
            return None
        where = self.world.by_name.get(step.map or "")
        if where is not None:
            return frozenset({where.id})
        if not step.new and step.machine is None:
            return None

        def wanted(name: str) -> bool:
            new = not step.new or not owned(state, name)
            return new and (step.machine is None or can_learn(name, step.machine))

        # No ordinary ball is thrown in the Safari Zone (its battles only run), nor at an unseen ghost: a
        # hunt for new species sent there ran from 629 wild battles and caught nothing.
        shut = no_ordinary_battle(entry.name for entry in state.bag)
        found = frozenset(
            map_id
            for map_id, species in self.world.wild_grass.items()
            if self.world.maps[map_id].name not in shut and any(wanted(name) for name in species)
        )
        return found or None

    def _catch_up_leg(self, state: GameState) -> Leg | None:
        """After losing to a trainer no step trains for: training (the best trainer or grass near) until the
        party has gained the levels the defeat asked for; a team to heal heals first."""
        if not self._catching_up_to(state) or self.world is None or needs_nurse(state):
            return None
        if game_seconds(state) - self.catch_up_since > MAX_CATCH_UP_SECONDS:
            log.info(
                "plan: %d minutes of game time trained after a defeat and the party has %d of the %d levels "
                "in all it asked for: it goes on",
                MAX_CATCH_UP_SECONDS // 60,
                party_levels(state),
                self.catch_up,
            )
            self.catch_up = 0
            return None
        why = f"after a defeat, train the party to {self.catch_up} levels in all before going on"
        # Away from the map of the defeat, as the grass is: Blue seed 172, beaten by YOUNGSTER #1 where he
        # watches Route 3's entry, was sent from Pewter to a BUG CATCHER past him, met him again on the
        # way, and lost to him three times in a row.
        hunt = self._trainer_to_fight(state, self.shunned)
        if hunt is not None:
            return hunt.model_copy(update={"reason": f"{why}: {hunt.reason}"})
        return self._training_leg(state, why)

    @staticmethod
    def _boss_objective(objective: Objective) -> bool:
        return any(step.boss is not None for step in objective.steps)

    @classmethod
    def _fights_guarded(cls, objective: Objective) -> bool:
        """A boss's objective (not the gauntlet's, healed in its lobby) whose battles are `fight` steps,
        each of which sees to a fit team before it starts."""
        gauntlet = any(step.gauntlet for step in objective.steps)
        fights = any(step.do == "fight" for step in objective.steps)
        return cls._boss_objective(objective) and fights and not gauntlet

    def _recruit_leg(self, state: GameState) -> Leg | None:
        """A look for a wild species that brings the next story boss within reach (not the gauntlet's:
        five bosses are no one species' gap); never with a team that should heal first."""
        assert self.recruiting is not None
        if needs_nurse(state):
            return None
        boss = self.boss_ahead(state)
        if boss is not None and boss.gauntlet:
            boss = None
        bar = self._bars_now(state).get(boss.bar_key or "") if boss is not None else None
        return self.recruiting.leg(state, boss, bar)

    def _healed_steps(self, objective: Objective, state: GameState) -> frozenset[int]:
        """The objective's heals done once already while it was in hand: those before a walk (`on_the_way`),
        and those of a boss's objective, whose fights see to a fit team themselves (`_leg_for`: the bag
        first, the nurse only when the bag has nothing). A walk back to the nurse for every scratch costs
        more than it saves: Giovanni's hideout sent the team up the elevator and back for each of its
        three fights (about 20,000 frames a trip). A team in real danger still heals first
        (HEALED_ENOUGH and HEAL_BELOW)."""
        guarded = self._fights_guarded(objective)
        for at, step in enumerate(objective.steps[:-1]):
            once = step.on_the_way or (guarded and not step.bag and step.map is None)
            if step.do == "heal" and once and step.done(state):
                self.healed.add((objective.name, at))
        if party_hp(state) < HEALED_ENOUGH:
            return frozenset()
        return frozenset(at for name, at in self.healed if name == objective.name)

    def _bars_now(self, state: GameState) -> dict[str, float]:
        """The bars the steps wait for: those raised after defeats (FIRST_ENTRY_BAR for the gauntlet before
        one), and none for a boss whose training has already raised the strongest member by MAX_TRAINING
        levels or the team by MAX_TRAINING_EXP (a
        forecast that training does not move is not waited for any longer: the fight will show what is
        missing, and a late level costs many battles). A budget over which the forecast rose by MIN_RISE is
        renewed instead (`_count_training`)."""
        top = max((mon.level for mon in state.party), default=0)
        bars = self._plain_bars()
        for key, floor in self.floors.items():
            if top < floor:
                bars[key] = UNREACHABLE  # below the level a defeat asked for: train, whatever the forecast
        for key in self.training_from:
            if self._budget_spent(key, state) and not self._rising(key) and top >= self.projected.get(key, 0):
                bars[key] = 0.0
            if self._trained_out(key, state):
                bars[key] = 0.0
        return bars

    def _plain_bars(self) -> dict[str, float]:
        """The forecasts the steps wait for, before levels and budgets: raised after defeats, moved by what
        earlier runs' fights say (FIRST_ENTRY_BAR for the gauntlet before a defeat)."""
        bars = {GAUNTLET_KEY: FIRST_ENTRY_BAR, **self.bars}
        for found in self.book.calibration.keys if self.book.calibration is not None else ():
            if found.key in bars or found.key in self._win_at:
                bars[found.key] = found.bar(bars.get(found.key, self._win_at[found.key]))
        return bars

    def _budget_spent(self, key: str, state: GameState) -> bool:
        top = max((mon.level for mon in state.party), default=0)
        earned = sum(mon.exp for mon in state.party)
        start = self.training_from.get(key, top)
        played = game_seconds(state) - self.training_clock.get(key, game_seconds(state))
        return (
            top - start >= MAX_TRAINING
            or earned - self.training_exp.get(key, earned) >= MAX_TRAINING_EXP
            or played >= MAX_TRAINING_SECONDS
        )

    def _trained_out(self, key: str, state: GameState) -> bool:
        """MAX_TRAINING_TOTAL_SECONDS of the game clock trained for the bar: it is not awaited any longer,
        whatever the forecast, a projection or a defeat's level asks."""
        began = self.training_began.get(key)
        return began is not None and game_seconds(state) - began >= MAX_TRAINING_TOTAL_SECONDS

    def _rising(self, key: str) -> bool:
        """The forecast rose by MIN_RISE over the budget, and is still short of the bar: a forecast that
        meets it while a defeat's levels hold the fight back earns no new budget (Blue seed 124 trained
        half an hour for the two levels Route 22's rival asked, its forecast 58% to 94% against 60%)."""
        latest = self.latest_chance.get(key)
        if latest is None or latest >= self._plain_bars().get(key, self._win_at.get(key, UNREACHABLE)):
            return False
        return latest - self.training_chance.get(key, latest) >= MIN_RISE

    def _review_training(self, objective: Objective, state: GameState) -> None:
        """Before the bars are read: a training budget just spent is weighed by the forecast now."""
        for step in objective.steps:
            key = step.bar_key
            if step.do == "train" and key in self.training_from and self._budget_spent(key, state):
                self._count_training(key, step.forecast(state), state)
                spent = self._budget_spent(key, state) and not self._rising(key)
                if step.gauntlet and key is not None and spent and key not in self.projected:
                    self._project(key, step, state)
            if key is None or key in self._told_out or not self._trained_out(key, state):
                continue
            self._told_out.add(key)
            if not step.done(state, UNREACHABLE):  # beaten already: nothing to tell
                what = "the Elite Four and the Champion" if step.gauntlet else key
                log.info(
                    "plan: %d minutes of game time trained for %s and the forecast is %s: it is fought as "
                    "the team is",
                    MAX_TRAINING_TOTAL_SECONDS // 60,
                    what,
                    percent(self.latest_chance.get(key, 0.0)),
                )

    def _project(self, key: str, step: Step, state: GameState) -> None:
        """A gauntlet budget spent with the forecast flat: the level at which the forecast would reach the
        bar, if a few more levels do it, is trained for before the chain is entered; else it is entered."""
        bar = self._plain_bars().get(key, FIRST_ENTRY_BAR)  # as `_rising` reads it: calibration included
        if self.latest_chance.get(key, 0.0) >= bar:
            # Met already (a defeat's levels held the entry back): no level to project, the spent budget
            # lets the chain be entered. The projection starts at four levels more, and sent Red seed 126,
            # at 84% against 70%, on to L69.
            self.projected[key] = 0
            return
        top = max((mon.level for mon in state.party), default=0)
        gain = levels_to(state, gauntlet(state), bar, gauntlet_stock(state))
        self.projected[key] = top + gain if gain is not None else 0
        now = percent(self.latest_chance.get(key, 0.0))
        if gain is None:
            log.info(
                "plan: training left the gauntlet's forecast at %s; no level up to L%d reaches %.0f%%: "
                "the chain is entered as the team is",
                now,
                top + PROJECTED_GAINS[-1],
                bar * 100,
            )
        else:
            log.info(
                "plan: training left the gauntlet's forecast at %s; at L%d it reaches %.0f%% by "
                "projection: training on to L%d first",
                now,
                top + gain,
                bar * 100,
                top + gain,
            )

    def _count_training(self, key: str, chance: float | None, state: GameState) -> None:
        """Where training for `key` began, or begins again: a budget spent while the forecast rose by
        MIN_RISE starts a new one from here (bounded: a forecast can rise only so many times)."""
        self.latest_chance[key] = chance or 0.0
        if key in self.training_from and not (self._budget_spent(key, state) and self._rising(key)):
            return
        self.training_from[key] = max((mon.level for mon in state.party), default=0)
        self.training_exp[key] = sum(mon.exp for mon in state.party)
        self.training_chance[key] = chance or 0.0
        self.training_clock[key] = game_seconds(state)
        self.training_began.setdefault(key, game_seconds(state))

    def _trainer_to_fight(self, state: GameState, away_from: int | None = None) -> Leg | None:
        """An unbeaten trainer near at hand when it gives more experience per frame than the best grass (not
        on the map `away_from`)."""
        if self.spots is None:
            return None
        hunt = self.spots.trainer(state)
        if hunt is None or hunt.exp_per_frame <= self.spots.rate(state) or hunt.key[0] == away_from:
            return None
        self._hunted = hunt.key
        return hunt.leg

    def _training_leg(self, state: GameState, why: str) -> Leg:
        """A walk to the grass of the map with the most experience per frame for the lead, in reach (not the
        map of a defeat still being trained for; the nearest grass when none is known); a flight towards it
        when no walk reaches it (leg() turns the long walk into one)."""
        found = self._training_spot(state)
        if found is not None and found.by_air and self.world is not None:
            name = self.world.maps[found.map_id].name
            why = f"{why}: to {name} by air to train ({found.exp_per_frame:.2f} a frame)"
            return Leg(goal=MapGoal(map_id=found.map_id), reason=why)
        where = frozenset({found.map_id}) if found is not None else None
        return self.explorer.training_leg(state, why, where)

    def _training_spot(self, state: GameState) -> Spot | None:
        if self.spots is None:
            return None
        shunned = self.shunned if self._catching_up_to(state) else None
        avoid = frozenset({shunned}) if shunned is not None else frozenset()
        return self.spots.best(state, avoid)

    def _catching_up_to(self, state: GameState) -> bool:
        """Whether a defeat's levels are still owed. Counted over the party, not on the strongest member:
        training raises the lead, and Red 37's lead (VILEPLUME L23) trained 15 levels, 400,000 frames, for
        a BLASTOISE L36 to reach L38 after a CHANNELER's GASTLY won."""
        return bool(self.catch_up) and party_levels(state) < self.catch_up

    @staticmethod
    def _teach(step: Step, state: GameState) -> Leg | None:
        """A leg that walks nowhere and teaches the step's machine by the teaching rule (game/teaching)."""
        lesson = choose_student(state, step.machine or "")
        if lesson is None or step.machine is None:
            return None
        teach = Teach(item=step.machine, member=lesson.member, forget=lesson.forget, reason=lesson.reason)
        return Leg(goal=HereGoal(), teach=teach, reason=lesson.reason)

    def _walk(self, step: Step, state: GameState, cross_gates: bool) -> Leg | None:
        assert self.world is not None
        data = self.world.by_name.get(step.map or "")
        if data is None:
            return None
        goal: ObjectGoal | ThingGoal | None = None
        if step.object is not None:
            goal = ObjectGoal(map_id=data.id, index=step.object)
        elif step.thing is not None:
            x, y, facing = step.thing
            goal = ThingGoal(map_id=data.id, x=x, y=y, facing=facing)
        room = self._room_for(goal, state)
        if room is not None:
            return room
        if goal is not None and step.use is not None:
            return Leg(goal=goal, use=step.use, cross_gates=cross_gates, reason=step.why)
        if goal is not None:
            return Leg(goal=goal, interact=True, answer=step.answer, cross_gates=cross_gates, reason=step.why)
        if state.overworld.map_id == data.id:
            return None  # here already: what the objective waits for is not on the way
        return Leg(goal=MapGoal(map_id=data.id), cross_gates=cross_gates, reason=step.why)

    def _room_for(self, goal: object, state: GameState) -> Leg | None:
        """A toss first when the leg ends at an item ball whose item the full bag has no room for."""
        if not isinstance(goal, ObjectGoal) or self.world is None:
            return None
        found = next((o for o in self.world.maps[goal.map_id].objects if o.index == goal.index), None)
        known = game_data().items.get(found.item) if found is not None and found.item is not None else None
        return self._room_for_item(known.name, state) if known is not None and known.name else None

    @staticmethod
    def _room_for_item(item: str, state: GameState) -> Leg | None:
        """A toss first when the bag has no room for `item` (a gift, an item ball); None when it has."""
        toss = None if has_room_for(state, item) else least_needed(state)
        if toss is None:
            return None
        why = f"the bag is full: toss {toss[1]} {toss[0]} to make room for the {item}"
        return Leg(goal=HereGoal(), toss=toss, reason=why)

    def _on_closed_gate(self, state: GameState) -> bool:
        """The player stands where a closed gate is (a current carried them onto its water)."""
        assert self.world is not None
        here = state.overworld
        return any((here.map_id, here.x, here.y) in set(gate_squares(self.world, gate))
                   for gate in closed_gates(state) if gate.map_name == here.map_name)  # fmt: skip

    def _gate(self, step: Step, state: GameState) -> Leg | None:
        assert self.world is not None
        where = state.overworld
        squares = [square for gate in closed_gates(state) if gate.map_name == step.map
                   for square in gate_squares(self.world, gate) if self.world.walkable(*square)]  # fmt: skip
        if not squares:
            return None
        square = min(squares, key=lambda s: (s[0] != where.map_id, abs(s[1] - where.x) + abs(s[2] - where.y)))
        goal = SquareGoal(map_id=square[0], x=square[1], y=square[2])
        return Leg(goal=goal, cross_gates=True, reason=step.why)

    def nearest_center(self, state: GameState) -> Leg | None:
        """A leg to the nurse of the nearest Pokémon Center the planner can reach (an option offered to
        a model at the decisions level)."""
        if self.world is None:
            return None
        return self._counter(state, "_POKECENTER", None, "heal the team")

    @staticmethod
    def _mend(state: GameState) -> Leg | None:
        """An item from the bag on a member, where the step heals without a Pokémon Center."""
        mend = next_mend(state)
        if mend is None:
            return None
        give = Give(item=mend.item, member=mend.member)
        return Leg(goal=HereGoal(), give=give, reason=f"{mend.item} from the bag: {mend.why}")

    def _counter(
        self,
        state: GameState,
        kind: str,
        map_name: str | None,
        why: str,
        person: int = COUNTER_PERSON,
        through_gates: bool = True,
    ) -> Leg | None:
        """A leg to the nurse or clerk (`person`, the map's object) of the named building, or of the
        nearest one of its kind the planner can reach."""
        assert self.world is not None
        names = (
            [map_name]
            if map_name
            else [
                data.name
                for data in self.world.maps.values()
                if data.name.endswith(kind) or data.name in ALSO.get(kind, ())
            ]
        )
        people: dict[tuple[int, int], Square] = {}
        for name in names:
            data = self.world.by_name.get(name)
            if data is None or not data.objects:
                continue
            found = data.objects[person - 1]
            people[(data.id, person)] = (data.id, found.x, found.y)
        leg = self.explorer.nearest_talk(state, people, through_gates) if people else None
        if leg is None:
            return None
        return leg.model_copy(update={"intent": "travel", "answer": "yes", "reason": why})

    def nurse_first(self, state: GameState, why: str) -> Leg | None:
        """A walk to the nearest Pokémon Center's nurse before the step's leg, as an aside (neither progress
        nor a leg lost); None when no nurse is in reach."""
        leg = self._counter(state, "_POKECENTER", None, why)
        if leg is not None:
            self._changing_team = True
            self.last_leg = leg
        return leg

    def _new_box(self, state: GameState) -> Leg | None:
        """The party and the PC box are full, so no ball would be thrown: the nearest Pokémon Center's PC,
        to make the next box the current one (the game saves itself then)."""
        box = (state.progress.box_number + 1) % BOXES
        why = f"the party and box {state.progress.box_number + 1} are full: change to box {box + 1} at the PC"
        return self._at_pc(state, PcOrder(change_box=box), why)

    def _room_in_party(self, state: GameState) -> Leg | None:
        """A catch meant to join the party (one that can learn a TM or HM) would go to the box with six
        members: the lowest-levelled member that knows no field move goes into the box first."""
        spare = [(mon.level, at) for at, mon in enumerate(state.party)
                 if at > 0 and not any(slot.name in FIELD_MOVE_BADGES for slot in mon.moves)]  # fmt: skip
        if not spare or state.progress.box_count >= MONS_PER_BOX:
            return None
        level, member = min(spare)
        name = state.party[member].species_name
        why = f"six members: {name} (L{level}) into the box, so the one caught joins the party"
        return self._at_pc(state, PcOrder(deposit=member), why)

    def _at_pc(self, state: GameState, order: PcOrder, why: str) -> Leg | None:
        center = self._counter(state, "_POKECENTER", None, why)
        if center is None or not isinstance(center.goal, ObjectGoal) or self.world is None:
            return None
        name = self.world.maps[center.goal.map_id].name
        x, y = PC_SQUARES.get(name, PC_SQUARE)
        goal = ThingGoal(map_id=center.goal.map_id, x=x, y=y, facing=Direction.UP)
        return Leg(goal=goal, pc=order, reason=why)

    def _forecast_words(self, step: Step, state: GameState) -> str:
        chance = step.forecast(state)
        shown = "unknown" if chance is None else percent(chance)
        bar = self._bars_now(state).get(step.bar_key or "", step.win_at)
        boss = step.boss[0] if step.boss is not None else "the boss"
        against = "to finish the Elite Four and the Champion" if step.gauntlet else f"to win against {boss}"
        floor = self.floors.get(step.bar_key or "")
        until = f"L{floor}" if bar >= UNREACHABLE and floor is not None else f"{bar:.0%}"
        projected = self.projected.get(step.bar_key or "", 0)
        if projected > max((mon.level for mon in state.party), default=0):
            until = f"{until} (L{projected} reaches it by projection)"
        found = self.book.calibration.of(step.bar_key or "") if self.book.calibration is not None else None
        if found is not None and 0 < bar < UNREACHABLE:
            until = f"{until}; {found.words(self.bars.get(found.key, self._win_at.get(found.key, bar)))}"
        return f"{shown} {against}, training until {until}"

    # -- defeats -----------------------------------------------------------------------------------
    def battle_ended(self, outcome: str, opponent: str, state: GameState) -> str | None:
        """After a boss won against us: raise the forecast its next try waits for, and say so; None when
        the battle changes no plan."""
        self._fight_over(outcome, opponent, state)
        if outcome != "defeat":
            return None
        step = self._boss_step(opponent, state)
        top = max((mon.level for mon in state.party), default=0)
        if step is None or step.bar_key is None:
            if " #" not in opponent:
                return None  # a wild Pokémon: the heal after the whiteout is change enough
            self.catch_up = max(self.catch_up, party_levels(state) + LEVELS_AFTER_DEFEAT)
            self.catch_up_since = game_seconds(state)
            self.shunned = state.overworld.map_id
            then = f"the team trains {LEVELS_AFTER_DEFEAT} levels (to {self.catch_up} in all) before going on"
            return f"lost to {opponent}, a trainer the story does not train for: {then}"
        key = step.bar_key
        chance = step.forecast(state)
        before = max(self._win_at.get(key, step.win_at), self.bars.get(key, 0.0))
        raise_by = GAUNTLET_BAR_RAISE if key == GAUNTLET_KEY else BAR_RAISE
        self.bars[key] = min(MAX_BAR, before + raise_by)
        self.floors[key] = top + LEVELS_AFTER_DEFEAT
        for kept in (self.training_from, self.training_exp, self.training_chance, self.training_clock,
                     self.training_began, self.latest_chance):  # fmt: skip
            kept.pop(key, None)
        self.projected.pop(key, None)
        self._told_out.discard(key)
        now = "unknown" if chance is None else percent(chance)
        what = "the Elite Four and the Champion" if key == GAUNTLET_KEY else opponent
        then = f"L{self.floors[key]} and {self.bars[key]:.0%}"
        return (f"lost to {opponent}: {what} waited for a forecast of {before:.0%} and it is {now} now; the "
                f"next try waits for {then}, training first")  # fmt: skip

    def battle_began(self, state: GameState) -> None:
        """A trainer battle's first decision: a boss's (the gauntlet's at LORELEI, its first room) forecast
        for the team as it entered is noted for the fight's record."""
        battle = state.battle
        if battle is None or battle.kind != "trainer":
            return
        step = self._boss_step(opponent_name(battle), state)
        if step is None or step.bar_key is None or (step.gauntlet and battle.trainer_class_name != "LORELEI"):
            return
        chance = step.forecast(state)
        if chance is not None:
            self.book.began(step.bar_key, chance)

    def _fight_over(self, outcome: str, opponent: str, state: GameState) -> None:
        """A boss's fight is over when it is won or lost; the gauntlet's when the Champion falls or any room
        is lost."""
        step = self._boss_step(opponent, state)
        if step is None or step.bar_key is None or outcome not in ("victory", "defeat"):
            return
        won = outcome == "victory"
        if step.gauntlet and won and not opponent.startswith(f"{LAST_ROOM} #"):
            return
        self.book.ended(step.bar_key, won, state)

    def _boss_step(self, opponent: str, state: GameState) -> Step | None:
        """The `train` step of the objective whose boss this opponent is, class and number ("RIVAL2 #11"
        is not the ship's RIVAL2; any of the gauntlet's five for the gauntlet's)."""
        trainer, _, number = opponent.partition(" #")
        met = (trainer, int(number)) if number.isdigit() else None
        chain = set(gauntlet(state))
        for objective in self.graph.objectives:
            for step in objective.steps:
                if step.do != "train" or step.boss is None:
                    continue
                if step.boss_team(state) == met or (step.gauntlet and met in chain):
                    return step
        return None

    # -- learning from the walk --------------------------------------------------------------------
    def travelled(self, before: GameState, after: GameState, left: int | None = None) -> str | None:
        """Run the step's progress tests on a leg just walked; the first that passed, or None. `left`: the
        steps the leg's plan still had to go when it ended (a trainer's battle ends a long walk early);
        nearer than ever before to the step's target counts as progress too."""
        puzzled = self.puzzles.travelled(before, after)
        # Against the last leg's end, not this leg's start: a battle between two legs (a level, a trainer's
        # flag) is progress too.
        mark = progress_mark(after)
        self.since_progress = 0 if mark != self._mark else self.since_progress + 1
        if mark != self._mark:
            self.progress_at = game_seconds(after)
        self._mark = mark
        self._hunt_walked(before, after)
        if self.objective is None or self._step is None:
            return None
        # Getting on, or a change to the team, is neither progress nor a leg lost; training after a defeat
        # whose walk found no way at all is a leg lost (the pilot then tries other ways).
        stood = _where(before) == _where(after) and after.battle is None
        aside = self.last_leg is not None and (self.last_leg.use == "BICYCLE" or self._changing_team)
        if aside and not (self._catching_up and stood):
            return None
        found = (
            progress(self._step, before, after) or self._nearer(None if self._shortcut else left) or puzzled
        )
        if found is None and self.objective in self.graph.done(after):
            found = f"{self.objective} done"
        if found is None and self._step.do == "train" and after.battle is not None:
            # A training leg that met its battle did its work, though the battle's experience comes after
            # the leg: trainer hunts on Cycling Road, each stopped early by the trainer's own eyes, were
            # counted as "stuck for 12 legs" and sent the plan re-planning through story gates.
            found = "a battle to train on"
        if found is None and self._step.do == "catch" and _where(before) != _where(after):
            # A catch walks the grass until the species it wants appears: a walk with no encounter is the
            # search going on, not a leg lost (Route 6's grass meets one about every 17 steps, and twelve
            # short walks for a FLY learner without one were called "stuck"). A leg that goes nowhere still
            # counts, and the game clock's idle bound holds whatever the legs say.
            found = "grass walked for an encounter"
        self.idle_legs = 0 if found else self.idle_legs + 1
        if self.stage == "start over":
            self.idle_legs = 0
        return found

    def _hunt_walked(self, before: GameState, after: GameState) -> None:
        """A hunt for a trainer whose walk ended without a battle (no way there after all, or blocked on
        the way: Saffron Gym's teleporters) is not tried again: the next leg finds another trainer or the
        grass."""
        hunted, self._hunted = self._hunted, None
        if hunted is not None and self.spots is not None and after.battle is None:
            self.spots.unreached(hunted, after)

    def _nearer(self, left: int | None) -> str | None:
        if self._step is not self._nearest_of:
            self._nearest_of, self._nearest = self._step, None
        found = closer(self._nearest, left) if self._nearest is not None else None
        if left is not None and (self._nearest is None or left < self._nearest):
            self._nearest = left
        return found

    def wants_experience(self, state: GameState) -> bool:
        """Whether the team still needs experience for what lies ahead, or encounters: the step in hand
        trains or catches, a recruit is looked for, or the next boss the story trains for is not yet
        forecast to fall (a wild battle on the way then pays); otherwise wild battles only cost game time."""
        if self.catching():
            # A hunt waits for encounters: Blue seed 139 used a MAX_REPEL 21 times while it looked for a
            # RATICATE and a GRIMER, 80 legs, and caught neither.
            return True
        if self._step is not None and self._step.do == "train":
            return True
        if self._catching_up_to(state):
            return True  # a defeat asked for levels: a wild battle on the way is training
        return self.boss_ahead(state) is not None

    def boss_ahead(self, state: GameState) -> Step | None:
        """The next boss the story trains for, while it is not yet forecast to fall (remembered per team)."""
        key = (state.progress.badges, tuple((mon.species_id, mon.level) for mon in state.party))
        if self._wants is None or self._wants[0] != key:
            self._wants = (key, self._unready_boss(state))
        return self._wants[1]

    def _unready_boss(self, state: GameState) -> Step | None:
        done = self.graph.done(state)
        bars = self._bars_now(state)
        for objective in self.graph.objectives:
            if objective.name in done or objective.optional:
                continue
            for step in objective.steps:
                if step.do == "train" and step.bar_key is not None:
                    return None if step.done(state, bars.get(step.bar_key)) else step
        return None

    def catching(self) -> bool:
        """The step in hand asks for a new member, or a recruit is looked for."""
        recruiting = self.recruiting is not None and self.recruiting.species() is not None
        return recruiting or self.catch_step()

    def catch_step(self) -> bool:
        """The step in hand asks for a new member."""
        return self._step is not None and self._step.do == "catch"

    def catch_species(self) -> str | None:
        """The one species to catch, while a recruit is looked for."""
        return self.recruiting.species() if self.recruiting is not None else None

    def catch_new(self) -> bool:
        """The step in hand wants species the Pokédex lacks."""
        return self._step is not None and self._step.do == "catch" and self._step.new

    def catch_only(self) -> str | None:
        """The TM or HM a new member must be able to learn, when the step in hand says so."""
        return self._step.machine if self._step is not None and self._step.do == "catch" else None

    def snapshot(self) -> PilotSnapshot:
        return PilotSnapshot(
            objective=self.objective, idle_legs=self.idle_legs, detour=self.detour,
            puzzles=self.puzzles.snapshot(), bars=dict(self.bars), training_from=dict(self.training_from),
            training_exp=dict(self.training_exp), training_chance=dict(self.training_chance),
            training_clock=dict(self.training_clock), training_began=dict(self.training_began),
            latest_chance=dict(self.latest_chance),
            floors=dict(self.floors), projected=dict(self.projected), catch_up=self.catch_up,
            catch_up_since=self.catch_up_since, shunned=self.shunned,
            since_progress=self.since_progress,
            progress_mark=self._mark, progress_at=self.progress_at,
            recruiting=self.recruiting.snapshot() if self.recruiting is not None else RecruitingSnapshot(),
            fights=self.book.snapshot(),
        )  # fmt: skip

    def restore(self, snapshot: PilotSnapshot) -> None:
        self.objective, self.idle_legs, self.detour = snapshot.objective, snapshot.idle_legs, snapshot.detour
        self.bars = dict(snapshot.bars)
        self.training_from = dict(snapshot.training_from)
        self.training_exp = dict(snapshot.training_exp)
        self.training_chance = dict(snapshot.training_chance)
        self.training_clock = dict(snapshot.training_clock)
        self.training_began = dict(snapshot.training_began)
        self.latest_chance = dict(snapshot.latest_chance)
        self.floors = dict(snapshot.floors)
        self.projected = dict(snapshot.projected)
        self.catch_up = snapshot.catch_up
        self.catch_up_since = snapshot.catch_up_since
        self.shunned = snapshot.shunned
        self.since_progress = snapshot.since_progress
        self._mark = snapshot.progress_mark
        self.progress_at = snapshot.progress_at
        if self.recruiting is not None:
            self.recruiting.restore(snapshot.recruiting)
        self.puzzles.restore(snapshot.puzzles)
        self.book.restore(snapshot.fights)
        self._step = None
