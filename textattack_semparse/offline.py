"""Offline provisioning of the NLTK resource ``import textattack`` needs, and whether the
Hugging Face hub may be asked (:func:`hub_offline`).

TextAttack reads NLTK's English stopword list while it is imported and fails when the
file is missing (NLTK's downloader cannot reach its server offline). When NLTK cannot
find ``corpora/stopwords/english``, this module writes the plugin's own English
function-word list there under the plugin's cache and puts that directory on
``nltk.data.path``. An existing NLTK installation of the file is always preferred.
"""

from __future__ import annotations

import os
from pathlib import Path

from textattack_semparse.cache import cache_dir, write_atomically
from textattack_semparse.linguistics.function_words import load_function_words

STOPWORDS_RESOURCE = "corpora/stopwords/english"
_TRUE = {"1", "ON", "YES", "TRUE"}


def hub_offline() -> bool:
    """Whether ``HF_HUB_OFFLINE`` (or its older name ``TRANSFORMERS_OFFLINE``) is set, as
    huggingface_hub reads it (1, ON, YES or TRUE): then nothing is downloaded or uploaded, and a hub
    name loads only from this machine's cache."""
    setting = os.environ.get("HF_HUB_OFFLINE") or os.environ.get("TRANSFORMERS_OFFLINE") or ""
    return setting.upper() in _TRUE


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
    content = ("\n".join(sorted(load_function_words())) + "\n").encode("utf-8")
    if not target.exists() or target.read_bytes() != content:
        write_atomically(target, content)
    if str(nltk_root) not in nltk.data.path:
        nltk.data.path.append(str(nltk_root))
    return nltk_root
