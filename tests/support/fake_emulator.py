"""An `EmulatorRole` stand-in over the shared Gen 1 captures: the same verbs, a scripted game, no ROM.

The script is a list of capture names, the stops where the game waits. `advance` stays at the current stop
until an action was executed there, then moves to the next one, as the real executor runs from one choice
to the next. Frame counts grow by fixed amounts per verb, so two runs of one script agree exactly. It is
built like EmulatorRole(rom, emulator config, player config); the rest are keyword options (bind them
with functools.partial), so the engine's factory can build it in-process or inside an actor.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from engine.config import EmulatorConfig, PlayerConfig
from engine.emulator.errors import GameFrozenError, SaveStateError
from engine.game.actions import BattleAction
from engine.game.buttons import Button
from engine.game.capture import load_capture
from engine.game.errors import RomError
from engine.game.memory import DECODER_REGIONS, MemoryImage
from engine.game.models import GameState
from engine.game.options import decode_options
from engine.game.ram import RED_BLUE
from engine.game.state import decode_state
from engine.harness.steps import PressReport, Screens
from engine.mechanics.errors import ExecutionError
from engine.mechanics.intro import IntroReport
from engine.mechanics.snapshot import EmulatorSnapshot
from engine.messages import (
    BattleEnd,
    BattleStart,
    Executed,
    Frame,
    LegReport,
    RoleReport,
)
from engine.world.goals import Leg

# A wild battle: a turn at the main menu, the learn-move prompt after the enemy fainted, then Pallet Town.
WILD_BATTLE = ("red_wild_main_menu", "red_learn_move_prompt", "red_wild_post_battle_overworld")
ADVANCE_FRAMES, EXECUTE_FRAMES, WALK_FRAMES = 120, 60, 16
FAKE_CARTRIDGE_SHA256 = hashlib.sha256(b"fake cartridge").hexdigest()
FROZEN_PC = 0xFF47  # where the tiny cartridge that jumps into video RAM ends up


@dataclass(frozen=True)
class Stall:
    """The `after`+1-th call of `verb` sleeps `seconds` (a hung role), once across the actor's lives: the
    file `once` is created as it starts sleeping, and no stall happens while it exists."""

    verb: str
    after: int
    seconds: float
    once: Path


class FakeEmulator:
    def __init__(
        self,
        rom: Path,
        emulator: EmulatorConfig,
        player: PlayerConfig,
        *,
        fixtures: Path,
        script: Sequence[str] = WILD_BATTLE,
        delay: float = 0.0,
        fail_on: str | None = None,
        fail_after: Mapping[str, int] | None = None,
        freeze_after: Mapping[str, int] | None = None,
        stall: Stall | None = None,
        travel_moves_on: bool = False,
    ) -> None:
        self.images = [load_capture(fixtures / name) for name in script]
        self.states = [decode_state(image, RED_BLUE) for image in self.images]
        self.delay = delay  # seconds per verb that runs frames: a slow game, for status tests
        self.fail_on = fail_on  # the verb that raises a typed engine error
        self.fail_after = dict(fail_after or {})  # verb -> calls that succeed before it starts failing
        self.freeze_after = dict(freeze_after or {})  # verb -> calls before the game freezes in it
        self.stall = stall
        self.travel_moves_on = travel_moves_on  # a leg walks into the script's next stop (a battle)
        self.calls: dict[str, int] = {"init": 1}
        self._stall("init")  # the emulator opening slowly: the actors are still starting
        self.index = 0
        self.acted = False
        self.frames = 0
        self.last_battle_look: GameState | None = None
        self.actions: list[BattleAction] = []
        self.pressed: list[tuple[Button, ...]] = []

    # -- helpers -----------------------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        return self.states[self.index]

    @property
    def image(self) -> MemoryImage:
        return self.images[self.index]

    def _run(self, verb: str, frames: int) -> None:
        self.calls[verb] = self.calls.get(verb, 0) + 1
        if self.fail_on == verb or self.calls[verb] > self.fail_after.get(verb, self.calls[verb]):
            raise ExecutionError(
                f"the scripted game refused {verb}", self.state.decision_point, ["a"], "fake-frame"
            )
        self._freeze(verb, frames)
        self._stall(verb)
        if self.delay:
            time.sleep(self.delay)
        self.frames += frames
        if self.state.battle is not None:
            self.last_battle_look = self.state

    def _freeze(self, verb: str, frames: int) -> None:
        if self.calls[verb] > self.freeze_after.get(verb, self.calls[verb]):
            raise GameFrozenError(self.frames + frames // 2, FROZEN_PC, "no new frame for 10 s")

    def _stall(self, verb: str) -> None:
        stall = self.stall
        if stall is None or stall.verb != verb or self.calls.get(verb, 0) <= stall.after:
            return
        if not stall.once.exists():
            stall.once.touch()
            time.sleep(stall.seconds)

    # -- the EmulatorRole verbs --------------------------------------------------------------------
    def game_name(self) -> str:
        return "red"

    def take_intro_lines(self) -> list[str]:
        return []

    def start(self, state: bytes | None) -> IntroReport | None:
        self.calls["start"] = self.calls.get("start", 0) + 1
        self._freeze("start", 0)
        self._stall("start")  # the intro, in the real role: minutes when paced
        if self.state.battle is not None:
            return None
        options = decode_options(0)
        return IntroReport(started_in="overworld", frames=0, player_name=None, rival_name=None,
                           options_before=options, options_after=options)  # fmt: skip

    def frame(self) -> Frame:
        regions = tuple((start, self.image.read(start, end - start)) for start, end in DECODER_REGIONS)
        digest = hashlib.blake2b(b"".join(chunk for _, chunk in regions), digest_size=8).hexdigest()
        return Frame(number=self.frames, digest=digest, regions=regions)

    def in_battle(self) -> bool:
        return self.state.battle is not None

    def frame_count(self) -> int:
        return self.frames

    def screenshot(self) -> bytes:
        """A blank 160 x 144 screen: the captures hold RAM and tile indices, no graphics."""
        import numpy as np

        from engine.emulator.png import encode_png

        return encode_png(np.zeros((144, 160, 3), dtype=np.uint8))

    def screens(self, scale: int) -> Screens:
        import numpy as np

        from engine.emulator.png import encode_png

        blank = np.zeros((144 * scale, 160 * scale, 3), dtype=np.uint8)
        return Screens(plain=self.screenshot(), scaled=encode_png(blank))

    def press_buttons(
        self, buttons: tuple[Button, ...], hold_frames: int, release_frames: int, settle_frames: int
    ) -> PressReport:
        """The buttons levels: the frames pass as on the real session, and the pressed buttons are kept;
        with `travel_moves_on`, a step with buttons moves to the script's next stop."""
        frames = len(buttons) * (hold_frames + release_frames) + settle_frames
        self._run("press", frames)
        self.pressed.append(tuple(buttons))
        if self.travel_moves_on and buttons and self.index < len(self.states) - 1:
            self.index += 1
        return PressReport(frames=frames)

    def live_screen(self) -> bytes:
        """What a paced session keeps: here the blank screen with the frame count, so it changes."""
        return self.screenshot() + self.frames.to_bytes(8, "big")

    def battle_result(self) -> int:
        return self.image.u8(RED_BLUE.wBattleResult)

    def advance(self) -> GameState:
        if self.acted and self.index < len(self.states) - 1:
            self.index += 1
        self.acted = False
        self._run("advance", ADVANCE_FRAMES)
        return self.state

    def begin_battle(self, first_look: GameState, keep_state: bool = False) -> BattleStart:
        self.last_battle_look = first_look
        state = self.save_state() if keep_state else None
        return BattleStart(frame=self.frames, opening_text=(), state=state)

    def act(self, action: BattleAction) -> Executed:
        self._run("execute", EXECUTE_FRAMES)
        self.actions.append(action)
        self.acted = True
        return Executed(text=())  # the captures hold no battle messages between stops

    def end_battle(self) -> BattleEnd:
        return BattleEnd(final=self.last_battle_look, result=self.battle_result(), frame=self.frames)

    def settle(self) -> GameState:
        return self.state

    def travel(self, leg: Leg) -> LegReport:
        """The scripted game has no map: every leg is one step that ends where it began (or, with
        `travel_moves_on`, at the script's next stop)."""
        self._run("travel", WALK_FRAMES)
        if self.travel_moves_on and self.index < len(self.states) - 1:
            self.index += 1
        return LegReport(outcome="arrived", reason="a scripted game", steps=1, frames=WALK_FRAMES,
                         planned_steps=1, state=self.state)  # fmt: skip

    def save_state(self) -> bytes:
        return f"fake state at stop {self.index}".encode()

    def snapshot(self) -> EmulatorSnapshot:
        state = json.dumps({"index": self.index, "acted": self.acted}).encode()
        return EmulatorSnapshot(state=state, frames=self.frames, last_in_battle=self.last_battle_look)

    def restore(self, snapshot: EmulatorSnapshot) -> None:
        """Back to a snapshot's stop; bytes that are not this script's state raise SaveStateError and
        change nothing, as the real session refuses a truncated state."""
        index, acted = _parse_state(snapshot.state, len(self.states))
        self.index, self.acted = index, acted
        self.frames = snapshot.frames
        self.last_battle_look = snapshot.last_in_battle

    def cartridge_sha256(self) -> str:
        return FAKE_CARTRIDGE_SHA256

    def report(self) -> RoleReport:
        return RoleReport(role="emulator", healthy=True, counters={"frames": float(self.frames)})

    def close(self) -> None:
        self.images = []


def _parse_state(data: bytes, stops: int) -> tuple[int, bool]:
    try:
        decoded = json.loads(data)
        index, acted = decoded["index"], decoded["acted"]
    except (ValueError, TypeError, KeyError) as exc:
        raise SaveStateError(f"the scripted save state is unreadable ({exc})") from exc
    if type(index) is not int or not isinstance(acted, bool) or not 0 <= index < stops:
        raise SaveStateError(f"the scripted save state does not fit this script ({decoded})")
    return index, acted


class BrokenCartridge:
    """An emulator that cannot start: the typed error the real one raises for a file that is no ROM."""

    def __init__(self, rom: Path, emulator: EmulatorConfig, player: PlayerConfig) -> None:
        raise RomError(f"{rom.name} is not a Game Boy cartridge image (scripted)")
