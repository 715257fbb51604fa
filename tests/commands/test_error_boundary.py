"""One error boundary: every user mistake, through every command that runs a victim, is one line on
standard error naming the fix, exit status 2, no traceback, and leaves nothing that refuses the
corrected command in the same output directory.

The mistakes: a count that is no count (``--num-examples -3``), a misspelled victim, recipe, dataset
or perturbation, a directory that is not a model, a model that is not on this machine (a missing
path, or offline a hub name not in the cache), an unreadable dataset file, and a changed
configuration in a run directory. The commands: ``textattack-semparse attack``, ``grammar-attack``,
``robustness run``, ``evaluate`` and the stock ``textattack attack`` (through the plugin's import hook).
"""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
import textattack as _textattack_imported_first  # noqa: F401 - its log handler binds the sys.stderr of its first import: not a test's capsys
from huggingface_hub import constants

from textattack_semparse.cli import main
from textattack_semparse.datasets.benchmark import clear_benchmark_cache
from textattack_semparse.datasets.geo_mini import geo_mini_paths


@pytest.fixture(autouse=True)
def geo_mini(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    empty_cache = tmp_path / "hf-hub-cache"  # whatever this machine has cached, the hub models below are missing
    empty_cache.mkdir()
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(empty_cache))


@pytest.fixture
def not_a_model(tmp_path: Path) -> Path:
    folder = tmp_path / "checkpoints"
    folder.mkdir()
    (folder / "notes.txt").write_text("not a model")
    return folder


@pytest.fixture
def broken_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A real-data folder whose GeoQuery file is not JSON (``geo`` reads it when the folder is set)."""
    folder = tmp_path / "data" / "text2sql"
    folder.mkdir(parents=True)
    (folder / "geography.json").write_text('[{"sql": ["SELECT', encoding="utf-8")
    shutil.copyfile(geo_mini_paths()[1], folder / "geography.sqlite")
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(folder.parent))
    clear_benchmark_cache()
    yield folder.parent
    clear_benchmark_cache()


def repair(data_dir: Path) -> None:
    """The fix the error names: a readable GeoQuery file (here, the embedded geo-mini's)."""
    shutil.copyfile(geo_mini_paths()[0], data_dir / "text2sql" / "geography.json")
    clear_benchmark_cache()


def refused(run: Callable[[], int], capsys: pytest.CaptureFixture[str], *fix: str) -> str:
    """Run a mistaken command: exit 2, one line on stderr naming each of ``fix``, no traceback."""
    code = run()
    err = capsys.readouterr().err.strip()
    assert code == 2, err
    assert "\n" not in err and "Traceback" not in err and ": error: " in err, err
    for words in fix:
        assert words in err, err
    return err


def semparse(*argv: str) -> Callable[[], int]:
    return lambda: main(list(argv))


def textattack(*argv: str) -> Callable[[], int]:
    """``textattack ARGV`` in this process (TextAttack's own CLI, the plugin's hook installed)."""

    def run() -> int:
        from textattack.commands.textattack_cli import main as textattack_main

        saved = sys.argv
        sys.argv = ["textattack", *argv]
        try:
            textattack_main()
        except SystemExit as exit:
            return exit.code if isinstance(exit.code, int) else 1
        finally:
            sys.argv = saved
        return 0

    return run


MISSPELT = {
    "victim": (("--model", "knn-gep"), "Did you mean 'knn-geo'?"),
    "recipe": (("--recipe", "semparse-gep"), "Did you mean 'semparse-geo'?"),
    "dataset": (("--dataset", "geo-question-tset"), "Did you mean 'geo-question-test'?"),
}


def missing_models(folder: Path) -> list[tuple[str, str]]:
    """Victim names whose model is not on this machine (found before anything loads or is written), with the fix."""
    return [
        (f"seq2seq:{folder / 'no-such-model'}", "there is no such local directory"),
        (f"hf-causal:{folder / 'no-such-model.gguf'}", "there is no such file"),
        ("seq2seq:nobody/no-such-model", "not in this machine's Hugging Face cache; HF_HUB_OFFLINE is set"),
        ("hf-causal:nobody/no-such-lm", "huggingface-cli download nobody/no-such-lm --local-dir DIR"),
        ("tapex-wtq", "TapexParser could not load 'microsoft/tapex-large-finetuned-wtq'"),  # a registered victim's model
    ]


def test_attack(tmp_path, not_a_model, broken_data_dir, capsys):
    output = tmp_path / "attack"
    base = {"--recipe": "semparse-geo", "--model": "knn-geo", "--num-examples": "2", "--output-dir": str(output)}

    def attack(**changes: str) -> Callable[[], int]:
        options = {**base, **changes}
        return semparse("attack", *(part for pair in options.items() for part in pair), "--no-progress")

    refused(attack(**{"--num-examples": "-3"}), capsys, "--num-examples", "-1 (all) or a positive integer")
    for (flag, value), hint in MISSPELT.values():
        refused(attack(**{flag: value}), capsys, hint)
    refused(attack(**{"--model": str(not_a_model)}), capsys, "is not a model directory", "save_pretrained")
    for model, fix in missing_models(tmp_path):
        refused(attack(**{"--model": model}), capsys, fix)
    refused(attack(), capsys, "geography.json")  # the unreadable dataset file is named
    assert not output.exists()
    repair(broken_data_dir)
    no_judge_recipe = semparse("attack", "--recipe", "nucle-greedy", "--model", "knn-geo", "--num-examples", "2",
                               "--output-dir", str(output), "--no-progress", "--judge", "default")  # fmt: skip
    refused(no_judge_recipe, capsys, "'nucle-greedy' takes no option 'judge'", "applies no meaning judge")
    refused(attack(**{"--recipe-option": "max_words=2"}), capsys, "takes no option 'max_words'", "max_words_perturbed")
    assert not output.exists()
    assert attack()() == 0
    refused(attack(**{"--seed": "1"}), capsys, "random_seed: 0 then, 1 now", "another --output-dir", "--overwrite")
    assert semparse("attack", *(part for pair in base.items() for part in pair), "--seed", "1", "--overwrite")() == 0


def test_grammar_attack(tmp_path, not_a_model, capsys):
    output = tmp_path / "grammar"
    base = ("--model", "knn-geo", "--num-examples", "2", "--output-dir", str(output), "--no-progress")
    refused(semparse("grammar-attack", *base[:2], "--num-examples", "-3", *base[4:]), capsys, "--num-examples")
    refused(semparse("grammar-attack", "--model", "knn-gep", *base[2:]), capsys, MISSPELT["victim"][1])
    refused(semparse("grammar-attack", "--recipe", "nucle-gredy", *base), capsys, "Did you mean 'nucle-greedy'?")
    refused(semparse("grammar-attack", "--recipe", "semparse-geo", *base), capsys, "Use one of nucle-beam")
    refused(semparse("grammar-attack", *base, "--dataset", "geo-question-tset"), capsys, MISSPELT["dataset"][1])
    refused(semparse("grammar-attack", "--model", str(not_a_model), *base[2:]), capsys, "is not a model directory")
    assert not output.exists()
    assert semparse("grammar-attack", *base)() == 0
    refused(semparse("grammar-attack", *base, "--max-modification-rate", "0.3"), capsys, "--overwrite")


def test_robustness_run(tmp_path, not_a_model, broken_data_dir, capsys):
    output = tmp_path / "robustness"
    base = ("--model", "knn-geo", "--perturbations", "deletion", "--num-examples", "3", "--output-dir", str(output),
            "--no-progress")  # fmt: skip
    run = ("robustness", "run")
    refused(semparse(*run, *base[:4], "--num-examples", "-3", *base[6:]), capsys, "--num-examples", "positive integer")
    refused(semparse(*run, "--model", "knn-gep", *base[2:]), capsys, MISSPELT["victim"][1])
    refused(semparse(*run, *base, "--dataset", "geo-question-tset"), capsys, MISSPELT["dataset"][1])
    refused(semparse(*run, *base[:2], "--perturbations", "deletin", *base[4:]), capsys, "Did you mean 'deletion'?")
    refused(semparse(*run, "--model", str(not_a_model), *base[2:]), capsys, "is not a model directory")
    for model, fix in missing_models(tmp_path):
        refused(semparse(*run, "--model", model, *base[2:]), capsys, fix)
    refused(semparse(*run, *base), capsys, "geography.json")
    assert not output.exists()
    repair(broken_data_dir)
    assert semparse(*run, *base)() == 0
    refused(semparse(*run, *base, "--seed", "1"), capsys, "seed: 0 then, 1 now", "--overwrite")


def test_evaluate(not_a_model, broken_data_dir, capsys):
    base = ("--model", "knn-geo", "--num-examples", "3", "--no-progress")
    refused(semparse("evaluate", *base[:2], "--num-examples", "-3"), capsys, "argument --num-examples", "positive")
    refused(semparse("evaluate", "--model", "knn-gep"), capsys, MISSPELT["victim"][1])
    refused(semparse("evaluate", *base, "--dataset", "geo-question-tset"), capsys, MISSPELT["dataset"][1])
    refused(semparse("evaluate", "--model", str(not_a_model)), capsys, "is not a model directory")
    for model, fix in missing_models(not_a_model):
        refused(semparse("evaluate", "--model", model, *base[2:]), capsys, fix)
    refused(semparse("evaluate", *base), capsys, "geography.json")
    repair(broken_data_dir)
    assert semparse("evaluate", *base)() == 0


def test_textattack_attack(not_a_model, broken_data_dir, capsys):
    base = {"--recipe": "semparse-geo", "--model": "knn-geo", "--num-examples": "2"}

    def attack(**changes: str) -> Callable[[], int]:
        options = {**base, **changes}
        return textattack("attack", *(part for pair in options.items() for part in pair), "--silent")

    refused(attack(**{"--num-examples": "soon"}), capsys, "argument --num-examples")
    refused(attack(**{"--num-examples": "-3"}), capsys, "--num-examples must be -1 (all) or a positive integer")
    refused(attack(**{"--model": "knn-gep"}), capsys, MISSPELT["victim"][1])
    refused(attack(**{"--recipe": "semparse-gep"}), capsys, MISSPELT["recipe"][1])
    refused(attack(**{"--dataset-by-model": "geo-question-tset"}), capsys, MISSPELT["dataset"][1])
    refused(attack(**{"--model": str(not_a_model)}), capsys, "is not a model directory")
    refused(attack(), capsys, "geography.json")
    repair(broken_data_dir)
    assert attack()() == 0


@pytest.mark.real_data
def test_a_recipe_bound_to_sql_scoring_is_refused_for_a_logical_form_victim(real_data_dir, monkeypatch, tmp_path, capsys):
    """semparse-geo judges GeoQuery SQL by execution; knn-geo-lambda writes logical forms: every gold would be a
    gold error, so the pairing is refused up front (both CLIs), naming recipes that judge as geo-lambda does."""
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    clear_benchmark_cache()
    base = ("--recipe", "semparse-geo", "--model", "knn-geo-lambda", "--num-examples", "2")
    fix = ("judges outputs as benchmark 'geo' does", "belongs to benchmark 'geo-lambda'", "Use semparse-insertion")
    refused(semparse("attack", *base, "--output-dir", str(tmp_path / "run")), capsys, *fix)
    refused(textattack("attack", *base, "--silent"), capsys, *fix)
    assert not (tmp_path / "run").exists()
    assert semparse("attack", *base[2:], "--recipe", "semparse-insertion", "--output-dir", str(tmp_path / "run"))() == 0


def test_version_names_the_plugin_and_textattack(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    import textattack_semparse

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == (
        f"textattack-semparse {textattack_semparse.__version__} (textattack {version('textattack')})"
    )


def test_ctrl_c_is_one_line_with_the_command_that_continues_the_run(tmp_path, monkeypatch, capsys):
    """Interrupted after its first result, ``robustness run`` keeps it and names the command that
    continues; that command then finishes the run without computing the kept result again."""
    from textattack_semparse.runs.journal import Journal

    output = tmp_path / "robustness"
    argv = ["robustness", "run", "--model", "knn-geo", "--perturbations", "deletion", "--num-examples", "3",
            "--output-dir", str(output), "--no-progress"]  # fmt: skip
    append = Journal.append
    appended: list[tuple[Path, str]] = []

    def interrupted_after_the_first(self, key, value):
        append(self, key, value)
        appended.append((self.path, key))
        raise KeyboardInterrupt

    monkeypatch.setattr(Journal, "append", interrupted_after_the_first)
    assert main(argv) == 130
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    prefix = "textattack-semparse robustness run: interrupted. What was finished is kept; continue with: "
    assert err.startswith(prefix)
    continued = shlex.split(err[len(prefix) :])
    assert continued == ["textattack-semparse", *argv, "--resume"]
    monkeypatch.setattr(
        Journal, "append", lambda self, key, value: (appended.append((self.path, key)), append(self, key, value))
    )
    assert main(continued[1:]) == 0
    assert len(appended) > 2 and appended.count(appended[0]) == 1  # the kept result is not computed again


def test_ctrl_c_where_nothing_is_kept_says_so(monkeypatch, capsys):
    import textattack_semparse.commands.list_command as list_command

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(list_command, "run", interrupted)
    assert main(["list", "judge"]) == 130
    assert capsys.readouterr().err.strip() == "textattack-semparse list: interrupted. Nothing was kept."


def test_an_output_file_in_a_new_folder_is_written_and_a_file_in_the_way_is_one_line(tmp_path, capsys):
    written = tmp_path / "new" / "folder" / "report.json"
    assert main(["evaluate", "--model", "knn-geo", "--num-examples", "2", "--no-progress", "--output", str(written)]) == 0
    assert json.loads(written.read_text())["examples"] == 2
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("")
    for command in (
        ["evaluate", "--model", "knn-geo", "--num-examples", "2", "--no-progress"],
        ["augment", "--recipe", "semparse-function-words", "--dataset", "geo-mini-question-test"],
    ):
        refused(semparse(*command, "--output", str(in_the_way / "out.json")), capsys, "is not a folder")
    assert in_the_way.read_text() == ""


@pytest.mark.parametrize(
    ("content", "fix"),
    [
        (b'question,sql\n"how many rivers,SELECT 1\nwhat is texas,SELECT 2\n', "is never closed"),
        (b"question,sql\nhow many rivers,SELECT 1,extra\n", "more fields than the header's 2"),
        (b"question,sql\nhow many rivers\n", "fewer fields than the header's 2"),
        (b"question,sql\nhow many r\xe9ivers,SELECT 1\n", "is not UTF-8 (byte 0xe9"),
        (b"question,sql\n ,SELECT 1\n", "row 2 has an empty 'question'"),
    ],
    ids=["unbalanced-quote", "extra-field", "missing-field", "latin-1", "empty-question"],
)
def test_a_malformed_csv_is_one_line_before_anything_is_written(content, fix, tmp_path, capsys):
    source, output = tmp_path / "questions.csv", tmp_path / "augmented.csv"
    source.write_bytes(content)
    command = ("augment", "--recipe", "semparse-function-words", "--input", str(source), "--input-column", "question",
               "--gold-column", "sql", "--output", str(output))  # fmt: skip
    refused(semparse(*command), capsys, str(source), fix)
    assert not output.exists()
    source.write_text("question,sql\nhow many rivers are in texas,SELECT 1\n", encoding="utf-8")  # the corrected file
    assert semparse(*command)() == 0 and output.read_text(encoding="utf-8").startswith("question,sql\n")


def test_a_bare_hub_name_is_answered_with_the_prefixes_that_take_it(capsys):
    refused(semparse("evaluate", "--model", "t5-small", "--num-examples", "2"), capsys, "Unknown victim 't5-small'",
            "seq2seq:t5-small", "hf-causal:t5-small", "HF_HUB_OFFLINE=1")  # fmt: skip
    refused(semparse("evaluate", "--model", "seq2seq:t5-small", "--num-examples", "2"), capsys, "t5-small")


def test_a_perturbation_model_missing_offline_leaves_nothing_that_refuses_the_corrected_command(tmp_path, capsys):
    robustness = tmp_path / "robustness"
    run = ("robustness", "run", "--model", "knn-geo", "--num-examples", "2", "--no-progress", "--output-dir", str(robustness))
    refused(semparse(*run, "--perturbations", "backtranslation"), capsys, "'backtranslation' cannot run here")
    assert not robustness.exists()
    assert semparse(*run, "--perturbations", "deletion")() == 0
