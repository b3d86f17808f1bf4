"""Exception roots shared by every package.

Each sub-package derives its own root from `EngineError`; the CLI turns any `UserInputError` into a
one-line message and a non-zero exit instead of a traceback.
"""


class EngineError(Exception):
    """Root of every error the engine raises on purpose."""


class UserInputError(EngineError):
    """The user gave us something we cannot use (a file, a flag, a config value)."""
