"""Offline provisioning of the NLTK resource ``import textattack`` needs.

TextAttack reads NLTK's English stopword list while it is imported and fails when the
file is missing (NLTK's downloader cannot reach its server offline). When NLTK cannot
find ``corpora/stopwords/english``, this module writes the plugin's own English
function-word list there under the plugin's cache and puts that directory on
``nltk.data.path``. An existing NLTK installation of the file is always preferred.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from textattack_semparse.cache import cache_dir, write_atomically

STOPWORDS_RESOURCE = "corpora/stopwords/english"


def function_word_lines() -> list[str]:
    """The packaged function-word list, without comments or blank lines."""
    text = resources.files("textattack_semparse.resources").joinpath("function_words.txt").read_text("utf-8")
    words = (line.split("#", 1)[0].strip() for line in text.splitlines())
    return [word for word in words if word]


def ensure_nltk_stopwords() -> Path | None:
    """Make ``nltk.corpus.stopwords.words("english")`` work offline.

    Returns the NLTK data directory added to ``nltk.data.path``, or ``None`` when NLTK
    already had the resource.
    """
    import nltk

    try:
        nltk.data.find(STOPWORDS_RESOURCE)
        return None
    except LookupError:
        pass
    nltk_root = cache_dir() / "nltk_data"
    target = nltk_root / STOPWORDS_RESOURCE
    content = ("\n".join(function_word_lines()) + "\n").encode("utf-8")
    if not target.exists() or target.read_bytes() != content:
        write_atomically(target, content)
    if str(nltk_root) not in nltk.data.path:
        nltk.data.path.append(str(nltk_root))
    return nltk_root
