"""Lesson text as the vocabulary rule reads it: its words, in the one spelling the injection screen
reads (`plain`, `collapsed` and the folding behind them live in engine/procedural/screening.py, shared by
lessons, a model's notes and its skills; they are re-exported here for older callers).

All functions are pure: same text in, same text out.
"""

from __future__ import annotations

import re

from engine.procedural.screening import collapsed as collapsed
from engine.procedural.screening import fold_lookalikes as fold_lookalikes
from engine.procedural.screening import plain as plain
from engine.procedural.screening import strip_invisible as strip_invisible

_WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")


def words(text: str) -> list[str]:
    """The words of `plain(text)`: runs of letters and digits, an apostrophe inside one kept ("doesn't").
    Underscores, hyphens, slashes and other punctuation split words, so WATER_GUN, WATER-GUN and WATER GUN
    give the same words."""
    return _WORD.findall(plain(text).replace("’", "'"))
