"""The Tactician role: one choice per decision point, from the legal set, given the directive.

The free policy always decides first: its choice is the fallback and its estimates set the battle's
closeness. When the router wants a model tier for this decision, the model picks an action id from the
enumerated legal set; anything else (no tier, open breaker, over budget, invalid answer) keeps the free
policy's choice, with the reason recorded.
"""

from __future__ import annotations

import logging
from collections import deque

from engine.battles.errors import BattleError
from engine.combat.chance import percent
from engine.combat.fighter import moves_of
from engine.combat.futility import futile
from engine.combat.judge import Judge
from engine.combat.position import duel_of
from engine.config import RoutingConfig, Tier
from engine.frozen import Frozen
from engine.game.actions import BattleAction, Evolve, Run, describe, legal_actions
from engine.game.assessment import Fairness
from engine.game.damage import stat_at_level
from engine.game.models import BattleMon, DecisionPoint, GameState
from engine.game.tables import game_data
from engine.harness.steps import ButtonChoice, ButtonRequest, LegChoice
from engine.llm.answers import TacticalAnswer
from engine.llm.complexity import profile
from engine.llm.port import GatewayPort, LiveTiers
from engine.llm.render import action_options, render_tactical
from engine.llm.router import wanted_tier
from engine.llm.tasks import ModelOutcome, ModelTask
from engine.llm.wire import ImagePart
from engine.memory.port import MemoryPort
from engine.messages import BattleChoice, Directive, LegReport, RoleReport, Selection
from engine.story.graph import story_graph
from engine.tactician.buttons import ButtonPlayer
from engine.tactician.catching import wanted_catch
from engine.tactician.explorer import LEG_SLACK, Explorer, ExplorerSnapshot
from engine.tactician.fights import calibration_lines, keep_fight, read_calibration
from engine.tactician.leg_choice import LegChooser, LegOption
from engine.tactician.lessons import BattleLessons
from engine.tactician.pilot import Pilot, PilotSnapshot
from engine.tactician.rule_based import ActionDecision, RuleBasedPolicy
from engine.tactician.stall import StallGuard
from engine.team.planner import TeamPlanner
from engine.world.goals import Leg
from engine.world.tables import GHOST_MAPS, GHOST_SEER
from engine.world.world import World

log = logging.getLogger("engine.tactician")

HISTORY_KEPT = 20
# A wild battle met by walking that the whole party wins less often than this is run from, wanted experience
# or not: a defeat costs the walk back from the nurse and the levels the plan then asks for. Every Blue run
# of seeds 50-53 lost its SQUIRTLE L6 to a wild PIDGEY it had a 69% chance against, and then trained 14,000
# to 16,000 frames before going on; three more wild defeats (ZUBAT twice, PARAS) in those eight runs.
FLEE_BELOW = 0.8
STUCK_LEGS = 12  # legs without progress on the objective before the pilot escalates


class TacticianSnapshot(Frozen):
    recent: tuple[str, ...]
    counts: dict[str, int]
    explorer: ExplorerSnapshot
    pilot: PilotSnapshot | None = None


class Tactician:
    def __init__(
        self,
        seed: int = 0,
        routing: RoutingConfig | None = None,
        gateway: GatewayPort | None = None,
        memory: MemoryPort | None = None,
        world: World | None = None,
        lookahead: bool = True,
        stuck_legs: int = STUCK_LEGS,
        keep_unevolved: frozenset[str] = frozenset(),
        team: TeamPlanner | None = None,
        buttons: ButtonPlayer | None = None,
        ask_always: Tier | None = None,
    ) -> None:
        self.buttons = buttons or ButtonPlayer(gateway, None)
        # The decisions level: every choice with more than one option is asked of this tier first.
        self.ask_always = ask_always
        self.legs = LegChooser(gateway, ask_always or "acting")
        self.policy = RuleBasedPolicy(lookahead=lookahead)
        self.keep_unevolved = keep_unevolved
        self.explorer = Explorer(world, seed=seed)
        team = team if team is not None else TeamPlanner(keep_unevolved)
        self.pilot = Pilot(world, story_graph(), self.explorer, stuck_legs, team)
        self.wary = self.pilot.wary
        self.routing = routing or RoutingConfig()
        self.gateway = gateway
        self.lessons = BattleLessons(memory, self.policy)
        self.memory = memory
        self._battle_id: str | None = None  # the battle the last battle choice was for
        self.stall = StallGuard()
        self._paid_tiers = LiveTiers(gateway)
        self.recent: deque[str] = deque(maxlen=HISTORY_KEPT)
        self.counts: dict[str, int] = {"battle_choices": 0, "legs_chosen": 0, "model_choices": 0}
        self._nursed: set[tuple[tuple[int, int], int]] = set()  # see _nurse_first

    def choose_battle(
        self,
        state: GameState,
        directive: Directive | None,
        screenshot: bytes | None = None,
        battle_id: str | None = None,
    ) -> BattleChoice:
        self._read_experience()
        if battle_id != self._battle_id:
            self._battle_id = battle_id
            self.pilot.battle_began(state)
        legal = evolution_wanted(state, legal_actions(state), self.keep_unevolved)
        # Lesson texts are for a model's prompt: recalled only when a model may be asked.
        self.lessons.refresh(state, battle_id, texts=bool(self._paid_tiers()))
        step = (self.pilot.catch_only(), self.pilot.catch_new()) if self.pilot.catch_step() else None
        catching = self.pilot.catching() and wanted_catch(state, legal, step, self.pilot.catch_species())
        fallback = catching or self._flee(state, legal) or self.policy.decide(state, legal)
        if fallback is None:
            raise BattleError(f"no legal action at {state.decision_point.value}")
        fallback = self.stall.check(state, battle_id, legal, fallback)
        wanted, reason = wanted_tier(profile(state, "tactics"), self.routing)
        if self.ask_always is not None:
            wanted, reason = self.ask_always, f"decisions level: every battle choice is asked ({reason})"
        choice = self._rule_choice(
            state, fallback, Selection(tier="rule_based", wanted=wanted, reason=reason)
        )
        if wanted != "rule_based" and len(legal) > 1:
            if not self._paid_tiers():
                steps = ("no model tier is available",)
                choice = self._rule_choice(
                    state, fallback, choice.selection.model_copy(update={"steps": steps})
                )
            else:
                choice = self._ask(state, legal, directive, wanted, reason, screenshot, battle_id, fallback)
        options = tuple(describe(action, state) for action in legal)
        choice = choice.model_copy(update={"options": options, "lessons": self.lessons.texts})
        self.recent.append(f"{state.decision_point.value}: {choice.label}")
        self.counts["battle_choices"] += 1
        self.counts["model_choices"] += choice.tier != "rule_based"
        return choice

    def _flee(self, state: GameState, legal: list[BattleAction]) -> ActionDecision | None:
        """Run from a wild battle the plan gains nothing from (the team needs no experience for what lies
        ahead, nothing here is to be caught, and it was met by walking, not put there by a script), when
        our member is the faster: then the escape is sure (pret engine/battle/core.asm
        TryRunningFromBattle)."""
        battle = state.battle
        if battle is None or battle.kind != "wild" or Run() not in legal:
            return None
        if state.overworld.map_name in GHOST_MAPS and not any(item.name == GHOST_SEER for item in state.bag):
            why = "run: no move touches a ghost unseen without the SILPH_SCOPE"
            return ActionDecision(action=Run(), reason=why)
        if self.pilot.catching() or not self._met_walking(state):
            return None
        dry = _nothing_lands(state)
        if dry is not None:
            return ActionDecision(action=Run(), reason=f"run: {dry}")
        chance = _wild_chance(state)
        if chance is not None and chance < FLEE_BELOW:
            why = (
                f"run: {percent(chance)} to win, and a defeat costs the walk back and the levels it asks for"
            )
            return ActionDecision(action=Run(), reason=why)
        if (
            battle.player is None
            or battle.enemy is None
            or battle.player.stats.speed < _top_speed(battle.enemy)
        ):
            return None
        if self.pilot.wants_experience(state):
            return None
        return ActionDecision(action=Run(), reason="run: the team needs no experience for what lies ahead")

    def _met_walking(self, state: GameState) -> bool:
        """The wild Pokémon is one of this map's encounter slots (species and level): met by walking, not
        put there by a script (the tower's ghost MAROWAK, a sleeping SNORLAX) that waits to be beaten."""
        world, battle = self.pilot.world, state.battle
        if world is None or battle is None or battle.enemy is None:
            return False
        table = world.wild.get(state.overworld.map_id)
        met = (battle.enemy.level, battle.enemy.species_name)
        return table is not None and met in table.slots

    def _ask(
        self,
        state: GameState,
        legal: list[BattleAction],
        directive: Directive | None,
        wanted: Tier,
        reason: str,
        screenshot: bytes | None,
        battle_id: str | None,
        fallback: ActionDecision,
    ) -> BattleChoice:
        options = action_options(state, legal)
        system, user = render_tactical(
            state, options, directive, list(self.recent)[-8:], lessons=self.lessons.texts
        )
        task = ModelTask(
            role="tactician",
            answer="tactical",
            wanted=wanted,
            reason=reason,
            system=system,
            user=user,
            images=(ImagePart.png(screenshot),) if screenshot else (),
            action_ids=tuple(option.id for option in options),
            battle_id=battle_id,
        )
        assert self.gateway is not None
        outcome: ModelOutcome = self.gateway.ask(task)
        answer = outcome.answer_as(TacticalAnswer)
        if answer is None:
            return self._rule_choice(state, fallback, outcome.selection)
        action = legal[answer.action_id]
        return BattleChoice(
            action=action,
            label=describe(action, state),
            reason=answer.reasoning,
            selection=outcome.selection,
            observations=answer.observations,
            confidence=answer.confidence,
        )

    def _rule_choice(self, state: GameState, decision: ActionDecision, selection: Selection) -> BattleChoice:
        return BattleChoice(
            action=decision.action,
            label=describe(decision.action, state),
            reason=decision.reason,
            selection=selection,
        )

    def choose_buttons(self, request: ButtonRequest) -> ButtonChoice:
        """The buttons and vision levels: the model's buttons for one step, or a counted no-op."""
        return self.buttons.choose(request)

    def settle_skills(self, success: bool) -> list[str]:
        """The buttons levels: a milestone reached (success) or the run's end credits the skills shown."""
        return self.buttons.settle_skills(success)

    def choose_leg(self, state: GameState, directive: Directive | None) -> Leg:
        """Where to walk next, out of battle: the next step of the directive's objective, or the
        explorer's choice when the objective has none to offer (or the pilot is stuck and looks around)."""
        self.counts["legs_chosen"] += 1
        self._read_experience()
        objective = directive.objective_id if directive is not None else None
        leg = self.pilot.leg(state, objective) if objective else None
        if leg is not None:
            self.counts["story_legs"] = self.counts.get("story_legs", 0) + 1
            wary = self.wary.around(state, leg)
            nurse = self._nurse_first(state, wary)
            if nurse is not None:
                return nurse
            if leg == self.pilot.last_leg:
                self.pilot.last_leg = wary  # the leg walked is the one the pilot measures progress by
            return wary
        leg = self.explorer.choose(state)
        why = self.pilot.explore_reason()
        leg = leg.model_copy(update={"reason": f"{why}: {leg.reason}"}) if why else leg
        return self.wary.around(state, leg)

    def _nurse_first(self, state: GameState, leg: Leg) -> Leg | None:
        """The nurse before a leg whose every way passes a trainer the team beats more surely healed, by
        enough to pay the walk (Wary.healing_helps); once per trainer and story point, so a nurse out of
        reach is no loop."""

        def nurse_steps() -> int | None:
            nearest = self.pilot.nearest_center(state)
            return nearest.max_steps - LEG_SLACK if nearest is not None else None

        found = self.wary.healing_helps(state, leg, nurse_steps)
        if found is None:
            return None
        why, trainer = found
        key = (trainer, len(state.story.event_flags))
        if key in self._nursed:
            return None
        self._nursed.add(key)
        nurse = self.pilot.nurse_first(state, f"heal first: {why}")
        if nurse is None:
            return None
        log.info("plan: %s", nurse.reason)
        nurse = self.wary.around(state, nurse)  # the way to the nurse keeps out of its sight where it can
        self.pilot.last_leg = nurse
        return nurse

    def decide_leg(self, state: GameState, directive: Directive | None) -> LegChoice:
        """The decisions level: the next leg as one of the options the engine could walk, chosen by the
        model; the first option (what `choose_leg` would walk) when it fails."""
        self.counts["legs_chosen"] += 1
        self._read_experience()
        objective = directive.objective_id if directive is not None else None
        options: list[LegOption] = []
        story = self.pilot.leg(state, objective) if objective else None
        if story is not None:
            options.append(("the objective's next step", story))
        explore = self.explorer.choose(state)
        options.append(("explore: somewhere not seen yet, or wild battles", explore))
        heal = self.pilot.nearest_center(state) if any(m.hp < m.max_hp for m in state.party) else None
        if heal is not None:
            options.append(("heal the team at the nearest Pokémon Center", heal))
        return self.legs.choose(state, directive, options)

    def travelled(self, before: GameState, leg: Leg, report: LegReport) -> None:
        self.explorer.record(leg, report, before)
        left = None
        if leg == self.pilot.last_leg and report.planned_steps is not None:
            left = 0 if report.outcome == "arrived" else max(0, report.planned_steps - report.steps)
        self.pilot.travelled(before, report.state, left)

    def battle_ended(self, outcome: str, opponent: str, state: GameState) -> str | None:
        """What a battle's end changes in the plan, in one line (a boss that won: its next try waits for a
        better forecast); None when nothing."""
        change = self.pilot.battle_ended(outcome, opponent, state)
        fought, self.pilot.book.fought = self.pilot.book.fought, None
        if fought is not None:
            keep_fight(self.memory, fought, self._battle_id)
        return change

    def read_experience(self) -> list[str]:
        """Once a run, before its first decision (a restored checkpoint brings its own): what earlier runs'
        fights say of the bars, one line per boss for the run's log (none when already read)."""
        if self.pilot.book.calibration is not None:
            return []
        self.pilot.book.calibration = read_calibration(self.memory)
        return calibration_lines(self.pilot.book.calibration)

    def _read_experience(self) -> None:
        """For callers that did not ask first (the conductor does, and logs the lines)."""
        for line in self.read_experience():
            log.info("plan: %s", line)

    def snapshot(self) -> TacticianSnapshot:
        """The tactician's state for a checkpoint. Lesson look-ups are not in it: they are asked from memory
        again after a restore."""
        return TacticianSnapshot(
            recent=tuple(self.recent),
            counts=dict(self.counts),
            explorer=self.explorer.snapshot(),
            pilot=self.pilot.snapshot(),
        )

    def restore(self, snapshot: TacticianSnapshot) -> None:
        """Replace the state with a snapshot's, and forget the lessons looked up for the battle at hand
        and the tiers the gateway had (the gateway may have been re-created since)."""
        self.recent = deque(snapshot.recent, maxlen=HISTORY_KEPT)
        self.counts = dict(snapshot.counts)
        self.explorer.restore(snapshot.explorer)
        if snapshot.pilot is not None:
            self.pilot.restore(snapshot.pilot)
        self._battle_id = None  # a battle played again from its start is noted as beginning again
        self.lessons.forget()
        self._paid_tiers.forget()
        self.buttons.forget()
        self.legs.forget()

    def report(self) -> RoleReport:
        counters = {key: float(value) for key, value in self.counts.items()} | self.explorer.counters()
        counters |= {f"button_{key}": float(value) for key, value in self.buttons.counts.items() if value}
        return RoleReport(role="tactician", healthy=True, counters=counters)


def evolution_wanted(
    state: GameState, legal: list[BattleAction], keep_unevolved: frozenset[str]
) -> list[BattleAction]:
    """While a member evolves, the one choice the team's config allows: stopped for a species it keeps
    unevolved, let evolve otherwise. No model is asked: it is the user's setting, not a judgement."""
    if state.decision_point is not DecisionPoint.EVOLUTION:
        return legal
    evolving = state.evolution
    keep = evolving is not None and evolving.species in keep_unevolved
    return [action for action in legal if isinstance(action, Evolve) and action.allow is not keep] or legal


MAX_DV = 15


def _top_speed(enemy: BattleMon) -> int:
    """The fastest the wild Pokémon could be, from its species and level (its DVs are not shown)."""
    species = game_data().species_by_index.get(enemy.species_id)
    if species is None:
        return enemy.stats.speed
    return stat_at_level(species.base.speed, enemy.level, MAX_DV)


def _nothing_lands(state: GameState) -> str | None:
    """Why the member in front should not fight the wild Pokémon at all: no move with PP left that can do
    anything to it (FISSURE against a faster foe, a Normal move into a Ghost); None when one can. A run's
    BLASTOISE, its other moves at 0 PP, stayed in forty wild battles with FISSURE alone and drank the
    gauntlet's FULL RESTOREs in them."""
    duel = duel_of(state, Fairness.VISIBLE_ONLY)
    if duel is None or duel.us.fighter.fainted:
        return None
    me, foe = duel.us.fighter, duel.them.fighter
    usable = [move for move, pp in zip(moves_of(me), me.pp, strict=False) if pp > 0]
    if any(not futile(move, me, foe) for move in usable):
        return None
    return f"{me.species} has no move with PP left that can touch {foe.species}"


def _wild_chance(state: GameState) -> float | None:
    """The whole party's chance of winning the wild battle from here (what the search reports as "to win");
    None when there is no position to judge."""
    duel = duel_of(state, Fairness.VISIBLE_ONLY)
    return Judge().battle(duel) if duel is not None else None
