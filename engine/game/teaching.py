"""Teaching a TM or HM outside battle: which member learns it, and which move it forgets to make room.

Compatibility is the species' TM/HM list (pret data/pokemon/base_stats/*.asm, in game/data/species.json).
The rule, for a machine a plan needs (an HM for the field): a member with a free move slot costs nothing;
otherwise the member gives up its least useful move, valued as the battle model would weigh it (power x
accuracy, x1.5 with the same type as the member; a status move counts little; a move whose type another of
its moves covers better, or an HM's move of its type does, counts half), and an HM is never forgotten (the
game refuses, and a plan may need it). The cheapest member learns; between equals the lowest level, so the
team's strongest keeps its moves.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game.damage import TWO_TURN_EFFECTS
from engine.game.models import GameState, Mon, MoveSlot, PartyMon
from engine.game.stats import MAX_FORMS, form_fields, level_evolution, raised
from engine.game.tables import Move, game_data

MOVE_SLOTS = 4
STATUS_MOVE_VALUE = 10.0  # a move without power: GROWL, TAIL_WHIP, SAND_ATTACK, ...
STAB = 1.5
COVERED = 0.5  # a move whose type a stronger move of the member's already hits with
# A one-hit knock-out move (FISSURE, HORN DRILL, GUILLOTINE: power 1, 30% accuracy in the game's table) is a
# sure knock-out under X ACCURACY against a foe no faster than its user, the gauntlet's plan (team/boosts.py):
# worth a strong hit. At its table power it was "worth 0", and both runs of seed 54 that were taught FISSURE
# for the Elite Four forgot it for STRENGTH before Victory Road.
OHKO_VALUE = 100.0


@dataclass(frozen=True)
class Lesson:
    member: int  # party slot, 0-based
    forget: int | None  # the move slot to overwrite; None: a free slot
    reason: str


def machine_move(item: str) -> str | None:
    """The move a TM or HM item (its pret name: HM_CUT, TM_BUBBLEBEAM) teaches."""
    found = game_data().items.get(game_data().item_ids.get(item, -1))
    return found.teaches if found is not None else None


def can_learn(species: str | None, item: str) -> bool:
    data = game_data()
    entry = data.species_by_name.get(species or "")
    machine = data.items.get(data.item_ids.get(item, -1))
    return entry is not None and machine is not None and machine.display_name in entry.tmhm


def is_machine_move(move: str | None) -> bool:
    """An HM's move: the game will not let a member forget it."""
    return move is not None and any(
        item.teaches == move and (item.display_name or "").startswith("HM")
        for item in game_data().items.values()
    )


def choose_student(state: GameState, item: str) -> Lesson | None:
    """Who learns `item`'s move, and what it forgets; None when no member can learn it (or all know it)."""
    move = machine_move(item)
    best: tuple[float, int, Lesson] | None = None
    for index, member in enumerate(state.party):
        if not can_learn(member.species_name, item) or any(slot.name == move for slot in member.moves):
            continue
        cost, forget, why = _room(member)
        if forget is None and cost == float("inf"):
            continue
        lesson = Lesson(member=index, forget=forget, reason=f"{member.species_name} learns {move}{why}")
        key = (cost, member.level, lesson)
        if best is None or key[:2] < best[:2]:
            best = key
    return best[2] if best is not None else None


def _room(member: Mon) -> tuple[float, int | None, str]:
    """What making room costs this member: nothing with a free slot, else its least useful move's value."""
    known = [slot for slot in member.moves if slot.move_id]
    if len(known) < MOVE_SLOTS:
        return 0.0, None, " into a free slot"
    values = move_values(member)
    forgettable = [(value, slot) for slot, value in enumerate(values) if value != float("inf")]
    if not forgettable:
        return float("inf"), None, ""
    value, slot = min(forgettable)
    return value, slot, f", forgetting {member.moves[slot].name} (worth {value:.0f})"


def level_up_room(member: Mon, move: str) -> int | None:
    """The move slot a level-up move offered to a member with four moves takes, by the teaching rule (its
    least useful move, never an HM); None to let the new move go, when it is worth no more than that."""
    offered = game_data().moves_by_name.get(move)
    cost, slot, _ = _room(member)
    if offered is None or slot is None:
        return None
    kept = [game_data().moves_by_id.get(s.move_id) for at, s in enumerate(member.moves) if at != slot]
    worth = _raw_value(member, offered) * (COVERED if _covered(member, offered, kept) else 1.0)
    return slot if worth > cost else None


def move_values(member: Mon) -> list[float]:
    """Each move slot's worth to this member in battle; an HM's is infinite (never forgotten)."""
    data = game_data()
    moves = [data.moves_by_id.get(slot.move_id) for slot in member.moves]
    raw = [_raw_value(member, move) for move in moves]
    values = []
    for index, move in enumerate(moves):
        if move is None or is_machine_move(move.name):
            values.append(float("inf") if move is not None else 0.0)
            continue
        others = [other for at, other in enumerate(moves) if at != index]
        values.append(raw[index] * (COVERED if _covered(member, move, others) else 1.0))
    return values


def _covered(member: Mon, move: Move, others: list[Move | None]) -> bool:
    """Another of the moves hits with the same type and harder, or is an HM's (kept for good): a SURF for
    the sea makes a HYDRO PUMP a spare, and a BLASTOISE that learned STRENGTH forgot ICE BEAM for it, the
    one move it had for LANCE's dragons, keeping HYDRO PUMP beside SURF."""
    if move.power == 0:
        return False
    mine = _raw_value(member, move)
    return any(
        other is not None and other.type == move.type
        and (_raw_value(member, other) > mine or is_machine_move(other.name))
        for other in others
    )  # fmt: skip


def _raw_value(member: Mon, move: Move | None) -> float:
    if move is None:
        return 0.0
    if move.effect == "OHKO_EFFECT":
        return OHKO_VALUE
    if move.power == 0:
        return STATUS_MOVE_VALUE
    stab = STAB if move.type in (member.type1_name, member.type2_name) else 1.0
    # A charge or a recharge: one hit every two turns (SKULL BASH took BODY SLAM's place for its power).
    pace = 0.5 if move.effect in TWO_TURN_EFFECTS else 1.0
    return move.power * move.accuracy / 100 * stab * pace


def with_level_moves(mon: PartyMon, level: int) -> PartyMon:
    """The member's moves once it has grown to `level`: each move its species learns on the way (pret
    data/pokemon/evos_moves.asm), into a free slot or by the level-up rule above. A SQUIRTLE weighed at L11
    with its L6 moves (TACKLE, TAIL WHIP) was hopeless against BROCK, so a RATTATA was trained to L21 in
    its place; at L8 it learns BUBBLE."""
    species = game_data().species_by_index.get(mon.species_id)
    if species is None:
        return mon
    for at, name in species.learnset:
        found = game_data().moves_by_name.get(name)
        known = {slot.name for slot in mon.moves}
        if not mon.level < at <= level or found is None or name in known:
            continue
        new = MoveSlot(move_id=found.id, name=found.name, pp=found.pp, pp_ups=0)
        moves = [slot for slot in mon.moves if slot.move_id]
        if len(moves) < MOVE_SLOTS:
            mon = mon.model_copy(update={"moves": (*moves, new)})
            continue
        slot = level_up_room(mon, name)
        if slot is not None:
            mon = mon.model_copy(
                update={"moves": tuple(new if i == slot else m for i, m in enumerate(moves))}
            )
    return mon


def grown(mon: PartyMon, level: int) -> PartyMon:
    """The member grown to `level`: each form it evolves into by level on the way, the moves each form
    learns at its levels (the new form's at the level it evolves at too, as pret
    engine/pokemon/evos_moves.asm Evolution_PartyMonLoop teaches them), its stats, its HP full."""
    data = game_data()
    for _ in range(MAX_FORMS):
        species = data.species_by_index.get(mon.species_id)
        found = level_evolution(species, level) if species is not None and level > mon.level else None
        if found is None:
            break
        at, into = found
        at = max(at, mon.level + 1)  # a member past its level evolves at its next level-up
        mon = with_level_moves(mon, at).model_copy(update={"level": at - 1} | form_fields(into))
    return raised(with_level_moves(mon, level), level)
