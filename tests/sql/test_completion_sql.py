"""Tests of textattack_semparse/sql/completion_sql.py: one SQL query from an LLM completion."""

from __future__ import annotations

import pytest

from textattack_semparse.sql.completion_sql import extract_sql, first_statement, looks_like_prose

# (id, completion, prefix, expected SQL)
CASES = [
    ("plain", "SELECT capital FROM state WHERE state_name = 'texas'", "", "SELECT capital FROM state WHERE state_name = 'texas'"),
    ("trailing_semicolon", "SELECT COUNT(*) FROM state;", "", "SELECT COUNT(*) FROM state"),
    ("surrounding_whitespace", "\n\n   SELECT 1 ;  \n", "", "SELECT 1"),
    ("sql_fence", "```sql\nSELECT city_name FROM city\nWHERE population > 150000;\n```", "",
     "SELECT city_name FROM city\nWHERE population > 150000"),
    ("bare_fence", "```\nSELECT river_name FROM river\n```", "", "SELECT river_name FROM river"),
    ("fence_with_prose_around",
     "Sure! Here is the query:\n\n```sql\nSELECT area FROM state WHERE state_name = 'ohio';\n```\n\n"
     "This query selects the area of Ohio from the state table.", "",
     "SELECT area FROM state WHERE state_name = 'ohio'"),
    ("unclosed_fence", "```sql\nSELECT border FROM border_info WHERE state_name = 'utah'", "",
     "SELECT border FROM border_info WHERE state_name = 'utah'"),
    ("sql_fence_preferred", "```text\nthe schema\n```\n```sqlite\nSELECT 2\n```", "", "SELECT 2"),
    ("prefix_continuation", " capital FROM state WHERE state_name = 'texas';", "SELECT",
     "SELECT capital FROM state WHERE state_name = 'texas'"),
    ("prefix_continuation_newline", "\n  COUNT(*)\nFROM river", "SELECT", "SELECT\n  COUNT(*)\nFROM river"),
    ("prefix_without_space", "DISTINCT traverse FROM river", "SELECT", "SELECT DISTINCT traverse FROM river"),
    ("prefix_then_next_question",
     " COUNT(*) FROM state\n\n-- how many rivers are there\nSELECT COUNT(*) FROM river", "SELECT",
     "SELECT COUNT(*) FROM state"),
    ("prefix_then_comment_without_blank", " population FROM city\n-- what is the largest city\nSELECT", "SELECT",
     "SELECT population FROM city"),
    ("model_restarts_query", "SELECT name FROM city", "SELECT", "SELECT name FROM city"),
    ("model_restarts_with_fence", "\n```sql\nSELECT 3\n```", "SELECT", "SELECT 3"),
    ("prefix_only_empty", "", "SELECT", ""),
    ("prefix_only_whitespace", "  \n", "SELECT", ""),
    ("prefix_prose_refusal", "I'm sorry, I cannot answer that question.", "SELECT", ""),
    # A continuation written like a sentence (four or more words and a full stop) is still the query.
    # ("100." is a number in SQLite, so that full stop stays.)
    ("prefix_query_ending_in_full_stop", " DISTINCT state_name FROM state WHERE population > 100.", "SELECT",
     "SELECT DISTINCT state_name FROM state WHERE population > 100."),
    ("prefix_query_with_full_stop_after_identifier", " COUNT(river_name) FROM river WHERE traverse = 'texas' ORDER BY length.",
     "SELECT", "SELECT COUNT(river_name) FROM river WHERE traverse = 'texas' ORDER BY length"),
    ("query_ending_in_full_stop_after_table", "SELECT state_name FROM state.", "", "SELECT state_name FROM state"),
    ("prefix_prose_with_from", "This lists the names from the table.", "SELECT", ""),
    ("sql_label", "SQL: SELECT lake_name FROM lake", "", "SELECT lake_name FROM lake"),
    ("answer_label", "Answer: SELECT mountain_name FROM mountain;", "", "SELECT mountain_name FROM mountain"),
    ("sqlite_query_label", "SQLite query:\nSELECT 4", "", "SELECT 4"),
    ("prose_before", "To answer this, we count the states.\nSELECT COUNT(*) FROM state", "", "SELECT COUNT(*) FROM state"),
    ("prose_after_semicolon", "SELECT capital FROM state; This returns every capital.", "", "SELECT capital FROM state"),
    ("prose_after_newline", "SELECT capital FROM state\nThis query returns every capital.", "", "SELECT capital FROM state"),
    ("prose_after_blank_line", "SELECT capital\nFROM state\n\nIt lists the capital of each state.", "",
     "SELECT capital\nFROM state"),
    ("explanation_label_after", "SELECT 5\nExplanation: five.", "", "SELECT 5"),
    ("several_statements", "SELECT 1; SELECT 2; DROP TABLE state;", "", "SELECT 1"),
    ("several_statements_lines", "SELECT a FROM t;\nSELECT b FROM t;", "", "SELECT a FROM t"),
    ("semicolon_in_string", "SELECT city_name FROM city WHERE city_name = 'a;b'; SELECT 2", "",
     "SELECT city_name FROM city WHERE city_name = 'a;b'"),
    ("unclosed_quote_falls_back", "SELECT 'abc; SELECT 2", "", "SELECT 'abc"),
    ("blank_line_inside_query", "SELECT state_name\n\nFROM state\n\nWHERE area > 1000", "",
     "SELECT state_name\n\nFROM state\n\nWHERE area > 1000"),
    ("with_query", "WITH big AS (SELECT * FROM state WHERE area > 1)\nSELECT COUNT(*) FROM big;", "",
     "WITH big AS (SELECT * FROM state WHERE area > 1)\nSELECT COUNT(*) FROM big"),
    ("parenthesised_query", "(SELECT 1) UNION (SELECT 2)", "", "(SELECT 1) UNION (SELECT 2)"),
    ("lowercase_select", "select name from city", "", "select name from city"),
    ("multiline_nested",
     "SELECT state_name FROM state\nWHERE population = (\n  SELECT MAX(population) FROM state\n);", "",
     "SELECT state_name FROM state\nWHERE population = (\n  SELECT MAX(population) FROM state\n)"),
    # The full stop after the query is dropped: with it the query does not parse, without it it does.
    ("double_quoted_string_and_period",
     'SELECT capital FROM state WHERE state_name = "new york".', "",
     'SELECT capital FROM state WHERE state_name = "new york"'),
    ("empty", "", "", ""),
    ("whitespace_only", " \n\t ", "", ""),
    ("prose_only", "I don't know which table holds that.", "", ""),
    ("fence_without_sql", "```\nno idea\n```", "", ""),
    ("prose_mentioning_select_lowercase_is_kept_out", "You could select the rows.\nSELECT 6", "", "SELECT 6"),
]


@pytest.mark.parametrize(("completion", "prefix", "expected"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_extract_sql(completion, prefix, expected):
    assert extract_sql(completion, prefix=prefix) == expected


def test_case_ids_are_unique():
    assert len({case[0] for case in CASES}) == len(CASES)


def test_non_string_completion_gives_empty():
    assert extract_sql(None) == ""  # type: ignore[arg-type]


def test_prefix_is_keyword_only():
    with pytest.raises(TypeError):
        extract_sql(" 1", "SELECT")  # type: ignore[misc]


def test_first_statement_without_semicolon_is_unchanged():
    assert first_statement("SELECT 1") == "SELECT 1"


def test_looks_like_prose_keeps_sql_continuations():
    assert not looks_like_prose("AND state_name IN (SELECT border FROM border_info).")
    assert looks_like_prose("The query above counts the rows.")
