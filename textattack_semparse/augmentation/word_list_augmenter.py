"""TextAttack's augmenter on word lists
=========================================

TextAttack's ``Augmenter`` asks its transformation for every candidate (twenty
``AttackedText`` objects from ``RandomWordDeletion``) and keeps one drawn at random; building
them is nearly all of its time. When the transformation's edit depends on the words alone
(random deletion and random swap, Zhuo et al. 2023), drawing the positions first and building
only the text that is kept gives the same outputs with the same probabilities.
:class:`WordListAugmenter` does that on a list of words and a string, and builds no
``AttackedText``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from textattack.augmentation import Augmenter
from textattack.constraints.pre_transformation import RepeatModification
from textattack.transformations import CompositeTransformation

from textattack_semparse.constraints.meaning_judgement import MeaningJudgement
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.sql.literals import literal_word_indices
from textattack_semparse.transformations.random_words_transformation import RandomWordsTransformation

# TextAttack's ``words_from_text`` (0.3.11): runs of word characters, these look-alike letters and
# the inner-word marks, with the marks trimmed from the ends of each run. Text with CJK characters
# is segmented by jieba there, so it takes TextAttack's own path here.
_WORD_MARKS = "'-_*@"
_LOOKALIKES = "˗৭Ȣ𝟕бƼᏎƷᒿlO`ɑЬϲԁе𝚏ɡհіϳ𝒌ⅼｍոорԛⲅѕ𝚝սѵԝ×уᴢ"
_WORD_RUN = re.compile(f"[\\w{_LOOKALIKES}'\\-_\\*@]+")
_CJK = re.compile("[\u4e00-\u9fff]")
_KNOWN_CONSTRAINTS = (RepeatModification, PreserveLiterals)
"""The pre-transformation constraints the word-list path applies itself."""


def text_words(text: str) -> list[str]:
    """The words of ``text`` as ``AttackedText(text).words`` has them.

    Example:
        >>> text_words("what's 'the' capital of new-york?")
        ["what's", 'the', 'capital', 'of', 'new-york']
    """
    return [word for run in _WORD_RUN.findall(text) if (word := run.strip(_WORD_MARKS))]


def word_spans(text: str, words: Sequence[str], count: int) -> list[tuple[int, int]]:
    """Where the first ``count`` of ``words`` are in ``text``, found as
    ``AttackedText.generate_new_attacked_text`` finds them: each at its first occurrence after
    the previous one.

    Example:
        >>> word_spans("the cat, the hat", ["the", "cat", "the", "hat"], 3)
        [(0, 3), (4, 7), (9, 12)]
    """
    spans, end = [], 0
    for word in words[:count]:
        start = text.index(word, end)
        end = start + len(word)
        spans.append((start, end))
    return spans


@dataclass
class _Step:
    """A text on the way to one augmentation, with TextAttack's bookkeeping on word positions."""

    text: str
    words: list[str] | None
    protected: set[int]
    modified: set[int]


def _edited(step: _Step, edits: Sequence[tuple[int, str]]) -> _Step:
    """``step`` with ``edits`` applied as ``edit_words`` applies them: one
    ``AttackedText.replace_word_at_index`` at a time from the highest index down, then edge
    whitespace the original did not have trimmed. ``protected`` and ``modified`` move as
    ``original_index_map`` and ``modified_indices`` do."""
    text, protected, modified = step.text, step.protected, step.modified
    words = step.words or []
    edits = sorted(edits, reverse=True)  # distinct indices: the highest first
    # Edits go from the highest index down, so the words before each keep their places.
    spans = word_spans(text, words, edits[0][0] + 1)
    for index, replacement in edits:
        start, end = spans[index]
        before, after = text[:start], text[end:]
        # A word of the text is one word again (the transposition's case); other text is split.
        added = 0 if not replacement else 1 if replacement in words else len(text_words(replacement))
        if not added and after:
            # TextAttack drops the space a deleted word leaves: the next one after a first word, else the one before.
            if index == 0:
                after = after[1:] if after[0] == " " else after
            elif before.endswith(" "):
                before = before[:-1]
        text = before + replacement + after
        if added != 1:
            shift = added - 1
            protected = {p + shift if p > index else p for p in protected}
            modified = {m + shift if m > index else m for m in modified if m != index}
        if replacement != words[index]:
            modified = modified | set(range(index, index + added))
    if step.text == step.text.rstrip():
        text = text.rstrip()
    if step.text == step.text.lstrip():
        text = text.lstrip()
    return _Step(text, None, protected, modified)


def _first_kept(candidates: list[_Step], kept: Callable[[list[str], str], list[bool]], current: str) -> _Step | None:
    """The first of ``candidates`` the judges keep (judged together), or ``None``."""
    return next(
        (candidate for candidate, keep in zip(candidates, kept([c.text for c in candidates], current)) if keep), None
    )


class WordListAugmenter(Augmenter):
    """TextAttack's ``Augmenter`` that, for a transformation editing words at random positions,
    makes only the augmentations it keeps.

    ``augment(text)`` runs ``Augmenter.augment``'s loop: ``transformations_per_example``
    attempts (up to three times as many while outputs repeat), each editing until
    ``max(1, int(pct_words_to_swap × words))`` words count as swapped, a step that finds no
    candidate ending the attempt with the text it has. A step takes the first set of positions
    of :meth:`~textattack_semparse.transformations.random_words_transformation.RandomWordsTransformation.position_sets_in_random_order`
    among the question's modifiable words (not modified before, with ``RepeatModification``;
    not a literal of a ``PreserveLiterals``) whose edit (``word_edits``, rendered as
    ``AttackedText`` renders it) gives a text other than the current one and the outputs so
    far. That set is uniform among those the stock loop chooses from, so the outputs have the
    same distribution as TextAttack's ``Augmenter`` with the same transformation.

    With meaning judges (:class:`~textattack_semparse.constraints.meaning_judgement.MeaningJudgement`
    constraints) a step judges the position sets' texts in that random order, in batches of 1, 2,
    4, ..., and takes the first every judge keeps, against the original question (or the step's
    text, for a judgement that does not ``compare_against_original``): uniform among the kept
    texts, as TextAttack's choice among its judged candidates is, while judging a few candidates
    where TextAttack judges every one it made; after ``num_candidates`` refusals (the candidates
    TextAttack judges) the step finds none. The judges' tallies count the candidates judged.

    This path is taken when the transformation (alone, or the only one of a
    ``CompositeTransformation``) has ``edits_words_only``, the pre-transformation constraints are
    ``RepeatModification`` and ``PreserveLiterals``, the other constraints meaning judgements,
    ``high_yield``, ``fast_augment`` and advanced metrics are off, and the text has no CJK
    characters (TextAttack segments those with jieba); otherwise ``augment`` is TextAttack's.

    Deviation: TextAttack's loop draws among the twenty candidates the transformation made,
    after removing repeated texts; where two position sets give one text (a repeated word),
    that text is a little less likely there than here, where each position set is equally
    likely, and a step whose twenty candidates were all made before finds none there while
    here it tries the other sets (with judges, it stops after ``num_candidates`` refusals, however
    many candidates it skipped as made before). The draws come from the transformation's own
    generator (its ``seed``), not from Python's global ``random``.

    Original to textattack-semparse; the perturbations are Zhuo, Li, Huang, Shiri, Wang, Haffari
    and Li (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
    Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868.

    Args:
        As TextAttack's ``Augmenter`` (``transformation``, ``constraints``,
        ``pct_words_to_swap``, ``transformations_per_example``, ``high_yield``,
        ``fast_augment``, ``enable_advanced_metrics``).

    Example:
        >>> from textattack_semparse.transformations.random_word_deletion import RandomWordDeletion
        >>> augmenter = WordListAugmenter(
        ...     RandomWordDeletion(seed=3), constraints=[PreserveLiterals(literals=("texas",))],
        ...     transformations_per_example=2,
        ... )
        >>> augmenter.augment("what is the capital of texas?")
        ['what capital of texas?', 'what is of texas?']
    """

    def augment(self, text: str) -> list[str]:
        transformation = self._word_list_transformation()
        if transformation is None or _CJK.search(text):
            return super().augment(text)
        words = text_words(text)
        protected: set[int] = set()
        repeat = False
        for constraint in self.pre_transformation_constraints:
            if isinstance(constraint, PreserveLiterals):
                protected |= literal_word_indices(words, constraint.question_literals(text))
            elif isinstance(constraint, RepeatModification):
                repeat = True
        start = _Step(text, words, protected, set())
        kept = self._judged(text)
        words_to_swap = max(int(self.pct_words_to_swap * len(words)), 1)
        outputs: set[str] = set()
        made: set[str] = set()  # the edited outputs: TextAttack compares candidates with these, not with the input
        attempts = 0
        while (attempts < self.transformations_per_example or len(outputs) < self.transformations_per_example) and (
            attempts < 3 * self.transformations_per_example
        ):
            attempts += 1
            step, swapped = start, 0
            while swapped < words_to_swap:
                edited = self._step(transformation, step, made, repeat, kept)
                if edited is None:
                    break
                step = edited
                swapped = max(len(step.modified), swapped + 1)
            outputs.add(step.text)
            if step is not start:
                made.add(step.text)
        return sorted(outputs)

    def read_ahead(self, texts: Sequence[str]) -> None:
        """Prepare, in batches, what augmenting ``texts`` reads first: the parses of the words a
        random-word transformation protects (:meth:`RandomWordsTransformation.read_ahead`) and of
        the questions a meaning judge compares candidates with
        (:meth:`~textattack_semparse.constraints.meaning_judgement.MeaningJudgement.read_ahead`).
        The augmentations are the same; spaCy parses a batch several times faster than one
        question at a time (:func:`~textattack_semparse.augmentation.literal_protection.reading_ahead`
        calls this on a file's next questions)."""
        transformation = self.transformation
        parts = transformation.transformations if isinstance(transformation, CompositeTransformation) else [transformation]
        random_words = [part for part in parts if isinstance(part, RandomWordsTransformation)]
        if random_words:
            word_lists = [text_words(text) for text in texts]
            for part in random_words:
                part.read_ahead(word_lists)
        for constraint in self.constraints:
            if isinstance(constraint, MeaningJudgement):
                constraint.read_ahead(texts)

    def _word_list_transformation(self) -> RandomWordsTransformation | None:
        """The transformation when the word-list path applies (see the class docstring), else ``None``."""
        transformation = self.transformation
        if isinstance(transformation, CompositeTransformation) and len(transformation.transformations) == 1:
            transformation = transformation.transformations[0]
        if not isinstance(transformation, RandomWordsTransformation) or not transformation.edits_words_only:
            return None
        if self.high_yield or self.fast_augment or self.advanced_metrics:
            return None
        if not all(isinstance(constraint, MeaningJudgement) for constraint in self.constraints):
            return None
        for constraint in self.pre_transformation_constraints:
            if type(constraint) not in _KNOWN_CONSTRAINTS:
                return None
        return transformation

    def _judged(self, original: str) -> Callable[[list[str], str], list[bool]] | None:
        """``kept(candidates, current)``: whether every meaning judgement keeps each of ``candidates``
        (rewrites of the question ``original``, made from ``current``), judged together; ``None``
        without a judgement."""
        if not self.constraints:
            return None
        judgements = list(self.constraints)

        def kept(candidates: list[str], current: str) -> list[bool]:
            keep = [True] * len(candidates)
            for judgement in judgements:
                reference = original if judgement.compare_against_original else current
                pending = [index for index, keeping in enumerate(keep) if keeping]
                verdicts = judgement.judge_questions(reference, [candidates[index] for index in pending]) if pending else []
                for index, verdict in zip(pending, verdicts, strict=True):
                    keep[index] = verdict.keeps_meaning
            return keep

        return kept

    @staticmethod
    def _step(
        transformation: RandomWordsTransformation,
        step: _Step,
        made: set[str],
        repeat: bool,
        kept: Callable[[list[str], str], list[bool]] | None,
    ) -> _Step | None:
        """One edit of ``step`` by ``transformation`` (that ``kept`` keeps, with judges), or ``None``
        when no candidate is left or the judges refused ``num_candidates`` of them.

        The judges see the candidates in the draw order, in batches of 1, 2, 4, ... (a judge that
        tags its rewrites tags a batch at once); the first kept candidate of a batch is taken."""
        if step.words is None:
            step.words = text_words(step.text)
        excluded = step.protected | step.modified if repeat else step.protected
        count = len(step.words)
        eligible = transformation.eligible_positions(step.words, [i for i in range(count) if i not in excluded])
        refused, batch, pending = 0, 1, []
        for positions in transformation.position_sets_in_random_order(step.words, eligible):
            edited = _edited(step, transformation.word_edits(step.words, positions))
            if edited.text == step.text or edited.text in made:
                continue
            if kept is None:
                return edited
            pending.append(edited)
            if len(pending) < min(batch, transformation.num_candidates - refused):
                continue
            chosen = _first_kept(pending, kept, step.text)
            if chosen is not None:
                return chosen
            refused, batch, pending = refused + len(pending), batch * 2, []
            if refused >= transformation.num_candidates:  # TextAttack judges at most this many per step
                return None
        return _first_kept(pending, kept, step.text) if pending and kept is not None else None
