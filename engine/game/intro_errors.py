"""The root of the errors the new-game intro and the OPTION menu raise.

It lives apart from `engine.game.intro` so that the pure modules (`engine.game.naming`) can derive their
errors from it without importing the closed-loop driver.
"""

from __future__ import annotations

from engine.errors import EngineError
from engine.game.models import DecisionPoint


class IntroError(EngineError):
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
