"""Building a meaning-preserving test set from a dataset split with registered perturbations."""

from __future__ import annotations

import inspect
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType

from textattack.constraints.pre_transformation import RepeatModification
from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import DatasetError, ResourceError, SemparseError
from textattack_semparse.registry import get_registry
from textattack_semparse.robustness.perturbed_utterance import PerturbedUtterance
from textattack_semparse.robustness.robustness_test_set import RobustnessTestSet, check_perturbation_name
from textattack_semparse.robustness.selection_settings import (
    DEFAULT_SETTING,
    SELECTION_SETTINGS,
    SETTING_PERTURBATION_OPTIONS,
    Selection,
    check_setting,
    perturbation_selection,
)
from textattack_semparse.tables.table_text import QUESTION_COLUMN, freeze_table_column, table_input, table_of
from textattack_semparse.transformations.derived_text import distinct_new_texts
from textattack_semparse.transformations.table.table_transformation import TableTransformation
from textattack_semparse.transformations.top_k_by_similarity import TopKBySimilarity

UNAVAILABLE_ERRORS: tuple[type[BaseException], ...] = (OSError, ImportError, SemparseError)
"""What a perturbation raises when its model or resource cannot be had (offline hub lookups
raise ``OSError``, a missing optional package ``ImportError``, a missing WordNet or spaCy
pipeline the plugin's ``ResourceError``)."""


def dataset_examples(dataset: str, *, limit: int | None = None) -> list[SemparseExample]:
    """The examples of a registered dataset (the first ``limit`` when given), in order.

    Raises:
        DatasetError: The dataset's inputs are neither ``question`` nor ``question, db_id``.
    """
    data = get_registry().get("dataset", dataset).create()
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


def create_perturbation(
    name: str, *, seed: int | None = None, options: Mapping[str, object] | None = None
) -> Transformation:
    """The registered perturbation ``name``, seeded with ``seed`` when it takes a ``seed``.

    ``options`` (e.g. a setting's :data:`SETTING_PERTURBATION_OPTIONS`) override the
    registered options; those the constructor does not take are left out.
    """
    entry = get_registry().get("perturbation", name)
    try:
        parameters = inspect.signature(entry.load()).parameters
    except (TypeError, ValueError):  # a callable without an inspectable signature
        parameters = MappingProxyType({})
    overrides = {key: value for key, value in (options or {}).items() if key in parameters}
    if "seed" in parameters:
        overrides["seed"] = seed
    return entry.create(**overrides)


def check_selection(candidates: int | None, keep: int | None) -> None:
    """``ValueError`` unless both are ``None`` or positive ints and ``keep <= candidates``."""
    for name, value in (("candidates", candidates), ("keep", keep)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise ValueError(f"{name} must be a positive int or None (all), got {value!r}.")
    if candidates is not None and keep is not None and keep > candidates:
        raise ValueError(f"keep={keep} exceeds candidates={candidates}: cannot keep more candidates than are sampled.")


def perturb_examples(
    examples: Sequence[SemparseExample],
    transformation: Transformation,
    *,
    perturbation: str,
    candidates: int | None = 1,
    keep: int | None = 1,
    seed: int | None = 0,
    encoder: SentenceBERTSimilarity | None = None,
    left_out: Counter[str] | None = None,
) -> list[PerturbedUtterance]:
    """Perturb every example's question with ``transformation``; the gold's literals stay intact.

    Each question is an ``AttackedText`` carrying its gold output
    (:func:`~textattack_semparse.attack_attrs.record_gold_output`), transformed under
    ``RepeatModification`` and ``PreserveLiterals``. Outputs equal to the question or to an
    earlier output are dropped; then ``candidates`` of them are sampled (seeded) and the
    ``keep`` most similar to the question by Sentence-BERT are kept
    (:class:`~textattack_semparse.transformations.top_k_by_similarity.TopKBySimilarity`).
    ``None`` means all, for either. An example with no output gets no utterance.

    A Table QA example (one with a ``table``) is the text ``table_input(question, table)``
    and :func:`~textattack_semparse.tables.table_text.freeze_table_column` keeps question
    perturbations off its table. A table perturbation
    (:class:`~textattack_semparse.transformations.table.table_transformation.TableTransformation`)
    leaves the question as it is, so ranking by Sentence-BERT says nothing: its outputs are
    only sampled (``keep`` of them, seeded). RobuT, Zhao et al. 2023,
    https://arxiv.org/abs/2306.14321.

    Args:
        examples: The originals; an utterance's ``example_id`` is the position here.
        transformation: Any TextAttack transformation.
        perturbation: The name recorded on each utterance.
        candidates: Outputs sampled per example before ranking. Default ``1``.
        keep: Outputs kept per example, most similar first. Default ``1``.
        seed: Seed of the sampler. Default ``0``.
        encoder: Sentence-BERT scorer shared across calls; ``None`` = the packaged
            all-MiniLM-L6-v2.
        left_out: When given, counts each example that got no utterance under its reason (the
            table perturbation's ``skip_reason``, else ``"no candidate"``).
    """
    check_selection(candidates, keep)
    distinct = _DistinctOutputs(transformation)
    k = keep if keep is not None else candidates
    table_perturbation = isinstance(transformation, TableTransformation)
    selector: Transformation = distinct
    if k is not None and not table_perturbation:
        selector = TopKBySimilarity(distinct, k=k, num_candidates=candidates, encoder=encoder, seed=seed)
    utterances = []
    for example_id, example in enumerate(examples):
        text = AttackedText(example.question if example.table is None else table_input(example.question, example.table))
        record_gold_output(text, example.gold)
        constraints = [RepeatModification(), PreserveLiterals()]
        if example.table is not None:
            constraints.append(freeze_table_column())
        outputs = selector(text, pre_transformation_constraints=constraints)
        if table_perturbation and k is not None:
            outputs = _seeded_sample(outputs, k, seed, example_id)
        if not outputs and left_out is not None:
            reason = transformation.skip_reason(text) if table_perturbation else None
            left_out[reason or "no candidate"] += 1
        for output in outputs:
            score = output.attack_attrs.get("similarity_score")
            utterances.append(
                PerturbedUtterance(
                    example_id=example_id,
                    original=example.question,
                    perturbed=output._text_input[QUESTION_COLUMN] if example.table is not None else output.text,
                    gold=example.gold,
                    perturbation=perturbation,
                    db_id=example.db_id,
                    similarity=None if score is None else round(float(score), 6),
                    table=table_of(output),
                )
            )
    return utterances


def _seeded_sample(outputs: list[AttackedText], k: int, seed: int | None, example_id: int) -> list[AttackedText]:
    """``k`` of ``outputs`` (all when fewer), drawn by a generator of ``seed`` and the example, in their order."""
    if len(outputs) <= k:
        return list(outputs)
    chosen = sorted(random.Random(f"{seed}:{example_id}").sample(range(len(outputs)), k))
    return [outputs[index] for index in chosen]


def build_test_set(
    dataset: str,
    perturbations: Iterable[str] | None = None,
    *,
    setting: str | None = DEFAULT_SETTING,
    selection: Selection | None = None,
    seed: int | None = 0,
    limit: int | None = None,
    encoder: SentenceBERTSimilarity | None = None,
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
    table perturbations when the dataset has no tables; a perturbation named explicitly that
    fails raises instead. Why a perturbation gave an example no utterance is counted in
    :attr:`RobustnessTestSet.left_out`. Each perturbation is seeded
    with ``seed`` (when it takes one), so equal arguments give equal files.

    Raises:
        RegistryError: An unknown dataset or perturbation name.
        ResourceError: A named perturbation's model or resource is not available.
        ValueError: An unknown setting, an invalid selection, or neither of them.
    """
    if setting is not None:
        check_setting(setting)
    elif selection is None:
        raise ValueError("build_test_set needs a setting (e.g. 'huang-2021') or a selection=(candidates, keep).")
    if selection is not None:
        check_selection(*selection)
    registry = get_registry()
    explicit = perturbations is not None
    names = list(dict.fromkeys(perturbations)) if perturbations is not None else registry.names("perturbation")
    for name in names:
        registry.get("perturbation", check_perturbation_name(name))
    examples = dataset_examples(dataset, limit=limit)
    setting_options = SETTING_PERTURBATION_OPTIONS.get(setting, {}) if setting is not None else {}
    default = selection if selection is not None else SELECTION_SETTINGS[str(setting)]
    chosen = {
        name: selection if selection is not None else perturbation_selection(str(setting), name) for name in names
    }
    encoder = encoder if encoder is not None else SentenceBERTSimilarity()
    utterances: dict[str, list[PerturbedUtterance]] = {}
    skipped: dict[str, str] = {}
    left_out: dict[str, Counter[str]] = {}
    has_tables = any(example.table is not None for example in examples)
    for name in names:
        try:
            transformation = create_perturbation(name, seed=seed, options=setting_options.get(name))
            if not explicit and not has_tables and isinstance(transformation, TableTransformation):
                skipped[name] = f"table perturbation; {dataset} has no tables"
                continue
            left_out[name] = Counter()
            utterances[name] = perturb_examples(
                examples,
                transformation,
                perturbation=name,
                candidates=chosen[name][0],
                keep=chosen[name][1],
                seed=seed,
                encoder=encoder,
                left_out=left_out[name],
            )
        except UNAVAILABLE_ERRORS as error:
            if not explicit:
                skipped[name] = f"{type(error).__name__}: {' '.join(str(error).split())}"
                continue
            if isinstance(error, SemparseError):
                raise
            raise ResourceError(
                f"Perturbation {name!r} cannot run here: {type(error).__name__}: {str(error).rstrip('.')}. Its model or "
                f"resource is not available (offline?); make it available or leave {name!r} out of "
                "--perturbations."
            ) from error
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
    )


class _DistinctOutputs(Transformation):
    """The outputs of ``transformation`` without repeats and without the unchanged text."""

    def __init__(self, transformation: Transformation) -> None:
        if not isinstance(transformation, Transformation):
            raise TypeError(f"A perturbation must be a TextAttack Transformation, got {transformation!r}.")
        self.transformation = transformation

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        outputs = self.transformation(current_text, indices_to_modify=set(indices_to_modify))
        return distinct_new_texts(current_text, outputs)

    @property
    def deterministic(self) -> bool:
        return self.transformation.deterministic

    def extra_repr_keys(self) -> list[str]:
        return ["transformation"]
