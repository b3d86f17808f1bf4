"""Where a leg of walking should end: a square, a map, a warp, a person or sign to face, one step.

Goals are messages (the tactician or a model chooses one, the Emulator role walks it), so they are frozen
models with a `kind` to tell them apart.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Annotated, Literal

from pydantic import Field, field_validator

from engine.frozen import Frozen
from engine.game.models import Direction
from engine.game.tables import game_data

# `pass`: a travel while the team wants no experience (the next boss is forecast to fall), which keeps out
# of trainers' eyes at a longer detour.
Intent = Literal["travel", "train", "explore", "pass"]


class SquareGoal(Frozen):
    kind: Literal["square"] = "square"
    map_id: int
    x: int
    y: int


class MapGoal(Frozen):
    """Anywhere on the map: its nearest entrance."""

    kind: Literal["map"] = "map"
    map_id: int


class WarpGoal(Frozen):
    """Through the map's warp `index` (a door, stairs, a cave mouth), out on its other side."""

    kind: Literal["warp"] = "warp"
    map_id: int
    index: int


class ObjectGoal(Frozen):
    """Next to the map's object `index` (its sprite slot, 1-based), facing it, or across a counter."""

    kind: Literal["object"] = "object"
    map_id: int
    index: int


class SignGoal(Frozen):
    """Facing the map's sign `index` (0-based, in the map's order)."""

    kind: Literal["sign"] = "sign"
    map_id: int
    index: int


class ThingGoal(Frozen):
    """Facing the thing at (x, y) from the one side that works (`facing`: the way the player looks at it):
    a machine or a hidden event whose script runs only when the player faces it that way (Bill's PC
    answers only from below, pret engine/events/hidden_events/bills_house_pc.asm)."""

    kind: Literal["thing"] = "thing"
    map_id: int
    x: int
    y: int
    facing: Direction


class HereGoal(Frozen):
    """Where the player stands: a leg that walks nowhere and only does its menu work (`Leg.teach`)."""

    kind: Literal["here"] = "here"


class StepGoal(Frozen):
    """One press of a direction, wherever it leads (for callers without a world model)."""

    kind: Literal["step"] = "step"
    direction: Direction


Goal = Annotated[
    SquareGoal | MapGoal | WarpGoal | ObjectGoal | SignGoal | ThingGoal | HereGoal | StepGoal,
    Field(discriminator="kind"),
]
# "first": YES to a question and, where a menu follows, its first entry (the drink the Celadon roof's girl
# is offered: pret scripts/CeladonMartRoof.asm lists the bag's drinks, FRESH WATER first).
Answer = Literal["yes", "no", "first"]


class Purchase(Frozen):
    """`quantity` of `item` (its pret name, as in game/data/items.json: POKE_BALL, POTION) from a Mart."""

    item: str
    quantity: int = Field(ge=1, le=99)  # the quantity box offers 1 to 99
    # Bought instead, the first the Mart stocks, where it does not sell `item`: the nearest Mart may be
    # one without POKé BALLs (Saffron's sells GREAT BALLs), and any ball catches.
    or_else: tuple[str, ...] = ()

    @field_validator("item")
    @classmethod
    def _known_item(cls, item: str) -> str:
        if item not in game_data().item_ids:
            raise ValueError(f"{item!r} is not an item's pret name (game/data/items.json)")
        return item

    @field_validator("or_else")
    @classmethod
    def _known_items(cls, items: tuple[str, ...]) -> tuple[str, ...]:
        for item in items:
            cls._known_item(item)
        return items

    def stocked(self, stock: Collection[int]) -> Purchase:
        """This purchase where the Mart's `stock` (item ids) has its item, else the first alternative it
        has, in the same quantity; itself when it has none of them."""
        ids = game_data().item_ids
        if ids[self.item] in stock:
            return self
        found = next((item for item in self.or_else if ids[item] in stock), None)
        return self if found is None else Purchase(item=found, quantity=self.quantity)


class PcOrder(Frozen):
    """At Bill's PC (a Pokémon Center's, faced with a `ThingGoal`): put party member `deposit` in the box,
    or take the box's Pokémon `withdraw` into the party (both 0-based), or change the current box (the game
    saves itself then); at the player's own PC, store an item from the bag or take one out."""

    deposit: int | None = Field(default=None, ge=0, le=5)
    withdraw: int | None = Field(default=None, ge=0, le=19)
    change_box: int | None = Field(default=None, ge=0, le=11)  # make this box (0-based) the current one
    store: tuple[str, int] | None = None  # an item of the bag and how many of it, into the PC
    take: tuple[str, int] | None = None  # an item stored in the PC and how many of it, into the bag


class Teach(Frozen):
    """Teach the move of a TM or HM in the bag (`item`, its pret name: HM_CUT) to party slot `member`
    (0-based), overwriting move slot `forget` (None: the member has a free slot)."""

    item: str
    member: int = Field(ge=0, le=5)
    forget: int | None = Field(default=None, ge=0, le=3)
    reason: str = ""


class Give(Frozen):
    """Use `item` from the bag on party slot `member` (0-based): an evolution stone, a potion."""

    item: str
    member: int = Field(ge=0, le=5)


class Leg(Frozen):
    """One leg of walking, executed by the Emulator role in one call. With `interact`, the leg ends by
    pressing A at what the goal faces and reading the text to its end; a YES/NO question on the way is
    answered with `answer`. With `cross_gates`, closed story gates are walked into (at a high cost) rather
    than around: that is how a scene the story waits for is started. With `buy`, the interaction is a
    Mart clerk's and the items are bought through the Mart's menus, in order (what the Mart does not sell
    or the money does not pay for is skipped, with the reason in the report); with `sell`, the items are
    sold there first (whole or part of a stack each; what the clerk will not buy is skipped, with the
    reason), so their money pays for the purchases. With `teach`, the leg ends
    in the bag's menus, teaching a TM or HM (usually a `HereGoal` leg); with `use`, in using an item from
    the bag (the POKé FLUTE beside a sleeping SNORLAX); with `toss`, in throwing that many of an item away
    (room in a full bag); with `give`, in using an item on a party member (an evolution stone); with
    `push`, in pushing the boulder the leg's `ThingGoal` faces; with `order`, in the party menu's SWITCH
    (which member leads)."""

    goal: Goal
    intent: Intent = "travel"
    interact: bool = False
    answer: Answer = "yes"
    cross_gates: bool = False
    shut: tuple[tuple[int, int, int], ...] = ()  # squares not crossed (map, x, y): gates tried, ways out
    max_steps: int = 400
    reason: str = ""
    buy: tuple[Purchase, ...] = ()
    sell: tuple[Purchase, ...] = ()  # items of the bag (pret name) and how many, sold to the clerk first
    teach: Teach | None = None
    use: str | None = None  # an item (pret name: POKE_FLUTE) used from the bag where the leg arrives
    toss: tuple[str, int] | None = None  # an item and how many of it to throw away where the leg arrives
    give: Give | None = None  # an item used on a party member where the leg arrives
    push: bool = False  # push the boulder the goal faces one square, with STRENGTH (used first if need be)
    pc: PcOrder | None = None  # a deposit or withdrawal at the PC the goal faces
    fly: str | None = None  # a town (pret name) FLY takes the player to where the leg arrives (outdoors)
    order: tuple[int, int] | None = None  # two party members (0-based) put in each other's places
    stop: str | None = None  # no leg at all: the plan cannot go on, and this says why (the run stops)
    # Trainers (map, object index) the team is forecast to lose to: the walk goes around what they watch
    # where a way round exists.
    feared: tuple[tuple[int, int], ...] = ()
