"""``textattack-semparse validate`` on the command line: what it prints, and bad input refused in
one line naming the fix (exit 2, no traceback), with nothing left behind that refuses the
corrected command."""

from __future__ import annotations

import json

import pytest

from tests.helpers import run_command
from tests.validation.validation_data import annotate, geo_test_set

GEO_MINI = {"SEMPARSE_DATA_DIR": "", "HF_HUB_OFFLINE": "1"}


def cli(*args: str):
    return run_command("textattack-semparse", "validate", *map(str, args), env=GEO_MINI, timeout=300)


def refused(done, command: str) -> str:
    """The one line a refused command printed."""
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith(f"textattack-semparse validate {command}: error: "), lines[0]
    return lines[0]


@pytest.fixture()
def exported(tmp_path):
    source = tmp_path / "test-set"
    geo_test_set(source)
    done = cli("export", source, "--output-dir", tmp_path / "export", "--seed", "3")
    assert done.returncode == 0, done.stderr
    return tmp_path / "export"


def test_export_and_import_print_what_they_wrote(exported, tmp_path):
    files = annotate(exported, tmp_path, lambda item: "keep" if item["rewrite"].endswith("who is who") else "drop")
    done = cli("import", exported, *files, "--output-dir", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    assert "Rewrites kept by huang-2021" in done.stdout
    assert "3 annotators, 24 judgments" in done.stdout and "4 rewrites kept, 4 dropped" in done.stdout
    assert f"Wrote {tmp_path / 'out' / 'validation.json'}" in done.stdout


def test_export_prints_where_the_files_are(tmp_path):
    source = tmp_path / "test-set"
    geo_test_set(source)
    done = cli("export", source, "--output-dir", tmp_path / "export", "--task", "best-of-k", "--sample", "2")
    assert done.returncode == 0, done.stderr
    assert "Exported 2 best-of-k items from 8 rewrites of 1 source(s) (seed 0, a sample of 2)" in done.stdout
    assert "annotate.html (open it in a browser)" in done.stdout and "key.json (for validate import)" in done.stdout


def test_a_path_that_is_no_source_names_the_accepted_kinds(tmp_path):
    (tmp_path / "notes.md").write_text("hello", encoding="utf-8")
    line = refused(cli("export", tmp_path / "notes.md", "--output-dir", tmp_path / "export"), "export")
    assert "is no source of rewrites to validate" in line
    for kind in ("robustness test set", "ICL study", "attack run", "TextAttack CSV log", "augmented training file"):
        assert kind in line
    assert "does not exist" in refused(cli("export", tmp_path / "missing", "--output-dir", tmp_path / "x"), "export")
    assert not (tmp_path / "export").exists()


def test_exporting_over_an_export_needs_overwrite(exported):
    source = exported.parent / "test-set"
    line = refused(cli("export", source, "--output-dir", exported), "export")
    assert "holds an export already" in line and "--overwrite" in line
    assert cli("export", source, "--output-dir", exported, "--overwrite").returncode == 0


def test_import_of_a_directory_without_key_names_the_export_command(tmp_path):
    judgments = tmp_path / "j.csv"
    judgments.write_text("item_id,annotator,label\nx,ann,same\n", encoding="utf-8")
    line = refused(cli("import", tmp_path, judgments, "--output-dir", tmp_path / "out"), "import")
    assert "holds no key.json: not an export" in line and "validate export" in line
    assert not (tmp_path / "out").exists()


def test_a_failed_import_leaves_nothing_and_the_corrected_command_runs(exported, tmp_path):
    good = annotate(exported, tmp_path, lambda item: "keep")
    bad = tmp_path / "judgments-dan.csv"
    bad.write_text("item_id,annotator,label\nnot-an-item,dan,same\n", encoding="utf-8")
    output = tmp_path / "out"
    line = refused(cli("import", exported, *good, bad, "--output-dir", output), "import")
    assert "name items this export does not have" in line and "judgments-dan.csv:2" in line
    assert not output.exists() and not list(tmp_path.glob(".out.*"))
    malformed = tmp_path / "judgments-eve.csv"
    malformed.write_text('item_id,annotator,label\nx,"eve,same\n', encoding="utf-8")
    line = refused(cli("import", exported, malformed, "--output-dir", output), "import")
    assert "judgments-eve.csv" in line and not output.exists()
    assert cli("import", exported, *good, "--output-dir", output).returncode == 0
    assert json.loads((output / "validation.json").read_text())["overall"]["kept"] == 8


def test_an_existing_output_needs_overwrite(exported, tmp_path):
    files = annotate(exported, tmp_path, lambda item: "keep")
    assert cli("import", exported, *files, "--output-dir", tmp_path / "out").returncode == 0
    line = refused(cli("import", exported, *files, "--output-dir", tmp_path / "out", "--rule", "unanimous"), "import")
    assert "exists and is not empty" in line and "--overwrite" in line
    assert cli("import", exported, *files, "--output-dir", tmp_path / "out", "--rule", "unanimous", "--overwrite").returncode == 0
    assert json.loads((tmp_path / "out" / "validation.json").read_text())["rule"] == "unanimous"


def test_the_output_may_not_replace_a_source_or_the_export(exported, tmp_path):
    files = annotate(exported, tmp_path, lambda item: "keep")
    for target in (tmp_path / "test-set", exported, tmp_path):
        line = refused(cli("import", exported, *files, "--output-dir", target, "--overwrite"), "import")
        assert "which the import reads; write the validated copy to a new directory" in line
    assert (tmp_path / "test-set" / "manifest.json").is_file() and (exported / "key.json").is_file()


def test_a_platform_file_needs_its_columns(exported, tmp_path):
    item = json.loads((exported / "items.jsonl").read_text().splitlines()[0])["item_id"]
    results = tmp_path / "Batch_1_batch_results.csv"
    results.write_text(f'"WorkerId","Input.item_id","Answer.label"\n"W1","{item}","same"\n', encoding="utf-8")
    line = refused(cli("import", exported, results, "--output-dir", tmp_path / "out"), "import")
    assert "--columns item_id=Input.item_id,annotator=WorkerId,label=Answer.label" in line
    mapped = cli("import", exported, results, "--output-dir", tmp_path / "out", "--rule", "majority",
                 "--columns", "item_id=Input.item_id,annotator=WorkerId,label=Answer.label")  # fmt: skip
    assert mapped.returncode == 0, mapped.stderr
    assert "7 of 8 items have no judgment" in mapped.stdout
    line = refused(cli("import", exported, results, "--output-dir", tmp_path / "o2", "--columns", "worker=W"), "import")
    assert "--columns names the field 'worker'" in line


def test_a_source_changed_since_the_export_is_refused(exported, tmp_path):
    files = annotate(exported, tmp_path, lambda item: "keep")
    deletion = tmp_path / "test-set" / "deletion.jsonl"
    deletion.write_text(deletion.read_text().replace("is the capital", "is teh capital"), encoding="utf-8")
    line = refused(cli("import", exported, *files, "--output-dir", tmp_path / "out"), "import")
    assert "changed since the export" in line and "export it again" in line


def test_judge_and_agreement_on_the_command_line(exported, tmp_path):
    done = cli("judge", "--judge", "default", "--input", exported / "pairs.jsonl", "--output", tmp_path / "verdicts.jsonl")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Judge default: ") and f"Wrote {tmp_path / 'verdicts.jsonl'}" in done.stdout
    files = annotate(exported, tmp_path, lambda item: "keep" if item["rewrite"].endswith("who is who") else "drop")
    done = cli("agreement", tmp_path / "verdicts.jsonl", *files, "--output-json", tmp_path / "agreement.json")
    assert done.returncode == 0, done.stderr
    assert "by perturbation" in done.stdout and "deletion" in done.stdout and "Cohen's" in done.stdout
    assert json.loads((tmp_path / "agreement.json").read_text())["agreement"][0]["pairs"] == 8
    line = refused(cli("judge", "--judge", "defualt", "--input", exported / "pairs.jsonl", "--output", tmp_path / "v.jsonl"), "judge")
    assert "defualt" in line and "default" in line
    (tmp_path / "broken.jsonl").write_text('{"original": "a"}\n', encoding="utf-8")
    line = refused(cli("judge", "--judge", "default", "--input", tmp_path / "broken.jsonl", "--output", tmp_path / "v.jsonl"), "judge")
    assert "broken.jsonl:1 has no 'rewrite' string" in line


def test_usage_errors_are_one_line(tmp_path):
    done = cli("import", tmp_path)
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    assert "--help" in done.stderr
