"""The default meaning judge: vetoes grounded in the gold, then a learned reader.

Layer one (:mod:`.vetoes`) says ``different``, with one reason, when a rewrite drops or changes a
value, a number, an operator or a predicate the gold names: precise, and explained in words a
person checks at a glance. Layer two (:mod:`.reader`) reads every pair no veto settles, the
paraphrases and synonyms no rule can read, and says ``same`` when its probability reaches its
threshold. A rewrite with the original's words (case and punctuation aside) is ``same``, one
without words ``different``, before either layer.

Registered as ``default`` (the packaged reader), ``cross-encoder:<model>`` (any CrossEncoder, or a
folder of ``judge train``, as the reader; ``?threshold=0.7`` sets its threshold) and ``vetoes``
(the first layer alone: what no veto settles is ``same``). Every judgement names its layer, which
manifests and reports count (:class:`~textattack_semparse.judges.judgement.JudgeTally`), and
:attr:`GroundedJudge.identity` names the reader's files by digest.

Example:
    >>> judge = GroundedJudge()
    >>> judge("which is the largest state", "which is the smallest state").reason
    "turned 'largest' into 'smallest' (superlative)"
    >>> judge("how many singers do we have", "how many vocalists do we have").verdict.value
    'same'
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from urllib.parse import parse_qsl

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges.judgement import Judgement, RewritePair, Verdict
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE, MeaningJudge
from textattack_semparse.judges.reader import PairReader
from textattack_semparse.judges.vetoes import VETOES, PairReading, Veto, read_pair, unrelated_replacement
from textattack_semparse.linguistics.operator_words import question_words

STRICT_THRESHOLD = 0.6
"""The reader's threshold for a local edit that replaces a content word by one WordNet relates to it
by no sense (:func:`~textattack_semparse.judges.vetoes.unrelated_replacement`): the reader is
surer of paraphrases than of such near misses."""

VETO_LAYER = "veto"
READER_LAYER = "reader"
WORDS_LAYER = "words"


class GroundedJudge(MeaningJudge):
    """Vetoes, then a reader (see the module docstring).

    Args:
        reader (PairReader | None, default None): The second layer; ``None`` is the packaged reader.
        vetoes (Sequence[Veto], default VETOES): The first layer's rules, in order.
        use_reader (bool, default True): ``False``: what no veto settles is ``same``.
    """

    name = DEFAULT_JUDGE

    def __init__(
        self,
        reader: PairReader | None = None,
        *,
        vetoes: Sequence[Veto] = VETOES,
        use_reader: bool = True,
        strict_threshold: float = STRICT_THRESHOLD,
    ) -> None:
        self._reader = reader
        self.vetoes = tuple(vetoes)
        self.use_reader = use_reader
        self.strict_threshold = strict_threshold

    @property
    def reader(self) -> PairReader:
        if self._reader is None:
            self._reader = _packaged_reader()
        return self._reader

    @property
    def identity(self) -> str:
        """The vetoes' names and the reader's model and threshold, its files by digest."""
        vetoes = ",".join(veto.name for veto in self.vetoes)
        if not self.use_reader:
            return f"{self.name}: vetoes [{vetoes}]"
        reader = self.reader
        return (
            f"{self.name}: vetoes [{vetoes}]; reader {reader.model_name} {reader.identity} threshold "
            f"{reader.threshold}, {self.strict_threshold} for an unrelated word"
        )

    def judge(self, pairs: Sequence[RewritePair]) -> list[Judgement]:
        readings: dict[int, PairReading] = {}
        judgements: list[Judgement | None] = [self._first_layer(pair, readings, index) for index, pair in enumerate(pairs)]
        pending = [index for index, judgement in enumerate(judgements) if judgement is None]
        if pending and self.use_reader:
            reader = self.reader
            scores = reader.probabilities([(pairs[i].original, pairs[i].rewrite) for i in pending])
            for index, score in zip(pending, scores, strict=True):
                unrelated = unrelated_replacement(readings[index])
                threshold = reader.threshold if unrelated is None else max(reader.threshold, self.strict_threshold)
                same = score >= threshold
                why = "" if unrelated is None else f"; {unrelated[1]!r} shares no WordNet sense with {unrelated[0]!r}"
                judgements[index] = Judgement(
                    Verdict.SAME if same else Verdict.DIFFERENT,
                    f"the reader: {'the same question' if same else 'another question'} "
                    f"(p = {score:.2f}, threshold {threshold:.2f}{why})",
                    READER_LAYER,
                )
        for index in pending:
            if judgements[index] is None:
                judgements[index] = Judgement(Verdict.SAME, "no veto fired", VETO_LAYER)
        return [judgement for judgement in judgements if judgement is not None]

    def _first_layer(self, pair: RewritePair, readings: dict[int, PairReading], index: int) -> Judgement | None:
        """The verdict of the words and the vetoes, or ``None`` for the reader (``readings[index]``
        then holds the pair's reading)."""
        original, rewrite = question_words(pair.original), question_words(pair.rewrite)
        if original == rewrite:
            return Judgement(Verdict.SAME, "the same words", WORDS_LAYER)
        if not rewrite or not original:
            return Judgement(Verdict.DIFFERENT, "one of the questions has no words", WORDS_LAYER)
        reading = readings[index] = read_pair(pair)
        if reading.rewrite == reading.original:
            return Judgement(Verdict.SAME, "the same words once its typos are read as the words they misspell", WORDS_LAYER)
        if appends_no_condition(reading.original, reading.rewrite):
            return Judgement(Verdict.SAME, "the question with function words appended (no condition)", WORDS_LAYER)
        for veto in self.vetoes:
            reason = veto(reading)
            if reason is not None:
                return Judgement(Verdict.DIFFERENT, reason, f"{VETO_LAYER}:{veto.name}")
        return None


def appends_no_condition(original: Sequence[str], rewrite: Sequence[str]) -> bool:
    """Whether ``rewrite`` is ``original`` with function words of no operator appended: Zhuo et
    al.'s distraction ("who is who; what is what; ...").

    Example:
        >>> appends_no_condition(["where", "is", "dallas"], "where is dallas who is who what is what".split())
        True
        >>> appends_no_condition(["where", "is", "dallas"], "where is dallas not in texas".split())
        False
    """
    from textattack_semparse.judges.lexicon import operator_marks
    from textattack_semparse.linguistics.function_words import FUNCTION_WORDS

    added = list(rewrite[len(original) :])
    return (
        len(rewrite) > len(original) and list(rewrite[: len(original)]) == list(original)
        and all(word in FUNCTION_WORDS for word in added) and not operator_marks(added)
    )


@functools.cache
def _packaged_reader() -> PairReader:
    """One packaged reader per process, shared by the default judges (its model loads once)."""
    return PairReader()


def default_judge() -> GroundedJudge:
    """The judge registered as ``default``: the vetoes and the packaged reader."""
    return GroundedJudge()


def vetoes_only() -> GroundedJudge:
    """The judge registered as ``vetoes``: the first layer alone."""
    judge = GroundedJudge(use_reader=False)
    judge.name = "vetoes"
    return judge


def cross_encoder_judge(target: str) -> GroundedJudge:
    """The judge registered as ``cross-encoder:<model>[?threshold=T]``: the vetoes, then that reader.

    Raises:
        ConfigurationError: No model named, or an option other than ``threshold``.
    """
    model, _, query = target.partition("?")
    if not model:
        raise ConfigurationError("cross-encoder: needs a model: cross-encoder:<hub name or folder>[?threshold=0.5].")
    options = dict(parse_qsl(query, keep_blank_values=True))
    unknown = sorted(set(options) - {"threshold"})
    if unknown:
        raise ConfigurationError(f"cross-encoder: takes only threshold=, got {unknown}.")
    try:
        threshold = float(options["threshold"]) if "threshold" in options else None
    except ValueError:
        raise ConfigurationError(f"cross-encoder: threshold must be a number, got {options['threshold']!r}.") from None
    return GroundedJudge(PairReader(model, threshold=threshold))
