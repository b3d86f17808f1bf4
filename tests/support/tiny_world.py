"""Small synthetic worlds drawn as text, for tests of the world model, the planner and the explorer that
need no cartridge. Each character is one walking square:

    .  floor      #  wall       "  tall grass    ~  water     |  counter
    =  ledge (hopped over going down)            D  a door (its square needs a warp)
    T  a tree CUT clears (on the OVERWORLD tileset)

Blocks (2 x 2 squares) are made up from whatever square patterns the maps use, so any drawing with even
width and height works.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engine.game.models import GameState, Overworld, Sprite, Story
from engine.messages import LegOutcome, LegReport
from engine.world.goals import Leg, StepGoal
from engine.world.models import Connection, Ledge, MapData, MapObject, Sign, Tileset, Warp
from engine.world.world import World

FLOOR, WALL, GRASS, WATER, COUNTER, LEDGE, DOOR, TREE = 1, 2, 3, 0x14, 5, 6, 7, 0x3D
TILES = {".": FLOOR, "#": WALL, '"': GRASS, "~": WATER, "|": COUNTER, "=": LEDGE, "D": DOOR, "T": TREE}
OUTSIDE, INDOOR = 0, 8  # tileset ids: OVERWORLD (ledges, carpets) and HOUSE (warps taken at the edge)


@dataclass
class TinyMap:
    id: int
    name: str
    art: Sequence[str]
    tileset: int = OUTSIDE
    warps: Sequence[tuple[int, int, int, int]] = ()  # x, y, destination map, destination warp index
    connections: Sequence[Connection] = ()
    objects: Sequence[MapObject] = ()
    signs: Sequence[Sign] = ()
    patterns: dict[tuple[int, int, int, int], int] = field(default_factory=dict)


def tileset(tileset_id: int) -> Tileset:
    return Tileset(
        id=tileset_id, bank=0, blocks=0, walkable=frozenset({FLOOR, GRASS, DOOR}), counters=(COUNTER,),
        grass=GRASS, warp_tiles=frozenset(), door_tiles=frozenset({DOOR}),
    )  # fmt: skip


def build_world(*maps: TinyMap) -> World:
    blocksets: dict[int, bytearray] = {}
    datas = {}
    for tiny in maps:
        blockset = blocksets.setdefault(tiny.tileset, bytearray())
        datas[tiny.id] = _map_data(tiny, blockset)
    ledges = (Ledge(facing="down", standing=FLOOR, ledge=LEDGE),)
    return World(
        datas,
        {tileset_id: tileset(tileset_id) for tileset_id in blocksets},
        {tileset_id: bytes(blockset) for tileset_id, blockset in blocksets.items()},
        ledges,
        (),
        {"down": frozenset(), "up": frozenset(), "left": frozenset(), "right": frozenset()},
    )


def _map_data(tiny: TinyMap, blockset: bytearray) -> MapData:
    rows = [list(row) for row in tiny.art]
    height, width = len(rows), len(rows[0])
    assert height % 2 == 0 and width % 2 == 0, f"{tiny.name}: draw an even number of rows and columns"
    blocks = bytearray()
    for by in range(0, height, 2):
        for bx in range(0, width, 2):
            pattern = tuple(TILES[rows[by + dy][bx + dx]] for dy in (0, 1) for dx in (0, 1))
            blocks.append(_block(pattern, blockset))
    warps = tuple(Warp(index=i, x=x, y=y, to_map=m, to_warp=w) for i, (x, y, m, w) in enumerate(tiny.warps))
    return MapData(
        id=tiny.id, name=tiny.name, tileset=tiny.tileset, width=width // 2, height=height // 2,
        blocks=bytes(blocks), border_block=0, connections=tuple(tiny.connections), warps=warps,
        signs=tuple(tiny.signs), objects=tuple(tiny.objects),
    )  # fmt: skip


def _block(pattern: tuple[int, int, int, int], blockset: bytearray) -> int:
    """A block whose four squares have these lower-left tiles (top-left, top-right, bottom-left,
    bottom-right); made once per blockset."""
    block = bytearray(16)
    for index, tile in enumerate(pattern):
        row, column = (index // 2) * 2, (index % 2) * 2
        for dy in (0, 1):
            for dx in (0, 1):
                block[(row + dy) * 4 + column + dx] = tile
    existing = bytes(blockset)
    for at in range(0, len(existing), 16):
        if existing[at : at + 16] == bytes(block):
            return at // 16
    blockset.extend(block)
    return len(blockset) // 16 - 1


def person(index: int, x: int, y: int, **fields: object) -> MapObject:
    return MapObject(  # type: ignore[arg-type]
        index=index, sprite=1, x=x, y=y, moves=False, facing="down", text_id=index, **fields
    )


def overworld_state() -> GameState:
    """A real decoded overworld (a Pallet Town capture), to be moved onto a drawn map by `state_at`."""
    from engine.game.capture import load_capture
    from engine.game.ram import RED_BLUE
    from engine.game.state import decode_state
    from tests.conftest import GEN1_FIXTURES

    return decode_state(load_capture(GEN1_FIXTURES / "red_pallet_town_overworld"), RED_BLUE)


def state_at(
    base: GameState,
    map_id: int,
    x: int,
    y: int,
    sprites: Sequence[Sprite] = (),
    story: Story | None = None,
    facing: str = "down",
) -> GameState:
    """A game state standing at (map, x, y), the rest from `base` (a decoded capture)."""
    where = Overworld(map_id=map_id, map_name=None, x=x, y=y, facing=facing, sprites=tuple(sprites))  # type: ignore[arg-type]
    return base.model_copy(update={"overworld": where, "story": story or Story()})


def walk_leg(world: World, state: GameState, leg: Leg) -> LegReport:
    """A leg as the Emulator role would walk it on this drawn world, every step as planned (no people
    move, no battle starts): the report and where it ends."""
    from engine.world.planner import Planner, gates_as_costs, surroundings
    from engine.world.targets import target_for

    where = state.overworld
    here = (where.map_id, where.x, where.y)
    if isinstance(leg.goal, StepGoal):
        move = world.move(here, leg.goal.direction)
        walked = (move.to,) if move is not None else ()
        return _report(state, walked, (), 0)
    around = surroundings(world, state, gates=())
    around = gates_as_costs(around, frozenset(leg.shut)) if leg.cross_gates else around
    plan = Planner(world, around, leg.intent).plan(target_for(world, around, leg.goal))
    if plan is None:
        return _report(state, (), (), None, outcome="no_path")
    walked, warps, at = [], [], here
    for edge in plan.edges:
        at = edge.to if edge.to is not None else at
        walked.append(at)
        if edge.warp is not None and edge.via is not None:
            warps.append((edge.via[0], edge.warp.index))
    return _report(state, tuple(walked), tuple(warps), plan.steps)


def _report(
    state: GameState,
    walked: tuple[tuple[int, int, int], ...],
    warps: tuple[tuple[int, int], ...],
    planned: int | None,
    outcome: LegOutcome = "arrived",
) -> LegReport:
    end = walked[-1] if walked else (state.overworld.map_id, state.overworld.x, state.overworld.y)
    after = state_at(state, *end, story=state.story)
    return LegReport(outcome=outcome, reason="drawn world", steps=len(walked), frames=16 * len(walked),
                     planned_steps=planned, walked=walked, warps=warps, state=after)  # fmt: skip
