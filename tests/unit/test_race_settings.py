"""The race's remembered settings: what a duel reads of its two members but their HP, worked out once and
shared by the races at every HP pair. Remembering must never change an answer."""

from __future__ import annotations

import itertools

from engine.combat import enemy, judge, pace, race
from engine.combat.fighter import Duel, Fighter, Side, fighter_of
from engine.game.tables import game_data


def mon(species: str, level: int, *moves: str, **changes: object) -> Fighter:
    table = game_data().moves_by_name
    fighter = fighter_of(species, level, [table[m] for m in moves])
    return fighter._replace(**changes) if changes else fighter


def erika(*members: Fighter, uses: int = 1) -> Side:
    # ERIKA's AI uses a SUPER_POTION below a tenth of the bar (pret engine/battle/trainer_ai.asm).
    return Side(members=members, trainer_class="ERIKA", ai_uses=uses, turns_out=2)


def _forget() -> None:
    for memo in (race._SETTINGS, race._CHOICES, race._RACES_WITH, pace._PACES, pace._TAILS, judge._RACES):
        memo.clear()


def _positions() -> list[Duel]:
    """A duel at many HP pairs, with and without a bag, with a GROWL that wears our member down."""
    ours = mon("IVYSAUR", 30, "RAZOR_LEAF", "TACKLE", "GROWL", "LEECH_SEED")
    theirs = mon("VICTREEBEL", 29, "WRAP", "RAZOR_LEAF", "GROWL", "ACID")
    found = []
    for our_hp, their_hp, heals in itertools.product((90, 41, 7), (95, 30, 9, 3), ((), (50, 20))):
        us = Side(members=(ours.with_hp(our_hp),), heals=heals)
        found.append(Duel(us=us, them=erika(theirs.with_hp(their_hp))))
    return found


def test_remembered_settings_give_the_answers_worked_out_afresh() -> None:
    positions = _positions()
    _forget()
    in_order = [race.duel_odds(duel) for duel in positions]
    afresh = []
    for duel in reversed(positions):
        _forget()
        afresh.append(race.duel_odds(duel))
    assert in_order == list(reversed(afresh))
    assert len({odds.win for odds in in_order}) > len(positions) // 2  # the HP pairs do race differently


def test_races_at_other_hp_share_one_setting() -> None:
    _forget()
    positions = [duel for duel in _positions() if not duel.us.heals and duel.them.fighter.hp >= 30]
    for duel in positions:
        race.duel_odds(duel)
    assert len(race._SETTINGS) < len(positions)


def test_the_pp_left_matter_to_a_setting_only_where_a_move_runs_out() -> None:
    ours = mon("IVYSAUR", 30, "RAZOR_LEAF", "TACKLE")
    theirs = mon("VICTREEBEL", 29, "WRAP", "RAZOR_LEAF")
    full, fewer, none = (Duel(us=Side(members=(ours._replace(pp=pp),)), them=erika(theirs))
                         for pp in ((25, 35), (3, 35), (0, 35)))  # fmt: skip
    assert race._setting(full) is race._setting(fewer)
    assert race._setting(none) is not race._setting(full)
    assert race._setting(none).best.slot == 1  # RAZOR_LEAF is out: TACKLE is what is left


def test_the_trainers_potion_is_weighed_exactly_below_its_threshold() -> None:
    # One HP either side of a tenth of the bar: within the same twentieth, once remembered as one.
    ours = mon("CHARMELEON", 30, "EMBER")
    theirs = mon("TANGELA", 24, "VINE_WHIP")
    threshold = theirs.max_hp // 10
    above, below = (
        Duel(us=Side(members=(ours,)), them=erika(theirs.with_hp(hp))) for hp in (threshold, threshold - 1)
    )
    assert threshold * 20 // theirs.max_hp == (threshold - 1) * 20 // theirs.max_hp  # one twentieth
    assert enemy.item_held_back(above.them) and not enemy.item_held_back(below.them)
    _forget()
    items_above = [a for _p, a in race._setting(above).answers if not hasattr(a, "slot")]
    items_below = [a for _p, a in race._setting(below).answers if not hasattr(a, "slot")]
    assert items_above == [] and [a.item for a in items_below] == ["SUPER_POTION"]


def test_a_winner_keeps_its_place_when_its_hp_and_pp_change() -> None:
    fighter = mon("IVYSAUR", 30, "RAZOR_LEAF", "TACKLE", status="PSN", toxic=2)
    assert fighter.with_hp_pp(12, (4, 3)) == fighter._replace(hp=12, pp=(4, 3))
