"""Legs taken aside from the story's step, for the team and the bag: a change the team planner wants
(engine/team: a stone used where the player stands, a stone bought while in Celadon, a boxed Pokémon fetched
from a Pokémon Center's PC while there or before training for a boss), what the engine never uses sold while
a Mart is at hand (tactician/sales.py) and taken out of the PC to be sold while in a Pokémon Center, and an
item stored in the PC while in a Pokémon Center with the bag nearly full. Each change is tried twice at
most: a leg that did not bring it about (a Mart out of money, a PC that refused) is not walked again and
again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.game.bag_room import BAG_CAPACITY, to_store
from engine.game.mending import FIGHTER_LEVELS
from engine.game.models import GameState
from engine.game.selling import to_take
from engine.story.graph import Step, StoryGraph
from engine.tactician.collecting import Collector, Feared, Nearest
from engine.tactician.potions import potions_leg
from engine.tactician.repels import buying_leg, repel_leg
from engine.tactician.sales import selling_leg
from engine.team.boosts import CLERK as BOOST_CLERK
from engine.team.boosts import ITEMS as BOOST_ITEMS
from engine.team.boosts import SHOP as BOOST_SHOP
from engine.team.boosts import boosts_to_buy
from engine.team.changes import Boosts
from engine.team.leads import LeadChoice, best_lead, strongest_lead
from engine.team.machines import MachinePlanner
from engine.team.planner import (
    STONE_CLERK,
    STONE_SHOP,
    Bosses,
    TeamPlanner,
    ahead_and_gauntlet,
    gauntlet,
    to_weigh,
)
from engine.world.goals import Give, HereGoal, Leg, ObjectGoal, PcOrder, Purchase, Teach
from engine.world.world import World

TRIES = 2
LEADS_KEPT = 64
BOOST_LEVELS, BOOST_MONEY = 4, 5000
MAX_LEVEL = 100
ROOM_KEPT = 2  # kinds of item the bag keeps free while a Pokémon Center's PC is at hand

Counter = Callable[[GameState, str, str | None, str, int], Leg | None]  # the pilot's way to a nurse or clerk
AtPc = Callable[[GameState, PcOrder, str], Leg | None]  # the pilot's way to the nearest PC


@dataclass(frozen=True)
class Helpers:
    """The pilot's ways to places, which the asides' legs are made of."""

    counter: Counter
    at_pc: AtPc
    nearest: Nearest
    feared: Feared = lambda state, goal_map: False  # a trainer the team would likely lose to is near


class Asides:
    def __init__(self, world: World, graph: StoryGraph, team: TeamPlanner | None) -> None:
        self.world = world
        self.graph = graph
        self.team = team
        self.machines = MachinePlanner()
        self.collector = Collector(world, self.machines)
        self._leads: dict[tuple[object, ...], LeadChoice | None] = {}
        self._boosts_for: dict[tuple[object, ...], Boosts | None] = {}
        self.tries: dict[str, int] = {}

    def leg(
        self,
        state: GameState,
        step: Step,
        done: frozenset[str],
        helpers: Helpers,
        boss: Step | None = None,
        wants_experience: bool = True,
        upcoming: Step | None = None,
    ) -> Leg | None:
        """Money first: what the engine never uses, sold while a Mart is at hand. Then the team's change;
        then, while `boss` (the next boss the story trains for) is not yet
        forecast to fall, the lead that experience serves best; while the team needs no experience, a
        REPEL (used, or bought on the way); then an item worth its detour; then the bag's room, and a
        valuable out of the PC. None when none is at hand."""
        sale = self._sell(state, helpers.counter)
        if sale is not None:
            return sale.model_copy(update={"reason": f"the bag: {sale.reason}"})
        team = self._team_leg(state, step, done, helpers.counter, helpers.at_pc)
        if team is not None:
            return team.model_copy(update={"reason": f"the team: {team.reason}"})
        lead = self._lead(state, boss) if boss is not None else self._strongest_leads(state)
        if lead is not None:
            return lead.model_copy(update={"reason": f"the team: {lead.reason}"})
        potions = self._potions(state, upcoming, helpers.counter) if upcoming is not None else None
        if potions is not None:
            return potions.model_copy(update={"reason": f"the bag: {potions.reason}"})
        boosts = self._boosts(state) if step.gauntlet else None
        if boosts is not None:
            return boosts.model_copy(update={"reason": f"the bag: {boosts.reason}"})
        repel = None if wants_experience else self._repel(state, helpers.counter)
        if repel is not None:
            return repel.model_copy(update={"reason": f"the bag: {repel.reason}"})
        ahead = ahead_and_gauntlet(state, self.graph.bosses_ahead(state, done))
        found = self.collector.leg(state, ahead, helpers.nearest, helpers.feared)
        if found is not None:
            return found.model_copy(update={"reason": f"the bag: {found.reason}"})
        store = self._store(state, helpers.at_pc) or self._take(state, helpers.at_pc)
        return store.model_copy(update={"reason": f"the bag: {store.reason}"}) if store is not None else None

    def _potions(self, state: GameState, upcoming: Step, counter: Counter) -> Leg | None:
        """Potions for the boss about to be fought (`upcoming`: its training done), from a Mart in town."""
        found = potions_leg(state, self.world, counter, upcoming.forecast)
        if found is None or not self._may_try(f"potions {upcoming.bar_key} {state.overworld.map_id}"):
            return None
        return found

    def _boosts(self, state: GameState) -> Leg | None:
        """X items the gauntlet's chain wants, from the Celadon store (a walk the pilot may turn into a
        flight), each purchase tried twice at most from each map (remembered per team, bag and money)."""
        # Weighed again only as the team grows a few levels or the money by a few purchases' worth: each
        # weighing plays the chain a dozen times over.
        top = max((m.level for m in state.party), default=0) // BOOST_LEVELS
        held = tuple((e.name, e.quantity) for e in state.bag if e.name in BOOST_ITEMS)
        key = (top, held, state.progress.money // BOOST_MONEY)
        if key not in self._boosts_for:
            self._boosts_for = {key: boosts_to_buy(state, gauntlet(state))}
        found = self._boosts_for[key]
        shop = self.world.by_name.get(BOOST_SHOP)
        # Tried twice from each map: the flight to Celadon is one leg and the walk to the clerk another, and
        # a walk cut short after landing (a script) once left a run's X items unbought for good, while its
        # forecast counted on them.
        where = state.overworld.map_id
        if found is None or shop is None or not self._may_try(f"boosts {found.item} {found.count} {where}"):
            return None
        buy = (Purchase(item=found.item, quantity=found.count),)
        return Leg(
            goal=ObjectGoal(map_id=shop.id, index=BOOST_CLERK), interact=True, buy=buy, reason=found.reason
        )

    def _repel(self, state: GameState, counter: Counter) -> Leg | None:
        used = repel_leg(state, self.world)
        if used is not None:
            return (
                used
                if self._may_try(f"repel {state.overworld.map_id} {state.overworld.x} {state.overworld.y}")
                else None
            )
        bought = buying_leg(state, self.world, counter)
        return (
            bought if bought is not None and self._may_try(f"buy repels {state.overworld.map_id}") else None
        )

    def _here(self, state: GameState) -> str:
        found = self.world.maps.get(state.overworld.map_id)
        return found.name if found is not None else ""

    def _sell(self, state: GameState, counter: Counter) -> Leg | None:
        """Each sale tried twice at most (remembered per sale and money: a sale done changes the money)."""
        leg = selling_leg(state, self.world, counter)
        return leg if leg is not None and self._may_try(f"{leg.reason} {state.progress.money}") else None

    def _take(self, state: GameState, at_pc: AtPc) -> Leg | None:
        """A valuable stored in the PC taken back into the bag while in a Pokémon Center, to be sold (room
        kept so that taking it does not call for storing something else)."""
        if not self._here(state).endswith("_POKECENTER"):
            return None
        taken = to_take(state, free_kept=ROOM_KEPT + 1)
        if taken is None or not self._may_try(f"take {taken[0]} {state.progress.money}"):
            return None
        return at_pc(state, PcOrder(take=taken), f"{taken[1]} {taken[0]} out of the PC, to be sold at a Mart")

    def _store(self, state: GameState, at_pc: AtPc) -> Leg | None:
        if len(state.bag) < BAG_CAPACITY - ROOM_KEPT or not self._here(state).endswith("_POKECENTER"):
            return None
        stored = to_store(state)
        if stored is None or not self._may_try(f"store {stored[0]}"):
            return None
        why = f"{len(state.bag)} kinds of item: {stored[1]} {stored[0]} into the PC, to keep room"
        return at_pc(state, PcOrder(store=stored), why)

    def _team_leg(
        self, state: GameState, step: Step, done: frozenset[str], counter: Counter, at_pc: AtPc
    ) -> Leg | None:
        if self.team is None:
            return None
        bosses = self._bosses(state, step, done)
        here = self._here(state)
        evolve = self.team.evolution(state, bosses)
        if evolve is not None and self._may_try(f"{evolve.stone} {evolve.member}"):
            give = Give(item=evolve.stone, member=evolve.member)
            return Leg(goal=HereGoal(), give=give, reason=evolve.reason)
        candy = _candy(state)
        if candy is not None and self._may_try(f"candy {candy.member} {state.party[candy.member].level}"):
            name = state.party[candy.member].species_name
            why = f"RARE_CANDY on {name}, the strongest: its next level costs the most experience"
            return Leg(goal=HereGoal(), give=candy, reason=why)
        lesson = self._lesson(state, done, here, at_pc)
        if lesson is not None:
            return lesson
        buy = self.team.stone_to_buy(state, bosses) if here.startswith("CELADON") else None
        if buy is not None and self._may_try(f"buy {buy.stone}"):
            shop = counter(state, "_MART", STONE_SHOP, f"buy a {buy.stone}: {buy.reason}", STONE_CLERK)
            return shop.model_copy(update={"buy": (Purchase(item=buy.stone, quantity=1),)}) if shop else None
        training = step.do == "train" and step.boss is not None
        swap = self.team.swap(state, bosses) if here.endswith("_POKECENTER") or training else None
        if swap is not None and self._may_try(f"swap {swap.deposit} {swap.withdraw}"):
            return at_pc(state, PcOrder(deposit=swap.deposit, withdraw=swap.withdraw), swap.reason)
        return None

    def _lead(self, state: GameState, boss: Step) -> Leg | None:
        """The party reordered so the member whose levels raise the boss's forecast most per experience
        leads (remembered per team: a forecast for each member costs a little)."""
        top = max((mon.level for mon in state.party), default=0)
        fighters = [mon for mon in state.party if mon.hp > 0 and mon.level > top - FIGHTER_LEVELS]
        key = (boss.bar_key, tuple((mon.species_id, mon.level, mon.hp > 0) for mon in state.party))
        if key not in self._leads:
            if len(self._leads) >= LEADS_KEPT:
                self._leads.clear()
            lone = boss.gauntlet and len(fighters) < 2  # no forecast needed: the lone fighter leads
            bar = None if boss.gauntlet else boss.win_at
            self._leads[key] = strongest_lead(state) if lone else best_lead(state, boss.forecast, bar)
        choice = self._leads[key]
        if choice is None or not self._may_try(f"lead {choice.member} {key}"):
            return None
        return Leg(goal=HereGoal(), order=(0, choice.member), reason=choice.reason)

    def _strongest_leads(self, state: GameState) -> Leg | None:
        """With no boss to train for, the strongest member in front: a weak lead chosen for an earlier
        boss's experience would open every battle with a switch, the next boss's among them."""
        choice = strongest_lead(state)
        key = tuple((mon.species_id, mon.level, mon.hp > 0) for mon in state.party)
        if choice is None or not self._may_try(f"strongest {choice.member} {key}"):
            return None
        return Leg(goal=HereGoal(), order=(0, choice.member), reason=choice.reason)

    def _lesson(self, state: GameState, done: frozenset[str], here: str, at_pc: AtPc) -> Leg | None:
        """A TM the team's potential wants: taught where the player stands from the bag, or first taken
        out of the PC while in a Pokémon Center."""
        lesson = self.machines.lesson(state, ahead_and_gauntlet(state, self.graph.bosses_ahead(state, done)))
        if lesson is None or (lesson.in_pc and not here.endswith("_POKECENTER")):
            return None
        if lesson.in_pc:
            if not self._may_try(f"take {lesson.item}"):
                return None
            return at_pc(
                state, PcOrder(take=(lesson.item, 1)), f"take {lesson.item} out of the PC: {lesson.reason}"
            )
        if not self._may_try(f"teach {lesson.item} {lesson.member}"):
            return None
        teach = Teach(item=lesson.item, member=lesson.member, forget=lesson.forget, reason=lesson.reason)
        return Leg(goal=HereGoal(), teach=teach, reason=lesson.reason)

    def _bosses(self, state: GameState, step: Step, done: frozenset[str]) -> Bosses:
        """The step's own boss first, then the story's ahead and the Elite Four."""
        own = step.boss_team(state)
        ahead = self.graph.bosses_ahead(state, done)
        return to_weigh(state, ((own,) if own is not None else ()) + ahead)

    def _may_try(self, change: str) -> bool:
        tries = self.tries.get(change, 0)
        if tries >= TRIES:
            return False
        self.tries[change] = tries + 1
        return True


def _candy(state: GameState) -> Give | None:
    """A RARE_CANDY in the bag goes to the strongest member: its next level costs the most experience."""
    if not any(entry.name == "RARE_CANDY" and entry.quantity for entry in state.bag) or not state.party:
        return None
    member = max(range(len(state.party)), key=lambda at: (state.party[at].level, -at))
    return Give(item="RARE_CANDY", member=member) if state.party[member].level < MAX_LEVEL else None
