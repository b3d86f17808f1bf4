"""Decoded game state: frozen pydantic models, the only shape game facts take outside `engine.game`."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from engine.frozen import Frozen
from engine.game.buttons import Button


class DecisionPoint(StrEnum):
    """What the game is waiting for right now."""

    OVERWORLD_FREE = "overworld_free"
    DIALOG_WAIT = "dialog_wait"
    START_MENU = "start_menu"
    OTHER_MENU = "other_menu"
    YES_NO_PROMPT = "yes_no_prompt"
    TITLE_MENU = "title_menu"
    NAMING_SCREEN = "naming_screen"
    BATTLE_MAIN_MENU = "battle_main_menu"
    BATTLE_MOVE_MENU = "battle_move_menu"
    BATTLE_PARTY_MENU = "battle_party_menu"
    BATTLE_BAG_MENU = "battle_bag_menu"
    BATTLE_ITEM_TARGET_MENU = "battle_item_target_menu"
    BATTLE_NEXT_MON_PROMPT = "battle_next_mon_prompt"
    BATTLE_TEXT = "battle_text"
    LEARN_MOVE_PROMPT = "learn_move_prompt"
    FORGET_MOVE_MENU = "forget_move_menu"
    ABANDON_LEARNING_PROMPT = "abandon_learning_prompt"
    EVOLUTION = "evolution"
    POKEDEX_ENTRY = "pokedex_entry"
    BUSY = "busy"


class ScreenKind(StrEnum):
    OVERWORLD = "overworld"
    DIALOG = "dialog"
    MENU = "menu"
    BATTLE = "battle"
    TRANSITION = "transition"


StatusName = Literal["OK", "SLP", "PSN", "BRN", "FRZ", "PAR"]


class MoveSlot(Frozen):
    move_id: int
    name: str | None
    pp: int
    pp_ups: int


class Stats(Frozen):
    attack: int
    defense: int
    speed: int
    special: int


class Mon(Frozen):
    """What party and battle structs have in common."""

    species_id: int
    species_name: str | None
    nickname: str
    level: int
    hp: int
    max_hp: int
    status: StatusName
    status_byte: int
    type1: int
    type2: int
    type1_name: str | None
    type2_name: str | None
    moves: tuple[MoveSlot, ...]
    stats: Stats
    dvs: int


class PartyMon(Mon):
    slot: int
    ot_id: int
    exp: int
    stat_exp: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)  # HP, Attack, Defense, Speed, Special


class BattleMon(Mon):
    """A battle_struct: the active member as the battle code sees it (stat stages not applied)."""

    party_pos: int


class MenuCursor(Frozen):
    item: int
    top_x: int
    top_y: int
    max_item: int
    # Scrolling list menus (the bag): wListScrollOffset, entries hidden above the first visible row.
    scroll_offset: int | None = None


STAGE_NAMES = ("attack", "defense", "speed", "special", "accuracy", "evasion")
NEUTRAL_STAGES = (0, 0, 0, 0, 0, 0)


class BattleSide(Frozen):
    """What the battle keeps about one side's active member besides its struct (pret ram/wram.asm:
    w{Player,Enemy}MonStatMods, w{Player,Enemy}BattleStatus1-3 and the counters after them). Stages run
    -6..6 in STAGE_NAMES order; the status bytes keep pret's bit layout (constants/battle_constants.asm)."""

    stages: tuple[int, int, int, int, int, int] = NEUTRAL_STAGES
    status1: int = 0
    status2: int = 0
    status3: int = 0
    confused_turns: int = 0
    toxic_counter: int = 0
    attacks_left: int = 0  # turns left of a multi-turn move (Bide, Thrash, Wrap)
    bide_damage: int = 0
    unmodified: Stats | None = None  # the enemy's stats before stages (wEnemyMonUnmodified*)


class BattleState(Frozen):
    kind: Literal["wild", "trainer"]
    battle_type: int
    cur_opponent: int
    trainer_class: int | None
    trainer_class_name: str | None
    trainer_number: int | None
    player_active_slot: int
    player: BattleMon | None
    enemy: BattleMon | None
    enemy_party_count: int | None
    enemy_party_species: tuple[int, ...]
    enemy_party_species_names: tuple[str | None, ...]
    enemy_party_pos: int | None
    enemy_party_hp: tuple[int, ...] = ()  # each trainer member's HP, in party order
    menu: MenuCursor | None
    move_cursor: int | None
    player_side: BattleSide = BattleSide()
    enemy_side: BattleSide = BattleSide()
    enemy_move_id: int = 0  # wEnemyMoveNum: the last move used; a battle's first foe shows the last battle's
    disabled_slot: int | None = None  # our move slot the enemy's DISABLE shut (wPlayerDisabledMove)
    # The party member a level-up move is offered to (wWhichPokemon, which LearnMove reads): after a win
    # every member that fought gains experience, so it need not be the one in front.
    learner_slot: int | None = None


Facing = Literal["down", "up", "left", "right", "unknown"]


class Sprite(Frozen):
    """A person or object of the current map, where it stands now (wSpriteStateData1/2)."""

    index: int  # its slot: the map's object number (1 = the map's first object_event)
    picture: int
    x: int
    y: int
    facing: Facing
    walking: bool  # it moves about on its own (its movement byte is not STAY)


class Overworld(Frozen):
    map_id: int
    map_name: str | None
    x: int
    y: int
    facing: Facing
    sprites: tuple[Sprite, ...] = ()  # visible ones only: hidden (toggled off) objects are left out
    mode: Literal["walk", "bike", "surf"] = "walk"  # wWalkBikeSurfState
    repel_steps: int = 0  # wRepelRemainingSteps: steps a REPEL still keeps weaker wild Pokémon away


class Evolution(Frozen):
    """A member evolving on screen: the species it is and the one it becomes."""

    species: str
    into: str


class Story(Frozen):
    """How far the game has gone: the event flags that are set (by index into wEventFlags, and by their
    pret names where pret names them), the towns visited, the toggleable objects that are hidden (global
    indices), the Saffron guards' drink, and the map the player last came from."""

    event_flags: frozenset[int] = frozenset()
    events: frozenset[str] = frozenset()
    towns_visited: frozenset[str] = frozenset()
    hidden_objects: frozenset[int] = frozenset()
    guards_had_drink: bool = False
    last_map: int | None = None
    rival_starter: str | None = None  # the species the rival chose in Oak's lab (its teams follow it)
    blackout_map: str | None = None  # where a whiteout sends the player: the town of the last nurse


class Progress(Frozen):
    badges: int  # wObtainedBadges as it is: one bit per badge (Boulder is bit 0)
    badge_names: tuple[str, ...]
    money: int
    pokedex_owned: int
    pokedex_seen: int
    play_time: str
    box_count: int = 0  # the current PC box's Pokémon (wBoxCount): a catch with a full party goes there
    box_number: int = 0  # which box is the current one (0-based, wCurrentBoxNum)
    owned_dex: frozenset[int] = frozenset()  # the Pokédex numbers owned (wPokedexOwned's bits)

    @property
    def badge_count(self) -> int:
        return len(self.badge_names)


class BagItem(Frozen):
    item_id: int
    name: str | None
    quantity: int


class ScreenView(Frozen):
    kind: ScreenKind
    text: tuple[str, ...]
    continue_arrow_visible: bool


class GameState(Frozen):
    """Everything `engine inspect` shows, decoded from one memory image."""

    decision_point: DecisionPoint
    screen: ScreenView
    player_name: str
    rival_name: str
    party: tuple[PartyMon, ...]
    battle: BattleState | None
    menu: MenuCursor | None
    overworld: Overworld
    progress: Progress
    bag: tuple[BagItem, ...]
    story: Story = Story()
    evolution: Evolution | None = None  # only while a member evolves on screen
    box: tuple[PartyMon, ...] = ()  # the current PC box's Pokémon, stats worked out as on withdrawal
    pc_items: tuple[BagItem, ...] = ()  # the items stored in the player's PC


class Direction(StrEnum):
    UP = "up"
    DOWN = "down"
    LEFT = "left"
    RIGHT = "right"

    @property
    def button(self) -> Button:
        return Button(self.value)
