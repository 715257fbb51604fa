"""A build that skips perturbations says so in one line, grouped by why; ``--verbose`` gives each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from textattack_semparse.cli import main
from textattack_semparse.robustness.robustness_test_set import OFFLINE_MODEL, skipped_summary


def test_the_summary_groups_the_reasons() -> None:
    offline = "OSError: We couldn't connect to 'https://huggingface.co' to load the files"
    line = skipped_summary({"backtranslation": offline, "rewriting": offline, "row-shuffle": "table perturbation; geo has no tables"})
    assert line == f"Skipped 3 perturbations. {OFFLINE_MODEL[0].upper()}{OFFLINE_MODEL[1:]}: backtranslation, rewriting; table perturbation; geo has no tables: row-shuffle."


@pytest.mark.parametrize("verbose", [False, True])
def test_a_build_prints_one_line_for_what_it_skipped_or_each_with_verbose(
    verbose: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from huggingface_hub import constants

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    empty_cache = tmp_path / "hf-hub-cache"  # whatever this machine has cached, the models are missing
    empty_cache.mkdir()
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(empty_cache))
    output = tmp_path / "built"
    argv = ["robustness", "build", "--dataset", "geo-mini-question-test", "--num-examples", "2", "--output-dir",
            str(output), "--no-progress"]  # fmt: skip  # every perturbation: those that cannot run here are skipped
    assert main([*argv, *(["--verbose"] if verbose else [])]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("Skipped")]
    skipped = json.loads((output / "manifest.json").read_text())["skipped"]
    assert {"backtranslation", "substitution-nf", "row-shuffle"} <= set(skipped)  # a hub model offline, no tables
    if verbose:
        assert lines == [f"Skipped perturbation {name!r}: {reason}" for name, reason in skipped.items()]
    else:
        assert lines == [f"{skipped_summary(skipped)} --verbose gives each reason."]
