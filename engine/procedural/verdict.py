"""What became of a rewrite, a proposal or a credit: kept or not, and why, in one line."""

from __future__ import annotations

from engine.frozen import Frozen


class Verdict(Frozen):
    kept: bool
    line: str  # one line, for the model's next prompt and the step's record

    @classmethod
    def yes(cls, line: str) -> Verdict:
        return cls(kept=True, line=one_line(line))

    @classmethod
    def no(cls, line: str) -> Verdict:
        return cls(kept=False, line=one_line(line))


def one_line(text: str, limit: int = 240) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"
