"""How tables print a figure, the same in the terminal, the HTML report and its Markdown."""

from __future__ import annotations

import math
from typing import Any


def format_value(value: Any, *, signed: bool = False) -> str:
    """Rates with two decimals, counts as integers, ``n/a`` for undefined values; ``signed``
    puts ``+`` before positive differences.

    Example:
        >>> format_value(89.2857), format_value(3), format_value(None), format_value(-2.5, signed=True)
        ('89.29', '3', 'n/a', '-2.50')
        >>> format_value(1.0, signed=True), format_value("typo")
        ('+1.00', 'typo')
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, int):
        return f"{value:+d}" if signed else str(value)
    return f"{value:+.2f}" if signed else f"{value:.2f}"
