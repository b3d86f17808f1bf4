"""Prompts for the model tiers, rendered by pure functions from templates shipped as package data.

The templates under `engine/llm/prompts/` hold the prose and `$placeholders` only; every choice of what
to show is made here. Same input, same text: no clocks, no randomness, no machine paths.

What the model sees is what a player sees: the enemy's HP only as the HP bar's percentage, its stats
only as estimated from species and level (the same view the rule-based tier has).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from importlib import resources
from string import Template

from engine.battles.models import BattleLog, TurnOutcome
from engine.combat.advice import option_notes, outlook
from engine.frozen import Frozen
from engine.game.actions import (
    BattleAction,
    LearnMove,
    SendNext,
    SwitchTo,
    UseItem,
    UseMove,
    as_battle_sees_it,
    describe,
)
from engine.game.assessment import EnemyView, Fairness, combatant_of, enemy_view, hp_bar_fraction, move_score
from engine.game.damage import Combatant, type_effectiveness
from engine.game.items import BATTLE_ITEMS, ItemKind, hp_after
from engine.game.models import BattleState, DecisionPoint, GameState, Mon
from engine.game.tables import Move, game_data
from engine.llm.answers import SHAPES
from engine.messages import Directive, GameEvent

PROMPTS_PACKAGE = "engine.llm.prompts"
RECENT_CHOICES = 8
BAG_ENTRIES = 20
LOG_DECISIONS = 60
FRAMES_PER_SECOND = 60  # the Game Boy draws about 59.7
_FIXED_DAMAGE_POWER = 1  # pret gives fixed- and variable-damage moves (SEISMIC_TOSS, COUNTER) power 1
_BLANK_RUNS = re.compile(r"\n{3,}")


class ActionOption(Frozen):
    """One legal action as the model is offered it: the id it answers with, a label, the engine's note."""

    id: int
    label: str
    note: str = ""


# -- templates ---------------------------------------------------------------------------------------------


@cache
def _template(name: str) -> Template:
    return Template(resources.files(PROMPTS_PACKAGE).joinpath(name).read_text(encoding="utf-8"))


def fill(name: str, **values: str) -> str:
    """A template with every placeholder filled (a missing value is an error, never a stray `$name`).
    Sections left empty would leave runs of blank lines: they collapse to one."""
    text = _template(name).substitute(values)
    lines = "\n".join(line.rstrip() for line in text.splitlines())
    return _BLANK_RUNS.sub("\n\n", lines).strip() + "\n"


# -- small facts, as text ----------------------------------------------------------------------------------


def _type_name(name: str | None) -> str:
    if name is None:
        return "?"
    found = game_data().types_by_name.get(name)
    return found.display_name if found else name


def _types(mon: Mon) -> str:
    first, second = _type_name(mon.type1_name), _type_name(mon.type2_name)
    return f"type {first}" if first == second else f"types {first}/{second}"


def _name(mon: Mon) -> str:
    species = mon.species_name or f"species #{mon.species_id}"
    return species if mon.nickname in ("", species) else f"{mon.nickname} ({species})"


def _condition(mon: Mon) -> str:
    return "fainted" if mon.hp == 0 else f"status {mon.status}"


def _percent(value: float) -> str:
    return f"{value:.0%}"


def _enemy_hp(enemy: Mon) -> str:
    return _percent(hp_bar_fraction(enemy.hp, enemy.max_hp))


def _power(move: Move) -> str:
    if move.power == 0:
        return "status move"
    if move.effect == "OHKO_EFFECT":
        return "one-hit KO move"
    if move.power == _FIXED_DAMAGE_POWER:
        return "damage by its own rule"
    return f"power {move.power}"


def _move_line(number: int, name: str | None, move: Move | None, pp: int) -> str:
    if move is None:
        return f"    {number}. {name or '?'}: PP {pp}"
    return f"    {number}. {move.name}: {_move_facts(move)}, PP {pp}"


def _move_facts(move: Move) -> str:
    return f"{_type_name(move.type)}, {_power(move)}, accuracy {move.accuracy}%"


def _bulleted(items: Sequence[str], indent: str = "  ") -> str:
    return "\n".join(f"{indent}- {item}" for item in items)


def _directive(directive: Directive | None, none: str) -> str:
    if directive is None:
        return none
    lines = [f"  objective: {directive.objective}"]
    if directive.priorities:
        lines.append("  priorities, most important first:")
        lines += [f"    {n}. {p}" for n, p in enumerate(directive.priorities, start=1)]
    if directive.warnings:
        lines.append("  warnings:")
        lines += [f"    - {w}" for w in directive.warnings]
    return "\n".join(lines)


def _section(heading: str, body: str) -> str:
    """A heading and its body, or nothing when there is nothing to show."""
    return f"{heading}\n{body}" if body else ""


# -- the battle, as the player sees it ---------------------------------------------------------------------


def _party_lines(state: GameState, with_moves: bool = False) -> str:
    if not state.party:
        return "  (no Pokémon)"
    active = state.battle.player_active_slot if state.battle is not None else None
    lines = []
    for mon in state.party:
        seen = as_battle_sees_it(state, mon)
        line = f"  {mon.slot + 1}. {_name(mon)} L{mon.level}, HP {seen.hp}/{seen.max_hp}, {_condition(seen)}"
        line += f", {_types(mon)}"
        if mon.slot == active:
            line += " (in battle now)"
        if with_moves:
            line += "; moves " + ", ".join(slot.name or "?" for slot in mon.moves)
        lines.append(line)
    return "\n".join(lines)


def _enemies_left(battle: BattleState) -> int | None:
    """Trainer Pokémon still able to fight, counting the one out now; trainers send theirs in order."""
    count, position = battle.enemy_party_count, battle.enemy_party_pos
    if count is None or position is None or position >= count:
        return None
    fainted_now = battle.enemy is not None and battle.enemy.hp == 0
    return count - position - int(fainted_now)


def _battle_line(battle: BattleState) -> str:
    if battle.kind == "wild":
        species = battle.enemy.species_name if battle.enemy is not None else None
        return f"Battle: a wild {species or 'Pokémon'}."
    trainer = battle.trainer_class_name or "a trainer"
    left = _enemies_left(battle)
    count = battle.enemy_party_count
    if left is not None and count is not None:
        roster = f"{left} of their {count} Pokémon can still fight, counting the one out now"
    else:
        roster = f"they have {count if count is not None else 'an unknown number of'} Pokémon"
    return f"Battle: trainer battle against {trainer} (no running away); {roster}."


def _active_block(battle: BattleState | None) -> str:
    if battle is None or battle.player is None:
        return "  (none)"
    mon = battle.player
    stats = mon.stats
    lines = [
        f"  {_name(mon)} L{mon.level}, HP {mon.hp}/{mon.max_hp}, {_condition(mon)}, {_types(mon)}",
        f"  stats: attack {stats.attack}, defense {stats.defense}, speed {stats.speed}, "
        f"special {stats.special}",
        "  moves:",
    ]
    moves = game_data().moves_by_id
    lines += [
        _move_line(n, slot.name, moves.get(slot.move_id), slot.pp)
        for n, slot in enumerate(mon.moves, start=1)
    ]
    return "\n".join(lines)


def _enemy_block(battle: BattleState | None) -> str:
    if battle is None or battle.enemy is None:
        return "  (none visible)"
    enemy = battle.enemy
    return (
        f"  {enemy.species_name or '?'} L{enemy.level}, HP {_enemy_hp(enemy)} (the HP bar; exact HP unseen), "
        f"{_condition(enemy)}, {_types(enemy)}"
    )


_POINTS = {
    DecisionPoint.BATTLE_MAIN_MENU: "choose this turn's action.",
    DecisionPoint.BATTLE_MOVE_MENU: "choose this turn's action.",
    DecisionPoint.BATTLE_NEXT_MON_PROMPT: "your active Pokémon fainted; choose which one comes out next.",
}
_OFFERED_MOVE = re.compile(r"room for (.+?)\?")


def _offered_move(state: GameState) -> str:
    """The game names the move in its prompt ('... to make room for BUBBLE?')."""
    found = _OFFERED_MOVE.search(" ".join(state.screen.text))
    if not found:
        return "a new move"
    by_display = {m.display_name: m for m in game_data().moves_by_id.values()}
    move = by_display.get(found.group(1).strip())
    if move is None:
        return found.group(1).strip()
    return f"{move.name} ({_move_facts(move)})"


def _decision_line(state: GameState) -> str:
    point = state.decision_point
    player = state.battle.player if state.battle is not None else None
    who = _name(player) if player is not None else "your Pokémon"
    if point is DecisionPoint.LEARN_MOVE_PROMPT:
        offered = _offered_move(state)
        text = f"{who} wants to learn {offered} but already knows four moves; forget one, or skip it."
    elif point is DecisionPoint.EVOLUTION:
        text = f"{who} is evolving; let it evolve, or stop it."
    else:
        text = _POINTS.get(point, point.value.replace("_", " ") + ".")
    return f"Decision: {text}"


# -- legal actions, with the engine's notes -----------------------------------------------------------------


def action_options(state: GameState, legal: Sequence[BattleAction]) -> list[ActionOption]:
    """The legal actions, numbered in the order given, each with what the engine knows about it."""
    battle = state.battle
    view = None
    if battle is not None and battle.enemy is not None and battle.enemy.hp > 0:
        view = enemy_view(battle.enemy, Fairness.VISIBLE_ONLY)
    searched = option_notes(state, legal) if state.decision_point in _MENUS else {}
    return [
        ActionOption(
            id=number,
            label=describe(action, state),
            note=", ".join(part for part in (_note(action, state, view), searched.get(number, "")) if part),
        )
        for number, action in enumerate(legal)
    ]


_MENUS = (DecisionPoint.BATTLE_MAIN_MENU, DecisionPoint.BATTLE_MOVE_MENU)


def _outlook_line(state: GameState) -> str:
    chance = outlook(state)
    if chance is None:
        return ""
    return f"The engine's battle search puts your chance of winning this battle at {chance:.0%}."


def _battle_and_outlook(state: GameState) -> str:
    if state.battle is None:
        return "Battle: none."
    return f"{_battle_line(state.battle)} {_outlook_line(state)}".strip()


def _note(action: BattleAction, state: GameState, view: EnemyView | None) -> str:
    party = {mon.slot: mon for mon in state.party}
    if isinstance(action, UseMove):
        return _move_note(action, state, view)
    if isinstance(action, SwitchTo | SendNext) and action.slot in party:
        mon = as_battle_sees_it(state, party[action.slot])
        return f"{mon.species_name or '?'} L{mon.level}, HP {mon.hp}/{mon.max_hp}, {_types(mon)}"
    if isinstance(action, UseItem):
        return _item_note(action, state)
    if isinstance(action, LearnMove) and action.forget_slot is not None:
        return _forget_note(action.forget_slot, state)
    return ""


def _move_note(action: UseMove, state: GameState, view: EnemyView | None) -> str:
    battle = state.battle
    if battle is None or battle.player is None or action.slot >= len(battle.player.moves):
        return ""
    slot = battle.player.moves[action.slot]
    move = game_data().moves_by_id.get(slot.move_id)
    if move is None:
        return f"PP {slot.pp}"
    parts = [_type_name(move.type), _power(move), f"PP {slot.pp}"]
    if view is not None:
        parts += _damage_parts(move, combatant_of(battle.player), view)
    return ", ".join(parts)


def _damage_parts(move: Move, attacker: Combatant, view: EnemyView) -> list[str]:
    if move.power == 0:
        return []
    parts = []
    # Fixed-damage moves ignore the type chart's multipliers; only ordinary ones get the words.
    if move.power > _FIXED_DAMAGE_POWER:
        target = view.combatant
        effect = type_effectiveness(move.type, target.type1, target.type2)
        if effect == 0:
            return ["no effect on it"]
        if effect > 1:
            parts.append("super effective")
        elif effect < 1:
            parts.append("not very effective")
    _, damage, ko = move_score(attacker, view, move)
    share = damage / max(1, view.hp)
    return [*parts, f"~{_percent(share)} of its remaining HP expected", f"{_percent(ko)} KO chance"]


def _item_note(action: UseItem, state: GameState) -> str:
    item = BATTLE_ITEMS.get(action.item)
    have = next((entry.quantity for entry in state.bag if entry.name == action.item), None)
    stock = f"{have} in the bag" if have is not None else ""
    party = {mon.slot: mon for mon in state.party}
    if item is None or action.target is None or action.target not in party:
        return f"{action.item}, {stock}" if stock else action.item
    mon = as_battle_sees_it(state, party[action.target])
    after = hp_after(item, mon)
    target = f"{mon.species_name or '?'} HP {mon.hp}/{mon.max_hp}"
    if item.kind in (ItemKind.HEAL_HP, ItemKind.REVIVE):
        target += f" → {after}/{mon.max_hp}"
    if item.cures and mon.status in item.cures:
        target += f", cures {mon.status}"
    return ", ".join(part for part in (action.item, target, stock) if part)


def _forget_note(forget_slot: int, state: GameState) -> str:
    learner: Mon | None = state.battle.player if state.battle is not None else None
    if learner is None and state.party:
        learner = state.party[0]
    if learner is None or forget_slot >= len(learner.moves):
        return ""
    slot = learner.moves[forget_slot]
    move = game_data().moves_by_id.get(slot.move_id)
    if move is None:
        return f"{slot.name or '?'}"
    return f"{move.name}: {_move_facts(move)}, PP {slot.pp}"


def _option_line(option: ActionOption) -> str:
    return (
        f"  {option.id}: {option.label} — {option.note}" if option.note else f"  {option.id}: {option.label}"
    )


# -- the three prompts --------------------------------------------------------------------------------------


def render_tactical(
    state: GameState,
    options: Sequence[ActionOption],
    directive: Directive | None,
    recent: Sequence[str],
    lessons: Sequence[str] = (),
) -> tuple[str, str]:
    """(system, user) for one battle decision among `options`."""
    ids = ", ".join(str(option.id) for option in options)
    battle = state.battle
    user = fill(
        "tactical_user.md",
        decision=_decision_line(state),
        battle=(_battle_line(battle) + " " + _outlook_line(state)).strip()
        if battle is not None
        else "Battle: none.",
        active=_active_block(battle),
        enemy=_enemy_block(battle),
        party=_party_lines(state),
        directive=_section("Standing orders from the strategist:", _directive(directive, "")),
        recent=_section("Your recent choices, oldest first:", _bulleted(recent[-RECENT_CHOICES:])),
        lessons=_section("Lessons from earlier battles:", _bulleted(lessons)),
        actions="\n".join(_option_line(option) for option in options),
        shape=SHAPES["tactical"].replace("<one of the ids>", f"<one of {ids}>"),
    )
    return fill("tactical_system.md"), user


def _situation(state: GameState) -> str:
    battle = state.battle
    if battle is None:
        place = state.overworld
        where = place.map_name or f"map {place.map_id}"
        return f"  On {where} at x {place.x}, y {place.y}, facing {place.facing}; not in a battle."
    if battle.kind == "wild":
        opening = "  A wild battle: running away and catching are possible."
    else:
        species = ", ".join(name or "?" for name in battle.enemy_party_species_names)
        left = _enemies_left(battle)
        opening = (
            f"  A trainer battle against {battle.trainer_class_name or 'a trainer'}; their party: {species}"
        )
        opening += f" ({left} still able to fight)." if left is not None else "."
    lines = [opening]
    if battle.player is not None and battle.enemy is not None:
        lines.append(
            f"  Out now: your {_name(battle.player)} L{battle.player.level} "
            f"(HP {battle.player.hp}/{battle.player.max_hp}) against {battle.enemy.species_name or '?'} "
            f"L{battle.enemy.level} (HP {_enemy_hp(battle.enemy)}, {_types(battle.enemy)})."
        )
        if (line := _outlook_line(state)) != "":
            lines.append(f"  {line}")
    return "\n".join(lines)


def _progress(state: GameState) -> str:
    progress = state.progress
    badges = f"{progress.badge_count} badges"
    if progress.badge_names:
        badges += f" ({', '.join(progress.badge_names)})"
    return (
        f"{badges}, money {progress.money}, Pokédex {progress.pokedex_owned} caught / "
        f"{progress.pokedex_seen} seen, play time {progress.play_time}"
    )


def _bag(state: GameState) -> str:
    if not state.bag:
        return "empty"
    shown = [
        f"{entry.name or f'item #{entry.item_id}'} x{entry.quantity}" for entry in state.bag[:BAG_ENTRIES]
    ]
    hidden = len(state.bag) - BAG_ENTRIES
    return ", ".join(shown) + (f", and {hidden} more" if hidden > 0 else "")


def render_strategy(
    state: GameState,
    trigger: GameEvent,
    current: Directive | None,
    lessons: Sequence[str] = (),
    where: str = "",
    objectives: Sequence[str] = (),
) -> tuple[str, str]:
    """(system, user) for new standing orders after `trigger`; `where` is the map around the player as
    text (a minimap and its legend), when the player is out of battle and the world model is known;
    `objectives` are the story objectives open now, one line each starting with its name."""
    user = fill(
        "strategy_user.md",
        trigger=f"{trigger.name.value.replace('_', ' ')} — {trigger.detail}",
        situation=_situation(state),
        party=_party_lines(state, with_moves=True),
        progress=_progress(state),
        bag=_bag(state),
        current=_directive(current, "  none yet"),
        lessons=_section("Lessons from earlier battles:", _bulleted(lessons)),
        where=_section("Where you are (one symbol a square):", where),
        objectives=_section(
            "Story objectives open now (start your objective with the name of the one you choose):",
            _bulleted(objectives),
        ),
        shape=SHAPES["strategic"],
    )
    return fill("strategy_system.md"), user


_EFFECT_WORDS = {"super": "super effective", "not_very": "not very effective", "no_effect": "no effect"}


def _turn_note(turn: TurnOutcome | None) -> str:
    """What one decision led to, as the log measured it: how our move went (what the game said), HP bar
    points lost on each side, faints. (Older logs lack the move's messages: read with getattr.)"""
    if turn is None:
        return ""
    parts = []
    if getattr(turn, "missed", False):
        parts.append("our move missed")
    effect = getattr(turn, "effectiveness", None)
    if effect is not None:
        parts.append(_EFFECT_WORDS.get(effect, effect))
    if turn.enemy_hp_lost_percent:
        parts.append(f"enemy HP {-turn.enemy_hp_lost_percent:+g}%")
    if turn.hp_lost_percent:
        parts.append(f"our HP {-turn.hp_lost_percent:+g}%")
    if turn.enemy_fainted:
        parts.append("the enemy fainted")
    if turn.fainted:
        parts.append("ours fainted")
    return f" → {', '.join(parts)}" if parts else ""


def render_reflection(log: BattleLog, findings: Sequence[str] = ()) -> tuple[str, str]:
    """(system, user) for the lessons of one finished battle; `findings` are what the engine measured in
    it (reflection's forensics), one line each."""
    summary = log.summary
    decisions = log.decisions[-LOG_DECISIONS:]
    skipped = len(log.decisions) - len(decisions)
    turns = {turn.decision: turn for turn in log.turns}
    heading = "Decisions, oldest first"
    if skipped:
        heading += f" (the first {skipped} of {len(log.decisions)} are left out)"
    lines = [
        f"  {skipped + n}. [{record.point.value}] {record.action} — {record.reason}"
        + _turn_note(turns.get(skipped + n - 1))
        for n, record in enumerate(decisions, start=1)
    ]
    user = fill(
        "reflection_user.md",
        outcome=summary.outcome,
        opponent=summary.opponent,
        battle_type=summary.battle_type,
        turns=str(summary.turns),
        decision_count=str(summary.decisions),
        frames=str(summary.frames),
        seconds=str(round(summary.frames / FRAMES_PER_SECOND)),
        decisions_heading=heading + ":",
        decisions="\n".join(lines) or "  (none)",
        findings=_section("What the engine measured in this battle:", _bulleted(findings)),
        shape=SHAPES["reflection"],
    )
    return fill("reflection_system.md"), user
