"""Named benchmarks: the examples, the database they run on and how outputs are scored.

``load_benchmark("geo")`` is the entry point. Benchmarks are listed in
:data:`BENCHMARK_LOADERS` (name -> loader); adding a benchmark means adding a loader there.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

from textattack_semparse.datasets.data_dir import DATA_DIR_ENV, resolve_data_dir
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.datasets.logical_form import load_logical_forms
from textattack_semparse.datasets.spider import load_spider
from textattack_semparse.datasets.text2sql import load_text2sql, select_split
from textattack_semparse.errors import DatasetError, closest_match_hint

if TYPE_CHECKING:
    from textattack_semparse.datasets.text2sql_dataset import Text2SQLDataset

METRICS = ("execution", "exact")
"""``execution``: compare query results on :attr:`Benchmark.database` (or the example's database
under :attr:`Benchmark.database_root`); ``exact``: compare normalised strings."""


@dataclass(frozen=True)
class Benchmark:
    """A loaded benchmark: every example of every split, plus where and how to score them.

    Original to textattack-semparse.

    Args:
        name (str): The benchmark's name (``"geo-mini"``, ``"geoquery"``).
        examples (tuple[SemparseExample, ...]): All examples, in file order.
        database (Path | None): The SQLite database gold queries run on; ``None`` when the
            benchmark has none or one per example (Spider).
        metric (str, default ``"execution"``): ``"execution"`` or ``"exact"`` (the only
            choice without a database).
        source (str, default ``""``): Where the data came from, for reports.
        database_root (Path | None, default None): For multi-database benchmarks (Spider):
            the folder where the database of an example is
            ``<database_root>/<db_id>/<db_id>.sqlite``.

    Example:
        >>> geo = load_benchmark("geo-mini")
        >>> len(geo.split("question", "test")) > 0, geo.metric
        (True, 'execution')
    """

    name: str
    examples: tuple[SemparseExample, ...]
    database: Path | None
    metric: str = "execution"
    source: str = ""
    database_root: Path | None = None

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise ValueError(
                f"metric={self.metric!r} is not one of {METRICS}.{closest_match_hint(self.metric, METRICS)}"
            )
        if self.metric == "execution" and self.database is None and self.database_root is None:
            raise ValueError(f"Benchmark {self.name!r} has no database, so its metric must be 'exact'.")
        object.__setattr__(self, "examples", tuple(self.examples))

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
        """:meth:`split` as a TextAttack dataset (imports TextAttack)."""
        from textattack_semparse.datasets.text2sql_dataset import Text2SQLDataset

        return Text2SQLDataset(self.split(split_type, split))


BenchmarkLoader = Callable[[Path | None], Benchmark]
"""Builds a benchmark from the resolved data directory (``None`` when none is configured)."""


def _load_geo_mini(data_dir: Path | None) -> Benchmark:
    """GeoQuery-style questions on a small US-geography database, embedded in the package."""
    json_path, database = geo_mini_paths()
    return Benchmark(
        name="geo-mini",
        examples=tuple(load_text2sql(json_path)),
        database=database,
        metric="execution",
        source=f"embedded geo-mini, written by textattack-semparse from public facts ({json_path})",
    )


def _require_data_dir(name: str, data_dir: Path | None) -> Path:
    if data_dir is None:
        raise DatasetError(
            f"Benchmark {name!r} reads the real data, but no data directory is configured. "
            f"Set {DATA_DIR_ENV} (or pass --data-dir / data_dir=) to the folder holding 'text2sql/' "
            f"(and 'spider-dev/', 'lambda/'), or use 'geo-mini', which is embedded."
        )
    return data_dir


def _text2sql_database(folder: Path, stem: str) -> Path | None:
    """``<stem>.sqlite`` if present, else ``<stem>-db.sql`` (a MySQL dump) converted, else ``None``."""
    sqlite_path = folder / f"{stem}.sqlite"
    if sqlite_path.is_file():
        return sqlite_path
    dump = folder / f"{stem}-db.sql"
    if dump.is_file():
        from textattack_semparse.sql.mysql_dump import cached_sqlite_from_dump

        return cached_sqlite_from_dump(dump)
    return None


def _text2sql_loader(name: str, stem: str, description: str, *, needs_database: bool) -> BenchmarkLoader:
    """A loader for ``<data_dir>/text2sql/<stem>.json`` and its database (see :func:`_text2sql_database`)."""

    def load(data_dir: Path | None) -> Benchmark:
        folder = _require_data_dir(name, data_dir) / "text2sql"
        json_path = folder / f"{stem}.json"
        examples = tuple(load_text2sql(json_path))
        database = _text2sql_database(folder, stem)
        if database is None and needs_database:
            raise DatasetError(
                f"Benchmark {name!r} needs its database: neither {str(folder / f'{stem}.sqlite')!r} nor the "
                f"MySQL dump {str(folder / f'{stem}-db.sql')!r} exists. Put one of them there."
            )
        return Benchmark(
            name=name,
            examples=examples,
            database=database,
            metric="execution" if database is not None else "exact",
            source=f"{description}; questions {json_path}; database {database}",
        )

    load.__doc__ = description
    return load


_load_geoquery = _text2sql_loader(
    "geoquery",
    "geography",
    "GeoQuery (Zelle & Mooney 1996) in the text2sql-data format (Finegan-Dollak et al. 2018)",
    needs_database=True,
)


def _load_geo(data_dir: Path | None) -> Benchmark:
    """The real GeoQuery when a data directory is configured, otherwise the embedded geo-mini."""
    return _load_geoquery(data_dir) if data_dir is not None else _load_geo_mini(data_dir)


_load_atis = _text2sql_loader(
    "atis",
    "atis",
    "ATIS (Hemphill et al. 1990; Dahl et al. 1994) in the text2sql-data format (Finegan-Dollak et al. 2018), "
    "executed on a SQLite rebuild of the ATIS-3 tables",
    needs_database=True,
)
_load_scholar = _text2sql_loader(
    "scholar",
    "scholar",
    "Scholar (Iyer et al. 2017) in the text2sql-data format (Finegan-Dollak et al. 2018); exact match on SQL "
    "unless text2sql/scholar.sqlite exists",
    needs_database=False,
)
_load_advising = _text2sql_loader(
    "advising",
    "advising",
    "Advising (Finegan-Dollak et al. 2018) in the text2sql-data format; exact match on SQL unless "
    "text2sql/advising.sqlite exists",
    needs_database=False,
)


def _load_spider(data_dir: Path | None) -> Benchmark:
    """Spider (Yu et al. 2018) dev set: 1,034 questions over 20 SQLite databases, one per ``db_id``."""
    folder = _require_data_dir("spider", data_dir) / "spider-dev"
    json_path = folder / "dev.json"
    examples = tuple(load_spider(json_path, split="dev"))
    root = folder / "database"
    if not root.is_dir():
        raise DatasetError(
            f"Benchmark 'spider' needs its databases under {str(root)!r} (one '<db_id>/<db_id>.sqlite' "
            f"per database), but that folder does not exist. Put Spider's 'database/' folder there."
        )
    return Benchmark(
        name="spider",
        examples=examples,
        database=None,
        metric="execution",
        source=f"Spider dev set (Yu et al. 2018); questions {json_path}; databases {root}",
        database_root=root,
    )


def _logical_form_loader(name: str, folder: str, files: Mapping[str, str], description: str) -> BenchmarkLoader:
    """A loader for ``<data_dir>/lambda/<folder>/<file>`` per split, scored by exact match."""

    def load(data_dir: Path | None) -> Benchmark:
        directory = _require_data_dir(name, data_dir) / "lambda" / folder
        examples = tuple(
            example for split, file in files.items() for example in load_logical_forms(directory / file, split=split)
        )
        return Benchmark(
            name=name,
            examples=examples,
            database=None,
            metric="exact",
            source=f"{description}; files {', '.join(str(directory / file) for file in files.values())}",
        )

    load.__doc__ = description
    return load


_load_geo_lambda = _logical_form_loader(
    "geo-lambda",
    "geo",
    {"train": "geo_lambda_calculus_train.tsv", "test": "geo_lambda_calculus_test.tsv"},
    "GeoQuery in lambda calculus (Zettlemoyer & Collins 2005 split, 600/280), natural questions with entities "
    "spelled out",
)
_load_jobs_lambda = _logical_form_loader(
    "jobs-lambda",
    "jobs",
    {"train": "job_lambda_train.tsv", "test": "job_lambda_test.tsv"},
    "JOBS (Tang & Mooney 2001) in lambda calculus (500/140), natural questions",
)
_load_atis_lambda = _logical_form_loader(
    "atis-lambda",
    "atis",
    {"train": "train.txt", "dev": "dev.txt", "test": "test.txt"},
    "ATIS in lambda calculus as preprocessed by Dong & Lapata 2016 (4434/491/448): entities anonymised "
    "(ci0, al0), words stemmed",
)


BENCHMARK_LOADERS: Mapping[str, BenchmarkLoader] = MappingProxyType(
    {
        "advising": _load_advising,
        "atis": _load_atis,
        "atis-lambda": _load_atis_lambda,
        "geo": _load_geo,
        "geo-lambda": _load_geo_lambda,
        "geo-mini": _load_geo_mini,
        "geoquery": _load_geoquery,
        "jobs-lambda": _load_jobs_lambda,
        "scholar": _load_scholar,
        "spider": _load_spider,
    }
)
"""Benchmark name -> loader; each loader's docstring describes the benchmark."""


def benchmark_names() -> tuple[str, ...]:
    """The accepted benchmark names, sorted."""
    return tuple(sorted(BENCHMARK_LOADERS))


@functools.lru_cache(maxsize=None)
def _cached_benchmark(name: str, data_dir: Path | None) -> Benchmark:
    return BENCHMARK_LOADERS[name](data_dir)


def load_benchmark(name: str, *, data_dir: str | Path | None = None) -> Benchmark:
    """Load a benchmark by name; the result is cached per (name, data directory).

    Args:
        name (str): One of :func:`benchmark_names`: ``"geo"`` (the real GeoQuery when a data
            directory is configured, else ``"geo-mini"``), ``"geo-mini"`` (embedded), or a
            real-data benchmark: ``"geoquery"``, ``"atis"``, ``"scholar"``, ``"advising"``,
            ``"spider"``, ``"geo-lambda"``, ``"jobs-lambda"``, ``"atis-lambda"`` (see
            ``docs/datasets.md``). Case and ``_``/``-`` do not matter.
        data_dir (str | Path | None): The real-data folder; default ``$SEMPARSE_DATA_DIR``.

    Raises:
        DatasetError: Unknown name (with the accepted names and the closest one), a real-data
            benchmark without a data directory, or missing or malformed files.

    Example:
        >>> load_benchmark("geo-mini").name
        'geo-mini'
    """
    key = name.strip().lower().replace("_", "-")
    if key not in BENCHMARK_LOADERS:
        raise DatasetError(
            f"Unknown benchmark {name!r}; accepted: {', '.join(benchmark_names())}."
            f"{closest_match_hint(key, BENCHMARK_LOADERS)}"
        )
    return _cached_benchmark(key, resolve_data_dir(data_dir))


def clear_benchmark_cache() -> None:
    """Forget loaded benchmarks (e.g. after the data or cache directory changed)."""
    _cached_benchmark.cache_clear()


def benchmark_dataset(
    benchmark: str, split_type: str = "question", split: str | None = "test", *, data_dir: str | Path | None = None
) -> Text2SQLDataset:
    """One split of a benchmark as a TextAttack dataset (the target of registered dataset names).

    Example:
        >>> len(benchmark_dataset("geo-mini", "question", "test")) > 0
        True
    """
    return load_benchmark(benchmark, data_dir=data_dir).dataset(split_type, split)
