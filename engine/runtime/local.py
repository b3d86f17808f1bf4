"""The in-process conductor (`engine run --local`): every role as a plain object in this process.

One cycle: if a battle is on, advance to the next choice, let the battle policy decide and execute it;
otherwise clear the overworld and take one step chosen by the explorer. Limits are checked between cycles,
so a run always stops at a clean boundary, and the summary is written however the run ends.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from engine.config import EngineConfig
from engine.emulator.session import EmulatorSession, open_session
from engine.errors import EngineError, UserInputError
from engine.game.actions import describe, legal_actions
from engine.game.battle import BattleError, DecisionRecord
from engine.game.executor import BattleExecutor
from engine.game.intro import reach_overworld
from engine.game.models import DecisionPoint, GameState
from engine.game.overworld import OverworldDriver, StepOutcome
from engine.runtime.battles import BattleTracker
from engine.runtime.layout import RunPaths, append_json_line, write_json_atomic
from engine.runtime.summary import BattleSummary, RunSummary, StopReason
from engine.tactician.explorer import Explorer, NavDecision
from engine.tactician.rule_based import RuleBasedPolicy

log = logging.getLogger("engine.run")
HEARTBEAT_STEPS = 200


@dataclass(frozen=True)
class RunOptions:
    rom: Path
    state: Path | None = None
    max_battles: int | None = None
    max_decisions: int | None = None
    seed: int = 0


class LocalRun:
    def __init__(self, config: EngineConfig, options: RunOptions, paths: RunPaths) -> None:
        self.config = config
        self.options = options
        self.paths = paths
        self.policy = RuleBasedPolicy()
        self.explorer = Explorer(seed=options.seed)
        self.battles: list[BattleSummary] = []
        self.decisions = 0
        self.steps = 0
        self.tracker: BattleTracker | None = None
        self.last_map: int | None = None

    # -- lifecycle ---------------------------------------------------------------------------------
    def run(self) -> RunSummary:
        started = time.monotonic()
        stopped: StopReason = "error"
        error: str | None = None
        game, frames = "?", 0
        with open_session(self.options.rom, self.config.emulator) as session:
            game = session.game.value
            try:
                stopped = self._play(session)
            except UserInputError:
                raise  # a bad save state or similar: nothing was played, the CLI explains it
            except KeyboardInterrupt:
                stopped = "interrupted"
                log.info("interrupted: stopping after writing the summary")
            except EngineError as exc:
                error = str(exc)
                log.error("run failed: %s", exc)
            finally:
                frames = session.frame
        summary = RunSummary(
            run_id=self.paths.run_id,
            game=game,
            stopped=stopped,
            error=error,
            battles=tuple(self.battles),
            decisions=self.decisions,
            overworld_steps=self.steps,
            llm_calls=0,
            cost_usd=0.0,
            frames=frames,
            wall_seconds=round(time.monotonic() - started, 3),
        )
        write_json_atomic(self.paths.summary, summary.model_dump(mode="json"))
        return summary

    def _play(self, session: EmulatorSession) -> StopReason:
        if self.options.state is not None:
            session.load_state_file(self.options.state)
            log.info("loaded save state %s", self.options.state.name)
        self.session = session
        self.executor = BattleExecutor(session, self.config.emulator.max_wait_frames)
        self.driver = OverworldDriver(session)
        if self.driver.in_battle():
            log.info("the save state is in a battle: playing it first")
        else:
            report = reach_overworld(
                session, self.config.player, on_step=lambda line: log.info("intro: %s", line)
            )
            log.info("in the overworld after %d frames", report.frames)
        while (reason := self._limit_reached()) is None:
            self._cycle()
        log.info("stopping: %s", reason.replace("_", " ") + " reached")
        return reason

    def _limit_reached(self) -> StopReason | None:
        options = self.options
        if options.max_battles is not None and len(self.battles) >= options.max_battles:
            return "max_battles"
        if options.max_decisions is not None and self.decisions >= options.max_decisions:
            return "max_decisions"
        return None

    # -- one cycle ---------------------------------------------------------------------------------
    def _cycle(self) -> None:
        if self.tracker is not None or self.driver.in_battle():
            state = self.executor.advance()
            if state.decision_point is DecisionPoint.OVERWORLD_FREE and not self.driver.in_battle():
                self._finish_battle()
            else:
                self._battle_decision(state)
            return
        state = self.driver.settle()
        if state.battle is None and not self.driver.in_battle():
            self._overworld_decision(state)

    def _battle_decision(self, state: GameState) -> None:
        if self.tracker is None:
            self._start_battle(state)
        assert self.tracker is not None
        decision = self.policy.decide(state, legal_actions(state))
        if decision is None:
            raise BattleError(f"no legal action at {state.decision_point.value}")
        record = DecisionRecord(
            point=state.decision_point, action=describe(decision.action, state), reason=decision.reason
        )
        self.tracker.note(record)
        self._count_decision("battle", record.point.value, record.action, record.reason)
        log.info("  %s: %s (%s)", record.point.value, record.action, record.reason)
        self.executor.execute(decision.action)

    def _start_battle(self, state: GameState) -> None:
        battle_id = f"{self.paths.run_id}-b{len(self.battles) + 1:03d}"
        self.executor.last_in_battle = state if state.battle is not None else None
        self.tracker = BattleTracker(battle_id, self.session.frame, state)
        enemy = state.battle.enemy if state.battle else None
        level = f" L{enemy.level}" if enemy is not None else ""
        log.info(
            "battle %d started: %s %s%s",
            len(self.battles) + 1,
            self.tracker.battle_type,
            self.tracker.opponent,
            level,
        )

    def _finish_battle(self) -> None:
        assert self.tracker is not None
        result = self.session.read_u8(self.session.ram_map.wBattleResult)
        battle = self.tracker.finish(
            self.executor.last_in_battle, result, self.session.frame, self.paths.run_id
        )
        self.tracker = None
        self.battles.append(battle.summary)
        write_json_atomic(self.paths.battle_log(battle.summary.battle_id), battle.model_dump(mode="json"))
        s = battle.summary
        log.info(
            "battle %d: %s vs %s in %d turns (%d decisions, %d frames, %.1f s)",
            len(self.battles),
            s.outcome,
            s.opponent,
            s.turns,
            s.decisions,
            s.frames,
            s.wall_seconds,
        )

    def _overworld_decision(self, state: GameState) -> None:
        where = state.overworld
        if where.map_id != self.last_map:
            self.last_map = where.map_id
            log.info("overworld: %s (%d, %d)", where.map_name or f"map {where.map_id}", where.x, where.y)
        decision = self.explorer.decide(where)
        outcome = self._take(decision)
        after = self.driver.state().overworld
        self.explorer.record(where, decision, outcome, after)
        self.steps += 1
        self._count_decision("overworld", decision.kind, str(decision.direction or "A"), decision.reason)
        if self.steps % HEARTBEAT_STEPS == 0:
            log.info("overworld: %d steps, %d tiles seen", self.steps, len(self.explorer.visits))

    def _take(self, decision: NavDecision) -> StepOutcome:
        if decision.direction is None:
            self.driver.interact()
            return StepOutcome.INTERRUPTED
        return self.driver.step(decision.direction)

    def _count_decision(self, kind: str, point: str, action: str, reason: str) -> None:
        self.decisions += 1
        entry = {
            "seq": self.decisions,
            "frame": self.session.frame,
            "kind": kind,
            "point": point,
            "action": action,
            "reason": reason,
        }
        if self.tracker is not None and kind == "battle":
            entry["battle_id"] = self.tracker.battle_id
        append_json_line(self.paths.decisions, entry)
