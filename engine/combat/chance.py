"""A chance of winning as words: whole percent, except that "100%" and "0%" are kept for what the model
holds certain. A search whose judge says 99.7% still loses about one battle in fifty
(docs/battle-strength.md), so ">99%" is shown there, not a rounded "100%" that reads as a promise."""

from __future__ import annotations


def percent(chance: float) -> str:
    if 0.0 < chance < 0.005:
        return "<1%"
    if 0.995 <= chance < 1.0:
        return ">99%"
    return f"{chance:.0%}"
