"""Reranking a parser's beam with a reconstruction model (output -> question), after Yin & Neubig (2019)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import torch
import transformers

from tests.helpers import tiny_bart
from textattack_semparse.training.tokenizer import train_tokenizer
from textattack_semparse.victims.output_grammar import OutputGrammar
from textattack_semparse.victims.reconstruction_reranker import (
    RECONSTRUCTION_DIR,
    RECONSTRUCTION_WEIGHT,
    target_log_likelihoods,
)
from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser
from textattack_semparse.victims.well_formed_decoding import ALTERNATIVES, WellFormedDecoding

PAIRS = [
    ("how big is s0", "( size:<lo,i> s0 )"),
    ("what is the capital of s0", "( capital:<s,c> s0 )"),
    ("which rivers run through s0", "( lambda $0 e ( and ( river:<r,t> $0 ) ( loc:<lo,<lo,t>> $0 s0 ) ) )"),
    ("which states border s0", "( lambda $0 e ( and ( state:<s,t> $0 ) ( next_to:<lo,<lo,t>> $0 s0 ) ) )"),
]
QUESTIONS = [question for question, _ in PAIRS] + ["which rivers border s0", "how big is the capital of s0"]


@pytest.fixture(scope="module")
def reranked_parser(tmp_path_factory) -> Path:
    """A random tiny BART parser with a random tiny BART as its reconstruction model, no grammar."""
    directory = tmp_path_factory.mktemp("reranked-bart")
    tokenizer = train_tokenizer([text for pair in PAIRS for text in pair])
    for model, location in ((tiny_bart(tokenizer, seed=0, max_length=24), directory),
                            (tiny_bart(tokenizer, seed=1, max_length=24), directory / RECONSTRUCTION_DIR)):
        model.save_pretrained(location)
        tokenizer.save_pretrained(location)
    return directory


def _log_likelihood(model, tokenizer, source: str, target: str) -> float:
    """log p(target | source): each target token's log-probability after the tokens before it (the
    end-of-sequence token included), read one example at a time, without padding."""
    source_ids = tokenizer(source, return_tensors="pt")["input_ids"]
    target_ids = tokenizer(text_target=target)["input_ids"]
    decoder_ids = [model.config.decoder_start_token_id, *target_ids[:-1]]
    with torch.no_grad():
        logits = model(input_ids=source_ids, decoder_input_ids=torch.tensor([decoder_ids])).logits[0]
    log_probabilities = torch.log_softmax(logits.double(), dim=-1)
    return sum(float(log_probabilities[position, token]) for position, token in enumerate(target_ids))


def test_target_log_likelihoods_sum_each_targets_token_log_probabilities_whatever_the_padding(reranked_parser):
    tokenizer = transformers.AutoTokenizer.from_pretrained(reranked_parser)
    model = transformers.AutoModelForSeq2SeqLM.from_pretrained(reranked_parser).eval()
    sources, targets = [question for question, _ in PAIRS], [output for _, output in PAIRS]
    batched = target_log_likelihoods(model, tokenizer, sources, targets, max_length=64)
    for (total, count), source, target in zip(batched, sources, targets):
        assert total == pytest.approx(_log_likelihood(model, tokenizer, source, target), abs=1e-4)
        assert count == len(tokenizer(text_target=target)["input_ids"])


def test_the_parser_keeps_the_beam_output_with_the_best_parse_and_reconstruction_score(reranked_parser):
    """Yin & Neubig (2019) rerank an n-best list with a reconstruction model's likelihood of the
    utterance given each meaning representation; here each question's output is the distinct output
    of a beam of ALTERNATIVES that maximises log p(output | question) + RECONSTRUCTION_WEIGHT x
    log p(question | output), computed below token by token from the two models."""
    tokenizer = transformers.AutoTokenizer.from_pretrained(reranked_parser)
    parser_model = transformers.AutoModelForSeq2SeqLM.from_pretrained(reranked_parser).eval()
    reconstruction = transformers.AutoModelForSeq2SeqLM.from_pretrained(reranked_parser / RECONSTRUCTION_DIR).eval()
    expected, greedy = [], []
    for question in QUESTIONS:
        encoding = tokenizer(question, return_tensors="pt")
        beam = parser_model.generate(**encoding, num_beams=ALTERNATIVES, num_return_sequences=ALTERNATIVES,
                                     do_sample=False)  # fmt: skip
        candidates = list(dict.fromkeys(text.strip() for text in tokenizer.batch_decode(beam, skip_special_tokens=True)))
        scores = [
            _log_likelihood(parser_model, tokenizer, question, candidate)
            + RECONSTRUCTION_WEIGHT * _log_likelihood(reconstruction, tokenizer, candidate, question)
            for candidate in candidates
        ]
        expected.append(candidates[scores.index(max(scores))])
        greedy_ids = parser_model.generate(**encoding, num_beams=1, do_sample=False)
        greedy.append(tokenizer.batch_decode(greedy_ids, skip_special_tokens=True)[0].strip())
    assert RECONSTRUCTION_WEIGHT == 0.5
    assert Seq2SeqParser(reranked_parser, device="cpu", batch_size=4)(QUESTIONS) == expected
    assert Seq2SeqParser(reranked_parser, device="cpu", rerank=False)(QUESTIONS) == greedy
    assert expected != greedy  # the reconstruction model changes some choice


def test_a_parser_without_a_reconstruction_model_decodes_as_before(reranked_parser, tmp_path):
    plain = tmp_path / "plain"
    model = transformers.AutoModelForSeq2SeqLM.from_pretrained(reranked_parser)
    model.save_pretrained(plain)
    transformers.AutoTokenizer.from_pretrained(reranked_parser).save_pretrained(plain)
    assert Seq2SeqParser(plain, device="cpu")(QUESTIONS) == Seq2SeqParser(reranked_parser, device="cpu", rerank=False)(QUESTIONS)


def test_rerank_must_be_a_bool():
    with pytest.raises(TypeError, match="rerank must be a bool"):
        Seq2SeqParser("some/model", rerank="yes")


def test_the_grammar_admits_the_distinct_finished_candidates_it_does_not_find_wanting():
    outputs = [output for _, output in PAIRS]
    grammar = OutputGrammar.fit(outputs * 5, [question for question, _ in PAIRS] * 5)
    assert grammar is not None and "rivers" in grammar.implied
    decoding = WellFormedDecoding(grammar, train_tokenizer([text for pair in PAIRS for text in pair]))
    river, state = outputs[2], outputs[3]
    repeated = river.replace("( river:<r,t> $0 )", "( river:<r,t> $0 ) ( river:<r,t> $0 )")
    assert decoding.finish(repeated) == river
    # The state output lacks the atoms "rivers" implies; the repeated conjunct finishes as the river output.
    assert decoding.admitted("which rivers run through s0", [state, repeated, river]) == [river]
    assert decoding.admitted("which rivers run through s0", [state]) == [state]  # none admitted: all kept


def test_a_victim_name_turns_the_reranking_off(reranked_parser):
    from textattack_semparse.victims.seq2seq_victim_name import parse_seq2seq_victim_name

    plain = parse_seq2seq_victim_name(f"seq2seq:{reranked_parser}?rerank=0").create(benchmark=None)
    assert plain.rerank is False
    assert plain(QUESTIONS) == Seq2SeqParser(reranked_parser, device="cpu", rerank=False)(QUESTIONS)
    assert parse_seq2seq_victim_name(f"seq2seq:{reranked_parser}").create(benchmark=None).rerank is True


def test_a_broken_reconstruction_model_is_named_in_one_line(reranked_parser, tmp_path):
    from textattack_semparse.errors import VictimError

    broken = tmp_path / "broken"
    shutil.copytree(reranked_parser, broken)
    (broken / RECONSTRUCTION_DIR / "config.json").write_text("{", encoding="utf-8")
    with pytest.raises(VictimError, match=r"reranker could not load .*reconstruction.*Pass a local directory"):
        Seq2SeqParser(broken, device="cpu")(QUESTIONS[:1])
    assert len(Seq2SeqParser(broken, device="cpu", rerank=False)(QUESTIONS[:1])) == 1  # rerank=False still parses
