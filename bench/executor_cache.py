"""Benchmark: SQLiteExecutor throughput on cold (uncached) versus cached queries.

Runs GeoQuery's gold queries (placeholders filled from each sentence's variables) on
``$SEMPARSE_DATA_DIR/text2sql/geography.sqlite`` when SEMPARSE_DATA_DIR is set, otherwise a
synthetic workload on a temporary GeoQuery-like database. Each round clears the cache, runs
every distinct query once (all misses: the cold pass), then runs them again (all hits: the
cached pass), on the same executor. The best round of each is reported.

    .venv/bin/python bench/executor_cache.py [--rounds 5] [--data-dir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from textattack_semparse.scoring.execution_scorer import TIMEOUT
from textattack_semparse.sql.sqlite_executor import SQLiteExecutor


def geoquery_workload(data_dir: Path) -> tuple[Path, list[str]]:
    """GeoQuery's database and its gold queries with the sentences' variables filled in."""
    corpus = json.loads((data_dir / "text2sql" / "geography.json").read_text(encoding="utf-8"))
    queries = []
    for entry in corpus:
        for sentence in entry["sentences"]:
            sql = entry["sql"][0]
            for name, value in sentence["variables"].items():
                sql = sql.replace(f'"{name}"', f'"{value}"')
            queries.append(sql)
    return data_dir / "text2sql" / "geography.sqlite", queries


def synthetic_workload(directory: Path, *, seed: int = 0) -> tuple[Path, list[str]]:
    """A GeoQuery-like database of 50 states and 5,000 cities, and 600 queries on it."""
    rng = random.Random(seed)
    states = [f"state{i}" for i in range(50)]
    path = directory / "synthetic.sqlite"
    connection = sqlite3.connect(path)
    with connection:
        connection.execute("CREATE TABLE state (state_name TEXT, population INTEGER, area REAL)")
        connection.execute("CREATE TABLE city (city_name TEXT, population INTEGER, state_name TEXT)")
        connection.executemany(
            "INSERT INTO state VALUES (?, ?, ?)",
            [(s, rng.randrange(10**5, 10**7), rng.uniform(1e3, 6e5)) for s in states],
        )
        connection.executemany(
            "INSERT INTO city VALUES (?, ?, ?)",
            [(f"city{i}", rng.randrange(10**3, 10**6), rng.choice(states)) for i in range(5000)],
        )
    connection.close()
    templates = [
        'SELECT city_name FROM city WHERE state_name = "{s}"',
        'SELECT max(population) FROM city WHERE state_name = "{s}"',
        'SELECT count(*) FROM city AS c JOIN state AS s ON c.state_name = s.state_name WHERE s.state_name = "{s}"',
        'SELECT city_name FROM city WHERE population = (SELECT max(population) FROM city WHERE state_name = "{s}")',
        'SELECT state_name FROM state WHERE area > (SELECT area FROM state WHERE state_name = "{s}") ORDER BY area',
        'SELECT state_name, count(*) FROM city WHERE population > (SELECT avg(population) FROM city WHERE state_name = "{s}") GROUP BY state_name',
    ]
    return path, [template.format(s=s) for template in templates for s in rng.sample(states, 50) * 2]


def timed(run: Callable[[], None]) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="cold/cached rounds; the best is reported")
    parser.add_argument("--data-dir", type=Path, default=os.environ.get("SEMPARSE_DATA_DIR"))
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as scratch:
        if args.data_dir:
            database, queries = geoquery_workload(Path(args.data_dir))
            workload = "GeoQuery gold queries"
        else:
            database, queries = synthetic_workload(Path(scratch))
            workload = "synthetic queries (set SEMPARSE_DATA_DIR for GeoQuery)"
        distinct = list(dict.fromkeys(queries))
        executor = SQLiteExecutor(database, timeout=TIMEOUT, cache_size=len(distinct))

        def run_all() -> None:
            for sql in distinct:
                executor.execute(sql)

        cold, cached = [], []
        for _ in range(args.rounds):
            executor.cache_clear()
            cold.append(timed(run_all))
            cached.append(timed(run_all))
            info = executor.cache_info()
            if (info.hits, info.misses) != (len(distinct), len(distinct)):
                raise RuntimeError(f"unexpected cache statistics {info}")
        failures = sum(not executor.execute(sql).ok for sql in distinct)
        executor.close()

    cold_qps, cached_qps = len(distinct) / min(cold), len(distinct) / min(cached)
    print(f"workload: {workload}: {len(queries)} queries, {len(distinct)} distinct, {failures} fail")
    print(f"database: {database.name}; best of {args.rounds} rounds on one executor")
    print(f"cold   (cache misses): {cold_qps:12,.0f} queries/s  ({min(cold) * 1e3:8.2f} ms per pass)")
    print(f"cached (cache hits):   {cached_qps:12,.0f} queries/s  ({min(cached) * 1e3:8.2f} ms per pass)")
    print(f"speed-up cached/cold:  {cached_qps / cold_qps:12,.1f}x")


if __name__ == "__main__":
    main()
