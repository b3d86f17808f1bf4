"""What a long run asks of Python's garbage collector.

Once the roles are built, the process holds about a quarter of a million objects that live as long as the
run: the world model, the game's tables, the lesson store's client, the compiled message models. Every full
collection walked all of them (nine in a run to Misty on Blue, ~80 ms each: 4% of its time). Frozen once
start-up is over (`gc.freeze`), they are left out of every later pass; what the run makes afterwards is
collected as before.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


def freeze_start_up() -> None:
    """Freeze what is alive now. Start-up's garbage is collected first, so it is freed, not kept for good
    (a frozen object is only freed when nothing refers to it)."""
    gc.collect()
    gc.freeze()


@contextmanager
def start_up_frozen() -> Iterator[None]:
    """Frozen for the block; a process that goes on afterwards (a test session, a notebook) collects those
    objects again."""
    freeze_start_up()
    try:
        yield
    finally:
        gc.unfreeze()
