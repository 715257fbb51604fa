"""``--hf-dir DIR`` and ``--push-to-hub REPO_ID``: every command that writes a set also writes it as a
🤗 ``datasets.Dataset`` with its dataset card, and pushes it to the Hub for users who are online
(:mod:`textattack_semparse.exports`). The set's own files are written as without the options."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path


def hf_parent() -> argparse.ArgumentParser:
    """The options that export a written set as a 🤗 dataset."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument(
        "--hf-dir",
        metavar="DIR",
        help="also write the set as a Hugging Face datasets.Dataset (save_to_disk; datasets.load_from_disk reads it) "
        "with its dataset card README.md (command line, source, seed, meaning judge, versions) in DIR",
    )
    parser.add_argument(
        "--push-to-hub",
        metavar="REPO_ID",
        help="also push that dataset and its card to the Hugging Face Hub dataset REPO_ID (needs a token and the "
        "network; checked before anything runs)",
    )
    return parser


def check_hf_output(args: argparse.Namespace) -> None:
    """Fail before any work when ``--hf-dir`` cannot be written or ``--push-to-hub`` cannot push.

    Raises:
        ConfigurationError: One line naming the fix.
    """
    from textattack_semparse.exports.hf_dataset import check_hf_dir, check_push_to_hub

    if args.hf_dir is not None:
        check_hf_dir(args.hf_dir)
    if args.push_to_hub is not None:
        check_push_to_hub(args.push_to_hub)


def write_hf_output(
    args: argparse.Namespace,
    written: Path,
    *,
    title: str,
    source: str,
    settings: Mapping[str, object],
    tags: Sequence[str] = (),
    file_format: str | None = None,
    hf_dir: str | Path | None = None,
) -> None:
    """Export the set at ``written`` (:func:`~textattack_semparse.exports.set_rows.set_rows`) as
    ``--hf-dir`` (``hf_dir`` when given) and ``--push-to-hub`` ask, and say where it went; nothing
    without either option. ``settings`` go into the card (``None`` values left out)."""
    if args.hf_dir is None and args.push_to_hub is None:
        return
    from textattack_semparse.exports.hf_dataset import DatasetCard, push_hf_dataset, write_hf_dataset
    from textattack_semparse.exports.set_rows import set_rows

    found = set_rows(written, file_format=file_format)
    card = DatasetCard(
        title=title,
        kind=found.kind,
        source=source,
        settings={name: str(value) for name, value in settings.items() if value is not None},
        tags=tags,
    )
    with tempfile.TemporaryDirectory(prefix="hf-export-") as scratch:
        folder = Path(hf_dir or args.hf_dir or Path(scratch) / "dataset")
        write_hf_dataset(found.rows, folder, card, split=found.split)
        if args.hf_dir is not None:
            print(f"Wrote {len(found.rows)} rows ({found.kind}) as a Hugging Face dataset with its card to {folder}")
        if args.push_to_hub is not None:
            print(f"Pushed {len(found.rows)} rows to {push_hf_dataset(folder, args.push_to_hub, split=found.split)}")
