"""Augmenting text2sql JSON and question<TAB>logical-form files: same format, same golds, literals intact."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path

import pytest

from textattack_semparse.augmentation import (
    AugmentationCounts,
    augment_text2sql,
    augment_tsv,
    keeps_literals,
    protecting_literals,
    retemplate,
)
from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.datasets.logical_form import logical_form_literals
from textattack_semparse.datasets.text2sql import load_text2sql
from textattack_semparse.errors import DatasetError
from textattack_semparse.sql.literals import literal_words

GEO_LINES = [
    "what is the highest point in florida\t(argmax:<<e,t>,<<e,i>,e>> (lambda $0:e (and:<t*,t> (place:<p,t> $0) "
    "(loc:<lo,<lo,t>> $0 florida:s))) (lambda $0:e (elevation:<lo,i> $0)))",
    "how big is new york\t(size:<lo,i> new_york:s)",
    "what is the population of austin\t(population:<lo,i> austin_tx:c)",
]


def prefixing(question: str, literals: Sequence[str]) -> list[str]:
    """A deterministic stand-in augmenter: one meaning-preserving rewrite per question."""
    return [f"please tell me {question}"]


def dropping_first_literal(question: str, literals: Sequence[str]) -> list[str]:
    """Two outputs: one keeps the literals, one deletes the first literal's words."""
    return [f"{question} please", question.replace(literals[0], "").strip()] if literals else [question + " please"]


@pytest.fixture
def geo_mini_json() -> Path:
    return geo_mini_paths()[0]


# retemplate


def test_retemplate_puts_placeholder_back_for_multi_word_value() -> None:
    template = "what rivers are in state_name0"
    assert retemplate("which rivers flow in new york", template, {"state_name0": "new york"}) == (
        "which rivers flow in state_name0"
    )


def test_retemplate_follows_values_that_moved() -> None:
    template = "flights from city_name0 to city_name1"
    values = {"city_name0": "boston", "city_name1": "denver"}
    assert retemplate("to denver flights from boston", template, values) == "to city_name1 flights from city_name0"


def test_retemplate_keeps_template_text_that_spells_a_value() -> None:
    template = "is state_name0 bigger than texas"
    values = {"state_name0": "texas"}
    assert retemplate("is texas really bigger than texas", template, values) == "is state_name0 really bigger than texas"


def test_retemplate_same_value_in_two_placeholders() -> None:
    template = "flights from city_name0 back to city_name1"
    values = {"city_name0": "boston", "city_name1": "boston"}
    assert retemplate("the flights from boston back to boston", template, values) == (
        "the flights from city_name0 back to city_name1"
    )


@pytest.mark.parametrize(
    "sentence", ["what rivers are in york", "what rivers are in new york and new york", "what rivers are there"]
)
def test_retemplate_refuses_when_a_value_count_changed(sentence: str) -> None:
    assert retemplate(sentence, "what rivers are in state_name0", {"state_name0": "new york"}) is None


def test_retemplate_ignores_sql_only_variables_and_plain_templates() -> None:
    assert retemplate("how many rivers are there", "how many rivers are there", {"sql_only0": "0"}) == (
        "how many rivers are there"
    )


def test_retemplate_refuses_value_glued_to_a_word() -> None:
    assert retemplate("rivers in ohioan lands", "rivers in state_name0", {"state_name0": "ohio"}) is None


# keeps_literals


def test_keeps_literals_counts_whole_words_ignoring_case() -> None:
    assert keeps_literals("rivers in New York", "the rivers of new york", ["new york"])
    assert not keeps_literals("rivers in new york", "rivers in newyork", ["new york"])
    assert not keeps_literals("cities in ohio", "cities in ohio or ohio", ["ohio"])
    assert keeps_literals("cities in ohio", "towns in ohio", [])


# augment_text2sql


def test_text2sql_output_loads_and_every_added_question_has_its_source_gold(geo_mini_json: Path, tmp_path: Path) -> None:
    output = tmp_path / "augmented.json"
    counts = augment_text2sql(geo_mini_json, output, prefixing)
    original = load_text2sql(geo_mini_json)
    augmented = load_text2sql(output)
    assert counts == AugmentationCounts(written=2 * len(original), added=len(original), rejected=0)
    assert len(augmented) == 2 * len(original)
    by_question = {example.question: example for example in original}
    added = [example for example in augmented if example.question.startswith("please tell me ")]
    assert len(added) == len(original)
    for example in added:
        source = by_question[example.question.removeprefix("please tell me ")]
        assert example.gold == source.gold
        assert dict(example.variables) == dict(source.variables)
        assert example.question_split == source.question_split and example.query_split == source.query_split
        assert all(value in example.question for value in source.variables.values() if value in source.question)


def test_text2sql_keeps_entries_sql_and_original_sentences_identical(geo_mini_json: Path, tmp_path: Path) -> None:
    output = tmp_path / "augmented.json"
    augment_text2sql(geo_mini_json, output, prefixing)
    before = json.loads(geo_mini_json.read_text(encoding="utf-8"))
    after = json.loads(output.read_text(encoding="utf-8"))
    assert len(after) == len(before)
    for old, new in zip(before, after):
        assert {key: value for key, value in new.items() if key != "sentences"} == {
            key: value for key, value in old.items() if key != "sentences"
        }
        count = len(old["sentences"])
        assert new["sentences"][:count] == old["sentences"]
        for source, added in zip(old["sentences"], new["sentences"][count:]):
            assert {key: value for key, value in added.items() if key != "text"} == {
                key: value for key, value in source.items() if key != "text"
            }
            assert added["text"] == f"please tell me {source['text']}"


def test_text2sql_drops_augmentations_that_lose_a_value(geo_mini_json: Path, tmp_path: Path) -> None:
    output = tmp_path / "augmented.json"
    counts = augment_text2sql(geo_mini_json, output, dropping_first_literal)
    examples = load_text2sql(geo_mini_json)
    with_literals = sum(bool(example.variables) for example in examples)
    assert counts.rejected >= with_literals > 0
    assert counts.added == len(examples)  # only the "... please" outputs survive
    texts = [example.question for example in load_text2sql(output)]
    assert sum(text.endswith(" please") for text in texts) == len(examples)


def test_text2sql_protects_values_and_gold_literals(geo_mini_json: Path, tmp_path: Path) -> None:
    seen: dict[str, tuple[str, ...]] = {}

    def recording(question: str, literals: Sequence[str]) -> list[str]:
        seen[question] = tuple(literals)
        return []

    augment_text2sql(geo_mini_json, tmp_path / "out.json", recording)
    example = next(e for e in load_text2sql(geo_mini_json) if e.variables and e.question in seen)
    for value in example.variables.values():
        assert value in seen[example.question]


def test_text2sql_only_selected_split_is_augmented_and_exclude_original(geo_mini_json: Path, tmp_path: Path) -> None:
    output = tmp_path / "train-only.json"
    counts = augment_text2sql(geo_mini_json, output, prefixing, splits="train", include_original=False)
    original = load_text2sql(geo_mini_json)
    augmented = load_text2sql(output)
    train = [example for example in original if example.question_split == "train"]
    assert counts.added == len(train) and counts.written == len(original)
    assert {example.question for example in augmented} == {
        *(f"please tell me {example.question}" for example in train),
        *(example.question for example in original if example.question_split != "train"),
    }


def test_text2sql_unknown_split_lists_the_splits(geo_mini_json: Path, tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match=r"'training' does not exist.*dev, test, train"):
        augment_text2sql(geo_mini_json, tmp_path / "o.json", prefixing, splits=["training"])


def test_text2sql_refuses_to_overwrite_or_to_write_over_its_input(geo_mini_json: Path, tmp_path: Path) -> None:
    output = tmp_path / "o.json"
    output.write_text("keep me")
    with pytest.raises(DatasetError, match="--overwrite"):
        augment_text2sql(geo_mini_json, output, prefixing)
    assert output.read_text() == "keep me"
    copy = tmp_path / "copy.json"
    copy.write_bytes(geo_mini_json.read_bytes())
    with pytest.raises(DatasetError, match="is the input file"):
        augment_text2sql(copy, copy, prefixing, overwrite=True)


def test_text2sql_malformed_input_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('[{"sql": [], "sentences": []}]', encoding="utf-8")
    with pytest.raises(DatasetError, match=r"entry 0 \(line 1\) has no gold query"):
        augment_text2sql(path, tmp_path / "o.json", prefixing)


# augment_tsv


@pytest.fixture
def geo_tsv(tmp_path: Path) -> Path:
    path = tmp_path / "geo.tsv"
    path.write_bytes(("\n".join(GEO_LINES)).encode("utf-8"))  # no final newline, as in the real files
    return path


def test_tsv_keeps_logical_form_column_byte_identical(geo_tsv: Path, tmp_path: Path) -> None:
    output = tmp_path / "out.tsv"
    counts = augment_tsv(geo_tsv, output, prefixing)
    lines = output.read_bytes().decode("utf-8").split("\n")
    assert lines[-1] == "" and len(lines) == 7
    assert counts == AugmentationCounts(written=6, added=3, rejected=0)
    for index, line in enumerate(GEO_LINES):
        question, logical_form = line.split("\t")
        assert lines[2 * index] == line
        assert lines[2 * index + 1] == f"please tell me {question}\t{logical_form}"


def test_tsv_passes_constants_as_literals_and_drops_augmentations_that_change_them(
    geo_tsv: Path, tmp_path: Path
) -> None:
    seen: list[tuple[str, ...]] = []

    def recording(question: str, literals: Sequence[str]) -> list[str]:
        seen.append(tuple(literals))
        return dropping_first_literal(question, literals)

    counts = augment_tsv(geo_tsv, tmp_path / "out.tsv", recording, include_original=False)
    assert seen == [("florida",), ("new york",), ("austin",)]
    assert counts == AugmentationCounts(written=3, added=3, rejected=3)
    questions = [line.split("\t")[0] for line in (tmp_path / "out.tsv").read_text(encoding="utf-8").splitlines()]
    assert questions == [f"{line.split(chr(9))[0]} please" for line in GEO_LINES]


def test_tsv_keeps_crlf_line_endings(tmp_path: Path) -> None:
    path = tmp_path / "crlf.tsv"
    path.write_bytes(b"how big is ohio\t(size:<lo,i> ohio:s)\r\n")
    augment_tsv(path, tmp_path / "out.tsv", prefixing)
    assert (tmp_path / "out.tsv").read_bytes() == (
        b"how big is ohio\t(size:<lo,i> ohio:s)\r\nplease tell me how big is ohio\t(size:<lo,i> ohio:s)\r\n"
    )


def test_tsv_rejects_augmentation_with_a_tab(geo_tsv: Path, tmp_path: Path) -> None:
    counts = augment_tsv(geo_tsv, tmp_path / "out.tsv", lambda question, literals: [f"{question}\tx"])
    assert (counts.added, counts.rejected) == (0, 3)


def test_tsv_malformed_line_names_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.tsv"
    path.write_text(f"{GEO_LINES[1]}\nno tab here\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=r"bad\.tsv: line 2 has 0 tabs"):
        augment_tsv(path, tmp_path / "out.tsv", prefixing)


# protecting_literals with the plugin's function-word augmenter


@pytest.fixture(scope="module")
def function_word_augmenter():
    from textattack_semparse.recipes.augment.meaning_preserving_augmenter import MeaningPreservingAugmenter

    return MeaningPreservingAugmenter(
        perturbations=("insertion", "deletion", "substitution-f"), pct_words_to_swap=0.3, transformations_per_example=4
    )


@pytest.mark.parametrize(
    ("question", "literals"),
    [
        ("what is the population of new york", ["new york"]),
        ("which rivers run through the state of rhode island", ["rhode island"]),
        ("how many cities in texas have more than 150000 people", ["texas", "150000"]),
    ],
)
def test_function_word_augmentations_keep_literal_words(function_word_augmenter, question, literals) -> None:
    augment = protecting_literals(function_word_augmenter)
    outputs = augment(question, literals)
    assert outputs and question not in outputs and len(set(outputs)) == len(outputs)
    for output in outputs:
        assert keeps_literals(question, output, literals)
        for literal in literals:
            assert " ".join(literal_words(literal)) in " ".join(literal_words(output))


def test_protecting_literals_restores_the_constraint(function_word_augmenter) -> None:
    from textattack_semparse.constraints.preserve_literals import PreserveLiterals

    (constraint,) = [c for c in function_word_augmenter.pre_transformation_constraints if isinstance(c, PreserveLiterals)]
    before = constraint.literals
    protecting_literals(function_word_augmenter)("what is the capital of utah", ["utah"])
    assert constraint.literals == before


def test_augmenter_without_preserve_literals_gets_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    from textattack.augmentation import Augmenter

    from textattack_semparse.transformations.function_word_deletion import FunctionWordDeletion

    with caplog.at_level(logging.WARNING, logger="textattack_semparse.augmentation.literal_protection"):
        protecting_literals(Augmenter(transformation=FunctionWordDeletion()))
    assert "has no PreserveLiterals constraint" in caplog.text


# real data (SEMPARSE_DATA_DIR)


@pytest.mark.real_data
def test_geography_with_no_augmentation_is_rewritten_entry_for_entry(real_data_dir: Path, tmp_path: Path) -> None:
    source = real_data_dir / "text2sql" / "geography.json"
    counts = augment_text2sql(source, tmp_path / "geography.json", lambda question, literals: [])
    assert counts == AugmentationCounts(written=877, added=0, rejected=0)
    # One entry per line, each exactly the source's entry (keys in their order, non-ASCII kept), in file order.
    entries = json.loads(source.read_text(encoding="utf-8"))
    lines = (tmp_path / "geography.json").read_bytes().decode("utf-8").split("\n")
    assert lines[0] == "[" and lines[-2:] == ["]", ""]
    assert lines[1:-2] == [json.dumps(entry, ensure_ascii=False) + "," for entry in entries[:-1]] + [
        json.dumps(entries[-1], ensure_ascii=False)
    ]


@pytest.mark.real_data
def test_geography_dev_augmented_with_function_words(real_data_dir: Path, tmp_path: Path, function_word_augmenter) -> None:
    source = real_data_dir / "text2sql" / "geography.json"
    output = tmp_path / "geography-augmented.json"
    counts = augment_text2sql(source, output, protecting_literals(function_word_augmenter), splits="dev")
    original = load_text2sql(source)
    augmented = load_text2sql(output)
    assert counts.added > 49 and len(augmented) == 877 + counts.added
    assert [example.question for example in augmented[:877]] != []
    questions = {example.question for example in original}
    dev = {(example.template_gold, tuple(sorted(example.variables.items()))): example
           for example in original if example.question_split == "dev"}
    added = [example for example in augmented if example.question not in questions]
    assert len(added) == counts.added
    for example in added:
        source_example = dev[(example.template_gold, tuple(sorted(example.variables.items())))]
        assert example.question_split == "dev" and example.gold == source_example.gold
        for value in source_example.variables.values():
            if value in source_example.question:
                assert value in example.question


@pytest.mark.real_data
def test_geo_lambda_questions_augmented_keep_logical_forms_and_constants(
    real_data_dir: Path, tmp_path: Path, function_word_augmenter
) -> None:
    lines = (real_data_dir / "lambda" / "geo" / "geo_lambda_calculus_test.tsv").read_text(encoding="utf-8").splitlines()
    source = tmp_path / "geo-test-first-60.tsv"
    source.write_text("\n".join(lines[:60]) + "\n", encoding="utf-8")
    output = tmp_path / "geo-test-augmented.tsv"
    counts = augment_tsv(source, output, protecting_literals(function_word_augmenter), include_original=False)
    output_lines = output.read_text(encoding="utf-8").splitlines()
    assert counts.added > 60 and len(output_lines) == counts.added
    by_logical_form = {}
    for line in lines[:60]:
        question, logical_form = line.split("\t")
        by_logical_form.setdefault(logical_form, []).append(question)
    for line in output_lines:
        question, logical_form = line.split("\t")
        assert any(
            keeps_literals(source_question, question, logical_form_literals(source_question, logical_form))
            for source_question in by_logical_form[logical_form]
        )
