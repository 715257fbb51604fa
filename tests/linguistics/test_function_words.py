"""The packaged function-word list and its loader."""

from __future__ import annotations

import string
import subprocess
import sys

import pytest

from textattack_semparse.linguistics.function_words import (
    FUNCTION_WORDS,
    PUNCTUATION,
    WORD_LISTS,
    load_function_words,
    load_word_list,
)


def test_constant_is_the_loaded_list() -> None:
    assert FUNCTION_WORDS is load_function_words()


def test_size_is_a_closed_class_list() -> None:
    assert 150 <= len(FUNCTION_WORDS) <= 300


def test_words_are_lowercase_without_comments_or_blanks() -> None:
    assert all(word == word.lower() and word.strip() == word and word for word in FUNCTION_WORDS)
    assert not any(word.startswith("#") for word in FUNCTION_WORDS)


def test_covers_each_closed_class() -> None:
    samples = {
        "articles": {"a", "an", "the"},
        "pronouns": {"i", "me", "they", "themselves", "whom"},
        "prepositions": {"of", "in", "through", "between", "with"},
        "conjunctions": {"and", "or", "but", "because", "if"},
        "auxiliaries": {"is", "was", "have", "does", "will", "should"},
        "wh-words": {"what", "which", "who", "where", "when", "how", "why"},
        "adverbs": {"not", "very", "only", "just", "then", "here", "there"},
        "contractions": {"don't", "isn't", "won't", "you're", "that'll", "should've"},
    }
    for words in samples.values():
        assert words <= FUNCTION_WORDS


def test_excludes_content_words_of_geoquery_questions() -> None:
    assert not {"population", "state", "river", "texas", "new", "york", "largest", "city"} & FUNCTION_WORDS


def test_loading_does_not_import_textattack_or_torch() -> None:
    code = (
        "import sys; import textattack_semparse.linguistics.function_words as m; "
        "print(sorted(x for x in ('textattack', 'torch', 'nltk') if x in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"


# --- The "huang-2021" list -------------------------------------------------------------

# Huang et al. (2021), "On Robustness of Neural Semantic Parsers", EACL 2021
# (https://aclanthology.org/2021.eacl-main.292/), treat stop-word-list words as function
# words: the union of NLTK's English stop words, scikit-learn's ENGLISH_STOP_WORDS and
# punctuation. This sample of NLTK's list is written by hand (the downloader is offline).
NLTK_SAMPLE = {
    "i", "me", "ourselves", "you're", "she's", "it's", "that'll", "whom", "am", "having",
    "doing", "until", "against", "further", "once", "own", "just", "should've", "now",
    "don", "don't", "shouldn", "ll", "re", "ve", "y", "ain", "ma", "mightn", "mustn",
    "needn", "shan", "wasn", "weren", "won", "wouldn", "couldn", "didn", "doesn", "hadn",
    "haven", "isn", "aren", "hasn", "d", "m", "o", "s", "t", "isn't", "mustn't", "won't",
}  # fmt: skip
PAPER_EXAMPLES = {"show", "get", "give", "one", "thru", "becomes", "isn", "aren", "hasn"}


def test_word_lists_name_the_default_and_the_paper() -> None:
    assert list(WORD_LISTS) == ["meaning-preserving", "huang-2021"]


def test_huang_list_covers_sklearn_nltk_and_punctuation() -> None:
    """'Their perturbed test sets treat stop-word-list words as function words (e.g. show,
    get, give, one, thru, becomes, contraction stems such as isn, aren, hasn, and
    punctuation).'"""
    ENGLISH_STOP_WORDS = pytest.importorskip("sklearn.feature_extraction.text").ENGLISH_STOP_WORDS

    words = set(load_word_list("huang-2021"))
    assert set(ENGLISH_STOP_WORDS) <= words
    assert NLTK_SAMPLE <= words
    assert PAPER_EXAMPLES <= words
    assert set(string.punctuation) <= words and PUNCTUATION == set(string.punctuation)


def test_huang_list_is_exactly_the_union() -> None:
    ENGLISH_STOP_WORDS = pytest.importorskip("sklearn.feature_extraction.text").ENGLISH_STOP_WORDS

    words = load_word_list("huang-2021")
    assert len(words) == len(set(words))
    nltk_part = set(words) - set(ENGLISH_STOP_WORDS) - PUNCTUATION
    # NLTK's 179 words minus those scikit-learn has too; all lowercase, no content words.
    assert NLTK_SAMPLE - set(ENGLISH_STOP_WORDS) <= nltk_part and len(nltk_part) == 60
    assert not {"texas", "rivers", "population", "state", "capital"} & set(words)
    assert all(word == word.lower() and word.strip() == word and word for word in words)


def test_huang_list_keeps_the_hash_mark_but_not_comments() -> None:
    words = load_word_list("huang-2021")
    assert "#" in words and not any(word.startswith("#") and word != "#" for word in words)


def test_meaning_preserving_has_no_flat_list() -> None:
    with pytest.raises(ValueError, match="No flat function-word list 'meaning-preserving'"):
        load_word_list("meaning-preserving")
    with pytest.raises(ValueError, match="Did you mean 'huang-2021'"):
        load_word_list("huang2021")


def test_huang_list_leaves_the_default_list_alone() -> None:
    assert "show" not in FUNCTION_WORDS and "isn" not in FUNCTION_WORDS


def test_loading_the_huang_list_does_not_import_sklearn_or_nltk() -> None:
    code = (
        "import sys; import textattack_semparse.linguistics.function_words as m; m.load_word_list('huang-2021'); "
        "print(sorted(x for x in ('sklearn', 'nltk', 'textattack') if x in sys.modules))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]"
