"""What people are asked to judge, and where it came from: a :class:`RewriteSource` is one file
or run directory that holds rewrites of questions, read into :class:`Rewrite` records, and
written again with some of them left out.

Each kind of source (:mod:`~textattack_semparse.validation.sources`) knows its own format: where a
rewrite sits in it (its ``location``), which rewrites are alternatives for the same original
question (its ``group``: Zhuo et al.'s candidates of one example), and how the source looks
without the rewrites people rejected, so that the commands that read the source read the
validated copy the same way.
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

Location = tuple[str | int, ...]
"""Where a rewrite sits in its source (JSON-serialisable: a perturbation and an index, a row, an
entry and a sentence, a line)."""


@dataclass(frozen=True)
class Rewrite:
    """One rewrite of a question in a source.

    Args:
        original (str): The question as the source has it.
        rewrite (str): The rewritten question.
        gold (str | None): The original's gold output (SQL or logical form), when the source has it.
        perturbation (str): What made the rewrite (a perturbation, an attack recipe, a file).
        location (Location): Where it sits in its source.
        group (str): The rewrites with the same group are candidates for the same original
            question (one example under one perturbation).
    """

    original: str
    rewrite: str
    gold: str | None
    perturbation: str
    location: Location
    group: str


class RewriteSource(ABC):
    """A file or run directory holding rewrites.

    ``kind`` names the kind of source (:data:`~textattack_semparse.validation.sources.KINDS`),
    ``path`` the file or directory given.
    """

    kind: str
    path: Path

    @abstractmethod
    def rewrites(self) -> list[Rewrite]:
        """Every rewrite people can judge, in the source's order (a perturbed question that is the
        original itself, such as a table-only perturbation, is none)."""

    @abstractmethod
    def files(self) -> list[Path]:
        """The files :meth:`rewrites` reads (their bytes make :meth:`digest`)."""

    @abstractmethod
    def write_without(self, dropped: Collection[Location], output: Path) -> Path:
        """Write the source without the rewrites at ``dropped`` under the new directory
        ``output``, in the source's own format; return what to pass on (the directory, or the
        file written in it)."""

    @property
    def name(self) -> str:
        """The file or directory name, for output paths."""
        return self.path.name

    @property
    def details(self) -> dict[str, str]:
        """What else reopening the source needs (the augmentation's original file)."""
        return {}

    def digest(self) -> str:
        """SHA-256 of the files read: an export's key refuses a source that changed since."""
        digest = hashlib.sha256()
        for path in self.files():
            digest.update(path.name.encode("utf-8") + b"\0" + path.read_bytes() + b"\0")
        return digest.hexdigest()
