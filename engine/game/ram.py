"""RAM addresses of Pokémon Red/Blue, named by their pret/pokered symbols (pokered.sym, bank 00).

Red and Blue share one WRAM/HRAM layout; Yellow does not and needs its own map before it can be
supported. Struct offsets follow `macros/ram.asm` (box_struct, party_struct, battle_struct).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from engine.game.cartridge import Game


class PartyStructOffsets(BaseModel):
    """party_struct = box_struct + level and computed stats; 0x2C bytes."""

    model_config = ConfigDict(frozen=True)

    species: int = 0x00
    hp: int = 0x01
    box_level: int = 0x03
    status: int = 0x04
    type1: int = 0x05
    type2: int = 0x06
    catch_rate: int = 0x07
    moves: int = 0x08
    ot_id: int = 0x0C
    exp: int = 0x0E
    stat_exp: int = 0x11  # five big-endian words: HP, Attack, Defense, Speed, Special
    dvs: int = 0x1B
    pp: int = 0x1D
    box_size: int = 0x21  # a box_struct ends here
    level: int = 0x21
    max_hp: int = 0x22
    attack: int = 0x24
    defense: int = 0x26
    speed: int = 0x28
    special: int = 0x2A
    size: int = 0x2C


class BattleStructOffsets(BaseModel):
    """battle_struct: the copy of the active member that battle code works on; 0x1D bytes."""

    model_config = ConfigDict(frozen=True)

    species: int = 0x00
    hp: int = 0x01
    party_pos: int = 0x03
    status: int = 0x04
    type1: int = 0x05
    type2: int = 0x06
    catch_rate: int = 0x07
    moves: int = 0x08
    dvs: int = 0x0C
    level: int = 0x0E
    max_hp: int = 0x0F
    attack: int = 0x11
    defense: int = 0x13
    speed: int = 0x15
    special: int = 0x17
    pp: int = 0x19


class RamMap(BaseModel):
    model_config = ConfigDict(frozen=True)

    # Party
    wPartyCount: int
    wPartySpecies: int
    wPartyMon1: int
    wPartyMonOT: int
    wPartyMonNicks: int
    # Battle
    wIsInBattle: int
    wCurOpponent: int
    wBattleType: int
    wTrainerClass: int
    wGymLeaderNo: int  # also wLoneAttackNo: which leader's special move ReadTrainer gives
    wTrainerNo: int
    wPlayerMonNumber: int
    wWhichPokemon: int
    wBattleMon: int
    wBattleMonNick: int
    wEnemyMon: int
    wEnemyMonNick: int
    wEnemyMonPartyPos: int
    wEnemyPartyCount: int
    wEnemyPartySpecies: int
    wEnemyMons: int
    wPlayerBattleStatus1: int
    wEnemyBattleStatus1: int
    wPlayerMonStatMods: int
    wEnemyMonStatMods: int
    wPlayerConfusedCounter: int
    wPlayerToxicCounter: int
    wPlayerNumAttacksLeft: int
    wPlayerBideAccumulatedDamage: int
    wEnemyConfusedCounter: int
    wEnemyToxicCounter: int
    wEnemyNumAttacksLeft: int
    wEnemyBideAccumulatedDamage: int
    wEnemyMonUnmodifiedAttack: int
    wEnemyMoveNum: int
    wPlayerDisabledMove: int  # high nibble: the DISABLEd move's slot + 1 (0: none); low: turns left
    wBattleResult: int
    wCapturedMonSpecies: int
    # Screen
    wTileMap: int
    # Menus
    wTopMenuItemY: int
    wTopMenuItemX: int
    wCurrentMenuItem: int
    wMaxMenuItem: int
    wMenuWatchedKeys: int
    wLastMenuItem: int
    wListMenuID: int
    wBoxCount: int  # the current box's Pokémon (MONS_PER_BOX at most)
    wBoxMons: int  # the current box's box_structs (no level-computed stats: the game works them out)
    wBoxMonNicks: int
    wCurrentBoxNum: int  # the current box (bits 0-6) and whether boxes were ever changed (bit 7)
    wListScrollOffset: int
    wPartyMenuTypeOrMessageID: int
    wTextBoxID: int
    # Naming screen and OPTION menu (engine/menus/naming_screen.asm, engine/menus/main_menu.asm)
    wStringBuffer: int
    wNamingScreenType: int  # shares its byte with wPartyMenuTypeOrMessageID (a union in ram/wram.asm)
    wAlphabetCase: int
    wOptionsTextSpeedCursorX: int
    wOptionsBattleAnimCursorX: int
    wOptionsBattleStyleCursorX: int
    wJoyIgnore: int
    wEvolutionOccurred: int
    wMoveNum: int  # the move a level-up offers (pret engine/pokemon/learn_move.asm LearnMove)
    wEvoOldSpecies: int  # the species evolving and what it becomes (pret engine/movie/evolution.asm)
    wEvoNewSpecies: int
    # Poké Mart (pret engine/events/pokemart.asm DisplayPokemartDialogue_, home/list_menu.asm)
    wItemList: int  # the Mart's stock: a count, the item ids, $ff (LoadItemList, home/text_script.asm)
    wCurItem: int  # the item chosen in a list menu
    wItemQuantity: int  # the number in the quantity box (DisplayChooseQuantityMenu)
    hJoy7: int  # 1 while DisplayListMenuID reads the pad, 0 once it has returned (to the quantity box)
    hItemPrice: int  # 3 BCD bytes: the chosen item's unit price (GetItemPrice, home/item_price.asm)
    hMoney: int  # 3 BCD bytes: the quantity box's total (halved when selling), what the clerk asks or pays
    # Overworld and progress
    wCurMap: int
    wYCoord: int
    wXCoord: int
    wSpritePlayerStateData1FacingDirection: int
    wWalkCounter: int
    wWalkBikeSurfState: int  # 0 walking, 1 on the bicycle, 2 surfing
    wRepelRemainingSteps: int  # steps a REPEL's effect lasts still (0: none)
    wMapPalOffset: int  # not 0 in a dark cave (Rock Tunnel) until FLASH lights it
    wSafariSteps: int  # 2 bytes, high first: the Safari Zone's steps left (502 on entry)
    wNumSafariBalls: int
    wTileInFrontOfPlayer: int  # the tile the player faces, as the last collision check or A press read it
    wFieldMoves: int  # the chosen member's field moves, as its submenu lists them (FieldMoveNames ids)
    wActionResultOrTookBattleTurn: int  # 1 once a field move did its work (pret UsedCut, item_effects)
    wCurMapHeader: int
    wRivalStarter: int  # the species id the rival chose in Oak's lab
    wCurMapTileset: int
    wTilesetBank: int  # the tileset header copied from Tilesets: bank, three pointers, counters, grass
    wPlayerName: int
    wRivalName: int
    wPlayerID: int
    wPlayerMoney: int
    wObtainedBadges: int
    wOptions: int
    wPokedexOwned: int
    wPokedexSeen: int
    wNumBagItems: int
    wBagItems: int
    wNumBoxItems: int  # the items stored in the player's PC (up to 50)
    wBoxItems: int
    wPlayTimeHours: int
    wPlayTimeMinutes: int
    wPlayTimeSeconds: int
    wStatusFlags1: int
    wStatusFlags5: int
    wMiscFlags: int  # bit 0: a trainer has seen the player (pret BIT_SEEN_BY_TRAINER)
    # The map's people and the story (the world model reads these)
    wSpriteStateData1: int  # 16 structs of 16 bytes: picture, movement status, ..., facing at 9
    wSpriteStateData2: int  # 16 structs of 16 bytes: map Y + 4 at 4, map X + 4 at 5, movement byte at 6
    wEventFlags: int
    wToggleableObjectFlags: int  # set: the toggleable object (global index) is hidden
    wToggleableObjectList: int  # the current map's (sprite index, global index) pairs, -1 ended
    wTownVisitedFlag: int
    wLastMap: int
    wLastBlackoutMap: int  # where a whiteout or a nurse's heal sends the player back to
    wElite4Flags: int
    # HRAM
    hJoyHeld: int
    hJoyInput: int  # the buttons the VBlank handler read last
    hJoyLast: int  # the buttons Joypad saw at its last call
    hJoy5: int  # what JoypadLowSensitivity reported at its last call
    wMenuJoypadPollCount: int  # 1: HandleMenuInput_ polls once and returns
    # Non-zero: the party menu animates its mini sprites, a frame's wait in every poll of HandleMenuInput_
    # (the same byte is wTownMapSpriteBlinkingEnabled, the same for WaitForTextScrollButtonPress)
    wPartyMenuAnimMonEnabled: int
    hWY: int
    hLoadedROMBank: int
    # Home-bank routine that every text box and menu calls each frame while it waits for a button
    JoypadLowSensitivity: int
    # Where JoypadLowSensitivity returns to in the two loops that call it many times a frame, with no
    # frame wait between (engine.emulator.polls): just after `call JoypadLowSensitivity` in each.
    WaitForTextScrollButtonPress_polled: int
    HandleMenuInput_polled: int
    # Where those loops begin: WaitForTextScrollButtonPress itself, and HandleMenuInput_.loop2, which
    # DelayFrames (its `ret`, after `call Delay3` in .loop1) returns to.
    WaitForTextScrollButtonPress: int
    HandleMenuInput_loop2: int
    DelayFrames_ret: int
    # Home-bank routine only the overworld loop calls each frame: the player can walk or open the menu
    JoypadOverworld: int
    # Home-bank routine only the intro film and the title screen call while they wait for A or START
    CheckForUserInterruption: int
    # ROM tables (as offsets into the cartridge image) that check a save state belongs to the cartridge
    MapHeaderPointers: int
    MapHeaderBanks: int
    Tilesets: int

    party: PartyStructOffsets = PartyStructOffsets()
    battle: BattleStructOffsets = BattleStructOffsets()
    party_size: int = 6
    sprites: int = 16  # sprite state structs; the player is struct 0
    sprite_struct: int = 16
    event_flag_bytes: int = 320  # wEventFlags: 2560 bits (pret ram/wram.asm)
    toggle_flag_bytes: int = 32  # wToggleableObjectFlags: flag_array $100
    toggle_list_bytes: int = 33  # wToggleableObjectList: 16 pairs and the -1 sentinel
    town_flag_bytes: int = 2  # wTownVisitedFlag: flag_array NUM_CITY_MAPS (11)
    nickname_length: int = 11
    pokedex_bytes: int = 19


RED_BLUE = RamMap(
    wPartyCount=0xD163,
    wPartySpecies=0xD164,
    wPartyMon1=0xD16B,
    wPartyMonOT=0xD273,
    wPartyMonNicks=0xD2B5,
    wIsInBattle=0xD057,
    wCurOpponent=0xD059,
    wBattleType=0xD05A,
    wTrainerClass=0xD031,
    wGymLeaderNo=0xD05C,
    wTrainerNo=0xD05D,
    wPlayerMonNumber=0xCC2F,
    wWhichPokemon=0xCF92,
    wBattleMon=0xD014,
    wBattleMonNick=0xD009,
    wEnemyMon=0xCFE5,
    wEnemyMonNick=0xCFDA,
    wEnemyMonPartyPos=0xCFE8,
    wEnemyPartyCount=0xD89C,
    wEnemyPartySpecies=0xD89D,
    wEnemyMons=0xD8A4,
    wPlayerBattleStatus1=0xD062,
    wEnemyBattleStatus1=0xD067,
    wPlayerMonStatMods=0xCD1A,
    wEnemyMonStatMods=0xCD2E,
    wPlayerConfusedCounter=0xD06B,
    wPlayerToxicCounter=0xD06C,
    wPlayerNumAttacksLeft=0xD06A,
    wPlayerBideAccumulatedDamage=0xD074,
    wEnemyConfusedCounter=0xD070,
    wEnemyToxicCounter=0xD071,
    wEnemyNumAttacksLeft=0xD06F,
    wEnemyBideAccumulatedDamage=0xCD05,
    wEnemyMonUnmodifiedAttack=0xCD26,
    wEnemyMoveNum=0xCFCC,
    wPlayerDisabledMove=0xD06D,
    wBattleResult=0xCF0B,
    wCapturedMonSpecies=0xD11C,
    wTileMap=0xC3A0,
    wTopMenuItemY=0xCC24,
    wTopMenuItemX=0xCC25,
    wCurrentMenuItem=0xCC26,
    wMaxMenuItem=0xCC28,
    wMenuWatchedKeys=0xCC29,
    wLastMenuItem=0xCC2A,
    wListMenuID=0xCF94,
    wBoxCount=0xDA80,
    wBoxMons=0xDA96,
    wBoxMonNicks=0xDE06,
    wCurrentBoxNum=0xD5A0,
    wListScrollOffset=0xCC36,
    wPartyMenuTypeOrMessageID=0xD07D,
    wTextBoxID=0xD125,
    wStringBuffer=0xCF4B,
    wNamingScreenType=0xD07D,
    wAlphabetCase=0xCEEB,
    wOptionsTextSpeedCursorX=0xCD3D,
    wOptionsBattleAnimCursorX=0xCD3E,
    wOptionsBattleStyleCursorX=0xCD3F,
    wJoyIgnore=0xCD6B,
    wEvolutionOccurred=0xD121,
    wMoveNum=0xD0E0,
    wEvoOldSpecies=0xCEE9,
    wEvoNewSpecies=0xCEEA,
    wItemList=0xCF7B,
    wCurItem=0xCF91,
    wItemQuantity=0xCF96,
    hJoy7=0xFFB7,
    hItemPrice=0xFF8B,
    hMoney=0xFF9F,
    wCurMap=0xD35E,
    wYCoord=0xD361,
    wXCoord=0xD362,
    wSpritePlayerStateData1FacingDirection=0xC109,
    wWalkCounter=0xCFC5,
    wWalkBikeSurfState=0xD700,
    wRepelRemainingSteps=0xD0DB,
    wMapPalOffset=0xD35D,
    wSafariSteps=0xD70D,
    wNumSafariBalls=0xDA47,
    wTileInFrontOfPlayer=0xCFC6,
    wFieldMoves=0xCD3D,
    wActionResultOrTookBattleTurn=0xCD6A,
    wCurMapHeader=0xD367,
    wRivalStarter=0xD715,
    wCurMapTileset=0xD367,
    wTilesetBank=0xD52B,
    wPlayerName=0xD158,
    wRivalName=0xD34A,
    wPlayerID=0xD359,
    wPlayerMoney=0xD347,
    wObtainedBadges=0xD356,
    wOptions=0xD355,
    wPokedexOwned=0xD2F7,
    wPokedexSeen=0xD30A,
    wNumBagItems=0xD31D,
    wBagItems=0xD31E,
    wNumBoxItems=0xD53A,
    wBoxItems=0xD53B,
    wPlayTimeHours=0xDA41,
    wPlayTimeMinutes=0xDA43,
    wPlayTimeSeconds=0xDA44,
    wStatusFlags1=0xD728,
    wMiscFlags=0xCD60,
    wStatusFlags5=0xD730,
    wSpriteStateData1=0xC100,
    wSpriteStateData2=0xC200,
    wEventFlags=0xD747,
    wToggleableObjectFlags=0xD5A6,
    wToggleableObjectList=0xD5CE,
    wTownVisitedFlag=0xD70B,
    wLastMap=0xD365,
    wLastBlackoutMap=0xD719,
    wElite4Flags=0xD734,
    hJoyHeld=0xFFB4,
    hJoyInput=0xFFF8,
    hJoyLast=0xFFB1,
    hJoy5=0xFFB5,
    wMenuJoypadPollCount=0xCC34,
    wPartyMenuAnimMonEnabled=0xD09B,
    hWY=0xFFB0,
    hLoadedROMBank=0xFFB8,
    JoypadLowSensitivity=0x3831,
    WaitForTextScrollButtonPress_polled=0x387C + 10,  # .skipAnimation: hlcoord, call, pop hl, call
    HandleMenuInput_polled=0x3AE8 + 4,  # .getJoypadState: pop hl, call
    WaitForTextScrollButtonPress=0x3865,
    HandleMenuInput_loop2=0x3AD9,
    DelayFrames_ret=0x3739 + 6,  # DelayFrames: call DelayFrame, dec c, jr nz, ret
    JoypadOverworld=0x0F4D,
    CheckForUserInterruption=0x12F8,
    MapHeaderPointers=0x01AE,
    MapHeaderBanks=0x3 * 0x4000 + (0x423D - 0x4000),
    Tilesets=0x3 * 0x4000 + (0x47BE - 0x4000),
)

RAM_MAPS: dict[Game, RamMap] = {Game.RED: RED_BLUE, Game.BLUE: RED_BLUE}
