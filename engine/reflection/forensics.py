"""Phase 2, forensic analysis: what in the battle log explains the outcome.

Turning points (the turn the HP bars swung most, every faint), mistakes (moves that missed or moved no HP
bar, moves the type chart calls not very effective or useless against the target, switches into a bad
matchup), the effectiveness the game announced, the resources used (items, balls, PP, runs), and the
measured numbers: for each of our moves against each enemy species, how many uses, the mean share of the
enemy's HP bar one use took (misses count as 0) and how often it hit. A pure function of the log.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from pydantic import Field

from engine.battles.models import BattleLog, Effectiveness, SideView
from engine.frozen import Frozen
from engine.game.damage import type_effectiveness
from engine.game.models import DecisionPoint
from engine.reflection.names import species_types, type_display
from engine.reflection.turns import ChartClass, TurnRead, read_turns

# A turn in which the HP bars swung by this many percentage points (what the enemy lost minus what we
# lost, either way) changed who was ahead: a third of a bar plus change is more than an ordinary exchange
# of early-game hits (10-30 points each), so it is worth naming as a turning point.
SWING_POINTS = 40.0

TurningKind = Literal["swing", "faint", "enemy_faint"]
MistakeKind = Literal["missed", "no_damage", "no_effect", "not_very_effective", "bad_switch"]


class TurningPoint(Frozen):
    decision: int
    kind: TurningKind
    action: str
    detail: str


class Mistake(Frozen):
    decision: int
    kind: MistakeKind
    action: str
    detail: str


class EffectivenessSeen(Frozen):
    """What the game announced when our move hit this species."""

    move: str
    move_type: str
    species: str
    defender_types: tuple[str, ...]
    effectiveness: Effectiveness
    times: int = Field(ge=1)


class MoveMeasure(Frozen):
    """Our move against one enemy species (used by Pokémon of `attacker_types`), over this battle."""

    move: str
    move_type: str
    species: str
    defender_types: tuple[str, ...]
    attacker_types: tuple[str, ...]
    users: tuple[str, ...]  # our species that used it
    uses: int  # uses whose damage is known (a miss counts, as 0)
    damage_percent: float | None  # mean HP bar points per use
    hits: int
    hit_known: int  # uses whose hit or miss is known
    unknown_uses: int  # uses that told nothing (the bar unreadable, or we may never have moved)
    observed: Effectiveness | None = None  # the game's last announcement for it
    chart: ChartClass | None = None

    @property
    def hit_rate(self) -> float | None:
        return self.hits / self.hit_known if self.hit_known else None


class Count(Frozen):
    name: str
    count: int


class MoveUse(Frozen):
    move: str
    uses: int
    pp_used: int | None = None  # as recorded; None when the log does not say


class Resources(Frozen):
    items: tuple[Count, ...] = ()  # potions and other items, by name
    balls: tuple[Count, ...] = ()
    moves: tuple[MoveUse, ...] = ()
    struggles: int = 0
    runs: int = 0
    switches: int = 0  # by choice (a send-out after a faint is not one)


class Forensics(Frozen):
    participants: tuple[str, ...] = ()  # our species that fought, in order of appearance
    enemies: tuple[str, ...] = ()  # each enemy Pokémon seen, "GEODUDE L12", in order
    our_faints: tuple[str, ...] = ()
    enemy_faints: tuple[str, ...] = ()
    final_hp_percent: float | None = None  # our active Pokémon's at the end, when known
    turning_points: tuple[TurningPoint, ...] = ()
    mistakes: tuple[Mistake, ...] = ()
    effectiveness: tuple[EffectivenessSeen, ...] = ()
    measured: tuple[MoveMeasure, ...] = ()
    resources: Resources = Resources()


# -- small readings --------------------------------------------------------------------------------------


def _individual(side: SideView | None) -> str | None:
    return f"{side.species} L{side.level}" if side is not None else None


def _types_text(types: Sequence[str]) -> str:
    return "/".join(type_display(t) for t in types) or "?"


def participants(reads: Sequence[TurnRead]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for read in reads:
        for side in (read.ours, read.ours_after):
            if side is not None:
                seen.setdefault(side.species)
    return tuple(seen)


def enemies(reads: Sequence[TurnRead]) -> tuple[str, ...]:
    seen: dict[str, None] = {}
    for read in reads:
        for side in (read.enemy, read.enemy_after):
            if (name := _individual(side)) is not None:
                seen.setdefault(name)
    return tuple(seen)


def our_faints(reads: Sequence[TurnRead]) -> tuple[str, ...]:
    """Our Pokémon that fainted: flagged on a turn, or found fainted at a send-out prompt."""
    fainted: list[str] = []
    flagged_before = False
    for read in reads:
        prompt = read.point is DecisionPoint.BATTLE_NEXT_MON_PROMPT
        if prompt and not flagged_before and read.ours is not None:
            fainted.append(read.ours.species)
        if read.fainted and read.ours is not None:
            fainted.append(read.ours.species)
        flagged_before = read.fainted
    return tuple(fainted)


def enemy_faint_turns(reads: Sequence[TurnRead], trainer: bool) -> list[tuple[TurnRead, str]]:
    """The turns an enemy Pokémon fainted in, with it: flagged on the turn, or (a trainer battle) replaced
    by the next one; generation 1 trainers send their next Pokémon when one faints and switch only
    rarely. Each Pokémon counts once, however many decisions (a move to learn, say) show it fainted."""
    found: list[tuple[TurnRead, str]] = []
    counted: str | None = None
    for read in reads:
        before, after = _individual(read.enemy), _individual(read.enemy_after)
        if before is None or before == counted:
            continue
        replaced = trainer and after is not None and before != after
        if read.enemy_fainted or replaced:
            found.append((read, before))
            counted = before
        elif after is not None and after != before:
            counted = None
    return found


def enemy_faints(reads: Sequence[TurnRead], trainer: bool) -> tuple[str, ...]:
    return tuple(name for _, name in enemy_faint_turns(reads, trainer))


def final_hp(reads: Sequence[TurnRead]) -> float | None:
    last = next((read for read in reversed(reads) if read.ours is not None), None)
    if last is None or last.ours is None:
        return None
    if last.fainted:
        return 0.0
    if last.ours_after is not None:
        return last.ours_after.hp_percent
    if last.taken is None:
        return None
    return round(max(0.0, last.ours.hp_percent - last.taken), 1)


# -- turning points and mistakes ---------------------------------------------------------------------------


def turning_points(reads: Sequence[TurnRead], trainer: bool) -> tuple[TurningPoint, ...]:
    points: list[TurningPoint] = []
    swings = [
        (read.dealt - read.taken, read)
        for read in reads
        if read.dealt is not None and read.taken is not None and read.dealt >= 0 and read.taken >= 0
    ]
    if swings:
        swing, read = max(swings, key=lambda pair: abs(pair[0]))
        if abs(swing) >= SWING_POINTS:
            side = "for us" if swing > 0 else "against us"
            detail = (
                f"the enemy lost {read.dealt:g} and we lost {read.taken:g} HP bar points: "
                f"{abs(swing):g} {side}"
            )
            points.append(
                TurningPoint(decision=read.decision, kind="swing", action=read.label, detail=detail)
            )
    for read in reads:
        if read.fainted and read.ours is not None:
            by = f" to {read.enemy.species}" if read.enemy is not None else ""
            points.append(TurningPoint(decision=read.decision, kind="faint", action=read.label,
                                       detail=f"our {read.ours.species} fainted{by}"))  # fmt: skip
    for read, name in enemy_faint_turns(reads, trainer):
        points.append(TurningPoint(decision=read.decision, kind="enemy_faint", action=read.label,
                                   detail=f"the enemy {name} fainted"))  # fmt: skip
    return tuple(sorted(points, key=lambda p: p.decision))


def _move_mistake(read: TurnRead) -> Mistake | None:
    assert read.move is not None and read.enemy is not None
    target = f"{read.enemy.species} ({_types_text(species_types(read.enemy.species))})"
    effect = read.observed or read.chart
    if effect == "no_effect":
        return Mistake(decision=read.decision, kind="no_effect", action=read.label,
                       detail=f"{read.move} has no effect on {target}")  # fmt: skip
    damage, hit = read.use()
    if read.missed:
        return Mistake(decision=read.decision, kind="missed", action=read.label,
                       detail=f"{read.move} missed {read.enemy.species}")  # fmt: skip
    if damage == 0 and hit is False:
        return Mistake(decision=read.decision, kind="no_damage", action=read.label,
                       detail=f"{read.move} moved no HP bar of {read.enemy.species} (a miss?)")  # fmt: skip
    if effect == "not_very":
        return Mistake(decision=read.decision, kind="not_very_effective", action=read.label,
                       detail=f"{read.move} is not very effective against {target}")  # fmt: skip
    return None


def _bad_switch(read: TurnRead) -> Mistake | None:
    incoming = read.ours_after
    enemy = read.enemy_after or read.enemy
    if incoming is None or enemy is None or (read.ours is not None and incoming.species == read.ours.species):
        return None
    ours, theirs = species_types(incoming.species), species_types(enemy.species)
    if not ours or not theirs:
        return None
    threats = [t for t in theirs if type_effectiveness(t, ours[0], ours[-1]) > 1]
    if not threats:
        return None
    detail = (
        f"{incoming.species} ({_types_text(ours)}) came in against {enemy.species} ({_types_text(theirs)}): "
        f"{_types_text(threats)} moves are super effective against it"
    )
    return Mistake(decision=read.decision, kind="bad_switch", action=read.label, detail=detail)


def mistakes(reads: Sequence[TurnRead]) -> tuple[Mistake, ...]:
    found: list[Mistake] = []
    for read in reads:
        mistake = None
        if read.kind == "move" and read.move is not None and read.enemy is not None and read.damaging:
            mistake = _move_mistake(read)
        elif read.kind in ("switch", "send_out"):
            mistake = _bad_switch(read)
        if mistake is not None:
            found.append(mistake)
    return tuple(found)


# -- effectiveness, measurements, resources ----------------------------------------------------------------


def effectiveness_seen(reads: Sequence[TurnRead]) -> tuple[EffectivenessSeen, ...]:
    counts: Counter[tuple[str, str, str, Effectiveness]] = Counter()
    for read in reads:
        if read.observed and read.move and read.move_type and read.enemy is not None:
            counts[(read.move, read.move_type, read.enemy.species, read.observed)] += 1
    return tuple(
        EffectivenessSeen(
            move=move,
            move_type=move_type,
            species=species,
            effectiveness=effect,
            defender_types=species_types(species),
            times=times,
        )
        for (move, move_type, species, effect), times in counts.items()
    )


def measure(reads: Sequence[TurnRead]) -> tuple[MoveMeasure, ...]:
    """Our damaging moves against each enemy species, grouped also by the user's types (they set STAB, so
    the same move from another type of user is another measurement)."""
    groups: dict[tuple[str, str, tuple[str, ...]], list[TurnRead]] = {}
    for read in reads:
        if read.kind != "move" or not read.damaging or read.move is None or read.enemy is None:
            continue
        attacker = species_types(read.ours.species) if read.ours is not None else ()
        groups.setdefault((read.move, read.enemy.species, attacker), []).append(read)
    measures = []
    for (move, species, attacker), uses in groups.items():
        outcomes = [read.use() for read in uses]
        damages = [damage for damage, _ in outcomes if damage is not None]
        hits = [hit for _, hit in outcomes if hit is not None]
        observed = [read.observed for read in uses if read.observed]
        measures.append(
            MoveMeasure(
                move=move,
                move_type=uses[0].move_type or "?",
                species=species,
                defender_types=species_types(species),
                attacker_types=attacker,
                users=tuple(dict.fromkeys(read.ours.species for read in uses if read.ours is not None)),
                uses=len(damages),
                damage_percent=round(sum(damages) / len(damages), 1) if damages else None,
                hits=sum(hits),
                hit_known=len(hits),
                unknown_uses=len(uses) - len(damages),
                observed=observed[-1] if observed else None,
                chart=uses[0].chart,
            )
        )
    return tuple(measures)


def pool_measures(measures: Sequence[MoveMeasure]) -> tuple[MoveMeasure, ...]:
    """Measurements of the same move against the same species by the same types of user, from several
    battles (counterfactual rollouts), as one: counts add up, the mean damage is weighted by uses."""
    groups: dict[tuple[str, str, tuple[str, ...]], list[MoveMeasure]] = {}
    for item in measures:
        groups.setdefault((item.move, item.species, item.attacker_types), []).append(item)
    pooled = []
    for parts in groups.values():
        known = [(part.damage_percent, part.uses) for part in parts if part.damage_percent is not None]
        uses = sum(count for _, count in known)
        damage = sum(mean * count for mean, count in known) / uses if uses else None
        users = tuple(dict.fromkeys(user for part in parts for user in part.users))
        observed = [part.observed for part in parts if part.observed]
        pooled.append(
            parts[0].model_copy(
                update={
                    "users": users,
                    "uses": sum(part.uses for part in parts),
                    "damage_percent": round(damage, 1) if damage is not None else None,
                    "hits": sum(part.hits for part in parts),
                    "hit_known": sum(part.hit_known for part in parts),
                    "unknown_uses": sum(part.unknown_uses for part in parts),
                    "observed": observed[-1] if observed else None,
                }
            )
        )
    return tuple(pooled)


def resources(reads: Sequence[TurnRead]) -> Resources:
    items: Counter[str] = Counter(read.item for read in reads if read.kind == "item" and read.item)
    balls: Counter[str] = Counter(read.item for read in reads if read.kind == "ball" and read.item)
    moves: dict[str, list[TurnRead]] = {}
    for read in reads:
        if read.kind == "move" and read.move:
            moves.setdefault(read.move, []).append(read)
    move_uses = []
    for move, uses in moves.items():
        spent = [read.pp_used for read in uses if read.pp_used is not None]
        move_uses.append(MoveUse(move=move, uses=len(uses), pp_used=sum(spent) if spent else None))
    return Resources(
        items=tuple(Count(name=name, count=n) for name, n in items.items()),
        balls=tuple(Count(name=name, count=n) for name, n in balls.items()),
        moves=tuple(move_uses),
        struggles=sum(read.kind == "struggle" for read in reads),
        runs=sum(read.kind == "run" for read in reads),
        switches=sum(read.kind == "switch" for read in reads),
    )


def analyse(log: BattleLog, reads: Sequence[TurnRead] | None = None) -> Forensics:
    reads = read_turns(log) if reads is None else reads
    trainer = log.summary.battle_type == "trainer"
    return Forensics(
        participants=participants(reads),
        enemies=enemies(reads),
        our_faints=our_faints(reads),
        enemy_faints=enemy_faints(reads, trainer),
        final_hp_percent=final_hp(reads),
        turning_points=turning_points(reads, trainer),
        mistakes=mistakes(reads),
        effectiveness=effectiveness_seen(reads),
        measured=measure(reads),
        resources=resources(reads),
    )
