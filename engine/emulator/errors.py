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
