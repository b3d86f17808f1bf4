"""What Bill's PC turns down before it is even switched on (engine/menus/pc.py PcUser.refusal): the last
member, a full box, a full party, a slot that is not there (pret engine/pokemon/bills_pc.asm)."""

from __future__ import annotations

from engine.game.ram import RED_BLUE
from engine.menus.pc import PcUser


class Counts:
    """The two bytes the PC's rules read, as a session would give them."""

    ram_map = RED_BLUE

    def __init__(self, party: int, box: int) -> None:
        self.values = {RED_BLUE.wPartyCount: party, RED_BLUE.wBoxCount: box}

    def read_u8(self, address: int) -> int:
        return self.values[address]


def refusal(party: int, box: int, **order: int) -> str | None:
    return PcUser(Counts(party, box), driver=None).refusal(**order)  # type: ignore[arg-type]


def test_a_member_is_deposited_while_another_stays_and_the_box_has_room() -> None:
    assert refusal(2, 0, deposit=1) is None and refusal(6, 19, deposit=5) is None
    assert refusal(1, 0, deposit=0) == "the last member of the party cannot be deposited"
    assert refusal(3, 20, deposit=0) == "the box is full (20 of 20): nothing more can be deposited"
    assert refusal(3, 0, deposit=3) == "the party has no member 4 (it has 3)"


def test_a_boxed_pokemon_is_withdrawn_into_a_party_with_room() -> None:
    assert refusal(5, 1, withdraw=0) is None
    assert refusal(6, 4, withdraw=0) == "the party is full: deposit a member first"
    assert refusal(2, 4, withdraw=4) == "the box has no Pokémon 5 (it holds 4)"
