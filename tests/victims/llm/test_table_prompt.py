"""Few-shot Table QA prompting through the LLM victims, on real WTQ examples: the prompt shows each
demonstration's table, question and answer before the test table and question, and the
completion is read back as answer values in WTQ's targetValue format."""

from __future__ import annotations

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.tables.answers import parse_answer
from textattack_semparse.victims.llm.causal_lm_parser import CausalLMParser
from textattack_semparse.victims.llm.prompts import PromptTemplate
from textattack_semparse.victims.llm.table_prompt import TablePrompt
from textattack_semparse.victims.prediction import Prediction


@pytest.fixture(scope="module")
def wtq(real_data_dir):
    return load_benchmark("wtq", data_dir=real_data_dir)


@pytest.fixture(scope="module")
def dev_example(wtq):
    return wtq.split("question", "dev")[0]  # which team won previous to crettyard? -> Wolfe Tones


def test_the_prompt_shows_demonstrations_then_the_test_table_and_question(wtq, dev_example):
    demonstrations = wtq.split("question", "train")[:3]
    prompt = TablePrompt(demonstration_rows=5)
    text = prompt(dev_example.question, dev_example.table, demonstrations)
    positions = []
    for example in demonstrations:
        header = " | ".join(example.table.header)
        answer = " | ".join(parse_answer(example.gold))
        assert f"Question: {example.question}\nAnswer: {answer}" in text
        positions.append(text.index(header))
    assert positions == sorted(positions)  # in the order given
    test_block = text[text.rindex("\n\n") + 2 :]
    assert test_block.splitlines()[0] == " | ".join(dev_example.table.header)
    assert len(test_block.splitlines()) == 1 + dev_example.table.num_rows + 2  # header, rows, question, answer
    assert test_block.endswith(f"Question: {dev_example.question}\nAnswer:")


def test_demonstration_tables_are_cut_to_their_first_rows(wtq):
    example = next(e for e in wtq.split("question", "train") if e.table.num_rows > 5)
    text = TablePrompt(demonstration_rows=2)("q", example.table.with_rows([]), [example])
    shown = text.split("\n\n")[1].splitlines()
    assert len(shown) == 1 + 2 + 2  # header, two rows, "Question: ...", "Answer: ..."


def test_the_completion_first_line_is_the_answer():
    prompt = TablePrompt()
    assert prompt.answer(" Wolfe Tones\n\nTeam | County") == ["Wolfe Tones"]
    assert prompt.answer("\n 2004 | 2008 \n") == ["2004", "2008"]
    assert prompt.answer("") == []


def test_an_llm_victim_on_wtq_answers_from_the_completion_of_the_table_prompt(wtq, dev_example, tmp_path):
    victim = CausalLMParser("unused-model", benchmark=wtq, shots=2, cache_path=tmp_path / "r.sqlite")
    text = victim.prompt(dev_example.question, dev_example.table, victim.demonstrations)
    assert all(f"Question: {example.question}" in text for example in victim.demonstrations)
    # The completion arrives through the response cache, so no model is loaded (the LLM is the boundary).
    victim.response_cache.put(victim.model_id, text, victim.decoding_parameters, " Wolfe Tones | Meath\nQuestion:")
    assert victim([(dev_example.question, dev_example.table.to_json())]) == ["Wolfe Tones|Meath"]
    assert victim.cache_counts().hits == 1


def test_a_question_without_its_table_is_a_victim_error_naming_the_fix(wtq, tmp_path):
    victim = CausalLMParser("unused-model", benchmark=wtq, shots=0, cache_path=tmp_path / "r.sqlite")
    (output,) = victim(["which team won?"])
    assert isinstance(output, Prediction) and "(question, Table.to_json())" in output.error


def test_a_text_to_sql_template_is_refused_on_a_table_benchmark(wtq, tmp_path):
    with pytest.raises(ValueError, match="TablePrompt"):
        CausalLMParser("unused-model", benchmark=wtq, template=PromptTemplate(), cache_path=tmp_path / "r.sqlite")
