"""What an augmentation run wrote, and the checks on its input and output paths."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.errors import DatasetError
from textattack_semparse.runs.run_directory import prepare_output_file


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

def line_ending(path: Path) -> str:
    r"""The line ending of a text file, by its first line: ``"\r\n"`` or ``"\n"`` (also for a
    file of one line without an ending), so an augmented copy is written with the input's.

    Example:
        >>> import pathlib, tempfile
        >>> path = pathlib.Path(tempfile.mkdtemp()) / "train.csv"
        >>> _ = path.write_bytes(b"question,sql\r\nhi,SELECT 1\r\n")
        >>> line_ending(path)
        '\r\n'
    """
    with path.open("rb") as handle:
        first = handle.readline()
    return "\r\n" if first.endswith(b"\r\n") else "\n"


def check_paths(source: Path, target: Path, kind: str, *, overwrite: bool) -> None:
    """Refuse a missing input, an existing output (unless ``overwrite``) and writing over the input."""
    if not source.is_file():
        raise DatasetError(f"{kind} {str(source)!r} does not exist; pass an existing file.")
    if target.exists() and not overwrite:
        raise DatasetError(f"Output file {str(target)!r} exists; pass --overwrite to replace it.")
    if target.resolve() == source.resolve():
        raise DatasetError(f"Output file {str(target)!r} is the input file; write the augmented file elsewhere.")
    prepare_output_file(target)
