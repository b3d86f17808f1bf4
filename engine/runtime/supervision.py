"""The conductor's duties as supervisor: checkpoints between cycles, and rolling every role back to one
after an actor died (or when a run resumes in a new process).

A rollback is consistent across roles: the emulator, the cognitive roles and the conductor's own counters
all go back to the same checkpoint. Accounting does not go back: lessons stay learned, the model ledger
keeps what was really spent, and the decision log keeps every line, with a `rollback` line saying which
ones no longer count (engine.runtime.decision_log).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from engine.actors.errors import RecoveryError, RoleDiedError
from engine.battles.tracker import BattleTracker
from engine.checkpointer.role import CheckpointRestored, ConductorPart
from engine.checkpoints.errors import CheckpointError, CheckpointWriteError
from engine.files import DISK_FULL, StorageError, append_json_line
from engine.messages import BattleRecord
from engine.runtime.conductor_state import ConductorState
from engine.runtime.decision_log import close_torn_line, lines_after, log_size

if TYPE_CHECKING:
    from engine.runtime.conductor import Conductor

log = logging.getLogger("engine.run")
DUE_POLL_SECONDS = 1.0  # how often the conductor asks the Checkpoint role's clock
AWAIT_POLL_SECONDS = 0.25


class Supervision:
    """Mixed into the Conductor (kept apart so each file stays about one thing)."""

    def _state(self: Conductor) -> ConductorState:
        # Built without validation: it runs at every cycle boundary and every part is already a model.
        return ConductorState.model_construct(
            battles=tuple(self.battles), decisions=self.decisions, steps=self.steps,
            tracker=self.tracker.state() if self.tracker is not None else None, directive=self.directive,
            last_map=self.last_map, where=self.where, in_battle=self._in_battle,
            frames_on_clock=self._frames_on_clock, played_seconds=round(self._played_seconds(), 3),
        )  # fmt: skip

    def _part(self: Conductor, state: ConductorState, offset: int) -> ConductorPart:
        return ConductorPart(state=state.model_dump(mode="json"), decisions=state.decisions,
                             decisions_offset=offset, battles=len(state.battles))  # fmt: skip

    def _played_seconds(self: Conductor) -> float:
        return self.played_before + time.monotonic() - self.started

    def _mark_boundary(self: Conductor) -> None:
        """Remember the state between cycles: a crash checkpoint is written from here, not from the
        middle of the cycle that failed."""
        self._boundary = (self._state(), log_size(self.paths.decisions))

    # -- writing ---------------------------------------------------------------------------------------
    def _checkpoint(self: Conductor, reason: str, at: tuple[ConductorState, int] | None = None) -> None:
        state, offset = at if at is not None else (self._state(), log_size(self.paths.decisions))
        # Counted as done even if the write fails: a full disk is told once per checkpoint due, not retried
        # at every decision.
        self._decisions_at_checkpoint = state.decisions
        try:
            saved = self.roles.checkpoint.call.save(reason, self._part(state, offset))
        except CheckpointWriteError as exc:
            if exc.code in DISK_FULL:  # the run's other files will not fit either: stop, nothing lost
                raise StorageError(exc.directory, exc.cause, exc.code) from exc
            log.error("checkpoint (%s) not written: %s", reason, exc)
            return
        except CheckpointError as exc:
            log.error("checkpoint (%s) not written: %s", reason, exc)
            return
        if saved is not None:
            log.info("checkpoint %s (%s): %.0f KB in %.0f ms", saved.name, reason, saved.bytes / 1024,
                     saved.write_seconds * 1000)  # fmt: skip

    def _checkpoint_at_boundary(self: Conductor) -> None:
        reason = self._boundary_reason()
        if reason is not None:
            self._checkpoint(reason)

    def _boundary_reason(self: Conductor) -> str | None:
        if self._battle_ended:
            self._battle_ended = False
            return "battle_end"
        if self._in_battle and self.tracker is None:
            return "battle_start"
        if self.decisions - self._decisions_at_checkpoint >= self.options.checkpoint_every_decisions:
            return "decisions"
        now = time.monotonic()
        if now - self._due_asked >= DUE_POLL_SECONDS:
            self._due_asked = now
            self._check_actors()
            if self.roles.checkpoint.call.due():
                return "timer"
        return None

    def _check_actors(self: Conductor) -> None:
        """Raise RoleDiedError for a role whose actor died and was re-created since the last look, even
        if nothing the conductor called failed (a service the roles call, a notification's target)."""
        seen = self._incarnations()
        for role, born in seen.items():
            if self._lives.get(role, born) != born:
                raise RoleDiedError(role, "it was restarted by Ray (its state is gone)")
        self._lives = seen

    def _incarnations(self: Conductor) -> dict[str, str]:
        return {handle.role: handle.incarnation() for handle in self.roles.all()}

    def _exit_checkpoint(self: Conductor, reason: str) -> None:
        """On a failure: the state of the last cycle boundary (the emulator's as it is now), if the roles
        still answer. Never raises: the run is ending and its summary must still be written."""
        if self._boundary is None:
            return  # it failed while starting: there is no played state to keep
        try:
            self._checkpoint(reason, self._boundary)
        except Exception as exc:
            log.warning("no %s checkpoint: %s (the latest checkpoint stays the one to resume)", reason, exc)

    # -- rolling back ----------------------------------------------------------------------------------
    def _recover(self: Conductor, died: RoleDiedError) -> None:
        """Roll back after `died`; another death during the rollback starts it again (each counts)."""
        while True:
            self.recoveries += 1
            self.metrics.recovery(died.role)
            if self.recoveries > self.options.max_recoveries:
                log.error("%s; %d rollbacks already: giving up", died, self.options.max_recoveries)
                raise died
            log.error("%s: waiting for the actors, then rolling back to the latest checkpoint", died)
            try:
                self._roll_back(str(died))
                return
            except RoleDiedError as again:
                died = again

    def _roll_back(self: Conductor, why: str) -> None:
        self._await_roles()
        before, self._lives = self._lives, self._incarnations()
        try:
            restored: CheckpointRestored = self.roles.checkpoint.call.restore(None)
        except CheckpointError as exc:
            raise RecoveryError(f"{why}; no checkpoint to roll back to: {exc}") from exc
        self._rolled_back(restored, "rollback", why)
        if before.get("reflection") != self._lives["reflection"]:
            self._reflect_again()

    def _reflect_again(self: Conductor) -> None:
        """A re-created Reflection lost its queue: hand it the battles that have no report yet."""
        for battle in self.battles:
            if not self.paths.reflection(battle.battle_id).exists():
                log_path = self.paths.battle_log(battle.battle_id)
                self.roles.reflection.tell.receive(BattleRecord(
                    battle_id=battle.battle_id, outcome=battle.outcome, opponent=battle.opponent,
                    log_path=str(log_path)))  # fmt: skip

    def _await_roles(self: Conductor) -> None:
        """Every role answers again (Ray restarts a dead actor; calls made meanwhile wait for it)."""
        deadline = time.monotonic() + self.options.recovery_timeout
        for handle in self.roles.all():
            while True:
                try:
                    handle.call.report()
                    break
                except RoleDiedError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(AWAIT_POLL_SECONDS)

    def _resume(self: Conductor, spec: str | None) -> None:
        restored: CheckpointRestored = self.roles.checkpoint.call.restore(spec)
        skipped = (*self.options.resume_skipped, *restored.skipped)
        self._rolled_back(
            restored.model_copy(update={"skipped": skipped}), "resume", self.options.resume_reason
        )
        log.info("resumed run %s (%s) from checkpoint %s (%s): %d battles, %d decisions, frame %d",
                 self.paths.run_id, self.options.resume_reason, restored.name, restored.manifest.reason,
                 len(self.battles), self.decisions, restored.manifest.frames)  # fmt: skip

    def _rolled_back(self: Conductor, restored: CheckpointRestored, kind: str, why: str) -> None:
        for skipped in restored.skipped:
            log.warning("checkpoint %s failed verification: using the previous one", skipped)
        state = ConductorState.model_validate(restored.conductor)
        offset = restored.manifest.decisions_offset
        path = self.paths.decisions
        close_torn_line(path)
        undone = lines_after(path, offset)
        self._apply(state)
        entry: dict[str, object] = {"kind": kind, "reason": why, "checkpoint": restored.name,
                                    "after_offset": offset, "decisions": state.decisions,
                                    "decisions_rolled_back": len(undone)}  # fmt: skip
        if restored.skipped:
            entry["skipped_checkpoints"] = list(restored.skipped)
        if undone:
            entry["rolled_back_seqs"] = [undone[0].get("seq"), undone[-1].get("seq")]
        append_json_line(path, entry)
        if kind == "rollback":
            log.warning("rolled back to checkpoint %s: %d decisions after it are marked rolled back",
                        restored.name, len(undone))  # fmt: skip
        self._mark_boundary()

    def _apply(self: Conductor, state: ConductorState) -> None:
        self.battles = list(state.battles)
        self.decisions = self._decisions_at_checkpoint = state.decisions
        self.steps = state.steps
        self.tracker = BattleTracker.from_state(state.tracker) if state.tracker is not None else None
        self.directive = state.directive
        self.last_map = state.last_map
        self.where = state.where
        self._in_battle = state.in_battle
        self._frames_on_clock = state.frames_on_clock
        self.played_before, self.started = state.played_seconds, time.monotonic()
        self._battle_ended = False
