"""The game's one thread: every verb runs there, one at a time, and a call waits for it a bounded time.

PyBoy is not thread-safe, so verbs are never run side by side: a single-thread pool runs them in the
order the calls came. A call that runs out of time is answered with an error at once; a verb still
waiting in the queue is then dropped, one already running cannot be stopped from outside and finishes
in the background (its own deadline ends it), the next call waiting for it. PyBoy's tick lets go of the
GIL, so the server keeps answering meanwhile.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Callable
from typing import TypeVar

from engine.mcp_server.errors import CallTimeout

Result = TypeVar("Result")
CLOSE_SECONDS = 30.0  # for the last verb to finish before the game is closed under it


class GameWorker:
    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="game")

    async def run(self, verb: Callable[[], Result], what: str) -> Result:
        """`verb()` on the game's thread; CallTimeout after `seconds` (queue time included)."""
        future = asyncio.wrap_future(self._pool.submit(verb))
        try:
            return await asyncio.wait_for(future, self.seconds)
        except TimeoutError:
            raise CallTimeout(
                f"{what} did not finish within {self.seconds:g} s; the game finishes it in the background "
                "and the next call waits for it"
            ) from None

    def close(self, last: Callable[[], None]) -> None:
        """Run `last` (closing the game) after every verb queued, then stop the thread."""
        done = self._pool.submit(last)
        concurrent.futures.wait([done], timeout=CLOSE_SECONDS)
        self._pool.shutdown(wait=False, cancel_futures=True)
