"""RobuT's question perturbations as registered (Zhao et al. 2023): word level BERT-Attack-style
(``robut-word``, a masked LM) or offline (``robut-word-wordnet``), sentence level by a paraphrase
or translation model (``robut-sentence``, ``robut-sentence-backtranslation``), on Table QA inputs:
the question changes, the table never. Tiny random models built in the tests stand in for the
named ones, which are not available offline."""

from __future__ import annotations

from collections.abc import Callable

from textattack.constraints.pre_transformation import RepeatModification
from textattack.shared import AttackedText

from textattack_semparse.registry import get_registry
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import QUESTION_COLUMN, TABLE_COLUMN, freeze_table_column, table_input

TABLE = Table(["State", "Capital", "Population"], [["texas", "austin", "25,145,561"], ["alaska", "juneau", "710,231"]])
QUESTION = "what is the capital of texas"


def _outputs(name: str, question: str = QUESTION, **options: object) -> tuple[AttackedText, list[AttackedText]]:
    text = AttackedText(table_input(question, TABLE))
    perturbation = get_registry().get("perturbation", name).create(**options)
    return text, perturbation(text, pre_transformation_constraints=[RepeatModification(), freeze_table_column()])


def test_robut_word_defaults_to_bert_attacks_model_and_candidate_count() -> None:
    made = get_registry().get("perturbation", "robut-word").create()
    # BERT-Attack (Li et al. 2020): BERT's masked LM proposes K = 48 words per position.
    assert made.model_name_or_path == "bert-base-uncased" and made.top_k == 48
    assert made.masked_lm._model is None  # loaded on first use only


def test_robut_word_replaces_one_question_word_with_a_masked_lm_word(tiny_masked_lm: Callable[[str], str]) -> None:
    question = "what is the main city of texas"
    text, outputs = _outputs("robut-word", question, model_name_or_path=tiny_masked_lm("bert"), top_k=3, device="cpu")
    assert outputs
    original = question.split()
    for output in outputs:
        assert output._text_input[TABLE_COLUMN] == text._text_input[TABLE_COLUMN]
        words = output._text_input[QUESTION_COLUMN].split()
        assert len(words) == len(original) and sum(a != b for a, b in zip(words, original)) == 1
        assert words[-1] == "texas"  # a cell of the table: the question's link to it stays


def test_word_level_perturbations_keep_the_words_of_the_tables_header_and_cells(tiny_masked_lm: Callable[[str], str]) -> None:
    """"capital" names the column *Capital* and "texas" a cell: replacing either would ask about
    another column or row, so neither is offered (the other content words are)."""
    question = "what is the capital of texas"
    for name, options in (
        ("robut-word", {"model_name_or_path": tiny_masked_lm("bert"), "top_k": 3, "device": "cpu"}),
        ("robut-word-wordnet", {}),
    ):
        _, outputs = _outputs(name, question, **options)
        assert outputs == [], name


def test_robut_word_wordnet_rewrites_offline() -> None:
    question = "how many passengers flew from the airport in texas"
    text, outputs = _outputs("robut-word-wordnet", question)
    assert outputs  # "airport" has WordNet synonyms of its first sense ("airdrome")
    for output in outputs:
        assert output._text_input[TABLE_COLUMN] == text._text_input[TABLE_COLUMN]
        words, original = output._text_input[QUESTION_COLUMN].split(), question.split()
        assert sum(a != b for a, b in zip(words, original)) == 1


def test_robut_sentence_rewrites_with_the_paraphrase_model_it_is_given(tiny_marian: Callable[[int], str]) -> None:
    made = get_registry().get("perturbation", "robut-sentence").create()
    assert made.model_name_or_path == "tuner007/pegasus_paraphrase"
    text, outputs = _outputs("robut-sentence", model_name_or_path=tiny_marian(7), num_candidates=4, max_new_tokens=5)
    assert outputs
    for output in outputs:
        assert output._text_input[TABLE_COLUMN] == text._text_input[TABLE_COLUMN]
        assert output._text_input[QUESTION_COLUMN].lower() != QUESTION


def test_robut_sentence_backtranslation_round_trips_through_the_bridges_it_is_given(
    tiny_marian: Callable[[int], str],
) -> None:
    bridges = [(tiny_marian(1), tiny_marian(2))]
    text, outputs = _outputs("robut-sentence-backtranslation", bridges=bridges, max_new_tokens=6, device="cpu")
    for output in outputs:
        assert output._text_input[TABLE_COLUMN] == text._text_input[TABLE_COLUMN]
        assert output._text_input[QUESTION_COLUMN].lower() != QUESTION
