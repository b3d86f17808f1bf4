"""Errors of the checkpoint store. A checkpoint the user asked for that is missing or from another game is
theirs to fix (a one-line message, exit code 2); a full disk or a corrupt checkpoint is not."""

from __future__ import annotations

from pathlib import Path

from engine.errors import EngineError, UserInputError


class CheckpointError(EngineError):
    """Root of every error raised by `engine.checkpoints`."""

    # The reason of the checkpoint that failed, when it is told later than it happened (a write that ran
    # in the background is reported at the next checkpoint).
    reason: str | None = None


class CheckpointWriteError(CheckpointError):
    """A checkpoint could not be written (disk full, no permission...); the previous ones are untouched."""

    def __init__(self, directory: Path, cause: str, intact: str | None, code: int | None = None) -> None:
        super().__init__(
            f"cannot write a checkpoint in {directory}: {cause}; "
            f"newest intact checkpoint: {intact or 'none yet'}"
        )
        self.directory = directory
        self.cause = cause
        self.intact = intact
        self.code = code  # the OS error number (ENOSPC: the disk is full)


class CheckpointCorruptError(CheckpointError):
    """A checkpoint failed verification: a part is missing, truncated or altered, or the manifest is."""

    def __init__(self, path: Path, problems: tuple[str, ...]) -> None:
        super().__init__(
            f"checkpoint {path.parent.name}/{path.name} failed verification: {'; '.join(problems)}"
        )
        self.path = path
        self.problems = problems


class CheckpointIncompatibleError(CheckpointError, UserInputError):
    """The checkpoint is intact but not for this engine or this cartridge."""


class NoCheckpointError(CheckpointError, UserInputError):
    """No checkpoint matches what was asked for, or none of them verifies."""


class CheckpointPathError(CheckpointError, UserInputError):
    """A path given as a checkpoint is not inside a checkpoints/<run id>/ folder."""
