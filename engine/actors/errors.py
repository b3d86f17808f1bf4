"""Errors of the actor runtime: a role that died, a cluster that cannot be reached."""

from __future__ import annotations

from engine.errors import EngineError, UserInputError


class ActorError(EngineError):
    """Root of every error raised by `engine.actors`."""


class RoleDiedError(ActorError):
    """A role's actor is gone (crashed, killed, or its node left): its calls can never be answered."""

    def __init__(self, role: str, detail: str) -> None:
        super().__init__(f"the {role} actor died: {detail}")
        self.role = role
        self.detail = detail


class ClusterUnavailableError(ActorError, UserInputError):
    """No Ray cluster answers at the address the user gave (or none is running for `--address auto`)."""


class RecoveryError(ActorError):
    """A role died and the run could not be rolled back (no checkpoint to go back to, or too many)."""
