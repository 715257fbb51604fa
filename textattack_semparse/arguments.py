"""Checks of constructor arguments that many components share: counts, seeds and choices.

One place for the rule "an int, not a bool, at least so many" and its message, so every
component rejects ``batch_size=True`` or ``k=0`` alike.
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from typing import Any

from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError


def check_count(name: str, value: object, *, minimum: int = 1, none_means: str | None = None) -> None:
    """:class:`ConfigurationError` (a ``ValueError``) unless ``value`` is an int (not a bool) of at least ``minimum``.

    With ``none_means`` (what ``None`` stands for, e.g. ``"all"``), ``None`` is allowed too.

    Example:
        >>> check_count("k", 3)
        >>> check_count("k", None, none_means="all")
        >>> check_count("k", True)
        Traceback (most recent call last):
        ...
        textattack_semparse.errors.ConfigurationError: k must be a positive int, got True.
    """
    if value is None and none_means is not None:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        expected = "a positive int" if minimum == 1 else f"an int >= {minimum}"
        if none_means is not None:
            expected += f" or None ({none_means})"
        raise ConfigurationError(f"{name} must be {expected}, got {value!r}.")


def check_seed(seed: object, name: str = "seed") -> None:
    """:class:`ConfigurationTypeError` (a ``TypeError``) unless ``seed`` is an int (not a bool) or ``None``.

    Example:
        >>> check_seed(None), check_seed(7)
        (None, None)
    """
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ConfigurationTypeError(f"{name} must be an int or None, got {seed!r}.")


def check_choice(name: str, value: object, choices: Collection[str]) -> None:
    """:class:`ConfigurationError` (a ``ValueError``) unless ``value`` is one of ``choices``.

    Example:
        >>> check_choice("kind", "synonym", ("synonym", "abbreviation"))
        >>> check_choice("kind", "typo", ("synonym", "abbreviation"))
        Traceback (most recent call last):
        ...
        textattack_semparse.errors.ConfigurationError: kind must be one of synonym, abbreviation, got 'typo'.
    """
    if value not in choices:
        raise ConfigurationError(f"{name} must be one of {', '.join(choices)}, got {value!r}.")


def literal_value(text: str) -> Any:
    """``text`` read as a Python literal (``3``, ``0.1``, ``None``, ``['a']``), else the string itself
    (a bare word or a path), as command-line options are read.

    Example:
        >>> literal_value("3"), literal_value("0.1"), literal_value("/tmp/m.json"), literal_value("['a', 'b']")
        (3, 0.1, '/tmp/m.json', ['a', 'b'])
    """
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
