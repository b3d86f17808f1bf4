"""A battle catalogue that looks like the whole game, for the tournament benchmark (benchmarks/tournament.py).

Every scenario is built at run time on the user's cartridge: our party (species, level, moves), the bag,
the badges held (wObtainedBadges: the badges raise our stats in battle), then a wild or trainer battle
started through PyBoy's game wrapper. No scenario repeats a battle of the ROM tests' own catalogues (the
same party against the same opponent), so the search cannot have been tuned to them.

Six categories: `wild` (early routes, caves, late routes and special places), `trainer` (a sample across
the trainer classes, early and late numbers), `gym` (the eight leaders), `giovanni` (the Rocket Hideout
and Silph Co.), `elite_four` (Lorelei, Bruno, Agatha, Lance and the Champion) and `rival` (every battle,
the rival's team matching our starter). Each boss is met by several teams: a counter leading, a lead weak
to the boss, a team five levels under the usual, a weak member leading (an HM user or a low catch), a
team of sleep, paralysis and poison, a team with its main attacks nearly out of PP, and for the late
bosses a full party of six a few levels under the boss's ace.

Sources: trainer parties and levels are pret/pokered data/trainers/parties.asm (engine/game/data/
trainer_parties.json); wild species and levels are the encounter tables a walkthrough lists (pret
data/wild/maps/*.asm); when each TM or HM can be had is where a walkthrough finds it (pret
data/maps/objects/*.asm and the gift scripts); what the bag holds follows what the marts of each stage
sell (pret data/items/marts.asm); our teams are the catches and levels a walkthrough of Red and Blue
(Bulbapedia's, for one) suggests at each point. Moves are the level-up moves of the species or of what
it evolved from, and the TMs and HMs it can learn that the stage has to offer (tests/unit/
test_catalogue.py checks every one).

Adding a team is one line in a table: a row of WILD, TRAINERS or BOSS_TEAMS, or a stage team.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from engine.emulator.session import EmulatorSession
from engine.game.assessment import likely_moves
from engine.game.tables import game_data
from tests.support.scenarios import set_bag, set_move_pp, set_party, start_battle

# Raised whenever the set-up writes something else into the game for the same scenario (2: each member's
# experience matches its level, tests/support/scenarios.py make_mon; 3: a gym leader's member has its special
# move, scenarios.py GYM_LEADERS).
SETUP_VERSION = 3

# (species, level) knows the moves it would have from levelling up; (species, level, "MOVE MOVE …")
# names them, the first being its main attack.
Member = tuple[str, int] | tuple[str, int, str]
Party = tuple[Member, ...]
Bag = tuple[tuple[str, int], ...]

CATEGORIES = ("wild", "trainer", "gym", "giovanni", "elite_four", "rival")
STARTERS = ("CHARMANDER", "SQUIRTLE", "BULBASAUR")

# The stages of a playthrough, in order, with the badges held while there.
STAGES: dict[str, int] = {
    "pallet": 0,  # Oak's lab
    "early": 0,  # Routes 1, 2 and 22, Viridian Forest
    "pewter": 0,  # Brock
    "mt_moon": 1,  # Route 3, Mt. Moon
    "cerulean": 1,  # Nugget Bridge, Routes 24 and 25, Misty
    "vermilion": 2,  # S.S. Anne, Routes 6 and 11, Lt. Surge
    "lavender": 3,  # Routes 9 and 10, Rock Tunnel, Pokémon Tower 2F
    "celadon": 3,  # Route 8, Rocket Hideout, Erika
    "tower": 4,  # Pokémon Tower, Routes 12-18
    "fuchsia": 4,  # Koga
    "saffron": 5,  # Fighting Dojo, Silph Co., Sabrina
    "cinnabar": 6,  # Seafoam Islands, Pokémon Mansion, Route 21, Blaine
    "viridian": 7,  # Giovanni's gym, the rival on Route 22
    "league": 8,  # Route 23, Victory Road, the Elite Four
}

# The TMs and HMs a player can have taught by the end of each stage, added up as the game goes on.
# fmt: off
_NEW_TMS: dict[str, tuple[str, ...]] = {
    "mt_moon": ("TM_BIDE",),  # Brock
    "cerulean": ("TM_WATER_GUN", "TM_MEGA_PUNCH", "TM_WHIRLWIND", "TM_THUNDER_WAVE", "TM_SEISMIC_TOSS"),
    "vermilion": ("TM_BUBBLEBEAM", "TM_DIG", "TM_BODY_SLAM", "TM_REST", "HM_CUT", "HM_FLASH"),
    "lavender": ("TM_THUNDERBOLT", "TM_TELEPORT"),
    "celadon": (
        # The department store, the rooftop drinks, the Rocket Hideout, the Game Corner, Route 16.
        "TM_DOUBLE_TEAM", "TM_REFLECT", "TM_RAZOR_WIND", "TM_HORN_DRILL", "TM_EGG_BOMB", "TM_MEGA_KICK",
        "TM_TAKE_DOWN", "TM_SUBMISSION", "TM_ICE_BEAM", "TM_ROCK_SLIDE", "TM_TRI_ATTACK", "TM_DOUBLE_EDGE",
        "TM_DRAGON_RAGE", "TM_HYPER_BEAM", "TM_SUBSTITUTE", "HM_FLY",
    ),
    "tower": ("TM_MEGA_DRAIN", "TM_PAY_DAY", "TM_RAGE", "TM_SWIFT"),
    "fuchsia": ("HM_SURF", "HM_STRENGTH", "TM_SKULL_BASH"),
    "saffron": ("TM_TOXIC", "TM_PSYCHIC_M", "TM_EARTHQUAKE", "TM_SWORDS_DANCE", "TM_SELFDESTRUCT"),
    "cinnabar": ("TM_PSYWAVE", "TM_THUNDER", "TM_BLIZZARD", "TM_SOLARBEAM", "TM_METRONOME"),
    "viridian": ("TM_FIRE_BLAST",),
    "league": ("TM_FISSURE", "TM_SKY_ATTACK", "TM_EXPLOSION"),
}
# fmt: on


def _tms_by_stage() -> dict[str, frozenset[str]]:
    held: set[str] = set()
    by_stage: dict[str, frozenset[str]] = {}
    for stage in STAGES:
        held |= set(_NEW_TMS.get(stage, ()))
        by_stage[stage] = frozenset(held)
    return by_stage


TMS_BY_STAGE = _tms_by_stage()

# What a player carries into battle at each stage: what that stage's marts sell (X items from Celadon's
# department store on).
_X_ITEMS: Bag = (("X_ATTACK", 2), ("X_SPEED", 2), ("X_SPECIAL", 1))
BAGS: dict[str, Bag] = {
    "pallet": (),
    "early": (("POTION", 2), ("ANTIDOTE", 1)),
    "pewter": (("POTION", 4), ("ANTIDOTE", 2), ("PARLYZ_HEAL", 1)),
    "mt_moon": (("POTION", 5), ("ANTIDOTE", 2), ("PARLYZ_HEAL", 1), ("AWAKENING", 1)),
    "cerulean": (("POTION", 6), ("ANTIDOTE", 2), ("PARLYZ_HEAL", 2), ("AWAKENING", 1)),
    "vermilion": (("SUPER_POTION", 3), ("POTION", 5), ("ANTIDOTE", 2), ("PARLYZ_HEAL", 2), ("AWAKENING", 1)),
    "lavender": (("SUPER_POTION", 4), ("POTION", 4), ("REVIVE", 1), ("ANTIDOTE", 2), ("PARLYZ_HEAL", 2)),
    "celadon": (("SUPER_POTION", 6), ("POTION", 3), ("REVIVE", 2), ("ANTIDOTE", 2), ("PARLYZ_HEAL", 2),
                ("AWAKENING", 2), ("X_ATTACK", 2), ("X_SPEED", 1)),
    "tower": (("SUPER_POTION", 6), ("REVIVE", 3), ("ANTIDOTE", 2), ("PARLYZ_HEAL", 2), ("AWAKENING", 2),
              ("X_ATTACK", 2), ("X_SPEED", 1)),
    "fuchsia": (("SUPER_POTION", 8), ("REVIVE", 3), ("FULL_HEAL", 3), *_X_ITEMS),
    "saffron": (("HYPER_POTION", 4), ("SUPER_POTION", 5), ("REVIVE", 3), ("FULL_HEAL", 3), *_X_ITEMS),
    "cinnabar": (("HYPER_POTION", 6), ("SUPER_POTION", 3), ("REVIVE", 4), ("FULL_HEAL", 4), *_X_ITEMS),
    "viridian": (("HYPER_POTION", 8), ("REVIVE", 4), ("FULL_HEAL", 4), *_X_ITEMS, ("X_ACCURACY", 1)),
    "league": (("FULL_RESTORE", 4), ("MAX_POTION", 3), ("HYPER_POTION", 6), ("REVIVE", 6), ("FULL_HEAL", 5),
               ("X_ATTACK", 3), ("X_SPEED", 3), ("X_SPECIAL", 3)),
}  # fmt: skip

# Moves that come up again and again in the teams below.
_RAICHU = "THUNDERBOLT THUNDER_WAVE QUICK_ATTACK BODY_SLAM"
_JOLTEON = "THUNDERBOLT THUNDER_WAVE QUICK_ATTACK DOUBLE_KICK"
_NIDOKING = "EARTHQUAKE THUNDERBOLT ICE_BEAM THRASH"
_NIDOQUEEN = "EARTHQUAKE BODY_SLAM ICE_BEAM THUNDERBOLT"
_VAPOREON = "SURF ICE_BEAM WATER_GUN QUICK_ATTACK"
_LAPRAS = "ICE_BEAM SURF BODY_SLAM CONFUSE_RAY"

# A player's team at each stage, one line per starter. The Charmander player catches PIDGEY, CATERPIE and
# NIDORAN♂ early; the Squirtle player PIKACHU, SPEAROW and ABRA; the Bulbasaur player PIDGEY, NIDORAN♀
# and DIGLETT; later they add what a walkthrough points at (SNORLAX, the gift EEVEE and LAPRAS, ZAPDOS).
# fmt: off
STAGE_TEAMS: dict[str, dict[str, Party]] = {
    "pallet": {
        "CHARMANDER": (("CHARMANDER", 5),),
        "SQUIRTLE": (("SQUIRTLE", 5),),
        "BULBASAUR": (("BULBASAUR", 5),),
    },
    "early": {
        "CHARMANDER": (("CHARMANDER", 9), ("PIDGEY", 5)),
        "SQUIRTLE": (("SQUIRTLE", 9), ("RATTATA", 6)),
        "BULBASAUR": (("BULBASAUR", 9), ("SPEAROW", 6)),
    },
    "pewter": {
        "CHARMANDER": (("CHARMANDER", 13), ("BUTTERFREE", 12), ("PIDGEY", 10)),
        "SQUIRTLE": (("SQUIRTLE", 13), ("PIKACHU", 10), ("PIDGEY", 9)),
        "BULBASAUR": (("BULBASAUR", 13), ("PIDGEY", 11), ("NIDORAN_F", 9)),
    },
    "mt_moon": {
        "CHARMANDER": (("CHARMANDER", 15), ("BUTTERFREE", 14), ("PIDGEY", 13), ("NIDORAN_M", 12)),
        "SQUIRTLE": (("WARTORTLE", 16), ("PIKACHU", 13), ("SPEAROW", 12)),
        "BULBASAUR": (("IVYSAUR", 16), ("PIDGEY", 14), ("JIGGLYPUFF", 12)),
    },
    "cerulean": {
        "CHARMANDER": (("CHARMELEON", 20), ("BUTTERFREE", 18), ("PIDGEOTTO", 19), ("NIDORINO", 17)),
        "SQUIRTLE": (("WARTORTLE", 20), ("PIKACHU", 18), ("KADABRA", 17), ("SPEAROW", 16)),
        "BULBASAUR": (("IVYSAUR", 20), ("PIDGEOTTO", 18), ("NIDORINA", 17), ("GEODUDE", 15)),
    },
    "vermilion": {
        "CHARMANDER": (("CHARMELEON", 24), ("PIDGEOTTO", 22), ("BUTTERFREE", 21), ("NIDORINO", 21)),
        "SQUIRTLE": (("WARTORTLE", 24), ("PIKACHU", 21), ("KADABRA", 21), ("FEAROW", 21)),
        "BULBASAUR": (("IVYSAUR", 24), ("PIDGEOTTO", 21), ("NIDORINA", 20), ("DIGLETT", 20)),
    },
    "lavender": {
        "CHARMANDER": (("CHARMELEON", 27), ("PIDGEOTTO", 25), ("BUTTERFREE", 24), ("NIDORINO", 24),
                       ("GEODUDE", 20)),
        "SQUIRTLE": (("WARTORTLE", 27), ("PIKACHU", 24, "THUNDERBOLT THUNDER_WAVE QUICK_ATTACK GROWL"),
                     ("KADABRA", 23), ("FEAROW", 24), ("DIGLETT", 21)),
        "BULBASAUR": (("IVYSAUR", 27), ("PIDGEOTTO", 25), ("NIDORINA", 23), ("DIGLETT", 22), ("MANKEY", 20)),
    },
    "celadon": {
        "CHARMANDER": (("CHARMELEON", 31), ("PIDGEOTTO", 29), ("BUTTERFREE", 27), ("NIDOKING", 28),
                       ("GEODUDE", 25)),
        "SQUIRTLE": (("WARTORTLE", 31), ("RAICHU", 28, _RAICHU), ("KADABRA", 28), ("FEAROW", 27),
                     ("DUGTRIO", 27)),
        "BULBASAUR": (("IVYSAUR", 30), ("PIDGEOTTO", 29), ("NIDOQUEEN", 28), ("DUGTRIO", 28),
                      ("PRIMEAPE", 28)),
    },
    "tower": {
        "CHARMANDER": (("CHARMELEON", 34), ("PIDGEOTTO", 32), ("BUTTERFREE", 30), ("NIDOKING", 32),
                       ("SNORLAX", 30)),
        "SQUIRTLE": (("WARTORTLE", 34), ("RAICHU", 31, _RAICHU), ("KADABRA", 31), ("FEAROW", 30),
                     ("DUGTRIO", 30), ("SNORLAX", 30)),
        "BULBASAUR": (("VENUSAUR", 33), ("PIDGEOTTO", 31), ("NIDOQUEEN", 31), ("DUGTRIO", 31),
                      ("PRIMEAPE", 30), ("VAPOREON", 30)),
    },
    "fuchsia": {
        "CHARMANDER": (("CHARIZARD", 40), ("PIDGEOT", 38), ("NIDOKING", 37), ("BUTTERFREE", 35),
                       ("SNORLAX", 36), ("KRABBY", 25, "CUT SURF STRENGTH BUBBLE")),
        "SQUIRTLE": (("BLASTOISE", 40, "SURF BITE WATER_GUN WITHDRAW"), ("RAICHU", 37, _RAICHU),
                     ("KADABRA", 37), ("FEAROW", 35), ("DUGTRIO", 36), ("SNORLAX", 36)),
        "BULBASAUR": (("VENUSAUR", 39), ("PIDGEOT", 37), ("NIDOQUEEN", 36), ("DUGTRIO", 36), ("PRIMEAPE", 35),
                      ("VAPOREON", 36, _VAPOREON)),
    },
    "saffron": {
        "CHARMANDER": (("CHARIZARD", 43), ("PIDGEOT", 40),
                       ("NIDOKING", 40, "EARTHQUAKE THUNDERBOLT THRASH HORN_ATTACK"),
                       ("LAPRAS", 30, "SURF BODY_SLAM SING MIST"), ("SNORLAX", 38), ("BUTTERFREE", 37)),
        "SQUIRTLE": (("BLASTOISE", 43, "SURF BITE SKULL_BASH WITHDRAW"), ("RAICHU", 40, _RAICHU),
                     ("KADABRA", 40), ("FEAROW", 38), ("DUGTRIO", 38), ("SNORLAX", 38)),
        "BULBASAUR": (("VENUSAUR", 42), ("PIDGEOT", 40), ("NIDOQUEEN", 39, _NIDOQUEEN), ("DUGTRIO", 39),
                      ("PRIMEAPE", 38), ("VAPOREON", 39, _VAPOREON)),
    },
    "cinnabar": {
        "CHARMANDER": (("CHARIZARD", 46), ("PIDGEOT", 43), ("NIDOKING", 43, _NIDOKING),
                       ("LAPRAS", 40, _LAPRAS), ("SNORLAX", 41), ("BUTTERFREE", 39)),
        "SQUIRTLE": (("BLASTOISE", 46, "SURF ICE_BEAM BITE SKULL_BASH"), ("RAICHU", 43, _RAICHU),
                     ("KADABRA", 43), ("FEAROW", 41), ("DUGTRIO", 41), ("SNORLAX", 42)),
        "BULBASAUR": (("VENUSAUR", 45), ("PIDGEOT", 43), ("NIDOQUEEN", 42, _NIDOQUEEN), ("DUGTRIO", 42),
                      ("PRIMEAPE", 40), ("VAPOREON", 42, _VAPOREON)),
    },
    "viridian": {
        "CHARMANDER": (("CHARIZARD", 49), ("PIDGEOT", 46), ("NIDOKING", 46, _NIDOKING),
                       ("LAPRAS", 44, _LAPRAS), ("SNORLAX", 45), ("ZAPDOS", 50)),
        "SQUIRTLE": (("BLASTOISE", 49, "SURF ICE_BEAM BITE SKULL_BASH"), ("RAICHU", 46, _RAICHU),
                     ("KADABRA", 46), ("FEAROW", 44), ("DUGTRIO", 45), ("SNORLAX", 45)),
        "BULBASAUR": (("VENUSAUR", 48), ("PIDGEOT", 46), ("NIDOQUEEN", 45, _NIDOQUEEN), ("DUGTRIO", 45),
                      ("PRIMEAPE", 44), ("VAPOREON", 45, _VAPOREON)),
    },
    "league": {
        "CHARMANDER": (("CHARIZARD", 55), ("PIDGEOT", 52), ("NIDOKING", 52, _NIDOKING),
                       ("LAPRAS", 51, _LAPRAS), ("SNORLAX", 52), ("ZAPDOS", 52)),
        "SQUIRTLE": (("BLASTOISE", 55, "SURF ICE_BEAM BITE SKULL_BASH"), ("RAICHU", 52, _RAICHU),
                     ("KADABRA", 52), ("FEAROW", 50), ("DUGTRIO", 51), ("SNORLAX", 52)),
        "BULBASAUR": (("VENUSAUR", 55), ("PIDGEOT", 52), ("NIDOQUEEN", 51, _NIDOQUEEN), ("DUGTRIO", 51),
                      ("JOLTEON", 50, _JOLTEON), ("LAPRAS", 50, _LAPRAS)),
    },
}
# fmt: on


@dataclass(frozen=True)
class CatalogueScenario:
    name: str
    category: str
    stage: str
    description: str
    party: Party
    opponent: tuple[str, int]  # a trainer class and party number, or a wild species and level
    bag: Bag
    badges: int
    pp: tuple[tuple[int, int, int], ...] = ()  # (member, move slot, PP left) set after the party

    @property
    def is_trainer(self) -> bool:
        return self.opponent[0] in {c.name for c in game_data().trainer_classes.values()}

    def members(self) -> list[tuple[str, int, list[str]]]:
        """The party with every member's moves spelt out."""
        return [(m[0], m[1], moves_of(m)) for m in self.party]

    def digest(self) -> str:
        """Changes whenever anything that decides the battle changes: results kept for one version of a
        scenario are not reused for another."""
        text = repr((SETUP_VERSION, self.members(), self.opponent, self.bag, self.badges, self.pp))
        return hashlib.sha256(text.encode()).hexdigest()[:12]

    def setup(self, session: EmulatorSession) -> None:
        """From the overworld to the start of the battle."""
        set_party(session, list(self.members()))
        set_bag(session, list(self.bag))
        session.write_u8(session.ram_map.wObtainedBadges, (1 << self.badges) - 1)
        for slot, move, pp in self.pp:
            set_move_pp(session, slot, move, pp)
        start_battle(session, *self.opponent)


def moves_of(member: Member) -> list[str]:
    if len(member) == 3:
        return member[2].split()
    return [move.name for move in likely_moves(member[0], member[1])]


def _party_text(party: Party) -> str:
    return ", ".join(f"{m[0]} L{m[1]}" for m in party)


def _trainer_text(trainer_class: str, number: int) -> str:
    party = next(
        p.party for p in game_data().trainer_parties if (p.trainer_class, p.number) == (trainer_class, number)
    )
    return f"{trainer_class} #{number} ({', '.join(f'{m.species} L{m.level}' for m in party)})"


# -- wild battles ------------------------------------------------------------------------------------------
# place, stage, our starter, species, level
WILD: tuple[tuple[str, str, str, str, int], ...] = (
    ("route_1", "early", "CHARMANDER", "PIDGEY", 5),
    ("route_1", "early", "SQUIRTLE", "RATTATA", 4),
    ("route_2", "early", "BULBASAUR", "WEEDLE", 5),
    ("route_2", "early", "CHARMANDER", "CATERPIE", 5),
    ("route_22", "early", "SQUIRTLE", "NIDORAN_M", 4),
    ("route_22", "early", "BULBASAUR", "SPEAROW", 5),
    ("viridian_forest", "early", "CHARMANDER", "PIKACHU", 5),
    ("viridian_forest", "early", "SQUIRTLE", "KAKUNA", 6),
    ("viridian_forest", "early", "BULBASAUR", "METAPOD", 6),
    ("mt_moon", "mt_moon", "CHARMANDER", "ZUBAT", 11),
    ("mt_moon", "mt_moon", "SQUIRTLE", "PARAS", 12),
    ("mt_moon", "mt_moon", "BULBASAUR", "CLEFAIRY", 12),
    ("rock_tunnel", "lavender", "CHARMANDER", "GEODUDE", 17),
    ("rock_tunnel", "lavender", "SQUIRTLE", "MACHOP", 17),
    ("rock_tunnel", "lavender", "BULBASAUR", "ONIX", 15),
    ("route_12", "tower", "CHARMANDER", "GLOOM", 30),
    ("route_13", "tower", "SQUIRTLE", "DITTO", 25),
    ("route_14", "tower", "BULBASAUR", "PIDGEOTTO", 30),
    ("route_17", "tower", "CHARMANDER", "RATICATE", 29),
    ("route_18", "tower", "SQUIRTLE", "FEAROW", 29),
    ("power_plant", "cinnabar", "BULBASAUR", "MAGNETON", 35),
    ("power_plant", "cinnabar", "CHARMANDER", "ELECTABUZZ", 36),
    ("power_plant", "cinnabar", "SQUIRTLE", "VOLTORB", 23),
    ("seafoam_islands", "cinnabar", "BULBASAUR", "SEEL", 33),
    ("seafoam_islands", "cinnabar", "CHARMANDER", "SLOWBRO", 39),
    ("seafoam_islands", "cinnabar", "SQUIRTLE", "DEWGONG", 37),
    ("route_21", "cinnabar", "BULBASAUR", "TANGELA", 32),
    ("route_23", "league", "CHARMANDER", "ARBOK", 41),
    ("route_23", "league", "SQUIRTLE", "DITTO", 43),
    ("victory_road", "league", "BULBASAUR", "MACHOKE", 45),
    ("victory_road", "league", "CHARMANDER", "MAROWAK", 43),
    ("victory_road", "league", "SQUIRTLE", "GRAVELER", 43),
)


def _wild(place: str, stage: str, starter: str, species: str, level: int) -> CatalogueScenario:
    party = STAGE_TEAMS[stage][starter]
    return CatalogueScenario(
        name=f"wild_{place}_{species.lower()}_{level}",
        category="wild",
        stage=stage,
        description=f"a wild {species} L{level} ({place.replace('_', ' ')}) against {_party_text(party)}",
        party=party,
        opponent=(species, level),
        bag=BAGS[stage],
        badges=STAGES[stage],
    )


# -- trainers ----------------------------------------------------------------------------------------------
# class, party number, where, stage, our starter
TRAINERS: tuple[tuple[str, int, str, str, str], ...] = (
    ("BUG_CATCHER", 2, "Viridian Forest", "early", "CHARMANDER"),
    ("JR_TRAINER_M", 1, "Pewter Gym", "pewter", "CHARMANDER"),
    ("YOUNGSTER", 1, "Route 3", "mt_moon", "SQUIRTLE"),
    ("LASS", 3, "Route 3", "mt_moon", "BULBASAUR"),
    ("HIKER", 1, "Mt. Moon", "mt_moon", "CHARMANDER"),
    ("SUPER_NERD", 2, "Mt. Moon", "mt_moon", "SQUIRTLE"),
    ("ROCKET", 4, "Mt. Moon", "mt_moon", "BULBASAUR"),
    ("JR_TRAINER_F", 1, "Cerulean Gym", "cerulean", "BULBASAUR"),
    ("SWIMMER", 1, "Cerulean Gym", "cerulean", "SQUIRTLE"),
    ("YOUNGSTER", 8, "S.S. Anne", "vermilion", "SQUIRTLE"),
    ("GENTLEMAN", 1, "S.S. Anne", "vermilion", "BULBASAUR"),
    ("ENGINEER", 3, "Route 11", "vermilion", "SQUIRTLE"),
    ("GAMBLER", 4, "Route 11", "vermilion", "BULBASAUR"),
    ("SAILOR", 8, "Vermilion Gym", "vermilion", "BULBASAUR"),
    ("POKEMANIAC", 1, "Route 10", "lavender", "CHARMANDER"),
    ("HIKER", 9, "Rock Tunnel", "lavender", "SQUIRTLE"),
    ("JR_TRAINER_F", 9, "Rock Tunnel", "lavender", "BULBASAUR"),
    ("BUG_CATCHER", 13, "Route 9", "lavender", "CHARMANDER"),
    ("LASS", 15, "Route 8", "celadon", "SQUIRTLE"),
    ("ROCKET", 16, "Rocket Hideout", "celadon", "BULBASAUR"),
    ("BEAUTY", 3, "Celadon Gym", "celadon", "CHARMANDER"),
    ("COOLTRAINER_F", 1, "Celadon Gym", "celadon", "SQUIRTLE"),
    ("CHANNELER", 5, "Pokémon Tower", "tower", "BULBASAUR"),
    ("ROCKET", 19, "Pokémon Tower", "tower", "CHARMANDER"),
    ("BIKER", 1, "Route 13", "tower", "SQUIRTLE"),
    ("JR_TRAINER_M", 9, "Route 12", "tower", "CHARMANDER"),
    ("BEAUTY", 10, "Route 15", "tower", "CHARMANDER"),
    ("CUE_BALL", 8, "Route 17", "tower", "BULBASAUR"),
    ("BIRD_KEEPER", 9, "Route 18", "tower", "SQUIRTLE"),
    ("JUGGLER", 3, "Fuchsia Gym", "fuchsia", "CHARMANDER"),
    ("BLACKBELT", 1, "Fighting Dojo", "saffron", "SQUIRTLE"),
    ("SCIENTIST", 2, "Silph Co.", "saffron", "CHARMANDER"),
    ("ROCKET", 41, "Silph Co.", "saffron", "BULBASAUR"),
    ("PSYCHIC_TR", 1, "Saffron Gym", "saffron", "SQUIRTLE"),
    ("CHANNELER", 24, "Saffron Gym", "saffron", "BULBASAUR"),
    ("SUPER_NERD", 9, "Cinnabar Gym", "cinnabar", "SQUIRTLE"),
    ("BURGLAR", 4, "Cinnabar Gym", "cinnabar", "BULBASAUR"),
    ("SWIMMER", 13, "Route 21", "cinnabar", "BULBASAUR"),
    ("FISHER", 9, "Route 21", "cinnabar", "CHARMANDER"),
    ("TAMER", 3, "Viridian Gym", "viridian", "SQUIRTLE"),
    ("BLACKBELT", 7, "Viridian Gym", "viridian", "CHARMANDER"),
    ("COOLTRAINER_M", 1, "Viridian Gym", "viridian", "BULBASAUR"),
    ("COOLTRAINER_M", 5, "Victory Road", "league", "SQUIRTLE"),
    ("COOLTRAINER_F", 3, "Victory Road", "league", "CHARMANDER"),
    ("JUGGLER", 2, "Victory Road", "league", "BULBASAUR"),
    ("POKEMANIAC", 6, "Victory Road", "league", "CHARMANDER"),
)


def _trainer(trainer_class: str, number: int, where: str, stage: str, starter: str) -> CatalogueScenario:
    party = STAGE_TEAMS[stage][starter]
    return CatalogueScenario(
        name=f"trainer_{trainer_class.lower()}_{number}",
        category="trainer",
        stage=stage,
        description=f"{_trainer_text(trainer_class, number)} in {where} against {_party_text(party)}",
        party=party,
        opponent=(trainer_class, number),
        bag=BAGS[stage],
        badges=STAGES[stage],
    )


# -- bosses ------------------------------------------------------------------------------------------------
# boss -> (category, stage, party number); the Champion's number follows our starter (see _RIVAL_OFFSET).
BOSSES: dict[str, tuple[str, str, int]] = {
    "BROCK": ("gym", "pewter", 1),
    "MISTY": ("gym", "cerulean", 1),
    "LT_SURGE": ("gym", "vermilion", 1),
    "ERIKA": ("gym", "celadon", 1),
    "KOGA": ("gym", "fuchsia", 1),
    "SABRINA": ("gym", "saffron", 1),
    "BLAINE": ("gym", "cinnabar", 1),
    "GIOVANNI_3": ("gym", "viridian", 3),
    "GIOVANNI_1": ("giovanni", "celadon", 1),
    "GIOVANNI_2": ("giovanni", "saffron", 2),
    "LORELEI": ("elite_four", "league", 1),
    "BRUNO": ("elite_four", "league", 1),
    "AGATHA": ("elite_four", "league", 1),
    "LANCE": ("elite_four", "league", 1),
    "CHAMPION": ("elite_four", "league", 1),
}

VARIANTS: dict[str, str] = {
    "right_type": "a counter leads",
    "wrong_type": "a lead weak to the boss",
    "under": "about five levels under the usual",
    "weak_lead": "a weak member leads (an HM user or a low catch), the strong ones behind",
    "status": "sleep, paralysis and poison moves",
    "low_pp": "every member's main attack (its first move) down to 2 PP",
    "full_six": "a full party of six, three to five levels under the boss's ace",
}
LOW_PP = 2

# boss, variant, our party (the Champion's party follows the starter line in ours: see starter_of)
# fmt: off
BOSS_TEAMS: tuple[tuple[str, str, Party], ...] = (
    ("BROCK", "right_type", (("BULBASAUR", 13), ("PIDGEY", 10))),
    ("BROCK", "wrong_type", (("CHARMANDER", 13), ("PIDGEY", 11), ("RATTATA", 9))),
    ("BROCK", "under", (("SQUIRTLE", 9),)),
    ("BROCK", "weak_lead", (("CATERPIE", 6), ("SQUIRTLE", 14), ("PIDGEY", 10))),
    ("BROCK", "status", (("BUTTERFREE", 15, "CONFUSION POISONPOWDER TACKLE HARDEN"), ("BULBASAUR", 13))),
    ("BROCK", "low_pp", (("SQUIRTLE", 13, "BUBBLE TACKLE TAIL_WHIP"),
                         ("PIKACHU", 10, "THUNDERSHOCK GROWL THUNDER_WAVE"))),
    ("MISTY", "right_type", (("PIKACHU", 21), ("CHARMELEON", 21), ("PIDGEOTTO", 19))),
    ("MISTY", "wrong_type", (("CHARMELEON", 21), ("GEODUDE", 17), ("PIDGEOTTO", 19))),
    ("MISTY", "under", (("IVYSAUR", 16), ("PIDGEY", 14))),
    ("MISTY", "weak_lead", (("RATTATA", 9), ("IVYSAUR", 21), ("PIKACHU", 19))),
    ("MISTY", "status", (("ODDISH", 20, "SLEEP_POWDER STUN_SPORE POISONPOWDER ABSORB"),
                         ("BUTTERFREE", 20, "SLEEP_POWDER STUN_SPORE POISONPOWDER CONFUSION"),
                         ("PIKACHU", 19))),
    ("MISTY", "low_pp", (("PIKACHU", 21, "THUNDERSHOCK THUNDER_WAVE QUICK_ATTACK GROWL"),
                         ("IVYSAUR", 21, "VINE_WHIP LEECH_SEED TACKLE GROWL"))),
    ("LT_SURGE", "right_type", (("DUGTRIO", 28), ("WARTORTLE", 26), ("PIDGEOTTO", 24))),
    ("LT_SURGE", "wrong_type", (("PIDGEOTTO", 24), ("WARTORTLE", 26), ("BUTTERFREE", 22))),
    ("LT_SURGE", "under", (("CHARMELEON", 20), ("PIDGEOTTO", 18), ("NIDORINO", 18))),
    ("LT_SURGE", "weak_lead", (("PARAS", 15, "CUT SCRATCH STUN_SPORE"), ("IVYSAUR", 26), ("DIGLETT", 24))),
    ("LT_SURGE", "status", (("BUTTERFREE", 24, "SLEEP_POWDER STUN_SPORE POISONPOWDER CONFUSION"),
                            ("GLOOM", 24, "SLEEP_POWDER STUN_SPORE POISONPOWDER ABSORB"), ("NIDORINO", 23))),
    ("LT_SURGE", "low_pp", (("DIGLETT", 25, "DIG SCRATCH GROWL SAND_ATTACK"),
                            ("IVYSAUR", 25, "VINE_WHIP LEECH_SEED POISONPOWDER TACKLE"),
                            ("PIDGEOTTO", 24, "QUICK_ATTACK GUST SAND_ATTACK WHIRLWIND"))),
    ("ERIKA", "right_type", (("CHARMELEON", 30), ("PIDGEOTTO", 29), ("NIDOKING", 30), ("BUTTERFREE", 27))),
    ("ERIKA", "wrong_type", (("WARTORTLE", 29), ("DUGTRIO", 28), ("GEODUDE", 25), ("PIDGEOTTO", 27))),
    ("ERIKA", "under", (("IVYSAUR", 24), ("PIDGEOTTO", 22), ("PIKACHU", 22))),
    ("ERIKA", "weak_lead", (("BELLSPROUT", 16, "CUT VINE_WHIP GROWTH WRAP"), ("CHARMELEON", 31),
                            ("PIDGEOTTO", 29), ("KADABRA", 27))),
    ("ERIKA", "status", (("BUTTERFREE", 30, "SLEEP_POWDER STUN_SPORE CONFUSION SUPERSONIC"),
                         ("ARBOK", 28, "GLARE BITE POISON_STING WRAP"), ("RAICHU", 28, _RAICHU))),
    ("ERIKA", "low_pp", (("CHARMELEON", 30, "EMBER RAGE LEER GROWL"),
                         ("PIDGEOTTO", 29, "QUICK_ATTACK GUST SAND_ATTACK WHIRLWIND"), ("NIDOKING", 29))),
    ("KOGA", "right_type", (("KADABRA", 40, "PSYCHIC_M PSYBEAM RECOVER DISABLE"), ("DUGTRIO", 38),
                            ("BLASTOISE", 40), ("PIDGEOT", 38))),
    ("KOGA", "wrong_type", (("PARASECT", 36), ("BUTTERFREE", 38), ("BLASTOISE", 40), ("PIDGEOT", 38))),
    ("KOGA", "under", (("WARTORTLE", 35), ("RAICHU", 33, _RAICHU), ("PIDGEOTTO", 33), ("KADABRA", 32))),
    ("KOGA", "weak_lead", (("KRABBY", 25, "CUT SURF STRENGTH BUBBLE"), ("CHARIZARD", 41), ("PIDGEOT", 39),
                           ("NIDOKING", 38), ("KADABRA", 38))),
    ("KOGA", "status", (("BUTTERFREE", 38, "SLEEP_POWDER STUN_SPORE PSYBEAM SUPERSONIC"),
                        ("RAICHU", 38, _RAICHU), ("HYPNO", 38, "HYPNOSIS PSYCHIC_M CONFUSION HEADBUTT"),
                        ("VENUSAUR", 39))),
    ("KOGA", "low_pp", (("KADABRA", 40, "PSYBEAM PSYCHIC_M RECOVER DISABLE"),
                        ("DUGTRIO", 38, "DIG SLASH SAND_ATTACK GROWL"),
                        ("CHARIZARD", 40, "SLASH EMBER RAGE LEER"))),
    ("KOGA", "full_six", (("CHARIZARD", 40), ("PIDGEOT", 39), ("KADABRA", 39), ("DUGTRIO", 38),
                          ("SNORLAX", 38), ("NIDOKING", 38))),
    ("SABRINA", "right_type", (("SNORLAX", 41, "BODY_SLAM HEADBUTT REST AMNESIA"), ("BLASTOISE", 42),
                               ("PIDGEOT", 40), ("RAICHU", 40, _RAICHU))),
    ("SABRINA", "wrong_type", (("NIDOKING", 42), ("PRIMEAPE", 38), ("BLASTOISE", 42), ("PIDGEOT", 40))),
    ("SABRINA", "under", (("CHARIZARD", 37), ("PIDGEOTTO", 34), ("KADABRA", 34), ("DUGTRIO", 33))),
    ("SABRINA", "weak_lead", (("SLOWPOKE", 24, "SURF STRENGTH FLASH CONFUSION"), ("CHARIZARD", 43),
                              ("SNORLAX", 40), ("PIDGEOT", 40), ("RAICHU", 40, _RAICHU))),
    ("SABRINA", "status", (("JOLTEON", 42, _JOLTEON),
                           ("VENUSAUR", 42, "SLEEP_POWDER RAZOR_LEAF POISONPOWDER LEECH_SEED"),
                           ("HYPNO", 40, "HYPNOSIS PSYCHIC_M HEADBUTT POISON_GAS"))),
    ("SABRINA", "low_pp", (("SNORLAX", 42, "BODY_SLAM HEADBUTT REST AMNESIA"),
                           ("BLASTOISE", 42, "SURF BITE WITHDRAW SKULL_BASH"),
                           ("PIDGEOT", 40, "WING_ATTACK QUICK_ATTACK FLY SAND_ATTACK"))),
    ("SABRINA", "full_six", (("BLASTOISE", 40), ("RAICHU", 39, _RAICHU), ("KADABRA", 39), ("SNORLAX", 39),
                             ("FEAROW", 38), ("DUGTRIO", 38))),
    ("BLAINE", "right_type", (("BLASTOISE", 46, "SURF BITE SKULL_BASH ICE_BEAM"), ("DUGTRIO", 42),
                              ("SNORLAX", 42), ("PIDGEOT", 42))),
    ("BLAINE", "wrong_type", (("VENUSAUR", 45), ("PARASECT", 38), ("BUTTERFREE", 40), ("PIDGEOT", 43))),
    ("BLAINE", "under", (("CHARIZARD", 41), ("PIDGEOT", 38), ("NIDOKING", 38), ("SNORLAX", 37))),
    ("BLAINE", "weak_lead", (("TENTACOOL", 25, "CUT SURF WRAP ACID"), ("BLASTOISE", 46), ("RHYDON", 43),
                             ("PIDGEOT", 43), ("KADABRA", 43))),
    ("BLAINE", "status", (("HYPNO", 44, "HYPNOSIS PSYCHIC_M HEADBUTT POISON_GAS"), ("JOLTEON", 44, _JOLTEON),
                          ("VENUSAUR", 45, "SLEEP_POWDER RAZOR_LEAF LEECH_SEED TOXIC"),
                          ("LAPRAS", 42, "SING CONFUSE_RAY SURF BODY_SLAM"))),
    ("BLAINE", "low_pp", (("BLASTOISE", 46, "SURF BITE SKULL_BASH WITHDRAW"),
                          ("DUGTRIO", 43, "EARTHQUAKE SLASH DIG SAND_ATTACK"), ("RHYDON", 43))),
    ("BLAINE", "full_six", (("BLASTOISE", 44), ("DUGTRIO", 43), ("LAPRAS", 42, _LAPRAS), ("SNORLAX", 43),
                            ("PIDGEOT", 42), ("RAICHU", 42, _RAICHU))),
    ("GIOVANNI_3", "right_type", (("BLASTOISE", 50, "SURF ICE_BEAM BITE SKULL_BASH"),
                                  ("VAPOREON", 46, _VAPOREON), ("LAPRAS", 45, _LAPRAS), ("PIDGEOT", 46))),
    ("GIOVANNI_3", "wrong_type", (("RAICHU", 47, _RAICHU), ("CHARIZARD", 48), ("NIDOKING", 46, _NIDOKING),
                                  ("SNORLAX", 45))),
    ("GIOVANNI_3", "under", (("VENUSAUR", 43), ("PIDGEOT", 41), ("NIDOQUEEN", 40, _NIDOQUEEN),
                             ("DUGTRIO", 40))),
    ("GIOVANNI_3", "weak_lead", (("PSYDUCK", 30, "SURF STRENGTH SCRATCH TAIL_WHIP"), ("VENUSAUR", 48),
                                 ("LAPRAS", 46, _LAPRAS), ("PIDGEOT", 46), ("SNORLAX", 46))),
    ("GIOVANNI_3", "status", (("VENUSAUR", 47, "SLEEP_POWDER RAZOR_LEAF LEECH_SEED TOXIC"),
                              ("HYPNO", 45, "HYPNOSIS PSYCHIC_M HEADBUTT POISON_GAS"),
                              ("LAPRAS", 45, "SING CONFUSE_RAY ICE_BEAM SURF"), ("JOLTEON", 45, _JOLTEON))),
    ("GIOVANNI_3", "low_pp", (("BLASTOISE", 49, "SURF ICE_BEAM BITE WITHDRAW"), ("LAPRAS", 46, _LAPRAS),
                              ("VENUSAUR", 46, "RAZOR_LEAF SLEEP_POWDER LEECH_SEED GROWTH"))),
    ("GIOVANNI_3", "full_six", (("BLASTOISE", 47), ("LAPRAS", 46, _LAPRAS), ("RAICHU", 45, _RAICHU),
                                ("KADABRA", 45), ("SNORLAX", 46), ("FEAROW", 45))),
    ("GIOVANNI_1", "right_type", (("WARTORTLE", 28), ("IVYSAUR", 26), ("PIDGEOTTO", 26))),
    ("GIOVANNI_1", "wrong_type", (("PIKACHU", 26, "THUNDERBOLT THUNDER_WAVE QUICK_ATTACK GROWL"),
                                  ("CHARMELEON", 28), ("PIDGEOTTO", 26))),
    ("GIOVANNI_1", "under", (("IVYSAUR", 22), ("PIDGEOTTO", 20), ("NIDORINA", 20))),
    ("GIOVANNI_1", "weak_lead", (("PARAS", 18, "CUT SCRATCH STUN_SPORE"), ("WARTORTLE", 29), ("KADABRA", 27),
                                 ("FEAROW", 26))),
    ("GIOVANNI_1", "status", (("BUTTERFREE", 26, "SLEEP_POWDER STUN_SPORE CONFUSION SUPERSONIC"),
                              ("GLOOM", 26, "SLEEP_POWDER STUN_SPORE POISONPOWDER ABSORB"),
                              ("NIDORINO", 26))),
    ("GIOVANNI_1", "low_pp", (("WARTORTLE", 28, "BUBBLEBEAM WATER_GUN BITE TAIL_WHIP"),
                              ("IVYSAUR", 27, "VINE_WHIP LEECH_SEED POISONPOWDER TACKLE"))),
    ("GIOVANNI_2", "right_type", (("KADABRA", 38, "PSYCHIC_M PSYBEAM RECOVER DISABLE"), ("BLASTOISE", 39),
                                  ("PIDGEOT", 37))),
    ("GIOVANNI_2", "wrong_type", (("RAICHU", 38, _RAICHU), ("CHARIZARD", 39), ("NIDOKING", 37))),
    ("GIOVANNI_2", "under", (("CHARMELEON", 34), ("PIDGEOTTO", 32), ("NIDOKING", 32), ("BUTTERFREE", 31))),
    ("GIOVANNI_2", "weak_lead", (("KRABBY", 27, "CUT SURF STRENGTH VICEGRIP"), ("BLASTOISE", 40),
                                 ("KADABRA", 38), ("PIDGEOT", 37))),
    ("GIOVANNI_2", "status", (("HYPNO", 37, "HYPNOSIS PSYCHIC_M HEADBUTT POISON_GAS"),
                              ("BUTTERFREE", 36, "SLEEP_POWDER STUN_SPORE PSYBEAM SUPERSONIC"),
                              ("VENUSAUR", 38, "TOXIC LEECH_SEED POISONPOWDER RAZOR_LEAF"))),
    ("GIOVANNI_2", "low_pp", (("BLASTOISE", 39, "SURF BITE WATER_GUN WITHDRAW"),
                              ("KADABRA", 37, "PSYBEAM RECOVER DISABLE CONFUSION"), ("PIDGEOT", 37))),
    ("GIOVANNI_2", "full_six", (("VENUSAUR", 38), ("PIDGEOT", 37), ("NIDOQUEEN", 36, _NIDOQUEEN),
                                ("DUGTRIO", 36), ("PRIMEAPE", 36), ("VAPOREON", 37, _VAPOREON))),
    ("LORELEI", "right_type", (("ZAPDOS", 50, "THUNDERBOLT DRILL_PECK THUNDER THUNDER_WAVE"),
                               ("JOLTEON", 52, _JOLTEON), ("SNORLAX", 53), ("CHARIZARD", 55))),
    ("LORELEI", "wrong_type", (("DUGTRIO", 52), ("VENUSAUR", 55), ("PIDGEOT", 53),
                               ("NIDOKING", 53, _NIDOKING))),
    ("LORELEI", "under", (("BLASTOISE", 50), ("RAICHU", 47, _RAICHU), ("KADABRA", 47), ("DUGTRIO", 46))),
    ("LORELEI", "weak_lead", (("SLOWPOKE", 30, "SURF STRENGTH FLASH HEADBUTT"), ("RAICHU", 54, _RAICHU),
                              ("CHARIZARD", 55), ("SNORLAX", 53), ("NIDOKING", 53, _NIDOKING))),
    ("LORELEI", "status", (("JOLTEON", 53, _JOLTEON),
                           ("VENUSAUR", 54, "SLEEP_POWDER TOXIC RAZOR_LEAF LEECH_SEED"),
                           ("HYPNO", 52, "HYPNOSIS PSYCHIC_M HEADBUTT MEDITATE"),
                           ("PARASECT", 50, "SPORE STUN_SPORE SLASH LEECH_LIFE"))),
    ("LORELEI", "low_pp", (("RAICHU", 54, _RAICHU),
                           ("CHARIZARD", 55, "FLAMETHROWER SLASH EARTHQUAKE SWORDS_DANCE"),
                           ("SNORLAX", 53, "BODY_SLAM EARTHQUAKE REST AMNESIA"))),
    ("LORELEI", "full_six", (("CHARIZARD", 53), ("PIDGEOT", 51), ("NIDOKING", 52, _NIDOKING),
                             ("LAPRAS", 51, _LAPRAS), ("SNORLAX", 52), ("ZAPDOS", 51))),
    ("BRUNO", "right_type", (("BLASTOISE", 56, "SURF ICE_BEAM BITE SKULL_BASH"), ("KADABRA", 54),
                             ("PIDGEOT", 54), ("LAPRAS", 53, _LAPRAS))),
    ("BRUNO", "wrong_type", (("TAUROS", 52), ("RAICHU", 53, _RAICHU), ("NIDOQUEEN", 52, _NIDOQUEEN),
                             ("ARCANINE", 53))),
    ("BRUNO", "under", (("VENUSAUR", 50), ("PIDGEOT", 48), ("NIDOQUEEN", 47, _NIDOQUEEN), ("DUGTRIO", 47))),
    ("BRUNO", "weak_lead", (("FARFETCHD", 26, "CUT FLY FURY_ATTACK SAND_ATTACK"), ("BLASTOISE", 56),
                            ("KADABRA", 54), ("PIDGEOT", 55), ("LAPRAS", 54, _LAPRAS))),
    ("BRUNO", "status", (("PARASECT", 50, "SPORE STUN_SPORE SLASH LEECH_LIFE"),
                         ("HYPNO", 53, "HYPNOSIS PSYCHIC_M HEADBUTT MEDITATE"), ("JOLTEON", 53, _JOLTEON),
                         ("VENUSAUR", 55, "SLEEP_POWDER RAZOR_LEAF TOXIC LEECH_SEED"))),
    ("BRUNO", "low_pp", (("KADABRA", 55, "PSYCHIC_M RECOVER REFLECT PSYBEAM"),
                         ("BLASTOISE", 55, "SURF BITE ICE_BEAM WITHDRAW"),
                         ("PIDGEOT", 54, "WING_ATTACK FLY QUICK_ATTACK AGILITY"))),
    ("BRUNO", "full_six", (("VENUSAUR", 55), ("PIDGEOT", 53), ("KADABRA", 54), ("LAPRAS", 53, _LAPRAS),
                           ("DUGTRIO", 53), ("SNORLAX", 54))),
    ("AGATHA", "right_type", (("KADABRA", 56, "PSYCHIC_M RECOVER REFLECT PSYBEAM"), ("DUGTRIO", 54),
                              ("RAICHU", 54, _RAICHU), ("SNORLAX", 55))),
    ("AGATHA", "wrong_type", (("BUTTERFREE", 52), ("VENUSAUR", 56), ("PRIMEAPE", 52), ("PIDGEOT", 55))),
    ("AGATHA", "under", (("CHARIZARD", 52), ("PIDGEOT", 49), ("NIDOKING", 49, _NIDOKING),
                         ("LAPRAS", 48, _LAPRAS))),
    ("AGATHA", "weak_lead", (("KRABBY", 27, "CUT SURF STRENGTH VICEGRIP"), ("KADABRA", 57), ("CHARIZARD", 57),
                             ("SNORLAX", 56), ("DUGTRIO", 55))),
    ("AGATHA", "status", (("JOLTEON", 55, _JOLTEON),
                          ("VENUSAUR", 56, "SLEEP_POWDER RAZOR_LEAF TOXIC LEECH_SEED"),
                          ("HYPNO", 54, "HYPNOSIS PSYCHIC_M HEADBUTT MEDITATE"),
                          ("LAPRAS", 54, "SING CONFUSE_RAY ICE_BEAM SURF"))),
    ("AGATHA", "low_pp", (("DUGTRIO", 56, "EARTHQUAKE SLASH DIG ROCK_SLIDE"),
                          ("KADABRA", 57, "PSYCHIC_M RECOVER REFLECT PSYBEAM"),
                          ("SNORLAX", 56, "BODY_SLAM EARTHQUAKE REST HYPER_BEAM"))),
    ("AGATHA", "full_six", (("BLASTOISE", 57), ("RAICHU", 55, _RAICHU), ("KADABRA", 56), ("DUGTRIO", 55),
                            ("SNORLAX", 56), ("FEAROW", 55))),
    ("LANCE", "right_type", (("ZAPDOS", 57, "THUNDERBOLT DRILL_PECK THUNDER AGILITY"),
                             ("LAPRAS", 57, _LAPRAS), ("SNORLAX", 56), ("CHARIZARD", 58))),
    ("LANCE", "wrong_type", (("CHARIZARD", 58), ("ARCANINE", 55), ("DUGTRIO", 55), ("PIDGEOT", 56))),
    ("LANCE", "under", (("VENUSAUR", 53), ("PIDGEOT", 51), ("NIDOQUEEN", 50, _NIDOQUEEN), ("DUGTRIO", 50),
                        ("LAPRAS", 50, _LAPRAS))),
    ("LANCE", "weak_lead", (("SEEL", 33, "SURF STRENGTH HEADBUTT GROWL"), ("LAPRAS", 58, _LAPRAS),
                            ("RAICHU", 57, _RAICHU), ("SNORLAX", 57), ("CHARIZARD", 58))),
    ("LANCE", "status", (("JOLTEON", 56, _JOLTEON), ("HYPNO", 55, "HYPNOSIS PSYCHIC_M HEADBUTT MEDITATE"),
                         ("LAPRAS", 56, "SING CONFUSE_RAY ICE_BEAM SURF"),
                         ("VENUSAUR", 57, "SLEEP_POWDER TOXIC RAZOR_LEAF LEECH_SEED"))),
    ("LANCE", "low_pp", (("LAPRAS", 58, "ICE_BEAM BLIZZARD SURF BODY_SLAM"),
                         ("RAICHU", 57, "THUNDERBOLT THUNDER BODY_SLAM THUNDER_WAVE"),
                         ("SNORLAX", 57, "BODY_SLAM ICE_BEAM EARTHQUAKE REST"))),
    ("LANCE", "full_six", (("BLASTOISE", 59), ("LAPRAS", 58, _LAPRAS), ("ZAPDOS", 57), ("SNORLAX", 58),
                           ("PIDGEOT", 57), ("KADABRA", 57))),
    ("CHAMPION", "right_type", (("ZAPDOS", 60, "THUNDERBOLT DRILL_PECK THUNDER AGILITY"), ("CHARIZARD", 62),
                                ("LAPRAS", 59, _LAPRAS), ("SNORLAX", 60), ("NIDOKING", 59, _NIDOKING))),
    ("CHAMPION", "wrong_type", (("PRIMEAPE", 57), ("BLASTOISE", 62), ("RAICHU", 59, _RAICHU), ("KADABRA", 59),
                                ("SNORLAX", 59))),
    ("CHAMPION", "under", (("VENUSAUR", 57), ("PIDGEOT", 54), ("NIDOQUEEN", 53, _NIDOQUEEN), ("DUGTRIO", 53),
                           ("LAPRAS", 53, _LAPRAS))),
    ("CHAMPION", "weak_lead", (("PARAS", 22, "CUT SCRATCH STUN_SPORE LEECH_LIFE"), ("CHARIZARD", 63),
                               ("ZAPDOS", 60), ("LAPRAS", 60, _LAPRAS), ("SNORLAX", 60))),
    ("CHAMPION", "status", (("JOLTEON", 58, _JOLTEON), ("HYPNO", 57, "HYPNOSIS PSYCHIC_M HEADBUTT MEDITATE"),
                            ("LAPRAS", 58, "SING CONFUSE_RAY ICE_BEAM SURF"),
                            ("BLASTOISE", 62, "SURF ICE_BEAM BITE SKULL_BASH"))),
    ("CHAMPION", "low_pp", (("VENUSAUR", 62, "RAZOR_LEAF SLEEP_POWDER BODY_SLAM LEECH_SEED"),
                            ("ZAPDOS", 60, "THUNDERBOLT DRILL_PECK THUNDER THUNDER_WAVE"),
                            ("LAPRAS", 59, _LAPRAS))),
    ("CHAMPION", "full_six", (("CHARIZARD", 62), ("PIDGEOT", 60), ("NIDOKING", 60, _NIDOKING),
                              ("LAPRAS", 60, _LAPRAS), ("SNORLAX", 61), ("ZAPDOS", 60))),
)
# fmt: on

# The rival picks the starter strong against ours; his party number within each battle follows it
# (pret data/trainers/parties.asm: the first of each three answers CHARMANDER, then SQUIRTLE, BULBASAUR).
_RIVAL_OFFSET = {"CHARMANDER": 0, "SQUIRTLE": 1, "BULBASAUR": 2}
_STARTER_LINES = {
    "CHARMANDER": ("CHARMANDER", "CHARMELEON", "CHARIZARD"),
    "SQUIRTLE": ("SQUIRTLE", "WARTORTLE", "BLASTOISE"),
    "BULBASAUR": ("BULBASAUR", "IVYSAUR", "VENUSAUR"),
}


def starter_of(party: Party) -> str:
    """Our starter, from the first starter line found in the party (CHARMANDER when there is none)."""
    for member in party:
        for starter, line in _STARTER_LINES.items():
            if member[0] in line:
                return starter
    return "CHARMANDER"


def _boss(boss: str, variant: str, party: Party) -> CatalogueScenario:
    category, stage, number = BOSSES[boss]
    trainer_class = boss.split("_")[0] if boss.startswith("GIOVANNI") else boss
    if boss == "CHAMPION":
        trainer_class, number = "RIVAL3", 1 + _RIVAL_OFFSET[starter_of(party)]
    pp = tuple((slot, 0, LOW_PP) for slot in range(len(party))) if variant == "low_pp" else ()
    return CatalogueScenario(
        name=f"{category}_{boss.lower()}_{variant}",
        category=category,
        stage=stage,
        description=f"{_trainer_text(trainer_class, number)}, {VARIANTS[variant]}: {_party_text(party)}",
        party=party,
        opponent=(trainer_class, number),
        bag=BAGS[stage],
        badges=STAGES[stage],
        pp=pp,
    )


# -- the rival ---------------------------------------------------------------------------------------------
# where, rival class, first party number (ours a Charmander), stage
RIVAL_BATTLES: tuple[tuple[str, str, int, str], ...] = (
    ("lab", "RIVAL1", 1, "pallet"),
    ("route_22", "RIVAL1", 4, "early"),
    ("cerulean", "RIVAL1", 7, "cerulean"),
    ("ss_anne", "RIVAL2", 1, "vermilion"),
    ("pokemon_tower", "RIVAL2", 4, "lavender"),
    ("silph_co", "RIVAL2", 7, "saffron"),
    ("route_22_late", "RIVAL2", 10, "viridian"),
)


def _rival(where: str, rival_class: str, first: int, stage: str, starter: str) -> CatalogueScenario:
    party = STAGE_TEAMS[stage][starter]
    number = first + _RIVAL_OFFSET[starter]
    return CatalogueScenario(
        name=f"rival_{where}_{starter.lower()}",
        category="rival",
        stage=stage,
        description=f"{_trainer_text(rival_class, number)} ({where.replace('_', ' ')}) against "
        f"{_party_text(party)}",
        party=party,
        opponent=(rival_class, number),
        bag=BAGS[stage],
        badges=STAGES[stage],
    )


def _catalogue() -> tuple[CatalogueScenario, ...]:
    wild = [_wild(*row) for row in WILD]
    trainers = [_trainer(*row) for row in TRAINERS]
    bosses = [_boss(*row) for row in BOSS_TEAMS]
    rivals = [_rival(*battle, starter) for battle in RIVAL_BATTLES for starter in STARTERS]
    return (*wild, *trainers, *bosses, *rivals)


CATALOGUE: tuple[CatalogueScenario, ...] = _catalogue()


def by_name(name: str) -> CatalogueScenario:
    return next(s for s in CATALOGUE if s.name == name)
