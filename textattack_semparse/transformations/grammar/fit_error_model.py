"""Fit confusion weights and the error-type distribution from M2 files.

M2 is the format of NUCLE, CoNLL-2013/2014 and BEA-2019 (ERRANT): an ``S`` line with the
learner's tokenised sentence, then one ``A start end|||type|||correction|||REQUIRED|||-NONE-|||annotator``
line per edit. Yin et al. (2020) estimate their weights from NUCLE's minimal edit pairs;
NUCLE is licensed, so this module lets users fit a model on any M2 corpus they have.
The module is named after its one public function (the CLI command
``textattack-semparse fit-grammar-errors`` wraps it).

Direction: an M2 edit maps the *erroneous* span (what the learner wrote) to its
*correction*. Error injection runs the other way, so an edit counts as the pair
``correct = correction -> written = erroneous span``, and
``w_ij = count(i -> j) / sum_k count(i -> k)`` estimates P(learner writes j | i is correct,
an error of this type occurs) -- the identity is never an M2 edit.
"""

from __future__ import annotations

import os
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from textattack_semparse.errors import ConfigurationError, DatasetError, closest_match_hint
from textattack_semparse.linguistics.inflection import noun_number, verb_agreement, verb_group_form
from textattack_semparse.transformations.grammar.error_model import (
    CLOSED_CLASS_TYPES,
    CONFUSION_TYPES,
    ERROR_TYPES,
    NULL,
    ErrorModel,
)

NUCLE_TYPE_MAP: dict[str, str] = {
    "ArtOrDet": "ArtOrDet",
    "Prep": "Prep",
    "Trans": "Trans",
    "Nn": "Nn",
    "SVA": "SVA",
    "Vform": "Vform",
    "Vt": "Vform",
    "Wci": "Wchoice",
    "WOinc": "Worder",
    "WOadv": "Worder",
}
"""NUCLE / CoNLL-2014 types -> paper types (Vt, verb tense, is the paper's tense-valued Vform)."""

ERRANT_TYPE_MAP: dict[str, str] = {
    "DET": "ArtOrDet",
    "PREP": "Prep",
    "CONJ": "Trans",
    "NOUN:NUM": "Nn",
    "VERB:SVA": "SVA",
    "VERB:FORM": "Vform",
    "VERB:TENSE": "Vform",
    "WO": "Worder",
}
"""ERRANT (BEA-2019) categories, with any operation ``M:``/``R:``/``U:``, -> paper types."""

ERRANT_REPLACEMENT_TYPE_MAP: dict[str, str] = {
    "NOUN": "Wchoice",
    "VERB": "Wchoice",
    "ADJ": "Wchoice",
    "ADV": "Wchoice",
    "OTHER": "Wchoice",
}
"""ERRANT categories that are word choice only as replacements (``R:NOUN`` ... ``R:OTHER``)."""

_SKIPPED_TYPES = frozenset({"noop", "UNK"})
_NO_CORRECTION = "-NONE-"


def _paper_type(m2_type: str, type_map: Mapping[str, str | None]) -> str | None:
    if m2_type in type_map:
        return type_map[m2_type]
    if m2_type in NUCLE_TYPE_MAP:
        return NUCLE_TYPE_MAP[m2_type]
    operation, _, category = m2_type.partition(":")
    if operation in ("M", "R", "U") and category:
        if category in ERRANT_TYPE_MAP:
            return ERRANT_TYPE_MAP[category]
        if operation == "R":
            return ERRANT_REPLACEMENT_TYPE_MAP.get(category)
    return None


def _read_m2(path: Path) -> Iterator[tuple[list[str], list[tuple[int, int, str, list[str], str]]]]:
    """Yield ``(tokens, edits)`` per sentence; an edit is ``(start, end, type, correction, annotator)``."""
    tokens: list[str] | None = None
    edits: list[tuple[int, int, str, list[str], str]] = []
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            line = line.rstrip("\r\n")
            if line.startswith("S "):
                if tokens is not None:
                    yield tokens, edits
                tokens, edits = line[2:].split(), []
            elif line.startswith("A "):
                if tokens is None:
                    raise DatasetError(f"{path}:{number}: an 'A' line comes before any 'S' line; is this an M2 file?")
                edits.append(_parse_edit(line, tokens, path, number))
            elif line.strip():
                raise DatasetError(
                    f"{path}:{number}: expected an 'S ' or 'A ' line or a blank line, got {line[:60]!r}; "
                    "is this an M2 file?"
                )
    if tokens is not None:
        yield tokens, edits


def _parse_edit(line: str, tokens: Sequence[str], path: Path, number: int) -> tuple[int, int, str, list[str], str]:
    fields = line[2:].split("|||")
    if len(fields) < 3:
        raise DatasetError(
            f"{path}:{number}: an M2 edit needs 'A start end|||type|||correction|||...', got {line[:80]!r}."
        )
    span = fields[0].split()
    try:
        start, end = int(span[0]), int(span[1])
    except (IndexError, ValueError) as error:
        raise DatasetError(f"{path}:{number}: edit span {fields[0]!r} is not two integers.") from error
    if fields[1] not in _SKIPPED_TYPES and not 0 <= start <= end <= len(tokens):
        raise DatasetError(f"{path}:{number}: edit span {start} {end} lies outside the {len(tokens)}-token sentence.")
    correction = fields[2].split("||")[0]  # the first of alternative corrections
    words = [] if correction.strip() in ("", _NO_CORRECTION) else correction.split()
    annotator = fields[5].strip() if len(fields) > 5 else "0"
    return start, end, fields[1], words, annotator


def _trim_common(correct: list[str], written: list[str]) -> tuple[list[str], list[str]]:
    """Drop the tokens both sides share at the start and the end (``the book -> a book``)."""
    while correct and written and correct[0] == written[0]:
        correct, written = correct[1:], written[1:]
    while correct and written and correct[-1] == written[-1]:
        correct, written = correct[:-1], written[:-1]
    return correct, written


def _pair(
    error_type: str, correct: list[str], written: list[str], sets: Mapping[str, Sequence[str]]
) -> tuple[str, str] | None:
    """The confusion-set keys ``(correct, written)`` of an edit, or ``None`` if it has none."""
    if error_type == "Vform":
        pair = (verb_group_form(correct), verb_group_form(written))
    else:
        correct, written = _trim_common(correct, written)
        if len(correct) > 1 or len(written) > 1:
            return None
        if error_type in CLOSED_CLASS_TYPES:
            pair = (correct[0] if correct else NULL, written[0] if written else NULL)
            if not set(pair) <= set(sets[error_type]):
                return None
        elif not correct or not written:
            return None
        elif error_type == "Nn":
            pair = (noun_number(correct[0]), noun_number(written[0]))
        else:  # SVA
            pair = (verb_agreement(correct[0]), verb_agreement(written[0]))
    source, target = pair
    if source is None or target is None or source == target:
        return None
    return source, target


def fit_error_model(
    m2_paths: Iterable[str | os.PathLike[str]],
    *,
    annotator: str | int | None = None,
    smoothing: float = 0.0,
    base: ErrorModel | None = None,
    type_map: Mapping[str, str | None] | None = None,
) -> ErrorModel:
    """Estimate confusion weights and the error-type distribution from M2 files.

    Each edit of a mapped type (``NUCLE_TYPE_MAP``, ``ERRANT_TYPE_MAP``,
    ``ERRANT_REPLACEMENT_TYPE_MAP``, then ``type_map``) counts once towards the type
    distribution. Edits whose two sides (after dropping shared leading/trailing tokens;
    whole verb groups for Vform) are set members (ArtOrDet, Prep, Trans, with ``∅`` for an
    empty side) or classifiable forms (Nn, SVA, Vform) also count as a pair
    ``correct -> written``. ``noop`` and ``UNK`` edits are skipped; when several annotators
    mark the same edit (same span, type and correction) in a sentence it counts once.

    Args:
        m2_paths (Iterable[str | PathLike]): M2 files.
        annotator (str | int | None, default None): count only this annotator id (last M2 field);
            ``None`` counts every annotator, merging identical edits.
        smoothing (float, default 0.0): pseudo-count added to every pair of set members.
        base (ErrorModel | None, default None): model whose confusion sets are kept
            (``ErrorModel.default()``, the paper's sets).
        type_map (Mapping[str, str | None] | None, default None): extra M2 type -> paper type
            entries, taking precedence (``None`` drops a type), e.g. ``{"Wform": "Wchoice"}``.

    Returns:
        ErrorModel: with raw counts in ``counts``; ``to_json`` writes the file the
        transformations accept.

    Raises:
        DatasetError: a file is missing or not M2, or no edit of a mapped type was found.
        ValueError: a bad argument.
    """
    paths = [Path(path) for path in ([m2_paths] if isinstance(m2_paths, (str, os.PathLike)) else m2_paths)]
    if not paths:
        raise ConfigurationError("fit_error_model needs at least one M2 file.")
    if isinstance(smoothing, bool) or not isinstance(smoothing, (int, float)) or not smoothing >= 0:
        raise ConfigurationError(f"smoothing must be a number >= 0, got {smoothing!r}.")
    type_map = dict(type_map or {})
    for m2_type, paper_type in type_map.items():
        if paper_type is not None and paper_type not in ERROR_TYPES:
            raise ConfigurationError(
                f"type_map maps {m2_type!r} to {paper_type!r}, which is not one of {ERROR_TYPES}."
                + closest_match_hint(str(paper_type), ERROR_TYPES)
            )
    base = base or ErrorModel.default()
    annotator = None if annotator is None else str(annotator)

    type_counts: Counter[str] = Counter()
    pair_counts: dict[str, Counter[tuple[str, str]]] = defaultdict(Counter)
    unpaired: Counter[str] = Counter()
    unmapped: Counter[str] = Counter()
    sentences = skipped = duplicates = 0
    for path in paths:
        if not path.is_file():
            raise DatasetError(f"M2 file {path} does not exist.")
        for tokens, edits in _read_m2(path):
            sentences += 1
            seen: set[tuple[int, int, str, tuple[str, ...]]] = set()
            for start, end, m2_type, correction, edit_annotator in edits:
                if annotator is not None and edit_annotator != annotator:
                    continue
                if m2_type in _SKIPPED_TYPES:
                    skipped += 1
                    continue
                key = (start, end, m2_type, tuple(correction))
                if key in seen:
                    duplicates += 1
                    continue
                seen.add(key)
                error_type = _paper_type(m2_type, type_map)
                if error_type is None:
                    unmapped[m2_type] += 1
                    continue
                type_counts[error_type] += 1
                if error_type not in CONFUSION_TYPES:
                    continue
                correct = [word.lower() for word in correction]
                written = [word.lower() for word in tokens[start:end]]
                pair = _pair(error_type, correct, written, base.sets)
                if pair is None:
                    unpaired[error_type] += 1
                else:
                    pair_counts[error_type][pair] += 1
    if not type_counts:
        raise DatasetError(
            f"No edit of a mapped error type in {', '.join(map(str, paths))} ({sentences} sentences; unmapped "
            f"types: {dict(unmapped) or 'none'}). Check that these are M2 files, or map their types with type_map."
        )

    weights: dict[str, dict[str, dict[str, float]]] = {}
    pairs_json: dict[str, dict[str, dict[str, int]]] = {}
    for error_type in CONFUSION_TYPES:
        members = base.sets[error_type]
        counts = pair_counts[error_type]
        weights[error_type] = {}
        pairs_json[error_type] = {}
        for source in members:
            row = {target: counts[(source, target)] + smoothing for target in members if target != source}
            row = {target: value for target, value in row.items() if value > 0}
            total = sum(row.values())
            if total > 0:
                weights[error_type][source] = {target: value / total for target, value in row.items()}
            observed = {target: counts[(source, target)] for target in members if counts[(source, target)]}
            if observed:
                pairs_json[error_type][source] = observed
    total_edits = sum(type_counts.values())
    names = ", ".join(path.name for path in paths)
    return ErrorModel(
        sets=dict(base.sets),
        weights=weights,
        type_distribution={name: type_counts[name] / total_edits for name in ERROR_TYPES},
        about=(
            f"Fitted by textattack-semparse fit_error_model from {names}: {sentences} sentences, {total_edits} "
            f"edits of the eight types of Yin et al. (2020). weights[type][correct][written] = count(correct -> "
            f"written) / count(correct -> any) (smoothing {smoothing}), counted from M2 edits read in the "
            "correction -> erroneous direction; type_distribution = share of edits per type. Confusion sets "
            f"from {base.origin}. Raw counts under 'counts'."
        ),
        counts={
            "files": [str(path) for path in paths],
            "sentences": sentences,
            "annotator": annotator,
            "types": {name: type_counts[name] for name in ERROR_TYPES},
            "pairs": pairs_json,
            "unpaired": {name: unpaired[name] for name in CONFUSION_TYPES},
            "unmapped": dict(sorted(unmapped.items())),
            "skipped_noop": skipped,
            "duplicates": duplicates,
        },
        origin=f"fitted from {names}",
    )
