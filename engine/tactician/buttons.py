"""The buttons and vision harness levels on the tactician's side: one model call a step, its answer
validated (the gateway repairs once), and a counted no-op when no valid answer comes."""

from __future__ import annotations

from collections import deque

from engine.config import Tier
from engine.game.buttons import Button
from engine.harness.memory import NotesAndSkills
from engine.harness.steps import HISTORY_SHOWN, ButtonChoice, ButtonRequest, history_lines
from engine.llm.answers import ButtonAnswer
from engine.llm.button_prompts import render_buttons
from engine.llm.port import GatewayPort, LiveTiers
from engine.llm.tasks import ModelTask
from engine.llm.wire import ImagePart
from engine.messages import Selection


class ButtonPlayer:
    def __init__(
        self, gateway: GatewayPort | None, memory: NotesAndSkills | None, tier: Tier = "acting"
    ) -> None:
        self.gateway = gateway
        self.memory = memory
        self.tier = tier
        self._tiers = LiveTiers(gateway)
        self.history: deque[tuple[int, ButtonChoice]] = deque(maxlen=HISTORY_SHOWN)
        self.counts = {
            "steps": 0,
            "noops": 0,
            "notes_rewritten": 0,
            "skills_proposed": 0,
            "skills_credited": 0,
        }
        # Skills shown since the last milestone: a milestone reached credits each as a success, the run's
        # end without one as a use that did not pay off.
        self.shown: set[str] = set()

    def choose(self, request: ButtonRequest) -> ButtonChoice:
        self.counts["steps"] += 1
        reason = f"{request.level} level: the model presses the buttons"
        if self.gateway is None or not self._tiers():
            selection = Selection(tier="rule_based", wanted=self.tier, reason=reason,
                                  steps=("no model tier is available",))  # fmt: skip
            return self._noop(request, selection)
        notes = self.memory.notes() if self.memory is not None else ""
        skills = ""
        if self.memory is not None:
            skills = self.memory.skills_for(request.screen_kind, request.map_name)
            self.shown.update(self.memory.skill_names_for(request.screen_kind, request.map_name))
        system, user = render_buttons(request, notes, skills, history_lines(self.history))
        image = (ImagePart.png(request.screen_png),)
        task = ModelTask(role="tactician", answer="buttons", wanted=self.tier, reason=reason, system=system,
                         user=user, images=image, cache_system=True)  # fmt: skip
        outcome = self.gateway.ask(task)
        answer = outcome.answer_as(ButtonAnswer)
        if answer is None:
            return self._noop(request, outcome.selection)
        choice = ButtonChoice(
            buttons=tuple(Button(name) for name in answer.button_presses),
            reasoning=answer.reasoning,
            observations=answer.observations,
            context=answer.context_detected,
            confidence=answer.confidence,
            selection=outcome.selection,
            notes_verdict=self._rewrite(answer.notes),
            skill_verdict=self._propose(answer.new_skill),
        )
        self.history.append((request.step, choice))
        return choice

    def _noop(self, request: ButtonRequest, selection: Selection) -> ButtonChoice:
        self.counts["noops"] += 1
        why = selection.steps[-1] if selection.steps else "no valid answer"
        choice = ButtonChoice(fallback=True, reasoning=f"no-op: {why}"[:200], selection=selection)
        self.history.append((request.step, choice))
        return choice

    def _rewrite(self, notes: str) -> str:
        if not notes.strip() or self.memory is None:
            return ""
        self.counts["notes_rewritten"] += 1
        return self.memory.rewrite_notes(notes)

    def _propose(self, skill: str) -> str:
        if not skill.strip() or self.memory is None:
            return ""
        self.counts["skills_proposed"] += 1
        return self.memory.propose_skill_markdown(skill)

    def settle_skills(self, success: bool) -> list[str]:
        """Credit the skills shown since the last call (a milestone reached, or the run's end)."""
        if self.memory is None:
            return []
        lines = [self.memory.credit(name, success) for name in sorted(self.shown)]
        self.counts["skills_credited"] += len(lines)
        self.shown.clear()
        return lines

    def forget(self) -> None:
        """After a rollback: the steps since the checkpoint did not happen; the gateway may be new."""
        self.history.clear()
        self._tiers.forget()
