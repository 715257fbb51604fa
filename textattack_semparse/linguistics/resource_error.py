"""Missing or malformed linguistic resource."""

from __future__ import annotations

from textattack_semparse.errors import SemparseError


class ResourceError(SemparseError):
    """A linguistic resource (spaCy pipeline, WordNet, error-model JSON) is missing or malformed.

    The message names the resource, what was looked for and the command that fixes it.
    Original to textattack-semparse.
    """
