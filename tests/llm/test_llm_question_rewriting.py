"""LLMQuestionRewriting (RobuT's word- and sentence-level question perturbations written by an LLM,
Zhao et al. 2023): the prompt with per-level demonstrations and reasoning first, the completion
parser and, on the packaged local LLM (SmolLM2-135M-Instruct), the rewrites."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textattack.shared import AttackedText
from textattack.shared.utils import words_from_text

from tests.helpers import SMOLLM2_MISSING, smollm2_gguf
from textattack_semparse.cache import CACHE_ENV
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.errors import ResourceError
from textattack_semparse.llm.llm_question_rewriting import (
    DEMONSTRATIONS,
    INSTRUCTIONS,
    MAX_LENGTH_RATIO,
    LLMQuestionRewriting,
)
from textattack_semparse.llm.perturbation_llm import LLM_ENVIRONMENT_VARIABLE
from textattack_semparse.registry import get_registry

GGUF = smollm2_gguf()
QUESTIONS = ("how many gold medals did japan win?", "which city hosted the games in 2004?")


@pytest.mark.parametrize("level", ["word", "sentence"])
def test_the_prompt_shows_the_levels_demonstrations_each_reasoning_before_its_rewrite(level: str) -> None:
    prompt = LLMQuestionRewriting(level=level, llm="unused:x").prompt("how many teams are there?")
    blocks = prompt.split("\n\n")
    assert blocks[0] == INSTRUCTIONS[level] and len(blocks) == 1 + len(DEMONSTRATIONS[level]) + 1
    for block, (question, reasoning, rewrite) in zip(blocks[1:], DEMONSTRATIONS[level]):
        assert block == f"Question: {question}\nReasoning: {reasoning}\nRewrite: {rewrite}"
    assert blocks[-1] == "Question: how many teams are there?\nReasoning:"
    assert len(LLMQuestionRewriting(level=level, llm="unused:x", num_demonstrations=2).prompt("q").split("\n\n")) == 4


def test_parse_reads_the_rewrite_line_after_the_reasoning() -> None:
    parse = LLMQuestionRewriting.parse
    question = "how many gold medals did japan win?"
    assert parse(" 'win' can be 'earn'.\nRewrite: how many gold medals did japan earn?\n\nQuestion: x", question) == [
        "how many gold medals did japan earn?"
    ]
    assert parse("Rewrite: \"what is japan's gold medal count?\"", question) == ["what is japan's gold medal count?"]
    # No rewrite line before the model starts a question of its own, an empty or runaway rewrite: nothing.
    assert parse(" reasoning only\nQuestion: y\nRewrite: z", question) == []
    assert parse(" r\nRewrite:   ", question) == []
    assert parse("Rewrite: " + "x" * (MAX_LENGTH_RATIO * len(question) + 1), question) == []


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(max_size=300), st.sampled_from(QUESTIONS))
def test_parse_never_fails_and_gives_at_most_one_bounded_line(completion: str, question: str) -> None:
    rewrites = LLMQuestionRewriting.parse(completion, question)
    assert len(rewrites) <= 1
    assert all(r and "\n" not in r and len(r) <= MAX_LENGTH_RATIO * len(question) for r in rewrites)


def test_without_an_llm_the_error_names_both_ways_to_give_one(monkeypatch) -> None:
    monkeypatch.delenv(LLM_ENVIRONMENT_VARIABLE, raising=False)
    with pytest.raises(ResourceError, match=f"robut-sentence-llm needs an LLM.*{LLM_ENVIRONMENT_VARIABLE}"):
        LLMQuestionRewriting()(AttackedText(QUESTIONS[0]))


def test_arguments_are_checked_and_the_llm_is_not_pickled() -> None:
    with pytest.raises(ValueError, match="level must be one of word, sentence"):
        LLMQuestionRewriting(level="header")
    with pytest.raises(ValueError, match="num_demonstrations must be at most 5"):
        LLMQuestionRewriting(num_demonstrations=6)
    rewriting = LLMQuestionRewriting(level="word", llm="hf-causal:/m.gguf")
    assert "completer" not in pickle.loads(pickle.dumps(rewriting)).__dict__
    assert rewriting.deterministic and "level" in repr(rewriting)


def test_both_levels_are_registered_and_take_the_llm() -> None:
    registry = get_registry()
    for level in ("word", "sentence"):
        made = registry.get("perturbation", f"robut-{level}-llm").create(llm="hf-causal:/m.gguf")
        assert isinstance(made, LLMQuestionRewriting) and made.level == level and made.llm_name == "hf-causal:/m.gguf"


@pytest.fixture(scope="module")
def response_cache(tmp_path_factory):
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("cache")))
        yield


@pytest.mark.skipif(GGUF is None, reason=SMOLLM2_MISSING)
def test_on_a_real_llm_each_rewrite_is_what_the_llm_wrote_after_reasoning(response_cache, smollm2) -> None:
    # Two demonstrations and 40 new tokens keep one generation within a minute on 2 busy cores.
    rewriting = LLMQuestionRewriting(level="sentence", llm=f"hf-causal:{GGUF}?max_new_tokens=40", num_demonstrations=2)
    rewriting.completer.reuse_loaded_model(smollm2)  # the run's loaded copy
    questions = QUESTIONS[1:]
    outputs = [rewriting(AttackedText(question)) for question in questions]
    completer = rewriting.completer
    misses = completer.cache_counts().misses
    completions = completer.complete([rewriting.prompt(question) for question in questions])
    assert completer.cache_counts().misses == misses == len(questions)  # read back from the cache
    for question, output, completion in zip(questions, outputs, completions):
        # The rewrite the LLM wrote, unless it only repeats the question.
        expected = [w for w in rewriting.parse(completion, question) if _words(w) != _words(question)]
        assert [o.text for o in output] == expected
    # A protected literal must survive the rewrite.
    protected = rewriting(AttackedText(QUESTIONS[1]), pre_transformation_constraints=[PreserveLiterals(literals=("2004",))])
    assert all("2004" in output.text for output in protected)


def _words(text: str) -> list[str]:
    return [word.lower() for word in words_from_text(text)]
