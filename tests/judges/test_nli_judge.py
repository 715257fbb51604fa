"""The ``nli:`` judge on tiny BERT NLI models built here, whose predictions are set by hand: one
always says entailment, one always contradiction, and one says entailment exactly when the
hypothesis is not shorter than the premise, so that the two directions of a pair disagree."""

from __future__ import annotations

from pathlib import Path

import pytest

from textattack_semparse.errors import ResourceError, VictimError
from textattack_semparse.judges.judgement import RewritePair, Verdict
from textattack_semparse.judges.meaning_judge import judge_from_name
from textattack_semparse.judges.nli_judge import NLIJudge

LABELS = {0: "contradiction", 1: "neutral", 2: "entailment"}
WORDS = "where is dallas austin located what the capital of texas".split()
HIDDEN = 4


def _save_tiny_bert(directory: Path, *, logits_bias: list[float], length_weight: float = 0.0,
                    labels: dict[int, str] = LABELS) -> str:  # fmt: skip
    """A one-layer BERT classifier with its tokenizer, saved to ``directory``.

    Every weight is zero but these: the hypothesis' token-type embedding, attention that averages
    over all tokens, and a classifier reading one pooled feature. That feature grows with the share
    of hypothesis tokens, so ``length_weight`` > 0 favours entailment for longer hypotheses;
    ``logits_bias`` is added to the (contradiction, neutral, entailment) logits.
    """
    import torch
    import transformers

    vocabulary = directory / "vocab.txt"
    directory.mkdir(parents=True)
    vocabulary.write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *WORDS]) + "\n", encoding="utf-8")
    tokenizer = transformers.BertTokenizerFast(vocab_file=str(vocabulary), do_lower_case=True, model_max_length=64)
    config = transformers.BertConfig(
        vocab_size=tokenizer.vocab_size, hidden_size=HIDDEN, num_hidden_layers=1, num_attention_heads=1,
        intermediate_size=HIDDEN, max_position_embeddings=64, type_vocab_size=2, num_labels=len(labels),
        id2label=labels, label2id={label: index for index, label in labels.items()},
        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0,
    )  # fmt: skip
    model = transformers.BertForSequenceClassification(config)
    with torch.no_grad():
        for parameter in model.parameters():
            parameter.zero_()
        for norm in (model.bert.embeddings.LayerNorm, *(layer.attention.output.LayerNorm for layer in model.bert.encoder.layer),
                     *(layer.output.LayerNorm for layer in model.bert.encoder.layer)):  # fmt: skip
            norm.weight.fill_(1.0)
        model.bert.embeddings.token_type_embeddings.weight[1] = torch.tensor([1.0, -1.0, 0.0, 0.0])
        layer = model.bert.encoder.layer[0]
        layer.attention.self.value.weight.copy_(torch.eye(HIDDEN))  # queries and keys 0: attend to all alike
        layer.attention.output.dense.weight.copy_(torch.eye(HIDDEN))
        layer.attention.output.dense.bias.copy_(torch.tensor([0.0, 0.0, 1.0, -1.0]))
        model.bert.pooler.dense.weight.copy_(torch.eye(HIDDEN))
        if length_weight:
            model.classifier.weight[0, 0], model.classifier.weight[2, 0] = -length_weight, length_weight
        model.classifier.bias.copy_(torch.tensor(logits_bias))
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return str(directory)


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("nli")
    return {
        "entails": _save_tiny_bert(root / "entails", logits_bias=[0.0, 0.0, 5.0]),
        "contradicts": _save_tiny_bert(root / "contradicts", logits_bias=[5.0, 0.0, 0.0]),
        # entailment logit 1000 * (tanh(feature) - 0.62): above 0 when the hypothesis is not shorter
        "longer": _save_tiny_bert(root / "longer", logits_bias=[620.0, 0.0, -620.0], length_weight=1000.0),
        "unlabelled": _save_tiny_bert(root / "unlabelled", logits_bias=[0.0, 0.0], labels={0: "LABEL_0", 1: "LABEL_1"}),
    }


PAIRS = [
    RewritePair("where is dallas", "where is austin"),  # as long
    RewritePair("where is dallas", "where is dallas located"),  # longer
    RewritePair("where is dallas located", "where is dallas"),  # shorter
]


def test_a_model_that_entails_both_ways_calls_every_pair_the_same(models) -> None:
    judge = judge_from_name(f"nli:{models['entails']}")
    assert isinstance(judge, NLIJudge) and judge.device == "cpu"
    assert [judgement.verdict for judgement in judge.judge(PAIRS)] == [Verdict.SAME] * len(PAIRS)
    assert judge.judge(PAIRS)[0].reason == "each question entails the other"


def test_a_model_that_contradicts_calls_every_pair_different(models) -> None:
    judgements = NLIJudge(models["contradicts"]).judge(PAIRS)
    assert [judgement.verdict for judgement in judgements] == [Verdict.DIFFERENT] * len(PAIRS)
    assert judgements[0].reason == "the original does not entail the rewrite"


def test_each_direction_must_entail_the_other(models) -> None:
    judge = NLIJudge(models["longer"], batch_size=2)  # the directions of a pair in different batches
    premises = [pair.original for pair in PAIRS]
    hypotheses = [pair.rewrite for pair in PAIRS]
    assert judge.entailments(premises, hypotheses) == [True, True, False]  # the model as built
    assert judge.entailments(hypotheses, premises) == [True, False, True]
    same, longer, shorter = judge.judge(PAIRS)
    assert same.verdict is Verdict.SAME
    assert (longer.verdict, longer.reason) == (Verdict.DIFFERENT, "the rewrite does not entail the original")
    assert (shorter.verdict, shorter.reason) == (Verdict.DIFFERENT, "the original does not entail the rewrite")


def test_no_pairs_load_no_model(tmp_path) -> None:
    judge = NLIJudge(str(tmp_path / "absent"))
    assert judge.judge([]) == []
    assert "_loaded" not in judge.__dict__


def test_a_model_without_an_entailment_label_is_refused(models) -> None:
    with pytest.raises(ResourceError, match="names no entailment label"):
        NLIJudge(models["unlabelled"]).judge(PAIRS[:1])


def test_a_pickled_judge_drops_its_model(models) -> None:
    import pickle

    judge = NLIJudge(models["entails"])
    first = judge.judge(PAIRS[:1])
    copy = pickle.loads(pickle.dumps(judge))
    assert "_loaded" not in copy.__dict__ and copy.judge(PAIRS[:1]) == first


def test_premises_and_hypotheses_come_one_of_each_per_input(models) -> None:
    with pytest.raises(ValueError, match="2 premises but 1 hypotheses"):
        NLIJudge(models["entails"]).entailments(["where is dallas", "where is austin"], ["where is dallas"])


def test_a_missing_model_directory_is_named(tmp_path) -> None:
    with pytest.raises(VictimError, match="no such local directory"):
        NLIJudge(str(tmp_path / "absent")).judge(PAIRS[:1])
