"""The harness package's root exception."""

from __future__ import annotations

from engine.errors import EngineError


class HarnessError(EngineError):
    """A harness level cannot run as configured."""
