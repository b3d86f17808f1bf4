"""Errors of the closed loops: each says where the game was (decision point, last inputs, a frame hash)
when it did not do what was expected within its budget."""

from __future__ import annotations

from engine.errors import EngineError
from engine.game.models import DecisionPoint


class MechanicsError(EngineError):
    """Root of every error raised by `engine.mechanics`."""


class IntroError(MechanicsError):
    """The intro or the OPTION menu did not go as expected within its budget."""

    def __init__(
        self,
        message: str,
        point: DecisionPoint | None = None,
        last_inputs: list[str] | None = None,
        frame_hash: str | None = None,
    ) -> None:
        where = f" (at {point.value}, last inputs {last_inputs}, frame {frame_hash})" if point else ""
        super().__init__(message + where)
        self.point = point
        self.last_inputs = list(last_inputs or [])
        self.frame_hash = frame_hash


class ExecutionError(MechanicsError):
    """The game did not reach the expected point within the frame budget."""

    def __init__(self, message: str, point: DecisionPoint, last_inputs: list[str], frame_hash: str) -> None:
        super().__init__(f"{message} (at {point.value}, last inputs {last_inputs}, frame {frame_hash})")
        self.point = point
        self.last_inputs = last_inputs
        self.frame_hash = frame_hash


class OverworldError(MechanicsError):
    """The overworld never came back to a state the engine can act in."""


class MartError(MechanicsError):
    """A Poké Mart's menus were not where the purchase expected them within the budget."""
