"""How a chance of winning is shown: "100%" and "0%" only for what the model holds certain."""

from __future__ import annotations

import pytest

from engine.combat.chance import percent


@pytest.mark.parametrize(
    ("chance", "shown"),
    [(1.0, "100%"), (0.9999, ">99%"), (0.995, ">99%"), (0.994, "99%"), (0.5, "50%"), (0.0051, "1%"),
     (0.0049, "<1%"), (1e-9, "<1%"), (0.0, "0%")],
)  # fmt: skip
def test_only_certainty_reads_as_all_or_nothing(chance: float, shown: str) -> None:
    assert percent(chance) == shown
