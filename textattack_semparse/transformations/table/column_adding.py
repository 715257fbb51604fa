"""Column adding
=================

RobuT (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321),
content perturbation "column adding": columns that do not bear on the question, taken from
other tables on related topics, are added to the table.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np

from textattack_semparse.arguments import check_choice, check_count
from textattack_semparse.datasets.data_dir import resolve_data_dir
from textattack_semparse.errors import ResourceError
from textattack_semparse.tables.table import Table, TableError
from textattack_semparse.tables.table_text import TableChange
from textattack_semparse.transformations.table.answer_cells import (
    column_holds_answer,
    header_in_question,
    normalize_value,
    shares_content_word,
)
from textattack_semparse.transformations.table.table_example import TableExample
from textattack_semparse.transformations.table.table_transformation import TableTransformation

SIMILARITIES = ("tfidf", "sentence-bert")
WTQ_TABLE_DIR = Path("wtq") / "csv"
_ANSWER_KEPT = (
    "existing columns unchanged; no added cell holds a gold answer value and the question names no added column"
)


def header_text(table: Table) -> str:
    """The text a table is compared by: its header names, space-separated."""
    return " ".join(name for name in table.header if name.strip())


def read_table_pool(table_dir: Path) -> list[Table]:
    """Every WTQ ``.tsv`` table under ``table_dir``, named by its WTQ context (``csv/204-csv/590.csv``).

    A table outside a WTQ ``<n>-csv`` folder is named by its path under ``table_dir``.
    Unreadable (ragged) files are left out.
    """
    tables = []
    for path in sorted(table_dir.rglob("*.tsv")):
        if path.parent.name.endswith("-csv"):
            name = f"csv/{path.parent.name}/{path.stem}.csv"
        else:
            name = path.relative_to(table_dir).with_suffix(".csv").as_posix()
        try:
            tables.append(Table.from_wtq_tsv(path, name=name))
        except TableError:
            continue
    return tables


class ColumnAdding(TableTransformation):
    """Add columns of the most related other WTQ tables (RobuT's column adding).

    The issue's rule: add columns from other WTQ tables whose headers are most related, by
    Sentence-BERT or TF-IDF, and that do not contain the answer. The pool is a directory of
    WTQ tables (``table_dir``; default ``<SEMPARSE_DATA_DIR>/wtq/csv``), read and indexed on
    first use and kept. Tables are compared by their header text (:func:`header_text`), with
    TF-IDF cosine similarity (scikit-learn) or Sentence-BERT cosine similarity
    (``similarity="sentence-bert"``, through
    :class:`~textattack_semparse.linguistics.sentence_embeddings.SentenceEmbeddings`). A column
    of another table is eligible when its header is not empty, does not repeat one of this
    table's headers (ignoring case), shares no content word with them ("Gold medals" beside
    "Gold") and is not named in the question, and its cells, cut or
    padded with empty cells to this table's row count, hold no gold answer value; the
    eligible columns of the ``related_tables`` most similar tables that have any are drawn
    from: ``num_columns`` of them, by the per-input generator, inserted at drawn positions.

    Args:
        num_columns (int, default 1): Columns added per candidate.
        table_dir (str | None, default None): Directory of WTQ ``.tsv`` tables searched
            recursively; ``None`` = ``<SEMPARSE_DATA_DIR>/wtq/csv``.
        similarity (str, default "tfidf"): ``"tfidf"`` or ``"sentence-bert"``.
        related_tables (int, default 3): How many of the most similar tables with an eligible
            column give columns.
        sentence_bert_model (str | None, default None): Sentence-transformers model for
            ``similarity="sentence-bert"``; ``None`` = the packaged all-MiniLM-L6-v2.
        num_candidates (int, default 1): Perturbed tables per input, at most.
        seed (int | None, default 0): Seed of the per-input generator.

    """

    perturbation = "column-adding"
    needs_gold = True

    def __init__(
        self,
        *,
        num_columns: int = 1,
        table_dir: str | None = None,
        similarity: str = "tfidf",
        related_tables: int = 3,
        sentence_bert_model: str | None = None,
        num_candidates: int = 1,
        seed: int | None = 0,
    ) -> None:
        super().__init__(num_candidates=num_candidates, seed=seed)
        check_count("num_columns", num_columns)
        check_count("related_tables", related_tables)
        check_choice("similarity", similarity, SIMILARITIES)
        if table_dir is not None and not Path(table_dir).is_dir():
            raise ResourceError(f"table_dir {table_dir!r} is not a directory; pass a directory of WTQ .tsv tables.")
        self.num_columns = num_columns
        self.table_dir = table_dir
        self.similarity = similarity
        self.related_tables = related_tables
        self.sentence_bert_model = sentence_bert_model
        self._pool: list[Table] | None = None
        self._index: Any = None

    def pool_dir(self) -> Path:
        """The directory of the table pool.

        Raises:
            ResourceError: No ``table_dir`` was given and ``SEMPARSE_DATA_DIR`` has no ``wtq/csv``.
        """
        if self.table_dir is not None:
            return Path(self.table_dir)
        data_dir = resolve_data_dir()
        if data_dir is None or not (data_dir / WTQ_TABLE_DIR).is_dir():
            raise ResourceError(
                "Column adding needs a pool of WTQ tables: set SEMPARSE_DATA_DIR to a folder holding "
                f"{WTQ_TABLE_DIR}/ (WikiTableQuestions' csv directory) or pass table_dir=."
            )
        return data_dir / WTQ_TABLE_DIR

    def pool(self) -> list[Table]:
        """The tables of the pool, read on first use."""
        if self._pool is None:
            tables = read_table_pool(self.pool_dir())
            if not tables:
                raise ResourceError(f"No WTQ .tsv table under {self.pool_dir()}; pass a directory of WTQ tables.")
            self._pool = tables
        return self._pool

    def _encoder(self) -> Any:
        """The fitted similarity model and the pool's vectors, built on first use."""
        if self._index is None:
            texts = [header_text(table) for table in self.pool()]
            if self.similarity == "tfidf":
                from sklearn.feature_extraction.text import TfidfVectorizer

                vectorizer = TfidfVectorizer(token_pattern=r"(?u)\b\w+\b")
                self._index = (vectorizer, vectorizer.fit_transform(texts))
            else:
                from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings

                embeddings = SentenceEmbeddings(self.sentence_bert_model, cache_size=0)
                self._index = (embeddings, self._normalized(embeddings.encode(texts).numpy()))
        return self._index

    @staticmethod
    def _normalized(vectors: np.ndarray) -> np.ndarray:
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.where(norms == 0, 1, norms)

    def similarities(self, table: Table) -> np.ndarray:
        """Cosine similarity of ``table``'s header text to each pool table's."""
        model, vectors = self._encoder()
        text = header_text(table)
        if self.similarity == "tfidf":
            return np.asarray((vectors @ model.transform([text]).T).todense()).ravel()
        return vectors @ self._normalized(model.encode([text]).numpy())[0]

    def ranked(self, table: Table) -> Iterator[Table]:
        """The other pool tables, most similar to ``table`` first; those with no similarity are left out."""
        scores = self.similarities(table)
        pool = self.pool()
        for i in sorted(range(len(pool)), key=lambda i: (-scores[i], pool[i].name or "")):
            if scores[i] <= 0:
                return
            if pool[i].name != table.name and (pool[i].header, pool[i].rows) != (table.header, table.rows):
                yield pool[i]

    def _eligible(self, example: TableExample) -> list[tuple[str, tuple[str, ...], str]]:
        """Eligible (header, resized cells, source) columns of the ``related_tables`` nearest tables that have one."""
        table = example.table
        taken = {normalize_value(name) for name in table.header}
        existing = " ".join(table.header)
        eligible: list[tuple[str, tuple[str, ...], str]] = []
        sources = 0
        for other in self.ranked(table):
            found = False
            for index, name in enumerate(other.header):
                cells = other.column(index)[: table.num_rows]
                cells += ("",) * (table.num_rows - len(cells))
                if (
                    name.strip()
                    and normalize_value(name) not in taken
                    and not shares_content_word(name, existing)
                    and not header_in_question(name, example.question)
                    and any(cell.strip() for cell in cells)
                    and not column_holds_answer(cells, example.answers or ())
                ):
                    eligible.append((name, cells, other.name or "(unnamed)"))
                    found = True
            sources += found
            if sources == self.related_tables:
                break
        return eligible

    def _plan(self, example: TableExample, rng: random.Random) -> tuple[str | None, list[tuple[Table, TableChange]]]:
        if example.table.num_rows == 0:
            return "table has no rows", []
        eligible = self._eligible(example)
        results: dict[tuple[str, ...], tuple[Table, TableChange]] = {}
        for _ in range(self.num_candidates * 10):
            if len(results) == self.num_candidates:
                break
            chosen: list[tuple[str, tuple[str, ...], str]] = []
            used: set[str] = set()
            for name, cells, source in rng.sample(eligible, len(eligible)):
                if normalize_value(name) not in used and len(chosen) < self.num_columns:
                    chosen.append((name, cells, source))
                    used.add(normalize_value(name))
            if len(chosen) < self.num_columns:
                break
            table = example.table
            for name, cells, _ in chosen:
                table = table.with_columns(rng.randint(0, table.num_columns), [name], [cells])
            description = "; ".join(f"added column {name!r} from {source}" for name, _, source in chosen)
            results.setdefault(
                table.header,
                (table, self.change(description, _ANSWER_KEPT)),
            )
        if not results:
            return "no related column without the answer", []
        return None, list(results.values())

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_pool"] = None
        state["_index"] = None
        return state

    def extra_repr_keys(self) -> list[str]:
        keys = ["num_columns", "table_dir", "similarity", "related_tables", "sentence_bert_model"]
        return keys + super().extra_repr_keys()
