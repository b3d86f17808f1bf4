"""The conductor: runs the decision cycle over the seven roles and owns the run (start, limits, summary).

One cycle: in a battle, advance to the next choice, look (Emulator → Vision → Observer, and the
Strategist when an event fired), let the Tactician choose, execute; out of battle, clear the overworld and
take one step the Tactician chose. Limits are checked between cycles, so a run always stops at a clean
boundary, and the summary is written however the run ends. The roles are reached through handles, so the
same code drives plain objects (`--local`) and Ray actors.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

from engine.actors.errors import RoleDiedError
from engine.actors.factory import RoleBuild
from engine.actors.roles import Roles
from engine.battles.models import BattleSummary, DecisionRecord
from engine.battles.tracker import BattleTracker, enemy_side, move_used, our_side
from engine.errors import EngineError, UserInputError
from engine.files import StorageError, append_json_line, write_bytes_atomic, write_json_atomic
from engine.game.models import DecisionPoint, GameState
from engine.layout import RunPaths
from engine.llm.ledger import UsageReport
from engine.messages import (
    BattleChoice,
    BattleRecord,
    Directive,
    NavChoice,
    Perception,
    Phase,
    RoleReport,
    RunStatus,
    Selection,
    StepReport,
)
from engine.runtime.conductor_state import ConductorState
from engine.runtime.summary import RunSummary, StopReason
from engine.runtime.supervision import Supervision
from engine.telemetry import Telemetry
from engine.telemetry.tracing import ATTR_BATTLE_ID, CycleKind

log = logging.getLogger("engine.run")
HEARTBEAT_STEPS = 200
LATEST = "latest"
REFLECTION_SETTLE_SECONDS = 120.0  # a thinking model answering the last battle's reflection


@dataclass(frozen=True)
class RunOptions:
    rom: Path
    state: Path | None = None
    max_battles: int | None = None
    max_decisions: int | None = None
    seed: int = 0
    screenshots: bool = False  # attach the screen to tactical model prompts (llm.screenshots)
    # A checkpoint to carry on from instead of starting: its path, or LATEST (this run's newest that
    # verifies). The run id, logs and summary carry on; the limits count over the whole run.
    resume: str | None = None
    resume_reason: str = "engine run --resume"
    resume_skipped: tuple[str, ...] = ()  # newer checkpoints `engine run --resume latest` found broken
    checkpoint_every_decisions: int = 100
    max_recoveries: int = 10
    recovery_timeout: float = 60.0

    def role_build(self, paths: RunPaths | None, secrets: Mapping[str, str] | None = None) -> RoleBuild:
        """What the roles of this run are built from."""
        run_id = paths.run_id if paths is not None else "run"
        return RoleBuild(
            rom=self.rom, run_id=run_id, seed=self.seed, paths=paths, secrets=dict(secrets or {})
        )


class Conductor(Supervision):
    def __init__(
        self, roles: Roles, options: RunOptions, paths: RunPaths, telemetry: Telemetry | None = None
    ) -> None:
        self.telemetry = telemetry or Telemetry.disabled()
        wrap = self.telemetry.tracing.wrap
        self.roles = Roles(**{field.name: wrap(getattr(roles, field.name)) for field in fields(roles)})
        self.metrics = self.telemetry.metrics
        self.options = options
        self.paths = paths
        self.battles: list[BattleSummary] = []
        self.decisions = 0
        self.steps = 0
        self.tracker: BattleTracker | None = None
        self.directive: Directive | None = None
        self.last_map: int | None = None
        self.phase: Phase = "starting"
        self.where = "starting"
        self.frames = 0
        self.game = "?"
        self.usage = UsageReport()
        self._frames_on_clock = 0  # emulated frames already added to the play clock
        self._in_battle = False
        self._battle_ended = False  # a checkpoint is due at the next cycle boundary
        self.recoveries = 0
        self.started = time.monotonic()
        self.played_before = 0.0  # wall seconds of this run in earlier processes (a resumed run)
        self._decisions_at_checkpoint = 0
        self._due_asked = time.monotonic()
        self._boundary: tuple[ConductorState, int] | None = None
        # Why the run stopped, if a file it keeps could not be written (a full disk).
        self._storage_failed: StorageError | None = None
        self._lives: dict[str, str] = {}  # each role's incarnation when last looked at
        # Set from another thread (the Ray driver's Ctrl-C reaches the conductor actor as a request):
        # the run stops at the next cycle boundary, like a KeyboardInterrupt in-process.
        self._stop_requested = threading.Event()

    def request_stop(self) -> None:
        self._stop_requested.set()

    # -- lifecycle ---------------------------------------------------------------------------------
    def run(self) -> RunSummary:
        self.started = time.monotonic()
        stopped: StopReason = "error"
        error: str | None = None
        try:
            stopped = self._play()
        except UserInputError:
            self.phase = "failed"
            raise  # a bad save state or similar: nothing was played, the CLI explains it
        except KeyboardInterrupt:
            stopped = "interrupted"
            log.info("interrupted: stopping after writing the summary")
            self._exit_checkpoint("interrupted")
        except StorageError as exc:
            error = self._stop_for_storage(exc)
        except EngineError as exc:
            error = str(exc)
            log.error("run failed: %s", exc)
            self._exit_checkpoint("crash")
        except Exception as exc:
            # A bug of ours, not the user's: the traceback goes to run.log, and the summary of what was
            # played is still written rather than lost with the traceback.
            error = f"internal error: {type(exc).__name__}: {exc}"
            log.exception("run failed with an internal error")
            self._exit_checkpoint("crash")
        finally:
            self.phase = "stopping"
            self._final_bookkeeping()
        summary = RunSummary(
            run_id=self.paths.run_id,
            game=self.game,
            stopped=stopped,
            error=error,
            battles=tuple(self.battles),
            decisions=self.decisions,
            overworld_steps=self.steps,
            llm_calls=self.usage.calls,
            cost_usd=self.usage.cost_usd,
            frames=self.frames,
            wall_seconds=round(self._played_seconds(), 3),
            llm=self.usage,
            recoveries=self.recoveries,
        )
        self._write_summary(summary)
        self.phase = "failed" if error else "stopped"
        return summary

    def _write_summary(self, summary: RunSummary) -> None:
        try:
            write_json_atomic(self.paths.summary, summary.model_dump(mode="json"))
        except StorageError as exc:
            if self._storage_failed is None:  # otherwise the run's one error line has said it already
                log.error("summary not written: %s", exc)

    def _stop_for_storage(self, exc: StorageError) -> str:
        """The run cannot keep its files (a full disk): stop with one line saying what failed and where
        to carry on from. No crash checkpoint is tried: it could not be written either."""
        self._storage_failed = exc
        try:
            newest = self.roles.checkpoint.call.newest_intact()
        except Exception as error:  # the line must be written whatever else is broken
            newest = f"unknown ({error})"
        message = f"{exc}; newest intact checkpoint: {newest or 'none'}"
        log.error("run stopped: %s (make room, then carry on with --resume latest)", message)
        return message

    def _final_bookkeeping(self) -> None:
        """Whatever can still be saved after a failure is saved; a failing role here is only logged."""
        actions = [self._save_journey, self._count_frames, self._advance_play_clock, self._settle_reflection,
                   self._add_up_usage]  # fmt: skip
        if self._storage_failed is not None:
            # Nothing more is written: the play clock is caught up by the resumed run, from the checkpoint.
            actions.remove(self._advance_play_clock)
        for action in actions:
            try:
                action()
            except StorageError as exc:
                if self._storage_failed is None:
                    log.warning("while stopping: %s", exc)
            except Exception as exc:  # the run is ending anyway; the summary must still be written
                log.warning("while stopping: %s", exc)
        try:
            self.roles.checkpoint.call.stop()
        except Exception as exc:
            log.warning("checkpoint timer did not stop cleanly: %s", exc)

    def _settle_reflection(self) -> None:
        if not self.roles.reflection.call.settle(REFLECTION_SETTLE_SECONDS):
            log.warning("reflection still busy after %.0f s: its last model calls may be missing from the "
                        "summary (they are in llm.jsonl)", REFLECTION_SETTLE_SECONDS)  # fmt: skip

    def _add_up_usage(self) -> None:
        self.usage = self.roles.gateway.call.usage()
        if self.usage.calls or self.usage.fallbacks:
            log.info("models: %d calls, %d+%d tokens, $%.4f; %d fallbacks to rule_based", self.usage.calls,
                     self.usage.tokens_in, self.usage.tokens_out, self.usage.cost_usd,
                     self.usage.fallbacks)  # fmt: skip

    def _count_frames(self) -> None:
        self.frames = self.roles.emulator.call.frame_count()

    def _advance_play_clock(self, frames: int | None = None) -> None:
        """Lessons age with play time: add the frames emulated since the clock last heard from this run."""
        frames = self.frames if frames is None else frames
        if frames > self._frames_on_clock:
            self.roles.memory.tell.played(frames - self._frames_on_clock)
            self._frames_on_clock = frames

    def _save_journey(self) -> None:
        write_json_atomic(self.paths.run_dir / "journey.json", self.roles.observer.call.journey())

    def _play(self) -> StopReason:
        self.game = self.roles.emulator.call.game_name()
        resume = self.options.resume
        if resume is not None:
            self._resume(None if resume == LATEST else resume)
        else:
            self._start_game()
        self.roles.checkpoint.call.start()
        self.phase = "running"
        self._lives = self._incarnations()  # from here on, an actor re-created by Ray is noticed
        self._mark_boundary()
        if resume is None:
            self._checkpoint("start")
        while (reason := self._limit_reached()) is None:
            try:
                self._cycle()
                self._checkpoint_at_boundary()
            except RoleDiedError as died:
                self._recover(died)
            self._mark_boundary()
        self._checkpoint("stop")
        if reason == "interrupted":
            log.info("interrupted: stopping after writing the summary")
        else:
            log.info("stopping: %s reached", reason.replace("_", " "))
        return reason

    def _start_game(self) -> None:
        emulator = self.roles.emulator
        state = self.options.state.read_bytes() if self.options.state is not None else None
        if state is not None:
            log.info("loading save state %s", self.options.state.name if self.options.state else "")
        report = emulator.call.start(state)
        for line in emulator.call.take_intro_lines():
            log.info("intro: %s", line)
        if report is None:
            log.info("the save state is in a battle: playing it first")
        else:
            log.info("in the overworld after %d frames", report.frames)
        self._in_battle = emulator.call.in_battle()

    def _limit_reached(self) -> StopReason | None:
        if self._stop_requested.is_set():
            return "interrupted"
        options = self.options
        if options.max_battles is not None and len(self.battles) >= options.max_battles:
            return "max_battles"
        if options.max_decisions is not None and self.decisions >= options.max_decisions:
            return "max_decisions"
        return None

    # -- one cycle ---------------------------------------------------------------------------------
    def _cycle(self) -> None:
        """One decision cycle, traced as one trace with a span per role call."""
        kind: CycleKind = "battle" if self.tracker is not None or self._in_battle else "overworld"
        before, started = self.decisions, time.perf_counter()
        battle_id = self.tracker.battle_id if self.tracker else None
        with self.telemetry.tracing.cycle(kind, self.decisions + 1, battle_id) as span:
            self._cycle_body()
            if self.tracker is not None and battle_id is None:  # a battle began in this cycle
                span.set_attribute(ATTR_BATTLE_ID, self.tracker.battle_id)
        if self.decisions > before:
            self.metrics.decision(kind, time.perf_counter() - started)

    def _cycle_body(self) -> None:
        emulator = self.roles.emulator
        if self.tracker is not None or self._in_battle:
            state: GameState = emulator.call.advance()
            self._in_battle = state.battle is not None
            if state.decision_point is DecisionPoint.OVERWORLD_FREE and not self._in_battle:
                self._finish_battle()
            else:
                self._battle_decision()
            return
        state = emulator.call.settle()
        self._in_battle = state.battle is not None
        if not self._in_battle:
            self._overworld_decision()

    def _look(self) -> Perception:
        perception: Perception = self.roles.vision.call.perceive(self.roles.emulator.call.frame())
        self.metrics.perception(perception.reused)
        self.metrics.frames(perception.frame)
        events = self.roles.observer.call.observe(perception)
        if events:
            directive = self.roles.strategist.call.consider(events, perception.state)
            if directive is not None:
                self.directive = directive
                tier = _tier_words(directive.selection)
                log.info("  directive (%s, %s): %s", directive.trigger.value, tier, directive.objective)
        return perception

    def _battle_decision(self) -> None:
        perception = self._look()
        state = perception.state
        if self.tracker is None:
            self._start_battle(state)
        assert self.tracker is not None
        screenshot = self.roles.emulator.call.screenshot() if self.options.screenshots else None
        choice: BattleChoice = self.roles.tactician.call.choose_battle(
            state, self.directive, screenshot, self.tracker.battle_id
        )
        selection = choice.selection
        record = DecisionRecord(
            point=state.decision_point, action=choice.label, reason=choice.reason, tier=selection.tier,
            cost_usd=selection.cost_usd, frame=perception.frame, options=choice.options,
            ours=our_side(state), enemy=enemy_side(state), move=move_used(choice.action, state),
        )  # fmt: skip
        self.tracker.note(record)
        self._count_decision("battle", record.point.value, record.action, record.reason, selection)
        log.info(
            "  %s: %s (%s; %s)", record.point.value, record.action, record.reason, _tier_words(selection)
        )
        self.roles.emulator.call.execute(choice.action)
        self.tracker.note_text(self.roles.emulator.call.take_battle_text())

    def _start_battle(self, state: GameState) -> None:
        battle_id = f"{self.paths.run_id}-b{len(self.battles) + 1:03d}"
        self.roles.emulator.call.begin_battle(state)
        self.roles.emulator.call.take_battle_text()  # the opening lines come before any decision
        # Kept with the log: the battle can be replayed from here (engine run --state FILE, replays).
        write_bytes_atomic(self.paths.battle_start_state(battle_id), self.roles.emulator.call.save_state())
        self.tracker = BattleTracker(battle_id, self.roles.emulator.call.frame_count(), state)
        enemy = state.battle.enemy if state.battle else None
        level = f" L{enemy.level}" if enemy is not None else ""
        self.where = f"battle {len(self.battles) + 1}: {self.tracker.battle_type} {self.tracker.opponent}"
        log.info("battle %d started: %s %s%s", len(self.battles) + 1, self.tracker.battle_type,
                 self.tracker.opponent, level)  # fmt: skip

    def _finish_battle(self) -> None:
        assert self.tracker is not None
        emulator = self.roles.emulator
        final = emulator.call.last_in_battle()
        battle = self.tracker.finish(
            final, emulator.call.battle_result(), emulator.call.frame_count(), self.paths.run_id
        )
        self.tracker = None
        self._advance_play_clock(battle.start_frame + battle.summary.frames)
        summary = battle.summary
        self.battles.append(summary)
        self.metrics.battle_ended(summary.outcome, summary.battle_type, summary.wall_seconds)
        log_path = self.paths.battle_log(summary.battle_id)
        _keep_rolled_back(log_path)
        write_json_atomic(log_path, battle.model_dump(mode="json"))
        self._battle_ended = True
        party = [mon.species_name or "?" for mon in final.party] if final is not None else []
        self.roles.observer.call.battle_ended(
            summary.outcome, summary.opponent, battle.start_frame + summary.frames, party
        )
        record = BattleRecord(battle_id=summary.battle_id, outcome=summary.outcome, opponent=summary.opponent,
                              log_path=str(log_path))  # fmt: skip
        self.roles.reflection.tell.receive(record)
        self._save_journey()
        log.info("battle %d: %s vs %s in %d turns (%d decisions, %d frames, %.1f s)", len(self.battles),
                 summary.outcome, summary.opponent, summary.turns, summary.decisions, summary.frames,
                 summary.wall_seconds)  # fmt: skip

    def _overworld_decision(self) -> None:
        perception = self._look()
        state = perception.state
        where = state.overworld
        self.where = f"{where.map_name or where.map_id} ({where.x}, {where.y})"
        if where.map_id != self.last_map:
            self.last_map = where.map_id
            log.info("overworld: %s", self.where)
        choice: NavChoice = self.roles.tactician.call.choose_step(state, self.directive)
        report: StepReport = self.roles.emulator.call.walk(choice)
        # A notification: the tactician's next call runs after it (one caller, calls kept in order).
        self.roles.tactician.tell.stepped(state, choice, report.outcome, report.state)
        self._in_battle = report.state.battle is not None
        self.steps += 1
        self._count_decision("overworld", choice.move, str(choice.direction or "A"), choice.reason)
        if self.steps % HEARTBEAT_STEPS == 0:
            log.info("overworld: %d steps", self.steps)

    def _count_decision(
        self, kind: str, point: str, action: str, reason: str, selection: Selection | None = None
    ) -> None:
        self.decisions += 1
        entry: dict[str, object] = {"seq": self.decisions, "kind": kind, "point": point, "action": action,
                                    "reason": reason}  # fmt: skip
        if self.tracker is not None and kind == "battle":
            entry["battle_id"] = self.tracker.battle_id
        if selection is not None:
            entry["model"] = selection.model_dump(mode="json", exclude={"kind"})
        append_json_line(self.paths.decisions, entry)

    # -- status ------------------------------------------------------------------------------------
    def status(self) -> RunStatus:
        reports: list[RoleReport] = []
        for handle in self.roles.all():
            try:
                reports.append(handle.call.report())
            except Exception as exc:  # a dead role is exactly what status must show
                reports.append(RoleReport(role=handle.role, healthy=False, detail=str(exc)[:200]))
        by_role = {report.role: report for report in reports}
        checkpoint = by_role.get("checkpoint")
        since = checkpoint.counters.get("seconds_since_checkpoint") if checkpoint is not None else None
        frames = (
            by_role["emulator"].counters.get("frames", self.frames) if "emulator" in by_role else self.frames
        )
        return RunStatus(
            run_id=self.paths.run_id,
            state=self.phase,
            game=self.game,
            where=self.where,
            battles=len(self.battles),
            decisions=self.decisions,
            frames=int(frames),
            seconds_since_checkpoint=since if since is not None and since >= 0 else None,
            roles=tuple(reports),
        )


def _keep_rolled_back(log_path: Path) -> None:
    """A battle played again after a rollback: the first playing's log stays, under another name."""
    if not log_path.exists():
        return
    for attempt in range(1, 1000):
        aside = log_path.with_name(f"{log_path.stem}.rolled-back-{attempt}.json")
        if not aside.exists():
            log_path.rename(aside)
            log.info("battle log %s kept as %s: the battle is played again", log_path.name, aside.name)
            return


def _tier_words(selection: Selection) -> str:
    """'rule_based', or 'acting, $0.0012, 1.4 s', or 'rule_based, wanted thinking: <why>'."""
    if selection.tier == "rule_based":
        if selection.wanted == "rule_based" or not selection.steps:
            return "rule_based"
        return f"rule_based, wanted {selection.wanted}: {selection.steps[-1]}"
    return f"{selection.tier}, ${selection.cost_usd:.4f}, {selection.latency_s:.1f} s"
