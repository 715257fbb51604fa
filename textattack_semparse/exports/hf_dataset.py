"""A written set as a 🤗 ``datasets.Dataset`` in a folder (``save_to_disk``) with its dataset card,
and pushed to the Hugging Face Hub for users who are online.

The folder holds what ``Dataset.save_to_disk`` writes (``datasets.load_from_disk`` reads it back)
and ``README.md``, the dataset card: a YAML header as the Hub reads it (``pretty_name``, ``tags``,
``size_categories``) and how the set was made: the command line, the source, the seed, the meaning
judge and the other settings, and the versions of the software. ``push_to_hub`` uploads the card
first and then the rows (as parquet, one split), so the Hub adds its ``configs`` and
``dataset_info`` to this card. Original to textattack-semparse.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from types import MappingProxyType
from typing import Any

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.project import docs_url
from textattack_semparse.runs.provenance import COMMAND_LINE, command_line, software_versions

CARD = "README.md"
SAVED_FILES = ("state.json", "dataset_info.json")
"""What ``save_to_disk`` writes beside its ``data-*.arrow`` files: a folder holding them is an earlier export."""
HUB_DISTRIBUTIONS = ("datasets", "huggingface-hub", "pyarrow")


@dataclass(frozen=True)
class DatasetCard:
    """What a dataset card says of a written set.

    Args:
        title (str): The card's heading and ``pretty_name``.
        kind (str): What the set is (``"robustness test set"``).
        source (str): What it was made from (a registered dataset, a file, a run directory).
        settings (Mapping[str, str], default empty): How it was made, by name: ``seed``,
            ``meaning judge``, the recipe, the selection setting, ...
        tags (Sequence[str], default ()): Hub tags besides ``textattack-semparse``.
    """

    title: str
    kind: str
    source: str
    settings: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    tags: Sequence[str] = ()

    def render(self, rows: int, split: str) -> str:
        """The card's text (``README.md``) for ``rows`` rows in ``split``.

        Example:
            >>> card = DatasetCard("Robustness test set of geo-mini", "robustness test set", "geo-mini-question-test",
            ...                    {"seed": "765", "meaning judge": "default"}, tags=("robustness",))
            >>> text = card.render(12, "test")
            >>> text.splitlines()[:5]
            ['---', 'pretty_name: "Robustness test set of geo-mini"', 'tags:', '- "textattack-semparse"', '- "robustness"']
            >>> "| seed | 765 |" in text and "| meaning judge | default |" in text
            True
        """
        command = COMMAND_LINE.get()
        how = {
            "command": f"`{command_line(command)}`" if command is not None else "called from Python",
            "source": self.source,
            **self.settings,
            "rows": f"{rows} ({split} split)",
        }
        versions = {**software_versions(), **_versions(HUB_DISTRIBUTIONS)}
        header = [
            "---",
            f"pretty_name: {_yaml_text(self.title)}",
            "tags:",
            *(f"- {_yaml_text(tag)}" for tag in ("textattack-semparse", *self.tags)),
            "size_categories:",
            f"- {_size_category(rows)}",
            "---",
        ]
        return "\n".join(
            [
                *header,
                "",
                f"# {self.title}",
                "",
                f"A {self.kind} written by textattack-semparse ({docs_url('benchmarks.md')}).",
                "",
                "## How it was made",
                "",
                "| | |",
                "|---|---|",
                *(f"| {name} | {_cell(value)} |" for name, value in how.items()),
                "",
                "## Software",
                "",
                "| package | version |",
                "|---|---|",
                *(f"| {name} | {version} |" for name, version in versions.items()),
                "",
            ]
        )


def check_hf_dir(directory: str | os.PathLike[str]) -> Path:
    """``directory`` if a set may be written there: absent, empty, or an earlier export (replaced).

    Raises:
        ConfigurationError: It is a file, or a folder holding anything else.
    """
    folder = Path(directory)
    if folder.exists() and not (folder.is_dir() and (not any(folder.iterdir()) or _is_export(folder))):
        raise ConfigurationError(
            f"--hf-dir {str(folder)!r} exists and is not an earlier --hf-dir export; name a new or empty folder."
        )
    return folder


def write_hf_dataset(
    rows: Sequence[Mapping[str, Any]], directory: str | os.PathLike[str], card: DatasetCard, *, split: str
) -> Path:
    """Save ``rows`` as a ``datasets.Dataset`` in ``directory`` with the card; return the folder.

    Every row gets every column (``None`` where a row has no value); columns that are ``None``
    in every row are left out. An earlier export in the folder is replaced.

    Raises:
        ConfigurationError: As :func:`check_hf_dir`.
    """
    import datasets

    folder = check_hf_dir(directory)
    columns = [
        name for name in dict.fromkeys(key for row in rows for key in row) if any(row.get(name) is not None for row in rows)
    ]
    dataset = datasets.Dataset.from_list([{name: row.get(name) for name in columns} for row in rows], split=split)
    if folder.exists():
        shutil.rmtree(folder)
    dataset.save_to_disk(str(folder))
    (folder / CARD).write_text(card.render(len(rows), split), encoding="utf-8")
    return folder


def check_push_to_hub(repo_id: str) -> None:
    """Fail before any work when ``repo_id`` cannot be pushed to: offline, or no token.

    Raises:
        ConfigurationError: ``HF_HUB_OFFLINE`` is set, or no Hugging Face token is configured;
            one line naming the fix.
    """
    from textattack_semparse.offline import hub_offline

    if hub_offline():
        raise ConfigurationError(
            f"--push-to-hub {repo_id}: HF_HUB_OFFLINE is set, so nothing can be uploaded; unset it when online, or "
            "leave out --push-to-hub and keep the --hf-dir copy."
        )
    from huggingface_hub import get_token

    if not get_token():
        raise ConfigurationError(
            f"--push-to-hub {repo_id} needs a Hugging Face token with write access: run `hf auth login` (or "
            "`huggingface-cli login`), or set HF_TOKEN."
        )


def push_hf_dataset(directory: str | os.PathLike[str], repo_id: str, *, split: str) -> str:
    """Push the export in ``directory`` to the Hub dataset ``repo_id`` (created when missing): the
    card first, then the rows as ``split``. Returns the dataset's URL.

    Raises:
        ConfigurationError: As :func:`check_push_to_hub`.
    """
    import datasets
    from huggingface_hub import HfApi

    check_push_to_hub(repo_id)
    folder = Path(directory)
    api = HfApi()
    api.create_repo(repo_id, repo_type="dataset", exist_ok=True)
    api.upload_file(
        path_or_fileobj=str(folder / CARD), path_in_repo=CARD, repo_id=repo_id, repo_type="dataset",
        commit_message="Dataset card (textattack-semparse)",
    )
    datasets.load_from_disk(str(folder)).push_to_hub(repo_id, split=split)
    return f"https://huggingface.co/datasets/{repo_id}"


def _is_export(folder: Path) -> bool:
    return (folder / CARD).is_file() and all((folder / name).is_file() for name in SAVED_FILES)


def _versions(names: Sequence[str]) -> dict[str, str]:
    found = {}
    for name in names:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return found


def _size_category(rows: int) -> str:
    """The Hub's ``size_categories`` value for ``rows``."""
    for bound, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"), (1_000_000, "100K<n<1M")):
        if rows < bound:
            return label
    return "1M<n<10M"


def _yaml_text(text: str) -> str:
    """``text`` as a double-quoted YAML scalar (JSON's escaping is YAML's)."""
    import json

    return json.dumps(text, ensure_ascii=False)


def _cell(value: str) -> str:
    """``value`` inside a Markdown table cell."""
    return str(value).replace("|", "\\|").replace("\n", " ")
