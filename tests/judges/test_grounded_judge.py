"""The default judge: the vetoes, then the packaged reader; each verdict names its layer, the tally
counts the layers, and the judge's identity names the reader's files by digest."""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

import pytest

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges.grounded_judge import GroundedJudge, cross_encoder_judge
from textattack_semparse.judges.judgement import JudgeTally, RewritePair, Verdict
from textattack_semparse.judges.meaning_judge import judge_from_name
from textattack_semparse.judges.reader import PairReader, packaged_reader

SINGERS = "SELECT count(*) FROM singer"
SCHEMA = frozenset({"singer", "song", "name", "country", "age", "concert", "stadium"})


@pytest.fixture(scope="module")
def judge() -> GroundedJudge:
    return judge_from_name("default")


def test_the_layers_in_order(judge: GroundedJudge) -> None:
    pairs = [
        RewritePair("how many singers do we have", "How many singers do we have?", SINGERS, SCHEMA),
        RewritePair("how many singers do we have", "how many sngers do we have", SINGERS, SCHEMA),
        RewritePair("how many singers do we have", "how many singers do we have who is who what is what", SINGERS),
        RewritePair("how many singers do we have", "how many songs do we have", SINGERS, SCHEMA),
        RewritePair("how many singers do we have", "how many vocalists do we have", SINGERS, SCHEMA),
        RewritePair("how many singers do we have", "", SINGERS, SCHEMA),
    ]
    layers = [judgement.layer for judgement in judge.judge(pairs)]
    assert layers == ["words", "words", "words", "veto:predicate", "reader", "words"]


def test_the_reader_keeps_the_field_s_synonym_rewrites_the_vetoes_leave(judge: GroundedJudge) -> None:
    # Spider-Syn's own rewrite of Spider dev's first question, which the word rules rejected.
    synonym = judge("How many singers do we have?", "How many vocalists do we have?", SINGERS)
    assert synonym.verdict is Verdict.SAME and synonym.layer == "reader"
    paraphrase = judge("what is the capital of texas", "which city is the capital of texas")
    assert paraphrase.keeps_meaning, paraphrase
    other = judge("how many rivers are in texas", "how many lakes are in texas")  # no gold: the reader's to see
    assert not other.keeps_meaning and other.layer == "reader"


def test_a_reader_s_probability_does_not_depend_on_the_pairs_read_with_it() -> None:
    pairs = [("what is the capital of texas", "what's the capital of texas"),
             ("which rivers run through the states that border the state with the capital austin",
              "which rivers flow through the states bordering the state whose capital is austin")]  # fmt: skip
    alone = [PairReader(persistent=False).probabilities([pair])[0] for pair in pairs]
    together = PairReader(persistent=False).probabilities(pairs)
    assert alone == together  # to the last bit: no pair is padded to another's length


def test_the_identity_names_the_reader_s_files_by_digest(judge: GroundedJudge) -> None:
    folder = packaged_reader()
    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        digest.update(str(path.relative_to(folder)).encode())
        digest.update(path.read_bytes())
    assert f"reader packaged sha256:{digest.hexdigest()}" in judge.identity
    assert f"threshold {judge.reader.threshold}" in judge.identity
    assert judge_from_name("vetoes").identity.startswith("vetoes: vetoes [value,number,negation")


def test_cross_encoder_names_take_a_reader_folder_and_a_threshold(tmp_path: Path) -> None:
    strict = cross_encoder_judge(f"{packaged_reader()}?threshold=0.99")
    assert strict.reader.threshold == 0.99
    assert judge_from_name(f"cross-encoder:{packaged_reader()}").reader.threshold == PairReader().threshold
    for bad, message in (("", "needs a model"), ("x?threshold=high", "must be a number"), ("x?batch=3", "only threshold")):
        with pytest.raises(ConfigurationError, match=message):
            cross_encoder_judge(bad)
    with pytest.raises(ConfigurationError, match="probability"):
        PairReader(threshold=1.5)


def test_the_tally_counts_each_layer_with_examples(judge: GroundedJudge) -> None:
    tally = JudgeTally()
    pairs = [
        RewritePair("how many singers do we have", "how many songs do we have", SINGERS, SCHEMA),
        RewritePair("how many singers do we have", "how many vocalists do we have", SINGERS, SCHEMA),
        RewritePair("how many singers do we have", "how many singers do we have", SINGERS, SCHEMA),
    ]
    for pair, judgement in zip(pairs, judge.judge(pairs), strict=True):
        tally.add(pair, judgement)
    assert tally.layers == {"reader": {"same": 1}, "veto:predicate": {"different": 1}, "words": {"same": 1}}
    again = JudgeTally.from_json(tally.to_json(), "test")
    assert again.layers == tally.layers and again.layer_examples == tally.layer_examples


def test_a_judge_pickles_without_its_model(judge: GroundedJudge) -> None:
    judge("how many singers do we have", "how many vocalists do we have", SINGERS)
    revived = pickle.loads(pickle.dumps(judge))
    assert "encoder" not in revived.reader.__dict__
    assert revived("how many singers do we have", "how many vocalists do we have", SINGERS).keeps_meaning


def test_composed_judges_name_the_judge_and_layer_that_rejected(judge: GroundedJudge) -> None:
    from textattack_semparse.judges.meaning_judge import judges_from_names

    both = judges_from_names(["vetoes", "default"])
    assert both.name == "vetoes+default"
    pairs = [
        RewritePair("how many singers do we have", "how many songs do we have", SINGERS, SCHEMA),
        RewritePair("how many singers do we have", "how many vocalists do we have", SINGERS, SCHEMA),
        RewritePair("how many singers do we have", "", SINGERS, SCHEMA),
    ]
    songs, vocalists, empty = both.judge(pairs)
    assert (songs.verdict, songs.layer) == (Verdict.DIFFERENT, "vetoes:veto:predicate")
    assert songs.reason.startswith("vetoes: replaced 'singers'")
    assert (vocalists.verdict, vocalists.reason, vocalists.layer) == (Verdict.SAME, "every judge: same", "")
    assert (empty.verdict, empty.layer) == (Verdict.DIFFERENT, "vetoes:words")


def test_ablate_leaves_each_veto_out_and_counts_what_it_fired_on(tmp_path: Path) -> None:
    import json

    from textattack_semparse.experiments.validate import AblateConfig, ablate

    labelled = [
        # (original, rewrite, people's label): two the superlative veto rejects, one the number veto, one kept.
        ("which state has the largest area", "which state has the smallest area", "different"),
        ("which city is the largest", "which city is the smallest", "same"),  # a label the veto disagrees with
        ("name 3 rivers in texas", "name 4 rivers in texas", "different"),
        ("what is the capital of texas", "what's the capital of texas", "same"),
    ]
    path = tmp_path / "labelled.jsonl"
    path.write_text("".join(json.dumps({"original": o, "rewrite": r, "label": label}) + "\n" for o, r, label in labelled))
    result = ablate(AblateConfig(path, output_json=tmp_path / "ablate.json"))
    rows = {row.group: row for row in result.rows}
    assert rows["vetoes + reader"].accuracy == 75.0  # all but the pair people kept against the superlative veto
    # Without the superlative veto, the reader decides the two pairs it had rejected.
    from textattack_semparse.judges.vetoes import VETOES

    pairs = [RewritePair(original, rewrite) for original, rewrite, _ in labelled]
    without = GroundedJudge(vetoes=[veto for veto in VETOES if veto.name != "superlative"]).judge(pairs)
    agree = sum(judgement.keeps_meaning == (label == "same") for judgement, (_, _, label) in zip(without, labelled))
    assert rows["without the superlative veto"].accuracy == 100 * agree / 4
    assert [judgement.layer for judgement in without[:2]] == ["reader", "reader"]
    fired = {firing.veto: (firing.fired, firing.people_kept) for firing in result.vetoes}
    assert fired["superlative"] == (2, 1) and fired["number"] == (1, 0) and fired["negation"] == (0, 0)
    written = json.loads((tmp_path / "ablate.json").read_text())
    assert [row["group"] for row in written["variants"]][-2:] == ["vetoes alone", "reader alone"]
    assert written["variants"][0] == rows["vetoes + reader"].to_json()
