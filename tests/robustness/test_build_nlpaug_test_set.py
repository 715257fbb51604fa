"""Robustness test sets with nlpaug's augmenters (the ``nlpaug`` perturbation family): every
literal intact, reproducible by seed, judged like every perturbation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from textattack_semparse.augmentation.literal_protection import keeps_literals
from textattack_semparse.cli import main
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges.meaning_judge import judge_from_name
from textattack_semparse.robustness.build_test_set import build_test_set, perturbation_file_names
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet

TYPOS = "nlpaug:KeyboardAug:aug_word_p=1.0:aug_word_max=100"
"""Typos in every word nlpaug may pick: every literal word would get one if it were not protected."""
SWAPS = "nlpaug:RandomWordAug:action=swap"
SYNONYMS = "nlpaug:SynonymAug:aug_p=1.0"


def literals_of(original: str, gold: str) -> list[str]:
    """The literals PreserveLiterals protects in ``original`` for ``gold`` (SQL or logical form)."""
    from textattack.shared import AttackedText

    from textattack_semparse.attack_attrs import record_gold_output

    text = AttackedText(original)
    record_gold_output(text, gold)
    return PreserveLiterals().protected_literals(text)


def assert_every_literal_intact(test_set: RobustnessTestSet) -> int:
    """Check every literal of every rewrite; the number of rewrites checked."""
    checked = 0
    for name, utterances in test_set.utterances.items():
        for utterance in utterances:
            literals = literals_of(utterance.original, utterance.gold)
            assert keeps_literals(utterance.original, utterance.perturbed, literals), (name, utterance, literals)
            checked += 1
    return checked


@pytest.fixture(scope="module")
def unjudged(geo_mini_env, encoder) -> RobustnessTestSet:
    # Every candidate kept, no judge: the literal check sees all nlpaug proposed.
    return build_test_set(
        "geo-question-test", [TYPOS, SWAPS, SYNONYMS], setting=None, selection=(None, None), encoder=encoder, judges=()
    )


def test_every_literal_of_every_rewrite_is_intact(unjudged):
    assert assert_every_literal_intact(unjudged) > 200


def test_members_are_written_under_their_file_safe_names(unjudged, tmp_path):
    assert list(unjudged.utterances) == [
        "nlpaug_KeyboardAug_aug_word_p_1.0_aug_word_max_100",
        "nlpaug_RandomWordAug_action_swap",
        "nlpaug_SynonymAug_aug_p_1.0",
    ]
    unjudged.write(tmp_path)
    written = RobustnessTestSet.read(tmp_path)
    for name, utterances in written.utterances.items():
        assert (tmp_path / f"{name}.jsonl").is_file()
        assert {utterance.perturbation for utterance in utterances} == {name}


def test_the_same_seed_builds_the_same_test_set_and_another_seed_another(geo_mini_env, encoder):
    def build(seed: int) -> list[str]:
        built = build_test_set(
            "geo-question-test", [TYPOS], seed=seed, limit=4, setting=None, selection=(3, 3), encoder=encoder, judges=()
        )
        return [utterance.perturbed for utterance in built.utterances[perturbation_file_names([TYPOS])[TYPOS]]]

    first = build(0)
    assert first and build(0) == first
    assert build(1) != first


def test_the_judge_rejects_and_the_manifest_counts_it(geo_mini_env, encoder, tmp_path):
    built = build_test_set("geo-question-test", ["nlpaug:KeyboardAug"], limit=12, encoder=encoder)
    name = "nlpaug_KeyboardAug"
    tally = built.judged[name]
    assert tally.judged > tally.rejected > 0  # typos in question words ("what" -> "wyat") change the question
    judge = judge_from_name("default")
    assert all(judge(u.original, u.perturbed, u.gold).keeps_meaning for u in built.utterances[name])
    built.write(tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert (manifest["judge"], manifest["judged"][name]["rejected"]) == ("default", tally.rejected)


def test_two_members_sharing_a_file_are_refused():
    with pytest.raises(ConfigurationError, match="would share the test-set file nlpaug_KeyboardAug_x_1.jsonl"):
        perturbation_file_names(["nlpaug:KeyboardAug:x=1", "nlpaug:KeyboardAug:x_1"])


def test_robustness_build_command_with_an_nlpaug_augmenter(geo_mini_env, tmp_path):
    arguments = ["--dataset", "geo-question-test", "--perturbations", "nlpaug:KeyboardAug", "--num-examples", "6"]
    assert main(["robustness", "build", *arguments, "--output-dir", str(tmp_path), "--no-progress"]) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["perturbations"] == ["nlpaug_KeyboardAug"]
    assert manifest["judged"]["nlpaug_KeyboardAug"]["judged"] > 0


def test_an_unknown_augmenter_fails_before_the_run_directory_is_written(geo_mini_env, tmp_path, capsys):
    output = tmp_path / "never"
    arguments = ["--dataset", "geo-question-test", "--perturbations", "nlpaug:KeybordAug", "--num-examples", "2"]
    assert main(["robustness", "build", *arguments, "--output-dir", str(output)]) == 2
    error = capsys.readouterr().err.strip()
    assert "Unknown nlpaug augmenter 'KeybordAug'. Did you mean 'KeyboardAug'?" in error
    assert len(error.splitlines()) == 1
    assert not output.exists()

