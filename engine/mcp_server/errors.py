"""The MCP server's root exception."""

from __future__ import annotations

from engine.errors import EngineError


class McpServerError(EngineError):
    """The server cannot answer a call: the game did not answer within the call's time."""


class CallTimeout(McpServerError):
    """A tool call ran past its time; the game finishes it in the background."""
