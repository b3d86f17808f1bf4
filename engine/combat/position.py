"""A decoded battle as the turn model's `Duel`, and battle actions back and forth.

What the enemy looks like depends on the fairness setting. `full_ram` reads its real stats, stages and
moves. `visible_only` uses what a player could know: species, level and the HP bar of the member in front,
stats estimated from base stats, the moves its species knows at that level (plus a gym leader's special
move, and any move it was seen to use), and the rest of a trainer's party from the trainer's public roster.
Our own side is always read whole. Status bits: pret constants/battle_constants.asm.
"""

from __future__ import annotations

from engine.combat.effects import transform_copy
from engine.combat.enemy import special_move, trainer_ai
from engine.combat.fighter import (
    ACTIVE_MEMBER,
    FULL_HEAL_HP,
    STRUGGLE_SLOT,
    Action,
    Attack,
    Duel,
    Fighter,
    Side,
    Switch,
    UseItem,
    battle_stats,
    fighter_of,
    fresh,
)
from engine.combat.judge import win_probability
from engine.game.actions import BattleAction, Struggle, SwitchTo, UseMove
from engine.game.actions import UseItem as UseItemAction
from engine.game.assessment import Fairness, hp_bar_fraction, likely_moves
from engine.game.items import BATTLE_ITEMS, ItemKind, max_pp
from engine.game.models import BattleMon, BattleSide, BattleState, GameState, Mon
from engine.game.tables import Move, game_data

SLEEP_COUNTER_MASK = 0x07  # the low three bits of the status byte count sleep turns
UNKNOWN_SLEEP = 3  # the enemy's sleep counter is hidden from a player: about the middle of 1-7
# wPlayerBattleStatus1..3 bits
STORING_ENERGY, THRASHING_ABOUT, CHARGING_UP, USING_TRAPPING_MOVE, CONFUSED = 0, 1, 4, 5, 7
USING_X_ACCURACY, PROTECTED_BY_MIST, GETTING_PUMPED, NEEDS_TO_RECHARGE, USING_RAGE, SEEDED = 0, 1, 2, 5, 6, 7
BADLY_POISONED, HAS_LIGHT_SCREEN_UP, HAS_REFLECT_UP, TRANSFORMED = 0, 1, 2, 3
SETTLED_TURNS = 2  # the AI's second-turn encouragement is assumed past


def _bit(byte: int, bit: int) -> bool:
    return bool(byte >> bit & 1)


def _sleep(mon: Mon, hidden: bool) -> int:
    if mon.status != "SLP":
        return 0
    return UNKNOWN_SLEEP if hidden else max(1, mon.status_byte & SLEEP_COUNTER_MASK)


def _from_mon(mon: Mon, hidden_sleep: bool = False) -> Fighter:
    species = game_data().species_by_index.get(mon.species_id)
    stats = (mon.stats.attack, mon.stats.defense, mon.stats.speed, mon.stats.special)
    stats = (max(1, stats[0]), max(1, stats[1]), max(1, stats[2]), max(1, stats[3]))
    known = [slot for slot in mon.moves if slot.move_id in game_data().moves_by_id]
    moves = [(slot.move_id, slot.pp) for slot in known]
    return Fighter(
        species=mon.species_name or "?",
        level=max(1, mon.level),
        hp=mon.hp,
        max_hp=max(1, mon.max_hp),
        stats=stats,
        battle=stats,
        types=(mon.type1_name or "NORMAL", mon.type2_name or "NORMAL"),
        base_speed=species.base.speed if species else 50,
        moves=tuple(m for m, _ in moves),
        pp=tuple(pp for _, pp in moves),
        status=mon.status,
        sleep_turns=_sleep(mon, hidden_sleep),
        max_pp=tuple(max_pp(slot) for slot in known),
    )


def _healed(fighter: Fighter, mon: Mon) -> Fighter:
    """As a Pokémon Center leaves it: full HP, every move's full PP, no status."""
    return fighter._replace(hp=fighter.max_hp, status="OK", sleep_turns=0, pp=full_pp(mon))


def full_pp(mon: Mon) -> tuple[int, ...]:
    """Each known move's PP when full: its base PP and a fifth of it for each PP UP applied (pret
    engine/items/item_effects.asm ItemUsePPUp), in the order `_from_mon` keeps the moves."""
    moves = game_data().moves_by_id
    return tuple(moves[slot.move_id].pp + moves[slot.move_id].pp // 5 * slot.pp_ups
                 for slot in mon.moves if slot.move_id in moves)  # fmt: skip


def _volatile(fighter: Fighter, side: BattleSide, move_id: int = 0) -> Fighter:
    """The battle-only state of a side's member in front; `move_id` is the move it used last (what a
    charging member will use)."""
    s1, s2, s3 = side.status1, side.status2, side.status3
    charging = fighter.moves.index(move_id) if _bit(s1, CHARGING_UP) and move_id in fighter.moves else -1
    return fighter._replace(
        stages=side.stages,
        confused=side.confused_turns if _bit(s1, CONFUSED) else 0,
        bide=side.attacks_left if _bit(s1, STORING_ENERGY) else 0,
        bide_damage=side.bide_damage if _bit(s1, STORING_ENERGY) else 0,
        trapping=side.attacks_left if _bit(s1, USING_TRAPPING_MOVE) else 0,
        thrashing=side.attacks_left if _bit(s1, THRASHING_ABOUT) else 0,
        charging=charging,
        x_accuracy=_bit(s2, USING_X_ACCURACY),
        mist=_bit(s2, PROTECTED_BY_MIST),
        focus_energy=_bit(s2, GETTING_PUMPED),
        recharging=_bit(s2, NEEDS_TO_RECHARGE),
        raging=_bit(s2, USING_RAGE),
        seeded=_bit(s2, SEEDED),
        toxic=max(1, side.toxic_counter) if _bit(s3, BADLY_POISONED) else 0,
        light_screen=_bit(s3, HAS_LIGHT_SCREEN_UP),
        reflect=_bit(s3, HAS_REFLECT_UP),
        transformed=_bit(s3, TRANSFORMED),
    )


def our_side(state: GameState, battle: BattleState) -> Side:
    members = [_from_mon(mon) for mon in state.party]
    active = battle.player_active_slot
    if battle.player is not None and 0 <= active < len(members):
        fighter = _volatile(_from_mon(battle.player), battle.player_side)
        unmodified = members[active].stats  # the party struct keeps the unmodified stats
        members[active] = fighter._replace(stats=unmodified)
    return Side(
        members=tuple(members),
        active=active,
        badges=frozenset(state.progress.badge_names),
        heals=_heals(state),
    )


def _heals(state: GameState) -> tuple[int, ...]:
    """What the bag's HP healers restore, one entry per item, largest first."""
    amounts: list[int] = []
    for entry in state.bag:
        item = BATTLE_ITEMS.get(entry.name or "")
        if item is not None and item.kind is ItemKind.HEAL_HP:
            amounts += [FULL_HEAL_HP if item.heal is None else item.heal] * entry.quantity
    return tuple(sorted(amounts, reverse=True))


def roster_moves(trainer_class: str | None, member: int, species: str, level: int) -> list[Move]:
    """The species' moves at its level, with a leader's special move written into the third slot
    (pret engine/battle/read_trainer_party.asm)."""
    moves = likely_moves(species, level)
    special = special_move(trainer_class, member)
    if special is None:
        return moves
    return [*moves, special][:4] if len(moves) < 3 else [*moves[:2], special, *moves[3:]]


def _guessed_moves(
    species: str, level: int, trainer_class: str | None, member: int, seen: set[int]
) -> list[Move]:
    moves = roster_moves(trainer_class, member, species, level)
    for move_id in sorted(seen):
        move = game_data().moves_by_id.get(move_id)
        if move is not None and move not in moves:
            moves = [*moves[-3:], move]
    return moves


def _enemy_active(
    battle: BattleState, enemy: BattleMon, fairness: Fairness, seen: set[int], ours: Fighter | None
) -> Fighter:
    side = battle.enemy_side
    if fairness is Fairness.FULL_RAM or enemy.species_name is None:
        fighter = _from_mon(enemy)
        unmodified = side.unmodified
        if unmodified is not None:
            fighter = fighter._replace(
                stats=(unmodified.attack, unmodified.defense, unmodified.speed, unmodified.special)
            )
        return _volatile(fighter, side, battle.enemy_move_id)
    member = battle.enemy_party_pos or 0
    transformed = _bit(side.status3, TRANSFORMED) and ours is not None
    # A transformed enemy shows our species: its own (a DITTO, seen before it transformed) sets its HP.
    species = _original_species(battle) if transformed else enemy.species_name
    moves = _guessed_moves(species, enemy.level, battle.trainer_class_name, member, seen)
    guess = fighter_of(species, max(1, enemy.level), moves)
    shown = hp_bar_fraction(enemy.hp, enemy.max_hp)
    hp = max(1 if enemy.hp > 0 else 0, round(shown * guess.max_hp))
    guess = guess._replace(hp=hp, status=enemy.status, sleep_turns=_sleep(enemy, hidden=True), known=False)
    if transformed:
        assert ours is not None
        # A player knows what TRANSFORM copies: our member's types, stats, stages and moves.
        return _volatile(guess, side, battle.enemy_move_id)._replace(**transform_copy(ours), known=True)
    guess = _volatile(guess, side, battle.enemy_move_id)
    return guess._replace(battle=battle_stats(guess))


def _original_species(battle: BattleState) -> str:
    """The enemy in front before it transformed: its trainer's roster says, or the wild one met."""
    position = battle.enemy_party_pos or 0
    if battle.kind == "trainer":
        roster = _roster(battle)
        if position < len(roster):
            return roster[position][0]
    found = game_data().species_by_index.get(battle.cur_opponent)
    return found.name if found is not None else "DITTO"


def _roster(battle: BattleState) -> list[tuple[str, int]]:
    """A trainer's party as its public roster lists it; RAM's species list where no roster matches."""
    for party in game_data().trainer_parties:
        if party.trainer_class == battle.trainer_class_name and party.number == battle.trainer_number:
            return [(m.species, m.level) for m in party.party]
    level = battle.enemy.level if battle.enemy else 5
    return [(name or "RATTATA", level) for name in battle.enemy_party_species_names]


def their_side(battle: BattleState, fairness: Fairness, seen: set[int], ours: Fighter | None = None) -> Side:
    """The enemy's side; `ours`: our member in front (what a transformed enemy copied)."""
    assert battle.enemy is not None
    active = _enemy_active(battle, battle.enemy, fairness, seen, ours)
    if battle.kind == "wild":
        return Side(members=(active,))
    position = battle.enemy_party_pos or 0
    members: list[Fighter] = []
    for i, (species, level) in enumerate(_roster(battle)):
        if i == position:
            members.append(active)
            continue
        member = roster_member(battle.trainer_class_name, i, species, level)
        members.append(member._replace(hp=0) if i < position else member)
    if position >= len(members):
        members, position = [active], 0
    ai = trainer_ai().get(battle.trainer_class_name or "")
    uses = ai.item.uses if ai is not None and ai.item is not None else 0
    return Side(
        members=tuple(members),
        active=position,
        trainer_class=battle.trainer_class_name,
        ai_uses=uses,
        turns_out=SETTLED_TURNS,
    )


def roster_member(trainer_class: str | None, member: int, species: str, level: int) -> Fighter:
    """A trainer's Pokémon as its roster lists it."""
    return fighter_of(species, level, roster_moves(trainer_class, member, species, level))


def trainer_side(trainer_class: str, number: int) -> Side | None:
    """A trainer's party before the battle, from its public roster; None for an unknown trainer."""
    for party in game_data().trainer_parties:
        if party.trainer_class == trainer_class and party.number == number:
            members = tuple(
                roster_member(trainer_class, i, m.species, m.level) for i, m in enumerate(party.party)
            )
            ai = trainer_ai().get(trainer_class)
            uses = ai.item.uses if ai is not None and ai.item is not None else 0
            return Side(members=members, trainer_class=trainer_class, ai_uses=uses)
    return None


def our_fighters(state: GameState) -> tuple[Fighter, ...]:
    """The party as the turn model sees it, as it is now (out of battle)."""
    return tuple(_from_mon(mon) for mon in state.party)


def forecast(state: GameState, trainer_class: str, number: int, healed: bool = False) -> float | None:
    """The chance our party as it is now beats this trainer (out of battle: the readiness check before a
    gym); with `healed`, as it will be after a Pokémon Center (full HP and PP, no status). None when the
    trainer is unknown or we have no party."""
    them = trainer_side(trainer_class, number)
    if them is None or not state.party:
        return None
    members = tuple(_from_mon(mon) for mon in state.party)
    if healed:
        members = tuple(_healed(member, mon) for member, mon in zip(members, state.party, strict=True))
    lead = next((i for i, m in enumerate(members) if not m.fainted), None)
    if lead is None:
        return 0.0
    badges = frozenset(state.progress.badge_names)
    us = Side(members=members, active=lead, badges=badges, heals=_heals(state))
    us = us.with_fighter(fresh(us.fighter, badges))
    return win_probability(Duel(us=us, them=them))


def duel_of(state: GameState, fairness: Fairness, seen: set[int] | None = None) -> Duel | None:
    """The battle on screen as a Duel; None when either side has nobody out yet."""
    battle = state.battle
    if battle is None or battle.player is None or battle.enemy is None or not state.party:
        return None
    us = our_side(state, battle)
    them = their_side(battle, fairness, seen or set(), us.fighter)
    return Duel(us=us, them=them, wild=battle.kind == "wild")


def model_action(action: BattleAction) -> Action | None:
    """The turn model's action for a battle action; None for ones it does not weigh (balls, running)."""
    if isinstance(action, UseMove):
        return Attack(action.slot)
    if isinstance(action, Struggle):
        return Attack(STRUGGLE_SLOT)
    if isinstance(action, SwitchTo):
        return Switch(action.slot)
    if not isinstance(action, UseItemAction):
        return None
    item = BATTLE_ITEMS.get(action.item)
    if item is None:
        return None
    if item.kind is ItemKind.STAT_BOOST:
        return UseItem(item=item.name, heal=0, cures=frozenset(), member=ACTIVE_MEMBER)
    if action.target is None:
        return None
    if item.kind is ItemKind.RESTORE_PP:
        slot = -1 if action.move is None else action.move
        return UseItem(item=item.name, heal=0, cures=frozenset(), member=action.target, move=slot)
    if item.kind not in (ItemKind.HEAL_HP, ItemKind.CURE_STATUS, ItemKind.REVIVE):
        return None
    heal = item.heal if item.kind is ItemKind.HEAL_HP else 0
    return UseItem(item=item.name, heal=heal, cures=frozenset(item.cures), member=action.target)
