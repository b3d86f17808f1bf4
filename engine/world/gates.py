"""Story gates: squares a map script will not let the player cross until the story has moved on.

Each gate names the squares, what opens it (an event flag, a badge, an item, the Saffron guards' drink),
what the game does there meanwhile, and the pret/pokered script it comes from. A closed gate is not a wall:
stepping on it runs the script (Oak comes for the player, the old man blocks the road, a guard sends the
player back), so a planner avoids it while travelling and may walk into it on purpose to see the scene.
"""

from __future__ import annotations

from typing import Literal

from engine.frozen import Frozen
from engine.game.models import GameState

ConditionKind = Literal["event", "badge", "item", "drink"]


class Condition(Frozen):
    kind: ConditionKind
    name: str = ""  # the event (pret name), the badge (BOULDER, ...) or the item; unused for the drink
    negate: bool = False  # holds when the condition does not

    def holds(self, state: GameState) -> bool:
        return self._holds(state) != self.negate

    def _holds(self, state: GameState) -> bool:
        story = state.story
        if self.kind == "event":
            return self.name in story.events
        if self.kind == "badge":
            return self.name in state.progress.badge_names
        if self.kind == "item":
            return any(item.name == self.name for item in state.bag)
        return story.guards_had_drink


class Gate(Frozen):
    map_name: str
    squares: tuple[tuple[int, int], ...] = ()
    row: int | None = None  # every square of this row (y)
    water: bool = False  # every water square of the map (a current that carries a surfing player off)
    opens: Condition
    only_after: Condition | None = None  # closed only once this holds (a scene that has begun)
    closed_after: Condition | None = None  # closed for good once this holds, whatever opened it
    scene: str
    source: str
    key: str | None = None  # an item that opens it: face the gate and press A with it in the bag

    def closed(self, state: GameState) -> bool:
        if self.closed_after is not None and self.closed_after.holds(state):
            return True
        if self.only_after is not None and not self.only_after.holds(state):
            return False
        return not self.opens.holds(state)

    def covers(self, x: int, y: int) -> bool:
        return y == self.row or (x, y) in self.squares

    def unlockable(self, state: GameState) -> bool:
        """Closed, but the player holds its key: a door to open on the way, not a wall."""
        return self.key is not None and any(item.name == self.key for item in state.bag)


def _event(name: str) -> Condition:
    return Condition(kind="event", name=name)


def _drink_gate(map_name: str, squares: tuple[tuple[int, int], ...], script: str) -> Gate:
    return Gate(
        map_name=map_name, squares=squares, opens=Condition(kind="drink"),
        scene="the thirsty guard sends the player back", source=f"scripts/{script}.asm {script}DefaultScript",
    )  # fmt: skip


def block_squares(bx: int, by: int) -> tuple[tuple[int, int], ...]:
    """The four walking squares of block (bx, by), as a map script's ReplaceTileBlock names it."""
    return tuple((2 * bx + dx, 2 * by + dy) for dy in (0, 1) for dx in (0, 1))


def _card_key_doors(floor: int, blocks: tuple[tuple[int, int], ...]) -> tuple[Gate, ...]:
    """A Silph Co. floor's doors: each a block (2x2 squares) its map script draws shut on load until its
    event is set, which the CARD KEY does when the player faces the door and presses A (pret
    engine/events/card_key.asm PrintCardKeyText; scripts/SilphCo<floor>F.asm ...GateCallbackScript, the
    blocks in the order of its gate coordinates, DOOR1 first; a floor with one door has no number)."""
    numbered = len(blocks) > 1
    return tuple(
        Gate(map_name=f"SILPH_CO_{floor}F", squares=block_squares(bx, by),
             opens=_event(f"EVENT_SILPH_CO_{floor}_UNLOCKED_DOOR{number if numbered else ''}"),
             key="CARD_KEY", scene="a locked door that the CARD KEY opens",
             source=f"scripts/SilphCo{floor}F.asm SilphCo{floor}FGateCallbackScript")
        for number, (bx, by) in enumerate(blocks, start=1)
    )  # fmt: skip


SILPH_CO_DOORS: tuple[Gate, ...] = (
    *_card_key_doors(2, ((2, 2), (2, 5))),
    *_card_key_doors(3, ((4, 4), (8, 4))),
    *_card_key_doors(4, ((2, 6), (6, 4))),
    *_card_key_doors(5, ((3, 2), (3, 6), (7, 5))),
    *_card_key_doors(6, ((2, 6),)),
    *_card_key_doors(7, ((5, 3), (10, 2), (10, 6))),
    *_card_key_doors(8, ((3, 4),)),
    *_card_key_doors(9, ((1, 4), (9, 2), (9, 5), (5, 6))),
    *_card_key_doors(10, ((5, 4),)),
    *_card_key_doors(11, ((3, 6),)),
)

MANSION_SWITCH = "EVENT_MANSION_SWITCH_ON"
# The Pokémon Mansion's switch doors (pret scripts/PokemonMansion1F.asm Mansion1CheckReplaceSwitchDoorBlocks,
# and 2F, 3F, B1F's alike): blocks (x, y) each floor's script draws shut while the switch is off, then those
# it draws shut while it is on. The cartridge's own blocks there are floor. One switch event serves every
# floor, and Cinnabar Island's script turns it off again (scripts/CinnabarIsland.asm).
MANSION_DOORS: dict[str, tuple[tuple[tuple[int, int], ...], tuple[tuple[int, int], ...]]] = {
    "POKEMON_MANSION_1F": (((8, 3), (10, 8), (13, 13)), ((12, 6),)),
    "POKEMON_MANSION_2F": (((9, 4), (3, 11)), ((4, 2),)),
    "POKEMON_MANSION_3F": (((7, 5),), ((7, 2),)),
    "POKEMON_MANSION_B1F": (((4, 3), (8, 8)), ((13, 8), (6, 11))),
}


def _mansion_doors() -> tuple[Gate, ...]:
    gates = []
    for floor, (shut_when_off, shut_when_on) in MANSION_DOORS.items():
        source = f"scripts/{floor.title().replace('_', '')}.asm switch doors"
        for blocks, opens in (
            (shut_when_off, _event(MANSION_SWITCH)),
            (shut_when_on, Condition(kind="event", name=MANSION_SWITCH, negate=True)),
        ):
            gates += [Gate(map_name=floor, squares=block_squares(bx, by), opens=opens,
                           scene="a door the mansion's secret switch opens or shuts", source=source)
                      for bx, by in blocks]  # fmt: skip
    return tuple(gates)


# The Cinnabar Gym's gates (pret engine/events/hidden_events/cinnabar_gym_quiz.asm CinnabarGymGateCoords):
# gate n's block, opened by EVENT_CINNABAR_GYM_GATEn_UNLOCKED, which beating the trainer before it (object
# n + 2) or answering its quiz machine sets (scripts/CinnabarGym.asm CinnabarGymOpenGateScript).
CINNABAR_GYM_GATES = ((9, 3), (6, 3), (6, 6), (3, 8), (2, 6), (2, 3))


def _cinnabar_gym_gates() -> tuple[Gate, ...]:
    return tuple(
        Gate(map_name="CINNABAR_GYM", squares=block_squares(bx, by),
             opens=_event(f"EVENT_CINNABAR_GYM_GATE{number}_UNLOCKED"),
             scene="a gate that opens once its quiz is answered or its trainer beaten",
             source="scripts/CinnabarGym.asm CinnabarGymOpenGateScript")
        for number, (bx, by) in enumerate(CINNABAR_GYM_GATES, start=1)
    )  # fmt: skip


# Victory Road's boulder switches: a boulder pushed onto one sets its event, and the floor's script swaps in
# a block that opens a way (world/tables.py OPENED_BLOCKS). The squares here are the ones the swap makes
# walkable. VICTORY_ROAD_2F's script clears the 1F switch's event whenever it loads, so 1F's way is shut
# again once the player has gone up (pret scripts/VictoryRoad2F.asm VictoryRoad2FResetBoulderEventScript).
BOULDER_SWITCHES: dict[str, tuple[tuple[tuple[int, int], str, tuple[tuple[int, int], ...]], ...]] = {
    "VICTORY_ROAD_1F": (((17, 13), "EVENT_VICTORY_ROAD_1_BOULDER_ON_SWITCH", ((9, 12),)),),
    "VICTORY_ROAD_2F": (((1, 16), "EVENT_VICTORY_ROAD_2_BOULDER_ON_SWITCH1", ((7, 8), (7, 9))),
                        ((9, 16), "EVENT_VICTORY_ROAD_2_BOULDER_ON_SWITCH2", ((23, 14),))),
    "VICTORY_ROAD_3F": (((3, 5), "EVENT_VICTORY_ROAD_3_BOULDER_ON_SWITCH1", ((7, 10),)),),
}  # fmt: skip


# A boulder pushed into Victory Road 3F's hole is hidden there and one on 2F is shown, the one 2F's second
# switch needs (pret scripts/VictoryRoad3F.asm VictoryRoad3FDefaultScript .handle_hole): the switch, then
# the hole's floor and square and the event the fall sets.
BOULDER_HOLES: dict[tuple[str, tuple[int, int]], tuple[str, tuple[int, int], str]] = {
    ("VICTORY_ROAD_2F", (9, 16)): ("VICTORY_ROAD_3F", (23, 15), "EVENT_VICTORY_ROAD_3_BOULDER_ON_SWITCH2"),
}


def _seafoam_currents() -> tuple[Gate, ...]:
    """The currents of the Seafoam Islands' two lowest floors carry a surfing player off until two boulders
    are down the holes of the floor above each (pret scripts/SeafoamIslandsB3F.asm SeafoamIslandsB3FDefault-
    Script, B4F.asm; engine/overworld/field_move_messages.asm IsSurfingAllowed refuses SURF on B4F until
    then): every water square shut until both falls' events are set (two gates, both must be open)."""
    floors = (
        ("SEAFOAM_ISLANDS_B3F", "EVENT_SEAFOAM3_BOULDER"),
        ("SEAFOAM_ISLANDS_B4F", "EVENT_SEAFOAM4_BOULDER"),
    )
    return tuple(
        Gate(map_name=floor, water=True, opens=_event(f"{event}{number}_DOWN_HOLE"),
             scene="the current carries a surfing player off",
             source=f"scripts/{floor.title().replace('_', '')}.asm")
        for floor, event in floors for number in (1, 2)
    )  # fmt: skip


# The Elite Four's rooms (pret scripts/LoreleisRoom.asm, BrunosRoom.asm, AgathasRoom.asm): each room's
# script draws its exit, block (2, 0), shut on load until its trainer is beaten (...ShowOrHideExitBlock;
# world/tables.py OPENED_BLOCKS draws it open), and once the player has been walked in, the four squares
# of the entrance push them back ("Don't run away!", ...EntranceCoords). Lance's room shuts its entrance,
# blocks (2, 6) and (3, 6), behind a player who has walked down the hall (LancesRoom.asm
# LanceShowOrHideEntranceBlocks).
ELITE_FOUR_ROOMS = ("LORELEIS_ROOM", "BRUNOS_ROOM", "AGATHAS_ROOM")
ELITE_FOUR_ENTRANCE = ((4, 10), (5, 10), (4, 11), (5, 11))


def _elite_four_doors() -> tuple[Gate, ...]:
    gates = []
    for room in ELITE_FOUR_ROOMS:
        source = f"scripts/{room.title().replace('_', '')}.asm"
        gates += [
            Gate(map_name=room, squares=block_squares(2, 0), opens=_event(f"EVENT_BEAT_{room}_TRAINER_0"),
                 scene="the way to the next room opens once this room's trainer is beaten", source=source),
            Gate(map_name=room, squares=ELITE_FOUR_ENTRANCE,
                 opens=Condition(kind="event", name=f"EVENT_AUTOWALKED_INTO_{room}", negate=True),
                 scene="'Don't run away!': no way back once the player has walked in", source=source),
        ]  # fmt: skip
    lance_door = (*block_squares(2, 6), *block_squares(3, 6))
    gates.append(
        Gate(map_name="LANCES_ROOM", squares=lance_door,
             opens=Condition(kind="event", name="EVENT_LANCES_ROOM_LOCK_DOOR", negate=True),
             scene="the door behind the player shuts on the way to Lance",
             source="scripts/LancesRoom.asm LanceShowOrHideEntranceBlocks")
    )  # fmt: skip
    return tuple(gates)


def _boulder_gates() -> tuple[Gate, ...]:
    return tuple(
        Gate(map_name=floor, squares=opened, opens=_event(event),
             scene=f"rock that moves once a boulder is pushed onto the switch at {switch}",
             source=f"scripts/{floor.title().replace('_', '')}.asm boulder switch")
        for floor, switches in BOULDER_SWITCHES.items()
        for switch, event, opened in switches
    )  # fmt: skip


# Squares and conditions from the scripts each gate names (pret/pokered scripts/*.asm).
GATES: tuple[Gate, ...] = (
    Gate(map_name="PALLET_TOWN", row=1, opens=_event("EVENT_FOLLOWED_OAK_INTO_LAB"),
         scene="Oak stops the player in the grass and leads them to his lab",
         source="scripts/PalletTown.asm PalletTownDefaultScript"),
    Gate(map_name="OAKS_LAB", row=6, opens=_event("EVENT_GOT_STARTER"),
         only_after=_event("EVENT_OAK_ASKED_TO_CHOOSE_MON"),
         scene="Oak calls the player back to choose a Pokémon",
         source="scripts/OaksLab.asm OaksLabPlayerDontGoAwayScript"),
    Gate(map_name="VIRIDIAN_CITY", squares=((19, 9),), opens=_event("EVENT_GOT_POKEDEX"),
         scene="the old man blocks the road north until the player has a Pokédex",
         source="scripts/ViridianCity.asm ViridianCityCheckGotPokedexScript"),
    Gate(map_name="VIRIDIAN_CITY", squares=((32, 8),), opens=_event("EVENT_VIRIDIAN_GYM_OPEN"),
         scene="the gym's door is locked until the other seven badges are won",
         source="scripts/ViridianCity.asm ViridianCityCheckGymOpenScript"),
    Gate(map_name="PEWTER_CITY", squares=((35, 17), (36, 17), (37, 18), (37, 19)),
         opens=_event("EVENT_BEAT_BROCK"),
         scene="a youngster leads the player back to the gym until Brock is beaten",
         source="scripts/PewterCity.asm PewterCityCheckPlayerLeavingEastScript"),
    Gate(map_name="ROUTE_22_GATE", squares=((4, 2), (5, 2)), opens=Condition(kind="badge", name="BOULDER"),
         scene="the guard lets only holders of the Boulder Badge through",
         source="scripts/Route22Gate.asm Route22GateDefaultScript"),
    Gate(map_name="VERMILION_CITY", squares=((18, 30),), opens=Condition(kind="item", name="S_S_TICKET"),
         closed_after=_event("EVENT_SS_ANNE_LEFT"),
         scene="the dock sailor lets only S.S. Ticket holders board, and no one once the ship has left",
         source="scripts/VermilionCity.asm VermilionCityDefaultScript"),
    Gate(map_name="VERMILION_GYM", squares=((4, 4), (5, 4), (4, 5), (5, 5)),
         opens=_event("EVENT_2ND_LOCK_OPENED"),
         scene="the doors to Lt. Surge stay shut until both switches in the trash cans are found",
         source="scripts/VermilionGym.asm VermilionGymSetDoorTile"),
    Gate(map_name="GAME_CORNER", squares=((16, 4), (17, 4), (16, 5), (17, 5)),
         opens=_event("EVENT_FOUND_ROCKET_HIDEOUT"),
         scene="the stairs to the Rocket Hideout stay walled up until the switch behind the poster is found",
         source="scripts/GameCorner.asm GameCornerSetRocketHideoutDoorTile"),
    Gate(map_name="ROCKET_HIDEOUT_B4F", squares=((24, 10), (25, 10), (24, 11), (25, 11)),
         opens=_event("EVENT_ROCKET_HIDEOUT_4_DOOR_UNLOCKED"),
         scene="the door to Giovanni opens once the two Rockets before it are beaten",
         source="scripts/RocketHideoutB4F.asm RocketHideoutB4FDoorCallbackScript"),
    _drink_gate("ROUTE_5_GATE", ((3, 3), (4, 3)), "Route5Gate"),
    _drink_gate("ROUTE_6_GATE", ((3, 2), (4, 2)), "Route6Gate"),
    _drink_gate("ROUTE_7_GATE", ((3, 3), (3, 4)), "Route7Gate"),
    _drink_gate("ROUTE_8_GATE", ((2, 3), (2, 4)), "Route8Gate"),
    Gate(map_name="ROUTE_16_GATE_1F", squares=((4, 7), (4, 8), (4, 9), (4, 10)),
         opens=Condition(kind="item", name="BICYCLE"), scene="no one goes to Cycling Road without a bicycle",
         source="scripts/Route16Gate1F.asm Route16Gate1FDefaultScript"),
    Gate(map_name="ROUTE_18_GATE_1F", squares=((4, 3), (4, 4), (4, 5), (4, 6)),
         opens=Condition(kind="item", name="BICYCLE"), scene="no one goes to Cycling Road without a bicycle",
         source="scripts/Route18Gate1F.asm Route18Gate1FDefaultScript"),
    Gate(map_name="CINNABAR_ISLAND", squares=((18, 4),), opens=Condition(kind="item", name="SECRET_KEY"),
         scene="the gym's door is locked until the SECRET KEY is in the bag",
         source="scripts/CinnabarIsland.asm CinnabarIslandDefaultScript"),
    *SILPH_CO_DOORS,
    *_mansion_doors(),
    *_cinnabar_gym_gates(),
    *_boulder_gates(),
    *_seafoam_currents(),
    *_elite_four_doors(),
)  # fmt: skip


# People a map script walks out of the way before the player gets there, so their square is no wall: the
# S.S. Anne's rival stands on the captain's door once shown (after a lost battle he stays shown), and the
# scene on row 8 walks him down to the player and, after the battle, away (pret scripts/SSAnne2F.asm).
STEPPING_ASIDE = frozenset({("SS_ANNE_2F", 2)})


def closed_gates(state: GameState, gates: tuple[Gate, ...] = GATES) -> tuple[Gate, ...]:
    return tuple(gate for gate in gates if gate.closed(state))
