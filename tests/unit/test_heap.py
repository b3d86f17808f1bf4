"""Start-up's objects are frozen out of the garbage collector's passes, in a local run and in an actor."""

from __future__ import annotations

import gc
import weakref

from engine.actors.heap import start_up_frozen
from engine.actors.shells import RoleShell


class Role:
    def __init__(self) -> None:
        self.tables = [[n] for n in range(1000)]  # tracked objects that live as long as the role


class Node:
    def __init__(self) -> None:
        self.me = self


def test_an_actor_freezes_what_its_role_built() -> None:
    try:
        RoleShell(Role)
        assert gc.get_freeze_count() >= 1000
    finally:
        gc.unfreeze()


def test_start_up_garbage_is_freed_not_frozen_and_the_block_unfreezes() -> None:
    cycle = Node()
    gone = weakref.ref(cycle)
    del cycle  # garbage only the collector can free
    with start_up_frozen():
        assert gone() is None and gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0
