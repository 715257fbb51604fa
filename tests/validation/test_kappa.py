"""Fleiss' and Cohen's kappa against worked examples computed here by hand from the formulas."""

from __future__ import annotations

from fractions import Fraction

import pytest

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.validation.kappa import cohen_kappa, fleiss_kappa


def test_fleiss_kappa_of_a_worked_example():
    # Fleiss (1971): with n_ij the raters who put item i in category j, and n raters per item,
    #   P_i = 1/(n(n-1)) * sum_j n_ij (n_ij - 1),  P = mean_i P_i,
    #   p_j = sum_i n_ij / (N n),  P_e = sum_j p_j^2,  kappa = (P - P_e) / (1 - P_e).
    ratings = [
        ["same", "same", "same"],  # n_i = (3, 0, 0): P_1 = 3*2 / 6 = 1
        ["same", "same", "different"],  # (2, 1, 0): P_2 = 2*1 / 6 = 1/3
        ["different", "different", "unsure"],  # (0, 2, 1): P_3 = 2*1 / 6 = 1/3
        ["same", "different", "unsure"],  # (1, 1, 1): P_4 = 0
    ]
    observed = (Fraction(1) + Fraction(1, 3) + Fraction(1, 3) + 0) / 4  # 5/12
    same, different, unsure = Fraction(6, 12), Fraction(4, 12), Fraction(2, 12)  # of the 12 labels
    expected = same**2 + different**2 + unsure**2  # 1/4 + 1/9 + 1/36 = 7/18
    by_hand = (observed - expected) / (1 - expected)
    assert by_hand == Fraction(1, 22)
    assert fleiss_kappa(ratings) == pytest.approx(float(by_hand))


def test_fleiss_kappa_is_one_for_full_agreement_and_negative_below_chance():
    assert fleiss_kappa([["same"] * 3, ["different"] * 3]) == pytest.approx(1.0)
    # Two raters who always disagree: P = 0, p = (1/2, 1/2), P_e = 1/2, kappa = -1.
    assert fleiss_kappa([["same", "different"], ["different", "same"]]) == pytest.approx(-1.0)


def test_fleiss_kappa_leaves_out_items_rated_once_and_is_undefined_without_variety():
    assert fleiss_kappa([["same"], ["different"]]) is None  # no item with two ratings
    assert fleiss_kappa([["same", "same"], ["same", "same"]]) is None  # P_e = 1
    assert fleiss_kappa([["same", "same", "same"], ["different", "different", "different"], ["unsure"]]) == pytest.approx(1.0)


def test_cohen_kappa_of_a_worked_example():
    # Cohen (1960): kappa = (p_o - p_e) / (1 - p_e), p_o the share of items labelled alike,
    # p_e = sum_k p_first(k) p_second(k). Ten items: both keep 4, the judge alone keeps 2, people
    # alone keep 1, both reject 3.
    judge = ["keep"] * 4 + ["keep"] * 2 + ["reject"] * 1 + ["reject"] * 3
    people = ["keep"] * 4 + ["reject"] * 2 + ["keep"] * 1 + ["reject"] * 3
    p_o = Fraction(4 + 3, 10)
    p_e = Fraction(6, 10) * Fraction(5, 10) + Fraction(4, 10) * Fraction(5, 10)  # 1/2
    by_hand = (p_o - p_e) / (1 - p_e)
    assert by_hand == Fraction(2, 5)
    assert cohen_kappa(judge, people) == pytest.approx(float(by_hand))


def test_cohen_kappa_edge_cases():
    assert cohen_kappa([], []) is None
    assert cohen_kappa(["same", "same"], ["same", "same"]) is None  # p_e = 1
    with pytest.raises(ConfigurationError, match="two labels per item"):
        cohen_kappa(["same"], ["same", "different"])
