"""Building a meaning-preserving test set from a dataset split with registered perturbations."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from textattack_semparse.datasets.benchmark import benchmark_split
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import (
    ConfigurationError,
    DatasetError,
    ResourceError,
    SemparseError,
)
from textattack_semparse.judges.judgement import JudgeTally
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE, MeaningJudge, judges_from_names
from textattack_semparse.perturbations.perturbed_utterance import PerturbedUtterance
from textattack_semparse.registry import BENCHMARK_DATASET, file_safe_name, get_registry
from textattack_semparse.robustness.robustness_test_set import (
    TABLE_FIELD,
    RobustnessTestSet,
    check_perturbation_name,
)
from textattack_semparse.robustness.selection_settings import (
    DEFAULT_SETTING,
    SELECTION_SETTINGS,
    SETTING_PERTURBATION_OPTIONS,
    Selection,
    check_setting,
    perturbation_selection,
)
from textattack_semparse.runs.journal import Journal
from textattack_semparse.runs.progress import ProgressBar
from textattack_semparse.runs.run_context import RunContext
from textattack_semparse.tables.table import Table

if TYPE_CHECKING:  # imported where used: TextAttack and torch load in seconds, and a mistyped name fails before them
    from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity
    from textattack_semparse.perturbations.example_perturber import ExamplePerturber

UNAVAILABLE_ERRORS: tuple[type[BaseException], ...] = (OSError, ImportError, SemparseError)
"""What a perturbation raises when its model or resource cannot be had (offline hub lookups
raise ``OSError``, a missing optional package ``ImportError``, a missing WordNet or spaCy
pipeline the plugin's ``ResourceError``)."""


def dataset_examples(dataset: str, *, limit: int | None = None) -> list[SemparseExample]:
    """The examples of a registered dataset (the first ``limit`` when given), in order.

    Raises:
        DatasetError: The dataset's inputs are neither ``question`` nor ``question, db_id``.
    """
    entry = get_registry().get("dataset", dataset)
    if entry.target == BENCHMARK_DATASET:  # read from the benchmark, without building TextAttack's dataset
        return benchmark_split(**entry.options)[1][:limit]
    data = entry.create()
    records = getattr(data, "examples", None)
    if records is not None and all(isinstance(record, SemparseExample) for record in records):
        examples = list(records)
    else:
        examples = []
        for index in range(len(data)):
            columns, gold = data[index]
            unknown = set(columns) - {"question", "db_id"}
            if unknown or "question" not in columns:
                raise DatasetError(
                    f"Dataset {dataset!r} has input columns {list(columns)}; robustness test sets perturb "
                    "datasets whose inputs are 'question' and optionally 'db_id'."
                )
            examples.append(SemparseExample(question=columns["question"], gold=str(gold), db_id=columns.get("db_id")))
    return examples[:limit]


def perturbation_file_names(perturbations: Iterable[str]) -> dict[str, str]:
    """Perturbation name -> the name its test-set file and utterances carry: the name itself, or
    for a family member its file-safe form (``nlpaug:KeyboardAug`` -> ``nlpaug_KeyboardAug``,
    :func:`~textattack_semparse.registry.file_safe_name`).

    Raises:
        ValueError: A name that cannot name a test-set file, or two names that would share one.

    Example:
        >>> perturbation_file_names(["insertion", "nlpaug:KeyboardAug:aug_char_max=2"])
        {'insertion': 'insertion', 'nlpaug:KeyboardAug:aug_char_max=2': 'nlpaug_KeyboardAug_aug_char_max_2'}
    """
    names: dict[str, str] = {}
    for perturbation in dict.fromkeys(perturbations):
        name = check_perturbation_name(file_safe_name(perturbation))
        clash = next((other for other, taken in names.items() if taken == name), None)
        if clash is not None:
            raise ConfigurationError(
                f"Perturbations {clash!r} and {perturbation!r} would share the test-set file {name}.jsonl; "
                "leave one out."
            )
        names[perturbation] = name
    return names


BUILD_CHUNK = 64
"""Examples per task of a build. Sentence-BERT encodes a task's texts of equal padded length in
shared batches, so larger tasks mean fewer, fuller forward passes (the nine offline perturbations
of geo-lambda-test: 1,542 passes at 8 examples a task, 702 at 64, 576 at 128, for the same 5,846
texts); a kill loses at most one task of each worker, a few seconds."""


def build_test_set(
    dataset: str,
    perturbations: Iterable[str] | None = None,
    *,
    setting: str | None = DEFAULT_SETTING,
    selection: Selection | None = None,
    seed: int | None = 0,
    limit: int | None = None,
    encoder: SentenceBERTSimilarity | None = None,
    judges: Sequence[str] = (DEFAULT_JUDGE,),
    context: RunContext | None = None,
    journal: Journal | None = None,
    progress: ProgressBar | None = None,
) -> RobustnessTestSet:
    """A robustness test set of ``dataset`` with the named registered perturbations.

    ``setting`` (see :mod:`~textattack_semparse.robustness.selection_settings`) decides, per
    perturbation, how many outputs are sampled and how many of the most similar are kept
    (:func:`~textattack_semparse.robustness.selection_settings.perturbation_selection`) and
    which constructor options the perturbation gets. ``selection=(candidates, keep)``
    overrides the selection of every perturbation (the setting's options still apply);
    with ``setting=None`` it is required and the registered options are used.

    ``perturbations=None`` takes every registered perturbation and leaves out, with the
    reason in :attr:`RobustnessTestSet.skipped`, those whose model or resource is not
    available (one of :data:`UNAVAILABLE_ERRORS` while it is created or applied), and the
    perturbations that need tables (``needs_tables``: table perturbations, RobuT's mix) when
    the dataset has no tables; a perturbation named explicitly that
    fails raises instead. Why a perturbation gave an example no utterance is counted in
    :attr:`RobustnessTestSet.left_out`. Each perturbation is seeded with ``seed`` (when it
    takes one) and reseeded per example (:class:`ExamplePerturber`), so equal arguments give
    equal files whatever the order or the machine examples are perturbed on.

    A family member (``nlpaug:KeyboardAug``) is written, and its utterances named, under its
    file-safe name (:func:`perturbation_file_names`: ``nlpaug_KeyboardAug``).

    ``judges`` (registered names, :mod:`textattack_semparse.judges`; several must all agree,
    none: no judge) keep only the rewrites that ask the same question as the original: the
    selection samples and ranks among those, and what the judge rejected is counted, with
    examples, in :attr:`RobustnessTestSet.judged`.

    Examples are perturbed in chunks of :data:`BUILD_CHUNK` on the backend of ``context``
    (default: this process); each worker creates the perturbations itself. Each finished
    example is appended to ``journal`` (key ``<perturbation>/<example_id>``), and examples the
    journal already holds are not perturbed again, so a killed build continues where it stopped.

    Raises:
        RegistryError: An unknown dataset or perturbation name.
        ResourceError: A named perturbation's model or resource is not available.
        ValueError: An unknown setting, an invalid selection, or neither of them.
    """
    if setting is not None:
        check_setting(setting)
    elif selection is None:
        raise ConfigurationError(
            "build_test_set needs a setting (e.g. 'huang-2021') or a selection=(candidates, keep)."
        )
    if selection is not None:
        from textattack_semparse.perturbations.example_perturber import check_selection

        check_selection(*selection)
    judges = tuple(judges)
    judge = judges_from_names(judges) if judges else None  # unknown judges fail here
    judge_name = None if judge is None else judge.name
    registry = get_registry()
    explicit = perturbations is not None
    requested = list(perturbations) if perturbations is not None else registry.names("perturbation")
    named = perturbation_file_names(requested)
    for perturbation in named:
        registry.get("perturbation", perturbation)
    names = list(named.values())
    examples = dataset_examples(dataset, limit=limit)
    default = selection if selection is not None else SELECTION_SETTINGS[str(setting)]
    chosen = {
        name: selection if selection is not None else perturbation_selection(str(setting), perturbation)
        for perturbation, name in named.items()
    }
    setting_options = SETTING_PERTURBATION_OPTIONS.get(setting, {}) if setting is not None else {}
    make_worker = functools.partial(
        _BuildWorker,
        dataset=dataset,
        perturbations={name: perturbation for perturbation, name in named.items()},
        options={
            name: setting_options[perturbation] for perturbation, name in named.items() if perturbation in setting_options
        },
        selection=chosen,
        seed=seed,
        explicit=explicit,
        has_tables=any(example.table is not None for example in examples),
        encoder=encoder,
        judges=judges,
    )
    done = journal.read() if journal is not None else {}
    tasks = [
        (name, chunk)
        for name in names
        for chunk in _chunks(
            [(index, example) for index, example in enumerate(examples) if _build_key(name, index) not in done],
            BUILD_CHUNK,
        )
    ]
    if progress is not None:
        progress.set_total(len(examples) * len(names))
        progress.advance(len(examples) * len(names) - sum(len(chunk) for _, chunk in tasks))
    skipped: dict[str, str] = {}

    def records(task: _BuildTask, result: list[dict[str, Any]] | str) -> list[tuple[str, Any]]:
        """A record per example of the chunk; none once its perturbation is skipped."""
        name, chunk = task
        if isinstance(result, str):
            skipped.setdefault(name, result)
        if name in skipped:
            return []
        return [(_build_key(name, index), record) for (index, _), record in zip(chunk, result)]

    context = context or RunContext()
    for _ in context.map(
        tasks, make_worker, _perturb_chunk, journal=journal, done=done, records=records, progress=progress,
        weight=_chunk_size,
    ):  # fmt: skip
        pass  # each result is journaled and kept in ``done`` by the map
    kept = [name for name in names if name not in skipped]
    utterances: dict[str, list[PerturbedUtterance]] = {name: [] for name in kept}
    left_out: dict[str, Counter[str]] = {name: Counter() for name in kept}
    judged = {name: JudgeTally() for name in kept}
    for name in kept:
        for index in range(len(examples)):
            record = done[_build_key(name, index)]
            utterances[name].extend(_utterance_from_record(item) for item in record["utterances"])
            if record["left_out"] is not None:
                left_out[name][record["left_out"]] += 1
            judged[name].merge(JudgeTally.from_json(record["judged"], f"build journal {_build_key(name, index)}"))
    return RobustnessTestSet(
        dataset=dataset,
        originals=examples,
        utterances=utterances,
        seed=seed,
        candidates=default[0],
        keep=default[1],
        setting=setting,
        skipped=skipped,
        left_out={name: dict(left_out[name].most_common()) for name in utterances},
        selection={name: chosen[name] for name in utterances},
        judge=judge_name,
        judge_identity=None if judge is None else judge.identity,
        judged=judged if judge_name is not None else {},
    )


_BuildTask = tuple[str, list[tuple[int, SemparseExample]]]
"""A perturbation's name and a chunk of ``(example id, example)``."""


def _chunk_size(task: _BuildTask) -> int:
    return len(task[1])


def _build_key(perturbation: str, example_id: int) -> str:
    return f"{perturbation}/{example_id}"


def _chunks(items: list[Any], size: int) -> list[list[Any]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def _utterance_record(utterance: PerturbedUtterance) -> dict[str, Any]:
    """A journal record of ``utterance``: its JSONL record with its table, if any, as JSON text."""
    record = utterance.to_json()
    if utterance.table is not None:
        record[TABLE_FIELD] = utterance.table.to_json()
    return record


def _utterance_from_record(record: dict[str, Any]) -> PerturbedUtterance:
    table = record.get(TABLE_FIELD)
    fields = {key: value for key, value in record.items() if key != TABLE_FIELD}
    return PerturbedUtterance.from_json(
        fields, source="build journal", table=None if table is None else Table.from_json(table)
    )


def _schema_words(dataset: str) -> Callable[[SemparseExample], frozenset[str]] | None:
    """The schema words of ``dataset``'s examples, for the judge; ``None`` for a dataset that is no benchmark's split."""
    entry = get_registry().get("dataset", dataset)
    if entry.target != BENCHMARK_DATASET:
        return None
    from textattack_semparse.datasets.schema_words import schema_words_of

    return schema_words_of(benchmark_split(**entry.options)[0])


class _BuildWorker:
    """What a build worker holds: the perturbations it has created, one Sentence-BERT scorer and
    the meaning judge (``None`` without one). Perturbations are keyed by their test-set names;
    ``perturbations`` maps each to its registered name."""

    def __init__(
        self,
        *,
        dataset: str,
        perturbations: Mapping[str, str],
        options: Mapping[str, Mapping[str, object]],
        selection: Mapping[str, Selection],
        seed: int | None,
        explicit: bool,
        has_tables: bool,
        encoder: SentenceBERTSimilarity | None,
        judges: Sequence[str],
    ) -> None:
        from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity

        self.dataset = dataset
        self.perturbations = perturbations
        self.options = options
        self.selection = selection
        self.seed = seed
        self.explicit = explicit
        self.has_tables = has_tables
        self.encoder = encoder if encoder is not None else SentenceBERTSimilarity()
        self.judge: MeaningJudge | None = judges_from_names(judges) if judges else None
        self.schema_words = _schema_words(dataset) if self.judge is not None else None
        self.perturbers: dict[str, ExamplePerturber | str] = {}

    def perturber(self, name: str) -> ExamplePerturber | str:
        """The perturber of ``name``, or why ``name`` is skipped."""
        from textattack_semparse.perturbations.example_perturber import ExamplePerturber, create_perturbation

        if name not in self.perturbers:
            transformation = create_perturbation(self.perturbations[name], seed=self.seed, options=self.options.get(name))
            if not self.explicit and not self.has_tables and getattr(transformation, "needs_tables", False):
                self.perturbers[name] = f"table perturbation; {self.dataset} has no tables"
            else:
                candidates, keep = self.selection[name]
                self.perturbers[name] = ExamplePerturber(
                    transformation,
                    name,
                    candidates=candidates,
                    keep=keep,
                    seed=self.seed,
                    encoder=self.encoder,
                    judge=self.judge,
                    schema_words=self.schema_words,
                )
        return self.perturbers[name]


def _perturb_chunk(worker: _BuildWorker, task: _BuildTask) -> list[dict[str, Any]] | str:
    """One journal record per example of the task, or why its perturbation is skipped."""
    from textattack_semparse.torch_device import torch_threads

    name, chunk = task
    try:
        perturber = worker.perturber(name)
        if isinstance(perturber, str):
            return perturber
        with torch_threads(1):  # many small forward passes; workers are the build's parallelism
            perturbations = perturber.perturb_many(chunk)
        return [
            {
                "utterances": [_utterance_record(item) for item in perturbation.utterances],
                "left_out": perturbation.left_out,
                "judged": perturbation.tally.to_json(),
            }
            for perturbation in perturbations
        ]
    except UNAVAILABLE_ERRORS as error:
        if not worker.explicit:
            return f"{type(error).__name__}: {' '.join(str(error).split())}"
        if isinstance(error, SemparseError):
            raise
        registered = worker.perturbations[name]
        raise ResourceError(
            f"Perturbation {registered!r} cannot run here: {type(error).__name__}: {str(error).rstrip('.')}. Its "
            f"model or resource is not available (offline?); make it available or leave {registered!r} out of "
            "--perturbations."
        ) from error
