"""What the live page shows, as the conductor publishes it, and the board it is published on.

The board keeps only the newest view and screen, numbered, so a page or `/api/state` reader always gets
the latest and a server waits for the next without polling the run (`LiveBoard.wait_newer`).
"""

from __future__ import annotations

import threading
import time

from engine.frozen import Frozen
from engine.watch.splits import SplitsTable


class LiveDecision(Frozen):
    seq: int
    kind: str  # battle or overworld
    action: str
    reason: str
    tier: str
    answer: str = ""  # the model's raw answer, when a model made the decision


class LiveMember(Frozen):
    name: str
    level: int
    hp: int
    max_hp: int
    status: str


class LiveBattle(Frozen):
    kind: str
    enemy: str
    level: int
    hp_percent: int
    win_chance: float | None = None


class LiveSplit(Frozen):
    name: str
    title: str
    number: int
    decision: int
    seconds: float


class LiveView(Frozen):
    """One moment of a run, everything the page shows but the screen."""

    run_id: str
    game: str
    phase: str
    frame: int
    decisions: int
    battles: int
    where: str
    objective: str = ""
    objective_id: str | None = None
    plan: tuple[str, ...] = ()
    trigger: str = ""
    directive_tier: str = ""
    minimap: str = ""
    party: tuple[LiveMember, ...] = ()
    battle: LiveBattle | None = None
    recent: tuple[LiveDecision, ...] = ()
    milestones: tuple[LiveSplit, ...] = ()
    splits: SplitsTable | None = None  # the splits against the personal best (engine/runtime/splits.py)
    lessons: tuple[str, ...] = ()
    llm_calls: int = 0
    cost_usd: float = 0.0
    harness: str = "engine"  # the harness level (docs/harness.md)
    harness_fallbacks: int = 0
    seconds: float = 0.0
    frames_per_second: float = 0.0


class LiveFeed(Frozen):
    """A board's newest view as another process fetches it (`engine watch` from the conductor actor)."""

    version: int
    view: LiveView | None
    screen: bytes


# Views are made this long after the last request (an open event stream: always); after that the board
# keeps the last one made, however old.
WANTED_SECONDS = 5.0
# A request that finds the views stopped waits at most this long for the run to make a current one (a
# cycle normally ends within a fraction of a second; a long walk may take seconds).
FRESH_SECONDS = 3.0
ENDED = ("stopped", "failed")  # phases after which no newer view comes


class LiveBoard:
    """The newest view and screen, shared between the run (one writer) and the page's server."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self.version = 0
        self.view: LiveView | None = None
        self.screen: bytes = b""
        self._asked_at: float | None = None  # monotonic seconds of the last request for the view
        self._streams = 0  # event streams open now

    # -- who is watching: the run makes views only for someone -------------------------------------------
    def asked(self) -> None:
        """Someone fetched the view or the screen (a page polling, `engine watch`, an overlay)."""
        with self._changed:
            self._asked_at = time.monotonic()

    def fresh(self, timeout: float = FRESH_SECONDS) -> tuple[int, LiveView | None, bytes]:
        """The view for a request: asked for, and when nobody had asked for WANTED_SECONDS (the run had
        stopped making views, so the newest one is old) the one the run makes next, waited for at most
        `timeout` seconds. A script polling once, or a page's first paint, sees the run as it is now."""
        with self._changed:
            now = time.monotonic()
            stale = self._streams == 0 and (self._asked_at is None or now - self._asked_at > WANTED_SECONDS)
            self._asked_at = now
            if stale and not (self.view is not None and self.view.phase in ENDED):
                version = self.version
                self._changed.wait_for(lambda: self.version > version, timeout=timeout)
            return self.version, self.view, self.screen

    def streaming(self, opened: bool) -> None:
        with self._changed:
            self._streams += 1 if opened else -1

    def watched(self, within: float) -> bool:
        """Whether an event stream is open or the view was asked for in the last `within` seconds."""
        with self._changed:
            if self._streams > 0:
                return True
            return self._asked_at is not None and time.monotonic() - self._asked_at <= within

    def publish(self, view: LiveView, screen: bytes | None = None) -> None:
        with self._changed:
            self.view = view
            if screen is not None:
                self.screen = screen
            self.version += 1
            self._changed.notify_all()

    def refresh_screen(self, screen: bytes) -> None:
        """A newer screen under the same view (a paced run's screen moves during a walk)."""
        with self._changed:
            self.screen = screen
            self.version += 1
            self._changed.notify_all()

    def latest(self) -> tuple[int, LiveView | None, bytes]:
        with self._changed:
            return self.version, self.view, self.screen

    def wait_newer(self, version: int, timeout: float) -> int:
        """The board's version once it is past `version`, or after `timeout` seconds either way."""
        with self._changed:
            self._changed.wait_for(lambda: self.version > version, timeout=timeout)
            return self.version
