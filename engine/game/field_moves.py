"""Field moves: the moves a party member uses outside battle, and the badge each needs.

pret engine/menus/start_sub_menus.asm StartMenu_Pokemon checks wObtainedBadges before each one (CUT needs
the Cascade Badge, FLY Thunder, SURF Soul, STRENGTH Rainbow, FLASH Boulder); DIG, TELEPORT and SOFTBOILED
need none. A fainted member may still use one: the menu does not look at HP.
"""

from __future__ import annotations

from engine.game.models import GameState, PartyMon

FIELD_MOVE_BADGES: dict[str, str | None] = {
    "CUT": "CASCADE", "FLY": "THUNDER", "SURF": "SOUL", "STRENGTH": "RAINBOW", "FLASH": "BOULDER",
    "DIG": None, "TELEPORT": None, "SOFTBOILED": None,
}  # fmt: skip
# What the party submenu's list (wFieldMoves) holds for each: its FieldMoveNames index, not the move id
# (pret data/moves/field_moves.asm FieldMoveDisplayData; 3 is an unused move's).
FIELD_MOVE_LIST_INDEX = {"CUT": 1, "FLY": 2, "SURF": 4, "STRENGTH": 5, "FLASH": 6, "DIG": 7, "TELEPORT": 8,
                         "SOFTBOILED": 9}  # fmt: skip


def knows(member: PartyMon, move: str) -> bool:
    return any(slot.name == move for slot in member.moves)


def member_with(state: GameState, move: str) -> int | None:
    """The party slot (0-based) of the first member that knows `move`, if any does."""
    return next((index for index, member in enumerate(state.party) if knows(member, move)), None)


def usable_field_moves(state: GameState) -> frozenset[str]:
    """The field moves the player can use now: a member knows it and its badge is held."""
    badges = set(state.progress.badge_names)
    return frozenset(
        move for move, badge in FIELD_MOVE_BADGES.items()
        if (badge is None or badge in badges) and member_with(state, move) is not None
    )  # fmt: skip
