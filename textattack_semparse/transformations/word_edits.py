"""Candidate texts built the way TextAttack builds them, faster
==============================================================

TextAttack's word edits (``AttackedText.replace_word_at_index`` and its siblings) all go through
``generate_new_attacked_text``, which splits every word of the text into words twice per
candidate, with a regular expression each time. A transformation that proposes one candidate per
(word, position) pair makes thousands of candidates per question. ``bench/word_edits.py`` builds
such candidates for the geo-lambda test questions about twice as fast with these functions. The functions here take the same arguments as those methods and
return the same text with the same ``attack_attrs`` (``original_index_map``, ``modified_indices``,
``newly_modified_indices``, ``previous_attacked_text``, ``label_names``), so a search, its
constraints and its logs cannot tell them apart; they only remember how each word splits. A test
compares them with TextAttack's methods on random edits of real questions.
"""

from __future__ import annotations

import functools
from collections import OrderedDict
from collections.abc import Sequence

from textattack.shared import AttackedText
from textattack.shared.utils import words_from_text

_SPLIT_TOKEN = AttackedText.SPLIT_TOKEN


@functools.lru_cache(maxsize=65536)
def _words(text: str) -> tuple[str, ...]:
    """The words TextAttack reads in ``text`` (a word, a phrase, or ``""``)."""
    return tuple(words_from_text(text))


def new_attacked_text(current_text: AttackedText, new_words: Sequence[str]) -> AttackedText:
    """``current_text.generate_new_attacked_text(new_words)``, with word splitting remembered.

    ``new_words[i]`` takes the place of ``current_text.words[i]``: the same word, another
    word, ``""`` (a deletion) or several space-separated words (an insertion). The steps are
    TextAttack's, in its order.
    """
    columns = column_values(current_text)
    original_text = _SPLIT_TOKEN.join(columns)
    perturbed_text = ""
    attack_attrs = current_text.attack_attrs
    new_attack_attrs: dict[str, object] = {}
    if "label_names" in attack_attrs:
        new_attack_attrs["label_names"] = attack_attrs["label_names"]
    newly_modified: set[int] = set()
    new_attack_attrs["newly_modified_indices"] = newly_modified
    new_attack_attrs["previous_attacked_text"] = current_text
    modified: set[int] = attack_attrs["modified_indices"].copy()
    index_map = attack_attrs["original_index_map"].copy()
    new_i = 0
    for i, (input_word, adv_word_seq) in enumerate(zip(current_text.words, new_words)):
        word_start = _word_start(original_text, input_word)
        perturbed_text += original_text[:word_start]
        original_text = original_text[word_start + len(input_word) :]
        adv_words = _words(adv_word_seq)
        adv_num_words = len(adv_words)
        num_words_diff = adv_num_words - len(_words(input_word))
        if num_words_diff != 0:
            modified = {index if index < i else index + num_words_diff for index in modified if index != i}
            index_map = index_map.copy()
            if num_words_diff == -1:
                index_map[index_map == i] = -1
            index_map[index_map > i] += num_words_diff
            if num_words_diff > 0 and input_word != adv_words[0]:
                index_map[index_map == i] += num_words_diff
        if input_word != adv_word_seq:
            newly = range(new_i, new_i + adv_num_words)
            modified.update(newly)
            newly_modified.update(newly)
        new_i += adv_num_words
        if adv_num_words == 0 and original_text:
            if i == 0:
                if original_text[0] == " ":
                    original_text = original_text[1:]
            elif perturbed_text[-1] == " ":
                perturbed_text = perturbed_text[:-1]
        perturbed_text += adv_word_seq
    perturbed_text += original_text
    new_attack_attrs["modified_indices"] = modified
    new_attack_attrs["original_index_map"] = index_map
    new_columns = OrderedDict(zip(current_text.column_labels, perturbed_text.split(_SPLIT_TOKEN)))
    return AttackedText(new_columns, attack_attrs=new_attack_attrs)


def column_values(attacked_text: AttackedText) -> tuple[str, ...]:
    """The text of each input column (the question first), whatever the number of columns."""
    columns = attacked_text.tokenizer_input
    return (columns,) if isinstance(columns, str) else tuple(columns)


def _word_start(original_text: str, input_word: str) -> int:
    """Where ``input_word`` starts in what is left of the text, stepping over the column
    separator when the word is a substring of it (TextAttack's fix for its issue 631)."""
    if input_word in _SPLIT_TOKEN and _SPLIT_TOKEN in original_text:
        split_start = original_text.index(_SPLIT_TOKEN)
        if split_start <= original_text.index(input_word) < split_start + len(_SPLIT_TOKEN):
            return original_text.replace(_SPLIT_TOKEN, "").index(input_word) + len(_SPLIT_TOKEN)
    return original_text.index(input_word)


def replace_words_at_indices(current_text: AttackedText, indices: Sequence[int], words: Sequence[str]) -> AttackedText:
    """``current_text.replace_words_at_indices(indices, words)``, faster."""
    if len(indices) != len(words):
        raise ValueError(f"Cannot replace {len(words)} words at {len(indices)} indices.")
    new_words = current_text.words[:]
    for i, word in zip(indices, words):
        if not isinstance(word, str):
            raise TypeError(f"replace_words_at_indices requires ``str`` words, got {type(word)}")
        if i < 0 or i > len(new_words):
            raise ValueError(f"Cannot assign word at index {i}")
        new_words[i] = word
    return new_attacked_text(current_text, new_words)


def replace_word_at_index(current_text: AttackedText, index: int, word: str) -> AttackedText:
    """``current_text.replace_word_at_index(index, word)``, faster."""
    if not isinstance(word, str):
        raise TypeError(f"replace_word_at_index requires ``str`` new_word, got {type(word)}")
    return replace_words_at_indices(current_text, [index], [word])


def delete_word_at_index(current_text: AttackedText, index: int) -> AttackedText:
    """``current_text.delete_word_at_index(index)``, faster."""
    return replace_word_at_index(current_text, index, "")


def insert_text_after_word_index(current_text: AttackedText, index: int, text: str) -> AttackedText:
    """``current_text.insert_text_after_word_index(index, text)``, faster."""
    if not isinstance(text, str):
        raise TypeError(f"text must be an str, got type {type(text)}")
    return replace_word_at_index(current_text, index, f"{current_text.words[index]} {text}")


def insert_text_before_word_index(current_text: AttackedText, index: int, text: str) -> AttackedText:
    """``current_text.insert_text_before_word_index(index, text)``, faster."""
    if not isinstance(text, str):
        raise TypeError(f"text must be an str, got type {type(text)}")
    return replace_word_at_index(current_text, index, f"{text} {current_text.words[index]}")
