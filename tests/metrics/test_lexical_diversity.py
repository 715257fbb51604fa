"""Lexical diversity (metrics/lexical_diversity.py), checked against values worked out by hand.

Every expected number below is computed from the definitions (TTR = V / N; Yule's I =
M1**2 / (M2 - M1) with M2 = sum f**2 V(f); MTLD of McCarthy and Jarvis 2010 as the mean of a
forward and a backward pass of N / factors), with the arithmetic written out in comments, never
copied from the function's output.
"""

from __future__ import annotations

import math

import pytest

from textattack_semparse.metrics.lexical_diversity import (
    LexicalDiversity,
    lexical_diversity,
    mtld,
    type_token_ratio,
    yules_i,
)

# A GeoQuery-style question, 10 tokens:
#   name the rivers in the state with the most rivers
# frequencies: the 3, rivers 2, name / in / state / with / most 1 each
# N = 10, V = 7; spectrum V(1) = 5, V(2) = 1, V(3) = 1
RIVERS = "name the rivers in the state with the most rivers".split()


def test_ttr_of_a_ten_token_question():
    # V / N = 7 / 10
    assert type_token_ratio(RIVERS) == pytest.approx(7 / 10)


def test_yules_i_of_a_ten_token_question():
    # M1 = 10; M2 = 1**2 * 5 + 2**2 * 1 + 3**2 * 1 = 5 + 4 + 9 = 18
    # I = 10**2 / (18 - 10) = 100 / 8 = 12.5  (Yule's K = 10**4 * 8 / 100 = 800 = 10**4 / I)
    assert yules_i(RIVERS) == pytest.approx(100 / 8)


def test_yules_i_is_ten_thousand_over_yules_k():
    m1, m2 = 10, 18
    yules_k = 10**4 * (m2 - m1) / m1**2
    assert yules_i(RIVERS) == pytest.approx(10**4 / yules_k)


def test_mtld_default_threshold_with_a_partial_factor_forward():
    tokens = "what is the largest city in the state with the largest area".split()  # N = 12
    # Forward, threshold 0.72, running TTR per token:
    #   what 1/1, is 2/2, the 3/3, largest 4/4, city 5/5, in 6/6, the 6/7 = .857,
    #   state 7/8 = .875, with 8/9 = .889, the 8/10 = .8, largest 8/11 = .727, area 9/12 = .75
    #   no value <= .72: no full factor; remainder = all 12 tokens, TTR 9/12 = .75
    #   factors = (1 - 9/12) / (1 - .72) = .25 / .28;  MTLD_f = 12 / (.25 / .28) = 13.44
    # Backward (area largest the with state the in city largest the is what):
    #   area 1/1, largest 2/2, the 3/3, with 4/4, state 5/5, the 5/6 = .833, in 6/7 = .857,
    #   city 7/8 = .875, largest 7/9 = .778, the 7/10 = .70 <= .72 -> factor 1, reset
    #   is 1/1, what 2/2: remainder TTR 1, partial (1 - 1) / .28 = 0
    #   factors = 1;  MTLD_b = 12 / 1 = 12
    # MTLD = (13.44 + 12) / 2 = 12.72
    forward = 12 / ((1 - 9 / 12) / (1 - 0.72))
    backward = 12 / 1
    assert forward == pytest.approx(13.44)
    assert mtld(tokens) == pytest.approx((forward + backward) / 2) == pytest.approx(12.72)


def test_mtld_threshold_point_eight_partial_factor_backward():
    tokens = "what is the population of the largest city of the state of texas".split()  # N = 13
    # Forward, threshold 0.8:
    #   what 1/1, is 2/2, the 3/3, population 4/4, of 5/5, the 5/6 = .833, largest 6/7 = .857,
    #   city 7/8 = .875, of 7/9 = .778 <= .8 -> factor 1, reset
    #   the 1/1, state 2/2, of 3/3, texas 4/4: remainder TTR 1, partial 0
    #   factors = 1;  MTLD_f = 13 / 1 = 13
    # Backward (texas of state the of city largest the of population the is what):
    #   texas 1/1, of 2/2, state 3/3, the 4/4, of 4/5 = .8 <= .8 -> factor 1, reset (the "<=" edge)
    #   city 1/1, largest 2/2, the 3/3, of 4/4, population 5/5, the 5/6, is 6/7, what 7/8 = .875
    #   remainder TTR 7/8, partial (1 - 7/8) / (1 - .8) = .125 / .2 = .625
    #   factors = 1.625;  MTLD_b = 13 / 1.625 = 8
    # MTLD = (13 + 8) / 2 = 10.5
    assert mtld(tokens, threshold=0.8) == pytest.approx((13 / 1 + 13 / (1 + (1 - 7 / 8) / (1 - 0.8))) / 2)
    assert mtld(tokens, threshold=0.8) == pytest.approx(10.5)


def test_mtld_factor_ends_at_the_threshold_not_only_below_it():
    # "a b a c", threshold 2/3.
    # Forward: a 1/1, b 2/2, a 2/3 <= 2/3 -> factor 1; c 1/1 remainder, partial 0: MTLD_f = 4 / 1 = 4
    # Backward (c a b a): c 1/1, a 2/2, b 3/3, a 3/4 = .75: no factor; partial
    #   (1 - 3/4) / (1 - 2/3) = .75: MTLD_b = 4 / .75 = 16/3
    # MTLD = (4 + 16/3) / 2 = 14/3. (With "<" the forward pass would also end at .75: 16/3.)
    assert mtld(list("abac"), threshold=2 / 3) == pytest.approx(14 / 3)


def test_mtld_of_one_repeated_word():
    # "the the the the", threshold .72: the 1/1, the 1/2 = .5 -> factor; twice -> 2 factors, no
    # remainder; MTLD_f = MTLD_b = 4 / 2 = 2
    assert mtld(["the"] * 4) == pytest.approx(2.0)


def test_mtld_of_the_ten_token_question():
    # Forward, .72: the running TTR first reaches .72 at the last token: rivers 7/10 = .70 ->
    #   1 factor, no remainder: MTLD_f = 10. Backward: rivers most the with state (5/5), the 5/6,
    #   in 6/7, rivers 6/8 = .75, the 6/9 = .667 -> factor 1; name 1/1 partial 0: MTLD_b = 10.
    assert mtld(RIVERS) == pytest.approx(10.0)


def test_mtld_is_the_same_on_reversed_tokens():
    tokens = "what is the population of the largest city of the state of texas".split()
    assert mtld(tokens, threshold=0.8) == pytest.approx(mtld(tokens[::-1], threshold=0.8))


def test_all_distinct_tokens_give_infinite_yules_i_and_mtld():
    tokens = "what is the capital of texas".split()
    # M2 = 1**2 * 6 = 6 = M1: I = 36 / 0; no running TTR ever drops below 1: factors = 0
    assert type_token_ratio(tokens) == 1.0
    assert yules_i(tokens) == math.inf
    assert mtld(tokens) == math.inf


def test_single_token():
    assert type_token_ratio(["texas"]) == 1.0
    assert yules_i(["texas"]) == math.inf
    assert mtld(["texas"]) == math.inf


@pytest.mark.parametrize(
    "text",
    [
        "name the rivers in the state with the most rivers",
        "the the the the",
        "what is the capital of texas",
        "which states border the state that borders the most states",
    ],
)
def test_ttr_is_in_the_unit_interval(text):
    assert 0.0 < type_token_ratio(text.split()) <= 1.0


def test_repeating_a_text_doubles_tokens_keeps_types_and_halves_ttr():
    once = lexical_diversity(["name the rivers in the state with the most rivers"])
    twice = lexical_diversity(["name the rivers in the state with the most rivers"] * 2)
    assert twice.tokens == 2 * once.tokens == 20
    assert twice.types == once.types == 7
    assert twice.ttr == pytest.approx(once.ttr / 2) == pytest.approx(7 / 20)


@pytest.mark.parametrize("k", [2, 3, 5])
def test_yules_i_of_distinct_words_each_repeated_k_times(k):
    # V types each occurring k times: M1 = kV, M2 = k**2 V, I = k**2 V**2 / (k**2 V - kV) = kV / (k - 1)
    words = "what is the capital of texas".split()  # V = 6
    assert yules_i(words * k) == pytest.approx(k * 6 / (k - 1))


def test_yules_i_and_ttr_ignore_word_order():
    assert yules_i(RIVERS[::-1]) == yules_i(sorted(RIVERS)) == yules_i(RIVERS)
    assert type_token_ratio(sorted(RIVERS)) == type_token_ratio(RIVERS)


def test_lexical_diversity_tokenises_like_textattack_lowercased_without_punctuation():
    # "Name", "rivers?" -> "name", "rivers": the same 10 tokens as RIVERS
    result = lexical_diversity(["Name the rivers in the state with the most rivers?"])
    expected = LexicalDiversity(
        tokens=10, types=7, ttr=pytest.approx(0.7), yules_i=pytest.approx(12.5), mtld=pytest.approx(10.0)
    )
    assert result == expected


def test_lexical_diversity_concatenates_texts_in_order():
    split = lexical_diversity(["What is the largest city", "in the state with the largest area?"])
    whole = lexical_diversity(["what is the largest city in the state with the largest area"])
    assert split == whole
    assert split.mtld == pytest.approx(12.72)  # from test_mtld_default_threshold_with_a_partial_factor_forward


def test_lexical_diversity_passes_the_threshold_to_mtld():
    result = lexical_diversity(["What is the population of the largest city of the state of Texas?"], threshold=0.8)
    assert result.mtld == pytest.approx(10.5)


def test_lexical_diversity_is_frozen():
    result = lexical_diversity(["the the"])
    with pytest.raises(AttributeError):
        result.ttr = 1.0  # type: ignore[misc]


@pytest.mark.parametrize("function", [type_token_ratio, yules_i, mtld])
def test_empty_tokens_raise_naming_the_fix(function):
    with pytest.raises(ValueError, match=rf"{function.__name__}\(\) got no tokens; pass a non-empty sequence"):
        function([])


@pytest.mark.parametrize("texts", [[], [""], ["?!", " ... "]])
def test_texts_without_words_raise(texts):
    with pytest.raises(ValueError, match="found no words in texts; pass at least one text with a word"):
        lexical_diversity(texts)


def test_single_string_raises_type_error():
    with pytest.raises(TypeError, match=r"got a single string; wrap it: \[text\]"):
        lexical_diversity("what is the capital of texas")


@pytest.mark.parametrize("threshold", [0.0, 1.0, -0.5, 1.5])
def test_mtld_threshold_outside_the_unit_interval_raises(threshold):
    with pytest.raises(ValueError, match="threshold must be between 0 and 1 \\(exclusive\\)"):
        mtld(RIVERS, threshold=threshold)
