"""Greedy distillation of a test suite: keep the fuzzed databases that tell gold queries from neighbours.

Zhong, Yu and Klein 2020, "Semantic Evaluation for Text-to-SQL with Distilled Test Suites"
(https://aclanthology.org/2020.emnlp-main.29/), judge a predicted query correct only when it
matches the gold on every database of a *test suite*. They build the suite by fuzzing many
databases of the schema and keeping, greedily, the ones that distinguish a gold query from a
near-miss neighbour that no database kept so far distinguishes. :func:`distill_test_suite` does
that for one benchmark; the code is original to textattack-semparse.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import sqlglot
from sqlglot.errors import SqlglotError

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import DatasetError
from textattack_semparse.sql.denotation import denotations_match_test_suite, query_is_ordered_test_suite
from textattack_semparse.sql.execution_result import ExecutionResult
from textattack_semparse.sql.sqlite_executor import SQLiteExecutor
from textattack_semparse.sql.suite_preparation import prepare_for_test_suite

#: ``(index, path) -> path``: write fuzz database ``index`` at ``path`` and return where it is.
CandidateWriter = Callable[[int, Path], Path]
REPORT_FILE = "report.json"
_DISTINCT = "distinct"
#: Examples of failing gold queries and undistinguished pairs kept in a report.
MAX_EXAMPLES = 5


def fuzz_file_name(index: int) -> str:
    """File name of the kept fuzz database ``index`` in a suite folder.

    Example:
        >>> fuzz_file_name(7)
        'fuzz-0007.sqlite'
    """
    return f"fuzz-{index:04d}.sqlite"


@dataclass(frozen=True)
class DistillationProgress:
    """Where a distillation stands after one more candidate database.

    Args:
        tried (int): Candidates written and judged so far.
        kept (int): Fuzz databases kept in the suite so far.
        pending (int): (gold, neighbour) pairs no database of the suite distinguishes yet.
        candidates (int): The most candidates that will be tried.
    """

    tried: int
    kept: int
    pending: int
    candidates: int


@dataclass(frozen=True)
class SuiteReport:
    """What a distilled test suite holds and how well it separates gold queries from neighbours.

    Written as ``report.json`` beside the suite's databases. The suite is the original
    database (when there is one; it is not copied) followed by the kept fuzz databases.

    Original to textattack-semparse (the measures follow Zhong, Yu and Klein 2020,
    https://aclanthology.org/2020.emnlp-main.29/).

    Args:
        benchmark (str): Benchmark name.
        seed (int): Seed of the fuzz databases.
        schema_source (str): Where the schema came from (an SQLite file or a schema CSV).
        original_database (str | None): Path of the original database, or None.
        databases (tuple[str, ...]): File names of the kept fuzz databases, in the suite folder.
        candidates_tried (int): Fuzz databases written and judged.
        max_databases (int): The size cap (fuzz databases kept at most).
        candidates (int): The most candidates that could be tried.
        query_timeout (float): Seconds each query may run on each database.
        gold_queries (int): Distinct gold queries.
        gold_failing (int): Gold queries that fail (an error, not a time-out) on the first
            database they run on: the original when there is one. Their neighbours are invalid.
        gold_failing_examples (tuple[tuple[str, str], ...]): Up to five (gold, error) pairs.
        gold_nonempty_on_original (int | None): Gold queries with a non-empty result on the
            original; None without an original.
        gold_nonempty_on_every_database (int): Gold queries with a non-empty result on every
            database of the suite (original and kept fuzz databases).
        neighbours_generated (int): (gold, neighbour) pairs made.
        neighbours_identical (int): Neighbours equal to their gold as the test-suite comparison
            runs them (e.g. a dropped ``DISTINCT``: the comparison removes ``DISTINCT`` anyway).
        neighbours_invalid (int): Neighbours that fail (or whose gold fails) on the first
            database they run on.
        neighbours_valid (int): The remaining neighbours: generated - identical - invalid.
        distinguished_by_original (int | None): Valid neighbours the original alone
            distinguishes from their gold; None without an original.
        distinguished_by_suite (int): Valid neighbours some database of the suite distinguishes.
        undistinguished (int): Valid neighbours no database of the suite distinguishes.
        undistinguished_examples (tuple[tuple[str, str], ...]): Up to five (gold, neighbour).
        seconds (float): Wall-clock time of the distillation (neighbour generation not included).
    """

    benchmark: str
    seed: int
    schema_source: str
    original_database: str | None
    databases: tuple[str, ...]
    candidates_tried: int
    max_databases: int
    candidates: int
    query_timeout: float
    gold_queries: int
    gold_failing: int
    gold_failing_examples: tuple[tuple[str, str], ...]
    gold_nonempty_on_original: int | None
    gold_nonempty_on_every_database: int
    neighbours_generated: int
    neighbours_identical: int
    neighbours_invalid: int
    neighbours_valid: int
    distinguished_by_original: int | None
    distinguished_by_suite: int
    undistinguished: int
    undistinguished_examples: tuple[tuple[str, str], ...]
    seconds: float

    @property
    def gold_nonempty_share(self) -> float | None:
        """Share of gold queries with non-empty results on every database of the suite."""
        return self.gold_nonempty_on_every_database / self.gold_queries if self.gold_queries else None

    def to_json(self) -> str:
        """The report as indented JSON (with ``gold_nonempty_share`` added for readers)."""
        data = asdict(self)
        data["gold_nonempty_share"] = self.gold_nonempty_share
        return json.dumps(data, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str) -> SuiteReport:
        """Read a report written by :meth:`to_json`.

        Raises:
            DatasetError: The text is not a report (bad JSON or missing fields).
        """
        try:
            data = json.loads(text)
            values = {field.name: data[field.name] for field in fields(cls)}
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise DatasetError(
                f"Not a test-suite report ({type(error).__name__}: {error}); expected the report.json "
                "that `textattack-semparse test-suite build` writes."
            ) from error
        values["databases"] = tuple(values["databases"])
        for name in ("gold_failing_examples", "undistinguished_examples"):
            values[name] = tuple(tuple(pair) for pair in values[name])
        return cls(**values)

    def summary(self) -> str:
        """A few lines for people: the suite, gold results and how many neighbours it separates."""
        suite = ([f"original {self.original_database}"] if self.original_database else []) + [
            f"{len(self.databases)} fuzz databases (of {self.candidates_tried} tried, cap {self.max_databases})"
        ]
        lines = [
            f"Test suite for {self.benchmark} (seed {self.seed}"
            + (f", schema from {self.schema_source}" if self.schema_source else "")
            + "): "
            + " + ".join(suite),
            f"Gold queries: {self.gold_queries} distinct, {self.gold_failing} failing"
            + (
                f", {self.gold_nonempty_on_original} non-empty on the original"
                if self.gold_nonempty_on_original is not None
                else ""
            )
            + f", {self.gold_nonempty_on_every_database} non-empty on every database"
            + (f" ({self.gold_nonempty_share:.1%})" if self.gold_nonempty_share is not None else ""),
            (
                f"Neighbours: {self.neighbours_generated} generated, {self.neighbours_valid} valid "
                f"({self.neighbours_identical} identical to the gold as compared, {self.neighbours_invalid} invalid)"
            ),
            "Distinguished: "
            + (
                f"{self.distinguished_by_original} by the original alone, "
                if self.distinguished_by_original is not None
                else ""
            )
            + f"{self.distinguished_by_suite} by the suite, {self.undistinguished} not"
            + (
                f" ({self.distinguished_by_suite / self.neighbours_valid:.1%} by the suite)"
                if self.neighbours_valid
                else ""
            ),
            f"Distillation took {self.seconds:.1f} s",
        ]
        return "\n".join(lines)


@dataclass
class _Pair:
    gold: int  # index into the gold queries
    neighbour: str  # as generated
    run: str  # as the comparison runs it
    state: str = "pending"  # pending, identical, invalid, original, fuzz
    checked: bool = False  # ran (or failed) on some database: validity is settled


def distill_test_suite(
    gold_queries: Sequence[str],
    neighbours: Mapping[str, Sequence[str]],
    write_candidate: CandidateWriter,
    output_dir: str | os.PathLike[str],
    *,
    original: str | os.PathLike[str] | None = None,
    max_databases: int = 20,
    candidates: int = 200,
    timeout: float = 2.0,
    max_rows: int = 1_000,
    seed: int = 0,
    benchmark: str = "",
    schema_source: str = "",
    dialect: str = "mysql",
    overwrite: bool = False,
    progress: Callable[[DistillationProgress], None] | None = None,
) -> SuiteReport:
    """Build a test suite in ``output_dir``: keep candidate databases that distinguish pending pairs.

    Pairs are (gold query, one of its ``neighbours``). A database *distinguishes* a pair when
    both queries run on it and their results differ under the test-suite comparison of Zhong,
    Yu and Klein 2020 (:func:`~textattack_semparse.sql.suite_preparation.prepare_for_test_suite`
    on both queries, then
    :func:`~textattack_semparse.sql.denotation.denotations_match_test_suite`, ordered when
    :func:`~textattack_semparse.sql.denotation.query_is_ordered_test_suite` says so).

    1. A neighbour equal to its gold as the comparison runs them (both rewritten, parsed and
       rendered again) is dropped as *identical*. A neighbour that fails on the first database
       it runs on, or whose gold fails there, is dropped as *invalid*; a time-out decides nothing.
    2. The original database, when given, starts the suite: the pairs it distinguishes are done.
    3. Candidates ``i = 0, 1, ...`` are written with ``write_candidate(i, path)``; every gold
       query and every pending neighbour (of a gold that ran) runs on it. It is kept, as
       ``output_dir/fuzz-<i:04d>.sqlite``, when it distinguishes at least one pending pair,
       and deleted otherwise.
    4. It stops after ``max_databases`` kept, ``candidates`` tried, or when no pair is pending.

    The report is written to ``output_dir/report.json`` and returned. Queries run read-only
    in :class:`~textattack_semparse.sql.sqlite_executor.SQLiteExecutor` with ``timeout``
    seconds and ``max_rows`` rows each; a candidate's results are computed once per distinct
    query. Reproducible when ``write_candidate`` is deterministic in its index.

    Args:
        gold_queries: Distinct gold queries, in a fixed order.
        neighbours: Gold query -> its neighbours (:func:`neighbour_queries`); missing: none.
        write_candidate: Writes candidate database ``index`` at the path given; returns its path.
        output_dir: The suite folder (created).
        original: The benchmark's original database, or None.
        max_databases: Fuzz databases kept at most (the size cap).
        candidates: Candidates tried at most.
        timeout: Seconds each query may run on each database.
        max_rows: Rows kept per result (a longer result compares by its first rows and a flag).
        seed: Recorded in the report (the writer owns the randomness).
        benchmark: Benchmark name, for the report.
        schema_source: Where the schema came from, for the report.
        dialect: sqlglot dialect of the gold queries (to spot neighbours identical to them).
        overwrite: Replace a suite already in ``output_dir`` (its ``fuzz-*.sqlite`` and report).
        progress: Called after each candidate.

    Raises:
        DatasetError: ``output_dir`` already holds a suite and ``overwrite`` is False.
        ValueError: ``max_databases``, ``candidates`` or ``max_rows`` is negative (or zero for
            ``max_rows``), or ``gold_queries`` repeats a query.
    """
    started = time.monotonic()
    _check_arguments(gold_queries, max_databases, candidates, max_rows)
    suite_dir = Path(output_dir)
    prepare_suite_folder(suite_dir, overwrite=overwrite)
    golds = list(gold_queries)
    gold_runs = [prepare_for_test_suite(gold) for gold in golds]
    ordered = [query_is_ordered_test_suite(run) for run in gold_runs]
    pairs = _make_pairs(golds, gold_runs, neighbours, dialect)
    gold_state: list[str | None] = [None] * len(golds)  # None (not run to the end yet), "ok" or "failed"
    gold_errors: dict[int, str] = {}

    def judge(path: Path) -> tuple[list[_Pair], set[int]]:
        """Run on ``path``; return the pending pairs it distinguishes and the non-empty golds."""
        # Not the shared executor_for(): candidates are temporary files, and its cache is keyed by
        # path; within one database every distinct query runs once (``results``).
        executor = SQLiteExecutor(path, timeout=timeout, max_rows=max_rows, cache_size=0, text_errors="ignore")
        results: dict[str, ExecutionResult] = {}

        def run(sql: str) -> ExecutionResult:
            result = results.get(sql)
            if result is None:
                result = results[sql] = executor.execute(sql)
            return result

        try:
            gold_results: dict[int, ExecutionResult] = {}
            for index, sql in enumerate(gold_runs):
                if gold_state[index] not in (None, "ok"):
                    continue
                result = run(sql)
                if result.ok:
                    gold_state[index] = "ok"
                    gold_results[index] = result
                elif not result.timed_out and gold_state[index] is None:
                    gold_state[index] = "failed"
                    gold_errors[index] = result.error or ""
            distinguished = []
            for pair in pairs:
                if pair.state != "pending":
                    continue
                if gold_state[pair.gold] == "failed":
                    pair.state = "invalid"
                    continue
                gold_result = gold_results.get(pair.gold)
                if gold_result is None:
                    continue
                result = run(pair.run)
                if result.timed_out:
                    continue
                if not result.ok:
                    if not pair.checked:
                        pair.state = "invalid"
                    continue
                pair.checked = True
                if not denotations_match_test_suite(result, gold_result, ordered=ordered[pair.gold]):
                    distinguished.append(pair)
            nonempty = {index for index, result in gold_results.items() if result.rows}
            return distinguished, nonempty
        finally:
            executor.close()

    def pending() -> int:
        return sum(pair.state == "pending" for pair in pairs)

    nonempty_everywhere = set(range(len(golds)))
    nonempty_on_original: set[int] | None = None
    if original is not None:
        distinguished, nonempty_on_original = judge(Path(original))
        for pair in distinguished:
            pair.state = "original"
        nonempty_everywhere &= nonempty_on_original
    kept: list[str] = []
    tried = 0
    while tried < candidates and len(kept) < max_databases and pending():
        index = tried
        tried += 1
        temporary = suite_dir / f".candidate-{index:04d}.sqlite"
        written = Path(write_candidate(index, temporary))
        try:
            distinguished, nonempty = judge(written)
        except BaseException:
            written.unlink(missing_ok=True)
            raise
        if distinguished:
            for pair in distinguished:
                pair.state = "fuzz"
            name = fuzz_file_name(index)
            written.replace(suite_dir / name)
            kept.append(name)
            nonempty_everywhere &= nonempty
        else:
            written.unlink(missing_ok=True)
        if progress is not None:
            progress(DistillationProgress(tried=tried, kept=len(kept), pending=pending(), candidates=candidates))
    for index, state in enumerate(gold_state):  # golds that never completed cannot be non-empty
        if state != "ok":
            nonempty_everywhere.discard(index)
    if original is None and not kept:
        nonempty_everywhere.clear()  # an empty suite: no gold query has rows on it

    states = ("identical", "invalid", "original", "fuzz", "pending")
    count = {state: sum(pair.state == state for pair in pairs) for state in states}
    valid = len(pairs) - count["identical"] - count["invalid"]
    report = SuiteReport(
        benchmark=benchmark,
        seed=seed,
        schema_source=schema_source,
        original_database=None if original is None else str(original),
        databases=tuple(kept),
        candidates_tried=tried,
        max_databases=max_databases,
        candidates=candidates,
        query_timeout=timeout,
        gold_queries=len(golds),
        gold_failing=len(gold_errors),
        gold_failing_examples=tuple((golds[index], gold_errors[index]) for index in sorted(gold_errors)[:MAX_EXAMPLES]),
        gold_nonempty_on_original=None if nonempty_on_original is None else len(nonempty_on_original),
        gold_nonempty_on_every_database=len(nonempty_everywhere),
        neighbours_generated=len(pairs),
        neighbours_identical=count["identical"],
        neighbours_invalid=count["invalid"],
        neighbours_valid=valid,
        distinguished_by_original=None if original is None else count["original"],
        distinguished_by_suite=count["original"] + count["fuzz"],
        undistinguished=count["pending"],
        undistinguished_examples=tuple(
            (golds[pair.gold], pair.neighbour) for pair in pairs if pair.state == "pending"
        )[:MAX_EXAMPLES],
        seconds=round(time.monotonic() - started, 3),
    )
    (suite_dir / REPORT_FILE).write_text(report.to_json(), encoding="utf-8")
    return report


def _check_arguments(gold_queries: Sequence[str], max_databases: int, candidates: int, max_rows: int) -> None:
    limits = (("max_databases", max_databases, 0), ("candidates", candidates, 0), ("max_rows", max_rows, 1))
    for name, value, minimum in limits:
        check_count(name, value, minimum=minimum)
    if len(set(gold_queries)) != len(gold_queries):
        raise ValueError("gold_queries must be distinct; pass sorted(set(queries)) or dict.fromkeys(queries).")


def prepare_suite_folder(suite_dir: str | os.PathLike[str], *, overwrite: bool) -> None:
    """Create the suite folder; refuse a folder that already holds a suite, or empty it.

    Only a suite's own files go: ``fuzz-*.sqlite``, left-over candidates and ``report.json``.

    Raises:
        DatasetError: The folder holds a suite and ``overwrite`` is False.
    """
    suite_dir = Path(suite_dir)
    suite_dir.mkdir(parents=True, exist_ok=True)
    existing = sorted(suite_dir.glob("fuzz-*.sqlite")) + sorted(suite_dir.glob(".candidate-*.sqlite"))
    if (suite_dir / REPORT_FILE).exists():
        existing.append(suite_dir / REPORT_FILE)
    if not existing:
        return
    if not overwrite:
        raise DatasetError(
            f"{str(suite_dir)!r} already holds a test suite ({len(existing)} files such as {existing[0].name!r}). "
            "Choose another output directory, or pass --overwrite (overwrite=True) to replace it."
        )
    for path in existing:
        path.unlink()


def _make_pairs(
    golds: Sequence[str], gold_runs: Sequence[str], neighbours: Mapping[str, Sequence[str]], dialect: str
) -> list[_Pair]:
    pairs = []
    for index, (gold, gold_run) in enumerate(zip(golds, gold_runs)):
        canonical_gold = None
        for neighbour in dict.fromkeys(neighbours.get(gold, ())):
            run = prepare_for_test_suite(neighbour)
            pair = _Pair(gold=index, neighbour=neighbour, run=run)
            if run == gold_run:
                pair.state = "identical"
            elif _DISTINCT in gold.lower() or _DISTINCT in neighbour.lower():
                # Removing DISTINCT may have made them equal: compare them as sqlglot renders them.
                # (Parsing is slow, and without DISTINCT the rewriting changes nothing else that
                # an edit could have undone.)
                if canonical_gold is None:
                    canonical_gold = _canonical(gold_run, dialect) or gold_run
                if _canonical(run, dialect) == canonical_gold:  # read alike: comma joins render alike
                    pair.state = "identical"
            pairs.append(pair)
    return pairs


def _canonical(sql: str, dialect: str) -> str | None:
    """``sql`` parsed in ``dialect`` and rendered as SQLite, or None when sqlglot cannot."""
    try:
        tree = sqlglot.parse_one(sql, read=dialect)
        return None if tree is None else tree.sql(dialect="sqlite")
    except (SqlglotError, RecursionError, ValueError):
        return None
