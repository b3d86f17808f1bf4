"""Battles that take more than the strongest hit: setup moves, status, switching, healing, trapping and
Bide. With the catalogue in battle_scenarios.py they make the battle-strength benchmark
(benchmarks/strength.py). Outcomes vary with the game's random numbers, so no outcome is expected here;
each setup leaves the game at the start of the battle, like the catalogue's.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.emulator.session import EmulatorSession
from tests.support.scenarios import set_bag, set_party, start_battle

Party = list[tuple[str, int] | tuple[str, int, list[str]]]


@dataclass(frozen=True)
class StrengthScenario:
    name: str
    description: str
    party: Party
    opponent: tuple[str, int]  # a wild species and level, or a trainer class and party number
    bag: tuple[tuple[str, int], ...] = ()

    def setup(self, session: EmulatorSession) -> None:
        set_party(session, self.party)
        if self.bag:
            set_bag(session, list(self.bag))
        start_battle(session, *self.opponent)


STRENGTH_SCENARIOS: tuple[StrengthScenario, ...] = (
    StrengthScenario(
        "resisted_lead_leer",
        "NIDORAN♂ L12 whose moves GEODUDE resists; LEER makes them land",
        [("NIDORAN_M", 12, ["LEER", "TACKLE", "HORN_ATTACK"])],
        ("GEODUDE", 10),
    ),
    StrengthScenario(
        "resisted_lead_tail_whip",
        "RATTATA L12 against GEODUDE L9: TAIL WHIP before TACKLE",
        [("RATTATA", 12, ["TACKLE", "TAIL_WHIP", "QUICK_ATTACK"])],
        ("GEODUDE", 9),
    ),
    StrengthScenario(
        "charmander_vs_brock",
        "CHARMANDER L12 (SCRATCH, GROWL, EMBER) against BROCK, two POTIONs",
        [("CHARMANDER", 12, ["SCRATCH", "GROWL", "EMBER"])],
        ("BROCK", 1),
        (("POTION", 2),),
    ),
    StrengthScenario(
        "underlevelled_charmander_vs_brock",
        "CHARMANDER L11 against BROCK, three POTIONs",
        [("CHARMANDER", 11, ["SCRATCH", "GROWL", "EMBER"])],
        ("BROCK", 1),
        (("POTION", 3),),
    ),
    StrengthScenario(
        "pikachu_and_pidgey_vs_brock",
        "PIKACHU L13 leads against BROCK with PIDGEY L12 and SPEAROW L12 behind",
        [("PIKACHU", 13), ("PIDGEY", 12), ("SPEAROW", 12)],
        ("BROCK", 1),
    ),
    StrengthScenario(
        "sleep_powder_vs_primeape",
        "BUTTERFREE L12 with SLEEP POWDER against a wild PRIMEAPE L14",
        [("BUTTERFREE", 12, ["CONFUSION", "SLEEP_POWDER", "TACKLE"])],
        ("PRIMEAPE", 14),
    ),
    StrengthScenario(
        "thunder_wave_vs_raticate",
        "PIKACHU L14 with THUNDER WAVE against a wild RATICATE L16",
        [("PIKACHU", 14, ["THUNDERSHOCK", "GROWL", "THUNDER_WAVE", "QUICK_ATTACK"])],
        ("RATICATE", 16),
    ),
    StrengthScenario(
        "sing_jigglypuff",
        "CHARMANDER L12 against a wild JIGGLYPUFF L12 that sings",
        [("CHARMANDER", 12, ["SCRATCH", "GROWL", "EMBER"])],
        ("JIGGLYPUFF", 12),
    ),
    StrengthScenario(
        "wrap_ekans",
        "SQUIRTLE L10 against a wild EKANS L12 that wraps",
        [("SQUIRTLE", 10, ["TACKLE", "TAIL_WHIP", "BUBBLE"])],
        ("EKANS", 12),
    ),
    StrengthScenario(
        "bide_onix",
        "BULBASAUR L10 (TACKLE, GROWL, LEECH SEED) against a wild ONIX L12: Bide hands damage back",
        [("BULBASAUR", 10, ["TACKLE", "GROWL", "LEECH_SEED"])],
        ("ONIX", 12),
    ),
    StrengthScenario(
        "rival_route_22",
        "SQUIRTLE L9 and PIDGEY L7 against the rival's PIDGEY L9 and SQUIRTLE L8 (Route 22), one POTION",
        [("SQUIRTLE", 9, ["TACKLE", "TAIL_WHIP", "BUBBLE"]), ("PIDGEY", 7)],
        ("RIVAL1", 4),
        (("POTION", 1),),
    ),
    StrengthScenario(
        "poison_weedle",
        "SQUIRTLE L7 against a wild WEEDLE L9 (POISON STING), one ANTIDOTE and one POTION",
        [("SQUIRTLE", 7, ["TACKLE", "TAIL_WHIP"])],
        ("WEEDLE", 9),
        (("ANTIDOTE", 1), ("POTION", 1)),
    ),
)
