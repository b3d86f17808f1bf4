"""The Vermilion Gym's trash cans: two hidden switches open the doors to Lt. Surge.

How the game hides them (pret engine/events/hidden_events/vermilion_gym_trash.asm GymTrashScript, with
scripts/VermilionCity.asm): the first switch is in a random even-numbered can (`and $e`), drawn again each
time Vermilion City is loaded and after every wrong guess at the second. Once the first is found the second
is drawn at once from the first can's GymTrashCans row (a mask, then up to four neighbours): a random byte
ANDed with the mask, minus one, picks the entry; where the AND gives 0 the read falls off the row onto a
zero byte, so can 0 holds the second switch then (pret's note on the bug). Looking in a wrong can for the
second switch resets both. The cans are hidden events at (x, y) (pret data/events/hidden_events.asm
VermilionGymHiddenObjects), numbered column by column.

The search: look in the even cans not tried since the last reset; with the first found, in the cans that
can hold the second, likeliest first. Nothing is read from RAM but the two event flags the game shows.
"""

from __future__ import annotations

from fractions import Fraction

from engine.frozen import Frozen
from engine.game.models import GameState

FIRST_FOUND, BOTH_FOUND = "EVENT_1ST_LOCK_OPENED", "EVENT_2ND_LOCK_OPENED"
# (x, y) of can 0 .. 14 (pret data/events/hidden_events.asm, hidden_event x, y, GymTrashScript, index).
CANS: tuple[tuple[int, int], ...] = tuple((x, y) for x in (1, 3, 5, 7, 9) for y in (7, 9, 11))
# GymTrashCans: (mask, neighbours) for each can (pret engine/events/hidden_events/vermilion_gym_trash.asm).
ROWS: tuple[tuple[int, tuple[int, ...]], ...] = (
    (2, (1, 3)), (3, (0, 2, 4)), (2, (1, 5)), (3, (0, 4, 6)), (4, (1, 3, 5, 7)), (3, (2, 4, 8)),
    (3, (3, 7, 9)), (4, (4, 6, 8, 10)), (3, (5, 7, 11)), (3, (6, 10, 12)), (4, (7, 9, 11, 13)),
    (3, (8, 10, 14)), (2, (9, 13)), (3, (10, 12, 14)), (2, (11, 13)),
)  # fmt: skip
FIRST_CANDIDATES = tuple(range(0, len(CANS), 2))
RANDOM_NIBBLES = 16  # the script swaps a random byte: its high nibble is ANDed with the mask


def second_candidates(first: int) -> tuple[tuple[int, Fraction], ...]:
    """Where the second switch can be once the first is in `first`, with each can's chance, likeliest
    first (the AND of a uniform nibble with the mask, minus one, indexes the row; -1 lands on can 0)."""
    mask, row = ROWS[first]
    chances: dict[int, Fraction] = {}
    for nibble in range(RANDOM_NIBBLES):
        pick = (nibble & mask) - 1
        can = 0 if pick < 0 else (row[pick] if pick < len(row) else 0)
        chances[can] = chances.get(can, Fraction(0)) + Fraction(1, RANDOM_NIBBLES)
    return tuple(sorted(chances.items(), key=lambda item: (-item[1], item[0])))


class TrashCanSearch(Frozen):
    """What has been tried since the switches were last reset, and where the first one is."""

    tried: tuple[int, ...] = ()  # cans looked in since the last reset (first switch) or since it was found
    first: int | None = None
    looks: int = 0  # cans looked in, in all
    resets: int = 0  # wrong guesses at the second switch

    def next_can(self, state: GameState) -> int | None:
        """The can to look in next; None once both switches are found."""
        events = state.story.events
        if BOTH_FOUND in events:
            return None
        if FIRST_FOUND in events and self.first is not None:
            options = [can for can, _ in second_candidates(self.first) if can not in self.tried]
        else:
            options = [can for can in FIRST_CANDIDATES if can not in self.tried]
        return options[0] if options else FIRST_CANDIDATES[0]

    def looked(self, can: int, before: GameState, after: GameState) -> TrashCanSearch:
        """What looking in `can` showed, from the flags before and after."""
        had_first, has_first = FIRST_FOUND in before.story.events, FIRST_FOUND in after.story.events
        looks = self.looks + 1
        if BOTH_FOUND in after.story.events:
            return self.model_copy(update={"looks": looks})
        if not had_first and has_first:  # found the first: the second is drawn now
            return TrashCanSearch(tried=(), first=can, looks=looks, resets=self.resets)
        if had_first and not has_first:  # a wrong guess at the second: both are drawn again
            return TrashCanSearch(tried=(), first=None, looks=looks, resets=self.resets + 1)
        if had_first and self.first is None:  # found before this search began: which can is unknown
            return self.model_copy(update={"looks": looks})
        return self.model_copy(update={"tried": (*self.tried, can), "looks": looks})

    def left_the_gym(self) -> TrashCanSearch:
        """Vermilion City draws the first switch again whenever it is loaded: until the first is found,
        what was tried before says nothing any more."""
        return self if self.first is not None else self.model_copy(update={"tried": ()})

    @staticmethod
    def square(can: int) -> tuple[int, int]:
        return CANS[can]
