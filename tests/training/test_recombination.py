"""Whole-phrase recombination of anonymised logical-form pairs (Jia & Liang 2016): a phrase that
denotes one thing of a type takes the place of a placeholder of that type, in the question and in
the logical form."""

from __future__ import annotations

import re

import pytest

from textattack_semparse.datasets.logical_form import canonical_logical_form, read_s_expression
from textattack_semparse.datasets.logical_form_types import value_type
from textattack_semparse.training.recombination import recombined_pairs

LARGEST_STATE = (
    "what is the largest state",
    "(argmax:<<e,t>,<<e,i>,e>> (lambda $0:e (state:<s,t> $0)) (lambda $0:e (size:<lo,i> $0)))",
)
CAPITAL_OF = ("what is the capital of s0", "(capital:<s,c> s0)")
RIVERS_THROUGH = ("which rivers run through s0", "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 s0)))")
POPULATION_OF = ("how many people live in c0", "(population:<lo,i> c0)")


def test_a_phrase_takes_the_place_of_a_placeholder_of_its_type_in_question_and_logical_form():
    made = dict(recombined_pairs([LARGEST_STATE, CAPITAL_OF], 10, seed=0))
    assert made == {
        "what is the capital of the largest state": "(capital:<s,c> (argmax:<<e,t>,<<e,i>,e>> (lambda $0:e "
        "(state:<s,t> $0)) (lambda $0:e (size:<lo,i> $0))))"
    }


def test_the_phrases_variables_are_renamed_past_the_binders_around_the_slot():
    ((question, logical_form),) = recombined_pairs([LARGEST_STATE, RIVERS_THROUGH], 10, seed=0)
    assert question == "which rivers run through the largest state"
    # Under one lambda, the phrase's own lambdas bind $1, as the training logical forms nest them.
    assert "(lambda $1:e (state:<s,t> $1)) (lambda $1:e (size:<lo,i> $1))" in logical_form
    assert logical_form.count("$0") == 3


def test_types_are_read_from_the_annotations_and_must_match():
    # "the capital of s0" denotes a city (capital:<s,c>); a city goes where c0 stands, never s0.
    made = dict(recombined_pairs([CAPITAL_OF, POPULATION_OF, RIVERS_THROUGH], 10, seed=0))
    assert made == {"how many people live in the capital of s0": "(population:<lo,i> (capital:<s,c> s0))"}
    # A number or a set is no phrase of a type.
    sizes = ("what is the size of s0", "(size:<lo,i> s0)")
    rivers = ("what is the river in s0", "(lambda $0:e (river:<r,t> $0))")
    assert recombined_pairs([sizes, rivers, CAPITAL_OF], 10, seed=0) == []


@pytest.mark.parametrize(
    ("recipient", "expected"),
    [
        # "the" of the recipient and of the phrase is written once.
        (("how big is the s0", "(size:<lo,i> s0)"), "how big is the largest state"),
        # A verb after the placeholder: a slot.
        (("what states does s0 border", "(lambda $0:e (next_to:<lo,<lo,t>> s0 $0))"), "what states does the largest state border"),
        (("s0 borders which states", "(lambda $0:e (next_to:<lo,<lo,t>> s0 $0))"), "the largest state borders which states"),
        # A noun after it belongs to the entity's name: no slot.
        (("what is the population of the s0 state", "(population:<lo,i> s0)"), None),
    ],
)
def test_slots_are_placeholders_at_the_end_or_before_a_verb(recipient, expected):
    made = [question for question, _ in recombined_pairs([LARGEST_STATE, recipient], 10, seed=0)]
    assert made == ([] if expected is None else [expected])


def test_placeholders_stay_numbered_per_type_in_question_order():
    bordering = ("what is the largest state bordering s0", LARGEST_STATE[1].replace("(state:<s,t> $0)", "(and:<t*,t> (state:<s,t> $0) (next_to:<lo,<lo,t>> $0 s0))"))
    two_states = ("is s0 bigger than s1", "(>:<i,<i,t>> (size:<lo,i> s0) (size:<lo,i> s1))")
    questions = [question for question, _ in recombined_pairs([bordering, two_states, RIVERS_THROUGH], 10, seed=0)]
    # "the largest state bordering s0" into s1 of "is s0 bigger than s1" would write s0 twice; into s0,
    # s0 would follow s1. The rivers question takes it, and so does its own question's s0.
    assert sorted(questions) == [
        "what is the largest state bordering the largest state bordering s0",
        "which rivers run through the largest state bordering s0",
    ]


def test_draws_are_seeded_capped_new_and_well_formed():
    pairs = [
        LARGEST_STATE,
        CAPITAL_OF,
        RIVERS_THROUGH,
        POPULATION_OF,
        ("what is the smallest city in s0", "(argmin:<<e,t>,<<e,i>,e>> (lambda $0:e (and:<t*,t> (city:<c,t> $0) "
         "(loc:<lo,<lo,t>> $0 s0))) (lambda $0:e (size:<lo,i> $0)))"),
        ("where is c0", "(lambda $0:e (loc:<lo,<lo,t>> c0 $0))"),
    ]
    every = recombined_pairs(pairs, 1000, seed=0)
    assert recombined_pairs(pairs, 1000, seed=0) == every and len(every) >= 5
    assert sorted(recombined_pairs(pairs, 1000, seed=1)) == sorted(every)  # the seed orders, the set stays
    assert recombined_pairs(pairs, 2, seed=0) == every[:2] and recombined_pairs(pairs, 0, seed=0) == []
    questions = [question for question, _ in every]
    assert len(set(questions)) == len(questions) and not set(questions) & {question for question, _ in pairs}
    for question, logical_form in every:
        assert read_s_expression(logical_form) is not None and canonical_logical_form(logical_form) is not None
        placeholders = {word for word in question.split() if re.fullmatch(r"[a-z]+\d", word)}
        assert placeholders == set(re.findall(r"(?<=[ (])([a-z]+\d)(?=[ )])", logical_form))


def test_a_phrase_has_the_type_the_output_grammar_reads_and_applies_a_function():
    """One reader of types (datasets/logical_form_types): a superlative is typed by its set when the
    set's one-place predicates say one type; a set they type twice ("the largest city state") and an
    atom alone ("the s1") are no phrases."""
    two_types = ("what is the largest city state", LARGEST_STATE[1].replace("(state:<s,t> $0)", "(and:<t*,t> (city:<c,t> $0) (state:<s,t> $0))"))
    atom = ("what is the s1", "s1")
    assert value_type(read_s_expression(LARGEST_STATE[1])) == "s" and value_type(read_s_expression(two_types[1])) is None
    assert recombined_pairs([two_types, atom, CAPITAL_OF, RIVERS_THROUGH, POPULATION_OF], 10, seed=0) == [
        ("how many people live in the capital of s0", "(population:<lo,i> (capital:<s,c> s0))")
    ]
    assert [q for q, _ in recombined_pairs([LARGEST_STATE, two_types, atom, CAPITAL_OF], 10, seed=0)] == [
        "what is the capital of the largest state"
    ]


def test_untyped_logical_forms_and_plain_questions_give_nothing():
    jobs = [("what jobs use language0", "( lambda $0 e ( and ( job $0 ) ( language $0 language0 ) ) )"),
            ("what is the job with the highest salary", "( argmax $0 ( job $0 ) ( salary $0 ) )")]
    assert recombined_pairs(jobs, 10, seed=0) == []
    plain = [("what is the largest state", LARGEST_STATE[1]), ("which rivers run through texas", RIVERS_THROUGH[1].replace("s0", "texas:s"))]
    assert recombined_pairs(plain, 10, seed=0) == []


def test_geo_lambda_trains_by_default_on_its_questions_and_600_recombined_pairs(real_data_dir):
    from textattack_semparse.training.parser_trainer import ParserTrainer

    trainer = ParserTrainer("geo-lambda", "unused", data_dir=real_data_dir, device="cpu")  # the defaults' 600
    assert "recombined_examples=600" in repr(trainer) and trainer.epochs == 50
    data = trainer._training_data()
    assert (len(data.train_examples), data.recombined_count, len(data.train_pairs)) == (600, 600, 1200)
    original = data.train_pairs[:600]
    assert original == [data.anonymizer.training_pair(example) for example in data.train_examples]
    for question, logical_form in data.train_pairs[600:]:
        assert canonical_logical_form(logical_form) is not None
        assert question not in {q for q, _ in original}
    # With 0 (every other row of the defaults), nothing is added and the setting stays out of the
    # settings, hence of the trained victims' cache keys.
    plain = ParserTrainer("geo-lambda", "unused", data_dir=real_data_dir, recombined_examples=0, device="cpu")
    assert "recombined" not in repr(plain) and plain._training_data().recombined_count == 0
    assert ParserTrainer("jobs-lambda", "unused", device="cpu").recombined_examples == 0
    with pytest.raises(ValueError, match="recombined_examples"):
        ParserTrainer("geo-lambda", "unused", recombined_examples=-1)


def test_train_refuses_a_negative_count_in_one_line_and_leaves_nothing(tmp_path, capsys, monkeypatch):
    from textattack_semparse.cli import main

    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    output_dir = tmp_path / "model"
    assert main(["train", "--benchmark", "geo-mini", "--output-dir", str(output_dir), "--recombined-examples", "-1"]) == 2
    error = capsys.readouterr().err.strip()
    assert error == "textattack-semparse train: error: recombined_examples must be an int >= 0, got -1."
    assert not output_dir.exists()
