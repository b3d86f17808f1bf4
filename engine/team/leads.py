"""Who leads, so that experience goes where it helps most: the member in front gets a wild battle's
experience (and a trainer's, unless the search switches), so the lead should be the one that brings the
next boss within reach for the least experience.

For each member that can fight, the forecast is worked out again with it alone raised (in the forms its
levels evolve it into, its stats from its DVs and stat experience, pret engine/pokemon/calc_stats.asm): the
fewest levels that reach the bar, and what they cost its growth rate (pret data/growth_rates.asm). The
cheapest way to the bar leads: a PIDGEY far below the starter may be the cheaper way past ERIKA's grass.
When no member alone reaches the bar within reach, the one whose next RAISE levels raise the forecast most
per experience leads. A member that barely helps (an HM's carrier) gets nothing, however cheap its levels.
The lead changes only for a clear gain (HYSTERESIS), so the party's order does not flap between equals. When
no member's levels raise the forecast at all, the strongest leads: a weak lead left in front from an earlier
boss costs a switch turn in every trainer battle and takes half of each one's experience (Blue seed 53's
BUTTERFREE L17 led BLASTOISE L59 through its training for the Elite Four; 40 of the run's trainer battles
opened with a switch).
"""

from __future__ import annotations

from collections.abc import Callable

from engine.frozen import Frozen
from engine.game.growth import experience_for_level
from engine.game.models import GameState, PartyMon
from engine.game.tables import game_data
from engine.game.teaching import grown

RAISE = 3  # levels a member is weighed with
MAX_LEVEL = 100
HYSTERESIS = 1.5  # a new lead must be this much better per experience than the one in front
MIN_GAIN = 0.01  # a rise in the forecast below this is no reason to change anything
REACH = 15  # levels above the strongest member a path to the bar may take

Forecast = Callable[[GameState], float | None]


class LeadChoice(Frozen):
    member: int
    species: str
    gain: float  # the forecast's rise at `level`
    cost: int  # the experience the levels cost
    level: int  # the level weighed: RAISE above its own, or the first that reaches the bar
    strongest: bool = False  # no member's levels help: the strongest leads for the experience and no switch

    @property
    def reason(self) -> str:
        if self.strongest:
            return (f"{self.species} leads: the strongest, as no member's levels raise the forecast: it "
                    "takes the experience, and no battle opens with a switch")  # fmt: skip
        return (f"{self.species} leads: at L{self.level} it raises the forecast by {self.gain:.0%}, for "
                f"{self.cost} experience, the cheapest way ahead")  # fmt: skip


def best_lead(state: GameState, forecast: Forecast, bar: float | None = None) -> LeadChoice | None:
    """The member that should lead for experience; None when it already does."""
    base = forecast(_strongest_first(state, state.party))
    if base is None or not state.party:
        return None
    if bar is not None and base >= bar:
        # The forecast is not what holds the team back (a defeat asked for levels of the strongest
        # member): a PIDGEY put in front "to reach the bar at L3" only took experience from it.
        return strongest_lead(state)
    if bar is not None:
        paths = [path for at in range(len(state.party)) if (path := _path(state, at, bar, forecast))]
        if paths:
            cheapest = min(paths, key=lambda path: path.cost)
            front = next((path for path in paths if path.member == 0), None)
            if cheapest.member == 0 or (front is not None and front.cost <= HYSTERESIS * cheapest.cost):
                return None
            return cheapest
    choices = [choice for at in range(len(state.party)) if (choice := _weighed(state, at, base, forecast))]
    best = max(choices, key=_worth, default=None)
    if best is None or best.gain < MIN_GAIN:
        return strongest_lead(state)
    front = next((choice for choice in choices if choice.member == 0), None)
    if best.member == 0 or (front is not None and _worth(best) < HYSTERESIS * _worth(front)):
        return None
    return best


def strongest_lead(state: GameState) -> LeadChoice | None:
    """The highest-level member, as the lead; None when it leads already (or the one in front is as
    high), or has fainted: the next nurse brings it back, and a member put in front meanwhile would only
    be put back (Red seed 54 sent a PIDGEY in front each time its WARTORTLE fell)."""
    if not state.party:
        return None
    top = max(range(len(state.party)), key=lambda at: state.party[at].level)
    mon = state.party[top]
    if top == 0 or mon.hp <= 0 or state.party[0].level >= mon.level:
        return None
    return LeadChoice(member=top, species=mon.species_name or "?", gain=0.0, cost=0, level=mon.level,
                      strongest=True)  # fmt: skip


def _path(state: GameState, member: int, bar: float, forecast: Forecast) -> LeadChoice | None:
    """The fewest levels that bring this member alone to the bar (within REACH levels), as a choice whose
    cost is their experience; None when it cannot."""
    mon = state.party[member]
    species = game_data().species_by_index.get(mon.species_id)
    if species is None or mon.hp <= 0:
        return None
    top = min(MAX_LEVEL, max(m.level for m in state.party) + REACH)
    low, high = mon.level, top
    if low >= high or _raised_forecast(state, member, high, forecast) < bar:
        return None
    while high - low > 1:  # the forecast rises with the level: the first level that reaches the bar
        middle = (low + high) // 2
        if _raised_forecast(state, member, middle, forecast) >= bar:
            high = middle
        else:
            low = middle
    cost = experience_for_level(species.growth_rate, high) - max(mon.exp, 0)
    gain = _raised_forecast(state, member, high, forecast) - (
        forecast(_strongest_first(state, state.party)) or 0.0
    )
    return LeadChoice(member=member, species=mon.species_name or "?", gain=gain, cost=max(1, cost),
                      level=high)  # fmt: skip


def _raised_forecast(state: GameState, member: int, level: int, forecast: Forecast) -> float:
    mon = state.party[member]
    raised = grown(mon, level) if level != mon.level else mon
    party = tuple(raised if at == member else other for at, other in enumerate(state.party))
    return forecast(_strongest_first(state, party)) or 0.0


def _strongest_first(state: GameState, party: tuple[PartyMon, ...]) -> GameState:
    """The state with `party` in the order the boss is fought in: the strongest in front (the tactician
    puts it there once the boss is forecast to fall). Weighed in the party's order of the moment, a PIDGEY
    in front lowered the boss's forecast and made the starter's levels the cheaper way, and the other way
    round with the starter in front: Blue seed 54 swapped the two twelve times in 10,000 frames."""
    return state.model_copy(update={"party": tuple(sorted(party, key=lambda mon: -mon.level))})


def _worth(choice: LeadChoice) -> float:
    return choice.gain / max(1, choice.cost)


def _weighed(state: GameState, member: int, base: float, forecast: Forecast) -> LeadChoice | None:
    mon = state.party[member]
    species = game_data().species_by_index.get(mon.species_id)
    if species is None or mon.hp <= 0 or mon.level + RAISE > MAX_LEVEL:
        return None
    raised = grown(mon, mon.level + RAISE)
    party = tuple(raised if at == member else other for at, other in enumerate(state.party))
    after = forecast(_strongest_first(state, party))
    if after is None:
        return None
    cost = experience_for_level(species.growth_rate, mon.level + RAISE) - max(mon.exp, 0)
    return LeadChoice(member=member, species=mon.species_name or "?", gain=after - base, cost=max(1, cost),
                      level=mon.level + RAISE)  # fmt: skip
