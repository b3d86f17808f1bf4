"""The arena's statistics: a mean with its 95% interval, and a test of the difference between two configs.

The runs of one cell are few (a handful of seeds), so the interval uses Student's t and the test is a
permutation test, which assumes nothing about how the numbers spread. Two configs played on the same
starts and seeds are compared pair by pair (the sign-flip test on the paired differences); unpaired ones
by shuffling the labels. Both are exact when the possibilities are few enough to list, and otherwise
estimated from a fixed number of random draws with a fixed seed, so a report reads the same every time.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Iterable, Sequence

from engine.frozen import Frozen

# Student's t, two-sided 95% (the 0.975 quantile), by degrees of freedom 1-30; 1.96 beyond.
# Source: any statistics table, e.g. NIST/SEMATECH e-Handbook of Statistical Methods, table 1.3.6.7.2.
T_975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
EXACT_LIMIT = 1 << 14  # list every arrangement up to this many; draw this many beyond
DRAW_SEED = 20261128


class Interval(Frozen):
    mean: float
    low: float
    high: float
    n: int


class Difference(Frozen):
    """`a` minus `b` on one measure: the mean difference, its 95% interval, and the test's p-value."""

    measure: str
    a: str
    b: str
    paired: bool
    n: int
    mean: float
    low: float
    high: float
    p_value: float
    exact: bool


def t_quantile(degrees: int) -> float:
    return T_975[degrees - 1] if 1 <= degrees <= len(T_975) else 1.96


def interval(values: Sequence[float]) -> Interval:
    """The mean and its 95% interval; a single value's interval is the value itself."""
    n = len(values)
    if n == 0:
        return Interval(mean=math.nan, low=math.nan, high=math.nan, n=0)
    mean = sum(values) / n
    if n == 1:
        return Interval(mean=mean, low=mean, high=mean, n=1)
    spread = math.sqrt(sum((value - mean) ** 2 for value in values) / (n - 1))
    half = t_quantile(n - 1) * spread / math.sqrt(n)
    return Interval(mean=mean, low=mean - half, high=mean + half, n=n)


def sign_flip_p(differences: Sequence[float]) -> tuple[float, bool]:
    """Two-sided p-value that paired differences centre on zero: how often flipping signs at random
    gives a mean at least as far from zero. (p, exact)."""
    n = len(differences)
    if n == 0:
        return 1.0, True
    observed = abs(sum(differences)) - 1e-9
    if 2**n <= EXACT_LIMIT:
        signs: Iterable[Sequence[int]] = itertools.product((1, -1), repeat=n)
        exact = True
    else:
        draw = random.Random(DRAW_SEED)
        signs = [[draw.choice((1, -1)) for _ in range(n)] for _ in range(EXACT_LIMIT)]
        exact = False
    total = hits = 0
    for flips in signs:
        total += 1
        hits += abs(sum(s * d for s, d in zip(flips, differences, strict=True))) >= observed
    return hits / total, exact


def shuffle_p(a: Sequence[float], b: Sequence[float]) -> tuple[float, bool]:
    """Two-sided p-value that two unpaired samples share one mean: how often a random relabelling gives
    a difference of means at least as large. (p, exact)."""
    pooled, size = [*a, *b], len(a)
    if not a or not b:
        return 1.0, True
    observed = abs(sum(a) / len(a) - sum(b) / len(b)) - 1e-9
    everyone = range(len(pooled))
    if math.comb(len(pooled), size) <= EXACT_LIMIT:
        groups: Iterable[Sequence[int]] = itertools.combinations(everyone, size)
        exact = True
    else:
        draw = random.Random(DRAW_SEED)
        groups = [draw.sample(list(everyone), size) for _ in range(EXACT_LIMIT)]
        exact = False
    total = hits = 0
    for group in groups:
        chosen = set(group)
        first = [pooled[i] for i in chosen]
        rest = [pooled[i] for i in everyone if i not in chosen]
        total += 1
        hits += abs(sum(first) / len(first) - sum(rest) / len(rest)) >= observed
    return hits / total, exact


def paired_difference(
    measure: str, names: tuple[str, str], pairs: Sequence[tuple[float, float]]
) -> Difference:
    differences = [x - y for x, y in pairs]
    spread = interval(differences)
    p_value, exact = sign_flip_p(differences)
    return Difference(measure=measure, a=names[0], b=names[1], paired=True, n=len(pairs), mean=spread.mean,
                      low=spread.low, high=spread.high, p_value=p_value, exact=exact)  # fmt: skip


def unpaired_difference(
    measure: str, names: tuple[str, str], a: Sequence[float], b: Sequence[float]
) -> Difference:
    """Welch's interval for the difference of means (Welch-Satterthwaite degrees of freedom) and the
    shuffle test's p-value."""
    first, second = interval(a), interval(b)
    mean = first.mean - second.mean
    share_a, share_b = _share(a), _share(b)
    spread = math.sqrt(share_a + share_b)
    if spread > 0:
        degrees = (share_a + share_b) ** 2 / (_weight(share_a, len(a)) + _weight(share_b, len(b)))
        half = t_quantile(max(1, math.floor(degrees))) * spread
    else:
        half = 0.0
    p_value, exact = shuffle_p(a, b)
    return Difference(measure=measure, a=names[0], b=names[1], paired=False, n=len(a) + len(b), mean=mean,
                      low=mean - half, high=mean + half, p_value=p_value, exact=exact)  # fmt: skip


def _share(values: Sequence[float]) -> float:
    """The sample variance over n: one sample's part of the variance of a difference of means."""
    if len(values) < 2:
        return 0.0
    mean = sum(values) / len(values)
    return sum((value - mean) ** 2 for value in values) / (len(values) - 1) / len(values)


def _weight(share: float, n: int) -> float:
    return share**2 / (n - 1) if n > 1 else 0.0
