"""exports/hf_dataset.py: a set's rows saved as a datasets.Dataset with its card, read back with
``datasets.load_from_disk`` and the card with huggingface_hub's own parser; the push refused in one
line offline or without a token (nothing reaches the network)."""

from __future__ import annotations

from pathlib import Path

import datasets
import pytest
from huggingface_hub import DatasetCard as HubDatasetCard

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.exports.hf_dataset import (
    DatasetCard,
    check_hf_dir,
    check_push_to_hub,
    write_hf_dataset,
)
from textattack_semparse.runs.provenance import COMMAND_LINE

CARD = DatasetCard(
    "Robustness test set of geo-mini-question-test",
    "robustness test set",
    "registered dataset geo-mini-question-test",
    {"seed": "0", "meaning judge": "default"},
    tags=("robustness",),
)


def test_rows_round_trip_with_every_column_and_none_where_a_row_has_no_value(tmp_path: Path) -> None:
    rows = [
        {"example_id": 0, "question": "rivers in texas", "gold": "SELECT 1", "perturbation": "original"},
        {"example_id": 0, "original": "rivers in texas", "perturbed": "the rivers in texas", "gold": "SELECT 1",
         "perturbation": "insertion", "similarity": 0.93, "db_id": None},
    ]  # fmt: skip
    folder = write_hf_dataset(rows, tmp_path / "hf", CARD, split="test")
    loaded = datasets.load_from_disk(str(folder))
    assert loaded.split == "test"
    # db_id is None in every row, so it is no column; the others are the union of the rows' keys.
    assert loaded.column_names == ["example_id", "question", "gold", "perturbation", "original", "perturbed", "similarity"]
    assert loaded.to_list() == [
        {"example_id": 0, "question": "rivers in texas", "gold": "SELECT 1", "perturbation": "original",
         "original": None, "perturbed": None, "similarity": None},
        {"example_id": 0, "question": None, "gold": "SELECT 1", "perturbation": "insertion",
         "original": "rivers in texas", "perturbed": "the rivers in texas", "similarity": 0.93},
    ]  # fmt: skip


def test_card_has_the_hubs_yaml_header_and_says_how_the_set_was_made(tmp_path: Path) -> None:
    token = COMMAND_LINE.set(("robustness", "build", "--dataset", "geo-question-test", "--hf-dir", "out dir"))
    try:
        folder = write_hf_dataset([{"question": "q", "gold": "g"}] * 3, tmp_path / "hf", CARD, split="test")
    finally:
        COMMAND_LINE.reset(token)
    card = HubDatasetCard.load(folder / "README.md")
    assert card.data.pretty_name == "Robustness test set of geo-mini-question-test"
    assert card.data.tags == ["textattack-semparse", "robustness"]
    assert card.data.size_categories == ["n<1K"]
    text = card.text
    assert "| command | `textattack-semparse robustness build --dataset geo-question-test --hf-dir 'out dir'` |" in text
    assert "| source | registered dataset geo-mini-question-test |" in text
    assert "| seed | 0 |" in text and "| meaning judge | default |" in text
    assert "| rows | 3 (test split) |" in text
    for package in ("textattack-semparse", "datasets", "pyarrow", "python"):
        assert f"| {package} | " in text


def test_card_of_a_set_written_from_python_says_so() -> None:
    assert "| command | called from Python |" in CARD.render(1, "test")


def test_an_earlier_export_is_replaced_and_another_folder_refused(tmp_path: Path) -> None:
    folder = write_hf_dataset([{"question": "a"}], tmp_path / "hf", CARD, split="test")
    write_hf_dataset([{"question": "b"}, {"question": "c"}], folder, CARD, split="test")
    assert datasets.load_from_disk(str(folder))["question"] == ["b", "c"]
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(ConfigurationError, match=r"--hf-dir '.*other' exists and is not an earlier --hf-dir export"):
        check_hf_dir(tmp_path / "other")


def test_push_offline_is_refused_in_one_line_naming_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    with pytest.raises(ConfigurationError) as raised:
        check_push_to_hub("me/geo-robustness")
    assert str(raised.value) == (
        "--push-to-hub me/geo-robustness: HF_HUB_OFFLINE is set, so nothing can be uploaded; unset it when online, or "
        "leave out --push-to-hub and keep the --hf-dir copy."
    )


def test_push_without_a_token_is_refused_in_one_line_naming_the_fix(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import huggingface_hub.constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "0")
    for variable in ("HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"):
        monkeypatch.delenv(variable, raising=False)
    # The credential boundary: no stored token (a file that does not exist), so no network call follows.
    monkeypatch.setattr(huggingface_hub.constants, "HF_TOKEN_PATH", str(tmp_path / "no-token"))
    monkeypatch.setattr(huggingface_hub.constants, "HF_STORED_TOKENS_PATH", str(tmp_path / "no-tokens"))
    with pytest.raises(ConfigurationError, match=r"^--push-to-hub me/geo needs a Hugging Face token with write access: "
                                                 r"run `hf auth login` \(or `huggingface-cli login`\), or set HF_TOKEN\.$"):
        check_push_to_hub("me/geo")
