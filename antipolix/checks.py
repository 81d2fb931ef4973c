"""Checks of plain values that every layer makes: is it an integer (not a bool), a finite number.

>>> is_int(3), is_int(True), is_int(3.0)
(True, False, False)
>>> is_number(0.5), is_number(float("nan"))
(True, False)
"""

from __future__ import annotations

import math

import numpy as np


def is_int(value: object) -> bool:
    """An integer (Python or numpy), never a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def is_number(value: object) -> bool:
    """A finite int or float (Python or numpy), never a bool."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        return False
    return math.isfinite(value)
