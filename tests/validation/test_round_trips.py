"""Export -> people's judgments -> import, for every kind of source, on small data built here from
the embedded geo-mini; the validated copies are taken by the commands that read the originals:
``robustness evaluate`` and ``report`` (test sets, attack logs) and ``train --augment``
(augmented files), each run here as a real command."""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from importlib import resources
from pathlib import Path

import pytest

from tests.validation.validation_data import ANNOTATORS, annotate, geo_test_set
from textattack_semparse.cli import main
from textattack_semparse.experiments import validate
from textattack_semparse.llm.icl_results import ICL_TEST_SET_DIR
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.runs.run_context import RunContext, RunOptions

QUIET = RunOptions(progress=False)


@pytest.fixture(scope="module", autouse=True)
def geo_mini() -> Iterator[None]:
    """Registered geo datasets and knn-geo resolve to the embedded geo-mini."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SEMPARSE_DATA_DIR", "")
        yield


def export(tmp_path: Path, *sources: Path, **options) -> Path:
    directory = tmp_path / "export"
    validate.export(validate.ExportConfig(sources=sources, output_dir=directory, overwrite=True, **options), RunContext(QUIET))
    return directory


def import_(export_dir: Path, judgments: list[Path], output: Path, **options) -> validate.ImportResult:
    return validate.import_judgments(validate.ImportConfig(export_dir, judgments, output, **options), RunContext(QUIET))


def run_cli(*argv: str) -> None:
    assert main(list(argv)) == 0


def test_a_test_set_keeps_what_two_of_three_call_the_same_and_evaluate_and_report_take_it(tmp_path, capsys):
    source = tmp_path / "test-set"
    built = geo_test_set(source)
    exported = export(tmp_path, source)
    kept_deletion = {built.utterances["deletion"][0].perturbed}

    def label(item: dict) -> str:
        return "keep" if item["rewrite"].endswith("who is who") or item["rewrite"] in kept_deletion else "drop"

    result = import_(exported, annotate(exported, tmp_path, label), tmp_path / "validated")
    validated = RobustnessTestSet.read(tmp_path / "validated")
    assert validated.originals == RobustnessTestSet.read(source).originals
    assert [u.perturbed for u in validated.utterances["deletion"]] == sorted(kept_deletion)
    assert validated.utterances["distraction"] == built.utterances["distraction"]
    report = json.loads((tmp_path / "validated" / "validation.json").read_text())
    assert report["rule"] == "huang-2021" and report["annotators"] == list(ANNOTATORS)
    assert report["perturbations"] == {
        "deletion": {"judged": 4, "kept": 1, "acceptance": 25.0},
        "distraction": {"judged": 4, "kept": 4, "acceptance": 100.0},
    }
    assert report["overall"] == {"judged": 8, "kept": 5, "acceptance": 62.5}
    assert len(report["disputed"]) == 8  # no item was labelled alike by all three
    assert result.report.rewrites_kept == 5 and result.report.rewrites_dropped == 3

    validated_dir = tmp_path / "validated"  # evaluated in place, as `robustness build` + `evaluate` into one directory
    run_cli("robustness", "evaluate", "--input-dir", str(validated_dir), "--model", "knn-geo",
            "--output-dir", str(validated_dir), "--no-progress")  # fmt: skip
    figures = json.loads((validated_dir / "robustness.json").read_text())
    assert {name: figures["perturbations"][name]["utterances"] for name in ("deletion", "distraction")} == {"deletion": 1, "distraction": 4}
    run_cli("report", str(validated_dir), "--output", str(tmp_path / "report.html"))
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.count('<span class="side">rewrite</span>') == 5  # the kept rewrites, each an example
    assert page.count("<ins>who is who</ins>") == 4
    capsys.readouterr()


def test_a_perturbation_left_without_rewrites_is_listed_as_skipped(tmp_path):
    source = tmp_path / "test-set"
    geo_test_set(source)
    exported = export(tmp_path, source)
    import_(exported, annotate(exported, tmp_path, lambda item: "drop" if item["rewrite"].endswith("who is who") else "keep"), tmp_path / "out")
    validated = RobustnessTestSet.read(tmp_path / "out")
    assert validated.perturbations == ("deletion",)
    assert validated.skipped["distraction"] == "validation kept none of its 4 rewrites"


def test_an_icl_study_keeps_its_test_set_where_icl_reads_it(tmp_path):
    study = tmp_path / "icl"
    built = geo_test_set(study / ICL_TEST_SET_DIR)
    exported = export(tmp_path, study)
    assert json.loads((exported / "key.json").read_text())["sources"][0]["kind"] == "icl-run"
    import_(exported, annotate(exported, tmp_path, lambda item: "keep" if item["rewrite"].endswith("who is who") else "drop"), tmp_path / "out")
    validated = RobustnessTestSet.read(tmp_path / "out" / ICL_TEST_SET_DIR)
    assert validated.utterances["distraction"] == built.utterances["distraction"]
    assert "deletion" in validated.skipped


def test_best_of_k_keeps_the_candidate_the_experts_chose(tmp_path):
    source = tmp_path / "test-set"
    built = geo_test_set(source, typos=True)
    exported = export(tmp_path, source, task="best-of-k")
    items = [json.loads(line) for line in (exported / "items.jsonl").read_text().splitlines()]
    assert len(items) == 4 and all(len(item["candidates"]) == 3 for item in items)
    chosen = {}
    paths = []
    for annotator in ANNOTATORS:
        path = tmp_path / f"best-{annotator}.csv"
        rows = ["item_id,annotator,label"]
        for number, item in enumerate(items):
            if number == 0:  # all three: none keeps the meaning
                rows.append(f"{item['item_id']},{annotator},none")
                continue
            question_mark = next(c for c in item["candidates"] if c["rewrite"].endswith("?"))
            chosen[item["original"]] = question_mark["rewrite"]
            rows.append(f"{item['item_id']},{annotator},{question_mark['candidate_id']}")
        path.write_text("\n".join(rows) + "\n", encoding="utf-8")
        paths.append(path)
    import_(exported, paths, tmp_path / "out")
    validated = RobustnessTestSet.read(tmp_path / "out")
    assert {u.original: u.perturbed for u in validated.utterances["typo"]} == chosen
    assert len(chosen) == 3 and len(built.utterances["typo"]) == 12


def test_a_sample_leaves_the_unsampled_rewrites_out(tmp_path):
    source = tmp_path / "test-set"
    geo_test_set(source)
    exported = export(tmp_path, source, sample=3, seed=7)
    assert len((exported / "items.jsonl").read_text().splitlines()) == 3
    result = import_(exported, annotate(exported, tmp_path, lambda item: "keep"), tmp_path / "out")
    validated = RobustnessTestSet.read(tmp_path / "out")
    assert sum(map(len, validated.utterances.values())) == 3
    assert result.report.overall.judged == 3 and result.report.rewrites_dropped == 5


def test_unjudged_items_and_irregular_counts_are_reported(tmp_path):
    source = tmp_path / "test-set"
    geo_test_set(source)
    exported = export(tmp_path, source)
    files = annotate(exported, tmp_path, lambda item: None if item["rewrite"].endswith("who is who") else "keep")
    result = import_(exported, files[:2], tmp_path / "out")  # two annotators judged: both must say same
    assert len(result.report.unjudged) == 4
    assert result.report.overall.kept == 4  # "same", "same" from ann and bob
    assert set(result.report.irregular.values()) == {2}
    assert any("have no judgment" in note for note in result.notes)
    assert any("expects 3 judgments per item; 4 items have another number (4 with 2)" in note for note in result.notes)


@pytest.fixture(scope="module")
def attack_run(tmp_path_factory) -> Path:
    """A real attack of knn-geo (nucle-greedy, 3 geo-mini questions: 2 succeed), with TextAttack's CSV log."""
    from textattack_semparse.experiments.attack import AttackConfig, run

    output = tmp_path_factory.mktemp("attack") / "run"
    run(AttackConfig(recipe="nucle-greedy", model="knn-geo", output_dir=output, num_examples=3), RunContext(QUIET))
    return output


def test_an_attack_run_keeps_its_log_without_the_rejected_successes_and_report_takes_it(attack_run, tmp_path, capsys):
    lines = (attack_run / "attack_log.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    rows = list(csv.DictReader(lines))
    successes = [row for row in rows if row["result_type"] == "Successful"]
    assert len(successes) == 2 and "[[" in successes[0]["perturbed_text"]
    exported = export(tmp_path, attack_run)
    items = [json.loads(line) for line in (exported / "items.jsonl").read_text().splitlines()]
    assert sorted(item["original"] for item in items) == sorted(row["original_text"].replace("[[", "").replace("]]", "") for row in successes)
    assert all("[[" not in item["rewrite"] for item in items)
    rejected = items[0]["original"]
    import_(exported, annotate(exported, tmp_path, lambda item: "drop" if item["original"] == rejected else "keep"), tmp_path / "out")
    kept_lines = (tmp_path / "out" / "attack_log.csv").read_text(encoding="utf-8").splitlines(keepends=True)
    dropped = [line for line in lines if line not in kept_lines]
    assert len(kept_lines) == len(lines) - 1 and len(dropped) == 1  # every other row byte for byte
    assert rejected.split()[-1] in dropped[0] and '"Successful"' in dropped[0]
    run_cli("report", str(tmp_path / "out"), "--output", str(tmp_path / "report.html"))
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    kept = next(item for item in items if item["original"] != rejected)
    assert kept["rewrite"].split()[-1] in page and rejected not in page
    capsys.readouterr()


def test_a_textattack_log_file_is_validated_into_a_log_of_the_same_name(attack_run, tmp_path):
    log = tmp_path / "log.csv"
    log.write_bytes((attack_run / "attack_log.csv").read_bytes())
    exported = export(tmp_path, log)
    assert json.loads((exported / "key.json").read_text())["sources"][0]["kind"] == "attack-log"
    result = import_(exported, annotate(exported, tmp_path, lambda item: "keep"), tmp_path / "out")
    assert result.outputs == (tmp_path / "out" / "log.csv",)
    assert (tmp_path / "out" / "log.csv").read_bytes() == log.read_bytes()


@pytest.fixture(scope="module")
def augmented(tmp_path_factory) -> tuple[Path, Path]:
    """Four geo-mini entries and their real augmentation (semparse-function-words, training questions only)."""
    from textattack_semparse.experiments.augment import AugmentConfig, run

    folder = tmp_path_factory.mktemp("augment")
    geo = json.loads((resources.files("textattack_semparse") / "resources" / "geo_mini" / "geo-mini.json").read_text(encoding="utf-8"))
    original = folder / "train.json"
    original.write_text(json.dumps([entry for entry in geo if any(s["question-split"] == "train" for s in entry["sentences"])][:4], indent=4), encoding="utf-8")
    output = folder / "train-augmented.json"
    run(AugmentConfig(recipe="semparse-function-words", input=original, output=output, splits=("train",), transformations_per_example=2))
    return original, output


def test_an_augmented_file_keeps_the_accepted_questions_and_train_takes_it(augmented, tmp_path, capsys):
    from textattack_semparse.datasets.text2sql import load_text2sql

    original, output = augmented
    before = {example.question for example in load_text2sql(original)}
    added = [example.question for example in load_text2sql(output) if example.question not in before]
    assert len(added) >= 4
    exported = export(tmp_path, output, original=original)
    pairs = [json.loads(line) for line in (exported / "pairs.jsonl").read_text().splitlines()]
    assert sorted(pair["rewrite"] for pair in pairs) == sorted(added)
    assert all(pair["original"] in before and pair["perturbation"] == output.name for pair in pairs)
    keep = set(sorted(added)[::2])
    import_(exported, annotate(exported, tmp_path, lambda item: "keep" if item["rewrite"] in keep else "drop"), tmp_path / "out")
    validated = tmp_path / "out" / output.name
    assert sorted(example.question for example in load_text2sql(validated) if example.question not in before) == sorted(keep)
    assert {example.question for example in load_text2sql(validated)} >= before  # the originals stay
    model = tmp_path / "model"
    run_cli("train", "--benchmark", "geo-mini", "--output-dir", str(model), "--augment", str(validated), "--d-model", "16",
            "--d-ff", "32", "--layers", "1", "--heads", "2", "--max-steps", "2", "--device", "cpu")  # fmt: skip
    assert json.loads((model / "semparse_training.json").read_text())["extra_train_examples"] == len(keep)
    capsys.readouterr()


def test_an_augmented_file_needs_its_original(augmented, tmp_path):
    from textattack_semparse.errors import DatasetError

    with pytest.raises(DatasetError, match="name the file that was augmented with --original"):
        export(tmp_path, augmented[1])


@pytest.mark.parametrize("include_original", [True, False])
def test_an_augmented_tsv_file_pairs_each_line_with_its_source(tmp_path, include_original):
    from textattack_semparse.experiments.augment import AugmentConfig, run

    original = tmp_path / "train.tsv"
    original.write_text(
        "what is the capital of texas\tcapital(texas)\nhow many rivers are in ohio\tcount(river(ohio))\n"
        "what is the capital of ohio\tcapital(ohio)\n",
        encoding="utf-8",
    )
    output = tmp_path / "augmented.tsv"
    run(AugmentConfig(recipe="semparse-function-words", input=original, output=output, transformations_per_example=2,
                      exclude_original=not include_original))  # fmt: skip
    lines = output.read_text(encoding="utf-8").splitlines(keepends=True)
    sources = dict(line.rstrip("\n").split("\t")[::-1] for line in original.read_text().splitlines(keepends=True))
    exported = export(tmp_path, output, original=original)
    pairs = [json.loads(line) for line in (exported / "pairs.jsonl").read_text().splitlines()]
    assert pairs and all(sources[pair["gold"]] == pair["original"] for pair in pairs)
    assert len(pairs) == sum(line.split("\t")[0] not in sources.values() for line in lines)
    rejected = pairs[0]["rewrite"]
    import_(exported, annotate(exported, tmp_path, lambda item: "drop" if item["rewrite"] == rejected else "keep"), tmp_path / "out")
    assert (tmp_path / "out" / output.name).read_text(encoding="utf-8").splitlines(keepends=True) == [
        line for line in lines if not line.startswith(rejected + "\t")
    ]


def test_several_sources_each_get_their_copy(augmented, tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    geo_test_set(first)
    geo_test_set(second)
    exported = export(tmp_path, first, second, augmented[1], original=augmented[0])
    result = import_(exported, annotate(exported, tmp_path, lambda item: "keep"), tmp_path / "out")
    assert result.outputs == (tmp_path / "out" / "first", tmp_path / "out" / "second", tmp_path / "out" / augmented[1].name)
    assert RobustnessTestSet.read(tmp_path / "out" / "second").utterances == RobustnessTestSet.read(second).utterances


def test_each_validated_copy_names_its_validation_and_source_as_validation_json_reads_back(tmp_path):
    from textattack_semparse.errors import DatasetError
    from textattack_semparse.validation.validation_report import ValidationReport, validated_copy

    first, second = tmp_path / "first", tmp_path / "second"
    geo_test_set(first)
    geo_test_set(second, typos=True)
    both = import_(export(tmp_path, first, second), annotate(tmp_path / "export", tmp_path, lambda item: "keep"), tmp_path / "both")
    alone = import_(export(tmp_path / "one", second), annotate(tmp_path / "one" / "export", tmp_path, lambda item: "drop"), tmp_path / "alone")
    assert ValidationReport.read(tmp_path / "both" / "validation.json") == both.report
    assert ValidationReport.read(tmp_path / "alone" / "validation.json") == alone.report
    copies = {path: validated_copy(path) for path in (*both.outputs, *alone.outputs)}
    assert {path: (copy.validation, copy.source) for path, copy in copies.items() if copy is not None} == {
        tmp_path / "both" / "first": (both.report, first.resolve()),
        tmp_path / "both" / "second": (both.report, second.resolve()),
        tmp_path / "alone": (alone.report, second.resolve()),
    }
    assert validated_copy(first) is None and validated_copy(tmp_path / "both") is None  # a source; the folder of copies
    (tmp_path / "alone" / "validation.json").write_text('{"format": "textattack-semparse validation"}', encoding="utf-8")
    with pytest.raises(DatasetError, match="is a damaged validation report: KeyError"):
        validated_copy(tmp_path / "alone")


def test_the_original_may_be_the_registered_dataset_augment_read(tmp_path):
    from textattack_semparse.augmentation.dataset_files import dataset_file
    from textattack_semparse.datasets.text2sql import fill_placeholders

    entries = json.loads(dataset_file("geo-mini-question-train").path.read_text(encoding="utf-8"))
    added = []
    for entry in entries[:3]:  # one rewrite of the first training sentence of each, as augment adds it
        sentence = next(s for s in entry["sentences"] if s["question-split"] == "train")
        entry["sentences"].append(dict(sentence, text="please tell me " + sentence["text"]))
        added.append((fill_placeholders(sentence["text"], sentence["variables"]), "please tell me " + fill_placeholders(sentence["text"], sentence["variables"])))
    augmented = tmp_path / "geo-mini-augmented.json"
    augmented.write_text(json.dumps(entries, indent=4), encoding="utf-8")
    exported = export(tmp_path, augmented, original="geo-mini-question-train")
    pairs = [json.loads(line) for line in (exported / "pairs.jsonl").read_text().splitlines()]
    assert sorted((pair["original"], pair["rewrite"]) for pair in pairs) == sorted(added)


def test_a_source_moved_after_the_export_is_named(tmp_path):
    from textattack_semparse.errors import DatasetError

    source = tmp_path / "test-set"
    geo_test_set(source)
    exported = export(tmp_path, source)
    files = annotate(exported, tmp_path, lambda item: "keep")
    source.rename(tmp_path / "moved")
    with pytest.raises(DatasetError, match="a source of this export, no longer exists; restore it"):
        import_(exported, files, tmp_path / "out")
    assert not (tmp_path / "out").exists()
