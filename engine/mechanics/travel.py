"""Closed-loop walking: one leg, planned on the world model and walked here, next to the emulator.

Every press is checked against RAM: a step is done when wXCoord/wYCoord name the square the plan expects
(the game updates them as the step's animation ends), a warp when wCurMap names the destination and the
player can move again. A step that did not happen (someone walked into the way) is waited out once and
then planned around; the leg stops, with a typed outcome, at the goal, at a battle, at a dialog or script
the game started, when nothing works any more, or at its step budget. The conductor deals with whatever
stopped it and asks for the next leg.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import replace
from functools import partial

from engine.emulator.errors import FrameBudgetExceeded
from engine.emulator.session import EmulatorSession, LiveMemory, Predicate
from engine.game.buttons import Button
from engine.game.decoders import FACING
from engine.game.field_moves import FIELD_MOVE_BADGES
from engine.game.models import DecisionPoint as D
from engine.game.models import Direction, GameState
from engine.game.state import decode_state
from engine.mechanics.leg_progress import LegProgress, Stop, keep_new
from engine.mechanics.menu_steps import MenuSteps
from engine.mechanics.obstacles import ObstacleSteps
from engine.mechanics.walking import OverworldDriver
from engine.menus.errors import LiftError
from engine.menus.lift import LiftRider
from engine.messages import LegOutcome, LegReport
from engine.world.errors import WorldError
from engine.world.goals import Leg, StepGoal, ThingGoal
from engine.world.models import Square
from engine.world.planner import Plan, Planner, feared_squares, gates_as_costs, surroundings
from engine.world.targets import SquaresTarget, target_for
from engine.world.world import STEPS, Edge, World

STEP_FRAMES = 40  # a step is 16 frames; turning first and a slow frame or two fit well inside
# wWalkCounter counts a step's 8 moves down from 8, one every 2 frames; the coordinates change at 0. On the
# bicycle the count goes down twice as fast, except on Cycling Road's slope going anywhere but down (pret
# home/overworld.asm DoBikeSpeedup).
STEP_FRAME_PER_COUNT = 2
ON_BIKE = 1  # wWalkBikeSurfState
CYCLING_ROAD = 28  # ROUTE_17, the slope (pret constants/map_constants.asm)
STEP_END_FRAMES = 3  # the last frames of a step, watched one by one
HOP_FRAMES = 80  # a ledge hop moves two squares under the game's control
# Edges whose step waits for the map it leads to itself: a map connection, a warp, an elevator's ride.
ARRIVING = frozenset({"cross", "door", "push", "lift"})
AFTER_WARP_FRAMES = 60  # ...and then settle this long: with no settle a leg through a door ended on a script
WARP_FRAMES = 240  # fade out, load the map, fade in
SETTLE_FRAMES = 600  # after a warp: the game may walk the player out of a door first
CALM_FRAMES = 12
FACE_FRAMES = 12
BUMP_WAIT_FRAMES = 24
BUMPS_BEFORE_GIVING_UP = 2  # a press that did nothing twice from one square is planned around
ARRIVAL_FRAMES = 4  # a map script that fires on the last square starts within a frame or two
MAX_REPLANS = 12
SPIN_WAITS = 3  # the longest forced walks (a dozen squares, ~200 frames) end within one SETTLE_FRAMES wait
TALK_TAPS = 4
# After a talk: the overworld loop reads the joypad every frame once the player may walk; a script that
# still runs is waited out in SCRIPT_WAIT_FRAMES steps, for at most SCRIPT_FRAMES (10 s of game time).
OVERWORLD_POLL_FRAMES = 2
SCRIPT_WAIT_FRAMES = 16
SCRIPT_FRAMES = 600
WINDOW_HIDDEN = 0x90
SCRIPTED = 0x80  # wStatusFlags5 bit 7: the game is pressing the buttons (BIT_SCRIPTED_MOVEMENT_STATE)
SEEN_BY_TRAINER = 0x01  # wMiscFlags bit 0: a trainer's "!" and walk over, before any text
FACING_BITS = {value: Direction(name) for value, name in FACING.items()}


class Traveller(ObstacleSteps, MenuSteps):
    def __init__(self, session: EmulatorSession, world: World, driver: OverworldDriver) -> None:
        self.session = session
        self.world = world
        self.driver = driver  # clears text and menus
        self.ram = session.ram_map
        self._overworld_poll = (0, session.ram_map.JoypadOverworld)
        session.track_calls(*self._overworld_poll)

    # -- reading RAM -------------------------------------------------------------------------------
    def position(self) -> Square:
        read = self.session.read_u8
        return (read(self.ram.wCurMap), read(self.ram.wXCoord), read(self.ram.wYCoord))

    def facing(self) -> Direction | None:
        return FACING_BITS.get(self.session.read_u8(self.ram.wSpritePlayerStateData1FacingDirection))

    def state(self) -> GameState:
        return decode_state(self.session.memory_image(), self.ram)

    def _interruption(self, memory: LiveMemory) -> bool:
        ram = self.ram
        return bool(
            memory[ram.wIsInBattle]
            or memory[ram.hWY] < WINDOW_HIDDEN
            or memory[ram.wJoyIgnore]
            or memory[ram.wStatusFlags5] & SCRIPTED
            or memory[ram.wMiscFlags] & SEEN_BY_TRAINER
        )

    def _free(self, memory: LiveMemory) -> bool:
        """The player can walk: no text, no script, no step under way."""
        ram = self.ram
        return not (memory[ram.wWalkCounter] or self._interruption(memory))

    def _why_stopped(self) -> Stop:
        read = self.session.read_u8
        if read(self.ram.wIsInBattle):
            return Stop("battle", "a battle began")
        if read(self.ram.wMiscFlags) & SEEN_BY_TRAINER:
            return Stop("script", "a trainer saw the player")
        if read(self.ram.wJoyIgnore) or read(self.ram.wStatusFlags5) & SCRIPTED:
            return Stop("script", "the game took control (a scripted scene)")
        return Stop("dialog", "a text box opened")

    # -- one leg -----------------------------------------------------------------------------------
    def travel(self, leg: Leg) -> LegReport:
        progress = LegProgress(started_frame=self.session.frame)
        outcome: LegOutcome
        try:
            if isinstance(leg.goal, StepGoal):
                self._step(self._edge_toward(leg.goal.direction), progress)
                outcome, reason = "arrived", f"pressed {leg.goal.direction.value}"
            else:
                outcome, reason = self._walk(leg, progress)
        except Stop as stop:
            outcome, reason = stop.outcome, stop.reason
        return self._report(outcome, reason, progress)

    def _edge_toward(self, direction: Direction) -> Edge:
        """What one press does from here, as the world model knows it (a door is walked as a warp)."""
        found = [edge for edge in self.world.edges(self.position()) if edge.direction is direction
                 and edge.kind != "lift"]  # fmt: skip
        return found[0] if found else Edge(direction=direction, to=None, kind="walk")

    def _walk(self, leg: Leg, progress: LegProgress) -> tuple[LegOutcome, str]:
        while True:
            plan = self._plan(leg, progress)
            if plan is None:
                return ("no_path", self._no_way(leg)) if progress.planned_steps is None else (
                    "blocked", "the way is shut now")  # fmt: skip
            if progress.planned_steps is None:
                progress.planned_steps = plan.steps
            if self._follow(plan, leg, progress):
                break
            progress.replans += 1
            if progress.replans > MAX_REPLANS:
                return "blocked", f"still not there after {MAX_REPLANS} new plans"
        self._face(plan.face)
        if leg.interact or leg.buy or leg.sell:
            self._interact(leg, progress)
        elif leg.teach is not None:
            self._teach(leg.teach, progress)
        elif leg.use is not None:
            self._use(leg.use, progress)
        elif leg.toss is not None:
            self._toss(*leg.toss, progress)
        elif leg.give is not None:
            self._give(leg.give, progress)
        elif leg.push and plan.face is not None:
            self._push_boulder(plan.face, progress)
        elif leg.pc is not None:
            self._at_pc(leg.pc, progress)
        elif leg.fly is not None:
            self._fly(leg.fly, progress)
        elif leg.order is not None:
            self._reorder(*leg.order, progress)
        else:
            self.session.tick(ARRIVAL_FRAMES)
            if self._interrupted():
                raise self._why_stopped()
        return "arrived", "; ".join(["arrived", *progress.notes])

    def _plan(self, leg: Leg, progress: LegProgress) -> Plan | None:
        self._wait_free(or_trainer_words=True)  # a warp's last frames, a sprite finishing its step
        if not self._on_a_loaded_map():
            raise Stop("script", f"the game is still between maps (map id {self.position()[0]})")
        state = self.state()
        if state.decision_point is not D.OVERWORLD_FREE:
            raise self._why_stopped() if state.battle is None else Stop("battle", "a battle is on")
        around = surroundings(self.world, state)
        progress.items, progress.unlockable = around.items, around.unlockable
        if leg.feared:
            around = replace(around, feared=feared_squares(self.world, state, leg.feared))
        if leg.cross_gates:
            around = gates_as_costs(around, frozenset(leg.shut))
        elif leg.shut:
            around = replace(around, blocked=around.blocked | frozenset(leg.shut))
        try:
            target = target_for(self.world, around, leg.goal)
        except WorldError as exc:
            raise Stop("no_path", str(exc)) from exc
        return Planner(self.world, around, leg.intent, frozenset(progress.failed)).plan(target)

    def _on_a_loaded_map(self) -> bool:
        """A warp sets wCurMap first and loads the map's header and coordinates later (the game's own
        Safari Zone timeout does it without the fade the walk watches for): wait until the loaded tileset is
        the map's and the player stands inside it."""
        ram, maps = self.ram, self.world.maps

        def loaded(memory: LiveMemory) -> bool:
            data = maps.get(memory[ram.wCurMap])
            return (data is not None and memory[ram.wCurMapTileset] == data.tileset
                    and data.inside(memory[ram.wXCoord], memory[ram.wYCoord]))  # fmt: skip

        if loaded(self.session.pyboy.memory):
            return True
        self._until(loaded, SETTLE_FRAMES)
        self._wait_free()
        return loaded(self.session.pyboy.memory)

    def _no_way(self, leg: Leg) -> str:
        """Why there is no plan: a field move the player cannot use yet, if one would open the way."""
        state = self.state()
        around = surroundings(self.world, state)
        usable = around.field_moves
        around = replace(around, field_moves=frozenset(FIELD_MOVE_BADGES))
        try:
            plan = Planner(self.world, around, leg.intent).plan(target_for(self.world, around, leg.goal))
        except WorldError:
            plan = None
        used = {edge.kind.upper() for edge in plan.edges if edge.kind in ("cut", "surf")} if plan else set()
        needs = sorted(used - usable)
        if not needs:
            return "no way there from here"
        missing = [f"{move} (a member that knows it and the {str(FIELD_MOVE_BADGES[move]).title()} Badge)"
                   for move in needs]  # fmt: skip
        return f"no way there from here without {', '.join(missing)}"

    def _follow(self, plan: Plan, leg: Leg, progress: LegProgress) -> bool:
        """Walk the plan; True at its end, False where a new plan is needed (a new map, a bump)."""
        for edge in plan.edges:
            if progress.steps >= leg.max_steps:
                raise Stop("max_steps", f"{leg.max_steps} steps taken")
            if edge.to in progress.items and edge.kind == "walk":  # a walk stays on this map
                self._pick_up(edge, progress)
            self._light_up(progress)
            at = self._step(edge, progress)
            if at is None:
                bump = (self.position(), edge.direction)
                progress.bumps[bump] += 1
                if progress.bumps[bump] >= BUMPS_BEFORE_GIVING_UP or edge.kind == "push":
                    progress.failed.add(bump)
                self.session.tick(BUMP_WAIT_FRAMES)
                return False
            if edge.to is not None and at != edge.to:
                return False  # somewhere the plan did not expect (a script moved the player): plan again
        return True

    # -- pressing ----------------------------------------------------------------------------------
    def _step(self, edge: Edge, progress: LegProgress) -> Square | None:
        """Press the edge's direction until the player stands where it leads; where they stand then, or
        None if they did not move (a bump). Stop if the game took over."""
        before = self.position()
        if edge.kind in ("door", "push"):
            arrived = self._through_warp(edge, before)
        elif edge.kind == "cut":
            arrived = self._cut_through(edge, before, progress)
        elif edge.kind == "surf":
            arrived = self._surf_onto(edge, before, progress)
        elif edge.to in progress.unlockable:
            arrived = self._unlock_through(edge, before, progress)
        elif edge.kind == "spin":
            arrived = self._spin(edge, before, progress)
        elif edge.kind == "lift":
            arrived = self._ride(edge, progress)
        else:
            arrived = self._walk_step(edge, before)
        if arrived is not None and edge.kind in ARRIVING and edge.kind != "cross" and arrived[0] != before[0]:
            # A warp's own edge waited for the new map already; the game may still take the controls for a
            # moment after (a door's walk-out, a map's first script), so a short settle, not SETTLE_FRAMES.
            self.session.tick(AFTER_WARP_FRAMES)
            if not self._wait_calm():
                raise self._why_stopped()
            arrived = self.position()
        elif arrived is not None and edge.kind not in ARRIVING and arrived[0] != before[0]:
            # A step the world model took for a plain one warped (a warp it did not know of): the map id
            # changes as the fade begins, so wait for the new map before anything reads it. Not after a
            # warp's own edge, which waited already: there the player stands still on the new map and the
            # wait ran its whole SETTLE_FRAMES, 600 frames a door (a building's exit took 697 frames, 68
            # of them the game's own).
            arrived = self._arrive(None, before)
        if arrived is None:
            return None
        progress.steps += 2 if edge.kind == "hop" else 1
        progress.walked.append(arrived)
        if edge.warp is not None and edge.via is not None:
            progress.warps.append((edge.via[0], edge.warp.index))
        return arrived

    def _walk_step(self, edge: Edge, before: Square) -> Square | None:
        if edge.kind == "hop":
            return self._hop(edge, before)
        ram = self.ram

        def moved(memory: LiveMemory) -> bool:
            at = (memory[ram.wCurMap], memory[ram.wXCoord], memory[ram.wYCoord])
            return at != before or self._interruption(memory)

        def started(memory: LiveMemory) -> bool:
            return bool(memory[ram.wWalkCounter]) or moved(memory)

        self.session.hold(edge.direction.button)
        try:
            self._until(started, STEP_FRAMES)
            # Nothing the walk must answer happens mid-step (battles, scripts and trainers' eyes wait
            # for the step's end), so the step's middle is run in one go and only its end frame by frame.
            per_count = self._frames_per_count(edge.direction)
            self.session.tick(per_count * self.session.read_u8(ram.wWalkCounter) - STEP_END_FRAMES)
            self._until(moved, STEP_FRAMES)
        finally:
            self.session.release(edge.direction.button)
        return self._landed_on(before)

    def _frames_per_count(self, direction: Direction) -> int:
        if self.session.read_u8(self.ram.wWalkBikeSurfState) != ON_BIKE:
            return STEP_FRAME_PER_COUNT
        uphill = self.session.read_u8(self.ram.wCurMap) == CYCLING_ROAD and direction is not Direction.DOWN
        return STEP_FRAME_PER_COUNT if uphill else 1

    def _pick_up(self, edge: Edge, progress: LegProgress) -> None:
        """An item ball in the way: face it, A, its text read ("Found ...!"); the ball is gone then (a full
        bag leaves it there, and the step that follows bumps and is planned around)."""
        assert edge.to is not None
        self._face(edge.direction)
        for _ in range(TALK_TAPS):
            self.session.press(Button.A)
            if self._interrupted():
                break
        self.driver.settle(read=partial(keep_new, progress.text))
        progress.items = progress.items - {edge.to}
        where = self.world.maps[edge.to[0]].name
        progress.picked.append(f"picked up the item at {where} ({edge.to[1]}, {edge.to[2]})")

    def _spin(self, edge: Edge, before: Square, progress: LegProgress) -> Square | None:
        """Onto a spinner's arrow: the step, then the game's forced walk (it holds the controls until the
        walk ends), waited out; where the player stands then."""
        if self._walk_step(edge, before) is None:
            return None
        for _ in range(SPIN_WAITS):
            if self._wait_calm():
                break
        else:
            raise self._why_stopped()
        if self.session.read_u8(self.ram.wIsInBattle):
            raise Stop("battle", "a battle began")
        progress.spins += 1
        return self.position()

    def _ride(self, edge: Edge, progress: LegProgress) -> Square | None:
        """An elevator: face its panel, choose the floor, then out by the nearest exit, which now leads to
        that floor. Where the player stands then (None if no exit could be walked to)."""
        assert edge.floor is not None and edge.to is not None
        self._face(edge.direction)
        try:
            LiftRider(self.session, self.driver).ride(edge.floor, read=partial(keep_new, progress.text))
        except LiftError as exc:
            raise Stop("blocked", f"the elevator: {exc}") from exc
        # The car shakes once the text closes (ShakeElevator, with no flag to tell): the player has the
        # controls back when the overworld loop reads the joypad again.
        waited = 0
        while not self._overworld_polled() and waited < SCRIPT_FRAMES:
            self.session.tick(SCRIPT_WAIT_FRAMES)
            waited += SCRIPT_WAIT_FRAMES
        car = self.position()
        exits: dict[Square, Direction | None] = {
            (car[0], x, y): found.direction for x, y in self.world.squares(car[0])
            for found in self.world.edges((car[0], x, y)) if found.kind in ("door", "push") and found.via
        }  # fmt: skip
        plan = Planner(self.world, surroundings(self.world, self.state())).plan(SquaresTarget(exits))
        if plan is None:
            raise Stop("blocked", "no way out of the elevator")
        for step in plan.edges:
            if self._step(step, progress) is None:
                return None
        ways_out = [found for found in self.world.edges(self.position()) if found.kind in ("door", "push")]
        if not ways_out:  # a walk cut short (someone in the way): no traceback, a leg that ends here
            raise Stop("blocked", "the walk to the elevator's door did not end at the door")
        arrived = self._through_warp(replace(ways_out[0], to=edge.to), self.position())
        if arrived is not None and arrived[0] != edge.to[0]:
            raise Stop("blocked", f"the elevator let the player out on map {arrived[0]}, not {edge.to[0]}")
        progress.rides.append(f"rode the elevator to {self.world.maps[edge.to[0]].name}")
        return arrived

    def _hop(self, edge: Edge, before: Square) -> Square | None:
        """Over a ledge: the game walks the second square itself, as a scripted move."""
        ram, wanted = self.ram, edge.to

        def landed(memory: LiveMemory) -> bool:
            at = (memory[ram.wCurMap], memory[ram.wXCoord], memory[ram.wYCoord])
            return at == wanted or bool(memory[ram.wIsInBattle])

        self._hold_for(edge.direction, landed, HOP_FRAMES)
        self._wait_free()  # the landing: the game still holds the controls a few frames
        return self._landed_on(before)

    def _landed_on(self, before: Square) -> Square | None:
        after = self.position()
        if self.session.read_u8(self.ram.wIsInBattle):
            raise Stop("battle", "a battle began")
        if after == before:
            if self._interrupted():
                raise self._why_stopped()
            return None
        return after

    def _until(self, done: Predicate, frames: int) -> None:
        with suppress(FrameBudgetExceeded):
            self.session.run_until(done, frames, check_every=1)

    def _through_warp(self, edge: Edge, before: Square) -> Square | None:
        """Into a warp: wCurMap changes as the fade begins, the coordinates only once the new map is in
        (and a door then walks the player out one square), so the warp is done when the player stands
        where the plan expects, or, failing that, anywhere new and free to move.

        A warp that leads to the same map (Saffron Gym's and Silph Co.'s pads) leaves wCurMap as it was:
        there the warp is done once the player stands neither here nor on the pad. Held until the timeout
        instead, the button walked the player on from the pad they landed on, through the next pad, and
        a run went back and forth between two rooms of Saffron Gym until it stopped."""
        ram = self.ram
        dx, dy = STEPS[edge.direction]
        near = {before[1:], (before[1] + dx, before[2] + dy)}

        def warped(memory: LiveMemory) -> bool:
            if memory[ram.wCurMap] != before[0] or memory[ram.wIsInBattle]:
                return True
            return (memory[ram.wXCoord], memory[ram.wYCoord]) not in near

        self._hold_for(edge.direction, warped, WARP_FRAMES)
        if self.session.read_u8(ram.wIsInBattle):
            raise Stop("battle", "a battle began")
        if self.position()[0] == before[0] and self.position()[1:] in near:
            if self._interrupted():
                raise self._why_stopped()
            return None if self.position() == before else self.position()
        return self._arrive(edge.to, before)

    def _arrive(self, expected: Square | None, before: Square) -> Square:
        ram = self.ram
        # The warp square just stepped on: the coordinates stay its own until the new map is in.
        stepped_on = self.position()[1:]

        def landed(memory: LiveMemory) -> bool:
            at = (memory[ram.wCurMap], memory[ram.wXCoord], memory[ram.wYCoord])
            if expected is not None and at != expected:
                return False
            if expected is None and at[1:] == stepped_on:
                return False
            return at[1:] != before[1:] and self._free(memory)

        with suppress(FrameBudgetExceeded):
            self.session.run_until(landed, SETTLE_FRAMES)
        if not self._wait_calm():
            raise self._why_stopped()
        return self.position()

    def _wait_calm(self) -> bool:
        """Free, and still free `CALM_FRAMES` later: a map being loaded looks free for a frame or two
        between its steps (the coordinates are new before the map's header is)."""
        busy = lambda memory: not self._free(memory)  # noqa: E731
        for _ in range(SETTLE_FRAMES // CALM_FRAMES):
            if not self._wait_free():
                return False
            try:
                self.session.run_until(busy, CALM_FRAMES)
            except FrameBudgetExceeded:
                return True
        return False

    def _hold_for(self, direction: Direction, done: Predicate, frames: int) -> None:
        """Hold a direction until `done`, checked every frame: a step ends on the frame the game reads
        the pad for the next one, and a button still held one frame late walks a square too far."""
        self.session.hold(direction.button)
        try:
            self._until(done, frames)
        finally:
            self.session.release(direction.button)

    def _interrupted(self) -> bool:
        return self._interruption(self.session.pyboy.memory)

    def _wait_free(self, or_trainer_words: bool = False) -> bool:
        """Until the player can walk again; False if the game is still busy (text, a script). With
        `or_trainer_words`, also stop (False) once a trainer who saw the player has walked up and his words
        wait for a button: they never free by themselves, and each walk-up ran the whole wait out."""
        settled = self._free
        if or_trainer_words:
            settled = lambda memory: self._free(memory) or self._trainer_words_wait(memory)  # noqa: E731
        try:
            self.session.run_until(settled, SETTLE_FRAMES)
        except FrameBudgetExceeded:
            return False
        return self._free(self.session.pyboy.memory)

    def _trainer_words_wait(self, memory: LiveMemory) -> bool:
        """A trainer engaged the player (wMiscFlags, kept until EndTrainerBattle) and a text box's ▼ reads
        the pad: not a warp's fade or a map's script, which the plain wait must still sit out."""
        return bool(memory[self.ram.wMiscFlags] & SEEN_BY_TRAINER) and (
            self.driver.waiting_for_button() and self.session.polled_by_text_box()
        )

    # -- facing and talking ------------------------------------------------------------------------
    def _face(self, direction: Direction | None) -> None:
        if direction is None or self.facing() is direction:
            return
        ram = self.ram
        self._hold_for(direction, lambda memory: FACING_BITS.get(
            memory[ram.wSpritePlayerStateData1FacingDirection]) is direction, FACE_FRAMES)  # fmt: skip
        self._wait_free()

    def _interact(self, leg: Leg, progress: LegProgress) -> None:
        """A at what the player faces, then the text to its end; YES/NO by the leg's answer (or, with
        `leg.buy` or `leg.sell`, the Mart's menus). The game acts on A only when it sees it go down, and
        not in the frames right after a turn, so A is tapped until a text box or a script answers."""
        self._tap_a()
        if leg.buy and isinstance(leg.goal, ThingGoal):
            self._vend(leg.buy, progress)
            return
        if leg.buy or leg.sell:
            self._shop(leg.buy, progress, sales=leg.sell)
            return
        answer = Button.B if leg.answer == "no" else Button.A
        menu = Button.A if leg.answer == "first" else Button.B
        read = partial(keep_new, progress.text)
        state = self.driver.settle(answer, read=read, menu=menu)
        waited = 0
        while state.battle is None and not self._overworld_polled() and waited < SCRIPT_FRAMES:
            # A script may go on after its text with the screen looking free (Bill's PC plays the cell
            # separator's sounds between DelayFrames): the player has the controls back only once the
            # overworld loop reads the joypad again.
            self.session.tick(SCRIPT_WAIT_FRAMES)
            waited += SCRIPT_WAIT_FRAMES
            state = self.driver.settle(answer, read=read, menu=menu)
        if state.battle is not None or self.driver.in_battle():
            raise Stop("battle", "the talk led to a battle")

    def _tap_a(self) -> None:
        for _ in range(TALK_TAPS):
            self.session.press(Button.A)
            if self._interrupted():
                break

    def _overworld_polled(self) -> bool:
        since = self.session.frames_since_call(*self._overworld_poll)
        return since is not None and since <= OVERWORLD_POLL_FRAMES

    def _report(self, outcome: LegOutcome, reason: str, progress: LegProgress) -> LegReport:
        return LegReport(
            outcome=outcome, reason=reason, steps=progress.steps,
            frames=self.session.frame - progress.started_frame, planned_steps=progress.planned_steps,
            replans=progress.replans, walked=tuple(progress.walked), warps=tuple(progress.warps),
            text=tuple(progress.text), bought=tuple(progress.bought), sold=tuple(progress.sold),
            field_moves=tuple(progress.field_moves),
            taught=tuple(progress.taught), spins=progress.spins, pushes=progress.pushes,
            rides=tuple(progress.rides),
            picked=tuple(progress.picked), used=tuple(progress.used),
            state=self.state(),
        )  # fmt: skip
