"""Well-formed decoding: the output grammar of the training logical forms, and generation kept to it."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
from pathlib import Path
from types import MappingProxyType

import pytest
import torch

from tests.helpers import tiny_bart
from textattack_semparse.datasets.logical_form import read_s_expression
from textattack_semparse.datasets.logical_form_types import argument_types
from textattack_semparse.training.parser_trainer import ParserTrainer
from textattack_semparse.training.tokenizer import train_tokenizer
from textattack_semparse.victims.output_grammar import (
    GRAMMAR_FILE,
    IMPLICATION_SUPPORT,
    OutputGrammar,
    _free_variables,
    _record,
    input_words,
)
from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser
from textattack_semparse.victims.well_formed_decoding import WellFormedDecoding

TRAIN = [
    ("how big is texas", "(size:<lo,i> texas:s)"),
    ("what is the capital of ohio", "(capital:<s,c> ohio:s)"),
    ("which rivers run through texas", "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 texas:s)))"),
    ("which states border ohio", "(lambda $0:e (and:<t*,t> (state:<s,t> $0) (next_to:<lo,<lo,t>> $0 ohio:s)))"),
    (
        "which major rivers run through ohio",
        "(lambda $0:e (and:<t*,t> (major:<lo,t> $0) (river:<r,t> $0) (loc:<lo,<lo,t>> $0 ohio:s)))",
    ),
    ("list flights to ci0", "ci0"),
]
OUTPUTS = [output for _, output in TRAIN]


def well_formed(text: str, grammar: OutputGrammar) -> bool:
    """Whether ``text`` is one atom of ``grammar.roots`` or one s-expression whose heads take an
    argument count within their training bounds, whose other atoms are training arguments and
    whose variables are bound by ``grammar.binders``."""
    expression = read_s_expression(text)
    if expression is None:
        return False
    if isinstance(expression, str):
        return expression in grammar.roots
    counts: dict[str, list[int]] = {}
    arguments: set[str] = set()
    if not _record(expression, counts, arguments) or not arguments <= grammar.arguments:
        return False
    if grammar.binders and _free_variables(expression):
        return False
    return all(
        head in grammar.arities and all(grammar.arities[head][0] <= n <= grammar.arities[head][1] for n in found)
        for head, found in counts.items()
    )


def test_grammar_records_each_heads_argument_counts_the_arguments_and_the_root_atoms():
    grammar = OutputGrammar.fit(OUTPUTS)
    assert grammar.arities["and:<t*,t>"] == (2, 3)  # two conjuncts in two outputs, three in one
    assert grammar.arities["lambda"] == (2, 2) and grammar.arities["loc:<lo,<lo,t>>"] == (2, 2)
    assert grammar.arguments == {"$0", "$0:e", "texas:s", "ohio:s"}
    assert grammar.roots == {"ci0"}


@pytest.mark.parametrize(
    "outputs",
    [
        ["SELECT city_name FROM city"],  # SQL is several atoms
        ["(size:<lo,i> texas:s"],  # unbalanced
        ["(size:<lo,i> texas:s))"],
        ["((size:<lo,i>) texas:s)"],  # a list as a head
        ["(a) (b)"],  # two expressions
        [],
    ],
)
def test_outputs_that_are_not_one_s_expression_have_no_grammar(outputs):
    assert OutputGrammar.fit([*OUTPUTS[:1], *outputs] if outputs else outputs) is None


def test_grammar_survives_save_and_load(tmp_path):
    grammar = OutputGrammar.fit(OUTPUTS * IMPLICATION_SUPPORT, [question for question, _ in TRAIN] * IMPLICATION_SUPPORT)
    assert grammar.implied and grammar.binders_used
    assert grammar.save(tmp_path).name == GRAMMAR_FILE
    assert OutputGrammar.load(tmp_path) == grammar
    assert OutputGrammar.load(tmp_path / "elsewhere") is None


def test_each_step_allows_exactly_the_tokens_that_keep_the_output_well_formed():
    tokenizer = train_tokenizer([text for pair in TRAIN for text in pair])
    decoding = WellFormedDecoding(OutputGrammar.fit(OUTPUTS), tokenizer)

    def allowed(prefix: str) -> set[str]:
        ids = [tokenizer.eos_token_id] + tokenizer(prefix, add_special_tokens=False)["input_ids"]
        return set(tokenizer.convert_ids_to_tokens(decoding.allowed(ids)))

    arguments = {"$0", "$0:e", "texas:s", "ohio:s", "("}
    assert allowed("") == {"(", "ci0"}
    assert allowed("ci0") == {"</s>"}
    assert allowed("(") == set(OutputGrammar.fit(OUTPUTS).arities)
    assert allowed("( lambda $0:e ( and:<t*,t> ( river:<r,t> $0 )") == arguments  # and takes 2 to 3
    assert allowed("( lambda $0:e ( and:<t*,t> ( river:<r,t> $0 ) ( state:<s,t> $0 )") == arguments | {")"}
    assert allowed("( lambda $0:e ( and:<t*,t> ( river:<r,t> $0 ) ( state:<s,t> $0 ) ( major:<lo,t> $0 )") == {")"}
    assert allowed("( size:<lo,i> texas:s )") == {"</s>"}


def test_variables_are_bound_as_in_every_training_output():
    grammar = OutputGrammar.fit(OUTPUTS)
    # Every training variable is bound by an enclosing lambda, its first argument.
    assert grammar.binders == {"lambda"}
    tokenizer = train_tokenizer([text for pair in TRAIN for text in pair])
    decoding = WellFormedDecoding(grammar, tokenizer)

    def allowed(prefix: str) -> set[str]:
        ids = [tokenizer.eos_token_id] + tokenizer(prefix, add_special_tokens=False)["input_ids"]
        return set(tokenizer.convert_ids_to_tokens(decoding.allowed(ids)))

    assert allowed("( lambda") == {"$0", "$0:e"}  # a binder's first argument is a variable
    assert allowed("( size:<lo,i>") == {"texas:s", "ohio:s", "("}  # no lambda binds $0 here
    assert allowed("( lambda $0:e ( river:<r,t>") == {"$0", "$0:e", "texas:s", "ohio:s", "("}
    assert allowed("( lambda $0:e ( river:<r,t> $0 ) )") == {"</s>"}
    # ATIS writes a binder's type as an atom of its own; its count and exists bind too.
    atis = OutputGrammar.fit(["( lambda $0 e ( flight $0 ) )", "( count $0 ( flight $0 ) )", "( exists $1 ( to $1 ci0 ) )"])
    assert atis.binders == {"lambda", "count", "exists"}
    # Outputs with a free variable: no scoping is learnt, and none is imposed.
    assert OutputGrammar.fit(["(lambda $0:e (loc:<lo,<lo,t>> $0 $1))", "(size:<lo,i> $0)"]).binders == frozenset()



def test_a_grammar_saved_before_scoping_and_distinct_conjuncts_were_learnt_loads_without_them(tmp_path):
    grammar = OutputGrammar.fit(OUTPUTS)
    data = json.loads(grammar.save(tmp_path).read_text(encoding="utf-8"))
    assert data.pop("binders") == ["lambda"] and data.pop("distinct_conjuncts") is True
    assert data.pop("implied") == {} and data.pop("binders_used") is True and data.pop("distinct_constants") is True
    assert data.pop("distinct_list_variables") is True and data.pop("argument_types")
    (tmp_path / GRAMMAR_FILE).write_text(json.dumps(data), encoding="utf-8")
    assert OutputGrammar.load(tmp_path) == OutputGrammar(grammar.arities, grammar.arguments, grammar.roots)  # as before


@pytest.fixture(scope="module")
def random_logical_form_parser(tmp_path_factory) -> Path:
    """A tiny BART with random weights, its word-level tokenizer and the grammar of ``OUTPUTS``."""
    directory = tmp_path_factory.mktemp("random-bart")
    tokenizer = train_tokenizer([text for pair in TRAIN for text in pair])
    model = tiny_bart(tokenizer, width=16)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    OutputGrammar.fit(OUTPUTS).save(directory)
    return directory


def test_a_random_model_writes_only_well_formed_logical_forms_with_the_grammar(random_logical_form_parser):
    questions = [question for question, _ in TRAIN] + ["how big is ohio", "rivers", "which states border texas"]
    grammar = OutputGrammar.load(random_logical_form_parser)
    kept = Seq2SeqParser(random_logical_form_parser, device="cpu")(questions)
    assert all(well_formed(output, grammar) for output in kept), kept
    free = Seq2SeqParser(random_logical_form_parser, device="cpu", well_formed=False)(questions)
    assert not any(well_formed(output, grammar) for output in free), free  # random weights write noise
    beams = Seq2SeqParser(random_logical_form_parser, device="cpu", num_beams=3)(questions)
    assert all(well_formed(output, grammar) for output in beams), beams


def test_trainer_saves_the_grammar_of_logical_forms_only(tmp_path, monkeypatch):
    folder = tmp_path / "data" / "lambda" / "geo"
    folder.mkdir(parents=True)
    lines = "".join(f"{question}\t{output}\n" for question, output in TRAIN[:5])
    for split in ("train", "test"):
        (folder / f"geo_lambda_calculus_{split}.tsv").write_text(lines, encoding="utf-8")
    tiny = {"architecture": "bart", "d_model": 16, "d_ff": 16, "num_layers": 1, "num_heads": 2, "epochs": 1, "device": "cpu"}
    ParserTrainer("geo-lambda", tmp_path / "lambda", data_dir=tmp_path / "data", **tiny).train()
    saved = OutputGrammar.load(tmp_path / "lambda")
    assert saved is not None and "lambda" in saved.arities
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    ParserTrainer("geo-mini", tmp_path / "sql", **tiny).train()  # SQL outputs: no grammar
    assert not (tmp_path / "sql" / GRAMMAR_FILE).exists()


REPEATED = "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 texas:s) (river:<r,t> $0)))"
MEMORISED = [*TRAIN, ("rivers in texas rivers", REPEATED)]


@pytest.fixture(scope="module")
def memorised_parser(tmp_path_factory) -> Path:
    """A tiny BART trained here until it writes each output of ``MEMORISED`` for its question
    (one output repeats a conjunct), with its word-level tokenizer and no grammar."""
    directory = tmp_path_factory.mktemp("memorised-bart")
    tokenizer = train_tokenizer([text for pair in MEMORISED for text in pair])
    model = tiny_bart(tokenizer, width=32, dropout=0.0)
    batch = tokenizer([question for question, _ in MEMORISED], text_target=[output for _, output in MEMORISED],
                      padding=True, return_tensors="pt")  # fmt: skip
    batch["labels"] = batch["labels"].masked_fill(batch["labels"] == tokenizer.pad_token_id, -100)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(300):
        optimizer.zero_grad()
        model(**batch).loss.backward()
        optimizer.step()
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def _with_grammar(parser: Path, grammar: OutputGrammar | None, into: Path) -> Path:
    shutil.copytree(parser, into)
    assert grammar is not None
    grammar.save(into)
    return into


def test_a_conjunct_the_model_writes_twice_is_written_once_when_no_training_output_repeats_one(memorised_parser, tmp_path):
    """A and A is A: the parser's output keeps the first of two equal conjuncts when the grammar's
    outputs never repeat one; the model itself (trained to write the repeat) writes both
    without the grammar, and with a grammar whose outputs repeat one."""
    question = "rivers in texas rivers"
    repeating = OutputGrammar.fit([output for _, output in MEMORISED])
    assert repeating is not None and not repeating.distinct_conjuncts
    location = _with_grammar(memorised_parser, repeating, tmp_path / "repeating")
    assert read_s_expression(Seq2SeqParser(location, device="cpu")([question])[0]) == read_s_expression(REPEATED)
    written = Seq2SeqParser(location, device="cpu", well_formed=False)([question])[0]
    assert read_s_expression(written) == read_s_expression(REPEATED)

    distinct = OutputGrammar.fit(OUTPUTS)
    assert distinct is not None and distinct.distinct_conjuncts
    location = _with_grammar(memorised_parser, distinct, tmp_path / "distinct")
    predicted = Seq2SeqParser(location, device="cpu")([question])[0]
    assert read_s_expression(predicted) == read_s_expression(
        "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 texas:s)))"
    )
    others = Seq2SeqParser(location, device="cpu")([q for q, _ in TRAIN])
    assert [read_s_expression(output) for output in others] == [read_s_expression(output) for output in OUTPUTS]


def test_copied_atoms_are_those_every_training_output_writes_with_the_same_word_in_its_question():
    grammar = OutputGrammar.fit(OUTPUTS, [question for question, _ in TRAIN])
    # ci0 is written only for "list flights to ci0"; texas:s and ohio:s are never words of a question.
    assert grammar.copied == {"ci0"}
    assert OutputGrammar.fit(OUTPUTS).copied == frozenset()
    quoted = OutputGrammar.fit(["(language $0 language0)"], ["jobs using 'language0' ?"])
    assert quoted.copied == {"language0"}


def test_a_copied_atom_is_written_only_for_a_question_that_has_it(memorised_parser, tmp_path):
    """The model wrote ci0 for "list flights to ci0"; asked "list flights to", it writes ci0 again
    without the copy constraint, and something else with it."""
    free = _with_grammar(memorised_parser, OutputGrammar.fit(OUTPUTS), tmp_path / "free")
    assert Seq2SeqParser(free, device="cpu")(["list flights to ci0", "list flights to"]) == ["ci0", "ci0"]
    grammar = OutputGrammar.fit([output for _, output in MEMORISED], [question for question, _ in MEMORISED])
    assert grammar.copied == {"ci0"}
    copying = _with_grammar(memorised_parser, grammar, tmp_path / "copying")
    with_it, without_it = Seq2SeqParser(copying, device="cpu")(["list flights to ci0", "list flights to"])
    assert with_it == "ci0"
    assert "ci0" not in re.findall(r"[^\s()]+", without_it)


@pytest.mark.parametrize(
    ("relative", "distinct"),
    [("jobs/job_lambda_train.tsv", True), ("geo/geo_lambda_calculus_train.tsv", False), ("atis/train.txt", False)],
)
def test_real_training_outputs_teach_distinct_conjuncts_and_constants_where_none_repeats_one(
    real_data_dir, relative, distinct
):
    from textattack_semparse.datasets.logical_form import load_logical_forms

    examples = load_logical_forms(real_data_dir / "lambda" / relative)
    grammar = OutputGrammar.fit(example.gold for example in examples)
    # JOBS' 500 training outputs never repeat a conjunct; one of GEO's 600 and sixteen of ATIS' 4,434 do.
    assert grammar.distinct_conjuncts is distinct
    # Nor do they write a constant twice; one of GEO's and 86 of ATIS' do.
    assert grammar.distinct_constants is distinct


def _implied_by_rule(outputs: list[str], questions: list[str]) -> dict[str, set[str]]:
    """The implications as :attr:`OutputGrammar.implied` states them, counted here: a word of at least
    IMPLICATION_SUPPORT questions implies each atom (no variable) that every output of those questions
    writes and that at most half of all outputs write."""
    atoms_of = [{atom for atom in re.findall(r"[^\s()]+", output) if not atom.startswith("$")} for output in outputs]
    words_of = [input_words(question) for question in questions]
    implied = {}
    for word in set().union(*words_of):
        with_word = [atoms for atoms, words in zip(atoms_of, words_of) if word in words]
        if len(with_word) < IMPLICATION_SUPPORT:
            continue
        always = set.intersection(*with_word)
        atoms = {atom for atom in always if 2 * sum(atom in atoms for atoms in atoms_of) <= len(outputs)}
        if atoms:
            implied[word] = atoms
    return implied


def test_a_word_implies_the_atoms_every_output_of_its_training_questions_writes():
    questions = ["which major rivers run through s0"] * 5 + ["which rivers run through s0"] * 3 + ["how big is s0"] * 4
    outputs = (
        ["(lambda $0:e (and:<t*,t> (major:<lo,t> $0) (river:<r,t> $0) (loc:<lo,<lo,t>> $0 s0)))"] * 5
        + ["(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 s0)))"] * 3
        + ["(size:<lo,i> s0)"] * 4
    )
    grammar = OutputGrammar.fit(outputs, questions)
    assert {word: set(atoms) for word, atoms in grammar.implied.items()} == _implied_by_rule(outputs, questions)
    # "major" (5 questions) implies major:<lo,t>; river:<r,t> and loc, in 8 of the 12 outputs, imply nothing;
    # "big" is in 4 questions only, fewer than IMPLICATION_SUPPORT.
    assert grammar.implied["major"] == {"major:<lo,t>"} and "big" not in grammar.implied
    assert not grammar.admits("which major rivers run through s0", outputs[-4])
    assert grammar.admits("which major rivers run through s0", outputs[0])
    assert grammar.admits("how big is s0", outputs[-1])  # nothing implied: any output will do


def test_an_output_that_binds_a_variable_it_never_uses_is_wanting_when_no_training_output_does():
    grammar = OutputGrammar.fit(OUTPUTS)
    assert grammar.binders_used
    assert grammar.admits("which rivers run through texas", OUTPUTS[2])
    unused = "(lambda $0:e (exists:<<e,t>,t> (lambda $1:e (next_to:<lo,<lo,t>> $0 $0))))"
    assert not grammar.admits("which states border ohio", unused)
    # A training output that binds and never uses: nothing is learnt, and such outputs are taken as written.
    assert not OutputGrammar.fit([*OUTPUTS, "(lambda $0:e (state:<s,t> $1))"]).binders_used


def test_an_output_that_writes_a_constant_twice_is_wanting_when_no_training_output_does():
    grammar = OutputGrammar.fit(OUTPUTS)
    assert grammar.distinct_constants
    twice = "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 texas:s) (next_to:<lo,<lo,t>> $0 texas:s)))"
    assert not grammar.admits("which rivers run through texas", twice)
    assert grammar.admits("which rivers run through texas", OUTPUTS[2])  # $0 five times: variables may repeat
    assert not OutputGrammar.fit([*OUTPUTS, twice]).distinct_constants


def test_an_output_with_a_variable_twice_in_one_list_is_wanting_when_no_training_output_has_one():
    grammar = dataclasses.replace(OutputGrammar.fit(OUTPUTS), argument_types=frozenset())  # this record alone
    assert grammar.distinct_list_variables
    itself = "(count:<<e,t>,i> (lambda $0:e (and:<t*,t> (state:<s,t> $0) (loc:<lo,<lo,t>> $0 $0))))"
    assert not grammar.admits("how many states are there", itself)
    # The same variable in different lists, and two variables in one, are as training has them.
    assert grammar.admits("which rivers run through texas", OUTPUTS[2])
    assert grammar.admits("states next to states", "(lambda $0:e (exists:<<e,t>,t> (lambda $1:e (next_to:<lo,<lo,t>> $0 $1))))")
    # A variable's type does not make it another variable.
    assert not grammar.admits("states", "(lambda $0:e (loc:<lo,<lo,t>> $0 $0:e))")
    assert not OutputGrammar.fit([*OUTPUTS, itself]).distinct_list_variables


def test_an_output_giving_an_argument_a_type_no_training_output_gives_it_is_wanting():
    grammar = OutputGrammar.fit(OUTPUTS)
    # "which rivers run through texas": $0 is a river (river:<r,t> $0), loc:<lo,<lo,t>> expects two
    # locations and is given a river and a state, and:<t*,t> takes truth values.
    assert argument_types(read_s_expression(OUTPUTS[2])) == {("r", "r"), ("lo", "r"), ("lo", "s"), ("t*", "t")}
    # size and capital take a state; "which states border ohio" gives states where a state and locations
    # are expected; "which major rivers ...": major:<lo,t> and river:<r,t> say two types, so $0 keeps its
    # declared e.
    assert grammar.argument_types == {
        *argument_types(read_s_expression(OUTPUTS[2])), ("lo", "s"), ("s", "s"), ("lo", "e"), ("r", "e")
    }
    assert grammar.admits("how big is s0", "(size:<lo,i> s0)")  # a placeholder's type is its name's: s0 is a state
    assert not grammar.admits("what is the capital of r0", "(capital:<s,c> r0)")  # no training capital of a river
    a_rivers_capital = "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (capital:<s,c> $0)))"
    assert not grammar.admits("rivers", a_rivers_capital)
    assert grammar.admits("states", "(lambda $0:e (and:<t*,t> (state:<s,t> $0) (next_to:<lo,<lo,t>> $0 texas:s)))")
    # Outputs whose atoms have no type annotations (JOBS', ATIS') say nothing of types, and nothing is checked.
    jobs = OutputGrammar.fit(["( lambda $0 ( and_ ( job $0 ) ( language $0 language0 ) ) )"])
    assert jobs.argument_types == frozenset() and jobs.admits("jobs", "( lambda $0 ( language $0 loc0 ) )")


def test_real_geo_training_outputs_imply_major_for_the_word_major(real_data_dir):
    from textattack_semparse.datasets.logical_form import load_logical_forms

    examples = load_logical_forms(real_data_dir / "lambda" / "geo" / "geo_lambda_calculus_train.tsv")
    outputs, questions = [example.gold for example in examples], [example.question for example in examples]
    grammar = OutputGrammar.fit(outputs, questions)
    assert {word: set(atoms) for word, atoms in grammar.implied.items()} == _implied_by_rule(outputs, questions)
    assert "major:<lo,t>" in grammar.implied["major"] and "next_to:<lo,<lo,t>>" in grammar.implied["bordering"]
    assert grammar.binders_used


def test_every_real_geo_test_gold_gives_its_arguments_the_types_training_outputs_give_them(real_data_dir):
    from textattack_semparse.datasets.logical_form import load_logical_forms

    folder = real_data_dir / "lambda" / "geo"
    grammar = OutputGrammar.fit(example.gold for example in load_logical_forms(folder / "geo_lambda_calculus_train.tsv"))
    test = load_logical_forms(folder / "geo_lambda_calculus_test.tsv")
    assert all(argument_types(read_s_expression(example.gold)) <= grammar.argument_types for example in test)
    # A parser's output for "what is the capital of the state with the longest river": the capital of a river.
    capital_of_a_river = (
        "(capital:<s,c> (argmax:<<e,t>,<<e,i>,e>> (lambda $0:e (river:<r,t> $0)) (lambda $0:e (len:<r,i> $0))))"
    )
    assert ("s", "r") in argument_types(read_s_expression(capital_of_a_river))
    assert not grammar.admits("what is the capital of the state with the longest river", capital_of_a_river)


def test_an_output_the_grammar_finds_wanting_is_replaced_by_the_likeliest_alternative_that_is_not(
    memorised_parser, tmp_path
):
    """The model writes river and loc for "which rivers run through texas"; a grammar in which "rivers"
    implies major:<lo,t> makes the parser take the likeliest of the beam's outputs with it; the
    other outputs stay the greedy ones."""
    question = "which rivers run through texas"
    plain = OutputGrammar.fit(OUTPUTS)
    assert read_s_expression(Seq2SeqParser(_with_grammar(memorised_parser, plain, tmp_path / "plain"), device="cpu")(
        [question])[0]) == read_s_expression(OUTPUTS[2])  # fmt: skip
    demanding = dataclasses.replace(plain, implied=MappingProxyType({"rivers": frozenset({"major:<lo,t>"})}))
    parser = Seq2SeqParser(_with_grammar(memorised_parser, demanding, tmp_path / "demanding"), device="cpu")
    outputs = parser([question, "how big is texas", "which states border ohio"])
    assert "major:<lo,t>" in outputs[0].split() and well_formed(outputs[0], demanding)
    assert demanding.admits(question, outputs[0])
    assert [read_s_expression(output) for output in outputs[1:]] == [read_s_expression(OUTPUTS[0]), read_s_expression(OUTPUTS[3])]
