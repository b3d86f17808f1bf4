"""Which TM to teach, and to whom: each TM in the bag or the PC, weighed for every member that can learn it
by the team's *potential* against the bosses ahead (the story's next few, then the Elite Four and the
Champion). A Gen 1 TM is used up when taught, so the member it goes to matters as much as the move.

Potential is the forecast with every fighter raised to the boss's strongest level (the gauntlet's: the
strongest of its five), stats worked out again from its DVs and stat experience, healed, full PP. It
measures the moves and the species, not the levels of today, so a BLIZZARD shows its worth against LANCE
long before the team is strong enough to beat him. It is remembered per team of moves and species, so a
level gained costs nothing.

A lesson is proposed when it raises the mean potential by GAIN; the move forgotten is the member's least
useful one by the teaching rule (game/teaching.py), never an HM's.
"""

from __future__ import annotations

from statistics import fmean

from engine.combat.hits import OHKO
from engine.combat.position import forecast
from engine.game.items import BATTLE_ITEMS
from engine.game.mending import FIGHTER_LEVELS, fighters
from engine.game.models import GameState, MoveSlot, PartyMon
from engine.game.stats import raised
from engine.game.stock import full_stock
from engine.game.tables import game_data
from engine.game.teaching import MOVE_SLOTS, can_learn, machine_move, move_values
from engine.team.changes import Lesson
from engine.team.gauntlet import gauntlet_forecast, with_stock
from engine.team.planner import gauntlet

GAIN = 0.02  # the least rise in the mean potential a TM is taught for
KEPT = 256  # potentials remembered
CHAIN_SAMPLES = 64  # 16 left the shares ±0.1 apart from 128's: a TM's GAIN was a coin toss
# The gauntlet's potential counts on a few X ACCURACYs from the Celadon store (team/boosts.py buys them
# where they pay): FISSURE or HORN DRILL is worth its slot only with them, as a speedrunner plays it.
ACCURACY_STOCK = (("X_ACCURACY", 5),)
# A potential this near 100% cannot tell lessons apart by GAIN (the bag's X items and the lobby's stock
# make the chain at the Champion's level nearly sure; 64 samples at 90% are ±4 points): Red 50's BLASTOISE
# kept DIG and HYDRO PUMP, ICE BEAM and FISSURE stayed in the PC, every lesson within 0.016 of 0.984.
SATURATED = 0.9
Bosses = tuple[tuple[str, int], ...]


class MachinePlanner:
    def __init__(self) -> None:
        self._potentials: dict[tuple[object, ...], float | None] = {}

    def lesson(self, state: GameState, bosses: tuple[tuple[str, int], ...]) -> Lesson | None:
        """The TM lesson that raises the potential most, by GAIN at least; None otherwise."""
        machines = _machines(state)
        if not machines or not bosses:
            return None
        before = self.potential(state, state.party, bosses)
        if before is None:
            return None
        best: Lesson | None = None
        for item, in_pc in machines:
            move = machine_move(item)
            for member, mon in enumerate(state.party):
                if move is None or not _may_learn(mon, item, move):
                    continue
                for forget in _forgettable(mon):
                    taught = _taught(mon, move, forget)
                    party = tuple(taught if at == member else m for at, m in enumerate(state.party))
                    after = self.potential(state, party, bosses)
                    if after is None or after < before + GAIN or (best is not None and after <= best.after):
                        continue
                    best = Lesson(item=item, move=move, member=member, species=mon.species_name or "?",
                                  forget=forget, forgotten=_name(mon, forget), in_pc=in_pc,
                                  before=before, after=after, bosses=bosses)  # fmt: skip
        if best is None and before >= SATURATED:
            best = self._sure_lesson(state, machines, bosses, before)
        return best

    def _sure_lesson(
        self,
        state: GameState,
        machines: list[tuple[str, bool]],
        bosses: tuple[tuple[str, int], ...],
        before: float,
    ) -> Lesson | None:
        """A one-hit knock-out TM for the strongest fighter, in place of its least useful move, while no
        fighter knows one and the potential is too near 100% to tell lessons apart (SATURATED): with the
        X ACCURACYs bought for it (team/boosts.py) it is sure against every foe not faster than its user."""
        moves = game_data().moves_by_name
        if any(moves[slot.name].effect == OHKO for mon in fighters(state) for slot in mon.moves
               if slot.name in moves):  # fmt: skip
            return None
        member = max(range(len(state.party)), key=lambda at: state.party[at].level)
        mon = state.party[member]
        for item, in_pc in machines:
            move = machine_move(item)
            if move is None or moves[move].effect != OHKO or not _may_learn(mon, item, move):
                continue
            slots = _forgettable(mon)
            values = move_values(mon)
            forget = min(slots, key=lambda slot: -1.0 if slot is None else values[slot])
            party = tuple(
                _taught(mon, move, forget) if at == member else m for at, m in enumerate(state.party)
            )
            after = self.potential(state, party, bosses)
            why = "sure under X ACCURACY against every foe not faster than its user"
            return Lesson(item=item, move=move, member=member, species=mon.species_name or "?", forget=forget,
                          forgotten=_name(mon, forget), in_pc=in_pc, before=before,
                          after=before if after is None else after, bosses=bosses, why=why)  # fmt: skip
        return None

    def potential(
        self, state: GameState, party: tuple[PartyMon, ...], bosses: tuple[tuple[str, int], ...]
    ) -> float | None:
        """The mean forecast against `bosses`, each fought with the fighters raised to its top level."""
        top = max((mon.level for mon in party), default=0)
        team = [mon for mon in party if mon.level > top - FIGHTER_LEVELS]
        # The bag's battle items too: the forecasts drink its potions and use its X items.
        items = tuple(sorted((e.name, e.quantity) for e in state.bag if e.name in BATTLE_ITEMS))
        key = (tuple((m.species_id, m.dvs, tuple(s.move_id for s in m.moves)) for m in team), bosses,
               state.progress.badges, items)  # fmt: skip
        if key not in self._potentials:
            if len(self._potentials) >= KEPT:
                self._potentials.clear()
            chain = [boss for boss in bosses if boss in gauntlet(state)]
            chances = [_raised_forecast(state, tuple(team), boss) for boss in bosses if boss not in chain]
            chances += _chain_shares(state, tuple(team), tuple(chain))
            known = [chance for chance in chances if chance is not None]
            self._potentials[key] = fmean(known) if known else None
        return self._potentials[key]


def _machines(state: GameState) -> list[tuple[str, bool]]:
    """The TMs at hand: (item, kept in the PC)."""
    held = [(entry.name, False) for entry in state.bag if entry.name and entry.name.startswith("TM_")]
    stored = [(entry.name, True) for entry in state.pc_items if entry.name and entry.name.startswith("TM_")]
    return held + [(name, pc) for name, pc in stored if (name, False) not in held]


def _may_learn(mon: PartyMon, item: str, move: str) -> bool:
    return mon.hp > 0 and can_learn(mon.species_name, item) and all(slot.name != move for slot in mon.moves)


def _forgettable(mon: PartyMon) -> list[int | None]:
    """The slots the new move may take: a free one if there is one, else any move but an HM's."""
    known = [slot for slot in mon.moves if slot.move_id]
    if len(known) < MOVE_SLOTS:
        return [None]
    return [slot for slot, value in enumerate(move_values(mon)) if value != float("inf")]


def _taught(mon: PartyMon, move: str, forget: int | None) -> PartyMon:
    found = game_data().moves_by_name[move]
    slot = MoveSlot(move_id=found.id, name=found.name, pp=found.pp, pp_ups=0)
    moves = list(mon.moves)
    if forget is None:
        moves.append(slot)
    else:
        moves[forget] = slot
    return mon.model_copy(update={"moves": tuple(moves)})


def _name(mon: PartyMon, slot: int | None) -> str | None:
    return mon.moves[slot].name if slot is not None else None


def _raised_forecast(state: GameState, team: tuple[PartyMon, ...], boss: tuple[str, int]) -> float | None:
    top = _top_level(boss)
    if top is None:
        return None
    team = tuple(raised(mon, max(mon.level, top)) for mon in team)
    return forecast(state.model_copy(update={"party": team}), *boss, healed=True)


def _chain_shares(
    state: GameState, team: tuple[PartyMon, ...], chain: tuple[tuple[str, int], ...]
) -> list[float]:
    """The gauntlet played as one chain (team/gauntlet.py) with the fighters raised to its strongest
    boss's top level, as the share of samples that beat each boss: PP and HP carry over, which a boss
    weighed alone would not show (a TOXIC that wins one battle costs the next its moves). Raised only to
    the first boss's level, every sample lost before LANCE and the Champion, so only the first rooms
    counted: on a Blue run FISSURE took HYDRO PUMP's place and TOXIC BUBBLEBEAM's, and the team that
    reached the Champion had 6% where ICE BEAM and BODY SLAM would have made it 69%."""
    tops = [_top_level(boss) for boss in chain]
    top = max((level for level in tops if level is not None), default=None)
    if top is None:
        return []
    team = tuple(raised(mon, max(mon.level, top)) for mon in team)
    stock = (*full_stock(state), *ACCURACY_STOCK)
    stocked = with_stock(state.model_copy(update={"party": team}), stock)
    found = gauntlet_forecast(stocked, chain, samples=CHAIN_SAMPLES)
    return list(found.beaten) if found is not None else []


def _top_level(boss: tuple[str, int]) -> int | None:
    for party in game_data().trainer_parties:
        if (party.trainer_class, party.number) == boss:
            return max(member.level for member in party.party)
    return None
