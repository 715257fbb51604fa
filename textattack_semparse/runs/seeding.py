"""The default seed of every run, and the random generators a component holds, so that a run
can reseed or rewind them per example.

Transformations that sample (function words, random positions, typos) keep their own seeded
``random.Random``; it advances from example to example, so without a reseed an example's result
would depend on the examples the same worker handled before it, and a Ray or resumed run would
differ from a serial one.
"""

from __future__ import annotations

import random
from typing import Any

DEFAULT_SEED = 0
"""The seed every workflow uses unless given one (``--seed``): the one default of the package."""

COMPONENT_PACKAGES = ("textattack", "textattack_semparse")
"""Packages whose objects :func:`component_generators` looks inside (not torch modules or models)."""


def component_generators(root: Any) -> list[random.Random]:
    """Every ``random.Random`` reachable from ``root`` through the attributes of TextAttack and
    plugin objects, dicts, lists, tuples and sets, each once, in a stable order.

    Example:
        >>> class Sampler:  # stands in for a transformation defined in this package
        ...     __module__ = "textattack_semparse.example"
        ...     def __init__(self):
        ...         self.rng = random.Random(1)
        >>> sampler = Sampler()
        >>> component_generators({"steps": [sampler, sampler]}) == [sampler.rng]
        True
    """
    found: dict[int, random.Random] = {}
    seen: set[int] = set()
    stack = [root]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, random.Random):
            found[id(item)] = item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif type(item).__module__.partition(".")[0] in COMPONENT_PACKAGES and hasattr(item, "__dict__"):
            stack.extend(vars(item).values())
    return list(found.values())
