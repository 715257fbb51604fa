"""Few-shot demonstration selection for in-context semantic parsing.

Zhuo, Li, Huang, Shiri, Wang, Haffari and Li (2023), "On Robustness of Prompt-based Semantic
Parsing with Large Pre-trained Language Model: An Empirical Study on Codex", EACL 2023, section
4.3 (https://arxiv.org/abs/2301.12868): which training examples go into the prompt.
Strategies: random; lowest zero-shot parser confidence; k-means clusters over edit distance,
TF-IDF or contextual word embeddings (the example closest to each cluster centre); highest
(PPL-Asc) or lowest (PPL-Desc) perplexity under GPT-2.

Every strategy is a :class:`FewShotSelector` whose :meth:`~FewShotSelector.select` returns ``k``
examples with distinct questions; :func:`selector_from_name` builds one from the names used in
the paper's tables. Heavy libraries (scikit-learn, torch, transformers, sentence-transformers)
are imported on first use.
"""

from __future__ import annotations

import math
import random
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from textattack_semparse.arguments import check_count, check_seed
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, VictimError, closest_match_hint
from textattack_semparse.victims.llm.gguf_loading import gguf_read_once

if TYPE_CHECKING:
    from textattack_semparse.datasets.example import SemparseExample
    from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings


def word_edit_distance(first: str, second: str) -> int:
    """Levenshtein distance between two questions counted in whitespace-separated words.

    Example:
        >>> word_edit_distance("rivers in texas", "the rivers in ohio")
        2
    """
    from rapidfuzz.distance import Levenshtein

    return int(Levenshtein.distance(first.split(), second.split()))


def normalized_word_edit_distance(first: str, second: str) -> float:
    """:func:`word_edit_distance` divided by the longer question's word count (0 for two empty
    questions), so it lies in ``[0, 1]``.

    Example:
        >>> normalized_word_edit_distance("rivers in texas", "the rivers in ohio")
        0.5
    """
    longest = max(len(first.split()), len(second.split()))
    return word_edit_distance(first, second) / longest if longest else 0.0


class FewShotSelector(ABC):
    """Chooses ``k`` demonstrations from a pool of training examples.

    :meth:`select` owns the bookkeeping (checking ``k``, keeping the first example of each
    distinct question); a subclass implements only :meth:`_select`, which returns positions in
    the de-duplicated candidate list. Original to textattack-semparse (the interface; the
    strategies cite Zhuo et al. 2023).
    """

    name: str = ""

    def select(self, pool: Sequence[SemparseExample], k: int) -> list[SemparseExample]:
        """``k`` examples of ``pool`` with pairwise distinct questions.

        Examples sharing a question count once (the first in pool order is kept).

        Raises:
            TypeError: ``k`` is not an int.
            ValueError: ``k`` is negative or larger than the number of distinct questions.
        """
        if isinstance(k, bool) or not isinstance(k, int):
            raise ConfigurationTypeError(f"k must be an int (the number of demonstrations), got {k!r}.")
        if k < 0:
            raise ConfigurationError(f"k must be >= 0 (the number of demonstrations), got {k}.")
        candidates = list({example.question: example for example in reversed(pool)}.values())[::-1]
        if k > len(candidates):
            raise ConfigurationError(
                f"k={k} exceeds the {len(candidates)} distinct questions in the pool of {len(pool)} examples; "
                f"pass k <= {len(candidates)} or a larger pool."
            )
        if k == 0:
            return []
        positions = self._select(candidates, k)
        return [candidates[position] for position in positions]

    @abstractmethod
    def _select(self, candidates: list[SemparseExample], k: int) -> list[int]:
        """Positions of ``k`` distinct members of ``candidates`` (distinct questions, ``0 < k <= len``)."""

    def extra_repr_keys(self) -> list[str]:
        return []

    def __repr__(self) -> str:
        options = ", ".join(f"{key}={self.__dict__[key]!r}" for key in self.extra_repr_keys())
        return f"{type(self).__name__}({options})"


def _lowest(scores: Sequence[float], k: int) -> list[int]:
    """Positions of the ``k`` lowest scores, ascending, ties by position."""
    return sorted(range(len(scores)), key=lambda position: (scores[position], position))[:k]


class RandomSelector(FewShotSelector):
    """``k`` examples drawn uniformly without replacement (the "Random" row of Zhuo et al. 2023).

    Args:
        seed (int | None, default 0): Seed of the selector's own ``random.Random``; the same seed,
            pool and ``k`` always give the same selection. ``None`` draws fresh randomness.

    Example:
        >>> from textattack_semparse.datasets.example import SemparseExample
        >>> pool = [SemparseExample(q, "") for q in ("a", "b", "c", "d")]
        >>> [e.question for e in RandomSelector(seed=1).select(pool, 2)]
        ['b', 'c']
    """

    name = "random"

    def __init__(self, *, seed: int | None = 0) -> None:
        check_seed(seed)
        self.seed = seed

    def _select(self, candidates: list[SemparseExample], k: int) -> list[int]:
        return random.Random(self.seed).sample(range(len(candidates)), k)

    def extra_repr_keys(self) -> list[str]:
        return [*super().extra_repr_keys(), "seed"]


REPRESENTATIONS = ("ed", "tfidf", "cwe")


class ClusterSelector(FewShotSelector):
    """One representative per k-means cluster of the pool's questions (Cluster-ED, Cluster-TF-IDF,
    Cluster-CWE of Zhuo et al. 2023).

    The questions are embedded, clustered with scikit-learn's ``KMeans(n_clusters=k)``, and each
    cluster contributes its member nearest to its centre (Euclidean, ties by pool order). The
    result is in cluster-label order. A cluster left empty (fewer distinct vectors than ``k``)
    takes the nearest example not yet chosen.

    Representations:
        ``"ed"``: each question is the vector of its normalised word-level edit distances
        (:func:`normalized_word_edit_distance`) to every question of the pool. k-means needs
        vectors, so the distance matrix's rows stand in for the questions (rather than
        k-medoids on the matrix, which scikit-learn lacks). ``"tfidf"``: TF-IDF of word n-grams
        (``ngram_range``), fitted on the pool. ``"cwe"``: contextual word embeddings mean-pooled
        by Sentence-BERT (the packaged all-MiniLM-L6-v2, :class:`SentenceEmbeddings`).

    Paper rule (Zhuo et al. 2023, §4.3, as issue 25 quotes it): "select the example closest to
    the cluster centers". Deviation: the closest *member* of each cluster is taken, which
    guarantees ``k`` distinct examples; the example closest to a centre may belong to another
    cluster, or be closest to two centres.

    Args:
        representation (str, default "tfidf"): ``"ed"``, ``"tfidf"`` or ``"cwe"``.
        seed (int | None, default 0): ``KMeans(random_state=seed)``.
        n_init (int, default 10): k-means restarts.
        ngram_range (tuple[int, int], default (1, 2)): Word n-gram lengths of the TF-IDF features.
        embeddings (SentenceEmbeddings | None, default None): Encoder of ``"cwe"``; ``None`` =
            the packaged Sentence-BERT, loaded on first use.

    Example:
        >>> from textattack_semparse.datasets.example import SemparseExample
        >>> pool = [SemparseExample(q, "") for q in ("rivers in texas", "rivers in ohio", "capital of texas", "capital of ohio")]
        >>> sorted(e.question.split()[0] for e in ClusterSelector("tfidf").select(pool, 2))
        ['capital', 'rivers']
    """

    def __init__(
        self,
        representation: str = "tfidf",
        *,
        seed: int | None = 0,
        n_init: int = 10,
        ngram_range: tuple[int, int] = (1, 2),
        embeddings: SentenceEmbeddings | None = None,
    ) -> None:
        if representation not in REPRESENTATIONS:
            raise ConfigurationError(
                f"Unknown representation {representation!r}; choose one of {', '.join(REPRESENTATIONS)}."
                + closest_match_hint(str(representation), REPRESENTATIONS)
            )
        check_seed(seed)
        check_count("n_init", n_init)
        if (
            not isinstance(ngram_range, tuple)
            or len(ngram_range) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in ngram_range)
            or not 1 <= ngram_range[0] <= ngram_range[1]
        ):
            raise ConfigurationError(f"ngram_range must be a tuple (min_n, max_n) with 1 <= min_n <= max_n, got {ngram_range!r}.")
        self.representation = representation
        self.seed = seed
        self.n_init = n_init
        self.ngram_range = ngram_range
        self.embeddings = embeddings

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"cluster-{self.representation}"

    def represent(self, questions: Sequence[str]) -> np.ndarray:
        """One row per question: the vectors k-means clusters (``float64``)."""
        questions = list(questions)
        if self.representation == "ed":
            from rapidfuzz.distance import Levenshtein
            from rapidfuzz.process import cdist

            words = [question.split() for question in questions]
            return np.asarray(cdist(words, words, scorer=Levenshtein.normalized_distance, dtype=np.float64))
        if self.representation == "tfidf":
            from sklearn.feature_extraction.text import TfidfVectorizer

            vectorizer = TfidfVectorizer(ngram_range=self.ngram_range, token_pattern=r"(?u)\b\w+\b")
            return np.asarray(vectorizer.fit_transform(questions).toarray(), dtype=np.float64)
        if self.embeddings is None:
            from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings

            self.embeddings = SentenceEmbeddings()
        return self.embeddings.encode(questions).double().numpy()

    def kmeans(self, vectors: np.ndarray, k: int) -> Any:
        """The fitted ``sklearn.cluster.KMeans`` this selector uses on ``vectors``."""
        from sklearn.cluster import KMeans
        from sklearn.exceptions import ConvergenceWarning

        with warnings.catch_warnings():
            # Fewer distinct vectors than k leaves clusters empty; _select handles that.
            warnings.simplefilter("ignore", ConvergenceWarning)
            return KMeans(n_clusters=k, random_state=self.seed, n_init=self.n_init).fit(vectors)

    def _select(self, candidates: list[SemparseExample], k: int) -> list[int]:
        vectors = self.represent([example.question for example in candidates])
        model = self.kmeans(vectors, k)
        distances = model.transform(vectors)  # (examples, centres)
        labels = model.labels_
        chosen: dict[int, int] = {}
        for centre in range(k):
            members = np.flatnonzero(labels == centre)
            if members.size:
                chosen[centre] = int(min(members, key=lambda member: (distances[member, centre], member)))
        used = set(chosen.values())
        for centre in range(k):
            if centre not in chosen:
                order = sorted(range(len(candidates)), key=lambda member: (distances[member, centre], member))
                chosen[centre] = next(member for member in order if member not in used)
                used.add(chosen[centre])
        return [chosen[centre] for centre in range(k)]

    def extra_repr_keys(self) -> list[str]:
        return [*super().extra_repr_keys(), "representation", "seed", "n_init", "ngram_range"]


DEFAULT_PERPLEXITY_MODEL = "gpt2"
"""GPT-2 (Radford et al. 2019), the language model Zhuo et al. (2023) score perplexity with."""

PERPLEXITY_ORDERS = {"asc": "highest", "desc": "lowest"}
"""What each of Zhuo et al.'s perplexity selectors takes: PPL-Asc the highest, PPL-Desc the lowest."""


class PerplexitySelector(FewShotSelector):
    """The ``k`` questions of highest (PPL-Asc) or lowest (PPL-Desc) perplexity under a causal
    language model, GPT-2 by default (Zhuo et al. 2023).

    Paper rule (Zhuo et al. 2023, §4.3, as issue 25 quotes it): "select the utterances with the
    highest (PPL-Asc) and lowest (PPL-Desc) perplexity scores", the perplexity computed with
    GPT-2. The names read as the order the selected utterances are ranked in, not as "lowest
    first": ``ppl-asc`` takes the *highest* perplexities.

    Perplexity is ``exp`` of the mean negative log-likelihood of the question's tokens as the
    tokenizer encodes them (special tokens included; the tokenizer's BOS is prepended when it
    has one and does not add it, so the first word is scored too). Questions are scored in
    batches under ``torch.inference_mode``; the model loads on first use, on CUDA when
    available, and is dropped when the selector is pickled. The result is sorted from the most
    to the least extreme perplexity (PPL-Asc: highest first; PPL-Desc: lowest first), ties by
    pool order.

    Args:
        order (str, default "asc"): ``"asc"`` (PPL-Asc) takes the highest perplexities,
            ``"desc"`` (PPL-Desc) the lowest.
        model (str, default "gpt2"): A ``transformers`` causal LM name or local directory holding
            the model and its tokenizer (``AutoModelForCausalLM``, ``AutoTokenizer``). GPT-2 is
            the paper's; offline, where it cannot be downloaded, a local model is a substitute
            and changes which questions are picked.
        gguf_file (str | None, default None): A GGUF file inside the ``model`` directory.
        batch_size (int, default 16): Questions per forward pass.
        device (str | None, default None): Torch device; ``None`` = CUDA when available.
    """

    def __init__(
        self,
        order: str = "asc",
        *,
        model: str = DEFAULT_PERPLEXITY_MODEL,
        gguf_file: str | None = None,
        batch_size: int = 16,
        device: str | None = None,
    ) -> None:
        if order not in PERPLEXITY_ORDERS:
            raise ConfigurationError(
                f"order must be 'asc' (PPL-Asc, highest perplexity) or 'desc' (PPL-Desc, lowest), got {order!r}."
            )
        if not isinstance(model, str) or not model:
            raise ConfigurationTypeError(f"model must be a causal LM name or local path string, got {model!r}.")
        if gguf_file is not None and (not isinstance(gguf_file, str) or not gguf_file):
            raise ConfigurationTypeError(f"gguf_file must be a GGUF file name inside the model directory, got {gguf_file!r}.")
        if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
            raise ConfigurationError(f"batch_size must be an int >= 1, got {batch_size!r}.")
        self.order = order
        self.model = model
        self.gguf_file = gguf_file
        self.batch_size = batch_size
        self.device = device
        self._loaded: tuple[Any, Any, str] | None = None

    @property
    def name(self) -> str:  # type: ignore[override]
        return f"ppl-{self.order}"

    def _load(self) -> tuple[Any, Any, str]:
        if self._loaded is None:
            import transformers

            from textattack_semparse.torch_device import for_inference, resolve_device

            device = resolve_device(self.device)
            extra = {} if self.gguf_file is None else {"gguf_file": self.gguf_file}
            try:
                with gguf_read_once(self.gguf_file):
                    tokenizer = transformers.AutoTokenizer.from_pretrained(self.model, **extra)
                    language_model = transformers.AutoModelForCausalLM.from_pretrained(self.model, **extra)
            except (OSError, ValueError, ImportError) as error:
                raise VictimError(
                    f"The perplexity selector {self.name} could not load its language model {self.model!r}: "
                    f"{type(error).__name__}: {error}. Zhuo et al. score with GPT-2 ('gpt2', downloaded on first use); "
                    "offline, name a local substitute (a model directory or .gguf file, or the victim's own model: "
                    "ppl_model=victim in an hf-causal victim name)."
                ) from error
            tokenizer.padding_side = "right"
            if tokenizer.pad_token is None:
                tokenizer.pad_token = tokenizer.eos_token or tokenizer.unk_token
            language_model = for_inference(language_model, device)
            self._loaded = (tokenizer, language_model, device)
        return self._loaded

    def perplexities(self, questions: Sequence[str]) -> list[float]:
        """Perplexity of each question under :attr:`model`, in input order.

        Raises:
            ValueError: A question encodes to fewer than two tokens (nothing to predict).
        """
        import torch

        tokenizer, language_model, device = self._load()
        questions = list(questions)
        results: list[float] = []
        for start in range(0, len(questions), self.batch_size):
            batch = questions[start : start + self.batch_size]
            encoded = [list(ids) for ids in tokenizer(batch)["input_ids"]]
            bos = tokenizer.bos_token_id
            if bos is not None:
                encoded = [ids if ids[:1] == [bos] else [bos, *ids] for ids in encoded]
            for question, ids in zip(batch, encoded):
                if len(ids) < 2:
                    raise ValueError(
                        f"Question {question!r} encodes to {len(ids)} token(s), so it has no perplexity; use a "
                        "tokenizer that adds a BOS or EOS token."
                    )
            width = max(len(ids) for ids in encoded)
            input_ids = torch.tensor([ids + [tokenizer.pad_token_id] * (width - len(ids)) for ids in encoded], device=device)
            mask = torch.tensor([[1] * len(ids) + [0] * (width - len(ids)) for ids in encoded], device=device)
            with torch.inference_mode():
                logits = language_model(input_ids=input_ids, attention_mask=mask).logits[:, :-1].float()
                targets = input_ids[:, 1:]
                target_mask = mask[:, 1:].float()
                losses = torch.nn.functional.cross_entropy(logits.transpose(1, 2), targets, reduction="none")
                mean = (losses * target_mask).sum(dim=1) / target_mask.sum(dim=1)
            results.extend(math.exp(value) for value in mean.cpu().tolist())
        return results

    def _select(self, candidates: list[SemparseExample], k: int) -> list[int]:
        scores = self.perplexities([example.question for example in candidates])
        return _lowest([-score for score in scores] if self.order == "asc" else scores, k)

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state["_loaded"] = None
        return state

    def extra_repr_keys(self) -> list[str]:
        return [*super().extra_repr_keys(), "order", "model", "gguf_file", "batch_size", "device"]


class ConfidenceSelector(FewShotSelector):
    """The ``k`` questions the zero-shot parser is least confident about (Zhuo et al. 2023).

    The confidence function is supplied by the caller, because it depends on the parser: for
    example the mean token log-probability of the parser's own greedy output for each question.
    The result is sorted by confidence, lowest first, ties by pool order.

    Args:
        confidence (Callable[[list[str]], Sequence[float]]): Maps questions to one finite
            confidence each (higher = more confident), in input order.

    Example:
        >>> from textattack_semparse.datasets.example import SemparseExample
        >>> pool = [SemparseExample(q, "") for q in ("a b c", "a", "a b")]
        >>> selector = ConfidenceSelector(lambda questions: [-len(q) for q in questions])
        >>> [e.question for e in selector.select(pool, 2)]
        ['a b c', 'a b']
    """

    name = "confidence"

    def __init__(self, confidence: Callable[[list[str]], Sequence[float]]) -> None:
        if not callable(confidence):
            raise ConfigurationTypeError(f"confidence must be a callable mapping a list of questions to floats, got {confidence!r}.")
        self.confidence = confidence

    def _select(self, candidates: list[SemparseExample], k: int) -> list[int]:
        questions = [example.question for example in candidates]
        scores = [float(score) for score in self.confidence(questions)]
        if len(scores) != len(questions):
            raise ValueError(
                f"confidence returned {len(scores)} scores for {len(questions)} questions; it must return one per question."
            )
        bad = [question for question, score in zip(questions, scores) if not math.isfinite(score)]
        if bad:
            raise ValueError(f"confidence returned a non-finite score for {bad[0]!r}; scores must be finite floats.")
        return _lowest(scores, k)

    def extra_repr_keys(self) -> list[str]:
        return [*super().extra_repr_keys(), "confidence"]


_NAMES: dict[str, tuple[type[FewShotSelector], dict[str, str]]] = {
    "random": (RandomSelector, {}),
    "confidence": (ConfidenceSelector, {}),
    "cluster-ed": (ClusterSelector, {"representation": "ed"}),
    "cluster-tfidf": (ClusterSelector, {"representation": "tfidf"}),
    "cluster-cwe": (ClusterSelector, {"representation": "cwe"}),
    "ppl-asc": (PerplexitySelector, {"order": "asc"}),
    "ppl-desc": (PerplexitySelector, {"order": "desc"}),
}
SELECTOR_NAMES = tuple(_NAMES)


def selector_from_name(name: str, **options: Any) -> FewShotSelector:
    """The selector called ``name`` in Zhuo et al. (2023), built with keyword ``options``.

    Names: ``random``, ``confidence`` (needs ``confidence=``), ``cluster-ed``, ``cluster-tfidf``,
    ``cluster-cwe``, ``ppl-asc`` and ``ppl-desc`` (GPT-2 unless ``model=`` names another causal
    LM). This small table may later move into the plugin registry.

    Raises:
        ValueError: ``name`` is unknown (the message lists the names), or ``options`` fix what the
            name already fixes (``representation``, ``order``).
        TypeError: An option the selector does not take.

    Example:
        >>> selector_from_name("cluster-ed", seed=3)
        ClusterSelector(representation='ed', seed=3, n_init=10, ngram_range=(1, 2))
    """
    if name not in _NAMES:
        raise ConfigurationError(
            f"Unknown few-shot selector {name!r}; choose one of {', '.join(SELECTOR_NAMES)}."
            + closest_match_hint(str(name), SELECTOR_NAMES)
        )
    cls, preset = _NAMES[name]
    clash = sorted(set(preset) & set(options))
    if clash:
        raise ConfigurationError(f"Selector {name!r} fixes {clash[0]}={preset[clash[0]]!r}; drop {clash[0]}= from the options.")
    try:
        return cls(**preset, **options)
    except TypeError as error:
        if "unexpected keyword" not in str(error):
            raise
        raise ConfigurationTypeError(f"Selector {name!r} ({cls.__name__}) does not take that option: {error}.") from error
