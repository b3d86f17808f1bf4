"""The Observer role: turns the stream of perceptions into events and keeps the journey's memory."""

from __future__ import annotations

from collections import Counter, deque
from typing import Any

from engine.frozen import Frozen
from engine.game.models import GameState
from engine.messages import EventName, GameEvent, Perception, RoleReport
from engine.story.graph import story_graph

HP_LOW_FRACTION = 0.25
STUCK_AFTER_LOOKS = 300  # overworld looks without a new tile
HEARTBEAT_LOOKS = 500
NOTABLE_KEPT = 200
WHITED_OUT = frozenset({"defeat"})  # every member fainted: the game sends the player to a Pokémon Center


def _active_hp_fraction(state: GameState) -> float | None:
    battle = state.battle
    if battle is None or battle.player is None or battle.player.max_hp <= 0:
        return None
    return battle.player.hp / battle.player.max_hp


def _enemy_key(state: GameState) -> tuple[int, int] | None:
    battle = state.battle
    if battle is None or battle.enemy is None:
        return None
    return (battle.enemy.species_id, battle.enemy_party_pos or 0)


class ObserverSnapshot(Frozen):
    """The journey memory as a checkpoint keeps it."""

    looks: int
    outcomes: dict[str, int]
    badges: int
    maps_seen: tuple[int, ...]
    tiles_seen: tuple[tuple[int, int, int], ...]
    last_new_tile_look: int
    stuck_reported: bool
    notable: tuple[GameEvent, ...]
    team: tuple[str, ...]
    previous: GameState | None
    objectives_done: tuple[str, ...] | None = None  # None: not looked yet
    party_size: int = 0


class Observer:
    def __init__(self) -> None:
        self.looks = 0
        self.outcomes: Counter[str] = Counter()
        self.badges = 0
        self.maps_seen: set[int] = set()
        self.tiles_seen: set[tuple[int, int, int]] = set()
        self.last_new_tile_look = 0
        self.stuck_reported = False
        self.notable: deque[GameEvent] = deque(maxlen=NOTABLE_KEPT)
        self.team: list[str] = []
        self.previous: GameState | None = None
        self.graph = story_graph()
        self.objectives_done: frozenset[str] | None = None
        self.party_size = 0

    def observe(self, perception: Perception) -> list[GameEvent]:
        state, frame = perception.state, perception.frame
        self.looks += 1
        events = [*self._battle_events(state, frame), *self._world_events(state, frame),
                  *self._story_events(state, frame)]  # fmt: skip
        if self.looks % HEARTBEAT_LOOKS == 0:
            events.append(GameEvent(name=EventName.HEARTBEAT, frame=frame, detail=f"{self.looks} looks"))
        self.previous = state
        self.notable.extend(event for event in events if event.name is not EventName.HEARTBEAT)
        return events

    def _battle_events(self, state: GameState, frame: int) -> list[GameEvent]:
        before = self.previous
        events: list[GameEvent] = []
        if state.battle is None:
            return events
        if before is None or before.battle is None:
            enemy = state.battle.enemy
            name = enemy.species_name if enemy is not None else "?"
            events.append(
                GameEvent(name=EventName.BATTLE_START, frame=frame, detail=f"{state.battle.kind} vs {name}")
            )
        elif _enemy_key(state) != _enemy_key(before) and state.battle.enemy is not None:
            detail = f"{state.battle.enemy.species_name} L{state.battle.enemy.level}"
            events.append(GameEvent(name=EventName.NEW_ENEMY, frame=frame, detail=detail))
        now, then = _active_hp_fraction(state), _active_hp_fraction(before) if before else None
        if now is not None and 0 < now < HP_LOW_FRACTION and (then is None or then >= HP_LOW_FRACTION):
            events.append(GameEvent(name=EventName.HP_LOW, frame=frame, detail=f"active member at {now:.0%}"))
        return events

    def _world_events(self, state: GameState, frame: int) -> list[GameEvent]:
        events: list[GameEvent] = []
        where = state.overworld
        if state.battle is None:
            tile = (where.map_id, where.x, where.y)
            if tile not in self.tiles_seen:
                self.tiles_seen.add(tile)
                self.last_new_tile_look, self.stuck_reported = self.looks, False
            elif self.looks - self.last_new_tile_look > STUCK_AFTER_LOOKS and not self.stuck_reported:
                self.stuck_reported = True
                events.append(
                    GameEvent(
                        name=EventName.STUCK, frame=frame, detail=f"no new ground on map {where.map_id}"
                    )
                )
        if where.map_id not in self.maps_seen:
            self.maps_seen.add(where.map_id)
            events.append(
                GameEvent(name=EventName.NEW_MAP, frame=frame, detail=where.map_name or str(where.map_id))
            )
        if state.progress.badge_count > self.badges:
            self.badges = state.progress.badge_count
            events.append(GameEvent(name=EventName.BADGE, frame=frame, detail=f"{self.badges} badges"))
        return events

    def _story_events(self, state: GameState, frame: int) -> list[GameEvent]:
        """Objectives of the story done since the last look, and a new member (a catch, a gift)."""
        events: list[GameEvent] = []
        if state.battle is None:
            done = self.graph.done(state)
            if self.objectives_done is not None:
                for name in sorted(done - self.objectives_done):
                    events.append(GameEvent(name=EventName.OBJECTIVE_DONE, frame=frame, detail=name))
            self.objectives_done = done
        if len(state.party) > self.party_size and self.party_size:
            events.append(
                GameEvent(name=EventName.NEW_MEMBER, frame=frame, detail=f"{len(state.party)} in the party")
            )
        self.party_size = len(state.party)
        return events

    def battle_ended(self, outcome: str, opponent: str, frame: int, party: list[str]) -> GameEvent:
        self.outcomes[outcome] += 1
        self.team = party
        name = EventName.WHITEOUT if outcome in WHITED_OUT else EventName.BATTLE_END
        event = GameEvent(name=name, frame=frame, detail=f"{outcome} vs {opponent}")
        self.notable.append(event)
        self.previous = None
        return event

    def journey(self) -> dict[str, Any]:
        """The journey as JSON-ready data, for journey.json beside the run's other files."""
        return {
            "looks": self.looks,
            "badges": self.badges,
            "battles": dict(self.outcomes),
            "maps_seen": sorted(self.maps_seen),
            "tiles_seen": len(self.tiles_seen),
            "team": self.team,
            "notable_events": [event.model_dump(mode="json") for event in self.notable],
        }

    def snapshot(self) -> ObserverSnapshot:
        """Everything the observer knows, for a checkpoint (`restore` takes it back)."""
        return ObserverSnapshot(
            looks=self.looks,
            outcomes=dict(self.outcomes),
            badges=self.badges,
            maps_seen=tuple(sorted(self.maps_seen)),
            tiles_seen=tuple(sorted(self.tiles_seen)),
            last_new_tile_look=self.last_new_tile_look,
            stuck_reported=self.stuck_reported,
            notable=tuple(self.notable),
            team=tuple(self.team),
            previous=self.previous,
            objectives_done=tuple(sorted(self.objectives_done)) if self.objectives_done is not None else None,
            party_size=self.party_size,
        )

    def restore(self, snapshot: ObserverSnapshot) -> None:
        """Replace the whole journey memory with a snapshot's: after a rollback the observer must not
        remember tiles or battles from a future that no longer happened."""
        self.looks = snapshot.looks
        self.outcomes = Counter(snapshot.outcomes)
        self.badges = snapshot.badges
        self.maps_seen = set(snapshot.maps_seen)
        self.tiles_seen = set(snapshot.tiles_seen)
        self.last_new_tile_look = snapshot.last_new_tile_look
        self.stuck_reported = snapshot.stuck_reported
        self.notable = deque(snapshot.notable, maxlen=NOTABLE_KEPT)
        self.team = list(snapshot.team)
        self.previous = snapshot.previous
        done = snapshot.objectives_done
        self.objectives_done = frozenset(done) if done is not None else None
        self.party_size = snapshot.party_size

    def report(self) -> RoleReport:
        counters = {"looks": float(self.looks), "battles": float(sum(self.outcomes.values()))}
        return RoleReport(role="observer", healthy=True, counters=counters)
