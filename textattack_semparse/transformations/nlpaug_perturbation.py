"""nlpaug augmenters as perturbations
=======================================

Edward Ma (2019), nlpaug: Data Augmentation for NLP, https://github.com/makcedward/nlpaug: its
text augmenters (``KeyboardAug``, ``OcrAug``, ``RandomCharAug``, ``SpellingAug``,
``SynonymAug``, ``RandomWordAug``, ``ContextualWordEmbsAug``, ...) as TextAttack
transformations, so that they run under the plugin's literal protection, meaning judge and
seeding like its own perturbations. Registered as the perturbation family ``nlpaug``:
``nlpaug:KeyboardAug``, ``nlpaug:SynonymAug:aug_p=0.1`` (docs/perturbations.md).
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import random
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from textattack.shared import AttackedText
from textattack.transformations import Transformation

from textattack_semparse.arguments import check_count, check_seed
from textattack_semparse.errors import ConfigurationError, ResourceError, closest_match_hint
from textattack_semparse.transformations.derived_text import (
    distinct_new_texts,
    edit_words_if_placeable,
    question_word_count,
)

NLPAUG_TEXT_MODULES = ("nlpaug.augmenter.char", "nlpaug.augmenter.word", "nlpaug.augmenter.sentence")
"""Where nlpaug's text augmenters live, cheapest to import first (``word`` and ``sentence`` load
transformers); an augmenter is a class there whose name ends in ``Aug``."""

SET_BY_PERTURBATION = frozenset({"tokenizer", "reverse_tokenizer", "include_detail"})
"""nlpaug arguments the perturbation sets itself: the words it hands nlpaug are the question's
TextAttack words, split and joined on spaces, and it reads the plain output."""

WORDNET_AUGMENTERS = frozenset({"SynonymAug", "AntonymAug"})
"""Augmenters that read NLTK's WordNet (``SynonymAug`` unless ``aug_src='ppdb'``); nlpaug would
download it, the plugin installs its offline copy first
(:func:`~textattack_semparse.linguistics.wordnet.ensure_wordnet`)."""

MODEL_HINT = (
    "give it a local copy (for a model: model_path=<local directory>, or a hub name already in the "
    "Hugging Face cache with HF_HUB_OFFLINE=1)"
)


class NlpaugPerturbation(Transformation):
    """An nlpaug text augmenter as a transformation: ``num_candidates`` samples of it per question.

    nlpaug is handed the question's words (TextAttack's, the first input column; punctuation is
    not a word and stays where it is) joined by spaces, and splits on spaces, so its tokens are
    exactly those words. Each output is aligned to the words (``difflib``), and the edit is
    applied to the ``AttackedText`` word by word
    (:func:`~textattack_semparse.transformations.derived_text.edit_words`), so
    ``original_index_map`` follows every word. An output is dropped when it touches a word
    outside ``indices_to_modify`` (a word ``PreserveLiterals`` protects, for one), or inserts
    right before one (TextAttack's anchoring: an insertion belongs to the word after it, so a
    multi-word literal is never split); the protected words are also passed to nlpaug as
    stopwords for the call, so it rarely proposes such edits. Outputs equal to the question or
    to an earlier output are dropped.

    nlpaug draws from the global ``random`` and ``numpy.random`` generators (and torch's, in its
    language models). For each call they are seeded from the owned ``random.Random(seed)``, and
    their states are put back afterwards: the same seed gives the same candidates, reseeding the
    owned generator (as :class:`~textattack_semparse.perturbations.example_perturber.
    ExamplePerturber` does per example) reseeds nlpaug, and the process's global generators are
    left as they were. Sampling, so not deterministic.

    Offline: the character augmenters, ``RandomWordAug``, ``SplitAug`` and ``SpellingAug``
    (nlpaug packages its English misspelling list) need nothing; ``SynonymAug`` and
    ``AntonymAug`` read the plugin's offline WordNet, and part-of-speech tags (to choose the
    WordNet part of speech) come from the packaged spaCy pipeline. The augmenters that need a
    model or file (``ContextualWordEmbsAug``, ``WordEmbsAug``, ``TfIdfAug``, ``BackTranslationAug``,
    ``SynonymAug(aug_src='ppdb')``, ...) take its local path as nlpaug documents
    (``model_path=...``).

    Deviation: nlpaug's ``SynonymAug``/``AntonymAug`` tag with NLTK's perceptron tagger, which
    NLTK downloads; here spaCy's Penn Treebank tags (the same tag set) are used instead. nlpaug
    tokenizes on every non-word character and joins tokens with spaces ("what ' s"); here the
    question's TextAttack words are its tokens and the question keeps its punctuation and spacing.

    Original to textattack-semparse (the wrapping); the augmenters are nlpaug's.

    Args:
        augmenter (str): The nlpaug text augmenter's class name, e.g. ``"KeyboardAug"``.
        num_candidates (int): nlpaug outputs drawn per question. Default ``20`` (Zhuo et al.
            2023's candidates per utterance).
        seed (int | None): Seed of the owned generator. Default ``None``.
        **options: The augmenter's own arguments, e.g. ``aug_char_max=2``; checked against its
            signature here, passed to it when it is first used.

    Example:
        >>> from textattack.shared import AttackedText
        >>> typos = NlpaugPerturbation("KeyboardAug", num_candidates=2, seed=0, aug_word_max=1)
        >>> [text.text for text in typos(AttackedText("what is the capital of texas"))]
        ['what is the capital of t4Zas', 'what is the capital of tesqs']
    """

    def __init__(self, augmenter: str, *, num_candidates: int = 20, seed: int | None = None, **options: Any) -> None:
        check_count("num_candidates", num_candidates)
        check_seed(seed)
        self.augmenter = augmenter
        self.options = dict(options)
        self.num_candidates = num_candidates
        self.seed = seed
        self._class = augmenter_class(augmenter)
        _check_options(self._class, self.options)
        self._rng = random.Random(seed)
        self._nlpaug: Any = None

    def nlpaug_augmenter(self) -> Any:
        """The nlpaug augmenter, created on first use.

        Raises:
            ResourceError: Its model or resource is not available here.
            ConfigurationError: nlpaug refuses the arguments.
        """
        if self._nlpaug is None:
            self._nlpaug = _create(self._class, self.options)
        return self._nlpaug

    def _get_transformations(self, current_text: AttackedText, indices_to_modify: Iterable[int]) -> list[AttackedText]:
        count = question_word_count(current_text)
        words = current_text.words[:count]
        modifiable = {index for index in indices_to_modify if 0 <= index < count}
        if not modifiable:
            return []
        augmenter = self.nlpaug_augmenter()
        protected = {word for index, word in enumerate(words) if index not in modifiable}
        with _stopwords_added(augmenter, protected), _global_generators_seeded(self._rng.getrandbits(32)):
            outputs = augmenter.augment(" ".join(words), n=self.num_candidates)
        rewrites = [
            _rewrite(current_text, words, output.split(), modifiable)
            for output in dict.fromkeys(outputs)
            if isinstance(output, str)
        ]
        return distinct_new_texts(current_text, rewrites)

    @property
    def deterministic(self) -> bool:
        return False

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_nlpaug"] = None  # a model-backed augmenter holds its model; it is created again on first use
        return state

    def extra_repr_keys(self) -> list[str]:
        return ["augmenter", "options", "num_candidates", "seed"] + super().extra_repr_keys()


def text_augmenter_names(modules: Sequence[str] = NLPAUG_TEXT_MODULES) -> list[str]:
    """The class names of nlpaug's text augmenters (importing ``modules``).

    Example:
        >>> text_augmenter_names(("nlpaug.augmenter.char",))
        ['KeyboardAug', 'OcrAug', 'RandomCharAug']
    """
    return sorted(name for module in modules for name in vars(importlib.import_module(module)) if name.endswith("Aug"))


def augmenter_class(name: str) -> type:
    """nlpaug's text augmenter class ``name``, looked up module by module (the cheap ones first).

    Raises:
        ConfigurationError: No text augmenter of nlpaug has that name (with the closest one
            and the list).
    """
    for module_name in NLPAUG_TEXT_MODULES:
        found = getattr(importlib.import_module(module_name), name, None) if name.endswith("Aug") else None
        if isinstance(found, type):
            return found
    names = text_augmenter_names()
    raise ConfigurationError(
        f"Unknown nlpaug augmenter {name!r}.{closest_match_hint(name, names)} nlpaug's text augmenters: "
        f"{', '.join(names)} (perturbation nlpaug:<augmenter>)."
    )


def _check_options(cls: type, options: dict[str, Any]) -> None:
    """Refuse arguments ``cls`` does not take or the perturbation sets, and missing required ones."""
    parameters = dict(inspect.signature(cls).parameters)
    name = cls.__name__
    for option in options:
        if option in SET_BY_PERTURBATION:
            raise ConfigurationError(
                f"nlpaug {name}: {option} is set by the perturbation (it hands nlpaug the question's words); "
                f"leave it out of nlpaug:{name}."
            )
        if option not in parameters:
            accepted = sorted(set(parameters) - SET_BY_PERTURBATION)
            raise ConfigurationError(
                f"nlpaug {name} takes no argument {option!r}.{closest_match_hint(option, accepted)} Its arguments: "
                f"{', '.join(accepted)} (nlpaug:{name}:KEY=VALUE)."
            )
    missing = [p for p, parameter in parameters.items() if parameter.default is parameter.empty and p not in options]
    if missing:
        example = ":".join(f"{p}=..." for p in missing)
        raise ConfigurationError(f"nlpaug {name} needs {', '.join(missing)}: write nlpaug:{name}:{example}.")


def _create(cls: type, options: dict[str, Any]) -> Any:
    """``cls(**options)`` with the question's words as its tokens, offline resources in place and
    errors turned into one line naming the fix. Created under fixed global seeds, so creating it
    draws nothing from the owned generator and is the same whenever it happens."""
    name = cls.__name__
    parameters = inspect.signature(cls).parameters
    arguments = dict(options)
    if "tokenizer" in parameters:
        arguments.update(tokenizer=str.split, reverse_tokenizer=" ".join)
    wordnet = name in WORDNET_AUGMENTERS and options.get("aug_src", "wordnet") == "wordnet"
    if wordnet:
        from textattack_semparse.linguistics.wordnet import ensure_wordnet

        ensure_wordnet()  # nlpaug would call nltk.download without it
    try:
        with _global_generators_seeded(0):
            augmenter = cls(**arguments)
    except _unavailable_errors() as error:
        raise ResourceError(
            f"nlpaug {name} cannot load its model or resource here ({type(error).__name__}: "
            f"{' '.join(str(error).split())[:300]}); {MODEL_HINT}."
        ) from error
    except (TypeError, ValueError, KeyError) as error:
        raise ConfigurationError(
            f"nlpaug {name} refused its arguments {options}: {type(error).__name__}: {' '.join(str(error).split())}."
        ) from error
    if wordnet:
        augmenter.model.pos_tag = penn_tags
    return augmenter


def penn_tags(tokens: Sequence[str]) -> list[tuple[str, str]]:
    """``(token, Penn Treebank tag)`` per token, from the packaged spaCy pipeline: what
    ``nltk.pos_tag`` gives nlpaug's WordNet augmenters, without NLTK's downloaded tagger.

    Example:
        >>> penn_tags(["which", "rivers", "run", "through", "texas"])
        [('which', 'WDT'), ('rivers', 'NNS'), ('run', 'VBP'), ('through', 'IN'), ('texas', 'NNP')]
    """
    from textattack_semparse.linguistics.spacy_pipeline import parse_words

    if not tokens:
        return []
    return [(token, word.tag_) for token, word in zip(tokens, parse_words(list(tokens)), strict=True)]


def _unavailable_errors() -> tuple[type[BaseException], ...]:
    """What nlpaug's constructors raise for a model or resource that is not there: ``OSError``
    (transformers offline, a missing file), NLTK's ``LookupError``, ``ImportError``, and
    huggingface_hub's ``HFValidationError`` (a ``ValueError``: a local path that does not exist is
    read as a hub name)."""
    from huggingface_hub.errors import HFValidationError

    return (OSError, LookupError, ImportError, HFValidationError)


@contextmanager
def _global_generators_seeded(seed: int) -> Iterator[None]:
    """Seed the global ``random``, ``numpy.random`` (and, when loaded, torch) generators with
    ``seed`` for the block, then put their states back."""
    import numpy as np

    torch = sys.modules.get("torch")
    python_state, numpy_state = random.getstate(), np.random.get_state()
    torch_state = torch.random.get_rng_state() if torch is not None else None
    random.seed(seed)
    np.random.seed(seed)
    if torch is not None:
        torch.random.manual_seed(seed)
    try:
        yield
    finally:
        random.setstate(python_state)
        np.random.set_state(numpy_state)
        if torch is not None:
            torch.random.set_rng_state(torch_state)


@contextmanager
def _stopwords_added(augmenter: Any, words: set[str]) -> Iterator[None]:
    """Add ``words`` to the augmenter's stopwords (words it does not pick) for the block. The
    contextual augmenters compile theirs into ``stopword_reg`` once (``_build_stop_words``), so
    for them the patterns are rebuilt for the block and put back after."""
    if not words or not hasattr(augmenter, "stopwords"):
        yield
        return
    own = augmenter.stopwords
    combined = [*(own or ()), *sorted(words)]
    compiled = hasattr(augmenter, "stopword_reg")
    patterns = (augmenter.stopword_reg, augmenter.reserve_word_reg) if compiled else None
    augmenter.stopwords = combined
    if compiled:
        augmenter._build_stop_words(combined)
    try:
        yield
    finally:
        augmenter.stopwords = own
        if patterns is not None:
            augmenter.stopword_reg, augmenter.reserve_word_reg = patterns


def _rewrite(
    current_text: AttackedText, words: Sequence[str], tokens: Sequence[str], modifiable: set[int]
) -> AttackedText | None:
    """``current_text`` with its question words turned into ``tokens``, or ``None`` when that
    edits a word outside ``modifiable`` or inserts right before one (or after the last word when
    it is not modifiable), or TextAttack cannot place the words."""
    edits: dict[int, str] = {}
    last = len(words) - 1
    matcher = difflib.SequenceMatcher(a=list(words), b=list(tokens), autojunk=False)
    for tag, start, end, new_start, new_end in matcher.get_opcodes():
        new = " ".join(tokens[new_start:new_end])
        if tag == "equal":
            continue
        if tag == "insert":
            anchor = min(start, last)
            if anchor not in modifiable or anchor in edits:
                return None
            edits[anchor] = f"{new} {words[anchor]}" if start <= last else f"{words[anchor]} {new}"
            continue
        if any(index not in modifiable or index in edits for index in range(start, end)):
            return None
        edits[start] = new
        edits.update((index, "") for index in range(start + 1, end))
    return edit_words_if_placeable(current_text, edits.items()) if edits else None
