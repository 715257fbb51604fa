"""Chance-corrected agreement: Fleiss' kappa among several annotators, Cohen's kappa between two.

Joseph L. Fleiss (1971), "Measuring nominal scale agreement among many raters", Psychological
Bulletin 76(5), https://doi.org/10.1037/h0031619; Jacob Cohen (1960), "A coefficient of agreement
for nominal scales", Educational and Psychological Measurement 20(1),
https://doi.org/10.1177/001316446002000104.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from textattack_semparse.errors import ConfigurationError


def fleiss_kappa(ratings: Sequence[Sequence[str]]) -> float | None:
    """Fleiss' kappa of the labels each item got (one sequence of labels per item).

    With ``n_ij`` the annotators who gave item ``i`` label ``j`` and ``n_i`` its annotators::

        P_i  = sum_j n_ij (n_ij - 1) / (n_i (n_i - 1))      agreement on item i
        P    = mean of P_i                                  observed agreement
        p_j  = sum_i n_ij / sum_i n_i                       share of label j
        P_e  = sum_j p_j^2                                  agreement expected by chance
        kappa = (P - P_e) / (1 - P_e)

    With the same ``n`` for every item this is Fleiss (1971); items may have different counts
    (an annotator skipped one), and items with fewer than two labels are left out, since agreement
    needs two. ``None`` when no item has two labels, or every label is the same one (``P_e = 1``:
    agreement beyond chance is undefined).

    Example:
        >>> fleiss_kappa([["same", "same", "same"], ["different", "different", "different"]])
        1.0
        >>> fleiss_kappa([["same", "same"], ["same", "same"]]) is None
        True
    """
    rated = [Counter(labels) for labels in ratings if len(labels) >= 2]
    if not rated:
        return None
    observed = sum(
        sum(count * (count - 1) for count in counts.values()) / (total * (total - 1))
        for counts in rated
        for total in [sum(counts.values())]
    ) / len(rated)
    totals: Counter[str] = Counter()
    for counts in rated:
        totals.update(counts)
    labels = sum(totals.values())
    expected = sum((count / labels) ** 2 for count in totals.values())
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def cohen_kappa(first: Sequence[str], second: Sequence[str]) -> float | None:
    """Cohen's kappa of two annotators' labels of the same items, in order::

        p_o = share of items both labelled alike             observed agreement
        p_e = sum_k (share of first's k) (share of second's k)   agreement by chance
        kappa = (p_o - p_e) / (1 - p_e)

    ``None`` without items, or when both always give one and the same label (``p_e = 1``).

    Example:
        >>> cohen_kappa(["same", "different"], ["same", "different"])
        1.0
        >>> cohen_kappa(["same", "same"], ["different", "different"])
        0.0
    """
    if len(first) != len(second):
        raise ConfigurationError(f"cohen_kappa needs two labels per item; got {len(first)} and {len(second)} labels.")
    if not first:
        return None
    items = len(first)
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / items
    first_counts, second_counts = Counter(first), Counter(second)
    expected = sum(first_counts[label] * second_counts[label] for label in first_counts) / items**2
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)
