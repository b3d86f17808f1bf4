"""Decoders: a `MemoryImage` in, frozen models out. Pure functions, safe on any RAM (garbage in, bounded
models out), so they also work on the title screen or a half-initialised state."""

from __future__ import annotations

from typing import Any, Literal

from engine.game.charmap import decode_string
from engine.game.memory import MemoryImage
from engine.game.models import (
    STAGE_NAMES,
    BagItem,
    BattleMon,
    BattleSide,
    BattleState,
    Evolution,
    Facing,
    MenuCursor,
    MoveSlot,
    Overworld,
    PartyMon,
    Progress,
    Sprite,
    Stats,
    StatusName,
    Story,
)
from engine.game.ram import BattleStructOffsets, PartyStructOffsets, RamMap
from engine.game.stats import StatExp, computed_stats
from engine.game.tables import GameData

NUM_MOVES = 4
NAME_LENGTH = 11
MAX_BAG_ITEMS = 20
MAX_PC_ITEMS = 50  # pret constants/item_constants.asm PC_ITEM_CAPACITY
LIST_TERMINATOR = 0xFF
BADGES = ("BOULDER", "CASCADE", "THUNDER", "RAINBOW", "SOUL", "MARSH", "VOLCANO", "EARTH")
# SPRITE_FACING_* in pret constants/sprite_constants.asm
FACING: dict[int, Facing] = {0x0: "down", 0x4: "up", 0x8: "left", 0xC: "right"}
SPRITE_COORD_BIAS = 4  # wSpriteStateData2 map coordinates are stored + 4
MOVEMENT_STAY = 0xFF
GAVE_SAFFRON_GUARDS_DRINK = (
    1 << 6
)  # wStatusFlags1 (pret constants/ram_constants.asm)  # pret constants/map_object_constants.asm STAY
IN_BATTLE_KINDS: dict[int, Literal["wild", "trainer"]] = {1: "wild", 2: "trainer"}


def decode_status(byte: int) -> StatusName:
    """Non-volatile status byte: bits 0-2 sleep counter, then PSN, BRN, FRZ, PAR (pret constants)."""
    if byte & 0x07:
        return "SLP"
    for bit, name in ((3, "PSN"), (4, "BRN"), (5, "FRZ"), (6, "PAR")):
        if byte & (1 << bit):
            return name  # type: ignore[return-value]
    return "OK"


def decode_moves(image: MemoryImage, moves_at: int, pp_at: int, data: GameData) -> tuple[MoveSlot, ...]:
    slots = []
    for index in range(NUM_MOVES):
        move_id = image.u8(moves_at + index)
        if move_id == 0:
            continue
        pp_byte = image.u8(pp_at + index)
        slots.append(
            MoveSlot(move_id=move_id, name=data.move_name(move_id), pp=pp_byte & 0x3F, pp_ups=pp_byte >> 6)
        )
    return tuple(slots)


def _stats(image: MemoryImage, attack_at: int) -> Stats:
    return Stats(
        attack=image.u16be(attack_at),
        defense=image.u16be(attack_at + 2),
        speed=image.u16be(attack_at + 4),
        special=image.u16be(attack_at + 6),
    )


def _mon_fields(
    image: MemoryImage,
    data: GameData,
    base: int,
    offsets: PartyStructOffsets | BattleStructOffsets,
    nick_at: int,
) -> dict[str, Any]:
    """The fields party_struct and battle_struct share (at different offsets)."""
    status_byte = image.u8(base + offsets.status)
    type1, type2 = image.u8(base + offsets.type1), image.u8(base + offsets.type2)
    species_id = image.u8(base + offsets.species)
    return {
        "species_id": species_id,
        "species_name": data.species_name(species_id),
        "nickname": decode_string(image.read(nick_at, NAME_LENGTH)),
        "level": image.u8(base + offsets.level),
        "hp": image.u16be(base + offsets.hp),
        "max_hp": image.u16be(base + offsets.max_hp),
        "status": decode_status(status_byte),
        "status_byte": status_byte,
        "type1": type1,
        "type2": type2,
        "type1_name": data.type_name(type1),
        "type2_name": data.type_name(type2),
        "moves": decode_moves(image, base + offsets.moves, base + offsets.pp, data),
        "stats": _stats(image, base + offsets.attack),
        "dvs": image.u16be(base + offsets.dvs),
    }


def decode_party_mon(image: MemoryImage, ram: RamMap, data: GameData, slot: int) -> PartyMon:
    offsets = ram.party
    base = ram.wPartyMon1 + slot * offsets.size
    return PartyMon(
        **_mon_fields(image, data, base, offsets, ram.wPartyMonNicks + slot * NAME_LENGTH),
        slot=slot,
        ot_id=image.u16be(base + offsets.ot_id),
        exp=int.from_bytes(image.read(base + offsets.exp, 3), "big"),
        stat_exp=_stat_exp(image, base + offsets.stat_exp),
    )


def _stat_exp(image: MemoryImage, at: int) -> StatExp:
    hp, attack, defense, speed, special = (image.u16be(at + 2 * i) for i in range(5))
    return hp, attack, defense, speed, special


def decode_box_mon(image: MemoryImage, ram: RamMap, data: GameData, slot: int) -> PartyMon:
    """A Pokémon of the current box as it would join the party: the box_struct keeps no stats, so they
    are worked out from species, level, DVs and stat experience as the game does when it is withdrawn
    (an unknown species byte keeps the zeros the struct would give)."""
    offsets = ram.party
    base = ram.wBoxMons + slot * offsets.box_size
    fields = _mon_fields(image, data, base, offsets, ram.wBoxMonNicks + slot * NAME_LENGTH)
    level = image.u8(base + offsets.box_level)
    stat_exp = _stat_exp(image, base + offsets.stat_exp)
    species = data.species_by_index.get(fields["species_id"])
    max_hp, stats = (
        computed_stats(species, max(1, level), fields["dvs"], stat_exp)
        if species is not None
        else (0, Stats(attack=0, defense=0, speed=0, special=0))
    )
    fields.update(level=level, max_hp=max_hp, stats=stats)
    return PartyMon(
        **fields,
        slot=slot,
        ot_id=image.u16be(base + offsets.ot_id),
        exp=int.from_bytes(image.read(base + offsets.exp, 3), "big"),
        stat_exp=stat_exp,
    )


def decode_box(image: MemoryImage, ram: RamMap, data: GameData) -> tuple[PartyMon, ...]:
    """The current PC box's Pokémon (the others are in the cartridge's save, out of reach). The box changes
    only at a PC or with a catch, and a full one costs as much to decode as the rest of the state: the last
    few are kept by their bytes."""
    count = min(image.u8(ram.wBoxCount), MONS_PER_BOX)
    if count == 0:
        return ()
    raw = image.read(ram.wBoxCount, ram.wBoxMonNicks + MONS_PER_BOX * NAME_LENGTH - ram.wBoxCount)
    key = (raw, ram.wBoxCount)
    found = _BOXES_SEEN.get(key)
    if found is None:
        if len(_BOXES_SEEN) >= BOXES_KEPT:
            _BOXES_SEEN.clear()
        found = _BOXES_SEEN[key] = tuple(decode_box_mon(image, ram, data, slot) for slot in range(count))
    return found


BOXES_KEPT = 8
_BOXES_SEEN: dict[tuple[bytes, int], tuple[PartyMon, ...]] = {}


def decode_evolution(image: MemoryImage, ram: RamMap, data: GameData) -> Evolution | None:
    """The species evolving and the one it becomes, while the evolution plays; None when either byte
    names no species."""
    species = data.species_name(image.u8(ram.wEvoOldSpecies))
    into = data.species_name(image.u8(ram.wEvoNewSpecies))
    return None if species is None or into is None else Evolution(species=species, into=into)


def decode_party(image: MemoryImage, ram: RamMap, data: GameData) -> tuple[PartyMon, ...]:
    count = min(image.u8(ram.wPartyCount), ram.party_size)
    return tuple(decode_party_mon(image, ram, data, slot) for slot in range(count))


def decode_battle_mon(
    image: MemoryImage, ram: RamMap, data: GameData, base: int, nick_at: int
) -> BattleMon | None:
    """None before the side has sent a member out (species byte still 0)."""
    if image.u8(base + ram.battle.species) == 0:
        return None
    fields = _mon_fields(image, data, base, ram.battle, nick_at)
    return BattleMon(**fields, party_pos=image.u8(base + ram.battle.party_pos))


def decode_menu(image: MemoryImage, ram: RamMap, *, scrolling_list: bool = False) -> MenuCursor:
    """The cursor of the menu on screen; a scrolling list (the bag) also has its scroll offset."""
    return MenuCursor(
        item=image.u8(ram.wCurrentMenuItem),
        top_x=image.u8(ram.wTopMenuItemX),
        top_y=image.u8(ram.wTopMenuItemY),
        max_item=image.u8(ram.wMaxMenuItem),
        scroll_offset=image.u8(ram.wListScrollOffset) if scrolling_list else None,
    )


def _enemy_party_hp(image: MemoryImage, ram: RamMap, count: int) -> tuple[int, ...]:
    """Each trainer member's HP (wEnemyMons: party_structs): a trainer that switches (Agatha, the
    Champion) can be beaten with its last member fainted anywhere in its party."""
    step, hp = ram.party.size, ram.party.hp
    return tuple(image.u16be(ram.wEnemyMons + i * step + hp) for i in range(count))


def decode_battle(
    image: MemoryImage,
    ram: RamMap,
    data: GameData,
    *,
    menu_active: bool,
    move_menu_active: bool,
    scrolling_list: bool = False,
) -> BattleState | None:
    """None outside battle. Menu fields are filled only while a menu is actually waiting."""
    kind = IN_BATTLE_KINDS.get(image.u8(ram.wIsInBattle))
    if kind is None:
        return None
    trainer = kind == "trainer"
    trainer_class = image.u8(ram.wTrainerClass) if trainer else None
    enemy_count = min(image.u8(ram.wEnemyPartyCount), ram.party_size) if trainer else None
    species = tuple(image.read(ram.wEnemyPartySpecies, enemy_count)) if enemy_count else ()
    menu = decode_menu(image, ram, scrolling_list=scrolling_list) if menu_active else None
    return BattleState(
        kind=kind,
        battle_type=image.u8(ram.wBattleType),
        cur_opponent=image.u8(ram.wCurOpponent),
        trainer_class=trainer_class,
        trainer_class_name=_trainer_class_name(data, trainer_class),
        trainer_number=image.u8(ram.wTrainerNo) if trainer else None,
        player_active_slot=image.u8(ram.wPlayerMonNumber),
        player=decode_battle_mon(image, ram, data, ram.wBattleMon, ram.wBattleMonNick),
        enemy=decode_battle_mon(image, ram, data, ram.wEnemyMon, ram.wEnemyMonNick),
        enemy_party_count=enemy_count,
        enemy_party_species=species,
        enemy_party_species_names=tuple(data.species_name(s) for s in species),
        enemy_party_pos=image.u8(ram.wEnemyMonPartyPos) if trainer else None,
        enemy_party_hp=_enemy_party_hp(image, ram, enemy_count or 0),
        menu=menu,
        # The regular move menu's first row is the box border, so item 1 is move slot 0.
        move_cursor=menu.item - 1 if (menu is not None and move_menu_active) else None,
        player_side=decode_side(image, ram, enemy=False),
        enemy_side=decode_side(image, ram, enemy=True),
        enemy_move_id=image.u8(ram.wEnemyMoveNum),
        disabled_slot=(image.u8(ram.wPlayerDisabledMove) >> 4) - 1
        if image.u8(ram.wPlayerDisabledMove) >> 4
        else None,
        learner_slot=image.u8(ram.wWhichPokemon),
    )


STAT_MOD_NEUTRAL = 7  # the game stores stages as 1..13


def decode_side(image: MemoryImage, ram: RamMap, *, enemy: bool) -> BattleSide:
    status_at = ram.wEnemyBattleStatus1 if enemy else ram.wPlayerBattleStatus1
    mods_at = ram.wEnemyMonStatMods if enemy else ram.wPlayerMonStatMods
    stages = tuple(min(max(b, 1), 13) - STAT_MOD_NEUTRAL for b in image.read(mods_at, len(STAGE_NAMES)))
    status1, status2, status3 = image.read(status_at, 3)
    if enemy:
        counters = (ram.wEnemyConfusedCounter, ram.wEnemyToxicCounter, ram.wEnemyNumAttacksLeft)
        bide_at = ram.wEnemyBideAccumulatedDamage
    else:
        counters = (ram.wPlayerConfusedCounter, ram.wPlayerToxicCounter, ram.wPlayerNumAttacksLeft)
        bide_at = ram.wPlayerBideAccumulatedDamage
    confused, toxic, attacks_left = (image.u8(address) for address in counters)
    return BattleSide(
        stages=(stages[0], stages[1], stages[2], stages[3], stages[4], stages[5]),
        status1=status1,
        status2=status2,
        status3=status3,
        confused_turns=confused,
        toxic_counter=toxic,
        attacks_left=attacks_left,
        bide_damage=image.u16be(bide_at),
        unmodified=_stats(image, ram.wEnemyMonUnmodifiedAttack) if enemy else None,
    )


def _trainer_class_name(data: GameData, trainer_class: int | None) -> str | None:
    if trainer_class is None:
        return None
    found = data.trainer_classes.get(trainer_class)
    return found.name if found else None


MODES: dict[int, Literal["walk", "bike", "surf"]] = {0: "walk", 1: "bike", 2: "surf"}


def decode_overworld(image: MemoryImage, ram: RamMap, data: GameData) -> Overworld:
    map_id = image.u8(ram.wCurMap)
    return Overworld(
        map_id=map_id,
        map_name=_map_name(data, map_id),
        x=image.u8(ram.wXCoord),
        y=image.u8(ram.wYCoord),
        facing=FACING.get(image.u8(ram.wSpritePlayerStateData1FacingDirection), "unknown"),
        sprites=decode_sprites(image, ram),
        mode=MODES.get(image.u8(ram.wWalkBikeSurfState), "walk"),
        repel_steps=image.u8(ram.wRepelRemainingSteps),
    )


def _hidden_sprites(image: MemoryImage, ram: RamMap) -> set[int]:
    """The current map's sprite slots whose toggleable object is switched off (pret IsObjectHidden)."""
    hidden = set()
    pairs = image.read(ram.wToggleableObjectList, ram.toggle_list_bytes)
    for at in range(0, len(pairs) - 1, 2):
        slot, index = pairs[at], pairs[at + 1]
        if slot == 0xFF:
            break
        if _flag(image, ram.wToggleableObjectFlags, index):
            hidden.add(slot)
    return hidden


def decode_sprites(image: MemoryImage, ram: RamMap) -> tuple[Sprite, ...]:
    """The map's visible people and objects: slot 0 is the player, an empty slot has picture 0."""
    hidden = _hidden_sprites(image, ram)
    found = []
    for slot in range(1, ram.sprites):
        first = ram.wSpriteStateData1 + slot * ram.sprite_struct
        second = ram.wSpriteStateData2 + slot * ram.sprite_struct
        picture = image.u8(first)
        if picture == 0 or slot in hidden:
            continue
        # Unvalidated, as decode_story's: ints, a facing from FACING or "unknown", a bool.
        found.append(Sprite.model_construct(index=slot, picture=picture,
                                            x=image.u8(second + 5) - SPRITE_COORD_BIAS,
                                            y=image.u8(second + 4) - SPRITE_COORD_BIAS,
                                            facing=FACING.get(image.u8(first + 9), "unknown"),
                                            walking=image.u8(second + 6) != MOVEMENT_STAY))  # fmt: skip
    return tuple(found)


def _flag(image: MemoryImage, start: int, index: int) -> bool:
    return bool(image.u8(start + index // 8) & (1 << (index % 8)))


def _set_bits(raw: bytes) -> list[int]:
    return [at * 8 + bit for at, byte in enumerate(raw) if byte for bit in range(8) if byte & (1 << bit)]


# The Elite Four's events, which the Indigo Plateau lobby clears when it is entered after a challenge began
# (pret scripts/IndigoPlateauLobby.asm: wElite4Flags BIT_STARTED_ELITE_4, then ResetEventRange from
# INDIGO_PLATEAU_EVENTS_START to EVENT_LANCES_ROOM_LOCK_DOOR, constants/event_constants.asm), and the maps
# where they still hold: outside these rooms, after a whiteout, they are as good as cleared, since every way
# back to the rooms leads through the lobby.
ELITE_FOUR_EVENTS = range(0x8E0, 0x8FF + 1)
STARTED_ELITE_4 = 1 << 1
ELITE_FOUR_MAPS = frozenset(
    {"LORELEIS_ROOM", "BRUNOS_ROOM", "AGATHAS_ROOM", "LANCES_ROOM", "CHAMPIONS_ROOM", "HALL_OF_FAME"}
)


def decode_story(image: MemoryImage, ram: RamMap, data: GameData) -> Story:
    events = _set_bits(image.read(ram.wEventFlags, ram.event_flag_bytes))
    if image.u8(ram.wElite4Flags) & STARTED_ELITE_4 and _map_name(data, image.u8(ram.wCurMap)) not in (
        ELITE_FOUR_MAPS
    ):
        events = [index for index in events if index not in ELITE_FOUR_EVENTS]
    towns = _set_bits(image.read(ram.wTownVisitedFlag, ram.town_flag_bytes))
    hidden = _set_bits(image.read(ram.wToggleableObjectFlags, ram.toggle_flag_bytes))
    town_names = (data.maps[town].name for town in towns if town in data.maps)
    last_map = image.u8(ram.wLastMap)
    # Built without validation: every field is made here with its exact type, and validating a few
    # hundred flags at every look cost more than decoding them (sprites likewise).
    return Story.model_construct(
        event_flags=frozenset(events),
        events=frozenset(data.events[index] for index in events if index in data.events),
        towns_visited=frozenset(town_names),
        hidden_objects=frozenset(hidden),
        guards_had_drink=bool(image.u8(ram.wStatusFlags1) & GAVE_SAFFRON_GUARDS_DRINK),
        last_map=last_map if last_map in data.maps else None,
        rival_starter=data.species_name(image.u8(ram.wRivalStarter)),
        blackout_map=_map_name(data, image.u8(ram.wLastBlackoutMap)),
    )


def _map_name(data: GameData, map_id: int) -> str | None:
    found = data.maps.get(map_id)
    return found.name if found is not None else None


def decode_bcd(raw: bytes) -> int:
    value = 0
    for byte in raw:
        value = value * 100 + (byte >> 4) * 10 + (byte & 0x0F)
    return value


def _count_bits(raw: bytes) -> int:
    return sum(bin(byte).count("1") for byte in raw)


def decode_progress(image: MemoryImage, ram: RamMap) -> Progress:
    badges = image.u8(ram.wObtainedBadges)
    hours = image.u8(ram.wPlayTimeHours)
    minutes = image.u8(ram.wPlayTimeMinutes)
    seconds = image.u8(ram.wPlayTimeSeconds)
    return Progress(
        badges=badges,
        badge_names=tuple(name for bit, name in enumerate(BADGES) if badges & (1 << bit)),
        money=decode_bcd(image.read(ram.wPlayerMoney, 3)),
        pokedex_owned=_count_bits(image.read(ram.wPokedexOwned, ram.pokedex_bytes)),
        pokedex_seen=_count_bits(image.read(ram.wPokedexSeen, ram.pokedex_bytes)),
        play_time=f"{hours}:{minutes:02d}:{seconds:02d}",
        box_count=min(image.u8(ram.wBoxCount), MONS_PER_BOX),
        box_number=image.u8(ram.wCurrentBoxNum) & BOX_NUMBER,
        owned_dex=frozenset(bit + 1 for bit in _set_bits(image.read(ram.wPokedexOwned, ram.pokedex_bytes))),
    )


MONS_PER_BOX, BOXES = 20, 12  # pret constants/pokemon_data_constants.asm
BOX_NUMBER = 0x7F  # wCurrentBoxNum's box; bit 7 says whether the boxes were ever changed


def decode_bag(image: MemoryImage, ram: RamMap, data: GameData) -> tuple[BagItem, ...]:
    return _item_list(image, ram.wNumBagItems, ram.wBagItems, MAX_BAG_ITEMS, data)


def decode_pc_items(image: MemoryImage, ram: RamMap, data: GameData) -> tuple[BagItem, ...]:
    """The items stored in the player's PC."""
    return _item_list(image, ram.wNumBoxItems, ram.wBoxItems, MAX_PC_ITEMS, data)


def _item_list(
    image: MemoryImage, count_at: int, items_at: int, most: int, data: GameData
) -> tuple[BagItem, ...]:
    items = []
    for index in range(min(image.u8(count_at), most)):
        item_id = image.u8(items_at + 2 * index)
        if item_id == LIST_TERMINATOR:
            break
        found = data.items.get(item_id)
        quantity = image.u8(items_at + 2 * index + 1)
        items.append(BagItem(item_id=item_id, name=found.name if found else None, quantity=quantity))
    return tuple(items)


def decode_name(image: MemoryImage, address: int) -> str:
    return decode_string(image.read(address, NAME_LENGTH))
