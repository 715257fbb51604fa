"""MDA as Huang et al. (2021) run it: one sample of the dataset, perturbed by each operation.

The paper's rule (Huang et al. 2021, "On Robustness of Neural Semantic Parsers", EACL,
https://aclanthology.org/2021.eacl-main.292/, §4): MDA perturbs "20% of the original instances
for each dataset": one sample per dataset, which every operation perturbs (each operation's set
is also written on its own here, beside the union). The plugin's rounding: a sample of a fraction
f of N training examples holds ceil(f × N) of them (never fewer than the fraction). The expected
sizes below are computed from that rule in integer arithmetic, ceil(N / 5), on the real split sizes.

Which output a sampled example gets follows the paper's rule per operation (Huang et al. 2021,
the same source, as the plugin's huang-2021 robustness setting states it): "substitution (nf),
back translation and reordering keep the candidate Sentence-BERT ranks highest; the
function-word operations a random one", a function word being any word of the paper's
stop-word list (NLTK | scikit-learn | punctuation). The expected top candidate is computed here
with the encoder itself.

An operation adds one question per sampled example it can perturb. Reordering moves a phrase only
where the parse keeps its attachment, so few questions have one: its expected count is the number
of sampled examples with a reordering, counted here with the perturbation itself.

The runs whose counts are checked pass ``--no-judge``: they check the sampling rule, not the
offline meaning judge (whose verdicts would change which examples are perturbable).
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
import torch
from textattack.constraints.pre_transformation import RepeatModification
from textattack.shared import AttackedText

from textattack_semparse.augmentation import (
    AugmentationItem,
    operation_output_path,
    replaying,
    sample_indices,
    sample_operation,
    sample_size,
    text2sql_items,
)
from textattack_semparse.cli import main
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.datasets.text2sql import load_text2sql, select_split
from textattack_semparse.linguistics.function_words import (
    MEANING_PRESERVING_CLASSES,
    load_function_word_classes,
    load_word_list,
)
from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings
from textattack_semparse.recipes.attack.recipe_ingredients import perturbation

MDA_OPERATIONS = ("insertion", "deletion", "substitution-f", "substitution-wordnet", "reordering")
FUNCTION_WORD_OPERATIONS = ("insertion", "deletion", "substitution-f")
GEO_LINES = (
    "what is the highest point in florida\t(argmax:<<e,t>,<<e,i>,e>> (lambda $0:e (and:<t*,t> (place:<p,t> $0) "
    "(loc:<lo,<lo,t>> $0 florida:s))) (lambda $0:e (elevation:<lo,i> $0)))\n"
    "how big is new york\t(size:<lo,i> new_york:s)\n"
    "what is the population of austin\t(population:<lo,i> austin_tx:c)\n"
    "which rivers run through the state of colorado\t(lambda $0:e (and:<t*,t> (river:<r,t> $0) "
    "(loc:<lo,<lo,t>> $0 colorado:s)))\n"
    "what is the capital of the state of texas\t(capital:<s,c> texas:s)\n"
    "how long is the mississippi river\t(len:<r,i> mississippi_river:r)\n"
)


def paper_sample_size(population: int) -> int:
    """Huang et al.'s 20%, rounded up: ceil(N / 5) in integers."""
    return -(-population // 5)


def augment(*arguments: str) -> int:
    return main(["augment", *arguments])


def training_reorderings(source: Path) -> dict[int, list[str]]:
    """Training item index -> its reorderings (the question itself left out), for the items that
    have one, as ``augment`` proposes them: the plain perturbation with the literals protected."""
    reordering = perturbation("reordering")
    reorderings = {}
    for index, item in enumerate(text2sql_items(source, splits="train")):
        constraints = [RepeatModification(), PreserveLiterals(literals=item.literals)]
        outputs = {t.text for t in reordering(AttackedText(item.question), constraints)} - {item.question}
        if outputs:
            reorderings[index] = sorted(outputs)
    return reorderings


def reordering_count(source: Path) -> int:
    """How many examples ``--sample 0.2`` (seed 0) perturbs by reordering: those of the dataset's
    one sample of ceil(N / 5) that have a reordering (see the module docstring)."""
    items = text2sql_items(source, splits="train")
    sample = sample_indices(0.2, len(items), seed=0)
    assert len(sample) == paper_sample_size(len(items))
    reorderings = training_reorderings(source)
    return sum(
        any(items[index].accept(output) for output in reorderings[index]) for index in sample if index in reorderings
    )


def added_examples(path: Path, source: Path) -> list:
    """The sentences of ``path`` that are not sentences of ``source`` (question, gold and split)."""
    original = Counter((e.question, e.gold, e.question_split) for e in load_text2sql(source))
    added = []
    for example in load_text2sql(path):
        key = (example.question, example.gold, example.question_split)
        if original[key]:
            original[key] -= 1
        else:
            added.append(example)
    assert not +original, f"{path} lost original sentences: {+original}"
    return added


@pytest.fixture(scope="module")
def geo_mini_mda(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``augment --recipe semparse-mda --sample 0.2 --dataset geo-mini-question-train --no-judge``
    (every offline operation; no judge: see the module docstring)."""
    output = tmp_path_factory.mktemp("mda") / "geo-mini-mda.json"
    code = augment("--recipe", "semparse-mda", "--sample", "0.2", "--dataset", "geo-mini-question-train",
                   "--output", str(output), "--no-judge")
    assert code == 0
    return output


# The rule


@pytest.mark.parametrize("population", [70, 549, 536, 600, 5, 1])
def test_sample_size_is_the_ceiling_of_a_fifth(population: int) -> None:
    assert sample_size(0.2, population) == paper_sample_size(population)


def test_sample_size_rounds_up_where_rounding_would_round_down() -> None:
    # GeoQuery's query-split training set: 0.2 x 536 = 107.2, so 108 (round() would give 107).
    assert sample_size(0.2, 536) == 108 and round(0.2 * 536) == 107


@pytest.mark.parametrize("fraction", [0.0, -0.2, 1.01])
def test_sample_fraction_outside_zero_one_is_refused(fraction: float) -> None:
    with pytest.raises(ValueError, match=r"\(0, 1\]"):
        sample_size(fraction, 10)


def test_geo_mini_training_split_gives_the_rule_s_size() -> None:
    train = select_split(load_text2sql(geo_mini_paths()[0]), "question", "train")
    items = text2sql_items(geo_mini_paths()[0], splits="train")
    assert len(items) == len(train) == 70
    assert sample_size(0.2, len(items)) == paper_sample_size(70) == 14


# sample_operation


def test_one_sample_of_a_fifth_per_dataset_with_a_seed() -> None:
    assert len(sample_indices(0.2, 549, seed=0)) == paper_sample_size(549) == 110
    assert sample_indices(0.2, 100, seed=0) == sample_indices(0.2, 100, seed=0)
    assert sample_indices(0.2, 100, seed=1) != sample_indices(0.2, 100, seed=0)
    assert list(sample_indices(0.2, 100, seed=0)) == sorted(set(sample_indices(0.2, 100, seed=0)))


def test_every_operation_perturbs_the_same_sample() -> None:
    items = [AugmentationItem(f"question {n}", (), lambda new: True) for n in range(100)]
    sample = sample_indices(0.2, len(items), seed=0)

    def suffix(question: str, literals) -> list[str]:
        return [question + " please"]

    def prefix(question: str, literals) -> list[str]:
        return ["please " + question]

    first, other = (sample_operation(name, items, op, indices=sample) for name, op in (("a", suffix), ("b", prefix)))
    assert set(first.augmented) == set(other.augmented) == set(sample)
    assert first.size == first.tried == len(sample) == 20


def test_unperturbable_sampled_examples_get_no_augmentation_and_are_not_replaced() -> None:
    questions = [f"what is the population of city {n}" for n in range(10)] + ["texas"] * 10
    items = [AugmentationItem(question, (), lambda new: True) for question in questions]
    sample = sample_indices(0.2, len(items), seed=3)

    def drop_what(question: str, literals) -> list[str]:
        return [question.replace("what is", "what's")] if question.startswith("what is") else [question]

    result = sample_operation("contraction", items, drop_what, indices=sample, seed=3)
    perturbable = [index for index in sample if questions[index].startswith("what is")]
    assert set(result.augmented) == set(perturbable)
    assert result.unperturbable == len(sample) - len(perturbable) and result.tried == len(sample) == 4


def test_rejected_outputs_do_not_count_toward_the_sample() -> None:
    items = [AugmentationItem(f"rivers in ohio {n}", ("ohio",), lambda new: "ohio" in new) for n in range(10)]
    sample = sample_indices(0.2, len(items))
    result = sample_operation("delete", items, lambda question, literals: [question.replace("ohio ", "")], indices=sample)
    assert result.augmented == {} and result.rejected == 2 and result.size == 2


def test_replaying_refuses_a_question_out_of_order() -> None:
    items = [AugmentationItem("how big is texas", (), lambda new: True)]
    replay = replaying(items, {0: ["how large is texas"]})
    assert replay("how big is texas") == ["how large is texas"]
    with pytest.raises(RuntimeError, match="input file changed"):
        replaying(items, {})("how big is ohio")


def test_operation_output_path_is_stem_operation_suffix() -> None:
    assert operation_output_path(Path("d/geo.json"), "substitution-f") == Path("d/geo.substitution-f.json")


# The command on geo-mini (every offline operation)


def test_one_file_per_operation_with_the_rule_s_count(geo_mini_mda: Path) -> None:
    source = geo_mini_paths()[0]
    total = len(load_text2sql(source))
    assert 0 < reordering_count(source) < paper_sample_size(70) == 14  # a sampled example reordering cannot perturb
    for operation in MDA_OPERATIONS:
        path = operation_output_path(geo_mini_mda, operation)
        assert path.is_file(), f"no file for {operation}"
        added = len(added_examples(path, source))
        assert len(load_text2sql(path)) == total + added, operation
        assert 0 < added <= 14, operation
    assert len(added_examples(operation_output_path(geo_mini_mda, "reordering"), source)) == reordering_count(source)


def added_after_each_line(path: Path, originals: list[str]) -> dict[str, list[str]]:
    """Original TSV line -> the lines augmented from it (the file functions write them right after it)."""
    added: dict[str, list[str]] = {}
    source = None
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        if line in originals:
            source = line
            added[source] = []
        else:
            added[source].append(line)
    return added


def test_each_operation_adds_exactly_its_perturbations_of_the_one_sample(tmp_path: Path) -> None:
    # With --sample 1 every example is perturbed by each function-word operation (each example's
    # output drawn from the same per-example seed); the 20% run must add exactly those of the
    # examples in its one sample, and nothing for the others.
    source = tmp_path / "geo.tsv"
    source.write_text(GEO_LINES, encoding="utf-8")
    lines = GEO_LINES.splitlines(keepends=True)
    sampled_lines = {lines[index] for index in sample_indices(0.2, len(lines), seed=0)}
    assert len(sampled_lines) == paper_sample_size(len(lines)) == 2
    runs = {}
    for fraction in ("1", "0.2"):
        runs[fraction] = tmp_path / f"mda-{fraction}.tsv"
        assert augment("--recipe", "semparse-function-words", "--sample", fraction, "--input", str(source),
                       "--output", str(runs[fraction]), "--no-judge") == 0
    for operation in FUNCTION_WORD_OPERATIONS:
        every = added_after_each_line(operation_output_path(runs["1"], operation), lines)
        sampled = added_after_each_line(operation_output_path(runs["0.2"], operation), lines)
        assert sampled == {line: every[line] if line in sampled_lines else [] for line in lines}, operation


def test_sampled_examples_are_training_examples_with_their_gold_unchanged(geo_mini_mda: Path) -> None:
    source = geo_mini_paths()[0]
    entries = json.loads(source.read_text(encoding="utf-8"))
    for operation in MDA_OPERATIONS:
        written = json.loads(operation_output_path(geo_mini_mda, operation).read_text(encoding="utf-8"))
        assert len(written) == len(entries)
        for before, after in zip(entries, written):
            assert after["sql"] == before["sql"] and after["variables"] == before["variables"]
            assert after["sentences"][: len(before["sentences"])] == before["sentences"]
            for sentence in after["sentences"][len(before["sentences"]) :]:
                assert sentence["question-split"] == "train", operation
                assert any(sentence["variables"] == s["variables"] for s in before["sentences"])
    # and the filled gold queries of the added questions are exactly those of training questions
    train_golds = {e.gold for e in select_split(load_text2sql(source), "question", "train")}
    for operation in MDA_OPERATIONS:
        assert {e.gold for e in added_examples(operation_output_path(geo_mini_mda, operation), source)} <= train_golds


def test_union_is_the_original_plus_every_operation_s_set(geo_mini_mda: Path) -> None:
    source = geo_mini_paths()[0]
    per_operation = Counter()
    for operation in MDA_OPERATIONS:
        per_operation.update(
            {(e.question, e.gold) for e in added_examples(operation_output_path(geo_mini_mda, operation), source)}
        )
    union = Counter((e.question, e.gold) for e in added_examples(geo_mini_mda, source))
    assert set(union) == set(per_operation)
    assert sum(union.values()) == len(per_operation)  # a question two operations both made is written once
    assert len(per_operation) <= len(MDA_OPERATIONS) * paper_sample_size(70)


def test_operations_perturb_one_sample(geo_mini_mda: Path) -> None:
    # One sample of 14 training examples for all five operations: the entries they changed are
    # those of at most 14 examples (five independent samples of 14 would change more).
    source = geo_mini_paths()[0]
    original = json.loads(source.read_text(encoding="utf-8"))
    changed = set()
    for operation in MDA_OPERATIONS:
        written = json.loads(operation_output_path(geo_mini_mda, operation).read_text(encoding="utf-8"))
        changed |= {i for i, (a, b) in enumerate(zip(original, written)) if a != b}
    assert 0 < len(changed) <= paper_sample_size(70)


def test_same_seed_writes_the_same_files_and_another_seed_another_sample(tmp_path: Path) -> None:
    runs = {}
    for name, seed in (("a", "0"), ("b", "0"), ("c", "5")):
        output = tmp_path / name / "mda.json"
        output.parent.mkdir()
        assert augment("--recipe", "semparse-function-words", "--sample", "0.2", "--dataset",
                       "geo-mini-question-train", "--output", str(output), "--seed", seed) == 0
        runs[name] = {op: operation_output_path(output, op).read_bytes() for op in FUNCTION_WORD_OPERATIONS}
        runs[name]["union"] = output.read_bytes()
    assert runs["a"] == runs["b"]
    assert runs["a"]["insertion"] != runs["c"]["insertion"]


def test_summary_names_each_file_and_its_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "mda.json"
    assert augment("--recipe", "semparse-function-words", "--sample", "0.2", "--dataset",
                   "geo-mini-question-train", "--output", str(output), "--perturbation", "deletion") == 0
    out = capsys.readouterr().out
    assert "ceil(0.2 x 70) = 14 of 70" in out
    assert "huang-2021 rule: 1 at random; word_list=huang-2021" in out
    added = len(added_examples(operation_output_path(output, "deletion"), geo_mini_paths()[0]))
    assert 0 < added <= 14
    assert f"({added} augmented: deletion) to {operation_output_path(output, 'deletion')}" in out
    assert f"({added} augmented: union) to {output}" in out
    assert not operation_output_path(output, "insertion").exists()


# Which output: the paper's rule per operation


def test_reordering_keeps_the_output_sentence_bert_ranks_highest(tmp_path: Path) -> None:
    # "reordering keep[s] the candidate Sentence-BERT ranks highest" (Huang et al. 2021): every
    # perturbable geo-mini training question (--sample 1), each reordering candidate scored here
    # by the cosine of its all-MiniLM-L6-v2 embedding to the question's.
    output = tmp_path / "mda.json"
    assert augment("--recipe", "semparse-mda", "--sample", "1", "--dataset", "geo-mini-question-train",
                   "--output", str(output), "--perturbation", "reordering") == 0
    added = {e.question for e in added_examples(operation_output_path(output, "reordering"), geo_mini_paths()[0])}
    items = text2sql_items(geo_mini_paths()[0], splits="train")
    reorderings = {items[index].question: outputs for index, outputs in training_reorderings(geo_mini_paths()[0]).items()}
    texts = list(dict.fromkeys(text for question, outputs in reorderings.items() for text in (question, *outputs)))
    embedding = dict(zip(texts, SentenceEmbeddings().encode(texts)))
    highest, lower = set(), set()
    for question, outputs in reorderings.items():
        cosines = [torch.cosine_similarity(embedding[question], embedding[output], dim=0).item() for output in outputs]
        best = max(cosines)
        highest.update(output for output, cosine in zip(outputs, cosines) if cosine == best)
        lower.update(output for output, cosine in zip(outputs, cosines) if cosine < best)
    assert added and added <= highest
    assert lower and not added & lower  # the questions with several reorderings got their top one


def test_insertion_inserts_any_stop_word_of_the_paper_s_list(geo_mini_mda: Path) -> None:
    # "the function-word operations [keep] a random one" of their candidates, a function word
    # being any word of the paper's stop-word list, not only the default meaning-preserving classes.
    originals = {tuple(item.question.split()) for item in text2sql_items(geo_mini_paths()[0], splits="train")}
    inserted = set()
    for example in added_examples(operation_output_path(geo_mini_mda, "insertion"), geo_mini_paths()[0]):
        words = example.question.split()
        inserted |= {words[i] for i in range(len(words)) if tuple(words[:i] + words[i + 1 :]) in originals}
    default = frozenset().union(*(load_function_word_classes()[name] for name in MEANING_PRESERVING_CLASSES))
    assert inserted <= set(load_word_list("huang-2021"))
    assert inserted - default, f"only default-class words inserted: {sorted(inserted)}"


# Other formats


def test_tsv_per_operation_files_keep_logical_forms_byte_for_byte(tmp_path: Path) -> None:
    source = tmp_path / "geo.tsv"
    source.write_text(GEO_LINES, encoding="utf-8")
    output = tmp_path / "mda.tsv"
    assert augment("--recipe", "semparse-function-words", "--sample", "0.2", "--input", str(source),
                   "--output", str(output)) == 0
    lines = GEO_LINES.splitlines(keepends=True)
    logical_forms = {line.split("\t")[1] for line in lines}
    for operation in FUNCTION_WORD_OPERATIONS:
        written = operation_output_path(output, operation).read_text(encoding="utf-8").splitlines(keepends=True)
        assert len(written) == len(lines) + paper_sample_size(len(lines)) == 8
        assert all(line in written for line in lines)
        assert {line.split("\t")[1] for line in written} == logical_forms


def test_csv_sample_protects_the_gold_column(tmp_path: Path) -> None:
    source = tmp_path / "in.csv"
    rows = [
        {"question": "what is the population density of texas", "sql": 'SELECT population / area FROM state WHERE state_name = "texas"'},
        {"question": "how many people live in boston", "sql": "SELECT population / 1000 FROM city WHERE city_name = 'boston'"},
        {"question": "what is the capital of ohio", "sql": "SELECT capital FROM state WHERE state_name = 'ohio'"},
    ]
    with source.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["question", "sql"])
        writer.writeheader()
        writer.writerows(rows)
    output = tmp_path / "out.csv"
    assert augment("--recipe", "semparse-function-words", "--sample", "0.2", "--input", str(source), "--input-column",
                   "question", "--gold-column", "sql", "--output", str(output), "--perturbation", "insertion") == 0
    with operation_output_path(output, "insertion").open(newline="", encoding="utf-8") as handle:
        written = list(csv.DictReader(handle))
    assert len(written) == len(rows) + paper_sample_size(len(rows)) == 4
    added = [row for row in written if row not in rows]
    assert len(added) == 1 and added[0]["sql"] in {row["sql"] for row in rows}
    value = next(v for v in ("texas", "boston", "ohio") if v in added[0]["sql"])
    assert value in added[0]["question"].split()


# Errors


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--sample", "0"], "--sample must be a fraction in (0, 1]"),
        (["--sample", "1.5"], "--sample must be a fraction in (0, 1]"),
        (["--sample", "0.2", "--pct-words-to-swap", "0.2"], "--pct-words-to-swap do not apply with --sample"),
        (["--split", "train"], "--format/--split/--split-type apply to --input only"),
    ],
)
def test_bad_sample_options_are_clear_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    code = augment("--recipe", "semparse-mda", "--dataset", "geo-mini-question-train",
                   "--output", str(tmp_path / "o.json"), *arguments)
    assert code == 2 and message in capsys.readouterr().err


def test_sample_needs_a_recipe_of_named_operations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = augment("--recipe", "nucle-augment", "--sample", "0.2", "--dataset", "geo-mini-question-train",
                   "--output", str(tmp_path / "o.json"))
    assert code == 2 and "not made of named perturbations" in capsys.readouterr().err


def test_an_existing_operation_file_needs_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    output = tmp_path / "o.json"
    operation_output_path(output, "deletion").write_text("keep me", encoding="utf-8")
    code = augment("--recipe", "semparse-function-words", "--sample", "0.2", "--dataset", "geo-mini-question-train",
                   "--output", str(output))
    assert code == 2 and "--overwrite" in capsys.readouterr().err
    assert operation_output_path(output, "deletion").read_text(encoding="utf-8") == "keep me"
    assert not output.exists()


def test_a_named_operation_without_its_model_stops_before_anything_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    output = tmp_path / "o.json"
    code = augment("--recipe", "semparse-mda", "--sample", "0.2", "--dataset", "geo-mini-question-train",
                   "--output", str(output), "--perturbation", "deletion", "--perturbation", "backtranslation")
    assert code == 2 and "Perturbation 'backtranslation' cannot run here" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_unknown_dataset_suggests_the_closest(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = augment("--recipe", "semparse-mda", "--dataset", "geo-mini-question-trian", "--output", str(tmp_path / "o"))
    assert code == 2 and "Did you mean 'geo-mini-question-train'" in capsys.readouterr().err


# The real GeoQuery


def test_real_geoquery_training_split_per_operation(real_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    source = real_data_dir / "text2sql" / "geography.json"
    train = select_split(load_text2sql(source), "question", "train")
    assert (len(train), paper_sample_size(len(train))) == (549, 110)
    output = tmp_path / "geography-mda.json"
    code = augment("--recipe", "semparse-mda", "--sample", "0.2", "--dataset", "geo-question-train",
                   "--output", str(output), "--no-judge")
    assert code == 0
    operations = MDA_OPERATIONS
    train_golds = {example.gold for example in train}
    total = len(load_text2sql(source))
    for operation in operations:
        path = operation_output_path(output, operation)
        added = added_examples(path, source)
        assert 0 < len(added) <= 110 and len(load_text2sql(path)) == total + len(added), operation
        assert all(e.question_split == "train" and e.gold in train_golds for e in added), operation
    assert len(added_examples(operation_output_path(output, "reordering"), source)) == reordering_count(source)
    assert len(added_examples(output, source)) <= len(operations) * paper_sample_size(len(train))
