"""The turn model's picture of a battle: each side's members, the active one's battle-only state, and the
actions a side can take in a turn.

Named tuples of plain values rather than pydantic models: the search builds and compares hundreds of
thousands of them a second. Moves are held by id (`move_of` looks them up). Stats follow pret/pokered's
split (ram/wram.asm): `stats` are the unmodified ones (party struct, wEnemyMonUnmodified*), `battle` what
the battle struct holds after stages, badge boosts and the burn and paralysis penalties
(wBattleMonAttack…); normal hits use `battle`, critical hits `stats`.
"""

from __future__ import annotations

from typing import Any, NamedTuple, TypeVar

from engine.combat.memo import keep
from engine.game.assessment import likely_moves
from engine.game.damage import MAX_STAT_VALUE, apply_stage, stat_at_level
from engine.game.tables import Move, game_data

NEUTRAL = (0, 0, 0, 0, 0, 0)  # attack, defense, speed, special, accuracy, evasion
ATTACK, DEFENSE, SPEED, SPECIAL, ACCURACY, EVASION = range(6)
# pret engine/battle/core.asm ApplyBadgeStatBoosts: each of the four badges raises one stat by 1/8.
BADGE_BOOSTS = {"BOULDER": ATTACK, "THUNDER": DEFENSE, "SOUL": SPEED, "VOLCANO": SPECIAL}
Stats4 = tuple[int, int, int, int]
_T = TypeVar("_T", bound=tuple[object, ...])


class Fighter(NamedTuple):
    species: str
    level: int
    hp: int
    max_hp: int
    stats: Stats4
    battle: Stats4
    types: tuple[str, str]
    base_speed: int
    moves: tuple[int, ...]  # move ids
    pp: tuple[int, ...]
    status: str = "OK"  # OK, SLP, PSN, BRN, FRZ, PAR
    sleep_turns: int = 0
    toxic: int = 0  # badly poisoned: the next residual takes toxic/16 of max HP
    stages: tuple[int, ...] = NEUTRAL
    confused: int = 0  # turns of confusion left
    seeded: bool = False
    reflect: bool = False
    light_screen: bool = False
    focus_energy: bool = False
    mist: bool = False
    bide: int = 0  # turns left storing energy
    bide_damage: int = 0
    trapping: int = 0  # turns left of its own WRAP/BIND/FIRE_SPIN/CLAMP: the other side cannot act
    trap_damage: int = 0
    recharging: bool = False
    charging: int = -1  # slot of a two-turn move charged last turn
    flinched: bool = False
    x_accuracy: bool = False  # X ACCURACY used: its moves skip the accuracy roll
    thrashing: int = 0  # uses of THRASH or PETAL DANCE still to come, confusion after the last
    raging: bool = False  # RAGE used: RAGE every turn until the battle ends for it
    transformed: bool = False  # TRANSFORM used: the other's species, types, stats, stages and moves
    max_pp: tuple[int, ...] = ()  # per move, with its PP Ups (empty: the moves' own PP)
    known: bool = True  # False: the moves are a guess (visible_only); the search weighs them as one
    # Per move slot: what lesson memory saw a move do against this enemy over what the calculator expects
    # (empty: no lessons). It scales the move's damage everywhere the model uses it.
    scales: tuple[float, ...] = ()

    def top_pp(self, slot: int) -> int:
        """The most PP the move in `slot` can have."""
        if slot < len(self.max_pp):
            return self.max_pp[slot]
        return game_data().moves_by_id[self.moves[slot]].pp

    def scale(self, slot: int) -> float:
        return self.scales[slot] if 0 <= slot < len(self.scales) else 1.0

    @property
    def fainted(self) -> bool:
        return self.hp <= 0

    def hurt(self, damage: int) -> Fighter:
        return self.with_hp(max(0, self.hp - damage))

    def with_hp(self, hp: int) -> Fighter:
        """`_replace(hp=hp)`, the search's most frequent change, without naming fields."""
        return tuple.__new__(Fighter, (*self[:2], hp, *self[3:]))

    def with_hp_pp(self, hp: int, pp: tuple[int, ...]) -> Fighter:
        """`_replace(hp=hp, pp=pp)` by position: how the judge leaves every duel's winner."""
        return tuple.__new__(Fighter, (*self[:2], hp, *self[3:9], pp, *self[10:]))

    def healed(self, amount: int) -> Fighter:
        return self._replace(hp=min(self.max_hp, self.hp + amount))


class Side(NamedTuple):
    members: tuple[Fighter, ...]
    active: int = 0
    badges: frozenset[str] = frozenset()  # the player's: their stat boosts apply to the active member
    trainer_class: str | None = None  # the enemy's, for its move choice and items; None for wild
    ai_uses: int = 0  # items the trainer's AI may still use on the active member
    turns_out: int = 0  # turns the active member has fought (the AI's layer 2 looks at the first)
    heals: tuple[int, ...] = ()  # HP each healing item in our bag restores, largest first (FULL_HEAL_HP: all)

    @property
    def fighter(self) -> Fighter:
        return self.members[self.active]

    def with_fighter(self, fighter: Fighter) -> Side:
        members, active = self[0], self[1]
        return tuple.__new__(Side, ((*members[:active], fighter, *members[active + 1 :]), *self[1:]))

    def with_turns_out(self, turns: int) -> Side:
        """`_replace(turns_out=turns)` without naming fields: the end of every turn the search plays."""
        return tuple.__new__(Side, (*self[:5], turns, *self[6:]))

    def able(self) -> list[int]:
        """Members that can still fight, other than the active one."""
        # By position (m[2] is the HP): the judge asks this millions of times a battle.
        active = self[1]
        return [i for i, m in enumerate(self[0]) if m[2] > 0 and i != active]

    @property
    def defeated(self) -> bool:
        # A plain loop: the judge asks this hundreds of thousands of times a battle.
        for member in self.members:  # noqa: SIM110
            if member.hp > 0:
                return False
        return True


class Duel(NamedTuple):
    us: Side
    them: Side
    wild: bool = False

    def side(self, ours: bool) -> Side:
        return self.us if ours else self.them

    def with_side(self, ours: bool, side: Side) -> Duel:
        return tuple.__new__(Duel, (side, self[1], self[2]) if ours else (self[0], side, self[2]))

    @property
    def over(self) -> bool:
        return self.us.defeated or self.them.defeated


def _fast_replace(self: _T, **changes: object) -> _T:
    """`_replace` by field position: the standard one pops every field name from a dict, which made it a
    fifth of the battle search's time (the search replaces a field of a 30-field Fighter millions of
    times a run). Same result, same error for a name that is not a field."""
    values = list(self)
    index = _FIELD_INDEX[type(self)]
    for name, value in changes.items():
        at = index.get(name)
        if at is None:
            raise ValueError(f"Got unexpected field names: {[name]!r}")
        values[at] = value
    return tuple.__new__(type(self), values)


_FIELD_INDEX: dict[type, dict[str, int]] = {}
for _cls in (Fighter, Side, Duel):
    _FIELD_INDEX[_cls] = {name: i for i, name in enumerate(_cls._fields)}
    # Assigned after the class is made: typing.NamedTuple refuses a `_replace` in the class body.
    setattr(_cls, "_replace", _fast_replace)  # noqa: B010


class Attack(NamedTuple):
    slot: int  # STRUGGLE_SLOT when no move has PP left


class Switch(NamedTuple):
    member: int


class UseItem(NamedTuple):
    item: str
    heal: int | None  # HP restored; None restores all
    cures: frozenset[str]
    member: int
    move: int = -1  # the move slot an ETHER or MAX ETHER restores


Action = Attack | Switch | UseItem
FULL_HEAL_HP = 999  # what a MAX_POTION or FULL_RESTORE counts as in `Side.heals`
ACTIVE_MEMBER = -1  # an item's member: the one in front (X items have no target to choose)
REVIVES = {"REVIVE": 2, "MAX_REVIVE": 1}  # a fainted member comes back with max HP divided by this
STRUGGLE_SLOT = -1


def struggle() -> Move:
    return game_data().moves_by_name["STRUGGLE"]


def move_of(fighter: Fighter, slot: int) -> Move:
    return struggle() if slot == STRUGGLE_SLOT else game_data().moves_by_id[fighter.moves[slot]]


def moves_of(fighter: Fighter) -> list[Move]:
    return [game_data().moves_by_id[move_id] for move_id in fighter.moves]


def boosted(stat: int) -> int:
    return min(MAX_STAT_VALUE, stat + stat // 8)


def battle_stats(fighter: Fighter, badges: frozenset[str] = frozenset()) -> Stats4:
    """The battle struct's stats from the unmodified ones: stages, then the player's badge boosts, then the
    burn and paralysis penalties (what the game holds right after a member is sent out)."""
    stats = [apply_stage(stat, stage) for stat, stage in zip(fighter.stats, fighter.stages[:4], strict=True)]
    for badge, stat in BADGE_BOOSTS.items():
        if badge in badges:
            stats[stat] = boosted(stats[stat])
    if fighter.status == "PAR":
        stats[SPEED] = max(1, stats[SPEED] // 4)
    if fighter.status == "BRN":
        stats[ATTACK] = max(1, stats[ATTACK] // 2)
    return (stats[0], stats[1], stats[2], stats[3])


def fresh(fighter: Fighter, badges: frozenset[str] = frozenset()) -> Fighter:
    """A member as it comes out: no stages or battle-only state; toxic turns back into plain poison.
    Remembered: a battle's judge sends the same few members out thousands of times."""
    found = _FRESH.get((fighter, badges))
    if found is None:
        found = keep(_FRESH, (fighter, badges), _fresh(fighter, badges), FRESH_KEPT)
    return found


_FRESH: dict[tuple[Fighter, frozenset[str]], Fighter] = {}
FRESH_KEPT = 1 << 12  # ~1.5 KB an entry


# What a member loses when it leaves the field or goes down: the battle-only state, at its start value.
VOLATILE: dict[str, Any] = {
    "stages": NEUTRAL, "confused": 0, "seeded": False, "reflect": False, "light_screen": False,
    "focus_energy": False, "mist": False, "bide": 0, "bide_damage": 0, "trapping": 0, "trap_damage": 0,
    "recharging": False, "charging": -1, "flinched": False, "toxic": 0, "x_accuracy": False,
    "thrashing": 0, "raging": False,
}  # fmt: skip


def _fresh(fighter: Fighter, badges: frozenset[str]) -> Fighter:
    out = fighter._replace(**VOLATILE)
    return out._replace(battle=battle_stats(out, badges))


def fighter_of(
    species: str, level: int, moves: list[Move] | None = None, *, dv: int = 8, hp: int | None = None
) -> Fighter:
    """A member from species and level alone (no stat experience), with its level-up moves unless given."""
    found = game_data().species_by_name[species]
    base = found.base
    stats = tuple(stat_at_level(b, level, dv) for b in (base.attack, base.defense, base.speed, base.special))
    max_hp = stat_at_level(base.hp, level, dv, is_hp=True)
    chosen = likely_moves(species, level) if moves is None else moves
    stats4: Stats4 = (stats[0], stats[1], stats[2], stats[3])
    return Fighter(
        species=species,
        level=level,
        hp=max_hp if hp is None else hp,
        max_hp=max_hp,
        stats=stats4,
        battle=stats4,
        types=found.types,
        base_speed=base.speed,
        moves=tuple(m.id for m in chosen),
        pp=tuple(m.pp for m in chosen),
    )
