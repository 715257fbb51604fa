"""Lexical diversity of demonstration questions
===============================================

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868, §4.3, relate
a prompt's robustness to its in-context demonstrations; this module measures how varied the
wording of a set of demonstration questions is (issue 10). The measures are the standard ones
of the lexical-diversity literature:

* type-token ratio (TTR): distinct words over words;
* Yule's I (Yule 1944, *The Statistical Study of Literary Vocabulary*, Cambridge University
  Press), in the form ``I = M1**2 / (M2 - M1)`` used in lexical-diversity work; it is
  ``10**4 / K`` for Yule's characteristic K, so larger means more diverse;
* MTLD (McCarthy and Jarvis 2010, "MTLD, vocd-D, and HD-D: A validation study of sophisticated
  approaches to lexical diversity assessment", Behavior Research Methods 42(2), 381-392,
  https://doi.org/10.3758/BRM.42.2.381).

Texts are split into words the way TextAttack splits them, lower-cased, without punctuation
(:func:`~textattack_semparse.sql.literals.literal_words`). Original to textattack-semparse:
the choice of measures and the ``math.inf`` convention for texts without a repeated word.

Example:
    >>> d = lexical_diversity(["Name the rivers in the state with the most rivers?"])
    >>> d.tokens, d.types, d.ttr, d.yules_i, d.mtld
    (10, 7, 0.7, 12.5, 10.0)
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.sql.literals import literal_words

MTLD_THRESHOLD = 0.72  # McCarthy and Jarvis (2010)'s factor size


@dataclass(frozen=True)
class LexicalDiversity:
    """Diversity of the words of a set of texts (see :func:`lexical_diversity`).

    Args:
        tokens (int): Number of words N.
        types (int): Number of distinct words V.
        ttr (float): ``types / tokens``.
        yules_i (float): Yule's I; ``math.inf`` when no word repeats.
        mtld (float): MTLD; ``math.inf`` when no word repeats.
    """

    tokens: int
    types: int
    ttr: float
    yules_i: float
    mtld: float


def _require_tokens(tokens: Sequence[str], function: str) -> None:
    if len(tokens) == 0:
        raise ValueError(
            f"{function}() got no tokens; pass a non-empty sequence of words "
            "(e.g. literal_words(text)) and leave empty or punctuation-only texts out"
        )


def type_token_ratio(tokens: Sequence[str]) -> float:
    """Type-token ratio: distinct tokens over tokens, in (0, 1].

    Args:
        tokens (Sequence[str]): The words, already normalised (e.g. lower-cased).

    Returns:
        float: ``len(set(tokens)) / len(tokens)``.

    Raises:
        ValueError: ``tokens`` is empty.

    Example:
        >>> type_token_ratio("the cat sat on the mat".split())
        0.8333333333333334
    """
    _require_tokens(tokens, "type_token_ratio")
    return len(set(tokens)) / len(tokens)


def yules_i(tokens: Sequence[str]) -> float:
    """Yule's I = M1**2 / (M2 - M1) (Yule 1944); larger is more diverse.

    ``M1`` is the number of tokens N and ``M2 = sum(f**2 * V(f))`` over the frequencies f, where
    ``V(f)`` is the number of types occurring exactly f times. I equals ``10**4 / K`` for Yule's K
    and, unlike TTR, does not depend on the order of the tokens.

    When every type occurs once, ``M2 == M1`` and the formula divides by zero: there is no
    repetition at all, the limit of maximal diversity, and ``math.inf`` is returned.

    Args:
        tokens (Sequence[str]): The words, already normalised (e.g. lower-cased).

    Returns:
        float: Yule's I, or ``math.inf`` when no token repeats.

    Raises:
        ValueError: ``tokens`` is empty.

    Example:
        >>> yules_i("the cat sat on the mat".split())  # M1 = 6, M2 = 4*1 + 1*4 = 8: 36 / 2
        18.0
        >>> yules_i(["cat"])
        inf
    """
    _require_tokens(tokens, "yules_i")
    spectrum = Counter(Counter(tokens).values())  # f -> V(f)
    m1 = len(tokens)
    m2 = sum(f * f * types for f, types in spectrum.items())
    if m2 == m1:
        return math.inf
    return m1 * m1 / (m2 - m1)


def _mtld_factors(tokens: Iterable[str], threshold: float) -> float:
    """Factor count of one MTLD pass: full factors plus the remainder's partial factor."""
    factors = 0.0
    seen: set[str] = set()
    length = 0
    for token in tokens:
        seen.add(token)
        length += 1
        if len(seen) / length <= threshold:
            factors += 1.0
            seen, length = set(), 0
    if length:
        factors += (1.0 - len(seen) / length) / (1.0 - threshold)
    return factors


def mtld(tokens: Sequence[str], threshold: float = MTLD_THRESHOLD) -> float:
    """Measure of textual lexical diversity (McCarthy and Jarvis 2010).

    In a forward pass the running TTR of the current segment is computed token by token; as
    soon as it drops to ``threshold`` or below (``<=``), the segment is a complete factor and the
    running TTR restarts at the next token. A non-empty remainder at the end counts as the
    partial factor ``(1 - ttr_remainder) / (1 - threshold)``. The pass's MTLD is ``N / factors``;
    the backward pass does the same on the reversed tokens, and MTLD is the mean of the two, so
    ``mtld(tokens) == mtld(tokens[::-1])``.

    ``factors == 0`` happens exactly when no token repeats (no factor completes and the
    remainder, the whole text, has TTR 1, a partial factor of 0), in both directions at once.
    The original definition divides by zero there; the mean segment length that keeps TTR
    above the threshold is unbounded, so ``math.inf`` is returned, as :func:`yules_i` does.
    McCarthy and Jarvis validate MTLD on texts of 100 words or more; on a few short
    questions the remainder's partial factor weighs heavily.

    Args:
        tokens (Sequence[str]): The words in text order, already normalised.
        threshold (float): TTR at which a factor ends, in (0, 1). Default: 0.72, the paper's.

    Returns:
        float: MTLD in tokens per factor, or ``math.inf`` when no token repeats.

    Raises:
        ValueError: ``tokens`` is empty, or ``threshold`` is not in (0, 1).

    Example:
        >>> mtld("the the the the".split())  # each direction: 2 factors of 2 tokens
        2.0
        >>> mtld("what is the capital of texas".split())
        inf
    """
    if not 0.0 < threshold < 1.0:
        raise ConfigurationError(
            f"mtld() threshold must be between 0 and 1 (exclusive), got {threshold!r}; the paper uses 0.72"
        )
    _require_tokens(tokens, "mtld")
    forward = _mtld_factors(tokens, threshold)
    backward = _mtld_factors(reversed(tokens), threshold)
    if forward == 0.0 or backward == 0.0:
        return math.inf
    return (len(tokens) / forward + len(tokens) / backward) / 2.0


def lexical_diversity(texts: Iterable[str], *, threshold: float = MTLD_THRESHOLD) -> LexicalDiversity:
    """TTR, Yule's I and MTLD of the words of ``texts``, taken together in order.

    Each text is split with :func:`~textattack_semparse.sql.literals.literal_words` (TextAttack's
    word split, lower-cased, punctuation dropped) and the word lists are concatenated, so MTLD
    segments may run across text boundaries.

    Args:
        texts (Iterable[str]): The texts, e.g. the demonstration questions of a prompt.
        threshold (float): MTLD factor threshold. Default: 0.72.

    Returns:
        LexicalDiversity: Token and type counts and the three measures.

    Raises:
        TypeError: ``texts`` is a single string.
        ValueError: The texts contain no words, or ``threshold`` is not in (0, 1).

    Example:
        >>> lexical_diversity(["What is the capital?", "What is the area?"]).ttr
        0.625
    """
    if isinstance(texts, str):
        raise TypeError("lexical_diversity() takes an iterable of texts, got a single string; wrap it: [text]")
    tokens = [word for text in texts for word in literal_words(text)]
    if not tokens:
        raise ValueError("lexical_diversity() found no words in texts; pass at least one text with a word in it")
    return LexicalDiversity(
        tokens=len(tokens),
        types=len(set(tokens)),
        ttr=type_token_ratio(tokens),
        yules_i=yules_i(tokens),
        mtld=mtld(tokens, threshold),
    )
