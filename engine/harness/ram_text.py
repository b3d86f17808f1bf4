"""The short text of what RAM says, shown beside the screen at the buttons level: where the player
stands, the party, the battle, the dialog's text and the menu's cursor. Nothing here is shown at the
vision level."""

from __future__ import annotations

from engine.game.models import BattleState, GameState, Mon

PARTY_SHOWN = 6


def describe_state(state: GameState) -> str:
    lines = [_where(state), f"screen: {state.screen.kind.value}; waiting for: {state.decision_point.value}"]
    if state.party:
        lines.append("party: " + "; ".join(_mon(mon) for mon in state.party[:PARTY_SHOWN]))
    if state.battle is not None:
        lines.append(_battle(state.battle))
    text = [line.strip() for line in state.screen.text if line.strip()]
    if text:
        arrow = " ▼" if state.screen.continue_arrow_visible else ""
        lines.append("text on screen: " + " / ".join(text) + arrow)
    if state.menu is not None:
        lines.append(f"menu cursor on item {state.menu.item} of {state.menu.max_item + 1}")
    lines.append(f"badges: {len(state.progress.badge_names)}; money: ¥{state.progress.money}")
    return "\n".join(lines)


def _where(state: GameState) -> str:
    where = state.overworld
    name = where.map_name or f"map {where.map_id}"
    return f"map: {name} at (x {where.x}, y {where.y}), facing {where.facing}, {where.mode}"


def _mon(mon: Mon) -> str:
    status = "" if mon.status == "OK" else f" {mon.status}"
    return f"{mon.species_name or '?'} L{mon.level} {mon.hp}/{mon.max_hp} HP{status}"


def _battle(battle: BattleState) -> str:
    enemy = battle.enemy
    player = battle.player
    foe = f"{enemy.species_name or '?'} L{enemy.level} {_percent(enemy)}" if enemy is not None else "?"
    ours = f"{player.species_name or '?'} L{player.level} {player.hp}/{player.max_hp} HP" if player else "?"
    who = battle.trainer_class_name or "wild"
    return f"battle ({battle.kind}, {who}): ours {ours}; enemy {foe}"


def _percent(mon: Mon) -> str:
    return f"{round(100 * mon.hp / mon.max_hp)}% HP" if mon.max_hp else "? HP"
