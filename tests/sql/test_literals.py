"""sql_literals and literal_word_indices on GeoQuery-style queries."""

from __future__ import annotations

import json
from pathlib import Path


from textattack_semparse.sql.literals import literal_word_indices, literal_words, sql_literals

GEO_SQL = (
    'SELECT CITYalias0.POPULATION FROM CITY AS CITYalias0 WHERE CITYalias0.CITY_NAME = "new york" '
    'AND CITYalias0.STATE_NAME = "new york" ;'
)


def test_geoquery_double_quoted_strings_are_literals() -> None:
    assert sql_literals(GEO_SQL) == ["new york"]


def test_single_quoted_strings_and_numbers() -> None:
    sql = "SELECT name FROM singer WHERE country = 'France' AND age > 30 ORDER BY age DESC LIMIT 3"
    assert sql_literals(sql) == ["France", "30", "3"]


def test_order_of_first_appearance_without_duplicates() -> None:
    sql = "SELECT * FROM river WHERE traverse = 'texas' OR traverse = 'ohio' OR traverse = 'texas'"
    assert sql_literals(sql) == ["texas", "ohio"]


def test_identifiers_and_keywords_are_not_literals() -> None:
    assert sql_literals("SELECT COUNT ( * ) FROM state AS s WHERE s.area > s.population") == []


def test_escaped_quote_is_unescaped() -> None:
    assert sql_literals("SELECT * FROM airport WHERE name = 'O''Hare'") == ["O'Hare"]


def test_unparseable_query_still_yields_literals() -> None:
    # A broken derived-table alias, as in one GeoQuery gold query: tokenizing needs no parse.
    sql = 'SELECT x FROM ( SELECT y FROM state WHERE state_name = "ohio" ) AS WHERE z > 5'
    assert sql_literals(sql) == ["ohio", "5"]


def test_untokenizable_query_falls_back_to_quotes_and_numbers() -> None:
    assert sql_literals("SELECT * FROM city WHERE name = 'austin' AND pop > 10 AND x = \"unterminated") == [
        "austin",
        "10",
    ]


def test_sqlite_dialect_reads_double_quotes_as_identifiers() -> None:
    assert sql_literals('SELECT "name" FROM t WHERE x = \'a b\'', dialect="sqlite") == ["a b"]


def test_literal_words_follow_textattack_tokenisation() -> None:
    assert literal_words("St. Louis") == ["st", "louis"]
    assert literal_words("%Smith%") == ["smith"]
    assert literal_words("  ") == []


def test_multi_word_literal_indices() -> None:
    words = "what is the population of new york".split()
    assert literal_word_indices(words, ["new york"]) == {5, 6}


def test_matching_ignores_case() -> None:
    assert literal_word_indices("How big is New York".split(), ["new york"]) == {3, 4}


def test_every_occurrence_is_matched() -> None:
    words = "which states border texas and which rivers cross texas".split()
    assert literal_word_indices(words, ["texas"]) == {3, 8}


def test_partial_match_is_not_a_match() -> None:
    assert literal_word_indices("what is the population of new mexico".split(), ["new york"]) == set()


def test_empty_literal_protects_nothing() -> None:
    assert literal_word_indices(["a", "b"], ["", "%"]) == set()


def test_real_geoquery_values_are_literals_and_found_in_questions(real_data_dir: Path) -> None:
    entries = json.loads((real_data_dir / "text2sql" / "geography.json").read_text())
    checked = 0
    for entry in entries:
        for sentence in entry["sentences"]:
            question, sql = sentence["text"], entry["sql"][0]
            for name, value in sentence["variables"].items():
                question, sql = question.replace(name, value), sql.replace(name, value)
            literals = sql_literals(sql)
            for name, value in sentence["variables"].items():
                assert value in literals, (value, sql)
                if name in sentence["text"]:
                    assert literal_word_indices(question.split(), [value]), (value, question)
                checked += 1
    assert checked > 500
