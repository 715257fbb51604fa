"""Tests for the Dong & Lapata logical-form loader and the constants a question spells out."""

from __future__ import annotations

from pathlib import Path

import pytest

from textattack_semparse.datasets.logical_form import load_logical_forms, logical_form_literals
from textattack_semparse.errors import DatasetError

GEO_FLORIDA = (
    "what is the highest point in florida\t(argmax:<<e,t>,<<e,i>,e>> (lambda $0:e (and:<t*,t> (place:<p,t> $0) "
    "(loc:<lo,<lo,t>> $0 florida:s))) (lambda $0:e (elevation:<lo,i> $0)))"
)
ATIS_FLIGHT = "list flight from ci0 to ci1\t( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ( to $0 ci1 ) ) )"


def write(tmp_path: Path, text: str, name: str = "data.tsv") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


# load_logical_forms


def test_one_example_per_line_with_split_label(tmp_path: Path) -> None:
    examples = load_logical_forms(write(tmp_path, f"{GEO_FLORIDA}\n{ATIS_FLIGHT}\n"), split="train")
    assert [example.question for example in examples] == ["what is the highest point in florida",
                                                         "list flight from ci0 to ci1"]
    assert examples[1].gold == "( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ( to $0 ci1 ) ) )"
    assert all(example.question_split == "train" and example.query_split is None for example in examples)


def test_examples_have_no_template_variables_or_database(tmp_path: Path) -> None:
    (example,) = load_logical_forms(write(tmp_path, ATIS_FLIGHT))
    assert example.template_question is None and example.template_gold is None
    assert dict(example.variables) == {} and example.db_id is None and example.question_split is None


def test_last_line_without_newline_and_blank_lines_and_crlf(tmp_path: Path) -> None:
    examples = load_logical_forms(write(tmp_path, f"{GEO_FLORIDA}\r\n\r\n{ATIS_FLIGHT}"))
    assert len(examples) == 2 and not examples[0].gold.endswith("\r")


def test_line_without_tab_names_file_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, f"{ATIS_FLIGHT}\nlist airport ( lambda $0 e ( airport $0 ) )\n")
    with pytest.raises(DatasetError, match=r"data\.tsv: line 2 has 0 tabs .*expected exactly one"):
        load_logical_forms(path)


def test_line_with_two_tabs_is_malformed(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"line 1 has 2 tabs"):
        load_logical_forms(write(tmp_path, "list airport\t( airport $0 )\textra\n"))


@pytest.mark.parametrize(("line", "field"), [("\t( airport $0 )", "question"), ("list airport\t  ", "logical form")])
def test_empty_field_is_malformed(tmp_path: Path, line: str, field: str) -> None:
    with pytest.raises(DatasetError, match=rf"line 1 has an empty {field}"):
        load_logical_forms(write(tmp_path, line))


def test_missing_file_names_the_fix(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"does not exist.*SEMPARSE_DATA_DIR.*lambda/"):
        load_logical_forms(tmp_path / "absent.tsv")


def test_file_without_examples_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="has no examples"):
        load_logical_forms(write(tmp_path, "\n\n"))


# logical_form_literals


def test_typed_state_constant_is_a_literal() -> None:
    question, logical_form = GEO_FLORIDA.split("\t")
    assert logical_form_literals(question, logical_form) == ["florida"]


def test_multi_word_constant_reads_underscores_as_spaces() -> None:
    assert logical_form_literals("rivers in new york", "(lambda $0:e (loc:<lo,<lo,t>> $0 new_york:s))") == ["new york"]


def test_city_state_suffix_and_river_suffix_are_optional() -> None:
    assert logical_form_literals("how big is austin", "(size:<lo,i> austin_tx:c)") == ["austin"]
    assert logical_form_literals("how long is the mississippi", "(len:<r,i> mississippi_river:r)") == ["mississippi"]
    assert logical_form_literals("how long is the colorado river", "(len:<r,i> colorado_river:r)") == [
        "colorado river"
    ]


def test_anonymised_entities_in_question_order_and_predicates_left_out() -> None:
    question, logical_form = ATIS_FLIGHT.split("\t")
    assert logical_form_literals(question, logical_form) == ["ci0", "ci1"]  # not 'flight', 'from', 'to'


def test_lambda_variable_type_is_not_a_literal() -> None:
    assert logical_form_literals("is e a state", "( lambda $0 e ( state:t $0 ) )") == []


def test_numbers_and_untyped_constants_match_ignoring_case() -> None:
    logical_form = "(lambda $0:e (and_ (job $0) (req_exp $0 2) (req_deg $0 BSCS)))"
    assert logical_form_literals("jobs requiring a bscs and 2 years", logical_form) == ["BSCS", "2"]


def test_constant_the_question_does_not_spell_is_left_out() -> None:
    assert logical_form_literals("how many people live in the us", "(population:<lo,i> usa:co)") == []


# real data (SEMPARSE_DATA_DIR)


@pytest.mark.real_data
@pytest.mark.parametrize(
    ("relative", "size"),
    [
        ("geo/geo_lambda_calculus_train.tsv", 600),
        ("geo/geo_lambda_calculus_test.tsv", 280),
        ("geo/geo_anonymous_lambda_train.txt", 600),
        ("geo/geo_anonymous_lambda_test.txt", 280),
        ("jobs/job_lambda_train.tsv", 500),
        ("jobs/job_lambda_test.tsv", 140),
        ("atis/train.txt", 4434),
        ("atis/dev.txt", 491),
        ("atis/test.txt", 448),
    ],
)
def test_real_files_load_completely(data_dir: Path, relative: str, size: int) -> None:
    path = data_dir / "lambda" / relative
    examples = load_logical_forms(path)
    assert len(examples) == size
    assert len(examples) == sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


@pytest.mark.real_data
def test_real_geo_questions_spell_their_states(data_dir: Path) -> None:
    examples = load_logical_forms(data_dir / "lambda" / "geo" / "geo_lambda_calculus_test.tsv")
    with_state = [example for example in examples if ":s)" in example.gold or ":s " in example.gold]
    found = [example for example in with_state if logical_form_literals(example.question, example.gold)]
    assert len(found) == len(with_state) > 50


def test_a_quoted_multi_word_constant_is_one_constant():
    from textattack_semparse.datasets.logical_form import logical_form_constants

    constants = logical_form_constants(
        "what jobs are there on windows nt in austin ?",
        '(lambda $0:e (and_ (job $0) (platform $0 "windows nt") (loc $0 austin)))',
    )
    assert [(constant.atom, constant.spelling) for constant in constants] == [
        ('"windows nt"', "windows nt"),
        ("austin", "austin"),
    ]


def test_canonical_form_names_variables_by_depth_and_sorts_conjuncts():
    from textattack_semparse.datasets.logical_form import canonical_logical_form

    text = "(lambda $3:e (and:<t*,t> (state:<s,t> $3) (exists:<<e,t>,t> (lambda $7:e (and:<t*,t> (river:<r,t> $7) (loc:<lo,<lo,t>> $7 $3))))))"
    assert " ".join(canonical_logical_form(text)) == (
        "( lambda $0:e ( and:<t*,t> ( exists:<<e,t>,t> ( lambda $1:e ( and:<t*,t> ( loc:<lo,<lo,t>> $1 $0 ) "
        "( river:<r,t> $1 ) ) ) ) ( state:<s,t> $0 ) ) )"
    )


@pytest.mark.parametrize("text", ["", "(a", "a)", "(a) (b)", "((a)"])
def test_canonical_form_of_text_that_is_not_one_s_expression_is_none(text):
    from textattack_semparse.datasets.logical_form import canonical_logical_form

    assert canonical_logical_form(text) is None


def test_canonical_form_of_an_atom_is_the_atom():
    from textattack_semparse.datasets.logical_form import canonical_logical_form

    assert canonical_logical_form("CI0") == ("ci0",)


def test_a_repeated_conjunct_is_left_out_at_every_depth_and_the_first_kept():
    from textattack_semparse.datasets.logical_form import without_repeated_conjuncts

    text = (
        "( lambda $0 e ( and_ ( job $0 ) ( or_ ( language $0 l0 ) ( language $0 l0 ) ) ( loc $0 c0 ) "
        "( job $0 ) ( loc $0 c1 ) ) )"
    )
    assert without_repeated_conjuncts(text) == (
        "( lambda $0 e ( and_ ( job $0 ) ( or_ ( language $0 l0 ) ) ( loc $0 c0 ) ( loc $0 c1 ) ) )"
    )


@pytest.mark.parametrize(
    "text",
    [
        "(lambda $0:e (and:<t*,t> (state:<s,t> $0) (next_to:<lo,<lo,t>> $0 s0)))",  # nothing repeats: as written
        "( loc $0 s0 ) ( loc $0 s0 )",  # not one s-expression
        "SELECT city.city_name FROM city WHERE city.state_name = 'texas'",
        "( count $0 ( and ( a $0 ) ( b $0 ) ) ( and ( a $0 ) ( b $0 ) ) )",  # repeats under a head that is not and/or
    ],
)
def test_text_without_a_repeated_conjunct_is_returned_unchanged(text):
    from textattack_semparse.datasets.logical_form import without_repeated_conjuncts

    assert without_repeated_conjuncts(text) == text


@pytest.mark.real_data
@pytest.mark.parametrize(
    "relative",
    ["geo/geo_lambda_calculus_test.tsv", "geo/geo_anonymous_lambda_test.txt", "jobs/job_lambda_test.tsv", "atis/test.txt"],
)
def test_every_real_gold_has_a_canonical_form_that_is_its_own(data_dir: Path, relative: str) -> None:
    from textattack_semparse.datasets.logical_form import canonical_logical_form

    for example in load_logical_forms(data_dir / "lambda" / relative):
        canonical = canonical_logical_form(example.gold)
        assert canonical is not None, example.gold
        assert canonical_logical_form(" ".join(canonical)) == canonical  # canonical forms are fixed points
