"""The steps a plain press does not take: a tree CUT clears, water SURF starts on, a locked door the key
opens. Each tries the step first (the tree may be cut already, the door open), then does what the obstacle
needs from the party menu or with A, and the step; the walk (mechanics/travel.py) dispatches to them."""

from __future__ import annotations

from functools import partial
from typing import Protocol

from engine.emulator.session import EmulatorSession, LiveMemory, Predicate
from engine.game.field_moves import member_with
from engine.game.models import Direction, GameState
from engine.game.ram import RamMap
from engine.mechanics.leg_progress import LegProgress, Stop, keep_new
from engine.mechanics.walking import OverworldDriver
from engine.menus.errors import FieldMoveError
from engine.menus.field_move import STRENGTH_ACTIVE, FieldMoveUser
from engine.world.models import Square
from engine.world.tables import CUT_TREE_TILES
from engine.world.world import STEPS, Edge, World

SETTLE_FRAMES = 600  # SURF's text and the game's own step onto the water
SURFING = 2  # wWalkBikeSurfState: 0 walking, 1 on the bicycle, 2 surfing
# A push: the game wants the direction held into the boulder for two of its overworld passes (pret
# TryPushingBoulder: "the player must try pushing twice"), then moves the boulder one square (16 frames).
PUSH_FRAMES = 120
SPRITE_COORD_BIAS = 4  # wSpriteStateData2 keeps map coordinates + 4


class Walker(Protocol):
    """What the obstacle steps need of the walk that uses them."""

    session: EmulatorSession
    world: World
    driver: OverworldDriver
    ram: RamMap

    def state(self) -> GameState: ...
    def position(self) -> Square: ...
    def _walk_step(self, edge: Edge, before: Square) -> Square | None: ...
    def _face(self, direction: Direction | None) -> None: ...
    def _tap_a(self) -> None: ...
    def _until(self, done: Predicate, frames: int) -> None: ...
    def _free(self, memory: LiveMemory) -> bool: ...
    def _hold_for(self, direction: Direction, done: Predicate, frames: int) -> None: ...
    def _wait_free(self) -> bool: ...


class ObstacleSteps:
    def _cut_through(self: Walker, edge: Edge, before: Square, progress: LegProgress) -> Square | None:
        """Onto a tree's square: a step first (the tree may be cut already: it stays cut until the map
        is loaded again), then, if the player bumped into the tree, CUT from the party menu and the step."""
        arrived = self._walk_step(edge, before)
        if arrived is not None:
            return arrived
        tree = CUT_TREE_TILES.get(self.world.maps[before[0]].tileset)
        if self.session.read_u8(self.ram.wTileInFrontOfPlayer) != tree:
            return None  # not the tree in the way (someone stands there): a bump like any other
        member = member_with(self.state(), "CUT")
        if member is None:
            raise Stop("blocked", "a tree is in the way and no member knows CUT")
        try:
            FieldMoveUser(self.session, self.driver).use("CUT", member, read=partial(keep_new, progress.text))
        except FieldMoveError as exc:
            raise Stop("blocked", f"CUT failed: {exc}") from exc
        name = self.world.maps[before[0]].name
        progress.field_moves.append(f"CUT at {name} {edge.to[1:] if edge.to else ''}")
        return self._walk_step(edge, before)

    def _light_up(self: Walker, progress: LegProgress) -> None:
        """In a dark cave (wMapPalOffset set on entering Rock Tunnel, kept on its floors until the player
        is outdoors again), FLASH from the party menu once a member knows it and the Boulder Badge is
        held; tried once a leg, and a failure leaves the cave walked in the dark on the world model's map."""
        if progress.lit or not self.session.read_u8(self.ram.wMapPalOffset):
            return
        progress.lit = True
        state = self.state()
        member = member_with(state, "FLASH")
        if member is None or "BOULDER" not in state.progress.badge_names:
            return
        try:
            FieldMoveUser(self.session, self.driver).use(
                "FLASH", member, read=partial(keep_new, progress.text)
            )
        except FieldMoveError as exc:
            progress.notes.append(f"FLASH failed: {exc}")
            return
        progress.field_moves.append(f"FLASH at {self.world.maps[self.position()[0]].name}")

    def _unlock_through(self: Walker, edge: Edge, before: Square, progress: LegProgress) -> Square | None:
        """Onto a locked door's square: a step first (it may be open already), then, on a bump, A facing it
        (the key in the bag opens it: "Bingo! The CARD KEY opened the door!") and the step."""
        arrived = self._walk_step(edge, before)
        if arrived is not None:
            return arrived
        self._face(edge.direction)
        self._tap_a()
        self.driver.settle(read=partial(keep_new, progress.text))
        arrived = self._walk_step(edge, before)
        if arrived is not None and edge.to is not None:
            where = self.world.maps[edge.to[0]].name
            progress.used.append(f"CARD_KEY opened the door at {where} ({edge.to[1]}, {edge.to[2]})")
        return arrived

    def _surf_onto(self: Walker, edge: Edge, before: Square, progress: LegProgress) -> Square | None:
        """Onto the water: face it, SURF from the party menu, and the game moves the player onto it
        (wWalkBikeSurfState 2 once it has)."""
        member = member_with(self.state(), "SURF")
        if member is None:
            raise Stop("blocked", "water is in the way and no member knows SURF")
        self._face(edge.direction)
        try:
            FieldMoveUser(self.session, self.driver).use(
                "SURF", member, read=partial(keep_new, progress.text)
            )
        except FieldMoveError as exc:
            raise Stop("blocked", f"SURF failed: {exc}") from exc
        ram, wanted = self.ram, edge.to

        def afloat(memory: LiveMemory) -> bool:
            at = (memory[ram.wCurMap], memory[ram.wXCoord], memory[ram.wYCoord])
            return at == wanted and memory[ram.wWalkBikeSurfState] == SURFING and self._free(memory)

        self._until(afloat, SETTLE_FRAMES)
        if self.position() != wanted or self.session.read_u8(ram.wWalkBikeSurfState) != SURFING:
            raise Stop("blocked", f"SURF did not put the player on the water at {wanted}")
        name = self.world.maps[before[0]].name
        progress.field_moves.append(f"SURF at {name} {before[1:]}")
        return self.position()

    def _push_boulder(self: Walker, direction: Direction, progress: LegProgress) -> None:
        """The boulder the player faces, one square on: STRENGTH from the party menu if it is not on (the
        game turns it off on every new map), then the direction held until the boulder's sprite has
        moved; RAM checked that it stands one square further."""
        state = self.state()
        here = state.overworld
        dx, dy = STEPS[direction]
        front = (here.x + dx, here.y + dy)
        boulder = next((s.index for s in here.sprites if (s.x, s.y) == front), None)
        if boulder is None:
            raise Stop("blocked", f"no boulder at {front} to push")
        if not self.session.read_u8(self.ram.wStatusFlags1) & STRENGTH_ACTIVE:
            member = member_with(state, "STRENGTH")
            if member is None:
                raise Stop("blocked", "a boulder is in the way and no member knows STRENGTH")
            try:
                FieldMoveUser(self.session, self.driver).use(
                    "STRENGTH", member, read=partial(keep_new, progress.text)
                )
            except FieldMoveError as exc:
                raise Stop("blocked", f"STRENGTH failed: {exc}") from exc
            progress.field_moves.append(f"STRENGTH at {self.world.maps[here.map_id].name}")
        self._face(direction)
        at = self.ram.wSpriteStateData2 + boulder * self.ram.sprite_struct + 4  # map Y + 4, then X + 4
        lands = (front[1] + dy + SPRITE_COORD_BIAS, front[0] + dx + SPRITE_COORD_BIAS)

        def moved(memory: LiveMemory) -> bool:
            return (memory[at], memory[at + 1]) == lands or bool(memory[self.ram.wIsInBattle])

        self._hold_for(direction, moved, PUSH_FRAMES)
        self._wait_free()
        where = (
            self.session.read_u8(at + 1) - SPRITE_COORD_BIAS,
            self.session.read_u8(at) - SPRITE_COORD_BIAS,
        )
        if where != (front[0] + dx, front[1] + dy):
            raise Stop("blocked", f"the boulder at {front} did not move {direction.value}")
        progress.pushes += 1
