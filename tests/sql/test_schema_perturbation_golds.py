"""Every gold query of GeoQuery and Spider dev, rewritten for each schema perturbation, returns the
original rows on the perturbed copy of its database (real data; skipped without SEMPARSE_DATA_DIR).

The rule (issue 11, after Dr.Spider, Chang et al. 2023, https://arxiv.org/abs/2301.08881): "for every
gold query the rewritten gold returns the same rows on the perturbed database" as the original gold
on the original. Rows compare in order when the gold has ``ORDER BY``, else as multisets; values
exactly. A gold is left out only when it fails (or times out) on the original database itself;
each left-out query is printed with its reason (run with ``-s``).
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.sql.denotation import query_is_ordered
from textattack_semparse.sql.schema_perturbation import SCHEMA_PERTURBATIONS, perturb_schema
from textattack_semparse.sql.sqlite_executor import executor_for

#: Golds that fail on the original database, as the data's README counts them (GeoQuery: one broken
#: derived-table alias, MySQL's ``> ALL``; 5 of 877 sentences).
EXPECTED_LEFT_OUT = {"geoquery": 5, "spider": 0}
EXPECTED_CHECKED = {"geoquery": 877, "spider": 1034}


def _rows(result, ordered):
    rows = [tuple(row) for row in result.rows]
    return rows if ordered else Counter(rows)


@pytest.mark.parametrize("kind", SCHEMA_PERTURBATIONS)
@pytest.mark.parametrize("benchmark_name", ["geoquery", "spider"])
def test_rewritten_golds_return_the_original_rows(real_data_dir, tmp_path, benchmark_name, kind):
    benchmark = load_benchmark(benchmark_name, data_dir=real_data_dir, use_test_suite=False)
    timeout = benchmark.scoring.scorer.gold_timeout
    by_database = defaultdict(list)
    for example in benchmark.examples:
        by_database[benchmark.databases.for_example(example.db_id)[0]].append(example)
    equal, changed, left_out, mismatches = 0, 0, [], []
    for database, examples in by_database.items():
        copy = perturb_schema(database, kind, tmp_path / database.parent.name / database.name)  # once per database
        original, perturbed = executor_for(database, timeout=timeout), executor_for(copy.path, timeout=timeout)
        for example in examples:
            gold = original.execute(example.gold)
            if not gold.ok:
                left_out.append((example.gold, f"the original gold fails on {database.name}: {gold.error}"))
                continue
            rewrite = copy.mapping.rewrite(example.gold)
            result = perturbed.execute(rewrite.sql) if rewrite.ok else None
            ordered = query_is_ordered(example.gold)
            if result is not None and result.ok and _rows(result, ordered) == _rows(gold, ordered):
                equal += 1
                changed += rewrite.sql != example.gold
            else:
                mismatches.append((example.gold, rewrite.sql, rewrite.error or result.error))
    checked = len(benchmark.examples) - len(left_out)
    print(f"\n{benchmark_name} {kind}: {checked} golds checked, {equal} equal, {changed} rewritten, {len(left_out)} left out")
    for (sql, reason), count in Counter(left_out).items():
        print(f"  left out ({count} sentence(s)): {sql!r}: {reason}")
    assert mismatches == []
    assert len(benchmark.examples) == EXPECTED_CHECKED[benchmark_name]
    assert equal == checked and len(left_out) == EXPECTED_LEFT_OUT[benchmark_name]
    if kind in ("synonym", "abbreviation", "table-rename"):
        assert changed > checked // 10  # the perturbation reaches the golds
