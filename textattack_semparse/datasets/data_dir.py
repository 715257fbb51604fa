"""Where the real benchmarks and their test suites live: an explicit argument, else the environment."""

from __future__ import annotations

import os
from pathlib import Path

from textattack_semparse.errors import DatasetError

DATA_DIR_ENV = "SEMPARSE_DATA_DIR"
TEST_SUITE_DIR_ENV = "SEMPARSE_TEST_SUITE_DIR"


def resolve_data_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """Return the benchmark data directory, or ``None`` when none is configured.

    ``explicit`` (a ``--data-dir`` flag or a ``data_dir=`` argument) wins over the
    ``SEMPARSE_DATA_DIR`` environment variable; an empty variable counts as unset.

    Raises:
        DatasetError: The chosen directory does not exist.

    Example:
        >>> resolve_data_dir(".").is_dir()
        True
    """
    return _resolve_directory(
        explicit,
        DATA_DIR_ENV,
        argument="data_dir",
        what="Data directory",
        fix=f"Point {DATA_DIR_ENV} (or data_dir= in Python, --data-dir where a command takes it) at the folder that holds 'text2sql/', "
        "or unset it to use the embedded 'geo-mini' benchmark.",
    )


def resolve_test_suite_dir(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """Return the folder of distilled test suites (one ``<benchmark>/`` folder each), or ``None``.

    ``explicit`` (``--test-suite-dir`` or ``test_suite_dir=``) wins over
    ``SEMPARSE_TEST_SUITE_DIR``; an empty variable counts as unset. Suites are written by
    ``textattack-semparse test-suite build`` (``docs/test_suites.md``).

    Raises:
        DatasetError: The chosen directory does not exist.
    """
    return _resolve_directory(
        explicit,
        TEST_SUITE_DIR_ENV,
        argument="test_suite_dir",
        what="Test-suite directory",
        fix="Build one with 'textattack-semparse test-suite build --benchmark NAME --output-dir DIR' and point "
        f"{TEST_SUITE_DIR_ENV} (or --test-suite-dir) at DIR, or unset it.",
    )


def _resolve_directory(
    explicit: str | os.PathLike[str] | None, variable: str, *, argument: str, what: str, fix: str
) -> Path | None:
    if explicit is not None and os.fspath(explicit) != "":
        source = f"the {argument} argument"
        raw = os.fspath(explicit)
    else:
        raw = os.environ.get(variable, "")
        if not raw:
            return None
        source = f"the environment variable {variable}"
    path = Path(raw).expanduser()
    if not path.is_dir():
        raise DatasetError(f"{what} {str(path)!r} (from {source}) does not exist or is not a directory. {fix}")
    return path
