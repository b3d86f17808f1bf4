"""The conductor: runs the decision cycle over the seven roles and owns the run (start, limits, summary).

One cycle: in a battle, advance to the next choice, look (Emulator → Vision → Observer, and the
Strategist when an event fired), let the Tactician choose, play the battle step; out of battle, clear the
overworld and take one step the Tactician chose. Limits are checked between cycles, so a run always stops
at a clean boundary, and the summary is written however the run ends. The roles are reached through
handles, so the same code drives plain objects (`--local`) and Ray actors. Checkpoints and rollbacks are
the supervisor's (engine.runtime.supervisor); the counters are one model, `RunProgress`.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import fields
from pathlib import Path

from engine.actors.errors import RoleDiedError
from engine.actors.handles import screen_feed
from engine.actors.roles import Roles
from engine.battles.files import keeps_start_state
from engine.battles.models import BattleLog
from engine.checkpointer.role import ROUTINE_BATTLE_END
from engine.emulator.errors import GameFrozenError
from engine.errors import EngineError, UserInputError
from engine.files import StorageError, append_json_line, write_bytes_atomic, write_json_atomic
from engine.game.models import GameState
from engine.game.selling import sale_price
from engine.harness.levels import presses_buttons
from engine.layout import RunPaths
from engine.llm.ledger import UsageReport
from engine.mechanics.battle_step import BattleStep, battle_over, decision_record
from engine.messages import (
    BattleRecord,
    GameEvent,
    LegReport,
    Perception,
    Phase,
    RoleReport,
    RunStatus,
    Selection,
)
from engine.runtime.battle_journal import BattleJournal
from engine.runtime.button_steps import ButtonSteps
from engine.runtime.live import LivePublisher, base_view, splits_comparison, splits_view
from engine.runtime.milestones import Milestones
from engine.runtime.options import LATEST, RunOptions
from engine.runtime.progress import PlayTime, RunProgress
from engine.runtime.run_start import RunStart
from engine.runtime.signals import SignalName, Stage, StopRequest, signal_of
from engine.runtime.splits import SplitComparison
from engine.runtime.summary import SIGNAL_STOPS, RunSummary, StopReason
from engine.runtime.supervisor import Supervisor
from engine.story.graph import story_graph
from engine.telemetry import Telemetry
from engine.telemetry.tracing import ATTR_BATTLE_ID, CycleKind, TraceCarrier, continued, trace_carrier
from engine.world.goals import Leg

log = logging.getLogger("engine.run")
# No battle takes this many decisions (the longest seen, a gauntlet room won by one member and the bag's
# potions, took under 60): past it, the run stops and says so rather than loop for ever.
MAX_BATTLE_DECISIONS = 400
HEARTBEAT_STEPS = 200
REFLECTION_SETTLE_SECONDS = 120.0  # a thinking model answering the last battle's reflection
# A run stopped by a signal has seconds before a SIGKILL (docker and systemd wait ~10 s): the last battle's
# reflection is not waited for long (its report is then missing; the battle log stays).
SIGNAL_SETTLE_SECONDS = 2.0
# What a signal does in each phase of the run (engine.runtime.signals): nothing to finish while starting.
_STAGES: dict[Phase, Stage] = {"starting": "starting", "running": "running", "stopping": "stopping",
                               "stopped": "stopping", "failed": "stopping"}  # fmt: skip


class Conductor:
    def __init__(
        self,
        roles: Roles,
        options: RunOptions,
        paths: RunPaths,
        telemetry: Telemetry | None = None,
        stop: StopRequest | None = None,
    ) -> None:
        self.telemetry = telemetry or Telemetry.disabled()
        wrap = self.telemetry.tracing.wrap
        self.roles = Roles(**{field.name: wrap(getattr(roles, field.name)) for field in fields(roles)})
        self.metrics = self.telemetry.metrics
        self.options = options
        self.paths = paths
        self.progress = RunProgress()
        self.journal = BattleJournal(paths.battle_journal)
        self.play_time = PlayTime()
        self.battle: BattleStep | None = None  # the battle in progress
        self.supervisor = Supervisor(self.roles, options, paths, self.metrics, self._progress_now)
        # Signals (in this process, or the Ray driver's passed on by `request_stop`): the run stops at the
        # next cycle boundary; the trap abandons a cycle that runs past the grace (engine.runtime.signals).
        self.stop = stop or StopRequest()
        self.phase: Phase = "starting"
        self._enter("starting")
        self.frames = 0
        self.game = "?"
        self.rom_sha256: str | None = None
        self.splits: SplitComparison | None = None  # for the live page: the earlier runs, read once
        self.usage = UsageReport()
        self.milestones = Milestones(story_graph(), self.progress.milestones)
        self.live = LivePublisher(options.rom, options.watch) if options.watch is not None else None
        self._last_state: GameState | None = None  # the newest look and its frame, for the live page
        self._live_frame = 0
        self._model_calls, self._model_cost = 0, 0.0  # as the decisions report them, for the live page
        # Battles ended this cycle, for reflection after it, each with the cycle's trace context.
        self._to_reflect: list[tuple[BattleRecord, TraceCarrier | None]] = []
        self._pending: list[GameEvent] = []  # events seen between looks (a battle's end), for the strategist
        # A battle ended: the reason of the checkpoint due at the next cycle boundary.
        self._battle_ended: str | None = None
        self._plan_stopped: str | None = None  # why the plan could not go on (the run stops as stalled)
        self._storage_failed: StorageError | None = None  # why the run stopped, if a file failed to write
        # The buttons and vision levels: the model presses the buttons, one step a cycle.
        self.buttons = ButtonSteps(options.harness) if presses_buttons(options.harness.level) else None

    def request_stop(self, signal: SignalName = "SIGINT") -> None:
        """From another thread (the Ray driver's signal reaches the conductor actor as a request): the run
        stops at the next cycle boundary."""
        self.stop.ask(signal)

    def _enter(self, phase: Phase) -> None:
        self.phase = phase
        self.stop.stage = _STAGES[phase]

    def _progress_now(self) -> RunProgress:
        battle = self.battle.tracker.state() if self.battle is not None else None
        return self.progress.at_boundary(battle, self.play_time.seconds())

    def _take_back(self, progress: RunProgress) -> None:
        """Carry on from `progress` (a checkpoint's): counters, the battle in progress, the play time; the
        battles journal cut back to the battles that ended before it."""
        self.progress = progress
        self.journal.keep(progress.battles_ended, progress.listed_battles)
        battle, progress.battle = progress.battle, None
        emulator = self.roles.emulator.call
        self.battle = BattleStep.resumed(emulator, self.paths.run_id, battle) if battle is not None else None
        self.play_time = PlayTime(before=progress.played_seconds)
        self.milestones = Milestones(story_graph(), progress.milestones)
        self._battle_ended = None
        self.supervisor.mark_boundary()

    # -- lifecycle ---------------------------------------------------------------------------------
    def run(self) -> RunSummary:
        self.play_time = PlayTime()
        stopped: StopReason = "error"
        error: str | None = None
        try:
            if self.live is not None:
                self.live.start()
                if self.options.paced:
                    self.live.follow_screens(screen_feed(self.roles.emulator))
            stopped = self._play()
        except UserInputError:
            self._enter("failed")
            raise  # a bad save state or similar: nothing was played, the CLI explains it
        except KeyboardInterrupt as exc:  # Ctrl-C in-process, or a signal's cycle abandoned by the trap
            self._enter("stopping")
            self.stop.ask(signal_of(exc))
            stopped = self._stopped_by_signal(abandoned=True)
            self.supervisor.exit_checkpoint("interrupted")
        except StorageError as exc:
            error = self._stop_for_storage(exc)
        except GameFrozenError as exc:
            error = str(exc)
            log.error("run failed: %s", exc)
            self._after_freeze(exc)
        except EngineError as exc:
            error = str(exc)
            log.error("run failed: %s", exc)
            self.supervisor.exit_checkpoint("crash")
        except Exception as exc:
            # A bug of ours, not the user's: the traceback goes to run.log, and the summary of what was
            # played is still written rather than lost with the traceback.
            error = f"internal error: {type(exc).__name__}: {exc}"
            log.exception("run failed with an internal error")
            self.supervisor.exit_checkpoint("crash")
        finally:
            self._enter("stopping")
            self._final_bookkeeping()
        summary = self._summary(stopped, error)
        self._write_summary(summary)
        self._enter("failed" if error else "stopped")
        self._last_live_view()
        return summary

    def _last_live_view(self) -> None:
        """The run's final view: the page keeps showing it until `stop_watching` (the process's end)."""
        if self.live is None:
            return
        try:
            self._publish_live(force=True)
        except Exception as exc:  # a role already gone: the page keeps its last view
            log.debug("last live view not published: %s", exc)

    def stop_watching(self) -> None:
        if self.live is not None:
            self.live.stop()

    def _publish_live(self, force: bool = False, screen: bool = True) -> None:
        """A view of the run for the live page; `screen=False` before the game starts (a screenshot would
        step a frame of the intro)."""
        if self.live is None or not (force or self.live.due()):
            return
        progress = self.progress
        view = base_view(
            self.paths.run_id,
            self.game,
            self.phase,
            self._live_frame,
            progress.decisions,
            progress.battles_ended,
            progress.where,
            progress.directive,
            self.milestones.reached,
            self.play_time.seconds(),
        ).model_copy(update={"llm_calls": self._model_calls, "cost_usd": round(self._model_cost, 6),
                             "harness": self.options.harness.level,
                             "harness_fallbacks": progress.harness_fallbacks})  # fmt: skip
        if self.splits is not None:
            playing = self.phase in ("starting", "running")
            table = splits_view(self.splits, self.milestones.reached, self._live_frame, playing,
                                progress.directive)  # fmt: skip
            view = view.model_copy(update={"splits": table})
        shot = screen and (force or self.live.wants_screen())
        self.live.publish(view, self._last_state, self.roles.emulator.call.screenshot() if shot else None)

    def _play(self) -> StopReason:
        self.game = self.roles.emulator.call.game_name()
        self.rom_sha256 = self.roles.emulator.call.cartridge_sha256()
        resume = self.options.resume
        if resume is not None:
            self._take_back(self.supervisor.resume(None if resume == LATEST else resume))
        else:
            state = self.options.state
            self.progress.start = RunStart.from_state(state) if state is not None else RunStart.power_on()
        if self.live is not None:
            self.splits = splits_comparison(self.paths.data_dir, self.paths.run_id, self.rom_sha256,
                                            self.progress.start)  # fmt: skip
        if resume is None:
            self._publish_live(force=True, screen=False)  # the page says "starting" during the intro
            self._start_game()
            for line in self.roles.tactician.call.read_experience():  # before the start checkpoint keeps it
                log.info("plan: %s", line)
        self.roles.checkpoint.call.start()
        self._enter("running")
        self.supervisor.watch()
        self.supervisor.mark_boundary()
        if resume is None:
            self.supervisor.checkpoint("start")
        while (reason := self._limit_reached()) is None:
            try:
                self._cycle()
                self._checkpoint_if_due()
                self._hand_to_reflection()
            except RoleDiedError as died:
                self._take_back(self.supervisor.recover(died))
            self.supervisor.mark_boundary()
        self._enter("stopping")
        if self.stop.signal is not None and reason in SIGNAL_STOPS.values():
            reason = self._stopped_by_signal(abandoned=False)
        else:
            log.info("stopping: %s reached", reason.replace("_", " "))
        self.supervisor.checkpoint("stop")
        return reason

    def _stopped_by_signal(self, *, abandoned: bool) -> StopReason:
        signal = self.stop.signal or "SIGINT"
        reason = SIGNAL_STOPS[signal]
        where = "at once, abandoning what was under way" if abandoned else "at a cycle boundary"
        log.info("%s (%s): stopping %s; final checkpoint and summary follow", reason, signal, where)
        return reason

    def _after_freeze(self, frozen: GameFrozenError) -> None:
        """The game is lost (it crashed inside the emulator, which the session's watchdog took back): every
        role goes back to the newest checkpoint, the last good state, kept again as a `frozen` checkpoint
        so that `--resume latest` starts from there. None yet (it froze in the intro, or right after
        loading --state): nothing to keep. Never raises: the summary must still be written."""
        try:
            progress = self.supervisor.roll_back_to_newest(str(frozen))
            if progress is not None:
                self._take_back(progress)
                self.supervisor.checkpoint("frozen")
        except Exception as exc:
            log.warning("no frozen checkpoint: %s (the newest checkpoint stays the one to resume)", exc)

    def _until_reached(self) -> bool:
        until = self.options.until
        return until is not None and until in self.milestones.names

    def _aim_reached(self) -> bool:
        """The run's aim (its --until milestone, or the Hall of Fame) is done: a look that finds it (a
        battle's end noted at the next look) asks for no further step, whose leg could walk for minutes."""
        return self._until_reached() or self.milestones.graph.final.name in self.milestones.names

    def _note_milestones(self, state: GameState, frame: int, ended: int = 0) -> None:
        """Record the story objectives done by now, each once, with its split. `ended`: decisions that
        have ended but are not counted yet (a leg just walked: an objective it finished is that leg's,
        not the start's, even when it is the run's first)."""
        seconds = self.play_time.seconds()
        splits = self.milestones.check(state, frame, self.progress.decisions + ended, seconds)
        if splits and self.buttons is not None and not all(split.at_start for split in splits):
            self._credit_skills(success=True)
        for split in splits:
            self.metrics.milestone(split.name)
            number = f"{split.number}/12 " if split.number else ""
            when = (
                "done at the start"
                if split.at_start
                else f"frame {split.frame}, decision {split.decision}, {split.seconds:.1f} s"
            )
            log.info("milestone %s%s (%s): %s", number, split.name, split.title, when)

    def _start_game(self) -> None:
        emulator = self.roles.emulator.call
        state = self.options.state.read_bytes() if self.options.state is not None else None
        if self.options.state is not None:
            log.info("loading save state %s", self.options.state.name)
        report = emulator.start(state)
        for line in emulator.take_intro_lines():
            log.info("intro: %s", line)
        if report is None:
            log.info("the save state is in a battle: playing it first")
        else:
            log.info("in the overworld after %d frames", report.frames)
        self.progress.in_battle = emulator.in_battle()

    def _limit_reached(self) -> StopReason | None:
        if self.stop.signal is not None:
            return SIGNAL_STOPS[self.stop.signal]
        options, progress = self.options, self.progress
        if options.max_battles is not None and progress.battles_ended >= options.max_battles:
            return "max_battles"
        if options.max_decisions is not None and progress.decisions >= options.max_decisions:
            return "max_decisions"
        if self._until_reached():
            return "until"
        if options.max_seconds is not None and self.play_time.seconds() >= options.max_seconds:
            return "budget"
        if self.milestones.graph.final.name in self.milestones.names:
            return "story_done"  # the Hall of Fame: the game itself starts over after the credits
        if self.buttons is not None:
            return self.buttons.stop_reason()
        if self._plan_stopped is not None:
            return "stalled"
        if self.battle is not None and len(self.battle.tracker.records) >= MAX_BATTLE_DECISIONS:
            log.warning("stopping: battle %s took %d decisions without ending (a loop the battle's stall "
                        "guard could not break)", self.battle.battle_id, MAX_BATTLE_DECISIONS)  # fmt: skip
            return "stalled"
        return None

    def _hand_to_reflection(self) -> None:
        """Battles that ended go to reflection after the boundary's checkpoint: its work (reading the log,
        storing lessons) then does not run beside the checkpoint's save state, which it slowed by half."""
        records, self._to_reflect = self._to_reflect, []
        for record, cycle in records:
            with continued(cycle):
                self.roles.reflection.tell.receive(record)

    def _checkpoint_if_due(self) -> None:
        ended, self._battle_ended = self._battle_ended, None
        self.supervisor.checkpoint_if_due(battle_ended=ended, decisions=self.progress.decisions)

    # -- one cycle ---------------------------------------------------------------------------------
    def _cycle(self) -> None:
        """One decision cycle, traced as one trace with a span per role call."""
        kind: CycleKind = "battle" if self.battle is not None or self.progress.in_battle else "overworld"
        before, started = self.progress.decisions, time.perf_counter()
        battle_id = self.battle.battle_id if self.battle is not None else None
        with self.telemetry.tracing.cycle(kind, before + 1, battle_id) as span:
            self._cycle_body()
            if self.battle is not None and battle_id is None:  # a battle began in this cycle
                span.set_attribute(ATTR_BATTLE_ID, self.battle.battle_id)
        self._publish_live()
        if self.progress.decisions > before:
            self.metrics.decision(kind, time.perf_counter() - started)

    def _cycle_body(self) -> None:
        emulator = self.roles.emulator.call
        if self.buttons is not None:
            self._button_step(self.buttons)
            return
        if self.battle is not None or self.progress.in_battle:
            state = emulator.advance()
            self.progress.in_battle = state.battle is not None
            if battle_over(state):
                self._finish_battle()
            else:
                self._battle_decision()
            return
        self.progress.in_battle = emulator.settle().battle is not None
        if not self.progress.in_battle:
            self._overworld_decision()

    def _look(self) -> Perception:
        perception = self.roles.vision.call.perceive(self.roles.emulator.call.frame())
        self.metrics.perception(perception.reused)
        self.metrics.frames(perception.frame)
        state = perception.state
        self.metrics.party(state.progress.badge_count, [mon.level for mon in state.party])
        self._last_state = state
        self._live_frame = perception.frame
        events = [*self._pending, *self.roles.observer.call.observe(perception)]
        self._pending = []
        self._note_milestones(perception.state, perception.frame)
        if events:
            self._reconsider(events, perception.state)
        return perception

    def _reconsider(self, events: list[GameEvent], state: GameState) -> None:
        directive = self.roles.strategist.call.consider(events, state)
        if directive is not None:
            self._fell_back(directive.selection)
            changed = (
                self.progress.directive is None or self.progress.directive.objective != directive.objective
            )
            self.progress.directive = directive
            if changed:
                tier = _tier_words(directive.selection)
                log.info("  directive (%s, %s): %s", directive.trigger.value, tier, directive.objective)

    # -- battles -----------------------------------------------------------------------------------
    def _battle_decision(self) -> None:
        perception = self._look()
        state = perception.state
        battle = self.battle
        if battle is None:
            battle = self._start_battle(state)
            if battle.tracker.battle_type == "trainer":
                # At the first decision, where the battle's start state was just saved: the checkpoint
                # shares that save (~12 ms each), and a crash in the battle replays only the battle. A
                # wild battle's start is a few steps past the last battle's end, which has a checkpoint.
                self.supervisor.checkpoint("battle_start")
        screenshot = self.roles.emulator.call.screenshot() if self.options.screenshots else None
        choice = self.roles.tactician.call.choose_battle(
            state, self.progress.directive, screenshot, battle.battle_id
        )
        selection = choice.selection
        record = decision_record(state, choice.action, choice.reason, perception.frame, selection.tier,
                                 selection.cost_usd)  # fmt: skip
        answer = ""
        if selection.tier != "rule_based":  # what the model answered, beyond its reasoning
            answer = json.dumps({"reasoning": choice.reason, "observations": choice.observations,
                                 "confidence": choice.confidence}, indent=1)  # fmt: skip
        self._count_decision(
            "battle", record.point.value, record.action, record.reason, selection, answer=answer,
            lessons=choice.lessons,
        )  # fmt: skip
        log.info(
            "  %s: %s (%s; %s)", record.point.value, record.action, record.reason, _tier_words(selection)
        )
        battle.play(record, choice.action)

    def _start_battle(self, state: GameState) -> BattleStep:
        number = self.progress.battles_ended + 1
        battle_id = f"{self.paths.run_id}-b{number:03d}"
        # Its start is kept with the log: the battle can be replayed from there (engine replay, --state).
        keep = self.options.keep_battle_states != "none"
        battle = BattleStep.begin(
            self.roles.emulator.call, battle_id, self.paths.run_id, state, keep_state=keep
        )
        if battle.start is not None and battle.start.state is not None:
            write_bytes_atomic(self.paths.battle_start_state(battle_id), battle.start.state)
        self.battle = battle
        tracker = battle.tracker
        enemy = state.battle.enemy if state.battle else None
        level = f" L{enemy.level}" if enemy is not None else ""
        self.progress.where = f"battle {number}: {tracker.battle_type} {tracker.opponent}"
        log.info("battle %d started: %s %s%s", number, tracker.battle_type, tracker.opponent, level)
        return battle

    def _finish_battle(self) -> None:
        assert self.battle is not None
        end = self.battle.end()
        battle = self.battle.finish(end)
        self.battle = None
        summary = battle.summary
        self._advance_play_clock(battle.start_frame + summary.frames)
        self.journal.append(summary)  # before the count: a crash in between costs a line cut on resume
        self.progress.battle_ended(summary)
        self.metrics.battle_ended(summary.outcome, summary.battle_type, summary.wall_seconds)
        log_path = self._keep_battle_log(battle)
        routine = summary.battle_type == "wild" and summary.outcome != "defeat" and end.caught is None
        self._battle_ended = ROUTINE_BATTLE_END if routine else "battle_end"
        party = [mon.species_name or "?" for mon in end.final.party] if end.final is not None else []
        ended = self.roles.observer.call.battle_ended(
            summary.outcome, summary.opponent, battle.start_frame + summary.frames, party
        )
        self._pending.append(ended)
        if end.final is not None:
            change = self.roles.tactician.call.battle_ended(summary.outcome, summary.opponent, end.final)
            if change is not None:
                log.info("plan: %s", change)
        record = BattleRecord(battle_id=summary.battle_id, outcome=summary.outcome, opponent=summary.opponent,
                              log_path=str(log_path))  # fmt: skip
        self._to_reflect.append((record, trace_carrier()))  # its model calls stay in this cycle's trace
        self._save_journey()
        log.info("battle %d: %s vs %s in %d turns (%d decisions, %d frames, %.1f s)",
                 self.progress.battles_ended, summary.outcome, summary.opponent, summary.turns,
                 summary.decisions, summary.frames, summary.wall_seconds)  # fmt: skip

    def _keep_battle_log(self, battle: BattleLog) -> Path:
        log_path = self.paths.battle_log(battle.summary.battle_id)
        _keep_rolled_back(log_path)
        kept = keeps_start_state(self.options.keep_battle_states, battle.summary)
        if not kept:  # the log says so, and a replay asked for it says so in one line
            battle = battle.model_copy(update={"start_state": None})
        write_json_atomic(log_path, battle.model_dump(mode="json"))
        if not kept:
            # After the log: a crash in between leaves a state nobody needs, never a log naming no file.
            _remove(self.paths.battle_start_state(battle.summary.battle_id))
        return log_path

    # -- the overworld -----------------------------------------------------------------------------
    def _overworld_decision(self) -> None:
        perception = self._look()
        if self._aim_reached():
            return
        state = perception.state
        where = state.overworld
        self.progress.where = f"{where.map_name or where.map_id} ({where.x}, {where.y})"
        if where.map_id != self.progress.last_map:
            self.progress.last_map = where.map_id
            log.info("overworld: %s", self.progress.where)
        selection = None
        if self.options.harness.level == "decisions":
            choice = self.roles.tactician.call.decide_leg(state, self.progress.directive)
            leg, selection = choice.leg, choice.selection
        else:
            leg = self.roles.tactician.call.choose_leg(state, self.progress.directive)
        if leg.stop is not None:
            log.warning("stopping: the plan cannot go on: %s", leg.stop)
            self._plan_stopped = leg.stop
            return
        report = self.roles.emulator.call.travel(leg)
        # A notification: the tactician's next call runs after it (one caller, calls kept in order).
        self.roles.tactician.tell.travelled(state, leg, report)
        self.progress.in_battle = report.state.battle is not None
        self._note_milestones(report.state, perception.frame + report.frames, ended=1)
        before = self.progress.steps
        self.progress.steps += report.steps
        self._count_decision(
            "overworld", leg.goal.kind, _leg_words(leg, report), leg.reason, selection, steps=report.steps
        )
        log.debug("  leg %s: %s", _leg_words(leg, report), report.reason)
        if leg.reason.startswith("stuck"):
            log.info("  %s", leg.reason)
        if report.sold:  # money for the gauntlet: worth a line of its own
            log.info("  %s; %s", leg.reason, "; ".join(_sold(report)))
        if self.progress.steps // HEARTBEAT_STEPS > before // HEARTBEAT_STEPS:
            log.info("overworld: %d steps", self.progress.steps)

    # -- the buttons and vision levels ---------------------------------------------------------
    def _button_step(self, steps: ButtonSteps) -> None:
        """One step the model plays itself: look (RAM for milestones, events and checkpoints; at the
        buttons level also for the model), render the screen, ask, press exactly what was answered."""
        perception = self._look()
        if self._aim_reached():
            return  # the look found the aim reached: no step is asked for past it
        state = perception.state
        self.progress.where = f"{state.overworld.map_name or state.overworld.map_id} " + (
            f"({state.overworld.x}, {state.overworld.y})"
        )
        emulator = self.roles.emulator.call
        screens = emulator.screens(steps.harness.screen_scale)
        reading = self.roles.vision.call.read_screen(screens.plain) if steps.reads_screen else None
        request = steps.request(self.progress.decisions + 1, state, screens, reading)
        choice = self.roles.tactician.call.choose_buttons(request)
        harness = steps.harness
        report = emulator.press_buttons(
            choice.buttons, harness.hold_frames, harness.release_frames, harness.settle_frames
        )
        self._live_frame = perception.frame + report.frames
        self.progress.in_battle = state.battle is not None
        self.progress.harness_fallbacks += choice.fallback
        steps.record(choice, perception.digest)
        answer = steps.answer_text(choice)
        pressed = ",".join(button.value for button in choice.buttons) or "no-op"
        self._count_decision(harness.level, choice.context, pressed, choice.reasoning, choice.selection,
                             answer=answer)  # fmt: skip
        log.info("  step %d: %s (%s; %s)", self.progress.decisions, pressed, choice.reasoning[:80] or "-",
                 _tier_words(choice.selection))  # fmt: skip
        for verdict in (choice.notes_verdict, choice.skill_verdict):
            if verdict:
                log.info("  %s", verdict)

    def _credit_skills(self, success: bool) -> None:
        for line in self.roles.tactician.call.settle_skills(success):
            log.debug("  skill %s", line)

    def _count_decision(
        self,
        kind: str,
        point: str,
        action: str,
        reason: str,
        selection: Selection | None = None,
        steps: int | None = None,
        answer: str = "",
        lessons: tuple[str, ...] = (),
    ) -> None:
        self.supervisor.settle()  # the last checkpoint is on disk before a decision after it is recorded
        self.progress.decisions += 1
        # `frame` and `seconds` (the run's play time) let `engine stats` put decisions on a time line.
        entry: dict[str, object] = {"seq": self.progress.decisions, "kind": kind, "point": point,
                                    "action": action, "reason": reason, "frame": self._live_frame,
                                    "seconds": round(self.play_time.seconds(), 2)}  # fmt: skip
        if steps is not None:
            entry["steps"] = steps
        if self.battle is not None and kind == "battle":
            entry["battle_id"] = self.battle.battle_id
            entry["lessons"] = len(lessons)
        self._fell_back(selection)
        if selection is not None:
            entry["model"] = selection.model_dump(mode="json", exclude={"kind"})
            self._model_calls += selection.calls
            self._model_cost += selection.cost_usd
        append_json_line(self.paths.decisions, entry)
        if self.live is not None:
            self.live.decided(self.progress.decisions, kind, action, reason, selection, answer, lessons)

    # -- stopping ----------------------------------------------------------------------------------
    def _summary(self, stopped: StopReason, error: str | None) -> RunSummary:
        progress = self.progress
        signal = self.stop.signal if stopped in SIGNAL_STOPS.values() else None
        return RunSummary(
            run_id=self.paths.run_id, game=self.game, stopped=stopped, error=error, signal=signal,
            battles=tuple(self.journal.read(progress.battles_ended)), decisions=progress.decisions,
            overworld_steps=progress.steps,
            llm_calls=self.usage.calls, cost_usd=self.usage.cost_usd, frames=self.frames,
            wall_seconds=round(self.play_time.seconds(), 3), llm=self.usage,
            recoveries=self.supervisor.recoveries, milestones=tuple(self.milestones.reached),
            harness=self.options.harness.level, harness_fallbacks=self._fallbacks(),
            rom_sha256=self.rom_sha256, start=progress.start,
        )  # fmt: skip

    def _fallbacks(self) -> int:
        """The no-ops of the buttons levels, or the decisions and directives the rule-based tier made at
        the decisions level because no model answered (engine level: the routing's business, in `llm`)."""
        return self.progress.harness_fallbacks

    def _fell_back(self, selection: Selection | None) -> None:
        """At the decisions level a decision the rule-based tier made after a step down (no tier, a
        failing or invalid model) is a fallback; one with nothing to ask (a single legal action) is not."""
        if self.options.harness.level != "decisions" or selection is None:
            return
        if selection.tier == "rule_based" and selection.steps:
            self.progress.harness_fallbacks += 1

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
        message = f"{exc}; newest intact checkpoint: {self.supervisor.newest_intact()}"
        log.error("run stopped: %s (make room, then carry on with --resume latest)", message)
        return message

    def _final_bookkeeping(self) -> None:
        """Whatever can still be saved after a failure is saved; a failing role here is only logged."""
        actions = [self._save_journey, self._count_frames, self._skills_unpaid, self._advance_play_clock,
                   self._hand_to_reflection, self._settle_reflection, self._add_up_usage]  # fmt: skip
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

    def _skills_unpaid(self) -> None:
        """The run ends: the skills shown since the last milestone were used without paying off."""
        if self.buttons is not None:
            self._credit_skills(success=False)

    def _settle_reflection(self) -> None:
        seconds = REFLECTION_SETTLE_SECONDS if self.stop.signal is None else SIGNAL_SETTLE_SECONDS
        if not self.roles.reflection.call.settle(seconds):
            log.warning("reflection still busy after %.0f s: its last model calls may be missing from the "
                        "summary (they are in llm.jsonl)", seconds)  # fmt: skip

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
        if frames > self.progress.frames_on_clock:
            self.roles.memory.tell.played(frames - self.progress.frames_on_clock)
            self.progress.frames_on_clock = frames

    def _save_journey(self) -> None:
        write_json_atomic(self.paths.run_dir / "journey.json", self.roles.observer.call.journey())

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
        emulator = by_role.get("emulator")
        frames = emulator.counters.get("frames", self.frames) if emulator is not None else self.frames
        return RunStatus(
            run_id=self.paths.run_id, state=self.phase, game=self.game, where=self.progress.where,
            battles=self.progress.battles_ended, decisions=self.progress.decisions, frames=int(frames),
            seconds_since_checkpoint=since if since is not None and since >= 0 else None,
            roles=tuple(reports),
        )  # fmt: skip


def _remove(path: Path) -> None:
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:  # a state left behind only takes room
        log.warning("could not remove %s: %s", path, exc.strerror or exc)


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


def _leg_words(leg: Leg, report: LegReport) -> str:
    goal = leg.goal.model_dump(exclude={"kind"})
    where = ",".join(str(value) for value in goal.values())
    talk = " and talk" if leg.interact else ""
    spun = (f"{report.spins} spins",) if report.spins else ()
    pushed = (f"{report.pushes} boulder pushes",) if report.pushes else ()
    bought = tuple(f"bought {purchase.quantity} {purchase.item}" for purchase in report.bought)
    did = (*report.field_moves, *report.taught, *report.rides, *report.picked, *report.used, *_sold(report),
           *bought, *spun, *pushed)  # fmt: skip
    done = "".join(f"; {what}" for what in did)
    return f"{leg.goal.kind} {where}{talk}: {report.outcome} after {report.steps} steps{done}"


def _sold(report: LegReport) -> tuple[str, ...]:
    """'sold 2 NUGGET for ¥10,000', each sale RAM confirmed, and the money it left in hand."""
    sold = tuple(f"sold {sale.quantity} {sale.item} for ¥{sale_price(sale.item, sale.quantity):,}"
                 for sale in report.sold)  # fmt: skip
    return (*sold, f"¥{report.state.progress.money:,} in hand") if sold else ()


def _tier_words(selection: Selection) -> str:
    """'rule_based', or 'acting, $0.0012, 1.4 s', or 'rule_based, wanted thinking: <why>'."""
    if selection.tier == "rule_based":
        if selection.wanted == "rule_based" or not selection.steps:
            return "rule_based"
        return f"rule_based, wanted {selection.wanted}: {selection.steps[-1]}"
    return f"{selection.tier}, ${selection.cost_usd:.4f}, {selection.latency_s:.1f} s"
