"""Tests for textattack_semparse.sql.sqlite_executor: sandboxing, limits, cache, pickling."""

from __future__ import annotations

import json
import pickle
import re
import threading
from collections import Counter
from pathlib import Path

import pytest

from textattack_semparse.errors import SchemaError
from textattack_semparse.scoring.execution_scorer import TIMEOUT
from textattack_semparse.sql import sqlite_executor as sqlite_executor_module
from textattack_semparse.sql.sqlite_executor import SQLiteExecutor, executor_for

RUNAWAY_CTE = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c"

HOSTILE_SQL = {
    "drop_table": "DROP TABLE state",
    "insert": "INSERT INTO state VALUES ('atlantis', 1, 1.0, 'x', 1.0)",
    "update": "UPDATE state SET population = 0",
    "delete": "DELETE FROM city",
    "replace": "REPLACE INTO city VALUES ('x', 1, 'texas')",
    "create_table": "CREATE TABLE evil (x)",
    "create_temp_table": "CREATE TEMP TABLE evil (x)",
    "create_view": "CREATE VIEW v AS SELECT 1",
    "create_index": "CREATE INDEX i ON city (population)",
    "create_trigger": "CREATE TRIGGER t AFTER INSERT ON city BEGIN DELETE FROM state; END",
    "alter_table": "ALTER TABLE state ADD COLUMN evil TEXT",
    "attach": "ATTACH DATABASE '{attached}' AS evil",
    "detach": "DETACH DATABASE main",
    "pragma_writable_schema": "PRAGMA writable_schema=ON",
    "pragma_query_only_off": "PRAGMA query_only=OFF",
    "pragma_read": "PRAGMA table_info(state)",
    "pragma_function": "SELECT * FROM pragma_table_info('state')",
    "load_extension": "SELECT load_extension('/tmp/evil.so')",
    "fts3_tokenizer": "SELECT fts3_tokenizer('simple')",
    "begin": "BEGIN IMMEDIATE",
    "savepoint": "SAVEPOINT s",
    "vacuum": "VACUUM",
    "vacuum_into": "VACUUM INTO '{attached}'",
    "analyze": "ANALYZE",
    "multiple_statements": "SELECT 1; DROP TABLE state",
    "multiple_selects": "SELECT 1; SELECT 2",
    "pragma_then_drop": "PRAGMA writable_schema=ON; DROP TABLE state",
}


@pytest.fixture
def executor(geo_db: Path) -> SQLiteExecutor:
    return SQLiteExecutor(geo_db, timeout=2.0)


@pytest.mark.parametrize("name", sorted(HOSTILE_SQL))
def test_hostile_sql_is_denied_and_database_unchanged(name, geo_db, tmp_path, file_digest):
    attached = tmp_path / "attached.sqlite"
    before = file_digest(geo_db)
    executor = SQLiteExecutor(geo_db, timeout=2.0)
    result = executor.execute(HOSTILE_SQL[name].format(attached=attached))
    assert not result.ok
    assert re.search("not authorized|authorization denied|one statement at a time", result.error)
    assert result.rows == ()
    assert not attached.exists()
    assert file_digest(geo_db) == before
    assert executor.execute("SELECT count(*) FROM state").rows == ((4,),)


def test_runaway_recursive_cte_times_out(geo_db, file_digest):
    before = file_digest(geo_db)
    result = SQLiteExecutor(geo_db, timeout=0.5).execute(RUNAWAY_CTE)
    assert result.timed_out
    assert not result.ok
    assert "0.5 s time limit" in result.error
    assert file_digest(geo_db) == before


def test_runaway_cross_join_times_out(geo_db):
    sql = "SELECT count(*) FROM " + ", ".join(f"city c{i}" for i in range(14))  # 6**14 rows
    assert SQLiteExecutor(geo_db, timeout=0.5).execute(sql).timed_out


def test_query_after_timeout_gets_a_fresh_deadline(geo_db):
    executor = SQLiteExecutor(geo_db, timeout=0.5)
    assert executor.execute(RUNAWAY_CTE).timed_out
    result = executor.execute("SELECT count(*) FROM city")
    assert result.ok and result.rows == ((6,),)


def test_bounded_recursive_cte_is_allowed(executor):
    sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 5) SELECT sum(x) FROM c"
    assert executor.execute(sql).rows == ((15,),)


def test_double_quoted_string_literal_still_works(executor):
    result = executor.execute('SELECT capital FROM state WHERE state_name = "texas"')
    assert result.rows == (("austin",),)


def test_geoquery_style_uppercase_aliases(executor):
    sql = (
        "SELECT CITYalias0.CITY_NAME FROM CITY AS CITYalias0 WHERE CITYalias0.POPULATION = "
        '( SELECT MAX( CITYalias1.POPULATION ) FROM CITY AS CITYalias1 WHERE CITYalias1.STATE_NAME = "texas" ) ;'
    )
    assert executor.execute(sql).rows == (("houston",),)


def test_rows_and_columns_are_tuples(executor):
    result = executor.execute("SELECT city_name, population FROM city WHERE state_name = 'ohio'")
    assert result == type(result)(rows=(("columbus", 564871),), columns=("city_name", "population"))


def test_joins_subqueries_windows_and_functions_are_allowed(executor):
    sql = (
        "SELECT s.state_name, count(c.city_name), rank() OVER (ORDER BY s.area DESC), upper(s.capital) "
        "FROM state s LEFT JOIN city c ON c.state_name = s.state_name "
        "WHERE s.state_name IN (SELECT state_name FROM border_info) GROUP BY s.state_name ORDER BY 1"
    )
    assert executor.execute(sql).rows == (("ohio", 1, 2, "COLUMBUS"), ("texas", 3, 1, "AUSTIN"))


def test_syntax_error_is_a_result(executor):
    result = executor.execute("SELEC city_name FROM city")
    assert not result.ok and "syntax error" in result.error


def test_unknown_table_is_a_result(executor):
    assert "no such table: stat" in executor.execute("SELECT * FROM stat").error


@pytest.mark.parametrize("sql", ["", "   ", "-- just a comment", "/* block */"])
def test_empty_statement_is_an_error(executor, sql):
    result = executor.execute(sql)
    assert not result.ok and "no result set" in result.error


@pytest.mark.parametrize("sql", [None, 42, b"SELECT 1", ["SELECT 1"]])
def test_non_string_sql_is_an_error(executor, sql):
    result = executor.execute(sql)
    assert not result.ok and "expected SQL text" in result.error


def test_null_character_is_an_error(executor):
    assert not executor.execute("SELECT 'a\x00b'").ok


def test_trailing_semicolon_and_comment_are_one_statement(executor):
    assert executor.execute("SELECT count(*) FROM city; -- done").rows == ((6,),)


def test_memory_bomb_value_is_an_error(executor):
    result = executor.execute("SELECT zeroblob(100000000)")
    assert not result.ok and result.rows == ()


def test_oversized_result_is_an_error(geo_db, monkeypatch):
    monkeypatch.setattr(sqlite_executor_module, "MAX_RESULT_BYTES", 1_000_000)
    result = SQLiteExecutor(geo_db, timeout=TIMEOUT).execute("SELECT zeroblob(100000) FROM city a, city b")
    assert not result.ok and "result larger than 1000000 bytes" in result.error


def test_max_rows_truncates(geo_db):
    result = SQLiteExecutor(geo_db, timeout=TIMEOUT, max_rows=4).execute("SELECT city_name FROM city ORDER BY city_name")
    assert result.truncated and result.ok
    assert result.rows == (("anchorage",), ("austin",), ("columbus",), ("dallas",))


def test_exactly_max_rows_is_not_truncated(geo_db):
    result = SQLiteExecutor(geo_db, timeout=TIMEOUT, max_rows=6).execute("SELECT city_name FROM city")
    assert not result.truncated and len(result.rows) == 6


def test_large_result_truncated_at_max_rows(geo_db):
    result = SQLiteExecutor(geo_db, timeout=TIMEOUT, max_rows=1000).execute("SELECT * FROM city a, city b, city c, city d")
    assert result.truncated and len(result.rows) == 1000


@pytest.mark.parametrize("count", [63, 64, 65, 128, 129])
def test_results_around_the_fetch_batch_size_are_complete(executor, count):
    sql = f"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < {count}) SELECT x FROM c"
    result = executor.execute(sql)
    assert result.rows == tuple((x,) for x in range(1, count + 1)) and not result.truncated


@pytest.mark.parametrize("max_rows", [63, 64, 65])
def test_truncation_around_the_fetch_batch_size(geo_db, max_rows):
    sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 64) SELECT x FROM c"
    result = SQLiteExecutor(geo_db, timeout=TIMEOUT, max_rows=max_rows).execute(sql)
    assert len(result.rows) == min(max_rows, 64) and result.truncated == (max_rows < 64)


def test_result_records_how_long_the_query_ran(executor):
    result = executor.execute("SELECT count(*) FROM city")
    assert 0.0 < result.seconds < executor.timeout


def test_cached_returns_a_known_result_without_counting(executor):
    result = executor.execute("SELECT count(*) FROM city")
    before = executor.cache_info()
    assert executor.cached("SELECT count(*) FROM city") is result
    assert executor.cached("SELECT 1") is None and executor.cached(None) is None
    assert executor.cache_info() == before


def test_clear_shared_caches_empties_every_shared_executor(geo_db):
    shared = executor_for(geo_db, timeout=TIMEOUT)
    shared.execute("SELECT count(*) FROM city")
    sqlite_executor_module.clear_shared_caches()
    assert shared.cache_info().currsize == 0
    assert shared.execute("SELECT count(*) FROM city").rows == ((6,),)


def test_second_execute_is_a_cache_hit_returning_the_same_object(executor):
    first = executor.execute("SELECT count(*) FROM city")
    second = executor.execute("SELECT count(*) FROM city")
    assert second is first
    info = executor.cache_info()
    assert (info.hits, info.misses, info.currsize) == (1, 1, 1)


def test_failures_and_timeouts_are_cached(geo_db):
    executor = SQLiteExecutor(geo_db, timeout=0.5)
    assert executor.execute(RUNAWAY_CTE) is executor.execute(RUNAWAY_CTE)
    assert executor.execute("DROP TABLE city") is executor.execute("DROP TABLE city")
    assert executor.cache_info().hits == 2


def test_cache_evicts_least_recently_used(geo_db):
    executor = SQLiteExecutor(geo_db, timeout=TIMEOUT, cache_size=2)
    a = executor.execute("SELECT 1")
    executor.execute("SELECT 2")
    assert executor.execute("SELECT 1") is a
    executor.execute("SELECT 3")  # evicts SELECT 2, the least recently used
    assert executor.cache_info().currsize == 2
    assert executor.execute("SELECT 1") is a
    misses = executor.cache_info().misses
    executor.execute("SELECT 2")
    assert executor.cache_info().misses == misses + 1


def test_cache_size_zero_disables_caching(geo_db):
    executor = SQLiteExecutor(geo_db, timeout=TIMEOUT, cache_size=0)
    first = executor.execute("SELECT 1")
    assert executor.execute("SELECT 1") is not first
    assert executor.cache_info() == (0, 2, 0, 0)


def test_cache_clear_resets_statistics(executor):
    executor.execute("SELECT 1")
    executor.execute("SELECT 1")
    executor.cache_clear()
    assert executor.cache_info() == (0, 0, 4096, 0)


def test_pickle_round_trip_reconnects_lazily(executor):
    executor.execute("SELECT 1")
    clone = pickle.loads(pickle.dumps(executor))
    assert repr(clone) == repr(executor)
    assert clone.cache_info().currsize == 0
    assert clone.execute("SELECT count(*) FROM state").rows == ((4,),)
    assert clone.execute("DROP TABLE state").error


def test_close_then_execute_reopens(executor):
    executor.close()
    assert executor.execute("SELECT count(*) FROM city").rows == ((6,),)


def test_concurrent_threads_get_correct_results(executor):
    queries = {f"SELECT count(*) + {i} FROM city": ((6 + i,),) for i in range(40)}
    failures: list[str] = []

    def work() -> None:
        for sql, expected in queries.items():
            if executor.execute(sql).rows != expected:
                failures.append(sql)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_path_with_spaces_and_uri_characters(tmp_path, geo_db):
    odd = tmp_path / "my db #1?.sqlite"
    odd.write_bytes(geo_db.read_bytes())
    assert SQLiteExecutor(odd, timeout=TIMEOUT).execute("SELECT count(*) FROM state").rows == ((4,),)


def test_missing_database_raises_schema_error_naming_path(tmp_path):
    missing = tmp_path / "nope.sqlite"
    with pytest.raises(SchemaError, match="nope.sqlite.*does not exist.*cached_sqlite_from_dump"):
        SQLiteExecutor(missing, timeout=TIMEOUT)


def test_directory_raises_schema_error(tmp_path):
    with pytest.raises(SchemaError, match="not a file"):
        SQLiteExecutor(tmp_path, timeout=TIMEOUT)


def test_non_database_file_raises_schema_error(tmp_path):
    text = tmp_path / "geography-db.sql"
    text.write_text("CREATE TABLE `state` (`state_name` text);\n" * 100)
    with pytest.raises(SchemaError, match="geography-db.sql.*not a database"):
        SQLiteExecutor(text, timeout=TIMEOUT)


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"timeout": 0}, ValueError),
        ({"timeout": -1.0}, ValueError),
        ({"timeout": float("inf")}, ValueError),
        ({"timeout": "5"}, TypeError),
        ({"timeout": True}, TypeError),
        ({"max_rows": 0}, ValueError),
        ({"max_rows": 1.5}, TypeError),
        ({"cache_size": -1}, ValueError),
        ({"cache_size": None}, TypeError),
    ],
)
def test_invalid_settings_are_rejected(geo_db, kwargs, error):
    with pytest.raises(error):
        SQLiteExecutor(geo_db, **{"timeout": TIMEOUT, **kwargs})


def test_the_time_limit_has_no_default_here(geo_db):
    # The default limits are the scorer's (scoring.execution_scorer.TIMEOUT, GOLD_TIMEOUT).
    with pytest.raises(TypeError, match="timeout"):
        SQLiteExecutor(geo_db)
    with pytest.raises(TypeError, match="timeout"):
        executor_for(geo_db)


def test_invalid_path_type_is_rejected():
    with pytest.raises(TypeError, match="db_path"):
        SQLiteExecutor(3, timeout=TIMEOUT)


def test_executor_for_shares_one_instance_per_path_and_settings(geo_db, monkeypatch):
    monkeypatch.chdir(geo_db.parent)
    shared = executor_for(geo_db, timeout=TIMEOUT)
    assert executor_for(str(geo_db), timeout=TIMEOUT) is shared
    assert executor_for(Path("geo.sqlite"), timeout=TIMEOUT) is shared
    assert executor_for(geo_db, timeout=1.0) is not shared
    assert executor_for(geo_db, timeout=TIMEOUT, max_rows=5) is not shared


def test_executor_for_shares_the_cache(geo_db):
    executor_for(geo_db, timeout=TIMEOUT).execute("SELECT 1")
    executor_for(str(geo_db), timeout=TIMEOUT).execute("SELECT 1")
    assert executor_for(geo_db, timeout=TIMEOUT).cache_info().hits == 1


def test_repr_lists_settings(geo_db):
    text = repr(SQLiteExecutor(geo_db, timeout=1.5, max_rows=7, cache_size=3))
    assert text.endswith("timeout=1.5, max_rows=7, cache_size=3)") and "geo.sqlite" in text


@pytest.mark.real_data
def test_geoquery_gold_queries_execute(data_dir):
    corpus = json.loads((data_dir / "text2sql" / "geography.json").read_text())
    queries = []
    for entry in corpus:
        for sentence in entry["sentences"]:
            sql = entry["sql"][0]
            for name, value in sentence["variables"].items():
                sql = sql.replace(f'"{name}"', f'"{value}"')
            queries.append(sql)
    executor = SQLiteExecutor(data_dir / "text2sql" / "geography.sqlite", timeout=TIMEOUT)
    results = [executor.execute(sql) for sql in queries]
    kinds = Counter("error" if not r.ok else "rows" if r.rows else "empty" for r in results)
    assert kinds == {"rows": 843, "empty": 29, "error": 5}


@pytest.mark.real_data
def test_real_database_is_not_modified(data_dir, file_digest):
    database = data_dir / "text2sql" / "geography.sqlite"
    before = file_digest(database)
    executor = SQLiteExecutor(database, timeout=0.5)
    for sql in HOSTILE_SQL.values():
        assert not executor.execute(sql.format(attached="/nonexistent/x.sqlite")).ok
    assert executor.execute(RUNAWAY_CTE).timed_out
    assert file_digest(database) == before
    assert executor.execute("SELECT count(*) FROM state").rows == ((51,),)


# --- text_errors: TEXT that is not valid UTF-8 ---------------------------------------------


@pytest.fixture
def latin1_db(tmp_path: Path) -> Path:
    """A database whose one TEXT value holds the Latin-1 bytes of 'café' (invalid UTF-8)."""
    import sqlite3

    path = tmp_path / "latin1.sqlite"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE label (id INTEGER, name TEXT)")
        connection.execute("INSERT INTO label VALUES (1, CAST(X'636166E9' AS TEXT))")
    connection.close()
    return path


def test_strict_text_errors_fail_on_invalid_utf8(latin1_db):
    result = SQLiteExecutor(latin1_db, timeout=TIMEOUT).execute("SELECT name FROM label")
    assert not result.ok and "decode" in result.error


def test_ignore_text_errors_drop_undecodable_bytes(latin1_db):
    result = SQLiteExecutor(latin1_db, timeout=TIMEOUT, text_errors="ignore").execute("SELECT id, name FROM label")
    assert result.rows == ((1, "caf"),)


def test_ignore_text_errors_decode_each_query_alike_whatever_ran_before(latin1_db):
    # Valid text is decoded by SQLite's own UTF-8 reader; only a query that meets invalid bytes
    # runs again with the lenient decoder, which is put back afterwards.
    executor = SQLiteExecutor(latin1_db, timeout=TIMEOUT, text_errors="ignore", cache_size=0)
    for _ in range(2):
        assert executor.execute("SELECT name || '!' FROM label").rows == (("caf!",),)
        assert executor.execute("SELECT 'naïve'").rows == (("naïve",),)
    assert executor._connect().text_factory is str


def test_ignore_text_errors_keep_valid_text_and_the_sandbox(geo_db, file_digest):
    before = file_digest(geo_db)
    executor = SQLiteExecutor(geo_db, timeout=TIMEOUT, text_errors="ignore")
    assert executor.execute("SELECT capital FROM state WHERE state_name = 'ohio'").rows == (("columbus",),)
    assert executor.execute("DROP TABLE state").error == "DatabaseError: not authorized"
    assert file_digest(geo_db) == before


def test_unknown_text_errors_is_rejected_with_a_hint(geo_db):
    with pytest.raises(ValueError, match=r"'strict', 'ignore'.*'ignor'.*Did you mean 'ignore'\?"):
        SQLiteExecutor(geo_db, timeout=TIMEOUT, text_errors="ignor")
    with pytest.raises(ValueError, match="text_errors"):
        executor_for(geo_db, timeout=TIMEOUT, text_errors="replace")


def test_executor_for_keys_on_text_errors(geo_db):
    strict = executor_for(geo_db, timeout=TIMEOUT)
    assert executor_for(geo_db, timeout=TIMEOUT, text_errors="strict") is strict
    lenient = executor_for(geo_db, timeout=TIMEOUT, text_errors="ignore")
    assert lenient is not strict and lenient.text_errors == "ignore"
    assert executor_for(str(geo_db), timeout=TIMEOUT, text_errors="ignore") is lenient


def test_pickle_keeps_text_errors(latin1_db):
    clone = pickle.loads(pickle.dumps(SQLiteExecutor(latin1_db, timeout=TIMEOUT, text_errors="ignore")))
    assert clone.text_errors == "ignore" and "text_errors='ignore'" in repr(clone)
    assert clone.execute("SELECT name FROM label").rows == (("caf",),)
