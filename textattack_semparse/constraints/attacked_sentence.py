"""Attacked sentence
=====================

Perturb one sentence of a sentence pair, the one Yin et al. (2020) attack for the task.

Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/. Their released
code (``attack_agent.py`` of https://github.com/uclanlp/ProbeGrammarRobustness) attacks the
first sentence for SST-2 and MRPC (``is_first_sent = (config.data_sign == 'SST-2' or
config.data_sign == 'MRPC')``) and the second sentence otherwise (MNLI, QNLI).
"""

from __future__ import annotations

from textattack.constraints import PreTransformationConstraint
from textattack.shared import AttackedText

from textattack_semparse.errors import ConfigurationError, RecipeError, closest_match_hint

SENTENCES = ("first", "second")
"""How the paper names the attacked sentence of a pair."""

TASK_SENTENCES: dict[str, str] = {"mnli": "second", "qnli": "second", "mrpc": "first", "sst2": "first"}
"""The sentence Yin et al. attack in each of their classification tasks (SST-2 has one)."""

COLUMN_LAYOUTS: dict[tuple[str, ...], tuple[str, str]] = {
    ("premise", "hypothesis"): ("second", "mnli"),
    ("question", "sentence"): ("second", "qnli"),
    ("sentence1", "sentence2"): ("first", "mrpc"),
    ("question", "db_id"): ("first", "the question of a parser"),
    ("question", "table"): ("first", "the question of a parser"),
}
"""Input columns (as TextAttack's GLUE datasets and the plugin's datasets name them) -> the
attacked sentence and the task whose rule gives it. RTE, STS-B and WNLI share MRPC's
``sentence1``/``sentence2`` columns and get MRPC's rule."""


def task_sentence(task: str) -> str:
    """The sentence Yin et al. attack in ``task`` (``"mnli"``, ``"qnli"``, ``"mrpc"``, ``"sst2"``).

    Example:
        >>> task_sentence("mnli"), task_sentence("MRPC")
        ('second', 'first')
    """
    key = task.lower().replace("-", "")
    if key not in TASK_SENTENCES:
        raise ConfigurationError(
            f"Unknown task {task!r}; Yin et al.'s classification tasks are {', '.join(TASK_SENTENCES)}."
            f"{closest_match_hint(key, TASK_SENTENCES)}"
        )
    return TASK_SENTENCES[key]


class AttackedSentence(PreTransformationConstraint):
    """Only the words of the attacked sentence may be modified.

    Yin et al. attack one sentence of a pair: the second for MNLI and QNLI (the hypothesis,
    the context sentence), the first for MRPC (their released code; SST-2 has one sentence).
    ``sentence`` names it as the paper does, ``"first"`` or ``"second"`` input column; by
    default it is read from the text's input columns (:data:`COLUMN_LAYOUTS`: TextAttack's GLUE
    columns, and the plugin's ``question`` + ``db_id``/``table`` inputs, whose question is
    attacked). A text with one input column is attacked whole. Other column layouts (QQP's
    ``question1``/``question2``, a CSV's own names) raise :class:`RecipeError`: the paper names no
    sentence for them, so ``sentence`` must.

    Args:
        sentence (str | None, default None): ``"first"``, ``"second"`` or ``None`` (by the columns).

    Example:
        >>> from collections import OrderedDict
        >>> text = AttackedText(OrderedDict(premise="A man sleeps.", hypothesis="Nobody sleeps."))
        >>> sorted(AttackedSentence()._get_modifiable_indices(text))
        [3, 4]
        >>> sorted(AttackedSentence(sentence="first")._get_modifiable_indices(text))
        [0, 1, 2]
    """

    def __init__(self, sentence: str | None = None) -> None:
        if sentence is not None and sentence not in SENTENCES:
            raise ConfigurationError(
                f"Unknown sentence {sentence!r}; the attacked sentence is 'first' or 'second' (or None: by the "
                f"input columns).{closest_match_hint(str(sentence), SENTENCES)}"
            )
        self.sentence = sentence

    def attacked_column(self, current_text: AttackedText) -> str:
        """The label of the input column this constraint leaves modifiable."""
        labels = tuple(current_text.column_labels)
        if len(labels) == 1:
            return labels[0]
        sentence = self.sentence
        if sentence is None:
            if labels not in COLUMN_LAYOUTS:
                raise RecipeError(
                    f"Which sentence of the input columns {labels} should the attack perturb? Yin et al. name it for "
                    f"MNLI, QNLI and MRPC only; pass the recipe option task=mnli|qnli|mrpc or sentence=first|second "
                    "(textattack-semparse attack/grammar-attack --recipe-option sentence=second)."
                )
            sentence = COLUMN_LAYOUTS[labels][0]
        return labels[SENTENCES.index(sentence)]

    def _get_modifiable_indices(self, current_text: AttackedText) -> set[int]:
        column = self.attacked_column(current_text)
        start = 0
        for label, words in zip(current_text.column_labels, current_text.words_per_input):
            if label == column:
                return set(range(start, start + len(words)))
            start += len(words)
        return set()

    def extra_repr_keys(self) -> list[str]:
        return ["sentence"] + super().extra_repr_keys()
