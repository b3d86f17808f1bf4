"""One game for an agent outside the engine: the MCP server's tools and the Gymnasium environment's
actions are these verbs.

A `GameSession` owns one Emulator role (PyBoy, the closed loops) and answers with frozen models
(engine/play/models.py). Every verb is bounded: in frames by the closed loops' own budgets and the
arguments' limits, in wall time by `call_seconds` (the config's `runtime.call_timeout_seconds`, the
longest any role call may take), looked at where the game can stop cleanly. Every failure is a
`PlayError` with one line: bad input, a verb that does not fit the moment, or the game not doing what
was asked within its bounds. Not thread-safe: one caller at a time (the MCP server serializes calls).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ParamSpec, TypeVar

from engine.config import EngineConfig
from engine.emulator.session import open_session
from engine.errors import EngineError
from engine.game.models import GameState
from engine.mechanics.battle_driver import Picker, by_policy
from engine.mechanics.role import EmulatorRole
from engine.play.battle import BattleTurns
from engine.play.buttons import parse_buttons
from engine.play.errors import PlayError
from engine.play.looking import observation
from engine.play.models import (
    BattleTurn,
    Milestones,
    Objectives,
    Observation,
    Pressed,
    ScreenText,
    Talked,
    Walked,
)
from engine.play.progress import StoryProgress
from engine.play.walk import Deadline, current, talk, walk
from engine.world.goals import Answer, Goal, HereGoal, ObjectGoal
from engine.world.world import World

DEFAULT_GOTO_STEPS = 2000  # as `engine goto`
MAX_GOTO_STEPS = 20_000
MAX_SCALE = 8

Params = ParamSpec("Params")
Result = TypeVar("Result")


def one_line_errors(verb: Callable[Params, Result]) -> Callable[Params, Result]:
    """Any engine error below (a closed loop out of budget, a frozen game, an unknown place) leaves the
    verb as a PlayError with its one line, so callers catch one root."""

    @functools.wraps(verb)
    def checked(*args: Params.args, **kwargs: Params.kwargs) -> Result:
        try:
            return verb(*args, **kwargs)
        except PlayError:
            raise
        except EngineError as exc:
            raise PlayError(str(exc)) from exc

    return checked


class GameSession:
    """One game: built with `open` (from a cartridge and an optional save state), closed with `close`."""

    def __init__(self, role: EmulatorRole, config: EngineConfig) -> None:
        self.role = role
        self.config = config
        self.call_seconds = config.runtime.call_timeout_seconds
        self.battle = BattleTurns(role)
        self.story = StoryProgress()
        self._world: World | None = None
        self._world_missing = False
        self._reader: Callable[[bytes], str] | None = None

    @classmethod
    def open(cls, rom: Path, state: bytes | None, config: EngineConfig, *, start: bool = True) -> GameSession:
        """The game from `rom`, at the save state `state` (exported or plain PyBoy) or power-on. With
        `start`, it is brought to where the player can walk as `engine run` does: the intro played from
        power-on, only the options set from a save state, a battle in the state left for the agent.
        Without it the game stays as the state (or power-on) has it: an agent pressing every button
        itself. A bad cartridge or state raises the emulator's UserInputError before anything runs."""
        session = open_session(rom, config.emulator)
        try:
            if state is not None:
                session.load_state(state)
            role = EmulatorRole.on_session(session, config.emulator, config.player)
            if start:
                role.start(None)
            game = cls(role, config)
            game._note()  # milestones the state has done already are marked as done before the session
        except BaseException:
            session.close()
            raise
        return game

    def close(self) -> None:
        self.role.close()

    def __enter__(self) -> GameSession:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- looking -----------------------------------------------------------------------------------
    def state(self) -> GameState:
        """The game now, decoded from RAM (the engine's own model of it)."""
        return current(self.role)

    @one_line_errors
    def observe(self) -> Observation:
        """The text state: map, position, party, battle, the text on screen, the map around the player,
        the next objective and the milestones done."""
        state = self._note()
        objective = self.story.next_objective(state) if state.battle is None else None
        milestones = self.story.done_names(state)
        return observation(state, self.world(), objective, milestones, self.role.frame_count())

    @one_line_errors
    def screenshot(self, scale: int = 1) -> bytes:
        """The screen as PNG, 160 x 144 pixels times `scale` (1 to 8)."""
        if not 1 <= scale <= MAX_SCALE:
            raise PlayError(f"scale must be 1 to {MAX_SCALE}, not {scale}")
        screens = self.role.screens(scale)
        return screens.scaled if scale > 1 else screens.plain

    @one_line_errors
    def read_screen(self) -> ScreenText:
        """The screen read from its pixels alone (engine/vision/screen): kind, text, menu, HP bars; no
        RAM. What the vision harness level may be told besides the image."""
        if self._reader is None:
            from engine.vision.screen.reader import ScreenReader

            reader = ScreenReader.from_rom(self.role.session.rom_bytes)
            self._reader = lambda png: reader.read(png).as_text()
        return ScreenText(text=self._reader(self.role.screens(1).plain))

    # -- acting ------------------------------------------------------------------------------------
    @one_line_errors
    def press(self, buttons: Sequence[str]) -> Pressed:
        """Press 1 to 3 buttons (up, down, left, right, a, b, start, select) in order, each held and let
        go for the harness level's frame counts, then wait the settle frames for the game to answer."""
        pressed = parse_buttons(buttons)
        harness = self.config.harness
        report = self.role.press_buttons(pressed, harness.hold_frames, harness.release_frames,
                                         harness.settle_frames)  # fmt: skip
        self.battle.forget()
        self._note()
        return Pressed(buttons=tuple(button.value for button in pressed), frames=report.frames)

    @one_line_errors
    def goto(self, place: str, max_steps: int = DEFAULT_GOTO_STEPS, fight: bool = True) -> Walked:
        """Walk to `place` (a map as pret spells it, VIRIDIAN_MART, or a square on one, PEWTER_CITY:16,17),
        every step checked on RAM; dialogs on the way are read to their end. With `fight`, battles on
        the way are played by the rule-based policy; without it the walk stops where one begins (outcome
        "battle"). Ends at the place, or where the way is lost, `max_steps` spent or time is up."""
        if not 1 <= max_steps <= MAX_GOTO_STEPS:
            raise PlayError(f"max_steps must be 1 to {MAX_GOTO_STEPS}, not {max_steps}")
        if not fight and self.role.in_battle():
            raise PlayError("a battle is on: play it with legal_actions and act first")
        from engine.world.places import parse_place

        goal = parse_place(self._need_world(), place)
        self.battle.forget()
        walked = walk(self.role, goal, place, max_steps, self._policy() if fight else None,
                      Deadline(self.call_seconds))  # fmt: skip
        self._note()
        return walked

    @one_line_errors
    def talk(self, person: int | None = None, answer: Answer = "yes") -> Talked:
        """Talk to whoever the player faces (`person` None), or walk next to the current map's object
        `person` (its sprite slot, 1-based, as the minimap and the map data number them) and talk to it.
        The text is read to its end; a YES/NO question is answered with `answer`."""
        if self.role.in_battle():
            raise PlayError("a battle is on: talk is for the overworld")
        if answer not in ("yes", "no"):
            raise PlayError(f"answer must be yes or no, not {answer!r}")
        goal = HereGoal() if person is None else self._person(person)
        talked = talk(self.role, goal, answer)
        self._note()
        return talked

    @one_line_errors
    def legal_actions(self) -> BattleTurn:
        """In a battle: the decision it waits at and the legal actions, by id (the game is run to the
        next decision first). PlayError outside a battle."""
        return self.battle.turn()

    @one_line_errors
    def act(self, action_id: int) -> BattleTurn:
        """In a battle: carry out legal action `action_id` (the full closed loop: menus, buttons, the
        messages read), then run to the next decision or the battle's end."""
        turn = self.battle.act(action_id)
        self._note()
        return turn

    # -- the story ---------------------------------------------------------------------------------
    @one_line_errors
    def objectives(self) -> Objectives:
        """The story's objectives: the open ones with their next step, and how many are done."""
        return self.story.objectives(self._note())

    @one_line_errors
    def milestones(self) -> Milestones:
        """The twelve milestones, each done or not, with the frame it was first seen done."""
        return self.story.milestones(self._note())

    # -- save states -------------------------------------------------------------------------------
    @one_line_errors
    def save_state(self) -> bytes:
        """The game as a state file (it names this cartridge, so no other accepts it)."""
        return self.role.save_state()

    @one_line_errors
    def load_state(self, data: bytes) -> None:
        """Go back to a state `save_state` gave (or any state of this cartridge). A bad one raises and
        leaves the game as it was."""
        self.role.session.load_state(data)
        self.role.executor.resume_at(None)
        self.battle.forget()
        self._note()

    # -- helpers -----------------------------------------------------------------------------------
    def world(self) -> World | None:
        """The cartridge's maps, read on first use; None when the cartridge has none to read."""
        if self._world is None and not self._world_missing:
            try:
                self._world = self.role.world
            except EngineError:
                self._world_missing = True
        return self._world

    def _need_world(self) -> World:
        world = self.world()
        if world is None:
            raise PlayError("this cartridge's maps cannot be read: goto and talk need them")
        return world

    def _person(self, index: int) -> Goal:
        world = self._need_world()
        map_id = self.state().overworld.map_id
        data = world.maps.get(map_id)
        count = len(data.objects) if data is not None else 0
        if not 1 <= index <= count:
            raise PlayError(f"no person {index} on this map (it has {count}, numbered from 1)")
        return ObjectGoal(map_id=map_id, index=index)

    def _policy(self) -> Picker:
        from engine.tactician.rule_based import RuleBasedPolicy

        return by_policy(RuleBasedPolicy(lookahead=self.config.models.rule_based.battle == "search"))

    def _note(self) -> GameState:
        """The game now, with the milestones it shows done recorded."""
        state = self.state()
        self.story.note(state, self.role.frame_count())
        return state
