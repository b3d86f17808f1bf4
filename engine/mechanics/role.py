"""The Emulator role: owns PyBoy and does the mechanics (intro, battle executor, overworld steps).

Every verb runs its frames here, next to the emulator, and answers with decoded models, so a caller in
another process pays one round trip per decision, never one per frame.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from engine.config import EmulatorConfig, PlayerConfig
from engine.emulator.png import encode_png
from engine.emulator.session import EmulatorSession, open_session
from engine.game.actions import BattleAction
from engine.game.buttons import Button
from engine.game.models import GameState
from engine.harness.steps import PressReport, Screens
from engine.mechanics.executor import BattleExecutor
from engine.mechanics.intro import IntroReport, reach_overworld
from engine.mechanics.snapshot import EmulatorSnapshot
from engine.mechanics.travel import Traveller
from engine.mechanics.walking import OverworldDriver
from engine.messages import BattleEnd, BattleStart, Executed, Frame, LegReport, RoleReport
from engine.world.goals import Leg
from engine.world.world import World, load_world


class EmulatorRole:
    def __init__(self, rom: Path, emulator: EmulatorConfig, player: PlayerConfig) -> None:
        self._attach(open_session(rom, emulator), emulator, player)

    @classmethod
    def on_session(
        cls,
        session: EmulatorSession,
        emulator: EmulatorConfig | None = None,
        player: PlayerConfig | None = None,
    ) -> EmulatorRole:
        """The role over a session someone else opened and set up (scenario tests, benchmarks)."""
        role = cls.__new__(cls)
        role._attach(session, emulator or EmulatorConfig(), player or PlayerConfig())
        return role

    def _attach(self, session: EmulatorSession, emulator: EmulatorConfig, player: PlayerConfig) -> None:
        self.player = player
        self.idle_frames_at_start = emulator.idle_frames_at_start
        self.session = session
        self.executor = BattleExecutor(session, emulator.max_wait_frames)
        self.driver = OverworldDriver(session)
        self._traveller: Traveller | None = None
        self.intro_lines: list[str] = []
        # The save state a battle's start kept, with the session's mark then: a checkpoint snapshot taken
        # before the game moves on (a trainer battle's) shares it instead of saving again.
        self._saved: tuple[tuple[int, int], bytes] | None = None

    @property
    def world(self) -> World:
        """The cartridge's maps, read on first use (tens of milliseconds)."""
        return self.traveller.world

    @property
    def traveller(self) -> Traveller:
        if self._traveller is None:
            self._traveller = Traveller(self.session, load_world(self.session.rom_bytes), self.driver)
        return self._traveller

    def game_name(self) -> str:
        return self.session.game.value

    def take_intro_lines(self) -> list[str]:
        lines, self.intro_lines = self.intro_lines, []
        return lines

    def start(self, state: bytes | None) -> IntroReport | None:
        """Load a save state if given, then play the intro (or only set the options) until the player can
        walk. A state saved inside a battle is left as it is: the battle comes first. None then."""
        if state is not None:
            self.session.load_state(state)
        self.session.tick(self.idle_frames_at_start)
        if self.driver.in_battle():
            return None
        return reach_overworld(self.session, self.player, on_step=self.intro_lines.append)

    def press_buttons(
        self, buttons: tuple[Button, ...], hold_frames: int, release_frames: int, settle_frames: int
    ) -> PressReport:
        """A model's step at the buttons and vision levels: each button held and let go for exactly the
        frames given, in order, then `settle_frames` for the game to answer. Nothing is checked: the
        model sees what came of it on its next screen."""
        started = self.session.frame
        for button in buttons:
            self.session.press(Button(button), hold_frames=hold_frames, release_frames=release_frames)
        self.session.tick(settle_frames)
        return PressReport(frames=self.session.frame - started)

    # -- looking -----------------------------------------------------------------------------------
    def frame(self) -> Frame:
        regions = self.session.memory_regions()
        digest = hashlib.blake2b(b"".join(chunk for _, chunk in regions), digest_size=8).hexdigest()
        return Frame(number=self.session.frame, digest=digest, regions=regions)

    def screenshot(self) -> bytes:
        """The screen as PNG bytes, for a model that looks (renders one more frame: call it where the
        game waits for input)."""
        return encode_png(self.session.render_frame())

    def screens(self, scale: int) -> Screens:
        """The screen as PNG, plain and scaled by `scale` (pixels repeated). Two frames are rendered and
        the second kept: PyBoy resets its window line counter only while rendering a whole frame, so the
        first frame rendered after unrendered ones draws the window (the text box, the battle HUD) a line
        too high."""
        self.session.render_frame()
        rgb = self.session.render_frame()
        scaled = rgb.repeat(scale, axis=0).repeat(scale, axis=1) if scale > 1 else rgb
        return Screens(plain=encode_png(rgb), scaled=encode_png(scaled))

    def live_screen(self) -> bytes:
        """The screen of a paced run (`--speed N`) as PNG, at most a quarter of a second old, without
        touching the emulator: safe to ask from another thread while a walk or a battle turn runs. Empty
        when the run is not paced."""
        return self.session.live_screen

    def in_battle(self) -> bool:
        return self.driver.in_battle()

    def frame_count(self) -> int:
        return self.session.frame

    def battle_result(self) -> int:
        return self.session.read_u8(self.session.ram_map.wBattleResult)

    # -- acting ------------------------------------------------------------------------------------
    def advance(self) -> GameState:
        """In a battle: until the next choice, or the free overworld once it is over."""
        return self.executor.advance()

    def begin_battle(self, first_look: GameState, keep_state: bool = False) -> BattleStart:
        """The battle's first decision. The session forgets its call records here, so the live battle
        runs on exactly the frames a replay from this state will; the opening messages are taken, and with
        `keep_state` the game is saved as it is now (a battle's start state, kept for replays)."""
        self.executor.last_in_battle = first_look
        self.executor.caught_species = None
        self.session.forget_calls()
        opening = self.executor.take_battle_text()
        state = None
        if keep_state:
            machine = self.session.save_state()
            self._saved = (self.session.mark(), machine)
            state = self.session.export_state(machine)
        return BattleStart(frame=self.session.frame, opening_text=opening, state=state)

    def act(self, action: BattleAction) -> Executed:
        """Carry out one battle action, up to the game's next question."""
        self.executor.execute(action)
        return Executed(text=self.executor.take_battle_text())

    def end_battle(self) -> BattleEnd:
        last, caught = self.executor.last_in_battle, self.executor.caught_species
        return BattleEnd(final=last, result=self.battle_result(), frame=self.session.frame, caught=caught)

    def settle(self) -> GameState:
        """Out of battle: clear dialog and menus until the player can walk (or a battle starts)."""
        return self.driver.settle()

    def travel(self, leg: Leg) -> LegReport:
        """Walk one leg to its goal (planned on the cartridge's maps, every step checked on RAM), in
        this one call; it stops early, with the reason, where a battle, a dialog or a script begins."""
        return self.traveller.travel(leg)

    # -- snapshots ---------------------------------------------------------------------------------
    def save_state(self) -> bytes:
        """The game as a state file (it names this cartridge): a battle's start, kept for replays."""
        return self.session.export_state()

    def snapshot(self) -> EmulatorSnapshot:
        """The game as it is now, for a checkpoint (take it between verbs, where the game waits)."""
        return EmulatorSnapshot(
            state=self._machine_now(),
            frames=self.session.frame,
            last_in_battle=self.executor.last_in_battle,
            call_ages=self.session.call_ages(),
        )

    def _machine_now(self) -> bytes:
        saved, self._saved = self._saved, None
        if saved is not None and saved[0] == self.session.mark():
            return saved[1]
        return self.session.save_state()

    def restore(self, snapshot: EmulatorSnapshot) -> None:
        """Go back to a snapshot, on this role or on one just opened (the emulator actor re-created after
        a crash). A state that is unreadable, truncated or from another cartridge raises SaveStateError
        and leaves the game as it was. What this role saw after the snapshot (battle text, intro lines)
        is dropped: it belongs to a future that is played again."""
        self.session.load_state(snapshot.state)
        self.session.rewind_frame_counter(snapshot.frames)
        # Unlike a replay from a battle's start state (which forgets them, as the live battle did at its
        # start), a rollback must carry on exactly as the run would have: the records come back too.
        self.session.restore_call_ages(snapshot.call_ages)
        self.executor.resume_at(snapshot.last_in_battle)
        self.intro_lines = []

    def cartridge_sha256(self) -> str:
        """The loaded ROM's sha256 (hex): a checkpoint is restored only onto the cartridge it came from."""
        return self.session.rom_sha256

    def report(self) -> RoleReport:
        return RoleReport(role="emulator", healthy=True, counters={"frames": self.session.frame})

    def close(self) -> None:
        self.session.close()
