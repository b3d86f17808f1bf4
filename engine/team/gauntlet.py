"""The Elite Four and the Champion as one battle: five fights in a row, played out inside the turn model
many times, with what each fight leaves (HP, PP, fainted members, the bag's items) carried into the next.

Between rooms the bag mends the fighters as game/mending.py does out of battle (a revive for the fainted,
then HP; PP only from the bag's ETHERs and ELIXERs), the strongest member comes to each door with the
levels the rooms before gave it (`grown`), and inside a fight a member in danger drinks the
bag's best potion. Our side plays a quick greedy policy, not the search: the best damage for the turns
a knock-out needs, the cheapest move that needs no more turns than the strongest (a speedrunner saves
the strong moves' PP for the foes that need them), and on a knock-out the member whose duel looks best.
It is weaker than the search, so the chance is a floor, and it is cheap enough to weigh a plan with
(a few seconds for the whole chain, sixteen times over).

Each sample follows one draw of every turn's chances (engine/combat/turn.py), the enemy's answers
by the trainer AI's rules (engine/combat/enemy.py).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from engine.combat.effects import X_ITEMS
from engine.combat.fighter import (
    ATTACK,
    FULL_HEAL_HP,
    REVIVES,
    SPECIAL,
    SPEED,
    STRUGGLE_SLOT,
    Action,
    Attack,
    Duel,
    Fighter,
    Side,
    Switch,
    UseItem,
    fresh,
    move_of,
)
from engine.combat.hits import sure_knock_out
from engine.combat.pace import move_pace
from engine.combat.position import full_pp, trainer_side
from engine.combat.position import our_fighters as party_fighters
from engine.combat.search import BOOSTED, DANGER, SAFE_TURNS, reach, threat
from engine.combat.turn import enemy_answers, resolve_turn
from engine.frozen import Frozen
from engine.game.damage import PHYSICAL_TYPES
from engine.game.growth import level_for_experience
from engine.game.items import BATTLE_ITEMS, ItemKind
from engine.game.mending import FIGHTER_LEVELS
from engine.game.models import BagItem, GameState
from engine.game.stats import raised
from engine.game.tables import game_data
from engine.team.training import trainer_battle

Boss = tuple[str, int]
T = TypeVar("T")
SAMPLES = 16
MAX_TURNS = 120  # a fight still going after this many turns counts as lost
DETAIL = 4  # damage groups a turn's outcomes are drawn from (a draw needs no finer)
SWITCH_MARGIN = 0.5  # how much better a bench member's duel must look for a switch as a foe comes out
ETHER_PP = 10  # pret engine/items/item_effects.asm ItemUseMedicine: an ETHER or ELIXER restores 10 PP


class GauntletForecast(Frozen):
    """What the samples say: the chance of beating each boss in turn (of all samples) and the turns a
    whole chain took on average (its share of game time)."""

    bosses: tuple[Boss, ...]
    beaten: tuple[float, ...]
    samples: int
    turns: float

    @property
    def chance(self) -> float:
        """The chance of beating every boss in one go."""
        return self.beaten[-1] if self.beaten else 1.0

    def words(self) -> str:
        steps = ", ".join(
            f"{trainer} {chance:.0%}" for (trainer, _), chance in zip(self.bosses, self.beaten, strict=True)
        )
        return f"{self.chance:.0%} to finish ({steps}; {self.samples} samples)"


@dataclass
class Bag:
    """What the bag holds that the chain uses, as plain counts (one sample spends its own copy)."""

    heals: list[int] = field(default_factory=list)  # HP each potion restores, largest first
    revives: list[int] = field(default_factory=list)  # each revive's divisor of max HP (2: half)
    cures: int = 0  # FULL_HEAL and the like, for a status between rooms
    ethers: int = 0  # 10 PP to one move
    elixers: int = 0  # 10 PP to every move
    boosts: dict[str, int] = field(default_factory=dict)  # X items by name

    def copy(self) -> Bag:
        return Bag(
            list(self.heals), list(self.revives), self.cures, self.ethers, self.elixers, dict(self.boosts)
        )

    def key(self) -> tuple[object, ...]:
        """The counts as a plain tuple: two bags with the same key play the chain alike."""
        boosts = tuple(sorted(self.boosts.items()))
        return (tuple(self.heals), tuple(self.revives), self.cures, self.ethers, self.elixers, boosts)


def bag_of(state: GameState) -> Bag:
    bag = Bag()
    for entry in state.bag:
        name = entry.name or ""
        item = BATTLE_ITEMS.get(name)
        if name in REVIVES:
            bag.revives += [REVIVES[name]] * entry.quantity
        elif item is not None and item.kind is ItemKind.HEAL_HP:
            bag.heals += [FULL_HEAL_HP if item.heal is None else item.heal] * entry.quantity
        elif item is not None and item.kind is ItemKind.CURE_STATUS:
            bag.cures += entry.quantity
        elif name in ("ETHER", "MAX_ETHER"):
            bag.ethers += entry.quantity
        elif name in ("ELIXER", "MAX_ELIXER"):
            bag.elixers += entry.quantity
        elif name in X_ITEMS or name == "X_ACCURACY":
            bag.boosts[name] = bag.boosts.get(name, 0) + entry.quantity
    bag.heals.sort(reverse=True)
    return bag


Policy = Callable[[Duel, "Bag"], Action]


def gauntlet_forecast(
    state: GameState,
    bosses: Sequence[Boss],
    samples: int = SAMPLES,
    seed: int = 0,
    policy: Policy | None = None,
) -> GauntletForecast | None:
    """The chance the party, healed, beats `bosses` one after another with only the bag between them;
    None when a boss is unknown or there is no party."""
    sides = [trainer_side(trainer, number) for trainer, number in bosses]
    if not state.party or any(side is None for side in sides):
        return None
    team = tuple(
        fighter._replace(hp=fighter.max_hp, status="OK", sleep_turns=0, pp=full_pp(mon))
        for fighter, mon in zip(party_fighters(state), state.party, strict=True)
    )
    tops = tuple(member.pp for member in team)
    badges = frozenset(state.progress.badge_names)
    bag = bag_of(state)
    rng = random.Random(seed)
    beaten = [0] * len(sides)
    turns = 0
    rooms = [s for s in sides if s is not None]
    growth = grown(state, rooms)
    for _ in range(samples):
        wins, used = _one_chain(team, tops, rooms, growth, badges, bag.copy(), rng, policy or greedy)
        turns += used
        for at in range(wins):
            beaten[at] += 1
    return GauntletForecast(
        bosses=tuple(bosses),
        beaten=tuple(n / samples for n in beaten),
        samples=samples,
        turns=turns / samples,
    )


def _one_chain(
    team: tuple[Fighter, ...],
    tops: tuple[tuple[int, ...], ...],
    sides: list[Side],
    growth: Growth,
    badges: frozenset[str],
    bag: Bag,
    rng: random.Random,
    policy: Policy,
) -> tuple[int, int]:
    """Bosses beaten in a row and the turns taken, in one sample. Each room opens with the member whose duel
    with its first foe looks best, as the plan's lead and the search's first switch would have it: played
    with the party's first member, a HAUNTER in front of LORELEI's DEWGONG (REST) never switched and drank
    FULL RESTOREs for 120 turns, and a team that won three rooms in every play was forecast at 0%."""
    members, turns = team, 0
    for wins, them in enumerate(sides):
        members = _with_growth(members, growth, wins)
        able = [at for at, member in enumerate(members) if not member.fainted]
        if not able:
            return wins, turns
        lead = max(able, key=lambda at: _matchup(members[at], them.members[0]))
        us = Side(members=members, active=lead, badges=badges, heals=tuple(bag.heals))
        duel = Duel(us=us.with_fighter(fresh(us.fighter, badges)), them=them)
        won, duel, used = _fight(duel, rng, policy, bag)
        turns += used
        if not won:
            return wins, turns
        bag.heals = list(duel.us.heals)
        members = _mend(duel.us.members, tops, bag)
    return len(sides), turns


# The strongest member's index and, per room, that member as the rooms before it leave it (None: no level
# gained by then).
Growth = tuple[int, tuple[Fighter | None, ...]]


def grown(state: GameState, sides: Sequence[Side]) -> Growth:
    """The levels the chain itself gives: each room's Pokémon give base experience × level / 7, half again
    for a trainer's (pret engine/battle/experience.asm), counted whole to the strongest member, the one
    that knocks out most of them (a lone fighter gets all of it). A member of L58 in front of LORELEI
    stands at about L62 in front of the Champion; a forecast that kept L58 was a floor under the floor."""
    top = max(range(len(state.party)), key=lambda at: state.party[at].level)
    mon = state.party[top]
    species = game_data().species_by_index.get(mon.species_id)
    if species is None:
        return top, (None,) * len(sides)
    found: list[Fighter | None] = [None]
    exp = float(mon.exp)
    for side in sides[:-1]:
        exp += trainer_battle(tuple((foe.species, foe.level) for foe in side.members), mon.level)[0]
        level = level_for_experience(species.growth_rate, int(exp))
        if level <= mon.level:
            found.append(None)
            continue
        party = tuple(raised(m, level) if at == top else m for at, m in enumerate(state.party))
        found.append(party_fighters(state.model_copy(update={"party": party}))[top])
    return top, tuple(found)


def _with_growth(members: tuple[Fighter, ...], growth: Growth, room: int) -> tuple[Fighter, ...]:
    """The strongest member at the room's door as the experience so far raised it (a fainted member
    gained nothing after it fell; a level's extra max HP comes on top of the HP it has, as in the game)."""
    top, levels = growth
    now = levels[room] if room < len(levels) else None
    member = members[top]
    if now is None or member.fainted or now.level <= member.level:
        return members
    hp = min(now.max_hp, member.hp + now.max_hp - member.max_hp)
    member = member._replace(level=now.level, max_hp=now.max_hp, stats=now.stats, hp=hp)
    return (*members[:top], member, *members[top + 1 :])


def _fight(duel: Duel, rng: random.Random, policy: Policy, bag: Bag) -> tuple[bool, Duel, int]:
    for turn in range(MAX_TURNS):
        duel = _send_next(duel)
        if duel.them.defeated:
            return True, duel, turn
        if duel.us.defeated:
            return False, duel, turn
        ours = policy(duel, bag)
        if isinstance(ours, UseItem) and ours.item in bag.boosts:
            bag.boosts[ours.item] -= 1
        theirs = _draw(enemy_answers(duel, ours), rng)
        duel = _draw(resolve_turn(duel, ours, theirs, DETAIL), rng)
    return False, duel, MAX_TURNS


def _draw(options: Sequence[tuple[float, T]], rng: random.Random) -> T:
    roll, total = rng.random(), 0.0
    for chance, option in options:
        total += chance
        if roll < total:
            return option
    return options[-1][1]


def greedy(duel: Duel, bag: Bag) -> Action:
    """A potion when the member in front is in danger; an X item for the stat its best move hits with
    while the foe is no threat yet (up to BOOSTED stages); else the attack that knocks the foe out in
    the fewest turns, the one with the most PP to spare among equals."""
    me, foe = duel.us.fighter, duel.them.fighter
    danger = threat(foe, me)
    if duel.us.heals and me.hp < DANGER * me.max_hp and reach(foe, me) >= me.hp:
        heal = duel.us.heals[0]
        return UseItem(item="POTION", heal=None if heal >= FULL_HEAL_HP else heal, cures=frozenset(),
                       member=duel.us.active)  # fmt: skip
    switch = _better_member(duel)
    if switch is not None:
        return Switch(switch)
    slot = _best_slot(me, foe)
    boost = _boost(me, foe, slot, danger, bag)
    if boost is not None:
        return UseItem(item=boost, heal=0, cures=frozenset(), member=duel.us.active)
    return Attack(slot)


def _better_member(duel: Duel) -> int | None:
    """As a new foe comes out, a bench member whose duel looks much better than the one in front's."""
    if duel.them.turns_out:
        return None
    foe = duel.them.fighter
    now = _matchup(duel.us.fighter, foe)
    bench = duel.us.able()
    if not bench:
        return None
    best = max(bench, key=lambda at: _matchup(duel.us.members[at], foe))
    return best if _matchup(duel.us.members[best], foe) > now + SWITCH_MARGIN else None


def _boost(me: Fighter, foe: Fighter, slot: int, danger: float, bag: Bag) -> str | None:
    """The X item worth a turn now: X ACCURACY for a one-hit knock-out move the foe is not too fast for or
    immune to, else the best move's attacking stat, then speed against a faster foe; None when the foe
    could hurt badly this turn, the move would knock it out anyway, or none is held."""
    if danger * SAFE_TURNS >= me.hp or slot == STRUGGLE_SLOT:
        return None
    if bag.boosts.get("X_ACCURACY", 0) and not me.x_accuracy and sure_knock_out(me, foe) is not None:
        return "X_ACCURACY"
    pace = move_pace(me, foe, slot)[0]
    if pace >= foe.hp:
        return None
    move = move_of(me, slot)
    stat, item = (ATTACK, "X_ATTACK") if move.type in PHYSICAL_TYPES else (SPECIAL, "X_SPECIAL")
    if bag.boosts.get(item, 0) and me.stages[stat] < BOOSTED:
        return item
    if bag.boosts.get("X_SPEED", 0) and me.stages[SPEED] < 1 and foe.battle[SPEED] >= me.battle[SPEED]:
        return "X_SPEED"
    return None


def _best_slot(me: Fighter, foe: Fighter) -> int:
    slots = [slot for slot, pp in enumerate(me.pp) if pp > 0]
    if not slots:
        return STRUGGLE_SLOT
    paces = {slot: move_pace(me, foe, slot)[0] for slot in slots}
    best = max(paces.values())
    if best <= 0:
        return max(slots, key=lambda slot: me.pp[slot])
    needed = math.ceil(foe.hp / best)
    enough = [slot for slot in slots if paces[slot] > 0 and math.ceil(foe.hp / paces[slot]) <= needed]
    return max(enough, key=lambda slot: (me.pp[slot], paces[slot]))


def _send_next(duel: Duel) -> Duel:
    """After a knock-out: a trainer's next member in order; ours, the one whose duel looks best."""
    if duel.them.fighter.fainted and not duel.them.defeated:
        them = duel.them._replace(active=duel.them.able()[0], turns_out=0)
        duel = duel._replace(them=them.with_fighter(fresh(them.fighter)))
    if duel.us.fighter.fainted and not duel.us.defeated:
        foe = duel.them.fighter
        member = max(duel.us.able(), key=lambda at: _matchup(duel.us.members[at], foe))
        us = duel.us._replace(active=member, turns_out=0)
        duel = duel._replace(us=us.with_fighter(fresh(us.fighter, us.badges)))
    return duel


def _matchup(member: Fighter, foe: Fighter) -> float:
    """How a duel looks: the share of the foe's HP our member takes a turn, less the share it loses."""
    ours = max((move_pace(member, foe, slot)[0] for slot, pp in enumerate(member.pp) if pp > 0), default=0.0)
    return ours / max(1, foe.hp) - threat(foe, member) / max(1, member.hp)


def _mend(members: tuple[Fighter, ...], tops: tuple[tuple[int, ...], ...], bag: Bag) -> tuple[Fighter, ...]:
    """Between rooms, as game/mending.py does with the real bag: the fighters only (a member far below the
    strongest carries a field move, not the fight), revived, cured, filled, and their PP topped up."""
    top = max(member.level for member in members)
    mended = []
    for member, full in zip(members, tops, strict=True):
        if member.level <= top - FIGHTER_LEVELS:
            mended.append(member)
            continue
        if member.fainted and bag.revives:
            member = member._replace(hp=max(1, member.max_hp // bag.revives.pop(0)))
        if not member.fainted:
            member = _filled(member, full, bag)
        mended.append(member)
    return tuple(mended)


def _filled(member: Fighter, full: tuple[int, ...], bag: Bag) -> Fighter:
    if member.status != "OK" and bag.cures:
        bag.cures -= 1
        member = member._replace(status="OK", sleep_turns=0)
    while member.hp < member.max_hp and bag.heals:
        missing = member.max_hp - member.hp
        fits = [heal for heal in bag.heals if heal >= missing]
        heal = min(fits) if fits else bag.heals[0]
        bag.heals.remove(heal)
        member = member.healed(heal)
    return _pp_topped(member, full, bag)


def _pp_topped(member: Fighter, full: tuple[int, ...], bag: Bag) -> Fighter:
    missing = [max(0, top - left) for top, left in zip(full, member.pp, strict=True)]
    if bag.elixers and sum(missing) >= 2 * ETHER_PP:
        bag.elixers -= 1
        return member._replace(
            pp=tuple(min(top, left + ETHER_PP) for top, left in zip(full, member.pp, strict=True))
        )
    low = max(range(len(missing)), key=lambda slot: missing[slot], default=None)
    if bag.ethers and low is not None and missing[low] >= ETHER_PP:
        bag.ethers -= 1
        pp = list(member.pp)
        pp[low] = min(full[low], pp[low] + ETHER_PP)
        return member._replace(pp=tuple(pp))
    return member


# -- the chance a plan is weighed by ----------------------------------------------------------------
PLAN_SAMPLES = 32  # samples behind the chance a plan waits for (common draws: seed 0 every time)
# A chance near a bar is drawn again this many times before a plan believes it: training stops at the
# first level whose 32 draws happen to clear the bar, so those draws are the lucky ones (Blue seed 26 went
# in at 72% by 32 draws and 49% by 160, and lost).
CONFIRM_SAMPLES = 160
CONFIRM_FROM = 0.4
_CHANCES: dict[tuple[object, ...], GauntletForecast | None] = {}
CHANCES_KEPT = 128


def planned_forecast(
    state: GameState,
    bosses: Sequence[Boss],
    stock: Sequence[tuple[str, int]] = (),
    samples: int = PLAN_SAMPLES,
) -> GauntletForecast | None:
    """The chain's forecast once the lobby's `stock` is bought (items added to the bag, the money left
    as it is: the stock is what the money buys), remembered per team and what the bag holds that the chain
    uses: a level gained makes a new one; a step walked, a ball thrown or a TM picked up does not."""
    stocked = with_stock(state, stock)
    key = (
        tuple(
            (m.species_id, m.level, m.max_hp, m.stats, tuple(s.move_id for s in m.moves)) for m in state.party
        ),
        bag_of(stocked).key(),
        tuple(bosses),
        state.progress.badges,
        samples,
    )
    if key not in _CHANCES:
        if len(_CHANCES) >= CHANCES_KEPT:
            _CHANCES.clear()
        _CHANCES[key] = gauntlet_forecast(stocked, bosses, samples=samples)
    return _CHANCES[key]


def settled_forecast(
    state: GameState, bosses: Sequence[Boss], stock: Sequence[tuple[str, int]] = ()
) -> GauntletForecast | None:
    """The chain's forecast with the lobby's `stock` bought: PLAN_SAMPLES draws, and CONFIRM_SAMPLES once
    those say CONFIRM_FROM or more (the chance that ends training, or that a plan is chosen by)."""
    found = planned_forecast(state, bosses, stock)
    if found is None or found.chance < CONFIRM_FROM:
        return found
    return planned_forecast(state, bosses, stock, samples=CONFIRM_SAMPLES)


# The levels the strongest member is weighed at when training has stopped moving the chain's forecast:
# Blue seed 28 spent a training budget at 0-3%, entered, lost to LANCE, and then trained on to 80% all
# the same. A forecast that reaches the bar a few levels on is worth those levels before an entry.
PROJECTED_GAINS = (4, 8, 12, 16)
MAX_LEVEL = 100


def levels_to(
    state: GameState, bosses: Sequence[Boss], bar: float, stock: Sequence[tuple[str, int]] = ()
) -> int | None:
    """The fewest PROJECTED_GAINS levels the strongest member needs for the chain's settled forecast to
    reach `bar` (the others as they are, new moves not counted); None when none of them does."""
    if not state.party:
        return None
    top = max(range(len(state.party)), key=lambda at: state.party[at].level)
    for gain in PROJECTED_GAINS:
        level = min(MAX_LEVEL, state.party[top].level + gain)
        party = tuple(raised(mon, level) if at == top else mon for at, mon in enumerate(state.party))
        found = settled_forecast(state.model_copy(update={"party": party}), bosses, stock)
        if found is not None and found.chance >= bar:
            return gain
        if level == MAX_LEVEL:
            break
    return None


def with_stock(state: GameState, stock: Sequence[tuple[str, int]]) -> GameState:
    """The state with `stock` added to the bag (the money as it is)."""
    bag = list(state.bag)
    for item, quantity in stock:
        at = next((i for i, entry in enumerate(bag) if entry.name == item), None)
        if at is None:
            bag.append(BagItem(item_id=game_data().item_ids.get(item, 0), name=item, quantity=quantity))
        else:
            bag[at] = bag[at].model_copy(update={"quantity": bag[at].quantity + quantity})
    return state.model_copy(update={"bag": tuple(bag)})
