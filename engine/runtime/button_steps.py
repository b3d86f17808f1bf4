"""The conductor's side of the buttons and vision levels: the request for each step, the counts that
stop a run whose model keeps failing or whose game stopped changing, and the step's record."""

from __future__ import annotations

import json
import logging

from engine.config import HarnessConfig
from engine.game.models import GameState
from engine.harness.levels import shows_ram
from engine.harness.ram_text import describe_state
from engine.harness.steps import ButtonChoice, ButtonRequest, ReadScreen, Screens
from engine.runtime.summary import StopReason

log = logging.getLogger("engine.run")


class ButtonSteps:
    def __init__(self, harness: HarnessConfig) -> None:
        self.harness = harness
        # At the vision level the screen is read from pixels for matching skills, and for the prompt
        # when `screen_reading` is on; at the buttons level RAM already says it.
        self.reads_screen = harness.level == "vision" and (harness.skills or harness.screen_reading)
        self.noops_in_row = 0
        self.unchanged_in_row = 0
        self._last_digest: str | None = None

    def request(
        self, step: int, state: GameState, screens: Screens, reading: ReadScreen | None
    ) -> ButtonRequest:
        level = self.harness.level
        if shows_ram(level):
            where = state.overworld.map_name or "any"
            ram = describe_state(state)
            return ButtonRequest(level=level, step=step, screen_png=screens.scaled, ram_text=ram,
                                 screen_kind=state.screen.kind.value, map_name=where)  # fmt: skip
        text = reading.as_text() if reading is not None and self.harness.screen_reading else ""
        kind = reading.screen if reading is not None else "any"
        return ButtonRequest(level=level, step=step, screen_png=screens.scaled, screen_text=text,
                             screen_kind=kind)  # fmt: skip

    def record(self, choice: ButtonChoice, digest: str) -> None:
        self.noops_in_row = self.noops_in_row + 1 if choice.fallback else 0
        self.unchanged_in_row = self.unchanged_in_row + 1 if digest == self._last_digest else 0
        self._last_digest = digest

    def stop_reason(self) -> StopReason | None:
        if self.noops_in_row >= self.harness.max_noops_in_row:
            log.error("stopping: %d steps in a row without a valid answer from the model (see llm.jsonl)",
                      self.noops_in_row)  # fmt: skip
            return "model_failing"
        if self.unchanged_in_row >= self.harness.stall_steps:
            log.error(
                "stopping: %d steps in a row changed nothing in the game's memory", self.unchanged_in_row
            )
            return "stalled"
        return None

    @staticmethod
    def answer_text(choice: ButtonChoice) -> str:
        """What the model answered beyond its reasoning, for the live page."""
        return json.dumps({"observations": choice.observations, "confidence": choice.confidence,
                           "fallback": choice.fallback}, indent=1)  # fmt: skip
