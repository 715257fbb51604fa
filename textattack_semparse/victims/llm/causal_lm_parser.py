"""A local causal language model prompted in context as a text-to-SQL victim.

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex" (https://arxiv.org/abs/2301.12868), attack Codex
prompted with the "Create Table + Select 3" prompt of Rajkumar, Li and Bahdanau (2022),
"Evaluating the Text-to-SQL Capabilities of Large Language Models"
(https://arxiv.org/abs/2204.00498). :class:`CausalLMParser` does the same with any local
``AutoModelForCausalLM``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from textattack_semparse.arguments import check_count
from textattack_semparse.errors import ConfigurationTypeError, VictimError
from textattack_semparse.torch_device import for_inference, resolve_device
from textattack_semparse.victims.lazy_pretrained import LOADED, LazyPretrained, unavailable
from textattack_semparse.victims.llm.gguf_loading import gguf_read_once
from textattack_semparse.victims.llm.prompted_parser import (
    OTHER_MAX_TOKENS,
    SQL_MAX_TOKENS,
    SQL_STOP,
    PromptedParser,
    cut_at_stop,
)
from textattack_semparse.victims.llm.prompts import DatabasePrompt

if TYPE_CHECKING:
    from textattack_semparse.datasets.benchmark import Benchmark


class CausalLMParser(LazyPretrained, PromptedParser):
    """A local causal LM that continues a k-shot "Create Table + Select 3" prompt with SQL.

    Zhuo et al. (2023), https://arxiv.org/abs/2301.12868, with a local model in place of Codex;
    the demonstrations, prompt, response cache and SQL extraction are
    :class:`~textattack_semparse.victims.llm.prompted_parser.PromptedParser`'s.

    Decoding is greedy (``do_sample=False``), as Zhuo et al. query Codex ("temperature 0"); on a
    text-to-SQL prompt it stops after 200 new tokens or at the first of their stop tokens ``--``,
    ``\\n\\n``, ``;``, ``#`` (:data:`~textattack_semparse.victims.llm.prompted_parser.SQL_STOP`;
    checked on the decoded text after every step), and the completion is cut before that stop sequence, as an
    OpenAI-compatible server cuts it. Table QA and plain-completion prompts (judges, header
    renaming) get 128 tokens and no stop sequence. Batches of ``batch_size`` prompts, left
    padding (the pad token is the eos token when the tokenizer has none), under
    ``torch.inference_mode``, in float16 on CUDA. A local GGUF file's
    ``tokenizer.ggml.add_bos_token`` decides whether a BOS token is prepended, as in llama.cpp
    (transformers' GGUF tokenizers always prepend one). The cache knows the model by its location and
    GGUF file. The tokenizer and model load on first use and are dropped when the victim is
    pickled.

    Args:
        model_name_or_path (str | os.PathLike): Hub name or local directory of the model.
        gguf_file (str | None, default None): A GGUF file name inside ``model_name_or_path``.
        max_new_tokens (int | None, default None): Most tokens generated per completion; ``None``
            is 200 on a text-to-SQL prompt (Zhuo et al.), 128 on any other.
        stop (Sequence[str] | None, default None): Stop sequences; ``None`` is Zhuo et al.'s four
            on a text-to-SQL prompt, none on any other; ``()`` none.
        batch_size (int, default 8): Prompts per ``generate`` call.
        device (str | None, default None): Torch device; ``None`` picks CUDA when available.
        Other arguments (``benchmark``, ``shots``, ``selection``, ``seed``, ``split_type``,
        ``adversarial``, ``template``, ``cache_path``, ``selector_options``,
        ``ppl_model``, ``max_failure_rate``): as :class:`PromptedParser`; ``ppl_model="victim"``
        scores ``ppl-asc``/``ppl-desc`` with this victim's own model (a GGUF file too).
    """

    VICTIM_NAME_OPTIONS = {"max_new_tokens": int, "batch_size": int}

    @classmethod
    def victim_name_problem(cls, target: str) -> str | None:
        return None if target else "it names no model; write hf-causal:PATH (a directory, hub name or .gguf file)."

    @classmethod
    def unavailable_model(cls, target: str) -> VictimError | None:
        return unavailable(cls.__name__, *_model_and_gguf_file(target))

    @classmethod
    def from_victim_name(cls, target: str, *, benchmark: Benchmark, split_type: str, **options: Any) -> CausalLMParser:
        """``hf-causal:PATH``: a path ending in ``.gguf`` is its folder and ``gguf_file``."""
        model, gguf_file = _model_and_gguf_file(target)
        return cls(model, gguf_file=gguf_file, benchmark=benchmark, split_type=split_type, **options)

    def __init__(
        self,
        model_name_or_path: str | os.PathLike[str],
        *,
        gguf_file: str | None = None,
        max_new_tokens: int | None = None,
        stop: Sequence[str] | None = None,
        batch_size: int = 8,
        device: str | None = None,
        **kwargs: Any,
    ) -> None:
        if not isinstance(model_name_or_path, (str, os.PathLike)) or not str(model_name_or_path).strip():
            raise ConfigurationTypeError(f"model_name_or_path must be a non-empty hub name or path, got {model_name_or_path!r}.")
        if max_new_tokens is not None:
            check_count("max_new_tokens", max_new_tokens, minimum=1)
        if stop is not None and (isinstance(stop, str) or not all(isinstance(s, str) and s for s in stop)):
            raise ConfigurationTypeError(f"stop must be a sequence of non-empty strings (or None), got {stop!r}.")
        check_count("batch_size", batch_size, minimum=1)
        self.model_name_or_path = str(model_name_or_path)
        self.gguf_file = gguf_file
        self.batch_size = batch_size
        self.device = resolve_device(device)
        super().__init__(**kwargs)
        default_tokens, default_stop = (SQL_MAX_TOKENS, SQL_STOP) if self.writes_sql else (OTHER_MAX_TOKENS, ())
        self.max_new_tokens = default_tokens if max_new_tokens is None else max_new_tokens
        self.stop = default_stop if stop is None else tuple(stop)

    def own_language_model(self) -> tuple[str, str | None]:
        return self.model_name_or_path, self.gguf_file

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + [
            "model_name_or_path", "gguf_file", "max_new_tokens", "stop", "batch_size", "device"
        ]

    @property
    def model_id(self) -> str:
        """The model as the response cache knows it: location, and GGUF file when there is one."""
        return self.model_name_or_path if self.gguf_file is None else f"{self.model_name_or_path}::{self.gguf_file}"

    @property
    def decoding_parameters(self) -> dict[str, Any]:
        parameters: dict[str, Any] = {"do_sample": False, "max_new_tokens": self.max_new_tokens}
        if self.stop:
            parameters["stop"] = list(self.stop)
        return parameters

    def reuse_loaded_model(self, other: PromptedParser) -> None:
        """Share ``other``'s loaded tokenizer and model when it is a CausalLMParser of the same
        model on the same device (loading a GGUF file takes seconds to a minute on a CPU)."""
        if isinstance(other, CausalLMParser) and (other.model_id, other.device) == (self.model_id, self.device):
            for name in LOADED:
                if name in other.__dict__:
                    self.__dict__.setdefault(name, other.__dict__[name])

    def _load(self) -> None:
        import torch
        import transformers

        extra = {} if self.gguf_file is None else {"gguf_file": self.gguf_file}
        with gguf_read_once(self.gguf_file):
            try:
                tokenizer = transformers.AutoTokenizer.from_pretrained(self.model_name_or_path, **extra)
                model = transformers.AutoModelForCausalLM.from_pretrained(
                    self.model_name_or_path,
                    **extra,
                    **({"torch_dtype": torch.float16} if self.device.startswith("cuda") else {}),
                )
            except (OSError, ValueError, KeyError, ImportError) as error:
                raise VictimError(
                    f"CausalLMParser could not load the causal LM {self.model_id!r}: {type(error).__name__}: "
                    f"{error}. Pass a local directory (or .gguf file, with the 'gguf' package installed) or a hub "
                    "name of an AutoModelForCausalLM model (downloads need network access and HF_HUB_OFFLINE unset)."
                ) from error
            add_bos_token = self._gguf_add_bos_token()
        tokenizer.padding_side = "left"
        if add_bos_token is not None and getattr(tokenizer, "add_bos_token", add_bos_token) != add_bos_token:
            tokenizer.add_bos_token = add_bos_token
        if tokenizer.pad_token is None:
            if tokenizer.eos_token is None:
                raise VictimError(f"The tokenizer of {self.model_id!r} has neither a pad nor an eos token.")
            tokenizer.pad_token = tokenizer.eos_token
        self.__dict__["_tokenizer"] = tokenizer
        self.__dict__["_model"] = for_inference(model, self.device, half_precision=True)  # float16 on CUDA as loaded

    def _gguf_add_bos_token(self) -> bool | None:
        """The GGUF file's ``tokenizer.ggml.add_bos_token`` (``None``: no local GGUF file, or unset).

        transformers' GGUF tokenizers always prepend the BOS token; llama.cpp follows the file
        (SmolLM2's says no), so without this the two run the same model on different inputs.
        """
        path = Path(self.model_name_or_path) / self.gguf_file if self.gguf_file is not None else None
        if path is None or not path.is_file():
            return None
        import gguf

        field = gguf.GGUFReader(path).fields.get("tokenizer.ggml.add_bos_token")
        return None if field is None else bool(field.parts[field.data[0]][0])

    def _generate_completions(self, prompts: list[str]) -> Iterator[tuple[str, str]]:
        for start in range(0, len(prompts), self.batch_size):
            batch = prompts[start : start + self.batch_size]
            yield from zip(batch, self._generate(batch))

    def _generate(self, prompts: list[str]) -> list[str]:
        tokenizer = self.tokenizer
        prompt_length, output = self._greedy(prompts)
        new_tokens = output.sequences[:, prompt_length:]
        return [cut_at_stop(text, self.stop) for text in tokenizer.batch_decode(new_tokens, skip_special_tokens=True)]

    def _greedy(self, prompts: list[str], **options: Any) -> tuple[int, Any]:
        """Greedy decoding of ``prompts``: the padded prompt length and ``generate``'s output."""
        import torch

        tokenizer, model = self.tokenizer, self.model
        # A prompt longer than the model's context (a 10,000-word question) would index past its
        # position embeddings: keep its end, where the question and the answer cue are.
        context = getattr(model.config, "max_position_embeddings", None) or getattr(model.config, "n_positions", None)
        limit = None if context is None else max(1, context - self.max_new_tokens)
        tokenizer.truncation_side = "left"
        encoding = tokenizer(
            prompts, return_tensors="pt", padding=True, truncation=limit is not None, max_length=limit
        ).to(self.device)
        prompt_length = int(encoding["input_ids"].shape[1])
        stopping = {}
        if self.stop:
            from transformers import StoppingCriteriaList

            stopping["stopping_criteria"] = StoppingCriteriaList([_StopSequences(tokenizer, self.stop, prompt_length)])
        with torch.inference_mode():
            output = model.generate(
                **encoding,
                do_sample=False,
                max_new_tokens=self.max_new_tokens,
                pad_token_id=tokenizer.pad_token_id,
                return_dict_in_generate=True,
                **stopping,
                **options,
            )
        return prompt_length, output

    def confidence_scorer(self) -> Callable[[list[str]], list[float]]:
        return self.zero_shot_confidence

    def zero_shot_confidence(self, questions: list[str]) -> list[float]:
        """The zero-shot parser's confidence in each question: the mean log-probability of the
        tokens of its greedy zero-shot completion, up to and including the token that ended it (a
        stop sequence or the eos token), so an empty query is scored too.

        Zhuo et al. (2023, §4.3) select the demonstrations the zero-shot parser is least confident
        about; the measure of confidence here is this plugin's choice. Every question of the pool
        is decoded once (``batch_size`` at a time), outside the response cache."""
        import torch

        prompt = self.prompt
        if not isinstance(prompt, DatabasePrompt):
            raise VictimError("The confidence selector scores text-to-SQL questions; a Table QA victim has no zero-shot SQL to score.")
        model = self.model
        scores: list[float] = []
        for start in range(0, len(questions), self.batch_size):
            prompts = [prompt(question) for question in questions[start : start + self.batch_size]]
            prompt_length, output = self._greedy(prompts, output_logits=True)
            with torch.inference_mode():  # the model's own distribution (raw logits, not generate's processed scores)
                steps = model.compute_transition_scores(output.sequences, output.logits, normalize_logits=True)
            for ids, logprobs in zip(output.sequences[:, prompt_length:].tolist(), steps.float().tolist()):
                length = self._completion_length(ids)
                scores.append(sum(logprobs[:length]) / length)
        return scores

    def _completion_length(self, ids: list[int]) -> int:
        """How many of the generated ``ids`` the completion took: through the eos token or the token
        that completed a stop sequence, else all of them."""
        tokenizer = self.tokenizer
        for length in range(1, len(ids) + 1):
            if ids[length - 1] == tokenizer.eos_token_id:
                return length
            text = tokenizer.decode(ids[:length], skip_special_tokens=True)
            if self.stop and cut_at_stop(text, self.stop) != text:
                return length
        return len(ids)


def _model_and_gguf_file(target: str) -> tuple[str, str | None]:
    """An ``hf-causal:`` target as the model location and its GGUF file: a path ending in ``.gguf``
    is its folder and file name, anything else the location itself (no file)."""
    path = PurePath(target)
    return (str(path.parent), path.name) if path.name.endswith(".gguf") else (target, None)


class _StopSequences:
    """A ``generate`` stopping criterion: a sequence is finished once the text generated after the
    prompt contains one of ``stop``. (transformers' own ``stop_strings`` needs a tokenizer whose
    vocabulary spells sub-words, which word-level tokenizers do not.)"""

    def __init__(self, tokenizer: Any, stop: Sequence[str], prompt_length: int) -> None:
        self.tokenizer = tokenizer
        self.stop = tuple(stop)
        self.prompt_length = prompt_length

    def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
        import torch

        texts = self.tokenizer.batch_decode(input_ids[:, self.prompt_length :], skip_special_tokens=True)
        return torch.tensor([any(sequence in text for sequence in self.stop) for text in texts], device=input_ids.device)
