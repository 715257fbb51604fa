"""Tests for textattack_semparse.sql.denotation: result equality and ORDER BY detection."""

from __future__ import annotations

import pytest

from textattack_semparse.scoring.execution_scorer import TIMEOUT
from textattack_semparse.sql import denotation as denotation_module
from textattack_semparse.sql.denotation import denotations_match, query_is_ordered
from textattack_semparse.sql.execution_result import ExecutionResult
from textattack_semparse.sql.sqlite_executor import SQLiteExecutor


def result(*rows: tuple, truncated: bool = False) -> ExecutionResult:
    width = len(rows[0]) if rows else 0
    return ExecutionResult(rows=tuple(rows), columns=tuple(f"c{i}" for i in range(width)), truncated=truncated)


def match(predicted: ExecutionResult, gold: ExecutionResult, *, ordered: bool = False, **kwargs) -> bool:
    return denotations_match(predicted, gold, ordered=ordered, **kwargs)


# --- order -------------------------------------------------------------------------------


def test_same_rows_other_order_match_when_unordered():
    assert match(result(("austin",), ("dallas",)), result(("dallas",), ("austin",)))


def test_same_rows_other_order_differ_when_ordered():
    assert not match(result(("austin",), ("dallas",)), result(("dallas",), ("austin",)), ordered=True)


def test_same_rows_same_order_match_when_ordered():
    assert match(result(("austin",), ("dallas",)), result(("austin",), ("dallas",)), ordered=True)


# --- multisets ---------------------------------------------------------------------------


def test_duplicates_count():
    assert not match(result(("texas",), ("texas",)), result(("texas",)))


def test_duplicate_counts_must_agree():
    assert not match(result(("a",), ("a",), ("b",)), result(("a",), ("b",), ("b",)))


def test_duplicates_match_in_any_order():
    assert match(result(("a",), ("b",), ("a",)), result(("a",), ("a",), ("b",)))


def test_distinct_versus_duplicated_rows_differ():
    assert not match(result(("a",), ("b",)), result(("a",), ("a",), ("b",)))


# --- values ------------------------------------------------------------------------------


def test_int_equals_float_of_same_value():
    assert match(result((3,)), result((3.0,)))


def test_int_equals_float_when_ordered():
    assert match(result((3, "x")), result((3.0, "x")), ordered=True)


def test_float_within_relative_tolerance():
    assert match(result((53.33068472716233,)), result((53.330684727,)))


def test_float_outside_tolerance():
    assert not match(result((53.33,)), result((53.34,)))


def test_tolerance_is_configurable():
    assert match(result((100.0,)), result((101.0,)), rel_tol=0.02)


def test_absolute_tolerance_near_zero():
    assert match(result((0.0,)), result((1e-12,)))
    assert not match(result((0.0,)), result((1e-12,)), abs_tol=0.0)


def test_tolerant_rows_sort_differently_still_match():
    # Sorting puts 1.0 first on one side and 1.0000001 first on the other: needs a matching.
    predicted = result((1.0, "b"), (1.0000001, "a"))
    gold = result((1.0000001, "b"), (1.0, "a"))
    assert match(predicted, gold)


def test_large_tolerant_results_match_after_sorting():
    predicted = result(*[(i / 3,) for i in range(500)])
    gold = result(*[(i / 3 * (1 + 1e-9),) for i in reversed(range(500))])
    assert match(predicted, gold)


def test_null_equals_null():
    assert match(result((None, "a")), result((None, "a")), ordered=True)


def test_null_differs_from_zero_and_empty_string():
    assert not match(result((None,)), result((0,)))
    assert not match(result((None,)), result(("",)))


def test_nulls_mixed_with_values_unordered():
    assert match(result((None,), (1,), ("a",)), result(("a",), (None,), (1.0,)))


def test_strings_compare_exactly():
    assert not match(result(("Texas",)), result(("texas",)))
    assert not match(result(("texas ",)), result(("texas",)))


def test_number_differs_from_numeric_string():
    assert not match(result((3,)), result(("3",)))


def test_blob_differs_from_text():
    assert not match(result((b"abc",)), result(("abc",)))


def test_column_names_are_ignored():
    a = ExecutionResult(rows=((1,),), columns=("count(*)",))
    b = ExecutionResult(rows=((1,),), columns=("n",))
    assert match(a, b)


def test_different_column_counts_differ():
    assert not match(result(("austin", 1)), result(("austin",)))


# --- empty, failed, truncated -------------------------------------------------------------


def test_both_empty_match():
    assert match(result(), result())


def test_empty_versus_non_empty_differ():
    assert not match(result(), result(("austin",)))
    assert not match(result(("austin",)), result())


def test_failed_prediction_never_matches():
    assert not match(ExecutionResult.failure("no such table: stat"), result())


def test_timed_out_prediction_never_matches():
    timed_out = ExecutionResult(rows=(), columns=(), timed_out=True)
    assert not match(timed_out, result())


def test_failed_gold_never_matches():
    assert not match(result(), ExecutionResult.failure("syntax error"))


def test_truncated_versus_complete_differ():
    assert not match(result(("a",), ("b",), truncated=True), result(("a",), ("b",)))


def test_both_truncated_compare_kept_rows():
    assert match(result(("a",), ("b",), truncated=True), result(("b",), ("a",), truncated=True))


# --- on a real database ---------------------------------------------------------------------


def test_equivalent_queries_on_database_match(geo_db):
    executor = SQLiteExecutor(geo_db, timeout=TIMEOUT)
    gold = executor.execute("SELECT city_name FROM city WHERE state_name = 'texas'")
    predicted = executor.execute(
        "SELECT c.city_name FROM city c JOIN state s ON c.state_name = s.state_name WHERE s.capital = 'austin' ORDER BY 1"
    )
    assert match(predicted, gold)


def test_computed_density_matches_stored_density(geo_db):
    executor = SQLiteExecutor(geo_db, timeout=TIMEOUT)
    stored = executor.execute("SELECT round(density, 2) FROM state WHERE state_name = 'ohio'")
    computed = executor.execute("SELECT round(population / area, 2) FROM state WHERE state_name = 'ohio'")
    assert match(computed, stored)


def test_count_int_matches_sum_float(geo_db):
    executor = SQLiteExecutor(geo_db, timeout=TIMEOUT)
    count = executor.execute("SELECT count(*) FROM city")
    total = executor.execute("SELECT sum(1.0) FROM city")
    assert count.rows == ((6,),) and total.rows == ((6.0,),)
    assert match(total, count)


# --- query_is_ordered ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT city_name FROM city ORDER BY population DESC",
        "select city_name from city order by population desc limit 1",
        "SELECT a FROM t UNION SELECT a FROM u ORDER BY a",
        "WITH big AS (SELECT * FROM city) SELECT city_name FROM big ORDER BY 1",
        "(SELECT a FROM t ORDER BY a)",
        "(SELECT a FROM t) ORDER BY a",
        'SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.STATE_NAME = "texas" ORDER BY CITYalias0.POPULATION ;',
    ],
)
def test_outer_order_by_is_ordered(sql):
    assert query_is_ordered(sql)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT city_name FROM city",
        "SELECT * FROM (SELECT a FROM t ORDER BY a)",
        "SELECT a FROM t WHERE b IN (SELECT b FROM u ORDER BY b LIMIT 3)",
        "SELECT a FROM t WHERE name = 'order by'",
        "SELECT max(a) OVER (ORDER BY b) FROM t",
        "SELECT group_concat(a ORDER BY a) FROM t",
    ],
)
def test_no_outer_order_by_is_unordered(sql):
    assert not query_is_ordered(sql)


def test_fallback_for_unparsable_sql_with_top_level_order_by():
    assert query_is_ordered("SELECT a FROM t ORDER BY a LIMIT")


def test_fallback_ignores_nested_order_by_string_and_comment():
    sql = "SELECT a FROM (SELECT a FROM t ORDER BY a) WHERE b = 'order by' -- order by\n LIMIT"
    assert not query_is_ordered(sql)


def test_fallback_for_unterminated_string():
    assert not query_is_ordered("SELECT a FROM t WHERE b = 'order by")
    assert query_is_ordered("SELECT a FROM t ORDER BY b, 'x")


def test_empty_sql_is_unordered():
    assert not query_is_ordered("")


def test_fallback_quote_inside_comment_does_not_hide_order_by():
    assert query_is_ordered("SELECT a FROM t -- it's sorted\nORDER BY a LIMIT")


# --- the order decision read from the text, without a parse ---------------------------------

#: Each case: SQL, whether its outermost query orders, and whether the text alone settles it.
ORDER_EDGE_CASES = [
    ("SELECT city_name FROM city", False, True),
    ("SELECT a FROM t WHERE name = 'order by x'", False, True),  # 'order' only inside a literal
    ("SELECT order_id FROM orders WHERE reorder = 1", False, True),  # 'order' only inside names
    ('SELECT "order by" FROM t', False, True),  # a quoted identifier
    ("SELECT [order by] FROM t", False, True),
    ("SELECT a FROM t -- order by a", False, True),  # a comment
    ("SELECT a FROM t /* ORDER BY a */", False, True),
    ("SELECT * FROM (SELECT a FROM t ORDER BY a)", False, True),  # ORDER BY in a subquery only
    ("SELECT a FROM t WHERE b IN (SELECT b FROM u ORDER BY b LIMIT 3)", False, True),
    ("SELECT max(a) OVER (ORDER BY b) FROM t", False, True),  # a window
    ("SELECT group_concat(a ORDER BY a) FROM t", False, True),  # an aggregate
    ("WITH c AS (SELECT a FROM t ORDER BY a) SELECT a FROM c", False, True),  # a CTE
    ("SELECT a FROM t ORDER BY a", True, True),
    ("select a from t order\n  by a desc limit 1", True, True),
    ("SELECT a FROM t ORDER /* sorted */ BY a", True, True),
    ("WITH c AS (SELECT a FROM t) SELECT a FROM c ORDER BY a", True, True),
    ("SELECT a FROM (SELECT a FROM t ORDER BY a) ORDER BY a DESC ;", True, True),
    ("SELECT order_id FROM orders ORDER BY order_id", True, True),
    # Left to the parse: the outermost query is not plainly the text outside parentheses.
    ("(SELECT a FROM t ORDER BY a)", True, False),  # the whole query in parentheses
    ("(SELECT a FROM t) ORDER BY a", True, False),
    ("SELECT a FROM t UNION SELECT a FROM u ORDER BY a", True, False),  # a set operation
    ("SELECT a FROM t ORDER BY a UNION SELECT b FROM u", False, False),  # sqlglot: the union is unordered
    ("SELECT a FROM t INTERSECT SELECT a FROM (SELECT a FROM u ORDER BY a)", False, False),
    ("SELECT a FROM t; SELECT b FROM u ORDER BY b", True, False),  # two statements: the text fallback
    ("SELECT a FROM t ORDER BY (a", True, False),  # unbalanced parentheses
    ("SELECT a FROM t) ORDER BY a", True, False),
]


@pytest.mark.parametrize(("sql", "ordered", "settled_by_text"), ORDER_EDGE_CASES)
def test_order_decision_from_text_agrees_with_the_parse(sql, ordered, settled_by_text):
    from_text = denotation_module._ordered_from_text(sql)
    assert (from_text is not None) == settled_by_text
    assert denotation_module._ordered_from_parse(sql) == ordered
    assert query_is_ordered.__wrapped__(sql) == ordered
    if settled_by_text:
        assert from_text == ordered


@pytest.mark.real_data
@pytest.mark.slow
@pytest.mark.parametrize("benchmark_name", ["geoquery", "atis", "spider"])
def test_order_decision_from_text_agrees_with_the_parse_on_every_gold(real_data_dir, benchmark_name):
    from textattack_semparse.datasets.benchmark import load_benchmark

    benchmark = load_benchmark(benchmark_name, data_dir=real_data_dir, use_test_suite=False)
    golds = sorted({example.gold for example in benchmark.examples})
    settled = {sql: denotation_module._ordered_from_text(sql) for sql in golds}
    parse = denotation_module._ordered_from_parse
    parsed = {sql: parse(sql) for sql, ordered in settled.items() if ordered is not None}
    assert [sql for sql, ordered in parsed.items() if ordered != settled[sql]] == []
    # The point of the text decision: on these benchmarks it never needs the parse.
    assert [sql for sql, ordered in settled.items() if ordered is None] == []
