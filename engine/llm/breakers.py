"""One circuit breaker per model endpoint, shared by every tier and role that calls it.

A dead provider trips its breaker once for everyone; while open, calls fail at once and the router falls
back to a cheaper tier. Transitions are logged and exported as the `engine_breaker_state` gauge.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

import pybreaker

from engine.telemetry.metrics import RunMetrics

log = logging.getLogger("engine.llm")


class _Transitions(pybreaker.CircuitBreakerListener):
    def __init__(self, endpoint: str, metrics: RunMetrics | None, board: BreakerBoard) -> None:
        self.endpoint = endpoint
        self.metrics = metrics
        self.board = board

    def state_change(self, cb: pybreaker.CircuitBreaker, old_state: Any, new_state: Any) -> None:
        old = old_state.name if old_state is not None else "none"
        new = new_state.name
        self.board.transitions += 1
        level = logging.WARNING if new == "open" else logging.INFO
        log.log(level, "circuit breaker %s: %s -> %s", self.endpoint, old, new)
        if self.metrics is not None:
            self.metrics.breaker(self.endpoint, new)


class BreakerBoard:
    def __init__(self, failures: int, reset_seconds: float, metrics: RunMetrics | None = None) -> None:
        self.failures = failures
        self.reset_seconds = reset_seconds
        self.metrics = metrics
        self.transitions = 0
        self._breakers: dict[str, pybreaker.CircuitBreaker] = {}
        self._lock = threading.Lock()

    def for_endpoint(self, endpoint: str) -> pybreaker.CircuitBreaker:
        with self._lock:
            breaker = self._breakers.get(endpoint)
            if breaker is None:
                breaker = pybreaker.CircuitBreaker(
                    fail_max=self.failures,
                    reset_timeout=self.reset_seconds,
                    listeners=[_Transitions(endpoint, self.metrics, self)],
                    name=endpoint,
                    # The call that trips the breaker raises its own error, so the log says what failed.
                    throw_new_error_on_trip=False,
                )
                self._breakers[endpoint] = breaker
                if self.metrics is not None:
                    self.metrics.breaker(endpoint, "closed")
            return breaker

    def states(self) -> dict[str, str]:
        with self._lock:
            return {endpoint: breaker.current_state for endpoint, breaker in self._breakers.items()}

    def reopen(self, states: dict[str, str]) -> None:
        """Put breakers back in a state they were seen in (a checkpoint's): an endpoint that was failing
        is not called again at once by a board just built. Open starts its reset timeout anew."""
        for endpoint, state in states.items():
            if state == pybreaker.STATE_OPEN:
                self.for_endpoint(endpoint).open()
            elif state == pybreaker.STATE_HALF_OPEN:
                self.for_endpoint(endpoint).half_open()
