"""The ``--model`` names of in-context LLM victims, as the plugin's commands and the stock
``textattack`` CLI take them: ``SCHEME:TARGET[?key=value&...]``, where ``SCHEME`` is a registered
LLM backend (``textattack-semparse list llm-backend``; hook ``semparse_llm_backends``). Built in:

- ``hf-causal:PATH``: a local causal LM (a model directory, hub name or ``.gguf`` file),
  :class:`~textattack_semparse.victims.llm.causal_lm_parser.CausalLMParser`;
- ``openai:MODEL@URL``: a model behind an OpenAI-compatible endpoint (``URL`` is its
  ``base_url``, e.g. ``http://127.0.0.1:8080/v1``),
  :class:`~textattack_semparse.victims.llm.openai_parser.OpenAIParser`.

Options are those of the study (Zhuo et al. 2023, "On Robustness of Prompt-based Semantic
Parsing with Large Pre-trained Language Model", §4.2-4.3: ``shots``, ``selection``, ``seed``,
``adversarial``; ``ppl_model``, the perplexity scorer, GPT-2 unless a substitute is named), for every backend, and the backend class's own ``VICTIM_NAME_OPTIONS``.
Original to textattack-semparse.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from textattack_semparse.errors import ConfigurationError, VictimError
from textattack_semparse.registry import get_registry

STUDY_OPTIONS: dict[str, type] = {"shots": int, "selection": str, "seed": int, "adversarial": str, "ppl_model": str}
"""Options every LLM victim takes: the demonstrations (count, selector, seed), the perturbation
of adversarial in-context learning, and the causal LM the perplexity selectors score with."""

BACKEND_KIND = "llm-backend"
"""The registry kind of LLM backends."""


@dataclass(frozen=True)
class LLMVictimName:
    """A parsed LLM victim name: ``scheme`` (a registered LLM backend), ``target`` (what follows
    ``scheme:`` up to the options) and ``options`` (typed)."""

    scheme: str
    target: str
    options: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return llm_victim_name(self.scheme, self.target, **self.options)

    def create(self, *, benchmark: Any, split_type: str = "question") -> Any:
        """The victim: the backend's ``from_victim_name(target, benchmark=, split_type=, **options)``."""
        backend = get_registry().get(BACKEND_KIND, self.scheme).load()
        return backend.from_victim_name(self.target, benchmark=benchmark, split_type=split_type, **self.options)

    def unavailable(self) -> VictimError | None:
        """The error the named model would fail to load with, found without loading it (the
        backend's ``unavailable_model``), or ``None``."""
        return _backend(self.scheme).unavailable_model(self.target)


def is_llm_victim_name(model: Any) -> bool:
    """Whether ``model`` names an in-context LLM victim: ``SCHEME:...`` with a registered backend.

    Example:
        >>> is_llm_victim_name("hf-causal:/models/smollm2.gguf"), is_llm_victim_name("knn-geo")
        (True, False)
    """
    if not isinstance(model, str) or ":" not in model:
        return False
    return (BACKEND_KIND, model.partition(":")[0]) in get_registry()


def llm_victim_name(scheme: str, target: str, **options: Any) -> str:
    """``scheme:target`` with the options that are not ``None`` appended as a query.

    Example:
        >>> llm_victim_name("hf-causal", "/m/x.gguf", shots=5, selection="random", seed=None)
        'hf-causal:/m/x.gguf?shots=5&selection=random'
    """
    known = _known_options(scheme)
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ConfigurationError(f"Unknown {scheme} option(s) {unknown}; known: {', '.join(known)}.")
    query = "&".join(f"{key}={value}" for key, value in options.items() if value is not None)
    return f"{scheme}:{target}" + (f"?{query}" if query else "")


def with_options(model: str, **options: Any) -> str:
    """The LLM victim name ``model`` with ``options`` (those not ``None``) set or replaced.

    Example:
        >>> with_options("hf-causal:/m/x.gguf?shots=2&seed=1", shots=0, selection="random")
        'hf-causal:/m/x.gguf?shots=0&seed=1&selection=random'
    """
    name = parse_llm_victim_name(model)
    merged = {**name.options, **{key: value for key, value in options.items() if value is not None}}
    return llm_victim_name(name.scheme, name.target, **merged)


def parse_llm_victim_name(model: str) -> LLMVictimName:
    """Split an LLM victim name into scheme, target and typed options.

    Raises:
        VictimError: Not an LLM victim name, an unknown option, a value of the wrong type, no
            target, or an ``openai:`` name without ``MODEL@URL``.

    Example:
        >>> parse_llm_victim_name("hf-causal:/m/x.gguf?shots=2&selection=cluster-tfidf")
        LLMVictimName(scheme='hf-causal', target='/m/x.gguf', options={'shots': 2, 'selection': 'cluster-tfidf'})
    """
    if not is_llm_victim_name(model):
        raise VictimError(
            f"{model!r} is not an LLM victim name; write SCHEME:TARGET with a registered backend: "
            f"{', '.join(f'{scheme}:' for scheme in get_registry().names(BACKEND_KIND))}."
        )
    scheme, _, body = model.partition(":")
    known = _known_options(scheme)
    options: dict[str, Any] = {}
    if "?" in body:
        body, query = body.rsplit("?", 1)
        for item in filter(None, query.split("&")):
            key, sep, value = item.partition("=")
            if not sep or key not in known:
                raise VictimError(
                    f"Victim {model!r}: bad option {item!r}; write {scheme}:...?key=value&... with keys "
                    f"{', '.join(known)}."
                )
            try:
                options[key] = known[key](value)
            except ValueError:
                raise VictimError(
                    f"Victim {model!r}: option {key} must be a{'n int' if known[key] is int else ' number'}, "
                    f"got {value!r}."
                ) from None
    body = body.strip()
    problem = _backend(scheme).victim_name_problem(body)
    if problem is not None:
        raise VictimError(f"Victim {model!r}: {problem}")
    return LLMVictimName(scheme, body, options)


def _backend(scheme: str) -> Any:
    return get_registry().get(BACKEND_KIND, scheme).load()


def _known_options(scheme: str) -> dict[str, type]:
    """The study's options and the backend's own (``RegistryError`` for an unknown scheme)."""
    return {**STUDY_OPTIONS, **_backend(scheme).VICTIM_NAME_OPTIONS}
