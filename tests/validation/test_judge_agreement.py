"""A meaning judge measured against people: ``validate judge`` on pairs, and its agreement
(accuracy, Cohen's kappa, recall of the rejected rewrites) with judgment files and labelled pairs."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from tests.validation.validation_data import annotate, geo_test_set
from textattack_semparse.errors import DatasetError
from textattack_semparse.experiments import validate
from textattack_semparse.validation.judge_agreement import judge_agreement


def test_agreement_figures_of_a_hand_made_case():
    judge = [True, True, False, False, True]  # the judge calls 1, 2 and 5 the same
    people = [True, False, False, True, True]  # people keep 1, 4 and 5
    result = judge_agreement(judge, people)
    assert result.pairs == 5 and result.accuracy == 60.0  # agree on 1, 3, 5
    assert result.people_rejected == 2 and result.rejected_recall == 50.0  # of 2 and 3 it rejected 3
    assert result.judge_kept_rejected == 1
    # Cohen: p_o = 3/5; the judge keeps 3/5, people keep 3/5: p_e = 9/25 + 4/25 = 13/25.
    by_hand = (Fraction(3, 5) - Fraction(13, 25)) / (1 - Fraction(13, 25))
    assert result.cohen_kappa == pytest.approx(float(by_hand))


@pytest.fixture()
def judged(tmp_path):
    """The default judge's verdicts on an export's pairs, and three annotators' judgments."""
    source = tmp_path / "test-set"
    geo_test_set(source)
    export_dir = tmp_path / "export"
    validate.export(validate.ExportConfig(sources=[source], output_dir=export_dir))
    verdicts = tmp_path / "verdicts.jsonl"
    result = validate.judge(validate.JudgeConfig(judges=["default"], input=export_dir / "pairs.jsonl", output=verdicts))
    # People keep the distractions and reject the deletions (each drops the question's first word).
    files = annotate(export_dir, tmp_path, lambda item: "keep" if item["rewrite"].endswith("who is who") else "drop")
    return result, verdicts, files


def test_judge_adds_verdict_and_reason_and_keeps_every_other_key(judged, tmp_path):
    result, verdicts, _ = judged
    lines = [json.loads(line) for line in verdicts.read_text(encoding="utf-8").splitlines()]
    pairs = [json.loads(line) for line in (tmp_path / "export" / "pairs.jsonl").read_text(encoding="utf-8").splitlines()]
    assert [{key: line[key] for key in pairs[0]} for line in lines] == pairs
    assert all(line["verdict"] in ("same", "different", "unsure") and line["reason"] for line in lines)
    assert result.judge == "default" and sum(result.verdicts.values()) == 8
    # Dropping "what" / "how" loses the question word: the default judge says different.
    deletions = [line for line in lines if line["perturbation"] == "deletion"]
    assert {line["verdict"] for line in deletions} == {"different"}


def test_several_judges_must_all_say_same(tmp_path):
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(json.dumps({"original": "where is dallas", "rewrite": "where is dallas located", "id": 7}) + "\n", encoding="utf-8")
    result = validate.judge(validate.JudgeConfig(judges=["default", "default"], input=pairs, output=tmp_path / "out.jsonl"))
    line = json.loads((tmp_path / "out.jsonl").read_text())
    assert result.judge == "default+default" and line["id"] == 7 and "verdict" in line


def test_agreement_with_judgment_files_overall_and_per_perturbation(judged, tmp_path):
    _, verdicts, files = judged
    result = validate.agreement(validate.AgreementConfig(verdicts=verdicts, people=files, output_json=tmp_path / "agreement.json"))
    lines = [json.loads(line) for line in verdicts.read_text(encoding="utf-8").splitlines()]
    keeps = [line["verdict"] == "same" for line in lines]
    people = [line["perturbation"] == "distraction" for line in lines]
    assert result.rows[0] == judge_agreement(keeps, people)
    assert [row.group for row in result.rows] == ["all", "perturbation: deletion", "perturbation: distraction"]
    assert result.rows[1].people_rejected == 4 and result.rows[2].people_rejected == 0
    written = json.loads((tmp_path / "agreement.json").read_text())
    assert written["agreement"][0] == result.rows[0].to_json() and written["rule"] == "huang-2021"


def test_agreement_with_labelled_pairs_by_class(tmp_path):
    verdicts = tmp_path / "verdicts.jsonl"
    labelled = tmp_path / "labelled.jsonl"
    rows = [
        ("what is the capital of texas", "what is capital of texas", "same", "article", "same"),
        ("how many rivers are in texas", "which rivers are in texas", "same", "question word", "different"),
        ("where is dallas", "where dallas", "different", "question word", "different"),
    ]
    verdicts.write_text("".join(json.dumps({"original": o, "rewrite": r, "verdict": v, "class": c}) + "\n" for o, r, v, c, _ in rows))
    labelled.write_text("".join(json.dumps({"original": o, "rewrite": r, "label": label}) + "\n" for o, r, _, _, label in rows))
    result = validate.agreement(validate.AgreementConfig(verdicts=verdicts, people=[labelled]))
    assert [(row.group, row.pairs, row.accuracy, row.rejected_recall) for row in result.rows] == [
        ("all", 3, pytest.approx(200 / 3), 50.0),
        ("class: article", 1, 100.0, None),
        ("class: question word", 2, 50.0, 50.0),
    ]
    # The labels may sit in the verdict lines themselves.
    inline = tmp_path / "inline.jsonl"
    inline.write_text("".join(json.dumps({"original": o, "rewrite": r, "verdict": v, "label": label}) + "\n" for o, r, v, _, label in rows))
    assert validate.agreement(validate.AgreementConfig(verdicts=inline)).rows[0] == result.rows[0]


def test_agreement_without_a_join_names_the_fix(judged, tmp_path):
    _, _, files = judged
    bare = tmp_path / "bare.jsonl"
    bare.write_text(json.dumps({"original": "a b", "rewrite": "a", "verdict": "same"}) + "\n")
    with pytest.raises(DatasetError, match="join on item_id"):
        validate.agreement(validate.AgreementConfig(verdicts=bare, people=files))
    wrong = tmp_path / "wrong.jsonl"
    wrong.write_text(json.dumps({"original": "a b", "rewrite": "a", "verdict": "yes"}) + "\n")
    with pytest.raises(DatasetError, match="verdict 'yes', none of different, same, unsure"):
        validate.agreement(validate.AgreementConfig(verdicts=wrong))
