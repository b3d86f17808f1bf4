"""The search's memories forget their oldest quarter when full, never all at once."""

from __future__ import annotations

from engine.combat.memo import keep


def test_a_full_memory_forgets_its_oldest_quarter_and_keeps_the_rest() -> None:
    memo: dict[int, str] = {}
    for key in range(8):
        assert keep(memo, key, str(key), cap=8) == str(key)
    assert list(memo) == list(range(8))
    keep(memo, 8, "8", cap=8)
    assert list(memo) == [2, 3, 4, 5, 6, 7, 8]  # the two oldest went, the newest is in


def test_a_memory_never_holds_more_than_its_cap() -> None:
    memo: dict[int, int] = {}
    sizes = []
    for key in range(1000):
        keep(memo, key, key, cap=64)
        sizes.append(len(memo))
    assert max(sizes) == 64 and min(sizes[64:]) >= 48  # between three quarters of the cap and the cap
    assert list(memo)[-1] == 999 and all(memo[key] == key for key in memo)


def test_a_cap_of_one_still_keeps_the_newest() -> None:
    memo: dict[str, int] = {}
    keep(memo, "a", 1, cap=1)
    keep(memo, "b", 2, cap=1)
    assert memo == {"b": 2}
