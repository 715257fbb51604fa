"""Named benchmarks: the one owner of their examples, splits, databases and scorer.

Benchmarks are registered through the plugin registry (``semparse_benchmarks``), the
built-in ones like any package's; ``load_benchmark("geo")`` loads one by name. Dataset
names, ``knn-*`` victims and bound attack recipes are derived from the benchmark table
(:func:`textattack_semparse.registry.derived_entries`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from textattack_semparse.datasets.data_dir import resolve_data_dir
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.text2sql import select_split
from textattack_semparse.errors import DatasetError
from textattack_semparse.scoring.databases import Databases
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

    def __post_init__(self) -> None:
        object.__setattr__(self, "examples", tuple(self.examples))

    def __repr__(self) -> str:
        return f"Benchmark({self.name!r}, {len(self.examples)} examples, {self.scoring.describe()})"

    @property
    def databases(self) -> Databases | None:
        """Where the gold outputs run (``None`` for benchmarks scored without a database)."""
        return self.scoring.databases

    @property
    def database(self) -> Path | None:
        """The benchmark's (first) SQLite file, for victims that read one database's values;
        ``None`` for per-``db_id`` benchmarks and benchmarks without a database."""
        return None if self.databases is None else self.databases.primary

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


@functools.lru_cache(maxsize=None)
def _cached_benchmark(name: str, data_dir: Path | None) -> Benchmark:
    from textattack_semparse.registry import get_registry

    entry = get_registry().get("benchmark", name)
    benchmark = entry.create(name=name, data_dir=data_dir)
    if not isinstance(benchmark, Benchmark):
        raise DatasetError(
            f"Benchmark {name!r} from plugin {entry.provider!r}: {entry.target} returned "
            f"{type(benchmark).__name__}, not a Benchmark."
        )
    return benchmark


def load_benchmark(name: str, *, data_dir: str | Path | None = None) -> Benchmark:
    """Load a registered benchmark by name; the result is cached per (name, data directory).

    Args:
        name (str): A registered benchmark (``textattack-semparse list benchmark``):
            ``"geo"`` (the real GeoQuery when a data directory is configured, else
            ``"geo-mini"``), ``"geo-mini"`` (embedded), or a real-data benchmark:
            ``"geoquery"``, ``"atis"``, ``"scholar"``, ``"advising"``, ``"spider"``,
            ``"geo-lambda"``, ``"jobs-lambda"``, ``"atis-lambda"`` (see ``docs/datasets.md``).
            Case and ``_``/``-`` do not matter.
        data_dir (str | Path | None): The real-data folder; default ``$SEMPARSE_DATA_DIR``.

    Raises:
        RegistryError: Unknown name (with the registered names and the closest one).
        DatasetError: A real-data benchmark without a data directory, or missing or
            malformed files.

    Example:
        >>> load_benchmark("geo-mini").name
        'geo-mini'
    """
    key = name.strip().lower().replace("_", "-")
    return _cached_benchmark(key, resolve_data_dir(data_dir))


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
