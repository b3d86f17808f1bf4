"""The text state an agent reads: a decoded GameState turned into an `Observation`, with the map around
the player drawn from the cartridge's maps (engine/world/minimap.py) and the story's next objective."""

from __future__ import annotations

from engine.game.models import BattleState, GameState, Mon, PartyMon
from engine.play.models import BattleView, Member, Observation
from engine.world.minimap import LEGEND, around_player, view_of
from engine.world.planner import surroundings
from engine.world.world import World


def observation(state: GameState, world: World | None, objective: str | None, milestones: tuple[str, ...],
                frame: int) -> Observation:  # fmt: skip
    where = state.overworld
    menu = state.menu
    return Observation(
        map=where.map_name or f"map {where.map_id}", map_id=where.map_id, x=where.x, y=where.y,
        facing=where.facing, mode=where.mode, screen=state.screen.kind.value,
        waiting_for=state.decision_point.value, party=tuple(member(mon) for mon in state.party),
        battle=battle_view(state.battle) if state.battle is not None else None,
        dialog=tuple(line.strip() for line in state.screen.text if line.strip()),
        menu=f"item {menu.item + 1} of {menu.max_item + 1}" if menu is not None else None,
        people=people(state, world), minimap=minimap(state, world), legend=LEGEND, objective=objective,
        milestones=milestones,
        badges=len(state.progress.badge_names), money=state.progress.money, frame=frame,
    )  # fmt: skip


def member(mon: PartyMon) -> Member:
    return Member(
        slot=mon.slot, species=mon.species_name or f"species {mon.species_id}", nickname=mon.nickname,
        level=mon.level, hp=mon.hp, max_hp=mon.max_hp, status=mon.status,
        moves=tuple(move.name or f"move {move.move_id}" for move in mon.moves if move.move_id),
    )  # fmt: skip


def battle_view(battle: BattleState) -> BattleView:
    ours = battle.player
    enemy = battle.enemy
    return BattleView(
        kind=battle.kind,
        trainer=battle.trainer_class_name if battle.kind == "trainer" else None,
        ours=f"{_name(ours)} L{ours.level} {ours.hp}/{ours.max_hp} HP" if ours is not None else "?",
        enemy=f"{_name(enemy)} L{enemy.level} {_percent(enemy)}" if enemy is not None else "?",
    )


def people(state: GameState, world: World | None) -> tuple[str, ...]:
    """The map's people in sight, each with its object number (what `talk` takes) and what it is."""
    if state.battle is not None:
        return ()
    data = world.maps.get(state.overworld.map_id) if world is not None else None
    found = []
    for sprite in state.overworld.sprites:
        thing = (
            data.objects[sprite.index - 1] if data is not None and sprite.index <= len(data.objects) else None
        )
        kind = "person"
        if thing is not None and thing.item is not None:
            kind = "item ball"
        elif thing is not None and thing.is_trainer:
            kind = "trainer"
        found.append(f"{sprite.index}: {kind} at (x {sprite.x}, y {sprite.y})")
    return tuple(found)


def minimap(state: GameState, world: World | None) -> str:
    """The map around the player; empty in a battle, without a world model, or on a map it lacks."""
    if world is None or state.battle is not None or state.overworld.map_id not in world.maps:
        return ""
    around = surroundings(world, state)
    return around_player(world, view_of(world, state, around))


def _name(mon: Mon) -> str:
    return mon.species_name or f"species {mon.species_id}"


def _percent(mon: Mon) -> str:
    # The enemy's HP as the game's bar shows it: the exact number is not on screen.
    return f"{round(100 * mon.hp / mon.max_hp)}% HP" if mon.max_hp else "? HP"
