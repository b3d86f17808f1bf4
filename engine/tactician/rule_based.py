"""The free model tier: picks among the legal actions with the Gen 1 damage calculator."""

from __future__ import annotations

import re

from engine.frozen import Frozen
from engine.game.actions import (
    BattleAction,
    Evolve,
    LearnMove,
    Run,
    SendNext,
    Struggle,
    SwitchTo,
    UseItem,
    UseMove,
    describe,
    forgettable,
    learner,
    legal_actions,
)
from engine.game.assessment import (
    KO_WEIGHT,
    EnemyView,
    Fairness,
    best_damage,
    combatant_of,
    enemy_moves,
    enemy_threat,
    enemy_view,
    move_by_id,
    move_score,
    threat_to,
)
from engine.game.damage import Combatant
from engine.game.items import BATTLE_ITEMS, ItemKind, hp_after
from engine.game.models import BattleState, GameState
from engine.game.tables import Move, game_data
from engine.game.teaching import level_up_room
from engine.memory.lessons import Lesson, Measurement
from engine.tactician.lookahead import MIN_OBSERVED_USES, PRIOR_USES, Lookahead

# A bench member must beat the active one by this factor in expected damage before we pay a turn
# to switch, and the active member must be badly matched.
SWITCH_ADVANTAGE = 2.0
BAD_MATCHUP_THREAT = 2.0
IMMUNE_THREAT = 0.125
# Healing: the active member is in danger at or below this HP fraction when the enemy's next move
# probably knocks it out, unless it probably knocks the enemy out first.
DANGER_HP_FRACTION = 0.5
DANGER_KO_CHANCE = 0.5
LIKELY_KO = 0.5


class ActionDecision(Frozen):
    action: BattleAction
    reason: str


def with_observations(
    scored: tuple[float, float, float], enemy: EnemyView, seen: Measurement | None
) -> tuple[tuple[float, float, float], str]:
    """(score, damage, KO chance) with observed damage blended in, and a note for the reason."""
    _, damage, ko = scored
    if seen is None or seen.damage_percent is None or seen.uses < MIN_OBSERVED_USES:
        return scored, ""
    observed = seen.damage_percent / 100 * enemy.combatant.max_hp
    if observed >= damage:
        return scored, ""  # never above the estimate: see lookahead.with_lessons
    weight = seen.uses / (seen.uses + PRIOR_USES)
    blended = (1 - weight) * damage + weight * observed
    # Only means were observed, not spreads: a mean use that takes the enemy's remaining HP counts as a KO.
    ko = (1 - weight) * ko + weight * (1.0 if observed >= max(1, enemy.hp) else 0.0)
    note = f"; seen {seen.damage_percent:.0f}% a use in {seen.uses}"
    return (ko * KO_WEIGHT + blended, blended, ko), note


class RuleBasedPolicy:
    """With `lookahead` (the default) battle menus and send-outs go to the search (engine/combat); without
    it, the one-turn choice below: the best expected damage and KO chance, a heal in danger, a switch when
    badly matched. Learning moves and evolving are always decided here."""

    def __init__(
        self, fairness: Fairness = Fairness.VISIBLE_ONLY, lookahead: bool = True, boss_plies: int = 1
    ) -> None:
        self.fairness = fairness
        self.lookahead = Lookahead(fairness, boss_plies) if lookahead else None
        # Enemy species -> our move -> what that move was seen to do to it (from lesson memory).
        self.observed: dict[str, dict[str, Measurement]] = {}
        # Enemy species -> replays' regrets against it (engine/replay/lessons.py), for the search to follow.
        self.preferred: dict[str, tuple[Lesson, ...]] = {}

    def remember(
        self, enemy_species: str, measurements: dict[str, Measurement], preferred: tuple[Lesson, ...] = ()
    ) -> None:
        self.observed[enemy_species.upper()] = measurements
        self.preferred[enemy_species.upper()] = preferred

    def forget_measurements(self) -> None:
        self.observed = {}
        self.preferred = {}

    def decide(self, state: GameState, legal: list[BattleAction] | None = None) -> ActionDecision | None:
        legal = legal_actions(state) if legal is None else legal
        if not legal:
            return None
        first = legal[0]
        if legal == [Run()]:
            return ActionDecision(action=first, reason="running is the only choice here (the Safari Zone)")
        if isinstance(first, LearnMove):
            return self._learn(state)
        if isinstance(first, Evolve):
            # The legal list puts letting it evolve first, unless the team's config keeps it as it is.
            reason = "evolution makes it stronger" if first.allow else "the config keeps it unevolved"
            return ActionDecision(action=first, reason=reason)
        if isinstance(first, SendNext | Run) and state.battle is not None and state.battle.enemy is not None:
            senders = [a for a in legal if isinstance(a, SendNext)]
            found = self.lookahead.send_next(state, senders) if self.lookahead and senders else None
            if found is not None:
                return ActionDecision(action=found[0], reason=found[1])
            if senders:
                return self._send_next(state, state.battle, senders)
        if state.battle is None or state.battle.enemy is None or state.battle.player is None:
            return ActionDecision(action=first, reason="nothing visible to weigh")
        enemy = (state.battle.enemy.species_name or "").upper()
        seen, preferred = self.observed.get(enemy, {}), self.preferred.get(enemy, ())
        searched = self.lookahead.choose(state, legal, seen, preferred) if self.lookahead else None
        if searched is not None:
            return ActionDecision(action=searched[0], reason=searched[1])
        return self._fight_or_switch(state, state.battle, legal)

    # -- choices -----------------------------------------------------------------------------------
    def _fight_or_switch(
        self, state: GameState, battle: BattleState, legal: list[BattleAction]
    ) -> ActionDecision:
        assert battle.player is not None and battle.enemy is not None
        enemy = enemy_view(battle.enemy, self.fairness)
        attacker = combatant_of(battle.player)
        moves = [a for a in legal if isinstance(a, UseMove)]
        if not moves:
            struggle = next((a for a in legal if isinstance(a, Struggle)), legal[0])
            return ActionDecision(action=struggle, reason="no PP left")
        seen = self.observed.get((battle.enemy.species_name or "").upper(), {})
        scored = []
        for action in moves:
            move = move_by_id(battle.player.moves[action.slot].move_id)
            estimate = move_score(attacker, enemy, move) if move else (0.0, 0.0, 0.0)
            value, note = with_observations(estimate, enemy, seen.get(move.name) if move else None)
            scored.append((value, action, move, note))
        (_, damage, ko), best, best_move, note = max(scored, key=lambda item: item[0][0])
        heal = self._heal_candidate(state, battle, enemy, attacker, ko, legal)
        if heal is not None:
            return heal
        switch = self._switch_candidate(state, battle, enemy, damage, legal)
        if switch is not None:
            return switch
        name = best_move.name if best_move else "?"
        return ActionDecision(
            action=best,
            reason=f"{name}: ~{damage:.0f} of ~{enemy.hp} HP expected, {ko:.0%} KO chance{note}",
        )

    def _heal_candidate(
        self,
        state: GameState,
        battle: BattleState,
        enemy: EnemyView,
        attacker: Combatant,
        our_ko: float,
        legal: list[BattleAction],
    ) -> ActionDecision | None:
        """A healing item on the active member when it is in danger: low HP, the enemy's next move
        probably knocks it out, and it will not probably knock the enemy out first. The cheapest heal
        that takes it out of danger and restores more than the enemy takes away per turn (anything less
        only delays the faint)."""
        player = battle.player
        assert player is not None and battle.enemy is not None
        if player.hp <= 0 or player.hp > DANGER_HP_FRACTION * player.max_hp:
            return None
        heals = [
            (item, action)
            for action in legal
            if isinstance(action, UseItem)
            and action.target == battle.player_active_slot
            and (item := BATTLE_ITEMS.get(action.item)) is not None
            and item.kind is ItemKind.HEAL_HP
        ]
        if not heals:
            return None
        moves = enemy_moves(battle.enemy, self.fairness)
        risk, hit = enemy_threat(enemy, moves, attacker, player.hp)
        strikes_first = attacker.current_speed() > enemy.combatant.current_speed()
        if risk < DANGER_KO_CHANCE or (strikes_first and our_ko >= LIKELY_KO):
            return None
        options = []
        for item, action in heals:
            healed = hp_after(item, player)
            risk_after, _ = enemy_threat(enemy, moves, attacker, healed)
            if risk_after < DANGER_KO_CHANCE and healed - player.hp > hit:
                options.append((healed, item.name, action))
        if not options:
            return None
        # Least HP restored first; FULL_RESTORE last among equals (it also cures status: keep it).
        healed, _, action = min(options, key=lambda option: (option[0], option[1] == "FULL_RESTORE"))
        return ActionDecision(
            action=action,
            reason=f"{describe(action, state)}: {player.hp}/{player.max_hp} HP, {risk:.0%} chance the next "
            f"hit knocks it out; {healed} HP after",
        )

    def _switch_candidate(
        self,
        state: GameState,
        battle: BattleState,
        enemy: EnemyView,
        active_damage: float,
        legal: list[BattleAction],
    ) -> ActionDecision | None:
        assert battle.player is not None
        if threat_to(combatant_of(battle.player), enemy) < BAD_MATCHUP_THREAT:
            return None
        party = {mon.slot: mon for mon in state.party}
        options = [(best_damage(party[a.slot], enemy), a) for a in legal if isinstance(a, SwitchTo)]
        safe = [
            (d, a) for d, a in options if threat_to(combatant_of(party[a.slot]), enemy) < BAD_MATCHUP_THREAT
        ]
        if not safe:
            return None
        damage, action = max(safe, key=lambda item: item[0])
        if damage < SWITCH_ADVANTAGE * max(active_damage, 1.0):
            return None
        return ActionDecision(
            action=action,
            reason=f"{describe(action, state)}: badly matched now, ~{damage:.0f} damage a turn instead of "
            f"~{active_damage:.0f}",
        )

    def _send_next(self, state: GameState, battle: BattleState, senders: list[SendNext]) -> ActionDecision:
        assert battle.enemy is not None
        enemy = enemy_view(battle.enemy, self.fairness)
        party = {mon.slot: mon for mon in state.party}

        def value(action: SendNext) -> float:
            mon = party[action.slot]
            # An immune member (threat 0) is weighed as if hit at an eighth, below every real threat
            threat = max(threat_to(combatant_of(mon), enemy), IMMUNE_THREAT)
            return best_damage(mon, enemy) / threat if mon.hp else 0.0

        choice = max(senders, key=value)
        return ActionDecision(action=choice, reason=f"{describe(choice, state)}: best matchup left")

    def _learn(self, state: GameState) -> ActionDecision:
        """A level-up move offered with four known: the teaching rule decides, as for a TM (a move whose
        type an HM's or a stronger move already hits counts half, a charge or a recharge half: HYDRO PUMP
        beside SURF took ICE BEAM's place, LANCE's dragons' one weakness)."""
        mon = learner(state)
        offered = _offeredmove_by_id(state)
        if mon is None or offered is None:
            return ActionDecision(
                action=LearnMove(forget_slot=None), reason="cannot tell which move is offered"
            )
        if not forgettable(state):
            return ActionDecision(action=LearnMove(forget_slot=None), reason="only HM moves to forget")
        slot = level_up_room(mon, offered.name)
        if slot is None:
            return ActionDecision(
                action=LearnMove(forget_slot=None),
                reason=f"{offered.name} is worth no more than the moves known",
            )
        old = mon.moves[slot].name
        return ActionDecision(
            action=LearnMove(forget_slot=slot), reason=f"{offered.name} replaces the less useful {old}"
        )


def _offeredmove_by_id(state: GameState) -> Move | None:
    """The game names the move in its prompt ('... to make room for BUBBLE?')."""
    found = re.search(r"room for (.+?)\?", " ".join(state.screen.text))
    if not found:
        return None
    by_display = {m.display_name: m for m in game_data().moves_by_id.values()}
    return by_display.get(found.group(1).strip())
