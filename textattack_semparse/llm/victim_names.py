"""The ``--model`` names of in-context LLM victims, as the plugin's commands and the stock
``textattack`` CLI take them:

- ``hf-causal:PATH[?options]``: a local causal LM (a model directory, hub name or ``.gguf``
  file), :class:`~textattack_semparse.llm.causal_lm_parser.CausalLMParser`;
- ``openai:MODEL@URL[?options]``: a model behind an OpenAI-compatible endpoint (``URL`` is its
  ``base_url``, e.g. ``http://127.0.0.1:8080/v1``),
  :class:`~textattack_semparse.llm.openai_parser.OpenAIParser`.

Options are ``key=value`` pairs joined by ``&``: those of the study (Zhuo et al. 2023, "On
Robustness of Prompt-based Semantic Parsing with Large Pre-trained Language Model", §4.2-4.3:
``shots``, ``selection``, ``seed``, ``adversarial``) for both, and each victim's own decoding and
client settings. Original to textattack-semparse; this module does not import TextAttack.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any

from textattack_semparse.errors import VictimError

STUDY_OPTIONS: dict[str, type] = {"shots": int, "selection": str, "seed": int, "adversarial": str}
"""Options every LLM victim takes: the demonstrations (count, selector, seed) and the
perturbation of adversarial in-context learning."""

SCHEME_OPTIONS: dict[str, dict[str, type]] = {
    "hf-causal": {"max_new_tokens": int, "batch_size": int},
    "openai": {
        "style": str,
        "max_tokens": int,
        "concurrency": int,
        "max_retries": int,
        "timeout": float,
        "max_requests": int,
        "repeat_penalty": float,
    },
}
"""Each scheme's own options, with their types."""


@dataclass(frozen=True)
class LLMVictimName:
    """A parsed LLM victim name: ``scheme``, ``target`` (what follows ``scheme:`` up to the
    options) and ``options`` (typed)."""

    scheme: str
    target: str
    options: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        return llm_victim_name(self.scheme, self.target, **self.options)

    @property
    def location(self) -> tuple[str, str | None]:
        """``hf-causal``: ``(directory or hub name, GGUF file or None)``; a path ending in
        ``.gguf`` is split into its folder and file name. ``openai``: ``(model, base URL)``.

        Example:
            >>> parse_llm_victim_name("hf-causal:/m/x.gguf").location
            ('/m', 'x.gguf')
            >>> parse_llm_victim_name("openai:smollm2@http://127.0.0.1:8080/v1").location
            ('smollm2', 'http://127.0.0.1:8080/v1')
        """
        if self.scheme == "hf-causal":
            path = PurePath(self.target)
            return (str(path.parent), path.name) if path.name.endswith(".gguf") else (self.target, None)
        model, _, url = self.target.partition("@")
        return model, url


def is_llm_victim_name(model: Any) -> bool:
    """Whether ``model`` names an in-context LLM victim (``hf-causal:`` or ``openai:``).

    Example:
        >>> is_llm_victim_name("hf-causal:/models/smollm2.gguf"), is_llm_victim_name("knn-geo")
        (True, False)
    """
    return isinstance(model, str) and model.partition(":")[0] in SCHEME_OPTIONS and ":" in model


def llm_victim_name(scheme: str, target: str, **options: Any) -> str:
    """``scheme:target`` with the options that are not ``None`` appended as a query.

    Example:
        >>> llm_victim_name("hf-causal", "/m/x.gguf", shots=5, selection="random", seed=None)
        'hf-causal:/m/x.gguf?shots=5&selection=random'
    """
    known = _known_options(scheme)
    unknown = sorted(set(options) - set(known))
    if unknown:
        raise ValueError(f"Unknown {scheme} option(s) {unknown}; known: {', '.join(known)}.")
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
        raise VictimError(f"{model!r} is not an LLM victim name; write hf-causal:PATH or openai:MODEL@URL.")
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
    if scheme == "hf-causal" and not body:
        raise VictimError(f"Victim {model!r} names no model; write hf-causal:PATH (a directory or a .gguf file).")
    if scheme == "openai":
        name, at, url = body.partition("@")
        if not (name and at and url.startswith(("http://", "https://"))):
            raise VictimError(
                f"Victim {model!r}: write openai:MODEL@URL, the model's name at an OpenAI-compatible base URL, "
                "e.g. openai:gpt-3.5-turbo-instruct@https://api.openai.com/v1 or "
                "openai:smollm2@http://127.0.0.1:8080/v1."
            )
    return LLMVictimName(scheme, body, options)


def _known_options(scheme: str) -> dict[str, type]:
    if scheme not in SCHEME_OPTIONS:
        raise ValueError(f"Unknown LLM victim scheme {scheme!r}; known: {', '.join(SCHEME_OPTIONS)}.")
    return {**STUDY_OPTIONS, **SCHEME_OPTIONS[scheme]}
