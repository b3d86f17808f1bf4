"""The conductor's supervisor: checkpoints between cycles, and rolling every role back to one after an
actor died (or when a run resumes in a new process).

A rollback is consistent across roles: the emulator, the cognitive roles and the run's progress all go
back to the same checkpoint. Accounting does not go back: lessons stay learned, the model ledger keeps
what was really spent, and the decision log keeps every line, with a `rollback` line saying which ones no
longer count (engine.runtime.decision_log).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from engine.actors.errors import RecoveryError, RoleDiedError
from engine.actors.roles import Roles
from engine.checkpointer.role import (
    ROUTINE_BATTLE_END,
    CheckpointRestored,
    CheckpointTaken,
    ConductorPart,
    Written,
)
from engine.checkpointer.writer import is_disk_full
from engine.checkpoints.errors import CheckpointError, CheckpointWriteError
from engine.files import StorageError, append_json_line
from engine.layout import RunPaths
from engine.messages import BattleRecord
from engine.runtime.decision_log import close_torn_line, lines_after, log_size
from engine.runtime.options import RunOptions
from engine.runtime.progress import RunProgress
from engine.telemetry.metrics import RunMetrics

log = logging.getLogger("engine.run")
DUE_POLL_SECONDS = 1.0  # how often the Checkpoint role's clock and the actors' lives are asked
AWAIT_POLL_SECONDS = 0.25
# The run ends after these: they, and every checkpoint before them, are on disk before `checkpoint` returns.
FINAL_REASONS = frozenset({"stop", "interrupted", "crash", "frozen"})

Boundary = tuple[RunProgress, int]  # the run's progress between two cycles, and decisions.jsonl's size


class Supervisor:
    def __init__(
        self,
        roles: Roles,
        options: RunOptions,
        paths: RunPaths,
        metrics: RunMetrics,
        progress_now: Callable[[], RunProgress],
    ) -> None:
        self.roles = roles
        self.options = options
        self.paths = paths
        self.metrics = metrics
        self.progress_now = progress_now  # the conductor's progress as a checkpoint would keep it now
        self.recoveries = 0
        self.decisions_at_checkpoint = 0
        self._due_asked = time.monotonic()
        self._boundary: Boundary | None = None
        self._lives: dict[str, str] = {}  # each role's incarnation when last looked at
        self._writing = False  # a checkpoint was taken and its write not yet heard of

    def watch(self) -> None:
        """From here on, an actor re-created by Ray is noticed."""
        self._lives = self._incarnations()

    def mark_boundary(self) -> None:
        """Remember the progress between cycles: a crash checkpoint is written from here, not from the
        middle of the cycle that failed."""
        self._boundary = (self.progress_now(), log_size(self.paths.decisions))

    # -- writing -----------------------------------------------------------------------------------------
    def checkpoint(self, reason: str, at: Boundary | None = None) -> CheckpointTaken | None:
        """A checkpoint of `at` (default: now); None when none was taken. The Checkpoint role writes it in
        the background, and `settle` hears how that went (the run's last checkpoint is waited for here): a
        full disk raises StorageError, the run stops and nothing is lost; any other failed write is one
        line and the run goes on."""
        progress, offset = at if at is not None else (self.progress_now(), log_size(self.paths.decisions))
        part = ConductorPart(state=progress.model_dump(mode="json"), decisions=progress.decisions,
                             decisions_offset=offset, battles=progress.battles_ended)  # fmt: skip
        try:
            taken = self.roles.checkpoint.call.save(reason, part, reason in FINAL_REASONS)
        except CheckpointWriteError as exc:
            exc.reason = exc.reason or reason
            self.decisions_at_checkpoint = progress.decisions  # told once per checkpoint due, not retried
            self._tell(Written(failed=(exc,)))
            return None
        except CheckpointError as exc:
            self.decisions_at_checkpoint = progress.decisions
            log.error("checkpoint (%s) not written: %s", reason, exc)
            return None
        if taken is not None:  # None: one the Checkpoint role skips (battle checkpoints off, a wild battle)
            self.decisions_at_checkpoint = progress.decisions
            self._writing = reason not in FINAL_REASONS
            self._tell(taken.written)
        return taken

    def settle(self) -> None:
        """Before the next decision is recorded: the checkpoint taken last is on disk, and how its write
        went is told (a full disk stops the run here). Its write ran in the background while the cycle
        played, so this seldom waits; and so a killed process never loses more than `every_decisions`
        decisions, as when checkpoints were written while the conductor waited."""
        if self._writing:
            self._writing = False
            self._tell(self.roles.checkpoint.call.flush())

    def _tell(self, written: Written) -> None:
        """One line per checkpoint written or failed since the last call; StorageError for a full disk."""
        for saved in written.saved:
            log.info("checkpoint %s (%s): %.0f KB, %.0f ms to take, %.0f ms to write", saved.name,
                     saved.reason, saved.bytes / 1024, saved.take_seconds * 1000,
                     saved.write_seconds * 1000)  # fmt: skip
        for failure in written.failed:
            if is_disk_full(failure):  # the run's other files will not fit either: stop, nothing lost
                raise StorageError(failure.directory, failure.cause, failure.code) from failure
        for failure in written.failed:
            log.error("checkpoint (%s) not written: %s", failure.reason, failure)

    def checkpoint_if_due(self, *, battle_ended: str | None, decisions: int) -> None:
        """`battle_ended`: the reason for the battle that just ended ("battle_end", or "wild_battle_end",
        which the Checkpoint role skips soon after another checkpoint), None if none did."""
        reason = self._due_reason(battle_ended, decisions)
        if reason is not None:
            self.checkpoint(reason)

    def _due_reason(self, battle_ended: str | None, decisions: int) -> str | None:
        """Why a checkpoint is due now, if one is. A wild battle's end comes last: the role may skip it,
        and a checkpoint due for another reason is then taken all the same."""
        if battle_ended is not None and battle_ended != ROUTINE_BATTLE_END:
            return battle_ended
        if decisions - self.decisions_at_checkpoint >= self.options.checkpoint_every_decisions:
            return "decisions"
        now = time.monotonic()
        if now - self._due_asked >= DUE_POLL_SECONDS:
            self._due_asked = now
            self._check_actors()
            if self.roles.checkpoint.call.due():
                return "timer"
        return battle_ended

    def exit_checkpoint(self, reason: str) -> None:
        """On a failure: the progress of the last cycle boundary (the emulator's as it is now), if the
        roles still answer. Never raises: the run is ending and its summary must still be written."""
        if self._boundary is None:
            return  # it failed while starting: there is no played state to keep
        try:
            self.checkpoint(reason, self._boundary)
        except Exception as exc:
            log.warning("no %s checkpoint: %s (the latest checkpoint stays the one to resume)", reason, exc)

    def newest_intact(self) -> str:
        try:
            return self.roles.checkpoint.call.newest_intact() or "none"
        except Exception as error:  # said in the run's last line, whatever else is broken
            return f"unknown ({error})"

    # -- noticing deaths ---------------------------------------------------------------------------------
    def _check_actors(self) -> None:
        """Raise RoleDiedError for a role whose actor died and was re-created since the last look, even
        if nothing the conductor called failed (a service the roles call, a notification's target)."""
        seen = self._incarnations()
        for role, born in seen.items():
            if self._lives.get(role, born) != born:
                raise RoleDiedError(role, "it was restarted by Ray (its state is gone)")
        self._lives = seen

    def _incarnations(self) -> dict[str, str]:
        return {handle.role: handle.incarnation() for handle in self.roles.all()}

    # -- rolling back ------------------------------------------------------------------------------------
    def recover(self, died: RoleDiedError) -> RunProgress:
        """Roll back after `died`; another death during the rollback starts it again (each counts)."""
        while True:
            self.recoveries += 1
            self.metrics.recovery(died.role)
            if self.recoveries > self.options.max_recoveries:
                log.error("%s; %d rollbacks already: giving up", died, self.options.max_recoveries)
                raise died
            log.error("%s: waiting for the actors, then rolling back to the latest checkpoint", died)
            try:
                return self._roll_back(str(died))
            except RoleDiedError as again:
                died = again

    def roll_back_to_newest(self, why: str) -> RunProgress | None:
        """Every role back to the newest intact checkpoint, as after a death but counted as no recovery (the
        run ends: a frozen game); None when there is no checkpoint yet."""
        if self.roles.checkpoint.call.newest_intact() is None:
            log.info("no checkpoint yet: nothing to roll back to")
            return None
        return self._roll_back(why)

    def _roll_back(self, why: str) -> RunProgress:
        self._await_roles()
        before, self._lives = self._lives, self._incarnations()
        try:
            restored = self.roles.checkpoint.call.restore(None)
        except CheckpointError as exc:
            raise RecoveryError(f"{why}; no checkpoint to roll back to: {exc}") from exc
        progress = self._rolled_back(restored, "rollback", why)
        if before.get("reflection") != self._lives["reflection"]:
            self._reflect_again(progress)
        return progress

    def _reflect_again(self, progress: RunProgress) -> None:
        """A re-created Reflection lost its queue: hand it the battles that have no report yet (of the last
        few: reflection keeps up with the battles, and only its queue was lost)."""
        for battle in progress.recent_battles:
            if not self.paths.reflection(battle.battle_id).exists():
                log_path = self.paths.battle_log(battle.battle_id)
                self.roles.reflection.tell.receive(BattleRecord(
                    battle_id=battle.battle_id, outcome=battle.outcome, opponent=battle.opponent,
                    log_path=str(log_path)))  # fmt: skip

    def _await_roles(self) -> None:
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

    def resume(self, spec: str | None) -> RunProgress:
        restored = self.roles.checkpoint.call.restore(spec)
        skipped = (*self.options.resume_skipped, *restored.skipped)
        progress = self._rolled_back(
            restored.model_copy(update={"skipped": skipped}), "resume", self.options.resume_reason
        )
        log.info("resumed run %s (%s) from checkpoint %s (%s): %d battles, %d decisions, frame %d",
                 self.paths.run_id, self.options.resume_reason, restored.name, restored.manifest.reason,
                 progress.battles_ended, progress.decisions, restored.manifest.frames)  # fmt: skip
        return progress

    def _rolled_back(self, restored: CheckpointRestored, kind: str, why: str) -> RunProgress:
        for skipped in restored.skipped:
            log.warning("checkpoint %s failed verification: using the previous one", skipped)
        progress = RunProgress.model_validate(restored.conductor)
        offset = restored.manifest.decisions_offset
        path = self.paths.decisions
        close_torn_line(path)
        undone = lines_after(path, offset)
        entry: dict[str, object] = {"kind": kind, "reason": why, "checkpoint": restored.name,
                                    "after_offset": offset, "decisions": progress.decisions,
                                    "decisions_rolled_back": len(undone)}  # fmt: skip
        if restored.skipped:
            entry["skipped_checkpoints"] = list(restored.skipped)
        if undone:
            entry["rolled_back_seqs"] = [undone[0].get("seq"), undone[-1].get("seq")]
        append_json_line(path, entry)
        if kind == "rollback":
            log.warning("rolled back to checkpoint %s: %d decisions after it are marked rolled back",
                        restored.name, len(undone))  # fmt: skip
        self.decisions_at_checkpoint = progress.decisions
        return progress
