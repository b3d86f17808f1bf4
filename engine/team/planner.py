"""The team planner: which evolution stone to use on which member, which stone to buy, and which Pokémon of
the box to take into the party in place of a member, each weighed the way a player weighs a team: by the
battle model's forecast against the bosses ahead (the next few of the story, then the Elite Four and the
Champion), the team healed as a Pokémon Center leaves it.

A change is proposed only when the forecast says it helps (a stone already in the bag is used unless it
makes the team worse or the member waits for a move its own form learns soon); a member that is the
party's only carrier of a field move is never put in the box, and a species the config keeps unevolved
never gets a stone. The forecasts of one team and one set of bosses are worked out once.
"""

from __future__ import annotations

from statistics import fmean

from engine.combat.position import forecast
from engine.game.decoders import MONS_PER_BOX
from engine.game.field_moves import FIELD_MOVE_BADGES
from engine.game.models import GameState, PartyMon
from engine.game.tables import game_data
from engine.team.changes import Evolve, Swap
from engine.team.evolution import evolved, stone_evolutions, waits_for

GAIN = 0.02  # the least rise in the mean forecast that pays for a purchase or a swap
WORSE = 0.005  # a stone at hand is used unless the mean forecast drops by more than this
WEIGHED = 3  # the bosses ahead a change is weighed against
WEIGHED_AHEAD = 2  # the story's bosses a lasting change (a TM) is weighed against, besides the gauntlet
STONE_SHOP = "CELADON_MART_4F"  # pret data/items/marts.asm CeladonMart4FClerkText
STONE_CLERK = 1  # its first object (pret data/maps/objects/CeladonMart4F.asm)
STONES_SOLD = ("FIRE_STONE", "THUNDER_STONE", "WATER_STONE", "LEAF_STONE")
MONEY_KEPT = 1000  # yen left for heals after a stone is bought
CHEAP = 5  # a stone that costs a fifth of the money or less needs only a small gain to be bought
PARTY_SIZE = 6  # pret constants/pokemon_data_constants.asm PARTY_LENGTH
HM_FIELD_MOVES = frozenset(move for move, badge in FIELD_MOVE_BADGES.items() if badge is not None)
BOX_CHOICES, PARTY_CHOICES = 4, 3  # the strongest boxed Pokémon tried against the weakest members
SCORES_KEPT = 512  # teams whose forecasts are kept (a level gained makes a new one)
# The Elite Four and the Champion (pret data/trainers/parties.asm; the Champion's party follows the starter
# the rival chose, as RIVAL2's does in the story's data).
GAUNTLET = (("LORELEI", 1), ("BRUNO", 1), ("AGATHA", 1), ("LANCE", 1))
CHAMPION = {"SQUIRTLE": 1, "BULBASAUR": 2, "CHARMANDER": 3}

Bosses = tuple[tuple[str, int], ...]


def to_weigh(state: GameState, story_bosses: Bosses, count: int = WEIGHED) -> Bosses:
    """The next `count` bosses: the story's ahead, then the Elite Four and the Champion."""
    return tuple(dict.fromkeys(story_bosses + gauntlet(state)))[:count]


def gauntlet(state: GameState) -> Bosses:
    """The Elite Four, then the Champion (whose party follows the starter the rival chose; left out while
    that is not known)."""
    champion = CHAMPION.get(state.story.rival_starter or "")
    return GAUNTLET + ((("RIVAL3", champion),) if champion is not None else ())


def ahead_and_gauntlet(state: GameState, story_bosses: Bosses, story: int = WEIGHED_AHEAD) -> Bosses:
    """The story's next `story` bosses, then the whole gauntlet: what a lasting change is weighed against."""
    return tuple(dict.fromkeys(story_bosses[:story] + gauntlet(state)))


class TeamPlanner:
    def __init__(
        self, keep_unevolved: frozenset[str] = frozenset(), stones: bool = True, swaps: bool = True
    ) -> None:
        self.keep_unevolved = keep_unevolved
        self.stones = stones
        self.swaps = swaps
        self._scores: dict[tuple[object, ...], float | None] = {}

    # -- the changes ---------------------------------------------------------------------------------
    def evolution(self, state: GameState, bosses: Bosses) -> Evolve | None:
        """The best use of a stone in the bag, or None."""
        held = {item.name for item in state.bag if item.name}
        found = self._best_evolution(state, bosses, held)
        return found if found is not None and found.after >= found.before - WORSE else None

    def stone_to_buy(self, state: GameState, bosses: Bosses) -> Evolve | None:
        """A stone the Celadon store sells, not in the bag, that the money pays for with MONEY_KEPT to
        spare and that raises the forecast enough for its price: by GAIN, or by WORSE when it costs a fifth
        of the money or less; None otherwise."""
        held = {item.name for item in state.bag if item.name}
        prices, money = game_data().item_prices, state.progress.money
        sold = {stone for stone in STONES_SOLD
                if stone not in held and money >= prices.get(stone, 0) + MONEY_KEPT}  # fmt: skip
        found = self._best_evolution(state, bosses, sold)
        if found is None:
            return None
        needed = WORSE if prices.get(found.stone, 0) * CHEAP <= money else GAIN
        return found if found.after >= found.before + needed else None

    def swap(self, state: GameState, bosses: Bosses) -> Swap | None:
        """The boxed Pokémon that raises the forecast most (in place of a member when the party is full,
        added when it is not), when it raises it by GAIN at least; None otherwise."""
        if not self.swaps or not state.box:
            return None
        before = self.score(state, state.party, bosses)
        if before is None:
            return None
        best: Swap | None = None
        for deposit, withdraw in self._swaps(state):
            party = [mon for at, mon in enumerate(state.party) if at != deposit] + [state.box[withdraw]]
            after = self.score(state, tuple(party), bosses)
            if (
                after is not None
                and after >= before + GAIN
                and (best is None or _better(state, after, deposit, best))
            ):
                out = state.party[deposit].species_name if deposit is not None else None
                best = Swap(deposit=deposit, withdraw=withdraw, out=out,
                            taken=state.box[withdraw].species_name or "?", before=before, after=after,
                            bosses=bosses)  # fmt: skip
        return best

    # -- weighing ------------------------------------------------------------------------------------
    def score(self, state: GameState, party: tuple[PartyMon, ...], bosses: Bosses) -> float | None:
        """The mean forecast of `party` (healed) against the bosses; None when none can be worked out."""
        key = (tuple(_signature(mon) for mon in party), bosses, state.progress.badges,
               tuple((item.name, item.quantity) for item in state.bag))  # fmt: skip
        if key not in self._scores:
            if len(self._scores) >= SCORES_KEPT:
                self._scores.clear()
            team = state.model_copy(update={"party": party})
            chances = [forecast(team, trainer, number, healed=True) for trainer, number in bosses]
            known = [chance for chance in chances if chance is not None]
            self._scores[key] = fmean(known) if known else None
        return self._scores[key]

    def _best_evolution(self, state: GameState, bosses: Bosses, stones: set[str]) -> Evolve | None:
        options = [(member, stone, into) for member, mon in enumerate(state.party)
                   if mon.hp and mon.species_name not in self.keep_unevolved
                   for stone, into in stone_evolutions(mon.species_name or "").items()
                   if stone in stones and waits_for(mon, into) is None]  # fmt: skip
        before = self.score(state, state.party, bosses) if options and self.stones else None
        if before is None:
            return None
        best: Evolve | None = None
        for member, stone, into in options:
            party = tuple(evolved(m, into) if at == member else m for at, m in enumerate(state.party))
            after = self.score(state, party, bosses)
            if after is not None and (best is None or after > best.after):
                species = state.party[member].species_name or "?"
                best = Evolve(member=member, stone=stone, species=species, into=into,
                              before=before, after=after, bosses=bosses)  # fmt: skip
        return best

    @staticmethod
    def _swaps(state: GameState) -> list[tuple[int | None, int]]:
        """(member to deposit or None, boxed Pokémon to withdraw) pairs worth weighing: the strongest in the
        box against the weakest members that carry no field move only they know."""
        boxed = sorted(range(len(state.box)), key=lambda at: -_power(state.box[at]))[:BOX_CHOICES]
        if len(state.party) < PARTY_SIZE:
            return [(None, withdraw) for withdraw in boxed]
        if state.progress.box_count >= MONS_PER_BOX:
            return []  # a deposit comes first and the box has no room for it
        spare = sorted((at for at in range(len(state.party)) if not _only_carrier(state, at)),
                       key=lambda at: _power(state.party[at]))[:PARTY_CHOICES]  # fmt: skip
        return [(deposit, withdraw) for deposit in spare for withdraw in boxed]


def _signature(mon: PartyMon) -> tuple[object, ...]:
    """What a healed team's forecast depends on (HP is left out: the team is weighed healed)."""
    return (mon.species_id, mon.level, mon.hp > 0, mon.max_hp, mon.stats, tuple(s.move_id for s in mon.moves))


def _power(mon: PartyMon) -> int:
    """A rough measure to pick which few to weigh: level times the species' base stats."""
    found = game_data().species_by_index.get(mon.species_id)
    base = found.base if found is not None else None
    total = base.hp + base.attack + base.defense + base.speed + base.special if base is not None else 0
    return mon.level * total


def _only_carrier(state: GameState, member: int) -> bool:
    """Whether the member knows an HM's field move no other member knows."""

    def knows(mon: PartyMon) -> set[str]:
        return {slot.name for slot in mon.moves if slot.name in HM_FIELD_MOVES}

    others = set().union(*(knows(mon) for at, mon in enumerate(state.party) if at != member))
    return bool(knows(state.party[member]) - others)


TIE = 0.01  # swaps whose forecasts differ by less than this are alike: the weaker member goes to the box


def _better(state: GameState, after: float, deposit: int | None, best: Swap) -> bool:
    """A swap better than `best`: a clearly higher forecast, or one alike that boxes a weaker member."""
    if abs(after - best.after) > TIE:
        return after > best.after

    def level(at: int | None) -> int:
        return state.party[at].level if at is not None else 0

    return level(deposit) < level(best.deposit)
