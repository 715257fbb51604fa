"""What an augmentation run wrote, and the checks on its input and output paths."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.errors import DatasetError


@dataclass(frozen=True)
class AugmentationCounts:
    """What an augmentation run wrote.

    Args:
        written (int): Questions (sentences, lines) in the output file.
        added (int): Augmented questions among them.
        rejected (int): Augmentations dropped because they changed a protected literal (or,
            for text2sql, could not be turned back into a template).
    """

    written: int
    added: int
    rejected: int

def check_paths(source: Path, target: Path, kind: str, *, overwrite: bool) -> None:
    """Refuse a missing input, an existing output (unless ``overwrite``) and writing over the input."""
    if not source.is_file():
        raise DatasetError(f"{kind} {str(source)!r} does not exist; pass an existing file.")
    if target.exists() and not overwrite:
        raise DatasetError(f"Output file {str(target)!r} exists; pass --overwrite to replace it.")
    if target.resolve() == source.resolve():
        raise DatasetError(f"Output file {str(target)!r} is the input file; write the augmented file elsewhere.")
