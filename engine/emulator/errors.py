"""Errors of the emulator layer."""

from engine.errors import EngineError, UserInputError


class EmulatorError(EngineError):
    """Root of every error raised by `engine.emulator`."""


class SaveStateError(EmulatorError, UserInputError):
    """A save state is unreadable, truncated or belongs to another cartridge."""


class DisplayError(EmulatorError, UserInputError):
    """PyBoy's window was asked for where there is no display."""


class FrameBudgetExceeded(EmulatorError):
    """`run_until` stepped its whole frame budget without the predicate becoming true."""

    def __init__(self, max_frames: int, frame: int) -> None:
        super().__init__(f"condition not met within {max_frames} frames (stopped at frame {frame})")
        self.max_frames = max_frames
        self.frame = frame


class GameFrozenError(EmulatorError):
    """The game crashed inside the emulator: no new frame (or the CPU running outside ROM and RAM) for the
    watchdog's whole limit. The game's state is lost; the session plays on only once a state is loaded."""

    def __init__(self, frame: int, pc: int, why: str) -> None:
        super().__init__(f"the game froze inside the emulator at frame {frame}, PC=${pc:04X} ({why})")
        self.frame = frame
        self.pc = pc
        self.why = why
