"""The search's memories across decisions: dicts capped by entries, forgetting their oldest quarter when
full.

Forgetting a whole memory at once made its size a saw tooth from empty to the cap, each refill taking new
room from the allocator while the freed room went to other objects. A memory that forgets a quarter at a
time stays between three quarters of its cap and the cap, and keeps what it met last. (An hour of play
still grows about 30 MB past the caps: docs/figures.md.)
"""

from __future__ import annotations

from itertools import islice
from typing import TypeVar

K = TypeVar("K")
V = TypeVar("V")

FORGOTTEN_SHARE = 4  # a full memory forgets 1 / FORGOTTEN_SHARE of its entries, the oldest


def keep(memo: dict[K, V], key: K, value: V, cap: int) -> V:
    """`memo[key] = value`, the oldest entries forgotten first when the memo holds `cap`."""
    if len(memo) >= cap:
        forget_oldest(memo)
    memo[key] = value
    return value


def forget_oldest(memo: dict[K, V]) -> None:
    # A dict keeps insertion order, so its first keys are its oldest.
    for key in list(islice(memo, max(1, len(memo) // FORGOTTEN_SHARE))):
        del memo[key]
