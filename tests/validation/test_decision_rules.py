"""The rules that decide people's judgments, from judgment files written out by hand.

Huang et al. (2021, "On Robustness of Neural Semantic Parsers", EACL) asked three crowd workers
per rewrite (same meaning / different meaning / not sure) and "keep only the ones that have the
same meaning agreed by at least two turkers".
"""

from __future__ import annotations

import pytest

from textattack_semparse.errors import ConfigurationError, DatasetError
from textattack_semparse.validation.decision_rules import (
    check_rule,
    decide,
    irregular_items,
    item_labels,
    rule_keeps,
)
from textattack_semparse.validation.judgments import read_judgments
from textattack_semparse.validation.validation_items import Candidate, ValidationItem

ITEMS = [
    ValidationItem("two-same", "what rivers are in texas", (Candidate("1", "what rivers are there in texas", ()),)),
    ValidationItem("one-same", "what is the capital of ohio", (Candidate("1", "what is capital ohio", ()),)),
    ValidationItem("with-unsure", "how many states border utah", (Candidate("1", "how many states border on utah", ()),)),
    ValidationItem("all-same", "where is dallas", (Candidate("1", "where is dallas located", ()),)),
]
# Three annotators, as Huang et al. had; "unsure" is not a "same" vote.
JUDGMENTS = """item_id,annotator,label
two-same,ann,same
two-same,bob,same
two-same,cy,different
one-same,ann,same
one-same,bob,different
one-same,cy,different
with-unsure,ann,same
with-unsure,bob,unsure
with-unsure,cy,unsure
all-same,ann,Same
all-same,bob,SAME
all-same,cy,same meaning
"""


def decisions(tmp_path, rule, text=JUDGMENTS, items=ITEMS, task="same-meaning"):
    path = tmp_path / "judgments.csv"
    path.write_text(text, encoding="utf-8")
    labels = item_labels(read_judgments([path]), items, task)
    return {item.item_id: decide(item, labels[item.item_id], task, rule) for item in items if item.item_id in labels}


def test_huang_2021_keeps_a_rewrite_two_of_three_annotators_call_the_same(tmp_path):
    kept = {item_id: decision.kept is not None for item_id, decision in decisions(tmp_path, "huang-2021").items()}
    assert kept == {"two-same": True, "one-same": False, "with-unsure": False, "all-same": True}


def test_unanimous_and_majority(tmp_path):
    unanimous = {item_id: decision.kept is not None for item_id, decision in decisions(tmp_path, "unanimous").items()}
    assert unanimous == {"two-same": False, "one-same": False, "with-unsure": False, "all-same": True}
    majority = {item_id: decision.kept is not None for item_id, decision in decisions(tmp_path, "majority").items()}
    assert majority == {"two-same": True, "one-same": False, "with-unsure": False, "all-same": True}


def test_disputed_items_are_those_not_labelled_alike(tmp_path):
    found = decisions(tmp_path, "huang-2021")
    assert [item_id for item_id, decision in found.items() if not decision.unanimous] == ["two-same", "one-same", "with-unsure"]
    assert found["all-same"].labels == {"ann": "same", "bob": "same", "cy": "same"}


def test_huang_2021_with_other_than_three_annotators_still_needs_two_same_votes(tmp_path):
    text = "item_id,annotator,label\ntwo-same,ann,same\ntwo-same,bob,same\none-same,ann,same\n"
    found = decisions(tmp_path, "huang-2021", text=text)
    assert found["two-same"].kept == "1"  # both of two
    assert found["one-same"].kept is None  # one annotator can never keep a rewrite
    labels = {decision.item_id: decision.labels for decision in found.values()}
    assert irregular_items(labels, "huang-2021") == {"two-same": 2, "one-same": 1}
    assert irregular_items(labels, "majority") == {}
    assert rule_keeps("huang-2021", 2, 5) and not rule_keeps("majority", 2, 5)


def test_best_of_k_keeps_the_candidate_most_chose_when_the_rule_passes(tmp_path):
    item = ValidationItem(
        "k", "what rivers are in texas",
        (Candidate("1", "what rivers are there in texas", ()), Candidate("2", "rivers texas", ()), Candidate("3", "which rivers are in texas", ())),
    )  # fmt: skip
    def chosen(lines):
        text = "item_id,annotator,label\n" + "".join(f"k,{name},{label}\n" for name, label in zip("abc", lines))
        return decisions(tmp_path, "huang-2021", text=text, items=[item], task="best-of-k")["k"].kept

    assert chosen(["3", "3", "1"]) == "3"
    assert chosen(["1", "2", "3"]) is None  # no candidate has two votes
    assert chosen(["none", "none", "2"]) is None
    assert chosen(["1", "none", "1"]) == "1"


def test_judgments_of_another_export_are_refused_naming_the_line(tmp_path):
    with pytest.raises(DatasetError, match=r"1 judgment\(s\) name items this export does not have \(first: .*judgments.csv:3"):
        decisions(tmp_path, "huang-2021", text="item_id,annotator,label\ntwo-same,ann,same\nnot-an-item,ann,same\n")


def test_unknown_labels_and_conflicting_repeats_are_refused(tmp_path):
    with pytest.raises(DatasetError, match=r"judgments.csv:2: label 'maybe' is none of same, different, unsure"):
        decisions(tmp_path, "huang-2021", text="item_id,annotator,label\ntwo-same,ann,maybe\n")
    with pytest.raises(DatasetError, match="labelled item 'two-same' twice, differently"):
        decisions(tmp_path, "huang-2021", text="item_id,annotator,label\ntwo-same,ann,same\ntwo-same,ann,different\n")
    same_twice = decisions(tmp_path, "huang-2021", text="item_id,annotator,label\ntwo-same,ann,same\ntwo-same,ann,same\n")
    assert same_twice["two-same"].labels == {"ann": "same"}  # a repeated file counts once


def test_unknown_rule_names_the_rules():
    with pytest.raises(ConfigurationError, match=r"--rule must be one of huang-2021, unanimous, majority, got 'huang'\. Did you mean 'huang-2021'\?"):
        check_rule("huang")
