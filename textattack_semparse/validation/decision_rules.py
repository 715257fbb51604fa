"""Which rewrites people's judgments keep.

Huang et al. (2021), "On Robustness of Neural Semantic Parsers",
https://aclanthology.org/2021.eacl-main.292/, had three Mechanical Turk workers judge each
substitution (nf), back-translation and reordering rewrite (same meaning / different meaning / not
sure) and "keep only the ones that have the same meaning agreed by at least two turkers": rule
``huang-2021``. ``unanimous`` keeps a rewrite every
annotator calls the same, ``majority`` one more than half call the same. *Not sure* is never a
*same* vote.

``huang-2021`` expects three annotators per item. With another number its test stays "at least
two say same": with two annotators both must, one annotator can never keep a rewrite, and with
four or more two votes still suffice. Those items are reported (:func:`irregular_items`).

In a best-of-k item (Zhuo et al. 2023) a vote is the choice of a candidate, and the candidate
with the most votes is kept when its votes pass the rule and no other candidate has as many;
otherwise (most chose "none", or a tie) no candidate is kept.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from textattack_semparse.errors import ConfigurationError, DatasetError, closest_match_hint
from textattack_semparse.judges.judgement import Verdict
from textattack_semparse.validation.judgments import Judgment, same_meaning_label
from textattack_semparse.validation.validation_items import NONE_OF_THEM, SAME_MEANING, ValidationItem

HUANG_2021, UNANIMOUS, MAJORITY = "huang-2021", "unanimous", "majority"
RULES = {
    HUANG_2021: "kept when at least two annotators call it the same (Huang et al. 2021, three annotators per item)",
    UNANIMOUS: "kept when every annotator calls it the same",
    MAJORITY: "kept when more than half of the annotators call it the same",
}
"""Each rule and what it keeps."""
HUANG_2021_ANNOTATORS = 3
"""Annotators per item in Huang et al. (2021)."""


def check_rule(rule: str) -> str:
    """``rule`` if it is one of :data:`RULES`."""
    if rule not in RULES:
        raise ConfigurationError(f"--rule must be one of {', '.join(RULES)}, got {rule!r}." + closest_match_hint(rule, RULES))
    return rule


def rule_keeps(rule: str, votes: int, judgments: int) -> bool:
    """Whether ``votes`` *same* votes among ``judgments`` keep a rewrite under ``rule``.

    Example:
        >>> rule_keeps("huang-2021", 2, 3), rule_keeps("huang-2021", 1, 3), rule_keeps("majority", 2, 4)
        (True, False, False)
    """
    check_rule(rule)
    if rule == HUANG_2021:
        return votes >= 2
    if rule == UNANIMOUS:
        return judgments > 0 and votes == judgments
    return 2 * votes > judgments


@dataclass(frozen=True)
class Decision:
    """The labels an item got (annotator -> label: ``same``/``different``/``unsure``, or a
    candidate id or ``none``) and the candidate kept (``None``: nothing kept)."""

    item_id: str
    labels: Mapping[str, str]
    kept: str | None

    @property
    def unanimous(self) -> bool:
        """Whether every annotator gave the same label."""
        return len(set(self.labels.values())) <= 1


def decide(item: ValidationItem, labels: Mapping[str, str], task: str, rule: str) -> Decision:
    """What ``rule`` keeps of ``item`` given its ``labels`` (see the module docstring).

    Example:
        >>> from textattack_semparse.validation.validation_items import Candidate, ValidationItem
        >>> item = ValidationItem("i1", "rivers in texas", (Candidate("1", "the rivers in texas", ()),))
        >>> decide(item, {"ann": "same", "bob": "unsure", "cy": "same"}, "same-meaning", "huang-2021").kept
        '1'
    """
    if task == SAME_MEANING:
        votes = sum(label == Verdict.SAME.value for label in labels.values())
        return Decision(item.item_id, dict(labels), "1" if rule_keeps(rule, votes, len(labels)) else None)
    counts = Counter(label for label in labels.values() if label != NONE_OF_THEM)
    ranked = counts.most_common(2)
    if not ranked or (len(ranked) == 2 and ranked[0][1] == ranked[1][1]):
        return Decision(item.item_id, dict(labels), None)
    best, votes = ranked[0]
    return Decision(item.item_id, dict(labels), best if rule_keeps(rule, votes, len(labels)) else None)


def item_labels(judgments: Sequence[Judgment], items: Sequence[ValidationItem], task: str) -> dict[str, dict[str, str]]:
    """Item id -> annotator -> label, the labels checked against the items and normalised.

    Raises:
        DatasetError: A judgment names an item the export does not have, has a label the task
            does not know, or an annotator labelled an item twice, differently (the message names
            the file and line and the fix).
    """
    by_id = {item.item_id: item for item in items}
    unknown = [judgment for judgment in judgments if judgment.item_id not in by_id]
    if unknown:
        first = unknown[0]
        raise DatasetError(
            f"{len(unknown)} judgment(s) name items this export does not have (first: {first.where}, item "
            f"{first.item_id!r}): they were made for another export. Pass the export directory whose annotate.html or "
            "items.csv the annotators had, or map the platform's columns with --columns."
        )
    labels: dict[str, dict[str, str]] = {}
    seen: dict[tuple[str, str], Judgment] = {}
    for judgment in judgments:
        label = _label(judgment, by_id[judgment.item_id], task)
        earlier = seen.setdefault((judgment.item_id, judgment.annotator), judgment)
        if earlier is not judgment and labels[judgment.item_id][judgment.annotator] != label:
            raise DatasetError(
                f"Annotator {judgment.annotator!r} labelled item {judgment.item_id!r} twice, differently ({earlier.where}: "
                f"{earlier.label!r}, {judgment.where}: {judgment.label!r}); pass only their latest judgments file."
            )
        labels.setdefault(judgment.item_id, {})[judgment.annotator] = label
    return labels


def _label(judgment: Judgment, item: ValidationItem, task: str) -> str:
    if task == SAME_MEANING:
        label = same_meaning_label(judgment.label)
        if label is None:
            raise DatasetError(
                f"{judgment.where}: label {judgment.label!r} is none of same, different, unsure (also 'same meaning', "
                "'different meaning', 'not sure', in any case). Is this a best-of-k judgments file?"
            )
        return label
    label = judgment.label.strip().lower()
    ids = [candidate.candidate_id for candidate in item.candidates]
    if label not in (*ids, NONE_OF_THEM):
        raise DatasetError(
            f"{judgment.where}: label {judgment.label!r} of item {item.item_id!r} is none of its candidates "
            f"({', '.join(ids)}) or '{NONE_OF_THEM}'. Is this a same-meaning judgments file?"
        )
    return label


def irregular_items(labels: Mapping[str, Mapping[str, str]], rule: str) -> dict[str, int]:
    """Item id -> judgments, for the judged items without :data:`HUANG_2021_ANNOTATORS` judgments
    when the rule is ``huang-2021`` (it expects three); empty for the other rules."""
    if rule != HUANG_2021:
        return {}
    return {item_id: len(found) for item_id, found in labels.items() if len(found) != HUANG_2021_ANNOTATORS}
