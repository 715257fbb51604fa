"""Named benchmarks: the one owner of their examples, splits, databases and scorer.

Benchmarks are registered through the plugin registry (``semparse_benchmarks``), the
built-in ones like any package's; ``load_benchmark("geo")`` loads one by name. Dataset
names, ``knn-*`` victims and bound attack recipes are derived from the benchmark table
(:func:`textattack_semparse.registry.derived_entries`).
"""

from __future__ import annotations

import dataclasses
import functools
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textattack_semparse.datasets.data_dir import resolve_data_dir, resolve_test_suite_dir
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.geoquery_constants import KnownConstant
from textattack_semparse.datasets.text2sql import select_split
from textattack_semparse.errors import DatasetError, SchemaError
from textattack_semparse.registry import benchmark_key
from textattack_semparse.scoring.databases import Databases
from textattack_semparse.scoring.execution_scorer import ExecutionScorer
from textattack_semparse.scoring.scoring import Scoring

if TYPE_CHECKING:
    from textattack_semparse.datasets.text2sql_dataset import Text2SQLDataset


@dataclass(frozen=True)
class Benchmark:
    """A loaded benchmark: every example of every split, and how its outputs are judged.

    Original to textattack-semparse.

    Args:
        name (str): The registered name (``"geo-mini"``, ``"geoquery"``).
        examples (tuple[SemparseExample, ...]): All examples, in file order.
        scoring (Scoring): The scorer (execution or exact match) and the databases gold
            outputs run on (one file, a suite of one schema, one per ``db_id``, or none).
        source (str, default ""): Where the data came from, for reports.
        schema_file (Path | None, default None): The schema as the benchmark publishes it
            (text2sql-data's ``<stem>-schema.csv``), for tools that need the schema of a
            benchmark without a database (test-suite generation).
        test_suite (Path | None, default None): The distilled test suite the benchmark is
            scored on (see :meth:`with_test_suite`).
        source_files (Mapping[str, Path], default {}): Split name -> the file holding its
            examples (one text2sql-data JSON for every split, or one file per split), for tools
            that write augmented copies of a split (``augment --dataset``); kept as sorted
            ``(split, path)`` pairs, read with :meth:`source_file`.
        source_format (str | None, default None): The files' format: ``"text2sql"``
            (text2sql-data JSON), ``"tsv"`` (``question<TAB>logical form``), ``"spider"``; Table QA:
            ``"wtq"`` (WikiTableQuestions ``data/*.tsv``), ``"wikisql"``, ``"sqa"``.
        known_constants (tuple[KnownConstant, ...], default ()): Logical forms: constants of the
            benchmark's domain beyond its examples (``geo-lambda``: GeoQuery's states, cities and
            rivers), so entity anonymisation also finds entities that training never saw.
        leaderboard (str | None, default None): Released robustness benchmarks only (RobuT,
            Dr.Spider, Huang et al.'s sets: examples that are originals and rewrites, see
            :class:`~textattack_semparse.datasets.example.SemparseExample`): the name of the table
            ``robustness evaluate --dataset`` prints (a layout of
            :mod:`textattack_semparse.robustness.leaderboards`, e.g. ``"robut"``); ``None`` for a
            benchmark that is not a released robustness benchmark.
        left_out (Mapping[str, Mapping[str, int]], default empty): Released robustness benchmarks
            only: perturbation -> why release lines became no example (Huang et al.'s: "original
            not found in the benchmark") -> how many; ``robustness evaluate --dataset`` reports them.

    Example:
        >>> geo = load_benchmark("geo-mini")
        >>> len(geo.split("question", "test")) > 0, geo.scoring.scorer.name
        (True, 'execution')
    """

    name: str
    examples: tuple[SemparseExample, ...]
    scoring: Scoring
    source: str = ""
    schema_file: Path | None = None
    test_suite: Path | None = None
    source_files: Mapping[str, Path] | tuple[tuple[str, Path], ...] = ()
    source_format: str | None = None
    known_constants: tuple[KnownConstant, ...] = ()
    leaderboard: str | None = None
    left_out: Mapping[str, Mapping[str, int]] | tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "examples", tuple(self.examples))
        object.__setattr__(self, "source_files", tuple(sorted(dict(self.source_files).items())))
        object.__setattr__(
            self, "left_out", tuple((name, tuple(dict(counts).items())) for name, counts in dict(self.left_out).items())
        )

    def source_file(self, split: str) -> Path | None:
        """The file holding the examples of ``split`` (``None`` when unknown)."""
        return dict(self.source_files).get(split)

    def with_test_suite(self, folder: str | Path) -> Benchmark:
        """This benchmark scored on a distilled test suite: test-suite execution accuracy.

        Zhong, Yu and Klein (2020), "Semantic Evaluation for Text-to-SQL with Distilled Test
        Suites" (https://aclanthology.org/2020.emnlp-main.29/), the metric of Zhuo et al.
        (2023): a prediction is correct only if it matches the gold on every database of the
        suite, compared as their evaluator compares (``mode="test-suite"``). The suite is the
        benchmark's own database (when it has one) followed by the ``*.sqlite`` files of
        ``folder`` (``textattack-semparse test-suite build`` writes them); a benchmark scored
        by exact match (Scholar: no database) becomes execution-scored. Timeouts of an
        execution scorer carry over.

        Raises:
            SchemaError: ``folder`` holds no ``*.sqlite`` file, or the benchmark has one
                database per ``db_id`` (those take suites beside each database).
        """
        folder = Path(folder)
        members = sorted(folder.glob("*.sqlite"))
        if not members:
            raise SchemaError(
                f"Test suite {str(folder)!r} of benchmark {self.name!r} holds no *.sqlite database. Build it with "
                f"'textattack-semparse test-suite build --benchmark {self.name} --output-dir {folder.parent}'."
            )
        databases = self.databases
        if databases is not None and databases.root is not None:
            raise SchemaError(
                f"Benchmark {self.name!r} has one database per db_id; put each database's suite beside it "
                f"('<db_id>/*.sqlite' under {str(databases.root)!r}) instead of a test-suite directory."
            )
        scorer = self.scoring.scorer
        scorer = (
            dataclasses.replace(scorer, mode="test-suite")
            if isinstance(scorer, ExecutionScorer)
            else ExecutionScorer(mode="test-suite")
        )
        original = () if databases is None else databases.files
        return dataclasses.replace(
            self,
            scoring=Scoring(scorer, Databases.suite((*original, *members))),
            source=f"{self.source}; test suite {folder}",
            test_suite=folder,
        )

    def __repr__(self) -> str:
        return f"Benchmark({self.name!r}, {len(self.examples)} examples, {self.scoring.describe()})"

    @property
    def databases(self) -> Databases | None:
        """Where the gold outputs run (``None`` for benchmarks scored without a database)."""
        return self.scoring.databases

    @property
    def database(self) -> Path | None:
        """The benchmark's own SQLite file, for victims that read one database's values;
        ``None`` for per-``db_id`` benchmarks and benchmarks without a database (a test suite's
        fuzzed databases are not the benchmark's: their planted values come from gold queries)."""
        primary = None if self.databases is None else self.databases.primary
        if primary is None or (self.test_suite is not None and primary.parent == self.test_suite):
            return None
        return primary

    def split(self, split_type: str = "question", split: str | None = "test") -> list[SemparseExample]:
        """The examples of one split (``None``: all) of the ``"question"`` or ``"query"`` split.

        Raises:
            DatasetError: No example is in ``split``; the message lists the splits that exist.
            ValueError: ``split_type`` is neither ``"question"`` nor ``"query"``.
        """
        return select_split(
            self.examples, split_type, None if split is None else [split], source=f"benchmark {self.name!r}"
        )

    def dataset(self, split_type: str = "question", split: str | None = "test") -> Text2SQLDataset:
        """:meth:`split` as a TextAttack dataset (imports TextAttack) that carries this benchmark."""
        from textattack_semparse.datasets.text2sql_dataset import Text2SQLDataset

        return Text2SQLDataset(self.split(split_type, split), benchmark=self)


def benchmark_names() -> tuple[str, ...]:
    """The registered benchmark names, sorted."""
    from textattack_semparse.registry import get_registry

    return tuple(get_registry().names("benchmark"))


@functools.cache
def _cached_benchmark(name: str, data_dir: Path | None, test_suite_dir: Path | None) -> Benchmark:
    from textattack_semparse.registry import get_registry

    entry = get_registry().get("benchmark", name)
    benchmark = entry.create(name=name, data_dir=data_dir)
    if not isinstance(benchmark, Benchmark):
        raise DatasetError(
            f"Benchmark {name!r} from plugin {entry.provider!r}: {entry.target} returned "
            f"{type(benchmark).__name__}, not a Benchmark."
        )
    if test_suite_dir is not None and (test_suite_dir / benchmark.name).is_dir():
        return benchmark.with_test_suite(test_suite_dir / benchmark.name)
    return benchmark


def load_benchmark(
    name: str,
    *,
    data_dir: str | os.PathLike[str] | None = None,
    test_suite_dir: str | os.PathLike[str] | None = None,
    use_test_suite: bool = True,
) -> Benchmark:
    """Load a registered benchmark by name; the result is cached per (name, data directory).

    Args:
        name (str): A registered benchmark (``textattack-semparse list benchmark``):
            ``"geo"`` (the real GeoQuery when a data directory is configured, else
            ``"geo-mini"``), ``"geo-mini"`` (embedded), or a real-data benchmark:
            ``"geoquery"``, ``"atis"``, ``"scholar"``, ``"advising"``, ``"spider"``,
            ``"geo-lambda"``, ``"jobs-lambda"``, ``"atis-lambda"``, and the Table QA benchmarks
            ``"wtq"``, ``"wikisql-weak"``, ``"sqa"`` (see ``docs/datasets.md``).
            Case and ``_``/``-`` do not matter.
        data_dir (str | os.PathLike | None): The real-data folder; default ``$SEMPARSE_DATA_DIR``.
        test_suite_dir (str | os.PathLike | None): A folder of distilled test suites; default
            ``$SEMPARSE_TEST_SUITE_DIR``. When it holds a folder named after the loaded
            benchmark (``geoquery/``, ``scholar/``), the benchmark is scored on that suite
            (:meth:`Benchmark.with_test_suite`).
        use_test_suite (bool): ``False`` loads the benchmark as published, whatever suite is
            configured (``test-suite build`` does, to build one).

    Raises:
        RegistryError: Unknown name (with the registered names and the closest one).
        DatasetError: A real-data benchmark without a data directory, or missing or
            malformed files; a configured directory that does not exist.
        SchemaError: The benchmark's test-suite folder holds no database.

    Example:
        >>> load_benchmark("geo-mini").name
        'geo-mini'
    """
    key = benchmark_key(name)
    suite_dir = resolve_test_suite_dir(test_suite_dir) if use_test_suite else None
    return _cached_benchmark(key, resolve_data_dir(data_dir), suite_dir)


def clear_benchmark_cache() -> None:
    """Forget loaded benchmarks (e.g. after the data or cache directory changed)."""
    _cached_benchmark.cache_clear()


def benchmark_dataset(
    benchmark: str, split_type: str = "question", split: str | None = "test", *, data_dir: str | Path | None = None
) -> Text2SQLDataset:
    """One split of a benchmark as a TextAttack dataset (the target of derived dataset names).

    Example:
        >>> len(benchmark_dataset("geo-mini", "question", "test")) > 0
        True
    """
    return load_benchmark(benchmark, data_dir=data_dir).dataset(split_type, split)


def benchmark_split(
    benchmark: str, split_type: str = "question", split: str | None = "test", *, data_dir: str | Path | None = None
) -> tuple[Benchmark, list[SemparseExample]]:
    """The benchmark and the examples of one of its splits: :func:`benchmark_dataset` without
    TextAttack's dataset (nor its import), for a workflow that reads the examples.

    Example:
        >>> loaded, examples = benchmark_split("geo-mini", "question", "test")
        >>> loaded.name, len(examples) == len(benchmark_dataset("geo-mini", "question", "test"))
        ('geo-mini', True)
    """
    loaded = load_benchmark(benchmark, data_dir=data_dir)
    return loaded, loaded.split(split_type, split)
