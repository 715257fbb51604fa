"""Preserve entities
=====================

Keep a sentence's gold named entities unchanged, as Yin et al. (2020) do for NER.

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from textattack.constraints import PreTransformationConstraint
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import original_text
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError

TokenSpan = tuple[int, int]
"""Tokens ``start`` (inclusive) to ``end`` (exclusive) of a sentence split at whitespace."""


def bio_entity_spans(tags: Sequence[str]) -> list[TokenSpan]:
    """The entity spans of a sentence's BIO (or IOB1) tags, as CoNLL-2003 writes them.

    Example:
        >>> bio_entity_spans(["B-PER", "I-PER", "O", "O", "B-LOC", "B-LOC", "I-MISC"])
        [(0, 2), (4, 5), (5, 6), (6, 7)]
    """
    spans: list[TokenSpan] = []
    start: int | None = None
    kind = ""
    for index, tag in enumerate([*tags, "O"]):
        prefix, _, label = tag.partition("-")
        continues = prefix == "I" and start is not None and label == kind
        if start is not None and not continues:
            spans.append((start, index))
            start = None
        if prefix in ("B", "I") and not continues:
            start, kind = index, label
    return spans


class PreserveEntities(PreTransformationConstraint):
    """Never modify the words of a sentence's gold named entities.

    Yin et al. attack NER with grammatical errors while keeping the named entities as they are.
    The plugin has no token-classification victim, so the gold entities come with the
    constraint: ``entities`` maps each sentence, its tokens joined by single spaces (as CoNLL
    files give them), to the token spans of its entities (:func:`bio_entity_spans` reads them
    from BIO tags). TextAttack's words are located in the sentence by their characters, so a
    word is protected when it overlaps an entity token even where TextAttack splits tokens
    differently ("U.S." is two words). The protection follows the words across earlier
    insertions and deletions through ``attack_attrs["original_index_map"]``, and, like
    :class:`~textattack_semparse.constraints.preserve_literals.PreserveLiterals`, it also
    refuses insertions right before an entity word. A sentence not in ``entities`` has no
    entity. Original to textattack-semparse.

    Args:
        entities (Mapping[str, Iterable[tuple[int, int]]]): sentence -> entity token spans
            (the repr shows how many ``sentences`` have an entry).

    Example:
        >>> text = AttackedText("John Smith lives in New York .")
        >>> constraint = PreserveEntities({text.text: [(0, 2), (4, 6)]})
        >>> sorted(constraint._get_modifiable_indices(text))
        [2, 3]
    """

    def __init__(self, entities: Mapping[str, Iterable[TokenSpan]]) -> None:
        if not isinstance(entities, Mapping):
            raise ConfigurationTypeError(
                f"entities must map each sentence to its entity token spans, got {type(entities).__name__}."
            )
        self.entities = {sentence: tuple(_checked_spans(sentence, spans)) for sentence, spans in entities.items()}
        self.sentences = len(self.entities)

    def entity_word_indices(self, text: AttackedText) -> set[int]:
        """The word indices of ``text`` (an original sentence) that overlap its gold entities."""
        spans = self.entities.get(text.text, ())
        if not spans:
            return set()
        tokens = [match.span() for match in re.finditer(r"\S+", text.text)]
        characters = [(tokens[start][0], tokens[end - 1][1]) for start, end in spans]
        protected = set()
        cursor = 0
        for index, word in enumerate(text.words):
            begin = text.text.index(word, cursor)
            cursor = begin + len(word)
            if any(begin < entity_end and entity_begin < cursor for entity_begin, entity_end in characters):
                protected.add(index)
        return protected

    def _get_modifiable_indices(self, current_text: AttackedText) -> set[int]:
        original_indices = self.entity_word_indices(original_text(current_text))
        index_map = current_text.attack_attrs["original_index_map"]
        protected = {int(index_map[i]) for i in original_indices if index_map[i] >= 0}
        return set(range(current_text.num_words)) - protected

    def extra_repr_keys(self) -> list[str]:
        return ["sentences"] + super().extra_repr_keys()


def _checked_spans(sentence: str, spans: Iterable[TokenSpan]) -> list[TokenSpan]:
    """``spans`` as integer pairs inside ``sentence``'s tokens, or a ConfigurationError."""
    count = len(sentence.split())
    checked = []
    for span in spans:
        start, end = (int(bound) for bound in span)
        if not 0 <= start < end <= count:
            raise ConfigurationError(
                f"Entity span {tuple(span)} does not lie within the {count} tokens of {sentence!r}; spans are "
                "(start, end) token indices with end exclusive."
            )
        checked.append((start, end))
    return checked
