"""Exception roots shared by every package.

Each sub-package derives its own root from `EngineError`; the CLI turns any `UserInputError` into a
one-line message and a non-zero exit instead of a traceback.
"""

from __future__ import annotations

from typing import Any


def _rebuild(cls: type[EngineError], args: tuple[Any, ...], state: dict[str, Any]) -> EngineError:
    error = cls.__new__(cls, *args)
    error.args = args
    error.__dict__.update(state)
    return error


class EngineError(Exception):
    """Root of every error the engine raises on purpose."""

    def __reduce__(self) -> tuple[Any, ...]:
        # Errors cross process boundaries (Ray actors) by pickle, which rebuilds an exception by calling
        # its class with `args`; subclasses whose __init__ takes other arguments would fail to rebuild and
        # reach the caller untyped. Rebuilding from args and attributes keeps the class and its fields.
        return (_rebuild, (type(self), self.args, dict(self.__dict__)))


class UserInputError(EngineError):
    """The user gave us something we cannot use (a file, a flag, a config value)."""
