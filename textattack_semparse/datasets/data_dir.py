"""Where the real benchmarks live: an explicit argument, else ``SEMPARSE_DATA_DIR``."""

from __future__ import annotations

import os
from pathlib import Path

from textattack_semparse.errors import DatasetError

DATA_DIR_ENV = "SEMPARSE_DATA_DIR"


def resolve_data_dir(explicit: str | Path | None = None) -> Path | None:
    """Return the benchmark data directory, or ``None`` when none is configured.

    ``explicit`` (a ``--data-dir`` flag or a ``data_dir=`` argument) wins over the
    ``SEMPARSE_DATA_DIR`` environment variable; an empty variable counts as unset.

    Raises:
        DatasetError: The chosen directory does not exist.

    Example:
        >>> resolve_data_dir(".").is_dir()
        True
    """
    if explicit is not None and str(explicit) != "":
        source = "the data_dir argument"
        raw = str(explicit)
    else:
        raw = os.environ.get(DATA_DIR_ENV, "")
        if not raw:
            return None
        source = f"the environment variable {DATA_DIR_ENV}"
    path = Path(raw).expanduser()
    if not path.is_dir():
        raise DatasetError(
            f"Data directory {str(path)!r} (from {source}) does not exist or is not a directory. "
            f"Point {DATA_DIR_ENV} (or --data-dir) at the folder that holds 'text2sql/', "
            f"or unset it to use the embedded 'geo-mini' benchmark."
        )
    return path
