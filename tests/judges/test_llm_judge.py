"""The ``llm:`` judge on real LLMs, offline: the packaged SmolLM2-135M-Instruct in-process
(``llm:hf-causal:PATH``) and behind llama.cpp's OpenAI-compatible server on loopback
(``llm:openai:MODEL@URL``). A 135M model's answers are not accurate, so what is asserted is the
plumbing: one judgement per pair, read from the model's own completion of a prompt that holds both
questions, greedy decoding, and a second judging answered from the response cache. How completions
are read is tested on handwritten completions."""

from __future__ import annotations

import json

import pytest

from tests.helpers import SMOLLM2_MISSING, llama_server_missing, smollm2_gguf
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges.judgement import RewritePair, Verdict
from textattack_semparse.judges.llm_judge import LLMJudge, parse_answer
from textattack_semparse.judges.meaning_judge import judge_from_name
from textattack_semparse.victims.llm.completer import _shared_completer

GGUF = smollm2_gguf()
SERVER_MISSING = llama_server_missing()
ANSWER_TOKENS = 4  # the judge reads the first word only
PAIRS = [
    RewritePair("what is the capital of texas", "what is capital of texas"),
    RewritePair("how many rivers are in texas", "which rivers are in texas"),
    RewritePair("which states border ohio", "which states do not border ohio"),
]


@pytest.mark.parametrize(
    ("completion", "verdict"),
    [
        (" Yes", Verdict.SAME),
        ("yes.\n\nQuestion 1: what is the capital of ohio", Verdict.SAME),
        ("**Yes**, both ask for the capital.", Verdict.SAME),
        ("Same", Verdict.SAME),
        (" no", Verdict.DIFFERENT),
        ("No - the second asks for a count.", Verdict.DIFFERENT),
        ("DIFFERENT", Verdict.DIFFERENT),
        ("", Verdict.UNSURE),
        ("  \n ", Verdict.UNSURE),
        ("Question 3: what is the capital of utah", Verdict.UNSURE),
        ("yesterday", Verdict.UNSURE),  # a word, not the answer yes
        ("Maybe", Verdict.UNSURE),
    ],
)
def test_a_completion_is_read_by_its_first_word(completion: str, verdict: Verdict) -> None:
    assert parse_answer(completion).verdict is verdict


def test_the_reason_quotes_the_completion_on_one_line_and_short() -> None:
    assert (
        parse_answer("No,\n  the second\tasks for a count").reason
        == "the LLM answered 'No, the second asks for a count'"
    )
    assert len(parse_answer("yes " * 100).reason) < 110
    assert parse_answer(" \n").reason == "the LLM answered nothing"


def test_the_prompt_ends_with_both_questions_where_the_answer_goes() -> None:
    prompt = LLMJudge("hf-causal:/models/x.gguf").prompt(PAIRS[1])
    assert prompt.endswith("Question 1: how many rivers are in texas\nQuestion 2: which rivers are in texas\nSame:")
    assert prompt.count("Same:") == 5  # four demonstrations, then the pair


def test_an_llm_judge_needs_an_llm_victim_name() -> None:
    with pytest.raises(ConfigurationError, match="llm:hf-causal:PATH"):
        judge_from_name("llm:")


def _cached_completions(judge: LLMJudge) -> list[str | None]:
    completer = judge.completer
    return [
        completer.response_cache.get(completer.model_id, judge.prompt(pair), completer.decoding_parameters)
        for pair in PAIRS
    ]


@pytest.mark.slow
@pytest.mark.skipif(GGUF is None, reason=SMOLLM2_MISSING)
def test_smollm2_in_process_judges_each_pair_greedily_and_then_from_the_cache(tmp_path, monkeypatch, smollm2) -> None:
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path))  # the response cache goes there
    judge = judge_from_name(f"llm:hf-causal:{GGUF}?max_new_tokens={ANSWER_TOKENS}")
    assert isinstance(judge, LLMJudge)
    judge.completer.reuse_loaded_model(smollm2)  # the run's loaded copy
    completer = judge.completer
    assert completer.shots == 0 and completer.decoding_parameters == {
        "do_sample": False,
        "max_new_tokens": ANSWER_TOKENS,
    }
    model = completer.model
    generate, calls = model.generate, []
    counting = lambda *args, **kwargs: calls.append(kwargs) or generate(*args, **kwargs)  # noqa: E731 - counts, then decodes
    monkeypatch.setattr(model, "generate", counting)  # the shared model gets its own back after the test
    sent: list[str] = []
    complete = completer._generate
    completer._generate = lambda prompts: sent.extend(prompts) or complete(prompts)

    first = judge.judge(PAIRS)

    assert len(first) == len(PAIRS) and len(calls) == 1 and calls[0]["do_sample"] is False
    assert sent == [judge.prompt(pair) for pair in PAIRS]
    for prompt, pair in zip(sent, PAIRS, strict=True):
        assert f"Question 1: {pair.original}\nQuestion 2: {pair.rewrite}\nSame:" in prompt
    completions = _cached_completions(judge)
    assert all(isinstance(completion, str) for completion in completions)
    assert first == [parse_answer(completion) for completion in completions]  # read from what the model wrote

    hits = completer.cache_counts().hits
    assert judge.judge(PAIRS) == first
    assert len(calls) == 1 and completer.cache_counts().hits == hits + len(PAIRS)
    _shared_completer.cache_clear()  # as in a new process: the judges that follow make their own completer
    again = judge_from_name(f"llm:hf-causal:{GGUF}?max_new_tokens={ANSWER_TOKENS}")
    assert again.completer is not completer
    assert again.judge(PAIRS) == first  # a new judge reads the persistent cache ...
    assert "_model" not in again.completer.__dict__  # ... and never loads the model
    assert len(completer.response_cache) == len(PAIRS)


@pytest.fixture(scope="module")
def server():
    from tests.victims.llm.fault_proxy import FaultProxy
    from tests.victims.llm.llama_server import llama_server

    with llama_server(GGUF, timeout_s=600.0) as base_url, FaultProxy(base_url.removesuffix("/v1")) as proxy:
        yield proxy  # every request passes through the proxy, which records it


@pytest.mark.slow
@pytest.mark.skipif(bool(SERVER_MISSING), reason="; ".join(SERVER_MISSING))
def test_smollm2_behind_an_openai_server_judges_each_pair_at_temperature_0_and_then_from_the_cache(
    server, tmp_path, monkeypatch
) -> None:
    from tests.victims.llm.llama_server import MODEL_ALIAS

    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path))
    name = f"llm:openai:{MODEL_ALIAS}@{server.url}/v1?max_tokens={ANSWER_TOKENS}&repeat_penalty=1.0"
    judge = judge_from_name(name)

    first = judge.judge(PAIRS)

    requests = [json.loads(handled.body) for handled in server.handled if handled.path.endswith("/completions")]
    assert len(first) == len(PAIRS) and len(requests) == len(PAIRS)
    assert {request["temperature"] for request in requests} == {0}
    assert {request["max_tokens"] for request in requests} == {ANSWER_TOKENS}
    prompts = {request["prompt"] for request in requests}
    assert prompts == {judge.prompt(pair) for pair in PAIRS}
    for pair in PAIRS:
        assert any(f"Question 1: {pair.original}\nQuestion 2: {pair.rewrite}\nSame:" in prompt for prompt in prompts)
    completions = _cached_completions(judge)
    assert first == [parse_answer(completion) for completion in completions]  # read from what the server sent

    assert judge.judge(PAIRS) == first
    assert judge_from_name(name).judge(PAIRS) == first
    assert len([handled for handled in server.handled if handled.path.endswith("/completions")]) == len(PAIRS)
    assert judge.completer.request_counts().requests == len(PAIRS)
