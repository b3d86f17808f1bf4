"""The decisions level out of battle: the options for the next leg (the objective's next step, the
explorer's goal, the nearest Pokémon Center when the team is hurt), and the model's pick among them.
The rule-based pick, the first option, is what the engine level would walk."""

from __future__ import annotations

from engine.config import Tier
from engine.game.models import GameState
from engine.harness.steps import LegChoice
from engine.llm.answers import ChoiceAnswer
from engine.llm.choice_prompts import render_choice
from engine.llm.port import GatewayPort, LiveTiers
from engine.llm.render import ActionOption
from engine.llm.tasks import ModelTask
from engine.messages import Directive, Selection
from engine.world.goals import Leg

QUESTION = "Where next, out of battle? The engine walks the leg you choose (it may fight on the way)."
LegOption = tuple[str, Leg]


class LegChooser:
    def __init__(self, gateway: GatewayPort | None, tier: Tier = "acting") -> None:
        self.gateway = gateway
        self.tier = tier
        self._tiers = LiveTiers(gateway)

    def choose(self, state: GameState, directive: Directive | None, options: list[LegOption]) -> LegChoice:
        labels = tuple(label for label, _ in options)
        reason = "decisions level: every leg is asked"
        selection = Selection(tier="rule_based", wanted=self.tier, reason=reason)
        first = LegChoice(leg=options[0][1], label=labels[0], selection=selection, options=labels)
        if self.gateway is None or not self._tiers():
            return first.model_copy(update={"selection": selection.model_copy(
                update={"steps": ("no model tier is available",)})})  # fmt: skip
        shown = [
            ActionOption(id=i, label=label, note=leg.reason[:160]) for i, (label, leg) in enumerate(options)
        ]
        system, user = render_choice(QUESTION, state, directive, shown)
        task = ModelTask(role="tactician", answer="choice", wanted=self.tier, reason=reason, system=system,
                         user=user, action_ids=tuple(option.id for option in shown))  # fmt: skip
        outcome = self.gateway.ask(task)
        answer = outcome.answer_as(ChoiceAnswer)
        if answer is None:
            return first.model_copy(update={"selection": outcome.selection})
        label, leg = options[answer.choice_id]
        leg = leg.model_copy(update={"reason": f"{answer.reasoning} ({leg.reason})"[:300]})
        return LegChoice(leg=leg, label=label, selection=outcome.selection, options=labels)

    def forget(self) -> None:
        self._tiers.forget()
