"""The changes the team planner proposes, with the forecasts that justify them (the mean chance to beat
the bosses weighed, before and after)."""

from __future__ import annotations

from engine.combat.chance import percent
from engine.frozen import Frozen


class Change(Frozen):
    """What every change carries: the mean forecast before and after, and the bosses it is weighed against."""

    before: float
    after: float
    bosses: tuple[tuple[str, int], ...]

    @property
    def forecast(self) -> str:
        names = ", ".join(trainer for trainer, _ in self.bosses)
        return f"forecast against {names} {percent(self.before)} → {percent(self.after)}"


class Evolve(Change):
    """Give `stone` to party member `member` (0-based), a `species` that becomes `into`."""

    member: int
    stone: str
    species: str
    into: str

    @property
    def reason(self) -> str:
        return f"{self.stone} on {self.species} for a {self.into}: {self.forecast}"


class Swap(Change):
    """At Bill's PC: party member `deposit` into the box (None: the party has room), then the box's
    Pokémon `withdraw` (0-based, as the box is before the deposit) into the party."""

    deposit: int | None
    withdraw: int
    out: str | None
    taken: str

    @property
    def reason(self) -> str:
        change = (
            f"{self.taken} from the box in place of {self.out}" if self.out else f"{self.taken} from the box"
        )
        return f"{change}: {self.forecast}"


class Lesson(Change):
    """Teach TM `item` (its move `move`) to party member `member`, forgetting move slot `forget` (None: a
    free slot); `in_pc`: the TM is in the player's PC and is taken out first."""

    item: str
    move: str
    member: int
    species: str
    forget: int | None
    forgotten: str | None
    in_pc: bool
    why: str | None = None  # a reason other than the forecast's rise

    @property
    def reason(self) -> str:
        instead = f" in place of {self.forgotten}" if self.forgotten else ""
        return f"{self.item} to {self.species}: {self.move}{instead}, {self.why or self.forecast}"


class Boosts(Change):
    """Buy `count` of the X item `item` for the gauntlet (`why`: a reason other than the forecast's rise)."""

    item: str
    count: int
    why: str | None = None

    @property
    def reason(self) -> str:
        return f"{self.count} {self.item} for the gauntlet: {self.why or self.forecast}"


class Recruit(Change):
    """Catch a `species` (met at `level`, `share` of the encounters) on map `map_id` for the next boss."""

    species: str
    level: int
    map_id: int
    map_name: str
    share: float

    @property
    def reason(self) -> str:
        return (f"catch a {self.species} (L{self.level}) on {self.map_name}: the boss's forecast "
                f"{self.before:.0%} → {self.after:.0%} with it")  # fmt: skip
