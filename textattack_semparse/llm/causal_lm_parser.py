"""A local causal language model prompted in context as a text-to-SQL victim.

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex" (https://arxiv.org/abs/2301.12868), attack Codex
prompted with the "Create Table + Select 3" prompt of Rajkumar, Li and Bahdanau (2022),
"Evaluating the Text-to-SQL Capabilities of Large Language Models"
(https://arxiv.org/abs/2204.00498), with the same k demonstrations for every test question.
:class:`CausalLMParser` does the same with any local ``AutoModelForCausalLM``.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textattack_semparse.cache import cache_dir
from textattack_semparse.errors import VictimError
from textattack_semparse.llm.few_shot_selection import selector_from_name
from textattack_semparse.llm.prompts import DatabasePrompt
from textattack_semparse.llm.response_cache import CacheCounts, ResponseCache
from textattack_semparse.sql.completion_sql import extract_sql
from textattack_semparse.torch_device import resolve_device
from textattack_semparse.victims.semantic_parser import SemanticParser

if TYPE_CHECKING:
    from textattack_semparse.datasets.benchmark import Benchmark
    from textattack_semparse.datasets.example import SemparseExample

logger = logging.getLogger(__name__)

DEFAULT_MAX_NEW_TOKENS = 128
"""Most tokens generated per completion by default."""
RESPONSE_CACHE_FILE = "llm_responses.sqlite"
"""The default response cache, under :func:`~textattack_semparse.cache.cache_dir`."""


class CausalLMParser(SemanticParser):
    """A local causal LM that continues a k-shot "Create Table + Select 3" prompt with SQL.

    Zhuo et al. (2023), https://arxiv.org/abs/2301.12868 (in-context text-to-SQL robustness, the
    same demonstrations for every question); the prompt of Rajkumar et al. (2022),
    https://arxiv.org/abs/2204.00498 (:class:`~textattack_semparse.llm.prompts.DatabasePrompt`).

    ``shots`` demonstrations are chosen once, on first use, from the ``split_type`` training split
    of ``benchmark`` by the selector ``selection`` (see
    :func:`~textattack_semparse.llm.few_shot_selection.selector_from_name`) and shown before every
    question. Decoding is greedy (``do_sample=False``), batched with left padding (the pad token
    is the eos token when the tokenizer has none), under ``torch.inference_mode``, in float16 on
    CUDA. The completion is cut to its first query by
    :func:`~textattack_semparse.sql.completion_sql.extract_sql` (with the prompt's ``SELECT``
    prefix re-attached).

    Every completion goes through a persistent
    :class:`~textattack_semparse.llm.response_cache.ResponseCache` keyed by the model identifier
    (location and GGUF file), the full prompt and the decoding parameters, so a repeated prompt,
    in one run or a later one, is never generated again; :meth:`cache_counts` gives its hits and
    misses. The tokenizer and model load on first use and are dropped when the victim is pickled.

    Args:
        model_name_or_path (str | os.PathLike): Hub name or local directory of the model.
        benchmark (Benchmark): Supplies the database (``benchmark.database``) and the training
            split the demonstrations come from.
        gguf_file (str | None, default None): A GGUF file name inside ``model_name_or_path``.
        shots (int, default 5): Demonstrations in the prompt (0: zero-shot).
        selection (str, default "random"): Few-shot selector name.
        seed (int, default 0): Seed of the selector.
        split_type (str, default "question"): Which split's training part is the pool.
        max_new_tokens (int, default 128): Most tokens generated per completion.
        batch_size (int, default 8): Prompts per ``generate`` call.
        device (str | None, default None): Torch device; ``None`` picks CUDA when available.
        cache_path (str | os.PathLike | None, default None): The response cache file;
            ``None`` is ``cache_dir() / "llm_responses.sqlite"``.
        selector_options (dict | None, default None): More keywords for the selector:
            ``confidence=`` for ``confidence``; ``model=`` for ``ppl-asc``/``ppl-desc`` (default
            this victim's own model when it is not a GGUF file).
        Other arguments (``max_failure_rate``): as :class:`SemanticParser`.
    """

    def __init__(
        self,
        model_name_or_path: str | os.PathLike[str],
        *,
        benchmark: Benchmark,
        gguf_file: str | None = None,
        shots: int = 5,
        selection: str = "random",
        seed: int = 0,
        split_type: str = "question",
        max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS,
        batch_size: int = 8,
        device: str | None = None,
        cache_path: str | os.PathLike[str] | None = None,
        selector_options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> None:
        if benchmark is None or getattr(benchmark, "database", None) is None:
            raise VictimError(
                "CausalLMParser needs a benchmark with one SQLite database (its prompt shows that schema); "
                "pass benchmark=load_benchmark(...), or --dataset with a single-database benchmark's dataset."
            )
        super().__init__(benchmark=benchmark, **kwargs)
        if not isinstance(model_name_or_path, (str, os.PathLike)) or not str(model_name_or_path).strip():
            raise TypeError(f"model_name_or_path must be a non-empty hub name or path, got {model_name_or_path!r}.")
        for name, value, minimum in (("shots", shots, 0), ("max_new_tokens", max_new_tokens, 1), ("batch_size", batch_size, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
                raise ValueError(f"{name} must be an int >= {minimum}, got {value!r}.")
        self.model_name_or_path = str(model_name_or_path)
        self.gguf_file = gguf_file
        self.shots = shots
        self.selection = selection
        self.seed = seed
        self.split_type = split_type
        self.max_new_tokens = max_new_tokens
        self.batch_size = batch_size
        self.device = resolve_device(device)
        self.cache_path = Path(cache_path) if cache_path is not None else cache_dir() / RESPONSE_CACHE_FILE
        self.selector = self._selector(selector_options)  # fails early on an unknown name
        self.prompt = DatabasePrompt(benchmark.database)

    def _selector(self, selector_options: dict[str, Any] | None) -> Any:
        options = dict(selector_options or {})
        if self.selection in ("random", "cluster-ed", "cluster-tfidf", "cluster-cwe"):
            options.setdefault("seed", self.seed)
        elif self.selection in ("ppl-asc", "ppl-desc") and "model" not in options:
            if self.gguf_file is not None:
                raise ValueError(
                    f"selection={self.selection!r} scores the pool with a causal LM given by name or directory; "
                    "a GGUF victim cannot serve, pass selector_options={'model': NAME_OR_DIRECTORY}."
                )
            options["model"] = self.model_name_or_path
        elif self.selection == "confidence" and "confidence" not in options:
            raise ValueError(
                "selection='confidence' needs selector_options={'confidence': callable(list of questions) -> floats}."
            )
        return selector_from_name(self.selection, **options)

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + [
            "model_name_or_path", "gguf_file", "shots", "selection", "seed", "max_new_tokens", "batch_size", "device",
        ]

    @property
    def model_id(self) -> str:
        """The model as the response cache knows it: location, and GGUF file when there is one."""
        return self.model_name_or_path if self.gguf_file is None else f"{self.model_name_or_path}::{self.gguf_file}"

    @property
    def decoding_parameters(self) -> dict[str, Any]:
        return {"do_sample": False, "max_new_tokens": self.max_new_tokens}

    @property
    def demonstrations(self) -> list[SemparseExample]:
        """The ``shots`` training examples shown before every question (chosen once)."""
        if "_demonstrations" not in self.__dict__:
            pool = self.benchmark.split(self.split_type, "train")
            self.__dict__["_demonstrations"] = self.selector.select(pool, self.shots)
        return self.__dict__["_demonstrations"]

    @property
    def response_cache(self) -> ResponseCache:
        if "_response_cache" not in self.__dict__:
            self.__dict__["_response_cache"] = ResponseCache(self.cache_path)
        return self.__dict__["_response_cache"]

    def cache_counts(self) -> CacheCounts:
        """Response-cache hits and misses since this victim opened the cache."""
        return self.response_cache.counts()

    @property
    def model(self) -> Any:
        if "_model" not in self.__dict__:
            self._load()
        return self.__dict__["_model"]

    @property
    def tokenizer(self) -> Any:
        if "_tokenizer" not in self.__dict__:
            self._load()
        return self.__dict__["_tokenizer"]

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for name in ("_model", "_tokenizer", "_response_cache"):
            state.pop(name, None)
        return state

    def _load(self) -> None:
        import torch
        import transformers

        extra = {} if self.gguf_file is None else {"gguf_file": self.gguf_file}
        try:
            tokenizer = transformers.AutoTokenizer.from_pretrained(self.model_name_or_path, **extra)
            model = transformers.AutoModelForCausalLM.from_pretrained(
                self.model_name_or_path,
                **extra,
                **({"torch_dtype": torch.float16} if self.device.startswith("cuda") else {}),
            )
        except (OSError, ValueError, KeyError, ImportError) as error:
            raise VictimError(
                f"CausalLMParser could not load the causal LM {self.model_id!r}: {type(error).__name__}: {error}. "
                "Pass a local directory (or .gguf file, with the 'gguf' package installed) or a hub name of an "
                "AutoModelForCausalLM model (downloads need network access and HF_HUB_OFFLINE unset)."
            ) from error
        tokenizer.padding_side = "left"
        if tokenizer.pad_token is None:
            if tokenizer.eos_token is None:
                raise VictimError(f"The tokenizer of {self.model_id!r} has neither a pad nor an eos token.")
            tokenizer.pad_token = tokenizer.eos_token
        model.to(self.device)
        model.eval()
        self.__dict__["_tokenizer"] = tokenizer
        self.__dict__["_model"] = model

    def _parse_batch(self, questions: list[str], db_ids: list[str | None]) -> list[str]:
        prompts = [self.prompt(question, self.demonstrations) for question in questions]
        return [extract_sql(completion, prefix=self.prompt.prefix) for completion in self.complete(prompts)]

    def complete(self, prompts: list[str]) -> list[str]:
        """Raw completions of ``prompts``: from the response cache, else generated (and stored)."""
        cache, parameters = self.response_cache, self.decoding_parameters
        completions: list[str | None] = [cache.get(self.model_id, prompt, parameters) for prompt in prompts]
        missing = list(dict.fromkeys(prompt for prompt, done in zip(prompts, completions) if done is None))
        generated: dict[str, str] = {}
        for start in range(0, len(missing), self.batch_size):
            batch = missing[start : start + self.batch_size]
            for prompt, completion in zip(batch, self._generate(batch)):
                cache.put(self.model_id, prompt, parameters, completion)
                generated[prompt] = completion
        return [done if done is not None else generated[prompt] for prompt, done in zip(prompts, completions)]

    def _generate(self, prompts: list[str]) -> list[str]:
        import torch

        tokenizer, model = self.tokenizer, self.model
        encoding = tokenizer(prompts, return_tensors="pt", padding=True).to(self.device)
        with torch.inference_mode():
            output = model.generate(
                **encoding,
                do_sample=False,
                max_new_tokens=self.max_new_tokens,
                pad_token_id=tokenizer.pad_token_id,
            )
        new_tokens = output[:, encoding["input_ids"].shape[1] :]
        return tokenizer.batch_decode(new_tokens, skip_special_tokens=True)
