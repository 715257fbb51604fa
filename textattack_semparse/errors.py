"""Exception hierarchy: one subclass of :class:`SemparseError` per stage.

Every message names the bad value, what was expected and how to fix it. The command line turns
every ``SemparseError`` into one line on standard error and exit status 2; any other exception
is a bug and keeps its traceback.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class SemparseError(Exception):
    """Root of every error raised by textattack-semparse."""


class ConfigurationError(SemparseError, ValueError):
    """A setting or argument has a value that cannot work (a count below one, an unknown choice,
    options that exclude each other). Also a ``ValueError``, as Python callers expect."""


class ConfigurationTypeError(SemparseError, TypeError):
    """A setting or argument has the wrong type. Also a ``TypeError``, as Python callers expect."""


class RegistryError(SemparseError):
    """A name is unknown, registered twice, or a plugin failed to load."""


class RecipeError(SemparseError):
    """A recipe cannot be built with the given victim or options."""


class DatasetError(SemparseError):
    """A dataset file, row or gold query is malformed or missing."""


class SchemaError(SemparseError):
    """A database or schema cannot be found or read."""


class ExecutionError(SemparseError):
    """SQL execution was set up wrongly (not: a predicted query failed)."""


class VictimError(SemparseError):
    """A victim model cannot be built or failed on its inputs."""


def closest_match_hint(name: str, choices: Iterable[str]) -> str:
    """Return ``" Did you mean 'x'?"`` for the closest of ``choices``, or ``""``.

    Example:
        >>> closest_match_hint("semparse-gep", ["semparse-geo", "textfooler"])
        " Did you mean 'semparse-geo'?"
    """
    matches = difflib.get_close_matches(name, list(choices), n=1)
    return f" Did you mean '{matches[0]}'?" if matches else ""


class ResourceError(SemparseError):
    """A linguistic resource (spaCy pipeline, WordNet, error-model JSON) is missing or malformed.

    The message names the resource, what was looked for and the command that fixes it.
    """
