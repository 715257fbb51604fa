"""The in-context-learning study (Zhuo et al. 2023, §4.2-4.3) on a tiny random causal LM: grid
expansion, the rows (the robustness report's metrics, the demonstrations' lexical diversity),
resuming from the journal of cells and from the response cache, and the errors."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import word_level_tokenizer
from textattack_semparse.errors import DatasetError, RegistryError, VictimError
from textattack_semparse.experiments import icl
from textattack_semparse.experiments.icl import CELLS_JOURNAL, ICLConfig
from textattack_semparse.llm.icl_grid import ICLCell, check_grid, default_test_perturbations, expand_grid
from textattack_semparse.llm.icl_results import ROW_FIELDS, _finite_or_text
from textattack_semparse.metrics.lexical_diversity import lexical_diversity
from textattack_semparse.robustness.evaluate_test_set import evaluate_test_set
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet
from textattack_semparse.runs.journal import Journal
from textattack_semparse.runs.run_context import RunContext, RunOptions
from textattack_semparse.runs.run_directory import RunConfigurationChanged
from textattack_semparse.victims.resolution import resolve_victim

DATASET = "geo-mini-question-test"


def run_icl_study(model: str, dataset: str, *, output_dir: Path, limit: int | None = None, **grid):
    """The study of ``ICLConfig`` as a Python user runs it (serial, no progress bar): its ``ICLStudy``."""
    config = ICLConfig(model=model, dataset=dataset, output_dir=output_dir, num_examples=limit, **grid)
    with RunContext(RunOptions(progress=False)) as context:
        return icl.run_study(config, context)


def journaled_cells(output: Path) -> list[str]:
    """The cells the study's journal holds, in the order they finished."""
    return list(Journal(output / f"{CELLS_JOURNAL}.jsonl").read())
GRID = {"shots": [0, 2], "selections": ["random", "cluster-tfidf"], "adversarial": ["none", "typo"]}
LIMIT = 3


def save_tiny_causal_lm(directory: Path) -> Path:
    """A randomly initialised one-layer GPT-2 over geo-mini's words (prompt, questions, queries), saved locally."""
    import torch
    import transformers

    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.victims.llm.prompts import DatabasePrompt

    geo = load_benchmark("geo-mini")
    words = DatabasePrompt(geo.database)("x").split()
    words += [word for example in geo.examples for word in f"{example.question} {example.gold}".split()]
    tokenizer = word_level_tokenizer(words)
    config = transformers.GPT2Config(
        vocab_size=len(tokenizer), n_layer=1, n_embd=16, n_head=2, n_positions=1024,
        bos_token_id=None, eos_token_id=1, pad_token_id=0,
    )
    with torch.random.fork_rng():
        torch.manual_seed(0)
        model = transformers.GPT2LMHeadModel(config)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> str:
    return f"hf-causal:{save_tiny_causal_lm(tmp_path_factory.mktemp('tiny-lm'))}?max_new_tokens=4"


@pytest.fixture(scope="module")
def cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("llm-cache")


@pytest.fixture(autouse=True)
def isolated_cache(cache, monkeypatch):
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(cache))


@pytest.fixture(scope="module")
def first_run(model, cache, tmp_path_factory):
    """The grid of the issue (shots 0 2 x random cluster-tfidf x none typo) on 3 questions, fresh cache."""
    output = tmp_path_factory.mktemp("study")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(cache))
        study = run_icl_study(model, DATASET, output_dir=output, limit=LIMIT, **GRID)
    return study, output


def test_the_grid_has_one_zero_shot_cell_and_crosses_the_rest():
    cells = expand_grid([0, 2, 0, 5], ["random", "cluster-tfidf"], ["none", "typo"])
    assert [cell.key for cell in cells] == [
        "0-shot",
        "2-shot_random_none",
        "2-shot_random_typo",
        "2-shot_cluster-tfidf_none",
        "2-shot_cluster-tfidf_typo",
        "5-shot_random_none",
        "5-shot_random_typo",
        "5-shot_cluster-tfidf_none",
        "5-shot_cluster-tfidf_typo",
    ]
    assert cells[0] == ICLCell(0, "-", "none")
    assert expand_grid([0], ["random"], ["typo"]) == [ICLCell(0)]


def test_cells_become_victim_names():
    assert ICLCell(0).victim_name("hf-causal:/m?max_new_tokens=4", 3) == "hf-causal:/m?max_new_tokens=4&shots=0"
    assert (
        ICLCell(5, "cluster-tfidf", "typo").victim_name("openai:m@http://h/v1", 3)
        == "openai:m@http://h/v1?shots=5&selection=cluster-tfidf&adversarial=typo&seed=3"
    )
    assert "adversarial" not in ICLCell(5, "random", "none").victim_name("hf-causal:/m", 0)


def test_default_test_perturbations_are_the_adversarial_ones():
    assert default_test_perturbations(["none", "typo", "deletion", "typo"]) == ["typo", "deletion"]
    assert default_test_perturbations(["none"]) == ["typo"]


@pytest.mark.parametrize(
    ("model", "dataset", "options", "error", "message"),
    [
        ("knn-geo", DATASET, {}, VictimError, "hf-causal:PATH"),
        ("hf-causal:/m?shots=3", DATASET, {}, VictimError, "drop them"),
        ("hf-causal:/m", DATASET, {"selections": ["rnadom"]}, ValueError, "Did you mean 'random'"),
        ("hf-causal:/m", DATASET, {"shots": [-1]}, ValueError, "ints >= 0"),
        ("hf-causal:/m", DATASET, {"adversarial": ["tpyo"]}, RegistryError, "typo"),
        ("hf-causal:/m", DATASET, {"perturbations": ["tpyo"]}, RegistryError, "typo"),
        ("hf-causal:/m", "geo-mini", {}, DatasetError, "geo-mini-question-test"),
    ],
)
def test_a_grid_that_cannot_run_fails_before_anything_is_written(model, dataset, options, error, message, tmp_path):
    grid = {"shots": [0, 2], "selections": ["random"], "adversarial": ["none"], "perturbations": [], **options}
    with pytest.raises(error, match=message):
        run_icl_study(model, dataset, output_dir=tmp_path / "out", **grid)
    with pytest.raises(error):
        check_grid(model, dataset, grid["shots"], grid["selections"], grid["adversarial"], grid["perturbations"])
    assert not (tmp_path / "out").exists()


def test_confidence_is_a_selection_of_local_models_only(tmp_path):
    """``--selection confidence`` ranks the pool by the zero-shot victim's own confidence: an
    hf-causal victim computes it, an OpenAI-compatible endpoint cannot, and the study says so first."""
    check_grid("hf-causal:/m", DATASET, [0, 2], ["confidence"], ["none"], [])
    with pytest.raises(VictimError, match="cannot compute"):
        run_icl_study("openai:m@http://127.0.0.1:1/v1", DATASET, output_dir=tmp_path / "out", shots=[2],
                      selections=["confidence"], adversarial=["none"], perturbations=[])
    assert not (tmp_path / "out").exists()


def test_rows_hold_the_reports_metrics_and_the_demonstrations_diversity(first_run, model):
    study, output = first_run
    keys = [result.cell.key for result in study.cells]
    assert keys == [cell.key for cell in expand_grid(GRID["shots"], GRID["selections"], GRID["adversarial"])]
    rows = study.rows()
    assert len(rows) == 5 and all(tuple(row) == ROW_FIELDS for row in rows)
    assert {row["perturbation"] for row in rows} == {"typo"}
    for result, row in zip(study.cells, rows):
        metrics = result.report.perturbations["typo"]
        assert row["cell"] == result.cell.key and row["shots"] == result.cell.shots
        assert [row[name] for name in metrics.rates()] == list(metrics.rates().values())
        assert row["originals_standard_accuracy"] == result.report.standard_accuracy
        assert result.report.original_examples == LIMIT and result.report.victim == result.victim
        assert row["cache_misses"] > 0 and not result.reused
        assert result.cell.key in journaled_cells(output)
        victim, _ = resolve_victim(result.victim, dataset=DATASET)
        questions = [example.question for example in victim.demonstrations]
        assert row["demonstrations"] == len(questions) == len(result.demonstrations)
        if result.cell.shots == 0:
            assert row["selection"] == "-" and questions == [] and row["demo_ttr"] is None
            continue
        expected = lexical_diversity(questions)
        assert (row["demo_tokens"], row["demo_types"], row["demo_ttr"], row["demo_yules_i"], row["demo_mtld"]) == (
            expected.tokens, expected.types, expected.ttr, expected.yules_i, expected.mtld,
        )
        if result.cell.adversarial == "typo":
            assert 2 < len(questions) <= 4  # each demonstration the typo can change is followed by its copy


def test_a_cell_report_is_what_robustness_evaluation_gives(first_run):
    study, output = first_run
    result = study.cells[2]  # 2-shot random typo
    victim, _ = resolve_victim(result.victim, dataset=DATASET)
    report = evaluate_test_set(victim, RobustnessTestSet.read(output / "test_set"), victim_name=result.victim)
    assert report.to_json() == result.report.to_json()
    assert victim.cache_counts().misses == 0  # every completion came from the cache


def test_a_second_run_reads_every_cell_and_builds_no_victim(first_run, model, monkeypatch):
    study, output = first_run
    monkeypatch.setattr(icl, "_victim", lambda *args: pytest.fail("a finished cell was run again"))
    again = run_icl_study(model, DATASET, output_dir=output, limit=LIMIT, **GRID)
    assert all(result.reused for result in again.cells)
    assert again.rows() == study.rows()
    assert json.dumps(again.to_json()) == json.dumps(study.to_json())


def test_without_the_journal_a_rerun_generates_nothing(first_run, model, tmp_path):
    study, output = first_run
    copy = tmp_path / "study"
    shutil.copytree(output, copy)
    (copy / f"{CELLS_JOURNAL}.jsonl").unlink()
    again = run_icl_study(model, DATASET, output_dir=copy, limit=LIMIT, **GRID)
    assert [row["cache_misses"] for row in again.rows()] == [0] * 5
    assert all(row["cache_hits"] > 0 for row in again.rows())
    strip = lambda row: {key: value for key, value in row.items() if not key.startswith("cache_")}  # noqa: E731
    assert [strip(row) for row in again.rows()] == [strip(row) for row in study.rows()]


def test_a_killed_run_loses_only_the_cell_in_flight(model, tmp_path, monkeypatch):
    from textattack_semparse.robustness import evaluate_test_set as evaluation

    real, calls = evaluation.evaluate_test_set, []

    def dies_on_the_second_cell(*args, **kwargs):
        calls.append(kwargs["victim_name"])
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    grid = {"shots": [0, 2], "selections": ["random"], "adversarial": ["none"], "limit": 2}
    monkeypatch.setattr(evaluation, "evaluate_test_set", dies_on_the_second_cell)
    with pytest.raises(KeyboardInterrupt):
        run_icl_study(model, DATASET, output_dir=tmp_path, **grid)
    assert journaled_cells(tmp_path) == ["0-shot"]
    monkeypatch.setattr(evaluation, "evaluate_test_set", real)
    grid["adversarial"] = ["none", "typo"]  # a grown grid re-uses what is done
    study = run_icl_study(model, DATASET, output_dir=tmp_path, **grid)
    assert [(result.cell.key, result.reused) for result in study.cells] == [
        ("0-shot", True),
        ("2-shot_random_none", False),
        ("2-shot_random_typo", False),
    ]


def test_another_study_in_the_same_directory_is_refused(first_run, model):
    _, output = first_run
    with pytest.raises(RunConfigurationChanged, match="seed: 0 then, 1 now"):
        run_icl_study(model, DATASET, output_dir=output, limit=LIMIT, seed=1, **GRID)


def test_json_writes_infinite_diversity_as_text(first_run, tmp_path):
    study, _ = first_run
    text = json.dumps(study.to_json(), allow_nan=False)  # strict JSON: no Infinity
    data = json.loads(text)
    assert data["format"] == "textattack-semparse icl result" and len(data["cells"]) == 5
    assert data["rows"] == [json.loads(json.dumps(_finite_or_text(row))) for row in study.rows()]


def test_the_cells_load_the_model_once(model, tmp_path, monkeypatch):
    from textattack_semparse.victims.llm.causal_lm_parser import CausalLMParser

    real, loads = CausalLMParser._load, []
    monkeypatch.setattr(CausalLMParser, "_load", lambda self: loads.append(self.model_id) or real(self))
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path / "fresh-cache"))  # every cell generates
    grid = {"shots": [0, 1], "selections": ["random"], "adversarial": ["none"], "limit": 1}
    study = run_icl_study(model, DATASET, output_dir=tmp_path / "study", **grid)
    assert [result.cache.misses > 0 for result in study.cells] == [True, True] and len(loads) == 1


def test_confidence_selection_takes_the_questions_the_zero_shot_victim_is_least_sure_of(model):
    """The confidence of a question is the mean log-probability of the tokens of the zero-shot
    victim's greedy completion, recomputed here by a forward pass over prompt + completion."""
    import torch

    victim = resolve_victim(f"{model}&shots=2&selection=confidence", dataset=DATASET)[0]
    pool = list(dict.fromkeys(example.question for example in victim.benchmark.split("question", "train")))[:6]
    confidences = victim.zero_shot_confidence(pool)
    tokenizer, network = victim.tokenizer, victim.model
    for question, confidence in zip(pool, confidences):
        prompt_ids = tokenizer(victim.prompt(question, []))["input_ids"]
        with torch.inference_mode():
            prompt = torch.tensor([prompt_ids])
            generated = network.generate(
                prompt, token_type_ids=torch.zeros_like(prompt), do_sample=False, max_new_tokens=4,
                pad_token_id=tokenizer.pad_token_id,
            )[0].tolist()
            sequence = torch.tensor([generated])  # the tokenizer gives token type ids, which GPT-2 embeds
            logits = network(sequence, token_type_ids=torch.zeros_like(sequence)).logits
            log_probs = torch.log_softmax(logits[0].float(), dim=-1)
        new = generated[len(prompt_ids):]
        length = victim._completion_length(new)
        expected = sum(float(log_probs[len(prompt_ids) + i - 1, token]) for i, token in enumerate(new[:length])) / length
        assert confidence == pytest.approx(expected, abs=1e-4)
    ranked = sorted(range(len(pool)), key=lambda index: (confidences[index], index))
    from textattack_semparse.victims.llm.few_shot_selection import ConfidenceSelector

    chosen = ConfidenceSelector(victim.zero_shot_confidence).select(
        [example for example in victim.benchmark.split("question", "train") if example.question in pool], 2
    )
    assert [example.question for example in chosen] == [pool[index] for index in ranked[:2]]
    assert type(victim.selector).__name__ == "ConfidenceSelector"
