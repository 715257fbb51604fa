"""Registered perturbations applied to dataset examples, one example at a time, reproducibly:
the step robustness test sets, MDA sampling and adversarial demonstrations share.

An example's question is an ``AttackedText`` carrying its gold output, transformed under
``RepeatModification`` and ``PreserveLiterals`` (the gold's database values stay as they are);
repeats and the unchanged text are dropped; then candidates are sampled (seeded per example) and
the most similar to the question by Sentence-BERT kept
(:class:`~textattack_semparse.transformations.top_k_by_similarity.TopKBySimilarity`). Original to
textattack-semparse.
"""

from __future__ import annotations

import inspect
import itertools
import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from textattack.constraints.pre_transformation import RepeatModification
from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.attack_attrs import gold_output, record_gold_output, record_schema_words, schema_words
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError
from textattack_semparse.judges.judgement import JudgeTally, RewritePair
from textattack_semparse.judges.meaning_judge import MeaningJudge
from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings
from textattack_semparse.perturbations.perturbed_utterance import PerturbedUtterance
from textattack_semparse.registry import get_registry
from textattack_semparse.runs.seeding import component_generators
from textattack_semparse.tables.table_text import freeze_table_column, question_of, table_input, table_of
from textattack_semparse.transformations.derived_text import distinct_new_texts, question_text
from textattack_semparse.transformations.table.table_transformation import TableTransformation
from textattack_semparse.transformations.top_k_by_similarity import TopKBySimilarity, similarities_to_first


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
            raise ConfigurationError(f"{name} must be a positive int or None (all), got {value!r}.")
    if candidates is not None and keep is not None and keep > candidates:
        raise ConfigurationError(
            f"keep={keep} exceeds candidates={candidates}: cannot keep more candidates than are sampled."
        )


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
    perturber = ExamplePerturber(
        transformation, perturbation, candidates=candidates, keep=keep, seed=seed, encoder=encoder
    )
    utterances: list[PerturbedUtterance] = []
    for perturbed in perturber.perturb_many(list(enumerate(examples))):
        if perturbed.left_out is not None and left_out is not None:
            left_out[perturbed.left_out] += 1
        utterances.extend(perturbed.utterances)
    return utterances


@dataclass(frozen=True)
class ExamplePerturbation:
    """What one perturbation made of one example: its utterances, why it got none (``None`` when
    it got some), and the judge's tally of the distinct rewrites the transformation proposed
    (without a judge: all counted, none rejected)."""

    utterances: list[PerturbedUtterance]
    left_out: str | None
    tally: JudgeTally


class ExamplePerturber:
    """One perturbation applied to one example at a time, as :func:`perturb_examples` applies it.

    Before each example the generators of the transformation (and of the sampler) are reseeded
    with ``seed`` and the example's id, and its texts are embedded as if alone
    (:meth:`perturb_many`), so an example's utterances (and their similarity scores, to the last
    digit) do not depend on which examples were perturbed before or with it: a resumed or
    distributed build equals the serial one. ``seed=None`` leaves the generators as they are (no
    reproducibility asked for).

    ``schema_words`` gives an example's schema words (:mod:`~textattack_semparse.datasets.schema_words`),
    which the judge reads with the gold.

    With a ``judge`` (:mod:`textattack_semparse.judges`), the rewrites it does not call the same
    question are never sampled: the sampler draws candidates in its seeded order and the judge
    reads them in that order until the sample is full (all of them when every candidate is
    ranked), so coverage stays as high as the judge allows and the judge reads few rewrites of
    an operation with hundreds. Where the judge keeps every rewrite it reads, the sample is the
    one drawn without a judge.
    """

    def __init__(
        self,
        transformation: Transformation,
        perturbation: str,
        *,
        candidates: int | None = 1,
        keep: int | None = 1,
        seed: int | None = 0,
        encoder: SentenceBERTSimilarity | SentenceEmbeddings | None = None,
        judge: MeaningJudge | None = None,
        schema_words: Callable[[SemparseExample], frozenset[str]] | None = None,
    ) -> None:
        check_selection(candidates, keep)
        self.perturbation = perturbation
        self.schema_words = schema_words
        self.seed = seed
        self.k = keep if keep is not None else candidates
        self.table_perturbation = isinstance(transformation, TableTransformation)
        self.transformation = transformation
        self.encoder = encoder if encoder is not None else SentenceEmbeddings()
        self.judged = _JudgedOutputs(transformation, judge)
        self.top_k: TopKBySimilarity | None = None
        self.selector: Transformation = self.judged
        if self.k is not None and not self.table_perturbation:
            self.top_k = TopKBySimilarity(
                self.judged, k=self.k, num_candidates=candidates, encoder=self.encoder, seed=seed
            )
            self.selector = self.top_k

    def __call__(
        self, example_id: int, example: SemparseExample, *, left_out: Counter[str] | None = None
    ) -> list[PerturbedUtterance]:
        """The utterances of ``example``; counts why it got none in ``left_out`` when given."""
        perturbation = self.perturb(example_id, example)
        if perturbation.left_out is not None and left_out is not None:
            left_out[perturbation.left_out] += 1
        return perturbation.utterances

    def perturb(self, example_id: int, example: SemparseExample) -> ExamplePerturbation:
        """The utterances of ``example``, why it got none, and what the judge rejected."""
        return self.perturb_many([(example_id, example)])[0]

    def perturb_many(self, items: Sequence[tuple[int, SemparseExample]]) -> list[ExamplePerturbation]:
        """:meth:`perturb` of each ``(example_id, example)``, the Sentence-BERT embeddings of all
        of them computed together.

        Each example's candidates are drawn first (its generators reseeded); only the sampled ones
        are judged and embedded. With a sample size (``candidates``), the judge reads candidates
        in the order the sampler draws them until the sample is full, so the tally counts what it
        read, not every candidate; the sample is the one drawn when the judge rejects none of
        those it reads. The embeddings are those each example's texts get encoded alone
        (:meth:`~textattack_semparse.linguistics.sentence_embeddings.SentenceEmbeddings.encode_each`),
        so the scores do not depend on the examples perturbed with it.
        """
        drafts = [self._draft(example_id, example) for example_id, example in items]
        ranked = [draft for draft in drafts if draft.sampled]
        if self.top_k is not None and ranked:
            embeddings = self.encoder.encode_each(
                [[question_text(text) for text in (draft.text, *draft.sampled)] for draft in ranked]
            )
            for draft, rows in zip(ranked, embeddings, strict=True):
                draft.outputs = self.top_k.rank(draft.sampled, similarities_to_first(rows).tolist())
        return [self._finish(draft) for draft in drafts]

    def _draft(self, example_id: int, example: SemparseExample) -> _Draft:
        """``example``'s text and its outputs, or, when they are ranked, its sampled candidates."""
        if self.seed is not None:
            for generator in component_generators(self.selector):
                generator.seed(f"{self.seed}:{example_id}")
        text = AttackedText(example.question if example.table is None else table_input(example.question, example.table))
        record_gold_output(text, example.gold)
        if self.schema_words is not None:
            record_schema_words(text, self.schema_words(example))
        constraints = [RepeatModification(), PreserveLiterals()]
        if example.table is not None:
            constraints.append(freeze_table_column())
        draft = _Draft(example_id, example, text)
        if self.top_k is None:
            draft.outputs = self.selector(text, pre_transformation_constraints=constraints)
            if self.table_perturbation and self.k is not None:
                draft.outputs = _seeded_sample(draft.outputs, self.k, self.seed, example_id)
        else:
            indices = self.selector(text, pre_transformation_constraints=constraints, return_indices=True)
            candidates = self.judged.distinct(text, indices_to_modify=indices)
            sample_size = self.top_k.num_candidates
            if sample_size is not None and len(candidates) > sample_size:
                kept = self.judged.judge_in_order(text, candidates, self.top_k.draw_order(len(candidates)), sample_size)
            else:
                kept = self.judged.judge_in_order(text, candidates, range(len(candidates)), None)
            draft.sampled = [candidates[index] for index in sorted(kept)]
        draft.tally = self.judged.last
        return draft

    def _finish(self, draft: _Draft) -> ExamplePerturbation:
        """The utterances of a draft whose outputs are known."""
        example, tally, outputs = draft.example, draft.tally, draft.outputs
        left_out = None
        if not outputs:
            if tally.judged and tally.rejected == tally.judged:
                left_out = "every rewrite changed the meaning (judge)"
            else:
                reason = self.transformation.skip_reason(draft.text) if self.table_perturbation else None
                left_out = reason or "no candidate"
        utterances = []
        for output in outputs:
            score = output.attack_attrs.get("similarity_score")
            utterances.append(
                PerturbedUtterance(
                    example_id=draft.example_id,
                    original=example.question,
                    perturbed=question_of(output),
                    gold=example.gold,
                    perturbation=self.perturbation,
                    db_id=example.db_id,
                    similarity=None if score is None else round(float(score), 6),
                    table=table_of(output),
                )
            )
        return ExamplePerturbation(utterances, left_out, tally)


@dataclass
class _Draft:
    """An example on its way through :meth:`ExamplePerturber.perturb_many`: its outputs once known,
    and meanwhile, when they are ranked, the sampled candidates."""

    example_id: int
    example: SemparseExample
    text: AttackedText
    outputs: list[AttackedText] = field(default_factory=list)
    sampled: list[AttackedText] = field(default_factory=list)
    tally: JudgeTally = field(default_factory=JudgeTally)


def _seeded_sample(outputs: list[AttackedText], k: int, seed: int | None, example_id: int) -> list[AttackedText]:
    """``k`` of ``outputs`` (all when fewer), drawn by a generator of ``seed`` and the example, in their order."""
    if len(outputs) <= k:
        return list(outputs)
    chosen = sorted(random.Random(f"{seed}:{example_id}").sample(range(len(outputs)), k))
    return [outputs[index] for index in chosen]


class _DistinctOutputs(Transformation):
    """The outputs of ``transformation`` without repeats and without the unchanged text."""

    def __init__(self, transformation: Transformation) -> None:
        if not isinstance(transformation, Transformation):
            raise ConfigurationTypeError(f"A perturbation must be a TextAttack Transformation, got {transformation!r}.")
        self.transformation = transformation

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        outputs = self.transformation(current_text, indices_to_modify=set(indices_to_modify))
        return distinct_new_texts(current_text, outputs)

    @property
    def deterministic(self) -> bool:
        return self.transformation.deterministic

    def extra_repr_keys(self) -> list[str]:
        return ["transformation"]


class _JudgedOutputs(Transformation):
    """The distinct outputs of ``transformation`` (without repeats and the unchanged text) that
    ``judge`` calls the same question; ``last`` is the judge's tally of the last text's outputs."""

    def __init__(self, transformation: Transformation, judge: MeaningJudge | None) -> None:
        self.distinct = _DistinctOutputs(transformation)
        self.judge = judge
        self.last = JudgeTally()

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        outputs = self.distinct(current_text, indices_to_modify=set(indices_to_modify))
        return [outputs[index] for index in self.judge_in_order(current_text, outputs, range(len(outputs)), None)]

    def judge_in_order(
        self, current_text: AttackedText, outputs: list[AttackedText], order: Iterable[int], wanted: int | None
    ) -> list[int]:
        """The positions of ``outputs``, taken in ``order``, that the judge keeps, until ``wanted``
        are kept (``None``: all of them); ``last`` tallies the outputs the judge read. Each step
        judges, together, as many as are still wanted. Without a judge every output is kept and
        counted (the tally, too)."""
        order = iter(order)
        if self.judge is None:
            self.last = JudgeTally(judged=len(outputs))
            return list(itertools.islice(order, wanted))
        original, gold, schema = question_of(current_text), gold_output(current_text), schema_words(current_text)
        self.last = JudgeTally()
        kept: list[int] = []
        while wanted is None or len(kept) < wanted:
            step = list(itertools.islice(order, None if wanted is None else wanted - len(kept)))
            if not step:
                break
            pairs = [RewritePair(original, question_of(outputs[index]), gold, schema) for index in step]
            for index, pair, judgement in zip(step, pairs, self.judge.judge(pairs), strict=True):
                self.last.add(pair, judgement)
                if judgement.keeps_meaning:
                    kept.append(index)
        return kept

    @property
    def deterministic(self) -> bool:
        return self.distinct.deterministic

    def extra_repr_keys(self) -> list[str]:
        return ["distinct", "judge"]
