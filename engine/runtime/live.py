"""The conductor's side of `--watch`: a live view of the run put on the board a few times a second.

A view costs one screenshot from the Emulator role and a little decoding, so it is made between cycles, at
most every PUBLISH_SECONDS and only while someone watches; the page's server runs on its own threads and
never calls a role. A screenshot draws one more frame, so a run with a page open does not play frame for
frame as the same run unwatched (with --watch but nobody looking, it does).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import cache
from pathlib import Path

from engine.combat.judge import win_probability
from engine.combat.position import duel_of
from engine.errors import EngineError, UserInputError
from engine.game.assessment import Fairness
from engine.game.models import GameState
from engine.messages import Directive, Selection
from engine.runtime.milestones import Split
from engine.runtime.run_start import RunStart
from engine.runtime.split_history import comparison_for, read_runs
from engine.runtime.splits import RunSplits, SplitComparison
from engine.story.graph import story_graph
from engine.watch.server import LOOPBACK, WatchServer
from engine.watch.splits import SplitsTable
from engine.watch.view import (
    WANTED_SECONDS,
    LiveBattle,
    LiveBoard,
    LiveDecision,
    LiveMember,
    LiveSplit,
    LiveView,
)
from engine.world.minimap import around_player, view_of
from engine.world.planner import surroundings
from engine.world.world import World, load_world

log = logging.getLogger("engine.run")
PUBLISH_SECONDS = 0.25  # four views a second: the page's screen moves at least twice a second
# ...and while nobody watches, one view this often, without a screenshot (it would draw a frame, and the
# run would play another game than unwatched): a request that finds the views stopped waits only
# FRESH_SECONDS for the next, and a run whose cycles were slower than that (Ray workers niced under load)
# answered a first request 2.5 minutes in with the view from its start (frame 0, "starting").
UNWATCHED_SECONDS = 5.0
RECENT_KEPT = 20


class WatchError(UserInputError):
    """The live page cannot be served where asked (the port is taken, the host is not this machine's)."""


def check_can_listen(host: str, port: int, option: str = "--watch") -> None:
    """WatchError (one line, naming the command line `option` that asked) unless a server could listen on
    (host, port) right now."""
    try:
        WatchServer(LiveBoard(), host, port).stop()
    except OSError as exc:
        raise _cannot_listen(option, host, port, exc) from exc


def _cannot_listen(option: str, host: str, port: int, exc: OSError) -> WatchError:
    return WatchError(f"{option}: cannot serve the live page on {host}:{port} ({exc.strerror or exc})")


class LivePublisher:
    """Views of the run on a board: served on (host, port) with `--watch`, or, on a Ray cluster, kept for
    `engine watch` to fetch through the conductor actor. Views with a new screen are made only while someone
    watches (an event stream open, or the view asked for in the last WANTED_SECONDS); a run nobody watches
    makes one every UNWATCHED_SECONDS without, so the newest view is never older than that and a cycle."""

    def __init__(self, rom: Path, serve_at: tuple[str, int] | None = None) -> None:
        self.board = LiveBoard()
        self.server: WatchServer | None = None
        if serve_at is not None:
            host, port = serve_at
            try:
                self.server = WatchServer(self.board, host, port)
            except OSError as exc:
                raise _cannot_listen("--watch", host, port, exc) from exc
            if host not in LOOPBACK:
                log.warning("the live page listens on %s: anyone who can reach this machine can watch", host)
        self.rom = rom
        self.recent: deque[LiveDecision] = deque(maxlen=RECENT_KEPT)
        self.lessons: tuple[str, ...] = ()
        self._world: World | None = None
        self.rom_unreadable = False
        self._last: tuple[float, int] | None = None  # (monotonic seconds, frame) at the last view
        self._stopped = threading.Event()

    def start(self) -> None:
        if self.server is not None:
            self.server.start()
            log.info("watch the run at %s", self.server.url)

    def stop(self) -> None:
        self._stopped.set()
        if self.server is not None:
            self.server.stop()

    def follow_screens(self, source: Callable[[], bytes]) -> None:
        """Between views, put the screen `source` gives on the board every PUBLISH_SECONDS while someone
        watches: a paced run spends seconds in one walk or battle turn, and views are made only between
        cycles."""
        thread = threading.Thread(target=self._feed, args=(source,), name="live-screens", daemon=True)
        thread.start()

    def _feed(self, source: Callable[[], bytes]) -> None:
        last = b""
        while not self._stopped.wait(PUBLISH_SECONDS):
            if not self._watched():
                continue
            try:
                screen = source()
            except Exception as exc:  # the emulator is busy restarting, say: the next view brings a screen
                log.debug("no live screen: %s", exc)
                continue
            if screen and screen != last:
                last = screen
                self.board.refresh_screen(screen)

    def wanted(self) -> tuple[int, LiveView | None, bytes]:
        """Someone is watching from elsewhere: keep making views, and here is the newest."""
        self.board.asked()
        return self.board.latest()

    def decided(self, seq: int, kind: str, action: str, reason: str, selection: Selection | None,
                answer: str = "", lessons: tuple[str, ...] = ()) -> None:  # fmt: skip
        if kind == "battle":  # lessons belong to the battle at hand: kept until the next battle's first
            self.lessons = lessons
        tier = selection.tier if selection is not None else "rule_based"
        self.recent.append(LiveDecision(seq=seq, kind=kind, action=action, reason=reason, tier=tier,
                                        answer=answer))  # fmt: skip

    def _watched(self) -> bool:
        return self.board.watched(WANTED_SECONDS)

    def due(self) -> bool:
        every = PUBLISH_SECONDS if self._watched() else UNWATCHED_SECONDS
        # No assumption about what the monotonic clock reads: the first view is always due.
        return self._last is None or time.monotonic() - self._last[0] >= every

    def wants_screen(self) -> bool:
        """Whether the view due now should carry a new screenshot: only while someone watches."""
        return self._watched()

    def publish(self, view: LiveView, state: GameState | None, screen: bytes | None) -> None:
        now = time.monotonic()
        rate = 0.0
        if self._last is not None and now > self._last[0]:
            rate = max(0, view.frame - self._last[1]) / (now - self._last[0])
        self._last = (now, view.frame)
        extra = {"recent": tuple(self.recent), "frames_per_second": round(rate, 1), "lessons": self.lessons}
        if state is not None:
            extra |= {"party": _party(state), "battle": _battle(state), "minimap": self._minimap(state)}
        self.board.publish(view.model_copy(update=extra), screen)

    def _minimap(self, state: GameState) -> str:
        if state.battle is not None or self.rom_unreadable:
            return ""
        if self._world is None:
            try:
                self._world = load_world(self.rom.read_bytes())
            except (OSError, EngineError) as exc:  # no map to draw, the rest of the page still works
                log.debug("no minimap: %s", exc)
                self.rom_unreadable = True
                return ""
        world = self._world
        if state.overworld.map_id not in world.maps:
            return ""
        around = surroundings(world, state)
        return around_player(world, view_of(world, state, around))


def base_view(
    run_id: str, game: str, phase: str, frame: int, decisions: int, battles: int, where: str,
    directive: Directive | None, splits: list[Split], seconds: float,
) -> LiveView:  # fmt: skip
    """The view's fields the conductor knows without asking a role."""
    milestones = tuple(LiveSplit(name=s.name, title=s.title, number=s.number, decision=s.decision,
                                 seconds=s.seconds) for s in splits if not s.at_start)  # fmt: skip
    view = LiveView(run_id=run_id, game=game, phase=phase, frame=frame, decisions=decisions, battles=battles,
                    where=where, milestones=milestones, seconds=round(seconds, 1))  # fmt: skip
    if directive is None:
        return view
    return view.model_copy(update={"objective": directive.objective, "objective_id": directive.objective_id,
                                   "plan": directive.plan, "trigger": directive.trigger.value,
                                   "directive_tier": directive.selection.tier})  # fmt: skip


def splits_comparison(
    data_dir: Path, run_id: str, rom_sha256: str, start: RunStart | None
) -> SplitComparison:
    """The run's comparison with the earlier runs kept in `data_dir`, read once as the run starts: the
    views then cost no file reads. An unreadable summary is left out (one log line), never fatal."""
    return comparison_for(read_runs(data_dir), RunSplits(run_id=run_id, rom_sha256=rom_sha256, start=start))


def splits_view(
    comparison: SplitComparison, splits: list[Split], frame: int, playing: bool, directive: Directive | None
) -> SplitsTable:
    """The splits table of a view; while the run plays, with the segment under way at `frame`."""
    heading = None
    if directive is not None and directive.objective_id is not None:
        name = directive.objective_id
        heading = (name, _titles().get(name, directive.objective))
    return comparison.table(splits, frame if playing else None, heading)


@cache
def _titles() -> dict[str, str]:
    return {objective.name: objective.title for objective in story_graph().objectives}


def _party(state: GameState) -> tuple[LiveMember, ...]:
    return tuple(LiveMember(name=mon.nickname or (mon.species_name or "?"), level=mon.level, hp=mon.hp,
                            max_hp=mon.max_hp, status=mon.status) for mon in state.party)  # fmt: skip


def _battle(state: GameState) -> LiveBattle | None:
    battle = state.battle
    if battle is None or battle.enemy is None:
        return None
    enemy = battle.enemy
    duel = duel_of(state, Fairness.VISIBLE_ONLY)
    chance = round(win_probability(duel), 3) if duel is not None else None
    name = battle.trainer_class_name or enemy.species_name or "?"
    what = f"{name} ({enemy.species_name})" if battle.kind == "trainer" else (enemy.species_name or "?")
    return LiveBattle(kind=battle.kind, enemy=what, level=enemy.level,
                      hp_percent=round(100 * enemy.hp / max(1, enemy.max_hp)), win_chance=chance)  # fmt: skip
