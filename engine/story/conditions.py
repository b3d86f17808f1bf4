"""Conditions on RAM, written as short strings in the objective graph so it reads like a checklist:

event:EVENT_GOT_STARTER      the event flag (pret name) is set; `!` in front negates any condition
badge:BOULDER                the badge is held
item:POKE_BALL               the bag holds the item
town:VIRIDIAN_CITY           the town has been visited (wTownVisitedFlag, what Fly reads)
map:REDS_HOUSE_2F            the player stands on that map now
blackout:INDIGO_PLATEAU      a whiteout sends the player there (wLastBlackoutMap: the town of the last heal)
knows:CUT                    a party member knows the move
hidden:TOGGLE_GAME_CORNER_ROCKET   the toggleable object is switched off (a person gone, an item taken)
flag:GUARDS_HAD_DRINK        a story flag kept outside the event flags (the Saffron guards' drink)
can_learn:HM_CUT             a party member can learn the TM's or HM's move (and does not know it yet)
owned>=2  party>=2  level>=12  hp>=1.0  pp>=1.0  fit>=0.8  balls>=1
                             Pokédex owned count, party size, the highest party level, the party's
                             HP and its moves' PP as fractions of their maximum, the fighters' HP and
                             PP (the least share of any of them, 0 with a status), Poké Balls in the bag
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.game.field_moves import member_with
from engine.game.mending import fighters
from engine.game.models import GameState, PartyMon
from engine.game.tables import game_data
from engine.game.teaching import choose_student
from engine.story.errors import StoryError

_PREFIXED: dict[str, Callable[[GameState, str], bool]] = {
    "event": lambda state, name: name in state.story.events,
    "badge": lambda state, name: name in {badge.upper() for badge in state.progress.badge_names},
    "item": lambda state, name: any(item.name == name and item.quantity > 0 for item in state.bag),
    "town": lambda state, name: name in state.story.towns_visited,
    "map": lambda state, name: state.overworld.map_name == name,
    "blackout": lambda state, name: state.story.blackout_map == name,
    "knows": lambda state, name: member_with(state, name) is not None,
    "can_learn": lambda state, name: choose_student(state, name) is not None,
    "hidden": lambda state, name: game_data().toggle_index.get(name, -1) in state.story.hidden_objects,
    "flag": lambda state, name: _FLAGS[name](state),
}
# Story flags kept outside the event flags.
_FLAGS: dict[str, Callable[[GameState], bool]] = {
    "GUARDS_HAD_DRINK": lambda state: (
        state.story.guards_had_drink
    ),  # wStatusFlags1 BIT_GAVE_SAFFRON_GUARDS_DRINK
}
_BALLS = ("POKE_BALL", "GREAT_BALL", "ULTRA_BALL", "MASTER_BALL")


def party_hp(state: GameState) -> float:
    """The party's HP as a share of its maximum; 1.0 with no party (nothing to heal)."""
    total = sum(mon.max_hp for mon in state.party)
    return sum(mon.hp for mon in state.party) / total if total else 1.0


def _pp(mon: PartyMon) -> tuple[int, int]:
    """PP left and the most there can be, each PP UP adding a fifth of the base (pret
    engine/items/item_effects.asm ItemUsePPUp)."""
    moves = game_data().moves_by_id
    total = left = 0
    for slot in mon.moves:
        found = moves.get(slot.move_id)
        if found is not None and found.pp:
            total += found.pp + found.pp // 5 * slot.pp_ups
            left += slot.pp
    return left, total


def party_pp(state: GameState) -> float:
    """The party's PP as a share of its maximum; 1.0 with no moves."""
    counts = [_pp(mon) for mon in state.party]
    total = sum(most for _, most in counts)
    return sum(left for left, _ in counts) / total if total else 1.0


def _fitness(mon: PartyMon) -> float:
    left, total = _pp(mon)
    hp = mon.hp / mon.max_hp if mon.max_hp else 1.0
    return 0.0 if mon.status != "OK" else min(hp, left / total if total else 1.0)


def fighters_fit(state: GameState) -> float:
    """How fit the members who fight are (game/mending.py): the least share of HP or of PP any of them
    has, 0 when one has a status. The field-move carriers' HP is left out: a walk to a nurse for a PIDGEY
    L3 that only carries FLY buys nothing the next battles use."""
    return min((_fitness(mon) for mon in fighters(state)), default=1.0)


def balls(state: GameState) -> int:
    return sum(item.quantity for item in state.bag if item.name in _BALLS)


_MEASURED: dict[str, Callable[[GameState], float]] = {
    "owned": lambda state: state.progress.pokedex_owned,
    "party": lambda state: len(state.party),
    "level": lambda state: max((mon.level for mon in state.party), default=0),
    "hp": party_hp,
    "pp": party_pp,
    "fit": fighters_fit,
    "balls": balls,
}
_MEASURE = re.compile(r"^(\w+)>=([0-9.]+)$")


def check(text: str) -> Callable[[GameState], bool]:
    """The test a condition string names; StoryError for one that names nothing."""
    negated = text.startswith("!")
    body = text[1:] if negated else text
    test = _positive(body)
    if test is None:
        raise StoryError(f"unknown condition {text!r}")
    return (lambda state: not test(state)) if negated else test


def _positive(body: str) -> Callable[[GameState], bool] | None:
    kind, sep, name = body.partition(":")
    if kind == "hidden" and name not in game_data().toggle_index:
        return None  # a toggle pret does not name: a typo would otherwise never hold
    if kind == "flag" and name not in _FLAGS:
        return None
    if sep and kind in _PREFIXED and name:
        named = _PREFIXED[kind]
        return lambda state: named(state, name)
    found = _MEASURE.match(body)
    if found and found.group(1) in _MEASURED:
        measure, least = _MEASURED[found.group(1)], float(found.group(2))
        return lambda state: measure(state) >= least
    return None


def holds(text: str, state: GameState) -> bool:
    return check(text)(state)


def any_of(alternatives: tuple[tuple[str, ...], ...], state: GameState) -> bool:
    """True when every condition of at least one alternative holds."""
    return any(all(holds(text, state) for text in group) for group in alternatives)
