"""Text-to-SQL examples as a TextAttack dataset."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import TYPE_CHECKING

import textattack

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.example_rows import example_rows

if TYPE_CHECKING:
    import datasets

    from textattack_semparse.datasets.benchmark import Benchmark


class Text2SQLDataset(textattack.datasets.Dataset):
    """Questions paired with gold SQL, in the shape TextAttack's ``Attacker`` consumes.

    Each item is ``(OrderedDict(question=...), gold)``, or
    ``(OrderedDict(question=..., db_id=...), gold)`` when the examples carry a ``db_id``
    (multi-database benchmarks such as Spider); recipes freeze the ``db_id`` column with
    ``InputColumnModification``. Table QA examples (they carry a ``table``) are
    ``(OrderedDict(question=..., table=table.to_json()), answer)``, the shape of
    :func:`~textattack_semparse.tables.table_text.table_input`. The :class:`SemparseExample`
    records stay available as ``.examples``. Original to textattack-semparse.

    Args:
        examples (Iterable[SemparseExample]): The examples, in order. Either all or none
            of them have a ``db_id``, and either all or none a ``table``.
        benchmark (Benchmark | None, default None): The benchmark the examples come from, so
            a victim evaluated on them can be scored as the benchmark is.

    Example:
        >>> data = Text2SQLDataset([SemparseExample("what is the capital of texas",
        ...                         'SELECT CAPITAL FROM STATE WHERE STATE_NAME = "texas" ;')])
        >>> data.input_columns, data[0][0]["question"]
        (('question',), 'what is the capital of texas')
    """

    def __init__(self, examples: Iterable[SemparseExample], *, benchmark: Benchmark | None = None) -> None:
        self.examples: tuple[SemparseExample, ...] = tuple(examples)
        self.benchmark = benchmark
        columns, rows = example_rows(self.examples)
        super().__init__(rows, input_columns=columns)

    def to_hf_dataset(self) -> datasets.Dataset:
        """All :class:`SemparseExample` fields as a ``datasets.Dataset``.

        ``variables`` and ``variable_types`` become JSON strings (``'{"state_name0": "texas"}'``)
        because their keys differ from row to row; ``table`` becomes its ``Table.to_json()`` text
        (``None`` without a table).
        """
        import datasets

        fields = tuple(SemparseExample.__dataclass_fields__)
        columns: dict[str, list[str | None]] = {name: [] for name in fields}
        for example in self.examples:
            for name in fields:
                value = getattr(example, name)
                if name in ("variables", "variable_types"):
                    value = json.dumps(dict(value), sort_keys=True)
                elif name == "table" and value is not None:
                    value = value.to_json()
                columns[name].append(value)
        features = datasets.Features({name: datasets.Value("string") for name in fields})
        return datasets.Dataset.from_dict(columns, features=features)

