"""The options every long command shares: where it runs, resuming, progress."""

from __future__ import annotations

import argparse
from typing import Any

from textattack_semparse.commands.output import positive_int
from textattack_semparse.runs.backends import BACKENDS, RayBackend, SerialBackend, make_backend


def add_run_arguments(parser: argparse.ArgumentParser, *, distributed: bool = True) -> None:
    """``--resume`` and ``--no-progress``; with ``distributed`` also ``--backend``, ``--ray-address``, ``--workers``."""
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --output-dir (re-running the same command there does too); finished examples are "
        "never recomputed, and a changed configuration is refused",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    if distributed:
        parser.add_argument(
            "--backend",
            choices=BACKENDS,
            default="serial",
            help="'serial' (this process) or 'ray' (workers holding a victim each; pip install "
            "'textattack-semparse[ray]'); the files written are the same (docs/scale.md)",
        )
        parser.add_argument(
            "--ray-address", help="Ray cluster to join, e.g. auto or ray://head:10001 (default: a local Ray for the run)"
        )
        parser.add_argument("--workers", type=positive_int, default=2, help="Ray workers (default 2)")


def backend_from_arguments(args: Any) -> SerialBackend | RayBackend:
    """The backend the parsed ``--backend``, ``--ray-address`` and ``--workers`` ask for."""
    return make_backend(args.backend, workers=args.workers, address=args.ray_address)


def progress_enabled(args: Any) -> bool | None:
    """``False`` with ``--no-progress``, else ``None`` (shown when standard error is a terminal)."""
    return False if args.no_progress else None
