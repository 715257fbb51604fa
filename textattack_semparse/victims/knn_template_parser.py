"""k-nearest-neighbour template parser: the template baseline of text-to-SQL evaluation.

Finegan-Dollak et al. (2018), "Improving Text-to-SQL Evaluation Methodology",
https://aclanthology.org/P18-1033/
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from textattack_semparse.arguments import check_count
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.value_lexicon import Mention, ValueLexicon, normalize_text, word_pattern
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError
from textattack_semparse.victims.semantic_parser import SemanticParser

# Readings (segmentation x type choice) tried per question.
_MAX_READINGS = 16


@dataclass(frozen=True)
class _Reading:
    """One interpretation of a question: which spans are values, and of which type."""

    mentions: tuple[Mention, ...]
    types: tuple[str, ...]

    def anonymized(self, text: str) -> str:
        """``text`` with each mention replaced by its type and per-type index (``state_name0``)."""
        pieces = []
        counts: Counter[str] = Counter()
        last = 0
        for mention, value_type in zip(self.mentions, self.types):
            pieces.append(text[last : mention.start])
            pieces.append(f"{value_type}{counts[value_type]}")
            counts[value_type] += 1
            last = mention.end
        pieces.append(text[last:])
        return "".join(pieces)

    def values_of_type(self) -> dict[str, list[str]]:
        """Type -> values read as that type, in question order."""
        values: dict[str, list[str]] = {}
        for mention, value_type in zip(self.mentions, self.types):
            values.setdefault(value_type, []).append(mention.value)
        return values


@dataclass(frozen=True)
class _Neighbour:
    """One training example as a retrieval target."""

    template_id: int
    template_gold: str
    placeholders: tuple[str, ...]  # in order of appearance in the template question
    types: tuple[str, ...]  # the type of each placeholder
    variables: dict[str, str]  # the example's own values, the last-resort filler

    def typed_filling(self, reading: _Reading) -> dict[str, str] | None:
        """Placeholder -> value if the reading has a value of the right type for each one."""
        available = reading.values_of_type()
        filling = {}
        used: Counter[str] = Counter()
        for placeholder, value_type in zip(self.placeholders, self.types):
            values = available.get(value_type, [])
            if used[value_type] >= len(values):
                return None
            filling[placeholder] = values[used[value_type]]
            used[value_type] += 1
        return filling

    def partial_filling(self, reading: _Reading) -> dict[str, str]:
        """Typed values where possible, then leftover values in order, then the example's own."""
        remaining = [(value_type, m.value) for m, value_type in zip(reading.mentions, reading.types)]
        filling = {}
        for placeholder, value_type in zip(self.placeholders, self.types):
            match = next((pair for pair in remaining if pair[0] == value_type), None)
            if match is not None:
                remaining.remove(match)
                filling[placeholder] = match[1]
        for placeholder in self.placeholders:
            if placeholder not in filling:
                filling[placeholder] = (
                    remaining.pop(0)[1] if remaining else self.variables.get(placeholder, placeholder)
                )
        return filling

    def fill(self, filling: dict[str, str]) -> str:
        if not filling:
            return self.template_gold
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, filling)) + r")\b")
        return pattern.sub(lambda match: filling[match.group(1)], self.template_gold)


class KNNTemplateParser(SemanticParser):
    """Retrieve the SQL template of the most similar training question and fill in its values.

    Fitting (well under a second on GeoQuery, no weights, deterministic):

    1. A lexicon maps database values to types: every training variable value to its
       variable type, plus (``database_values=True``) the string values of each database
       column that a training template compares a placeholder with (``CITY.STATE_NAME =
       "state_name0"`` makes every value of ``CITY.STATE_NAME`` a ``state_name``), except
       values the training questions use as ordinary words ("high point" is also a city).
    2. A TF-IDF vectoriser (word n-grams) is fitted on the anonymised training questions
       (``template_question``).

    Parsing a question: lexicon values are replaced by typed placeholders numbered per type
    (``state_name0``, ``state_name1``). Each *reading* of the question (a segmentation into
    values: leftmost-longest over the whole lexicon, and training values first with database
    values in the gaps; times each value's candidate types, e.g. "new york" as a state or a
    city) gives one anonymised query. Each training question is scored by the cosine
    similarity of its best reading; the ``k`` nearest distinct templates are tried in order,
    first for one whose placeholders the reading's values fill exactly (every value used),
    then for one whose placeholder types the values can fill. When none fits, the nearest
    template is filled as well as possible (typed values, then leftover values in order,
    then the neighbour's own values) and will usually be wrong. An empty question yields
    ``""``. A ``db_id`` input column is ignored: the parser knows one database.

    Finegan-Dollak, Kummerfeld, Zhang, Ramanathan, Sadasivam, Zhang and Radev (2018),
    "Improving Text-to-SQL Evaluation Methodology", ACL. https://aclanthology.org/P18-1033/

    Deviation: the paper's template baseline classifies the question into a template with
    an LSTM and fills slots with oracle entities; this victim retrieves templates by TF-IDF
    nearest neighbour and finds the entities itself with the lexicon, so it needs no
    training run and no gold entities at attack time.

    Args:
        train_examples (Sequence[SemparseExample]): Training examples with
            ``template_question``, ``template_gold``, ``variables`` and ``variable_types``
            (the text2sql-data format). An example with neither template nor variables
            (a logical-form file) is its own template: the parser then returns the gold
            output of the nearest training question.
        k (int, default 10): Distinct templates tried before falling back to the nearest.
        ngram_range (tuple[int, int], default (1, 2)): Word n-gram range of the TF-IDF
            vectoriser.
        database_values (bool, default True): Add the database's values of the columns that
            training placeholders are compared with to the lexicon (needs a database file).
        Other arguments (``database``, ``benchmark``, ``max_failure_rate``): as
            :class:`SemanticParser`; the database is also the source of lexicon values.

    Example:
        >>> from textattack_semparse.victims.knn_template_parser import KNNTemplateParser
        >>> parser = KNNTemplateParser.from_benchmark("geo-mini")
        >>> parser.anonymize("how long is the rio grande")
        'how long is the river_name0'
        >>> parser(["what is the capital of new york"])
        ['SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "new york" ;']
    """

    def __init__(
        self,
        train_examples: Sequence[SemparseExample],
        *,
        k: int = 10,
        ngram_range: tuple[int, int] = (1, 2),
        database_values: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        check_count("k", k)
        if (
            not isinstance(ngram_range, (tuple, list))
            or len(ngram_range) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in ngram_range)
            or not 1 <= ngram_range[0] <= ngram_range[1]
        ):
            raise ConfigurationError(
                f"ngram_range must be a pair (min_n, max_n) with 1 <= min_n <= max_n, got {ngram_range!r}."
            )
        if not isinstance(database_values, bool):
            raise ConfigurationTypeError(f"database_values must be a bool, got {database_values!r}.")
        self.k = k
        self.ngram_range = (ngram_range[0], ngram_range[1])
        self.database_values = database_values
        self.split_type: str | None = None
        examples = self._checked_examples(train_examples)
        self.num_train_examples = len(examples)
        self._neighbours = self._build_neighbours(examples)
        self._lexicon = ValueLexicon.from_examples(
            examples, database=self.database if self.database_values else None
        )
        self._vectorizer = TfidfVectorizer(ngram_range=self.ngram_range)
        self._train_matrix = self._vectorizer.fit_transform(
            [cast(str, example.template_question) for example in examples]
        )

    @classmethod
    def from_benchmark(
        cls,
        benchmark: str = "geo",
        *,
        split_type: str = "question",
        data_dir: str | os.PathLike[str] | None = None,
        k: int = 10,
        ngram_range: tuple[int, int] = (1, 2),
        database_values: bool = True,
    ) -> KNNTemplateParser:
        """Fit on the training part of ``split_type`` of a benchmark, bound to its database.

        Args:
            benchmark (str, default "geo"): A name accepted by
                :func:`textattack_semparse.datasets.benchmark.load_benchmark` ("geo" is the
                real GeoQuery when ``SEMPARSE_DATA_DIR`` is set, else the embedded geo-mini).
            split_type (str, default "question"): "question" or "query"; attack the victim
                on the test part of the same split (its training part is memorised).
            data_dir (str | os.PathLike | None, default None): Benchmark root, overriding
                ``SEMPARSE_DATA_DIR``.
            k, ngram_range, database_values: As for the constructor.
        """
        from textattack_semparse.datasets.benchmark import load_benchmark

        loaded = load_benchmark(benchmark, data_dir=data_dir)
        parser = cls(
            loaded.split(split_type, "train"),
            benchmark=loaded,
            k=k,
            ngram_range=ngram_range,
            database_values=database_values,
        )
        parser.split_type = split_type
        return parser

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + [
            "split_type",
            "num_train_examples",
            "k",
            "ngram_range",
            "database_values",
        ]

    def anonymize(self, question: str) -> str:
        """The question as first read: longest values, each with its likeliest type.

        Example:
            >>> KNNTemplateParser.from_benchmark("geo-mini").anonymize("Rivers in  New York?")
            'rivers in state_name0?'
        """
        text = normalize_text(question)
        return self._readings(text)[0].anonymized(text)

    def _parse_batch(self, questions: list[str], db_ids: list[str | None]) -> list[str]:
        texts = [normalize_text(question) for question in questions]
        readings = [self._readings(text) if text else [] for text in texts]
        queries = [
            reading.anonymized(text) for text, options in zip(texts, readings) for reading in options
        ]
        if not queries:
            return ["" for _ in questions]
        similarity = (self._vectorizer.transform(queries) @ self._train_matrix.T).toarray()
        outputs = []
        row = 0
        for options in readings:
            if not options:
                outputs.append("")
                continue
            outputs.append(self._best_fill(options, similarity[row : row + len(options)]))
            row += len(options)
        return outputs

    def _best_fill(self, readings: list[_Reading], similarity: np.ndarray) -> str:
        """Fill the first of the ``k`` nearest templates that a reading's values satisfy."""
        best_score = similarity.max(axis=0)
        best_reading = similarity.argmax(axis=0)
        order = np.argsort(-best_score, kind="stable")
        candidates: list[int] = []
        seen: set[int] = set()
        for index in order:
            template_id = self._neighbours[index].template_id
            if template_id not in seen:
                seen.add(template_id)
                candidates.append(int(index))
                if len(candidates) == self.k:
                    break
        for exact in (True, False):
            for index in candidates:
                neighbour = self._neighbours[index]
                first = int(best_reading[index])
                for reading in [readings[first]] + readings[:first] + readings[first + 1 :]:
                    filling = neighbour.typed_filling(reading)
                    if filling is not None and (not exact or len(filling) == len(reading.mentions)):
                        return neighbour.fill(filling)
        nearest = self._neighbours[int(order[0])]
        return nearest.fill(nearest.partial_filling(readings[int(best_reading[order[0]])]))

    def _readings(self, text: str) -> list[_Reading]:
        """Readings of ``text``, the leftmost-longest segmentation with likeliest types first."""
        segmentations = self._lexicon.segmentations(text)
        per_segmentation = max(1, _MAX_READINGS // len(segmentations))
        return [
            _Reading(mentions, types)
            for mentions in segmentations
            for types in itertools.islice(
                itertools.product(*(mention.types for mention in mentions)), per_segmentation
            )
        ]

    @staticmethod
    def _checked_examples(train_examples: Sequence[SemparseExample]) -> list[SemparseExample]:
        if isinstance(train_examples, (str, bytes)) or not isinstance(train_examples, Sequence):
            raise ConfigurationTypeError(
                "train_examples must be a sequence of SemparseExample, got "
                f"{type(train_examples).__name__}."
            )
        if not train_examples:
            raise ConfigurationError("train_examples is empty; the parser needs training templates to retrieve.")
        checked = []
        for position, example in enumerate(train_examples):
            if not isinstance(example, SemparseExample):
                raise ConfigurationTypeError(
                    f"train_examples[{position}] is a {type(example).__name__}, not a SemparseExample."
                )
            untemplated = example.template_question is None and example.template_gold is None
            if untemplated and not example.variables:
                example = dataclasses.replace(example, template_question=example.question, template_gold=example.gold)
            elif example.template_question is None or example.template_gold is None:
                raise ConfigurationError(
                    f"train_examples[{position}] ({example.question!r}) has no template_question/"
                    "template_gold; KNNTemplateParser needs examples in the text2sql-data format "
                    "(load them with textattack_semparse.datasets.text2sql.load_text2sql), or examples "
                    "with neither templates nor variables (logical-form files)."
                )
            checked.append(example)
        return checked

    @staticmethod
    def _build_neighbours(examples: list[SemparseExample]) -> list[_Neighbour]:
        template_ids: dict[str, int] = {}
        neighbours = []
        for example in examples:
            template_question = cast(str, example.template_question)
            template_gold = cast(str, example.template_gold)
            names = [name for name in example.variable_types if word_pattern([name]).search(template_gold)]
            positions = {name: _position(template_question, name) for name in names}
            placeholders = tuple(sorted(names, key=lambda name: (positions[name], name)))
            neighbours.append(
                _Neighbour(
                    template_id=template_ids.setdefault(template_gold, len(template_ids)),
                    template_gold=template_gold,
                    placeholders=placeholders,
                    types=tuple(example.variable_types[name] for name in placeholders),
                    variables=dict(example.variables),
                )
            )
        return neighbours


def _position(template_question: str, name: str) -> int:
    match = word_pattern([name]).search(template_question)
    return match.start() if match else len(template_question)
