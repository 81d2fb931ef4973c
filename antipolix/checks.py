"""Checks of plain values that every layer makes: is it an integer (not a bool), a finite number.

Options stored in rules, replays and studies must be plain Python values (they are written as
JSON); counts and seeds passed to functions may also be numpy scalars.

>>> is_int(3), is_int(True), is_int(3.0), is_plain_int(np.int64(3)), is_int(np.int64(3))
(True, False, False, False, True)
>>> is_plain_number(0.5), is_plain_number(float("nan"))
(True, False)
"""

from __future__ import annotations

import math
from typing import Any, TypeGuard

import numpy as np


def is_int(value: object) -> TypeGuard[int | np.integer[Any]]:
    """An integer (Python or numpy), never a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def is_plain_int(value: object) -> TypeGuard[int]:
    """A Python ``int``, never a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_plain_number(value: object) -> TypeGuard[int | float]:
    """A finite Python ``int`` or ``float``, never a bool."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return math.isfinite(value)
