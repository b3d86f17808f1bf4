"""Errors of the lesson memory package."""

from __future__ import annotations

from engine.errors import EngineError


class MemoryStoreError(EngineError):
    """Root of the memory package: the lesson store could not be opened, read or written."""
