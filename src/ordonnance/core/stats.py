"""Statistics every game's summaries share: binomial intervals.

>>> from ordonnance.core.stats import wilson
>>> low, high = wilson(50, 100)
>>> round(low, 4), round(high, 4)
(0.4038, 0.5962)
>>> wilson(0, 0)
(0.0, 1.0)
"""

from __future__ import annotations

import math

__all__ = ["Z95", "wilson"]

#: The 97.5% quantile of the standard normal: a two-sided 95% interval is +-Z95 standard errors.
Z95 = 1.959963984540054


def wilson(successes: int, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``successes / n`` (``(0, 1)`` when ``n`` is 0)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denominator = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))
