"""Stopping an `engine` process the way a user does: a signal, then time to write its summary and last
checkpoint, and a kill only when it does not end within that time."""

from __future__ import annotations

import signal
import subprocess

GRACE_SECONDS = 60.0


def stop_like_a_user(process: subprocess.Popen[bytes], sig: int = signal.SIGINT) -> None:
    process.send_signal(sig)
    try:
        process.wait(timeout=GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
