"""ExecutionMatch on a real SQLite database with a lookup-table victim."""

from __future__ import annotations

import logging
import sqlite3
from collections import OrderedDict
from pathlib import Path

import pytest
from textattack.goal_function_results import GoalFunctionResultStatus
from textattack.models.wrappers import ModelWrapper
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import gold_output
from textattack_semparse.errors import RecipeError
from textattack_semparse.goal_functions.execution_match import ExecutionMatch
from textattack_semparse.scoring import Databases, ExecutionScorer

GOLD = 'SELECT state_name FROM state WHERE population > 10000000'
SAME_DENOTATION = "SELECT s.state_name FROM state AS s WHERE s.population >= 10000001"
WRONG = "SELECT state_name FROM state"


class LookupParser(ModelWrapper):
    """A victim that answers from a table (the victim is not under test here)."""

    def __init__(self, answers: dict[str, str], database: Path | None, losses: dict[str, float] | None = None):
        self.model = self
        self.answers = answers
        self.database = database
        self.losses = losses

    def __call__(self, questions):
        return [self.answers.get(question, "SELECT nonsense") for question in questions]

    @property
    def supports_loss(self) -> bool:
        return self.losses is not None

    def gold_loss(self, questions, golds):
        return [self.losses[question] for question in questions]


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("db") / "states.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE state (state_name TEXT, population INTEGER, capital TEXT)")
        connection.executemany(
            "INSERT INTO state VALUES (?, ?, ?)",
            [("california", 23667902, "sacramento"), ("texas", 14229191, "austin"), ("vermont", 511456, "montpelier")],
        )
    connection.close()
    return path


def _text(question: str) -> AttackedText:
    return AttackedText(OrderedDict(question=question))


def test_correct_original_is_attacked_and_wrong_perturbation_succeeds(database):
    victim = LookupParser({"which states have over ten million people": GOLD, "which states have ten million people": WRONG}, database)
    goal = ExecutionMatch(victim)
    original, _ = goal.init_attack_example(_text("which states have over ten million people"), GOLD)
    assert original.goal_status == GoalFunctionResultStatus.SEARCHING
    perturbed, _ = goal.get_result(_text("which states have ten million people"))
    assert perturbed.goal_status == GoalFunctionResultStatus.SUCCEEDED
    assert perturbed.score >= 1.0


def test_different_sql_with_the_same_denotation_is_not_a_success(database):
    victim = LookupParser({"q": GOLD, "q2": SAME_DENOTATION}, database)
    goal = ExecutionMatch(victim)
    goal.init_attack_example(_text("q"), GOLD)
    result, _ = goal.get_result(_text("q2"))
    assert result.goal_status == GoalFunctionResultStatus.SEARCHING
    assert 0.0 < result.score < 1.0  # graded by token distance, below every mismatch


def test_example_the_victim_already_gets_wrong_is_skipped(database):
    goal = ExecutionMatch(LookupParser({"q": WRONG}, database))
    result, _ = goal.init_attack_example(_text("q"), GOLD)
    assert result.goal_status == GoalFunctionResultStatus.SKIPPED


def test_failing_prediction_is_a_mismatch_not_an_exception(database):
    goal = ExecutionMatch(LookupParser({"q": GOLD, "q2": "DROP TABLE state"}, database))
    goal.init_attack_example(_text("q"), GOLD)
    result, _ = goal.get_result(_text("q2"))
    assert result.goal_status == GoalFunctionResultStatus.SUCCEEDED


def test_faulty_gold_query_skips_the_example_with_a_warning(database, caplog):
    goal = ExecutionMatch(LookupParser({"q": GOLD}, database))
    with caplog.at_level(logging.WARNING):
        result, _ = goal.init_attack_example(_text("q"), "SELECT no_such_column FROM state")
    assert result.goal_status == GoalFunctionResultStatus.SKIPPED
    assert "no_such_column" in caplog.text


def test_a_run_of_nearly_only_gold_errors_stops_naming_the_mismatch(database):
    """Logical forms judged by execution: every gold is an error, so the run stops after the first examples
    (as a victim failing too often stops it) instead of finishing with nothing judged."""
    from textattack_semparse.errors import DatasetError
    from textattack_semparse.goal_functions.semantic_parsing_goal_function import (
        EXAMPLES_BEFORE_STOP,
        GOLD_ERROR_STOP_RATE,
    )

    goal = ExecutionMatch(LookupParser({}, database))
    # The rule: once EXAMPLES_BEFORE_STOP examples have begun, stop when gold errors > GOLD_ERROR_STOP_RATE x begun.
    assert 18 <= GOLD_ERROR_STOP_RATE * EXAMPLES_BEFORE_STOP < 19 and EXAMPLES_BEFORE_STOP == 20
    goal.init_attack_example(_text("q"), GOLD)
    for index in range(18):
        goal.init_attack_example(_text(f"lf{index}"), "answer(capital(state(texas)))")
    with pytest.raises(DatasetError, match=r"19 of the first 20 examples are gold errors .*does not fit this dataset"):
        goal.init_attack_example(_text("last"), "answer(river(loc_2(texas)))")


def test_gold_errors_at_the_stop_rate_do_not_stop_the_run(database):
    goal = ExecutionMatch(LookupParser({}, database))
    for index in range(20):
        goal.init_attack_example(_text(f"q{index}"), GOLD if index < 2 else "answer(texas)")
    assert (goal.examples_begun, goal.gold_errors) == (20, 18)  # 18 is not more than 0.9 x 20


def test_a_few_gold_errors_do_not_stop_the_run(database):
    goal = ExecutionMatch(LookupParser({}, database))
    for index in range(30):
        goal.init_attack_example(_text(f"q{index}"), "SELECT broken FROM" if index % 3 == 0 else GOLD)
    assert (goal.examples_begun, goal.gold_errors) == (30, 10)


def test_gold_is_recorded_for_constraints(database):
    question = "which states have over ten million people"
    goal = ExecutionMatch(LookupParser({question: GOLD}, database))
    text = _text(question)
    goal.init_attack_example(text, GOLD)
    perturbed = text.delete_word_at_index(0).insert_text_after_word_index(0, "really")
    assert gold_output(perturbed) == GOLD


def test_victim_loss_grades_matching_outputs(database):
    victim = LookupParser({"q": GOLD, "q2": GOLD}, database, losses={"q": 0.5, "q2": 3.0})
    goal = ExecutionMatch(victim)
    original, _ = goal.init_attack_example(_text("q"), GOLD)
    perturbed, _ = goal.get_result(_text("q2"))
    assert original.raw_output.loss == 0.5
    assert original.score == pytest.approx(0.5 / 1.5)
    assert perturbed.score == pytest.approx(3.0 / 4.0)


def test_loss_can_be_switched_off(database):
    victim = LookupParser({"q": GOLD}, database, losses={"q": 0.5})
    goal = ExecutionMatch(victim, use_gold_loss=False)
    result, _ = goal.init_attack_example(_text("q"), GOLD)
    assert result.raw_output.loss is None
    assert result.score == 0.0


def test_order_matters_only_when_the_gold_orders(database):
    ordered_gold = "SELECT state_name FROM state ORDER BY population DESC"
    reversed_prediction = "SELECT state_name FROM state ORDER BY population ASC"
    goal = ExecutionMatch(LookupParser({"q": ordered_gold, "q2": reversed_prediction}, database))
    goal.init_attack_example(_text("q"), ordered_gold)
    result, _ = goal.get_result(_text("q2"))
    assert result.goal_status == GoalFunctionResultStatus.SUCCEEDED
    unordered_gold = "SELECT state_name FROM state"
    goal.init_attack_example(_text("q"), unordered_gold)
    result, _ = goal.get_result(_text("q2"))
    assert result.goal_status == GoalFunctionResultStatus.SEARCHING


def test_database_defaults_to_the_victims(database):
    goal = ExecutionMatch(LookupParser({}, database))
    assert goal.scoring.databases == Databases.at(database)
    assert goal.scoring.scorer == ExecutionScorer()


def test_database_argument_wins_over_the_victims(database, tmp_path):
    other = tmp_path / "other.sqlite"
    other.write_bytes(database.read_bytes())
    goal = ExecutionMatch(LookupParser({}, database), database=other)
    assert goal.scoring.databases == Databases.at(other)


def test_missing_database_names_the_fix():
    with pytest.raises(RecipeError, match="Pass database="):
        ExecutionMatch(LookupParser({}, None))


class DbIdParser(ModelWrapper):
    """Answers (question, db_id) inputs from a table keyed by both."""

    def __init__(self, answers: dict[tuple[str, str], str]):
        self.model = self
        self.answers = answers
        self.database = None

    def __call__(self, inputs):
        return [self.answers.get(tuple(item), "SELECT nonsense") for item in inputs]


def test_directory_as_database_resolves_the_db_id_column(tmp_path, database):
    (tmp_path / "states").mkdir()
    (tmp_path / "states" / "states.sqlite").write_bytes(database.read_bytes())
    goal = ExecutionMatch(DbIdParser({("q", "states"): GOLD, ("q2", "states"): WRONG}), database=tmp_path)
    assert goal.scoring.databases == Databases(root=tmp_path)
    assert goal.scoring.databases.for_example("states") == (tmp_path / "states" / "states.sqlite",)
    original, _ = goal.init_attack_example(AttackedText(OrderedDict(question="q", db_id="states")), GOLD)
    assert original.goal_status == GoalFunctionResultStatus.SEARCHING
    perturbed, _ = goal.get_result(AttackedText(OrderedDict(question="q2", db_id="states")))
    assert perturbed.goal_status == GoalFunctionResultStatus.SUCCEEDED


def test_databases_suite_must_match_on_every_database(tmp_path, database):
    # A second database where a WRONG-looking prediction still differs from the gold.
    small = tmp_path / "small.sqlite"
    with sqlite3.connect(small) as connection:
        connection.execute("CREATE TABLE state (state_name TEXT, population INTEGER, capital TEXT)")
        connection.executemany("INSERT INTO state VALUES (?, ?, ?)", [("ohio", 11000000, "columbus"), ("utah", 3000000, "salt lake city")])
    connection.close()
    only_big = "SELECT state_name FROM state WHERE population > 10000000 AND state_name != 'ohio'"
    victim = LookupParser({"q": GOLD, "q2": only_big}, None)
    alone = ExecutionMatch(victim, database=database)
    alone.init_attack_example(_text("q"), GOLD)
    assert alone.get_result(_text("q2"))[0].goal_status == GoalFunctionResultStatus.SEARCHING
    suite = ExecutionMatch(victim, database=Databases.suite([database, small]))
    suite.init_attack_example(_text("q"), GOLD)
    assert suite.get_result(_text("q2"))[0].goal_status == GoalFunctionResultStatus.SUCCEEDED


def test_mode_and_timeouts_reach_the_scorer(database):
    goal = ExecutionMatch(LookupParser({}, database), mode="test-suite", timeout=2.0, gold_timeout=9.0, max_rows=5)
    assert goal.scoring.scorer == ExecutionScorer(mode="test-suite", timeout=2.0, gold_timeout=9.0, max_rows=5)


def test_invalid_mode_is_rejected(database):
    with pytest.raises(ValueError, match="Did you mean 'test-suite'"):
        ExecutionMatch(LookupParser({}, database), mode="test_suite")


def test_invalid_timeout_is_rejected(database):
    with pytest.raises(ValueError, match="timeout"):
        ExecutionMatch(LookupParser({}, database), timeout=0)


def test_invalid_gold_timeout_is_rejected(database):
    with pytest.raises(ValueError, match="gold_timeout"):
        ExecutionMatch(LookupParser({}, database), gold_timeout=-1)


def test_repr_lists_its_parameters(database):
    text = repr(ExecutionMatch(LookupParser({}, database), timeout=2.0))
    for key in ("scoring", "databases", "mode", "timeout=2.0", "gold_timeout", "max_rows", "use_gold_loss"):
        assert key in text


def test_a_directory_as_the_victims_database_is_a_per_db_id_root(tmp_path):
    goal = ExecutionMatch(LookupParser({}, tmp_path))
    assert goal.scoring.databases.primary is None and goal.scoring.databases.root == tmp_path
