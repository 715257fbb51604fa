"""``judge train`` as a workflow: check the output directory, train the reader, say what was written."""

from __future__ import annotations

import json
import shutil

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges.reader_training import ReaderTrainingConfig, train_reader


def run_judge_training(config: ReaderTrainingConfig, *, overwrite: bool = False) -> int:
    """Train the reader ``config`` describes into its output directory (refused when the directory
    holds one, unless ``overwrite``); print where it went and how it measured. Returns 0.

    Raises:
        ConfigurationError: The directory holds a reader and ``overwrite`` is off, or holds other files.
        DatasetError: The data cannot be read.
    """
    folder = config.output_dir
    if folder.exists() and any(folder.iterdir()):
        if not (folder / "reader.json").is_file():
            raise ConfigurationError(f"{str(folder)!r} holds other files: choose a new --output-dir for the reader.")
        if not overwrite:
            raise ConfigurationError(f"{str(folder)!r} already holds a reader: add --overwrite to replace it.")
        shutil.rmtree(folder)
    record = train_reader(config)
    print(json.dumps({"reader": str(folder), "threshold": record.threshold, "measured": record.measured}, indent=1))
    print(f"Use it with --judge cross-encoder:{folder}")
    return 0
