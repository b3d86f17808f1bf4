"""Every RAM symbol the decoders use lies inside the regions the emulator copies at each look."""

from __future__ import annotations

from engine.game.memory import DECODER_REGIONS
from engine.game.ram import RED_BLUE

# Symbols that are not read from a memory image: code addresses, ROM offsets, and what only the save-state
# check reads (live, once per load).
NOT_MEMORY = {"JoypadLowSensitivity", "WaitForTextScrollButtonPress_polled", "HandleMenuInput_polled",
              "WaitForTextScrollButtonPress", "HandleMenuInput_loop2", "DelayFrames_ret",
              "JoypadOverworld", "CheckForUserInterruption", "MapHeaderPointers",
              "MapHeaderBanks", "Tilesets", "wTilesetBank"}  # fmt: skip
NAME = RED_BLUE.nickname_length
BATTLE_STRUCT_SIZE = 29  # pret macros/ram.asm battle_struct
BOX_SIZE = 20  # MONS_PER_BOX

# Lists and structs that start at a symbol: how many bytes the decoders read from there.
EXTENTS = {
    "wPartyMon1": RED_BLUE.party_size * RED_BLUE.party.size,
    "wEnemyMons": RED_BLUE.party_size * RED_BLUE.party.size,
    "wPartyMonOT": RED_BLUE.party_size * NAME,
    "wPartyMonNicks": RED_BLUE.party_size * NAME,
    "wBoxMons": BOX_SIZE * RED_BLUE.party.box_size,
    "wBoxMonNicks": BOX_SIZE * NAME,
    "wPartySpecies": RED_BLUE.party_size + 1,
    "wEnemyPartySpecies": RED_BLUE.party_size + 1,
    "wBattleMon": BATTLE_STRUCT_SIZE,
    "wEnemyMon": BATTLE_STRUCT_SIZE,
    "wBagItems": 20 * 2 + 1,
    "wBoxItems": 50 * 2 + 1,
    "wPokedexOwned": RED_BLUE.pokedex_bytes,
    "wPokedexSeen": RED_BLUE.pokedex_bytes,
    "wPlayerName": NAME,
    "wRivalName": NAME,
    "wBattleMonNick": NAME,
    "wEnemyMonNick": NAME,
    "wCurMapHeader": 10,
    "wTileMap": 20 * 18,
    "wPlayerMoney": 3,
    "wItemList": 16,  # pret ram/wram.asm: wItemList:: ds 16
    "hItemPrice": 3,
    "hMoney": 3,
    "wSpriteStateData1": RED_BLUE.sprites * RED_BLUE.sprite_struct,
    "wSpriteStateData2": RED_BLUE.sprites * RED_BLUE.sprite_struct,
    "wEventFlags": RED_BLUE.event_flag_bytes,
    "wToggleableObjectFlags": RED_BLUE.toggle_flag_bytes,
    "wToggleableObjectList": RED_BLUE.toggle_list_bytes,
    "wTownVisitedFlag": RED_BLUE.town_flag_bytes,
}


def covered(address: int, length: int) -> bool:
    return any(start <= address and address + length <= end for start, end in DECODER_REGIONS)


def test_every_symbol_and_its_extent_is_copied() -> None:
    missing = []
    for name, address in RED_BLUE.model_dump().items():
        if not name.startswith(("w", "h")) or name in NOT_MEMORY:
            continue
        if not covered(address, EXTENTS.get(name, 2)):
            missing.append(f"{name} at {address:#06x}")
    assert missing == []


def test_the_check_itself_notices_a_gap() -> None:
    assert not covered(0xC000, 1)  # audio RAM: not copied
    assert not covered(0xD3FF, 2)  # straddles the end of a region
