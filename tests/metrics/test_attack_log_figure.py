"""AttackLogFigure: the plugin's rows of TextAttack's summary, computed as from the CSV log."""

from __future__ import annotations

import json

from textattack.loggers import JsonSummaryLogger

from textattack_semparse.metrics.attack_log_figure import AttackLogFigure
from textattack_semparse.metrics.attack_metrics import metrics_from_rows


class _Output:
    def __init__(self, output: str) -> None:
        self.output = output


class _Result:
    """Stands in for a TextAttack AttackResult: the figure reads only these members."""

    def __init__(self, original: str, perturbed: str, output: str, queries: int) -> None:
        self._original, self._perturbed = original, perturbed
        self.original_result = _Output(output)
        self.num_queries = queries

    def original_text(self) -> str:
        return self._original

    def perturbed_text(self) -> str:
        return self._perturbed


class SuccessfulAttackResult(_Result):
    pass


class FailedAttackResult(_Result):
    pass


class SkippedAttackResult(_Result):
    pass


RESULTS = [
    SuccessfulAttackResult("rivers in ohio", "the rivers in ohio", "SELECT 1", 4),
    FailedAttackResult("lakes in ohio", "lakes in ohio", "SELECT 2", 6),
    SkippedAttackResult("lakes in utah", "lakes in utah", "SELECT 3", 1),
    SkippedAttackResult("capital of utah", "capital of utah", "[victim error] ValueError: x", 1),
    SkippedAttackResult("capital of ohio", "capital of ohio", "[gold error] gold SQL failed", 1),
]


def test_counts_are_integers():
    assert AttackLogFigure("victim_errors").calculate(RESULTS) == 1
    assert AttackLogFigure("gold_errors").calculate(RESULTS) == 1


def test_rates_are_percent_strings_with_two_decimals():
    assert AttackLogFigure("standard_accuracy").calculate(RESULTS) == "66.67%"


def test_figures_equal_the_metrics_of_the_same_rows():
    rows = [
        {"original_text": r.original_text(), "perturbed_text": r.perturbed_text(),
         "original_output": r.original_result.output, "num_queries": r.num_queries,
         "result_type": type(r).__name__.replace("AttackResult", "")}
        for r in RESULTS
    ]
    metrics = metrics_from_rows(rows)
    assert AttackLogFigure("standard_accuracy").calculate(RESULTS) == f"{metrics.standard_accuracy:.2f}%"
    assert AttackLogFigure("skipped").calculate(RESULTS) == metrics.skipped == 3


def test_undefined_rate_is_none():
    only_left_out = RESULTS[3:]
    assert AttackLogFigure("standard_accuracy").calculate(only_left_out) is None


def test_every_figure_survives_textattacks_json_summary_logger(tmp_path):
    for results in (RESULTS, RESULTS[3:]):
        rows = [[field, AttackLogFigure(field).calculate(results)] for field in ("gold_errors", "victim_errors", "standard_accuracy")]
        logger = JsonSummaryLogger(filename=str(tmp_path / "s.json"))
        logger.log_summary_rows(rows, "Attack Results", "window")
        logger.flush()
        written = json.loads((tmp_path / "s.json").read_text())["Attack Results"]
        assert written["victim_errors"] == 1
        assert written["standard_accuracy"] in (66.67, None)
