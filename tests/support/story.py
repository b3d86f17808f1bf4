"""Story stages on a real cartridge: a new game, then the event flags, shown and hidden people, party and
bag the game would have at a point of the story, then a warp to a town. Needs POKEMON_ROM; used by the
ROM tests of walking and by the trip benchmark.

The game's own warp (PyBoy's Gen 1 wrapper) lands on the town's first warp, and leaving a town through a
door records it as the place to come back to (wLastMap), as play would.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.emulator.session import EmulatorSession
from engine.game.models import DecisionPoint
from engine.world.world import World
from tests.support.scenarios import boot_to_overworld, set_bag, set_party, state_of

WARP_FRAMES = 600


@dataclass(frozen=True)
class Stage:
    events: tuple[str, ...]
    hidden: tuple[tuple[str, int], ...] = ()  # (map, object index) switched off
    shown: tuple[tuple[str, int], ...] = ()
    # L14: what the L12 of earlier set-ups became at its first win, when its experience was level³ (see
    # make_mon); an L12 is poisoned in Viridian Forest and faints walking, which sends the player home.
    party: tuple[tuple[str, int], ...] = (("SQUIRTLE", 14),)
    bag: tuple[tuple[str, int], ...] = (("POKE_BALL", 5), ("POTION", 3))
    badges: tuple[str, ...] = ()
    # Map script indices (wXxxCurScript) where the story left them: a map script run at an index its
    # events no longer fit reads text that is not there and hangs the game.
    scripts: tuple[tuple[int, int], ...] = ()


# pret ram/wram.asm addresses (the same in Red and Blue) and script indices (scripts/*.asm).
OAKS_LAB_SCRIPT, PALLET_TOWN_SCRIPT, VIRIDIAN_MART_SCRIPT = 0xD5F0, 0xD5F1, 0xD60D
OAKS_LAB_NOOP, PALLET_TOWN_DAISY, VIRIDIAN_MART_NOOP = 18, 5, 2
_AFTER_LAB = ((OAKS_LAB_SCRIPT, OAKS_LAB_NOOP), (PALLET_TOWN_SCRIPT, PALLET_TOWN_DAISY))
_AFTER_PARCEL = (*_AFTER_LAB, (VIRIDIAN_MART_SCRIPT, VIRIDIAN_MART_NOOP))

_STARTER = (
    "EVENT_FOLLOWED_OAK_INTO_LAB", "EVENT_FOLLOWED_OAK_INTO_LAB_2", "EVENT_OAK_ASKED_TO_CHOOSE_MON",
    "EVENT_GOT_STARTER", "EVENT_BATTLED_RIVAL_IN_OAKS_LAB", "EVENT_OAK_APPEARED_IN_PALLET",
)  # fmt: skip
# From pret scripts/OaksLab.asm (OaksLabOakGivesPokedexScript and the parcel scripts before it).
_POKEDEX = (*_STARTER, "EVENT_GOT_OAKS_PARCEL", "EVENT_OAK_GOT_PARCEL", "EVENT_GOT_POKEDEX")

# Oak's lab after the rival's first battle: the rival and two balls gone, Oak at his desk.
_LAB_AFTER_RIVAL = (("OAKS_LAB", 1), ("OAKS_LAB", 3), ("OAKS_LAB", 4))
_LAB_OAK = (("OAKS_LAB", 5),)
# After the Pokédex: both Pokédexes handed out; the sleepy old man leaves the road north of Viridian and
# his walking double shows up (pret scripts/OaksLab.asm OaksLabOakGivesPokedexScript).
_AFTER_POKEDEX = (*_LAB_AFTER_RIVAL, ("OAKS_LAB", 6), ("OAKS_LAB", 7), ("VIRIDIAN_CITY", 5))
_VIRIDIAN_OLD_MAN = (("VIRIDIAN_CITY", 7),)

_SAFFRON_GYM_TRAINERS = tuple(f"EVENT_BEAT_SAFFRON_GYM_TRAINER_{n}" for n in range(7))

STAGES = {
    "starter": Stage(events=_STARTER, hidden=_LAB_AFTER_RIVAL, shown=_LAB_OAK, scripts=_AFTER_LAB),
    "pokedex": Stage(events=_POKEDEX, hidden=_AFTER_POKEDEX, shown=(*_LAB_OAK, *_VIRIDIAN_OLD_MAN),
                     scripts=_AFTER_PARCEL),
    "boulder": Stage(events=(*_POKEDEX, "EVENT_BEAT_BROCK"), hidden=_AFTER_POKEDEX,
                     shown=(*_LAB_OAK, *_VIRIDIAN_OLD_MAN), party=(("WARTORTLE", 18),), badges=("boulder",),
                     scripts=_AFTER_PARCEL),
    # The Viridian Gym's door open (its only check, pret scripts/ViridianCity.asm), with a party its
    # trainers cannot stop: for walking the gym's spinners.
    "viridian_gym_open": Stage(events=(*_POKEDEX, "EVENT_VIRIDIAN_GYM_OPEN"), hidden=_AFTER_POKEDEX,
                               shown=(*_LAB_OAK, *_VIRIDIAN_OLD_MAN), party=(("MEWTWO", 90),),
                               scripts=_AFTER_PARCEL),
    # Saffron Gym with its seven trainers beaten (pret constants/event_constants.asm) and the city's
    # Rockets gone (objects 1-7 of pret data/maps/objects/SaffronCity.asm; one stands at the gym's door):
    # for walking the gym's pads, which lead from room to room of the same map.
    "saffron_gym_cleared": Stage(events=(*_POKEDEX, *_SAFFRON_GYM_TRAINERS),
                                 hidden=(*_AFTER_POKEDEX, *(("SAFFRON_CITY", n) for n in range(1, 8))),
                                 shown=(*_LAB_OAK, *_VIRIDIAN_OLD_MAN),
                                 party=(("MEWTWO", 90),), scripts=_AFTER_PARCEL),
}  # fmt: skip


# Start states of the trips the ROM tests and the trip benchmark walk: (stage, town).
STARTS = {"pallet": ("starter", "PALLET_TOWN"), "viridian": ("pokedex", "VIRIDIAN_CITY"),
          "pewter": ("pokedex", "PEWTER_CITY")}  # fmt: skip


def story_state(
    session: EmulatorSession,
    world: World,
    stage: str,
    town: str,
    party: tuple[tuple[str, int], ...] | None = None,
) -> None:
    """From power-on to `town` at `stage` of the story (with `party` instead of the stage's, if given),
    the player free to walk."""
    boot_to_overworld(session)
    setting = STAGES[stage]
    if party is not None:
        setting = replace(setting, party=party)
    wrapper = session.pyboy.game_wrapper
    for event in setting.events:
        wrapper.set_event_flag(world_event(event))
    for badge in setting.badges:
        wrapper.set_badge(badge)
    for name, index, hidden in [*((*o, True) for o in setting.hidden), *((*o, False) for o in setting.shown)]:
        _toggle(session, world, name, index, hidden)
    for address, index in setting.scripts:
        session.write_u8(address, index)
    set_party(session, list(setting.party))
    set_bag(session, list(setting.bag))
    ram = session.ram_map
    before = (session.read_u8(ram.wXCoord), session.read_u8(ram.wYCoord))
    wrapper.warp(town.lower())
    # wCurMap changes as the fade begins; the coordinates only once the new map is loaded.
    session.run_until(lambda memory: (memory[ram.wXCoord], memory[ram.wYCoord]) != before, WARP_FRAMES)
    settle(session)


def world_event(name: str) -> str:
    """PyBoy's wrapper names events without the EVENT_ prefix, in lower case."""
    return name.removeprefix("EVENT_").lower()


def _toggle(session: EmulatorSession, world: World, map_name: str, index: int, hidden: bool) -> None:
    toggle = world.by_name[map_name].objects[index - 1].toggle
    assert toggle is not None, f"{map_name} object {index} is not toggleable"
    address = session.ram_map.wToggleableObjectFlags + toggle // 8
    bit = 1 << (toggle % 8)
    value = session.read_u8(address)
    session.write_u8(address, value | bit if hidden else value & ~bit)


def settle(session: EmulatorSession, max_frames: int = 3000, calm_looks: int = 8) -> None:
    """Tick until the player can walk, and still can a few looks later (a warp's fade and the walk out
    of a door pass through moments that look free)."""
    calm = 0
    for _ in range(max_frames // 8):
        calm = calm + 1 if state_of(session).decision_point is DecisionPoint.OVERWORLD_FREE else 0
        if calm >= calm_looks:
            return
        session.tick(8)
    raise AssertionError(f"not free to walk: {state_of(session).decision_point}")
