"""LLM victim names: ``hf-causal:PATH`` and ``openai:MODEL@URL`` with typed options."""

from __future__ import annotations

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.errors import VictimError
from textattack_semparse.victims.llm_victim_name import (
    LLMVictimName,
    is_llm_victim_name,
    llm_victim_name,
    parse_llm_victim_name,
    with_options,
)


def test_hf_causal_names_split_a_gguf_file_from_its_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path))
    geo = load_benchmark("geo-mini")
    name = parse_llm_victim_name("hf-causal:/m/x.gguf?shots=2&adversarial=typo")
    assert name == LLMVictimName("hf-causal", "/m/x.gguf", {"shots": 2, "adversarial": "typo"})
    victim = name.create(benchmark=geo)  # builds the victim; the model loads on first use only
    assert (victim.model_name_or_path, victim.gguf_file, victim.shots, victim.adversarial) == ("/m", "x.gguf", 2, "typo")
    assert parse_llm_victim_name("hf-causal:x.gguf").create(benchmark=geo).model_name_or_path == "."
    assert parse_llm_victim_name("hf-causal:/models/llm").create(benchmark=geo).gguf_file is None


def test_openai_names_give_model_and_base_url_and_typed_client_options(tmp_path, monkeypatch):
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path))
    name = parse_llm_victim_name("openai:smollm2@http://127.0.0.1:8080/v1?style=chat&timeout=2.5&concurrency=3")
    assert name.options == {"style": "chat", "timeout": 2.5, "concurrency": 3}
    assert str(name) == "openai:smollm2@http://127.0.0.1:8080/v1?style=chat&timeout=2.5&concurrency=3"
    victim = name.create(benchmark=load_benchmark("geo-mini"))  # no request is sent before a question
    assert (victim.model_name, victim.base_url, victim.style, victim.timeout) == (
        "smollm2", "http://127.0.0.1:8080/v1", "chat", 2.5
    )


@pytest.mark.parametrize(
    ("model", "message"),
    [
        ("hf-causal:/m/x.gguf?temperature=1", "bad option"),
        ("hf-causal:/m/x.gguf?shots=two", "must be an int"),
        ("hf-causal:?shots=2", "names no model"),
        ("vllm:m@http://h/v1", "not an LLM victim name; write SCHEME:TARGET"),
        ("hf-causal:/m/x.gguf?max_tokens=5", "bad option"),  # an openai option
        ("openai:smollm2", "MODEL@URL"),
        ("openai:@http://127.0.0.1:1/v1", "MODEL@URL"),
        ("openai:smollm2@127.0.0.1:1/v1", "MODEL@URL"),
        ("openai:m@http://h/v1?timeout=soon", "must be a number"),
        ("knn-geo", "not an LLM victim name"),
    ],
)
def test_malformed_names_fail_naming_the_fix(model, message):
    with pytest.raises(VictimError, match=message):
        parse_llm_victim_name(model)


def test_only_the_two_schemes_are_llm_victims():
    assert is_llm_victim_name("openai:m@http://h/v1") and is_llm_victim_name("hf-causal:/m")
    assert not any(map(is_llm_victim_name, ["knn-geo", "/models/bart", "hf-causal", None, "openai"]))


def test_options_are_set_or_replaced_and_unknown_ones_refused():
    assert with_options("openai:m@http://h/v1?shots=5", shots=0, seed=None) == "openai:m@http://h/v1?shots=0"
    with pytest.raises(ValueError, match="Unknown hf-causal option"):
        llm_victim_name("hf-causal", "/m", style="chat")


def test_repeat_penalty_is_a_number_option_of_openai_names_only():
    assert parse_llm_victim_name("openai:m@http://h/v1?repeat_penalty=1.0").options == {"repeat_penalty": 1.0}
    with pytest.raises(VictimError, match="bad option"):
        parse_llm_victim_name("hf-causal:/m/x.gguf?repeat_penalty=1.0")
