"""Scenario building on a real cartridge: reach the overworld from power-on, then use PyBoy's Gen 1
game wrapper to set up parties and start battles. Needs POKEMON_ROM; used by tests/rom and benchmarks."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.emulator.session import EmulatorSession
from engine.game.buttons import Button
from engine.game.damage import stat_at_level
from engine.game.growth import experience_for_level
from engine.game.mart import encode_bcd
from engine.game.models import DecisionPoint, GameState
from engine.game.state import decode_state
from engine.game.tables import game_data

BEDROOM = "REDS_HOUSE_2F"
WAIT_FRAMES = 8
SCENARIO_DV = 9  # every DV 9, as in the shared fixtures
# The HP DV is built from the low bits of the other four DVs (all odd here), as the game does.
SCENARIO_HP_DV = 15


def state_of(session: EmulatorSession) -> GameState:
    return decode_state(session.memory_image(), session.ram_map)


def _map_loaded(session: EmulatorSession) -> bool:
    return any(session.read(session.ram_map.wCurMapHeader, 3))


def _is_name_menu(state: GameState) -> bool:
    return state.decision_point is DecisionPoint.OTHER_MENU and any(
        "NEW NAME" in t for t in state.screen.text
    )


def boot_until(
    session: EmulatorSession, done: Callable[[GameState], bool], max_steps: int = 1500
) -> list[DecisionPoint]:
    """From power-on through title, new game and intro (preset names on the name menus) until `done`.
    Returns the decision points seen on the way."""
    seen: list[DecisionPoint] = []
    for _ in range(max_steps):
        state = state_of(session)
        point = state.decision_point
        if not seen or seen[-1] is not point:
            seen.append(point)
        if done(state):
            return seen
        if _is_name_menu(state):
            session.press(Button.DOWN)
            session.press(Button.A)
        elif point is DecisionPoint.BUSY and _map_loaded(session):
            pass  # a transition in the game proper: pressing now could open the start menu on arrival
        elif point is DecisionPoint.BUSY:
            session.press(Button.START)  # title screen and intro animations
        else:
            session.press(Button.A)
        session.tick(WAIT_FRAMES)
    raise AssertionError(f"condition never met; saw {[p.value for p in seen]}")


def boot_to_overworld(session: EmulatorSession) -> list[DecisionPoint]:
    def in_bedroom(state: GameState) -> bool:
        arrived = state.decision_point is DecisionPoint.OVERWORLD_FREE and state.overworld.map_name == BEDROOM
        return arrived and _map_loaded(session)

    return boot_until(session, in_bedroom)


def boot_to_name_menu(session: EmulatorSession) -> list[DecisionPoint]:
    return boot_until(session, _is_name_menu)


def make_mon(species: str, level: int, *, ot_id: int, moves: Iterable[str] | None = None) -> dict[str, Any]:
    """A party record for the game wrapper's set_party, with the game's own stat and experience formulas."""
    data = game_data()
    entry = data.species_by_name[species]
    if moves is None:
        known = list(entry.start_moves) + [move for learned_at, move in entry.learnset if learned_at <= level]
        moves = known[-4:]
    move_ids = [data.moves_by_name[name].id for name in moves]
    pp = [data.moves_by_name[name].pp for name in moves]
    padding = [0] * (4 - len(move_ids))
    base = entry.base
    max_hp = stat_at_level(base.hp, level, SCENARIO_HP_DV, is_hp=True)
    return {
        "species": entry.index,
        "level": level,
        "hp": max_hp,
        "max_hp": max_hp,
        # The fewest points for the level by the species' growth rate: with any other figure the game
        # re-levels the member at its first win (a slow one down, its HP then past zero).
        "exp": experience_for_level(entry.growth_rate, level),
        "attack": stat_at_level(base.attack, level, SCENARIO_DV),
        "defense": stat_at_level(base.defense, level, SCENARIO_DV),
        "speed": stat_at_level(base.speed, level, SCENARIO_DV),
        "special": stat_at_level(base.special, level, SCENARIO_DV),
        "type1": data.types_by_name[entry.types[0]].id,
        "type2": data.types_by_name[entry.types[1]].id,
        "catch_rate": entry.catch_rate,
        "moves": move_ids + padding,
        "pp": pp + padding,
        "dvs": 0x9999,
        # The player's own ID: a traded member above level 10 would disobey without badges.
        "ot_id": ot_id,
    }


def set_party(
    session: EmulatorSession,
    members: list[tuple[str, int]]
    | list[tuple[str, int, list[str]]]
    | list[tuple[str, int] | tuple[str, int, list[str]]],
) -> None:
    """Members as (species, level) or (species, level, moves)."""
    player_id = int.from_bytes(session.read(session.ram_map.wPlayerID, 2), "big")
    records = [make_mon(m[0], m[1], ot_id=player_id, moves=m[2] if len(m) > 2 else None) for m in members]
    session.pyboy.game_wrapper.set_party(records)


def set_party_hp(session: EmulatorSession, slot: int, hp: int) -> None:
    address = session.ram_map.wPartyMon1 + slot * session.ram_map.party.size + session.ram_map.party.hp
    session.write_u8(address, hp >> 8)
    session.write_u8(address + 1, hp & 0xFF)


def set_party_exp(session: EmulatorSession, slot: int, exp: int) -> None:
    address = session.ram_map.wPartyMon1 + slot * session.ram_map.party.size + session.ram_map.party.exp
    for offset, value in enumerate(exp.to_bytes(3, "big")):
        session.write_u8(address + offset, value)


def set_move_pp(session: EmulatorSession, slot: int, move_index: int, pp: int) -> None:
    """PP of one move of a party member (the PP-up bits are kept)."""
    ram = session.ram_map
    address = ram.wPartyMon1 + slot * ram.party.size + ram.party.pp + move_index
    session.write_u8(address, (session.read_u8(address) & 0xC0) | pp)


def teach_move(session: EmulatorSession, slot: int, move_index: int, move: str) -> None:
    """Write `move` into one move slot of a party member, with its full PP."""
    ram = session.ram_map
    found = game_data().moves_by_name[move]
    member = ram.wPartyMon1 + slot * ram.party.size
    session.write_u8(member + ram.party.moves + move_index, found.id)
    session.write_u8(member + ram.party.pp + move_index, found.pp)


def set_bag(session: EmulatorSession, items: list[tuple[str, int]]) -> None:
    """Replace the bag's contents: (item name, quantity) pairs, in bag order."""
    ids = {entry.name: item_id for item_id, entry in game_data().items.items()}
    ram = session.ram_map
    session.write_u8(ram.wNumBagItems, len(items))
    for index, (name, quantity) in enumerate(items):
        session.write_u8(ram.wBagItems + 2 * index, ids[name])
        session.write_u8(ram.wBagItems + 2 * index + 1, quantity)
    session.write_u8(ram.wBagItems + 2 * len(items), 0xFF)  # the list terminator


def set_money(session: EmulatorSession, yen: int) -> None:
    """The player's money: wPlayerMoney is 3 BCD bytes, most significant first (pret ram/wram.asm)."""
    for offset, byte in enumerate(encode_bcd(yen)):
        session.write_u8(session.ram_map.wPlayerMoney + offset, byte)


def set_enemy_hp(session: EmulatorSession, hp: int) -> None:
    """The active enemy's HP (the battle struct); only meaningful once it has been sent out."""
    address = session.ram_map.wEnemyMon + session.ram_map.battle.hp
    session.write_u8(address, hp >> 8)
    session.write_u8(address + 1, hp & 0xFF)


def enemy_party_hp(session: EmulatorSession) -> list[int]:
    """HP of every member of a trainer's party (wEnemyMons, kept after the battle ends)."""
    ram = session.ram_map
    count = min(session.read_u8(ram.wEnemyPartyCount), ram.party_size)
    hp = []
    for slot in range(count):
        address = ram.wEnemyMons + slot * ram.party.size + ram.party.hp
        hp.append(int.from_bytes(session.read(address, 2), "big"))
    return hp


# A gym's script writes its leader's place in LoneMoves to wGymLeaderNo before the battle (pret
# scripts/*Gym.asm: PewterGym 1 ... ViridianGym 8), and ReadTrainer then gives one member the leader's special
# move (engine/battle/read_trainer_party.asm): MISTY's STARMIE its BUBBLEBEAM, LT. SURGE's RAICHU its
# THUNDERBOLT. A battle started from outside the gym writes it too, or it is easier than the game's.
GYM_LEADERS = {("BROCK", 1): 1, ("MISTY", 1): 2, ("LT_SURGE", 1): 3, ("ERIKA", 1): 4, ("KOGA", 1): 5,
               ("SABRINA", 1): 6, ("BLAINE", 1): 7, ("GIOVANNI", 3): 8}  # fmt: skip


def start_battle(session: EmulatorSession, opponent: str, level_or_number: int) -> None:
    """A trainer class (e.g. BROCK, 1) or a wild species (e.g. PIDGEY, 5); waits until it begins."""
    wrapper = session.pyboy.game_wrapper
    if opponent in {c.name for c in game_data().trainer_classes.values()}:
        wrapper.start_trainer_battle(opponent, level_or_number)
        leader = GYM_LEADERS.get((opponent, level_or_number), 0)
        session.write_u8(session.ram_map.wGymLeaderNo, leader)
    else:
        wrapper.start_wild_battle(opponent, level_or_number)
    in_battle = session.ram_map.wIsInBattle
    session.run_until(lambda memory: memory[in_battle] != 0, 600)


def advance_to(
    session: EmulatorSession, targets: set[DecisionPoint], *, press: Button = Button.A, max_steps: int = 300
) -> GameState:
    """Advance text with `press` (waiting through busy frames) until one of `targets` is reached.

    Only text that shows the continue arrow is pressed: a press while a menu is still being drawn
    would land in that menu."""
    for _ in range(max_steps):
        state = state_of(session)
        if state.decision_point in targets:
            return state
        if state.screen.continue_arrow_visible:
            session.press(press)
        session.tick(WAIT_FRAMES)
    raise AssertionError(
        f"never reached {sorted(t.value for t in targets)}; at {state_of(session).decision_point}"
    )
