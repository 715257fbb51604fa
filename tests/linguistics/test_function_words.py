"""The packaged function-word list and its loader."""

from __future__ import annotations

import subprocess
import sys

from textattack_semparse.linguistics.function_words import FUNCTION_WORDS, load_function_words


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
