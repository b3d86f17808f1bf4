"""Stopping on a signal: SIGINT, SIGTERM and SIGHUP end any command the way Ctrl-C does, and end a run
cleanly (the current cycle finished, or abandoned after a grace; then a final checkpoint and the summary).

The CLI installs the handlers whatever the process inherited. A command started in the background by a
non-interactive shell inherits SIGINT as ignored, and Python then installs no KeyboardInterrupt handler,
so Ctrl-C-style stops never arrive; SIGTERM's default (what docker, systemd and `kill` send) ends the
process at once with no cleanup. SIGHUP inherited as ignored is left ignored: that is what `nohup` asks.

Handlers only note and decide; the run looks at its `StopRequest` between cycles. What a signal does
depends on the run's stage:

    connecting   noted; the run stops as soon as Ray is up (a second signal: at once)
    starting     at once: the intro or the actors' start-up has nothing worth finishing
    running      the cycle in progress is finished, or abandoned after the grace (a second signal: at once)
    stopping     noted only: the run is writing its checkpoint and summary

"At once" is `StopSignal` raised in the main thread, a KeyboardInterrupt, so every place that cleans up
after Ctrl-C cleans up after it too. Outside a run (every other command) the first signal raises it.
"""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, Literal, cast, get_args

from engine.emulator.watchdog import hand_to_tick

log = logging.getLogger("engine.run")

SignalName = Literal["SIGINT", "SIGTERM", "SIGHUP"]
Stage = Literal["connecting", "starting", "running", "stopping"]
SIGNAL_NAMES: tuple[SignalName, ...] = get_args(SignalName)
# How the CLI words a command stopped by each (SIGINT keeps the words Ctrl-C always had).
STOP_WORDS: dict[SignalName, str] = {
    "SIGINT": "interrupted",
    "SIGTERM": "terminated (SIGTERM)",
    "SIGHUP": "hangup (SIGHUP)",
}


def signal_exit_code(name: SignalName) -> int:
    """The shell's convention for a process ended by a signal: 128 + its number (130, 143, 129)."""
    return 128 + int(signal.Signals[name])


class StopSignal(KeyboardInterrupt):
    """Stop at once, because of `signal` (the first signal the run or command was sent)."""

    def __init__(self, name: SignalName) -> None:
        super().__init__(name)
        self.signal: SignalName = name


def signal_of(interrupt: KeyboardInterrupt) -> SignalName:
    """The signal behind an interrupt. Libraries that wait in native code (Ray's `get` and `wait`) raise a
    plain KeyboardInterrupt of their own when a handler raised inside their wait, so the trap's record
    counts first; without one, a plain KeyboardInterrupt is Python's own Ctrl-C."""
    if isinstance(interrupt, StopSignal):
        return interrupt.signal
    return TRAP.raised or "SIGINT"


def trapped(interrupt: KeyboardInterrupt) -> bool:
    """Did the trap stop the program (rather than Python's own Ctrl-C, where no trap is installed)?"""
    return isinstance(interrupt, StopSignal) or TRAP.raised is not None


class StopRequest:
    """A run asked to stop: the first signal's name, noted from any thread (a handler, the Ray actor's
    request), and the run's stage, which decides what a signal does (see the module docstring)."""

    def __init__(self, stage: Stage = "starting") -> None:
        self.stage: Stage = stage
        self._signal: SignalName | None = None

    @property
    def signal(self) -> SignalName | None:
        return self._signal

    def ask(self, name: SignalName) -> bool:
        """Note `name`; True if it is the first. No lock: a handler may interrupt its own thread here."""
        if self._signal is not None:
            return False
        self._signal = name
        return True


class SignalTrap:
    """The process's handlers for SIGINT, SIGTERM and SIGHUP (main thread only, as Python requires)."""

    def __init__(self) -> None:
        self._previous: dict[signal.Signals, Any] = {}
        self._request: StopRequest | None = None
        self._grace = 0.0
        self._timer: threading.Timer | None = None
        self._expired = False  # the grace ran out: the signal the timer sent is no second signal
        self.raised: SignalName | None = None  # the signal named by the StopSignal raised, if one was

    @property
    def trapped(self) -> frozenset[signal.Signals]:
        return frozenset(self._previous)

    @contextmanager
    def installed(self) -> Iterator[SignalTrap]:
        """Handlers in place for the block, the previous ones after it. Off the main thread (a test driving
        the CLI from a thread) nothing is installed: Python allows handlers only there."""
        if threading.current_thread() is not threading.main_thread() or self._previous:
            yield self
            return
        self.raised = None
        for name in SIGNAL_NAMES:
            number = signal.Signals[name]
            previous = signal.getsignal(number)
            if number == signal.SIGHUP and previous == signal.SIG_IGN:
                continue  # nohup: hangups are to be ignored
            self._previous[number] = previous
            signal.signal(number, self._handle)
        try:
            yield self
        finally:
            for number, previous in self._previous.items():
                signal.signal(number, previous)
            self._previous.clear()

    def install_again(self) -> None:
        """Put the handlers back where a library replaced them (ray.init sets SIGTERM's)."""
        for number in self._previous:
            signal.signal(number, self._handle)

    @contextmanager
    def running(self, request: StopRequest, grace: float) -> Iterator[StopRequest]:
        """Signals go to `request` for the block; a cycle still running `grace` seconds after the first
        one is abandoned."""
        self._request, self._grace, self.raised, self._expired = request, grace, None, False
        try:
            yield request
        finally:
            self._request = None
            if self._timer is not None:
                self._timer.cancel()
                self._timer = None

    # -- in the main thread, between two bytecodes -------------------------------------------------------
    def _handle(self, number: int, frame: FrameType | None) -> None:
        name = cast(SignalName, signal.Signals(number).name)  # only these are trapped
        request = self._request
        if request is None:
            self._stop_now(name)
            return
        first = request.ask(name)
        stop = request.signal or name
        if request.stage == "stopping":
            log.info("%s: already stopping, writing the summary", name)
        elif request.stage == "starting":
            self._stop_now(stop)
        elif not first:
            if not self._expired:
                log.info("%s again: stopping at once", name)
            self._stop_now(stop)
        elif request.stage == "connecting":
            log.info("%s: stopping once Ray is up (%s again to stop at once)", name, name)
        else:
            log.info("%s: stopping after this cycle, within %g s (%s again to stop at once)", name,
                     self._grace, name)  # fmt: skip
            self._arm(request, number)

    def _stop_now(self, name: SignalName) -> None:
        if self.raised is not None:  # the run or command is already unwinding: let it clean up in peace
            return
        self.raised = name
        interrupt = StopSignal(name)
        if not hand_to_tick(interrupt):  # inside PyBoy's tick a raise here would be dropped
            raise interrupt

    def _arm(self, request: StopRequest, number: int) -> None:
        main = threading.main_thread().ident
        assert main is not None
        timer = threading.Timer(self._grace, self._expire, args=(request, main, number))
        timer.daemon = True
        self._timer = timer
        timer.start()

    def _expire(self, request: StopRequest, main: int, number: int) -> None:
        """From the timer's thread: the grace is over and the cycle still runs. The signal is sent again to
        the main thread itself, which interrupts a blocking call (a sleep, a socket read) there."""
        if self._request is request and request.stage == "running":
            log.info("the cycle did not finish within %g s: abandoning it", self._grace)
            self._expired = True
            signal.pthread_kill(main, number)


TRAP = SignalTrap()  # one per process, as the handlers are


@contextmanager
def handlers_kept() -> Iterator[None]:
    """For the block, attempts to replace the trapped signals' handlers are ignored: ray.init sets SIGTERM's
    to exit at once (a private instance's: stop its processes, then exit 1), which would end a run with no
    summary. Ray's own processes are stopped by `ray.shutdown` when the run ends."""
    trapped = TRAP.trapped
    if not trapped:
        yield
        return
    real: Callable[..., Any] = signal.signal

    def keep(number: int, handler: Any) -> Any:
        if number in trapped:
            return signal.getsignal(number)
        return real(number, handler)

    signal.signal = keep  # type: ignore[assignment]  # restored below
    try:
        yield
    finally:
        signal.signal = real
    TRAP.install_again()
