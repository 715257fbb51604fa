"""Sequence-to-sequence parser: any Hugging Face encoder-decoder as a semantic parsing victim."""

from __future__ import annotations

import json
import logging
import os
import re
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import transformers

from textattack_semparse.datasets.entity_anonymization import EntityAnonymizer
from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, VictimError
from textattack_semparse.sql.sqlite_executor import CacheInfo
from textattack_semparse.torch_device import for_inference, resolve_device
from textattack_semparse.victims.lazy_pretrained import LOAD_ERRORS, LazyPretrained, unloadable
from textattack_semparse.victims.output_grammar import OutputGrammar
from textattack_semparse.victims.reconstruction_reranker import (
    RECONSTRUCTION_DIR,
    ReconstructionReranker,
    target_log_likelihoods,
)
from textattack_semparse.victims.semantic_parser import SemanticParser
from textattack_semparse.victims.well_formed_decoding import ALTERNATIVES, WellFormedDecoding

logger = logging.getLogger(__name__)

InputFormatter = Callable[[str, str | None], str]
"""Builds the model input from a question and its ``db_id`` (or serialised schema), if any."""

DEFAULT_MAX_NEW_TOKENS = 128
"""Most tokens generated when neither the caller nor the model's generation config sets a length."""
DEFAULT_NUM_BEAMS = 1
"""Beam width when neither the caller nor the model's generation config sets one: greedy decoding."""
DEFAULT_CACHE_SIZE = 2**14
"""Predictions kept by default in :class:`Seq2SeqParser`'s cache (a few MB of strings)."""
_DB_ID_PREFIX = re.compile(r"^\s*[A-Za-z0-9_.-]+\s*\|\s*")
"""The ``db_id |`` before a PICARD-style model's query."""


_GENERATOR_SUFFIXES = ("ForConditionalGeneration", "MTModel")
"""How encoder-decoder generator classes end: T5, BART, ... and Marian's ``MarianMTModel``."""


def is_seq2seq_directory(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a local model directory holding an encoder-decoder generator.

    True when its ``config.json`` lists a ``*ForConditionalGeneration`` or ``*MTModel`` (Marian)
    architecture (or, listing none, sets ``is_encoder_decoder``). TextAttack's ``--model`` resolver loads any
    local directory as a classifier; the CLI shim asks this first.

    Example:
        >>> is_seq2seq_directory("/nonexistent/t5-small")
        False
    """
    config_path = Path(path) / "config.json"
    if not config_path.is_file():
        return False
    try:
        config = json.loads(config_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(config, dict):
        return False
    architectures = config.get("architectures") or []
    if architectures:
        return any(
            isinstance(name, str) and name.endswith(_GENERATOR_SUFFIXES) for name in architectures
        )
    return config.get("is_encoder_decoder") is True


class Seq2SeqParser(LazyPretrained, SemanticParser):
    """A Hugging Face encoder-decoder (T5, BART, ...) that generates SQL or logical forms.

    The tokenizer and model (``AutoModelForSeq2SeqLM``) load on first use (the first call,
    or the first read of :attr:`model`, which ``GoalFunction.__init__`` does) and are
    dropped when the victim is pickled. Inputs are generated in batches of ``batch_size``,
    grouped by length, each padded only to its own longest input (capped at
    ``max_input_length`` tokens). TextAttack's ``HuggingFaceModelWrapper`` pads every batch
    to the tokenizer's maximum length (512), which costs several times more on short
    questions (see ``bench/seq2seq_padding.py``). Decoding never samples, so predictions are
    deterministic; the length limit and beam width are the caller's, else those of the model's
    saved generation config (``generation_config.json``), else 128 new tokens and greedy search.
    Other settings of that config (``suppress_tokens``, ``length_penalty``, ...) always apply.

    A model trained by ``textattack-semparse train`` comes with its entity anonymisation
    (:attr:`anonymizer`): questions reach the model with their entities as typed placeholders,
    and the model's placeholders are replaced by the question's values in the output (and in
    the gold output for :meth:`gold_loss`). One trained on logical forms also comes with their
    grammar (:class:`~textattack_semparse.victims.output_grammar.OutputGrammar`), and
    generation is kept to well-formed outputs under it (``well_formed``): a placeholder only
    where the question has one, and, when no training output repeats a conjunct, a conjunct
    once (A and A is A). An output the grammar finds wanting (without an atom its question's words
    imply in every training example, such as GEO's ``major:<lo,t>`` for "major", binding a
    variable it never uses, or writing a constant twice where no training output does) is
    replaced by the likeliest of ten beam-search outputs that is not. A model trained with a
    reconstruction model beside it (``textattack-semparse train``'s ``reconstruction_epochs``;
    geo-lambda's defaults) decodes every input with a beam of ten instead and
    keeps the output its reconstruction model reranks first
    (:class:`~textattack_semparse.victims.reconstruction_reranker.ReconstructionReranker`, after Yin and
    Neubig 2019), among those the grammar admits when it admits any (``rerank``).

    Predictions are cached: the output for each distinct model input (the question, anonymised
    if the model is, as ``input_formatter`` formats it with its ``db_id``) is kept in an LRU cache of
    ``cache_size`` entries, so an input asked about again (twice in one call, in a later
    example, or by another attack on the same victim) is generated once; TextAttack's goal
    function already caches within one example. Only the misses reach ``generate``, batched
    and grouped by length as above. The cache is emptied when the model is (re)loaded and
    dropped when the victim is pickled; :meth:`cache_info` counts hits and misses,
    :meth:`cache_clear` empties it (do so after changing a generation setting on a victim
    already used). :meth:`gold_loss` is not cached: it depends on the gold output.

    :meth:`gold_loss` is each example's mean token cross-entropy of the gold output under
    teacher forcing (nats per gold token, end-of-sequence token included).

    Original to textattack-semparse.

    Args:
        model_name_or_path (str | os.PathLike): Hub name or local directory of the model.
        tokenizer_name_or_path (str | os.PathLike | None, default None): Tokenizer location;
            ``None`` uses ``model_name_or_path``.
        device (str | None, default None): Torch device ("cpu", "cuda", "cuda:1");
            ``None`` picks "cuda" when ``torch.cuda.is_available()``, else "cpu".
        half_precision (bool, default False): Run the model in float16. Applied only on a
            CUDA device; ignored (with a warning) on CPU, where float16 is slow or unsupported.
        batch_size (int, default 32): Inputs per ``generate`` call.
        max_input_length (int, default 512): Input tokens kept (longer inputs are truncated);
            also the cap on gold-output tokens in :meth:`gold_loss`.
        max_new_tokens (int | None, default None): Most tokens generated per prediction;
            ``None`` uses the model's saved generation config (its ``max_new_tokens``, else its
            ``max_length``, which counts the decoder start token), else 128. A saved
            ``max_length`` of 20, transformers' default, counts as unset (transformers itself
            cannot tell them apart).
        num_beams (int | None, default None): Beam width (1 is greedy decoding); ``None`` uses
            the saved generation config's ``num_beams``, else 1.
        input_formatter (Callable[[str, str | None], str] | None, default None): Formats
            the question and the ``db_id`` column (``None`` for single-column datasets) into
            the model input, e.g. ``lambda q, db: f"{db}: {q}"``; ``None`` feeds the question
            alone. Use a module-level function if the victim must be pickled.
        db_id_in_output (bool, default False): The model writes its example's ``db_id`` and ``|``
            before the query, as PICARD's T5 models were trained to (``concert_singer | select
            ...``): the prefix is removed from predictions and written before the gold output for
            :meth:`gold_loss`.
        cache_size (int, default 16384): Predictions kept in the LRU cache; 0 disables it
            (every input is generated, repeats included).
        well_formed (bool, default True): Decode with the output grammar saved beside the model
            (:data:`~textattack_semparse.victims.output_grammar.GRAMMAR_FILE`), when there is
            one: each step allows only the tokens that keep the output a well-formed logical form
            (:class:`~textattack_semparse.victims.well_formed_decoding.WellFormedDecoding`).
        rerank (bool, default True): Rerank a beam with the reconstruction model saved beside the
            model (:data:`~textattack_semparse.victims.reconstruction_reranker.RECONSTRUCTION_DIR`), when there
            is one; ``False`` decodes as the parser alone does.
        Other arguments (``database``, ``benchmark``, ``max_failure_rate``): as
            :class:`SemanticParser`.

    Example:
        >>> from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser
        >>> parser = Seq2SeqParser("path/to/t5-geoquery", device="cpu")  # loads nothing yet
        >>> parser.supports_loss
        True
        >>> parser.cache_info()
        CacheInfo(hits=0, misses=0, maxsize=16384, currsize=0)
    """

    def __init__(
        self,
        model_name_or_path: str | os.PathLike[str],
        *,
        tokenizer_name_or_path: str | os.PathLike[str] | None = None,
        device: str | None = None,
        half_precision: bool = False,
        batch_size: int = 32,
        max_input_length: int = 512,
        max_new_tokens: int | None = None,
        num_beams: int | None = None,
        input_formatter: InputFormatter | None = None,
        db_id_in_output: bool = False,
        cache_size: int = DEFAULT_CACHE_SIZE,
        well_formed: bool = True,
        rerank: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.model_name_or_path = _checked_location("model_name_or_path", model_name_or_path)
        self.tokenizer_name_or_path = (
            None
            if tokenizer_name_or_path is None
            else _checked_location("tokenizer_name_or_path", tokenizer_name_or_path)
        )
        self.device = resolve_device(device)
        if not isinstance(half_precision, bool):
            raise ConfigurationTypeError(f"half_precision must be a bool, got {half_precision!r}.")
        if half_precision and not self.device.startswith("cuda"):
            logger.warning(
                "half_precision=True is ignored on device %r: float16 is used on CUDA only.", self.device
            )
        self.half_precision = half_precision
        for name, value in (("batch_size", batch_size), ("max_input_length", max_input_length)):
            if not _is_int_at_least(value, 1):
                raise ConfigurationError(f"{name} must be a positive int, got {value!r}.")
        for name, optional in (("max_new_tokens", max_new_tokens), ("num_beams", num_beams)):
            if optional is not None and not _is_int_at_least(optional, 1):
                raise ConfigurationError(
                    f"{name} must be a positive int, or None for the model's generation config, got {optional!r}."
                )
        if not _is_int_at_least(cache_size, 0):
            raise ConfigurationError(f"cache_size must be a non-negative int (0 disables the cache), got {cache_size!r}.")
        self.batch_size = batch_size
        self.max_input_length = max_input_length
        self.max_new_tokens = max_new_tokens
        self.num_beams = num_beams
        if input_formatter is not None and not callable(input_formatter):
            raise ConfigurationTypeError(
                "input_formatter must be a callable (question, db_id) -> str or None, "
                f"got {input_formatter!r}."
            )
        self.input_formatter = input_formatter
        if not isinstance(db_id_in_output, bool):
            raise ConfigurationTypeError(f"db_id_in_output must be a bool, got {db_id_in_output!r}.")
        self.db_id_in_output = db_id_in_output
        self.cache_size = cache_size
        if not isinstance(well_formed, bool):
            raise ConfigurationTypeError(f"well_formed must be a bool, got {well_formed!r}.")
        self.well_formed = well_formed
        if not isinstance(rerank, bool):
            raise ConfigurationTypeError(f"rerank must be a bool, got {rerank!r}.")
        self.rerank = rerank
        self.split_type: str | None = None
        """The split type a registered trained victim learned from (``None``: not known)."""

    @property
    def anonymizer(self) -> EntityAnonymizer | None:
        """The entity anonymisation saved beside a model trained by ``textattack-semparse train``
        (``None`` for other models): applied to questions before the model, undone after."""
        if "_anonymizer" not in self.__dict__:
            location = Path(self.model_name_or_path)
            self.__dict__["_anonymizer"] = EntityAnonymizer.load(location) if location.is_dir() else None
        return self.__dict__["_anonymizer"]

    @property
    def supports_loss(self) -> bool:
        return True

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + [
            "model_name_or_path",
            "tokenizer_name_or_path",
            "device",
            "half_precision",
            "batch_size",
            "max_input_length",
            "max_new_tokens",
            "num_beams",
            "input_formatter",
            "db_id_in_output",
            "cache_size",
            "well_formed",
            "rerank",
        ]

    def cache_info(self) -> CacheInfo:
        """Hits, misses, capacity and current size of the prediction cache.

        Every input of a call is one hit (its output was cached, or met earlier in the same
        call) or one miss (generated); with ``cache_size=0`` every input is a miss.
        """
        return self._prediction_cache.info()

    def cache_clear(self) -> None:
        """Empty the prediction cache and reset its counts."""
        self._prediction_cache.clear()

    @property
    def _prediction_cache(self) -> _PredictionCache:
        if "_prediction_cache" not in self.__dict__:
            self.__dict__["_prediction_cache"] = _PredictionCache(self.cache_size)
        return self.__dict__["_prediction_cache"]

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        for name in ("_prediction_cache", "_anonymizer", "_well_formed_decoding", "_reranker"):
            state.pop(name, None)
        return state

    def _load(self) -> None:
        tokenizer_location = self.tokenizer_name_or_path or self.model_name_or_path
        try:
            tokenizer = transformers.AutoTokenizer.from_pretrained(tokenizer_location)
            model = transformers.AutoModelForSeq2SeqLM.from_pretrained(self.model_name_or_path)
        except LOAD_ERRORS as error:
            raise unloadable("Seq2SeqParser", self.model_name_or_path, tokenizer_location, error) from error
        if tokenizer.pad_token is None:
            if tokenizer.eos_token is None:
                raise VictimError(
                    f"The tokenizer {tokenizer_location!r} has neither a pad nor an eos token; "
                    "batched generation needs one. Set tokenizer.pad_token and save it again."
                )
            tokenizer.pad_token = tokenizer.eos_token
        self.__dict__["_tokenizer"] = tokenizer
        self.__dict__["_model"] = for_inference(model, self.device, half_precision=self.half_precision)
        location = Path(self.model_name_or_path)
        grammar = OutputGrammar.load(location) if self.well_formed and location.is_dir() else None
        self.__dict__["_well_formed_decoding"] = WellFormedDecoding.for_tokenizer(grammar, tokenizer)
        try:
            self.__dict__["_reranker"] = (
                ReconstructionReranker.load(
                    location, device=self.device, half_precision=self.half_precision, max_length=self.max_input_length
                )
                if self.rerank and location.is_dir()
                else None
            )
        except LOAD_ERRORS as error:
            reconstruction = str(location / RECONSTRUCTION_DIR)
            raise unloadable("Seq2SeqParser's reranker", reconstruction, reconstruction, error) from error
        self.cache_clear()  # outputs of another model

    def _tokenize_batch(self, texts: list[str]) -> transformers.BatchEncoding:
        """Tokenise ``texts`` padded to the longest of them (at most ``max_input_length``)."""
        return self.tokenizer(
            texts,
            padding="longest",
            truncation=True,
            max_length=self.max_input_length,
            return_tensors="pt",
        )

    def _model_inputs(self, questions: list[str], db_ids: list[str | None]) -> list[str]:
        if self.input_formatter is None:
            return list(questions)
        texts = [self.input_formatter(question, db_id) for question, db_id in zip(questions, db_ids)]
        for text in texts:
            if not isinstance(text, str):
                raise TypeError(
                    f"input_formatter returned {type(text).__name__} ({text!r}); it must return a str."
                )
        return texts

    def _batches(self, texts: list[str]) -> list[list[int]]:
        """Input indices in batches of ``batch_size``, grouped by length to cut padding."""
        order = sorted(range(len(texts)), key=lambda index: len(texts[index]))
        return [order[start : start + self.batch_size] for start in range(0, len(order), self.batch_size)]

    def _parse_batch(self, questions: list[str], db_ids: list[str | None]) -> list[str]:
        anonymizer = self.anonymizer
        if anonymizer is None:
            outputs = self._generate_cached(self._model_inputs(questions, db_ids))
        else:
            anonymized = [anonymizer.anonymize(question) for question in questions]
            generated = self._generate_cached(self._model_inputs([item.text for item in anonymized], db_ids))
            outputs = [anonymizer.deanonymize(output, item.values) for output, item in zip(generated, anonymized)]
        if self.db_id_in_output:
            outputs = [_DB_ID_PREFIX.sub("", output, count=1) for output in outputs]
        return outputs

    def _generate_cached(self, texts: list[str]) -> list[str]:
        """The output for each model input: cached, else generated (each distinct miss once)."""
        cache = self._prediction_cache
        if cache.maxsize == 0:
            outputs = self._generate(texts)
            cache.count(hits=0, misses=len(texts))
            return outputs
        known: dict[str, str] = {}
        missing: list[str] = []
        for text in dict.fromkeys(texts):
            cached = cache.get(text)
            if cached is None:
                missing.append(text)
            else:
                known[text] = cached
        known.update(zip(missing, self._generate(missing)))
        for text in missing:
            cache.put(text, known[text])
        cache.count(hits=len(texts) - len(missing), misses=len(missing))
        return [known[text] for text in texts]

    def _generate(self, texts: list[str]) -> list[str]:
        """Generate an output for each text, in batches grouped by length."""
        if not texts:
            return []
        options = self._generation_options()  # loads the model, its decoding and its reranker
        decoding: WellFormedDecoding | None = self.__dict__.get("_well_formed_decoding")
        reranker: ReconstructionReranker | None = self.__dict__.get("_reranker")
        if reranker is not None:
            return self._reranked(texts, decoding, reranker)
        outputs = [""] * len(texts)
        for batch in self._batches(texts):
            decoded = self._decode([texts[index] for index in batch], options, decoding)
            for index, text in zip(batch, decoded):
                outputs[index] = text
        if decoding is None:
            return outputs
        outputs = [decoding.finish(output) for output in outputs]
        wanting = decoding.wanting(texts, outputs)
        if wanting:
            alternatives = self._alternatives([texts[index] for index in wanting], decoding)
            for index, candidates in zip(wanting, alternatives):
                outputs[index] = decoding.choose(texts[index], candidates, outputs[index])
        return outputs

    def _reranked(
        self, texts: list[str], decoding: WellFormedDecoding | None, reranker: ReconstructionReranker
    ) -> list[str]:
        """For each text, the output ``reranker`` chooses among the beam's distinct (finished) outputs,
        those the grammar admits when it admits any, scored a batch of texts at a time."""
        outputs = [""] * len(texts)
        for batch in self._batches(texts):
            inputs = [texts[index] for index in batch]
            candidates = [
                decoding.admitted(text, found) if decoding is not None else list(dict.fromkeys(found))
                for text, found in zip(inputs, self._alternatives(inputs, decoding))
            ]
            rows = [(text, output) for text, found in zip(inputs, candidates) for output in found]
            scores = iter(
                target_log_likelihoods(
                    self.model,
                    self.tokenizer,
                    [text for text, _ in rows],
                    [output for _, output in rows],
                    max_length=self.max_input_length,
                )
            )
            forward = [[next(scores)[0] for _ in found] for found in candidates]
            for index, output in zip(batch, reranker.choose(inputs, candidates, forward)):
                outputs[index] = output
        return outputs

    def _alternatives(self, texts: list[str], decoding: WellFormedDecoding | None) -> list[list[str]]:
        """For each text, the :data:`~textattack_semparse.victims.well_formed_decoding.ALTERNATIVES`
        likeliest (well-formed, with ``decoding``) outputs of a beam search that wide (or the parser's own, if wider)."""
        options = self._generation_options()
        width = max(ALTERNATIVES, options["num_beams"])
        options = {**options, "num_beams": width, "num_return_sequences": width}
        candidates: list[list[str]] = []
        for start in range(0, len(texts), self.batch_size):
            decoded = self._decode(texts[start : start + self.batch_size], options, decoding)
            candidates.extend(decoded[offset : offset + width] for offset in range(0, len(decoded), width))
        return candidates

    def _decode(self, inputs: list[str], options: dict[str, Any], decoding: WellFormedDecoding | None) -> list[str]:
        """The decoded outputs of one ``generate`` call on ``inputs`` (``num_return_sequences`` per
        input, in order), kept well formed by ``decoding`` when there is one."""
        model = self.model
        encoding = self._tokenize_batch(inputs).to(next(model.parameters()).device)
        if decoding is not None:
            options = {**options, "prefix_allowed_tokens_fn": decoding.for_inputs(inputs)}
        with torch.inference_mode():
            generated = model.generate(
                input_ids=encoding["input_ids"], attention_mask=encoding["attention_mask"], **options
            )
        return [text.strip() for text in self.tokenizer.batch_decode(generated, skip_special_tokens=True)]

    def _generation_options(self) -> dict[str, Any]:
        """``generate`` keywords: the explicit settings, else the model's generation config's,
        else 128 new tokens and greedy search; never sampling, one output per input."""
        saved = self.model.generation_config
        options: dict[str, Any] = {
            "do_sample": False,
            "num_return_sequences": 1,
            "num_beams": self.num_beams or saved.num_beams or DEFAULT_NUM_BEAMS,
        }
        unset_length = transformers.GenerationConfig().max_length  # 20, transformers' default
        saved_length = saved.max_new_tokens is not None or saved.max_length != unset_length
        if self.max_new_tokens is not None or not saved_length:
            options["max_new_tokens"] = self.max_new_tokens or DEFAULT_MAX_NEW_TOKENS
        return options

    def _gold_loss(self, questions: list[str], db_ids: list[str | None], golds: list[str]) -> list[float]:
        anonymizer = self.anonymizer
        if anonymizer is not None:
            anonymized = [anonymizer.anonymize(question) for question in questions]
            questions = [item.text for item in anonymized]
            golds = [anonymizer.anonymize_output(gold, item.values) for gold, item in zip(golds, anonymized)]
        if self.db_id_in_output:
            golds = [f"{db_id} | {gold}" for db_id, gold in zip(db_ids, golds)]
        texts = self._model_inputs(questions, db_ids)
        losses = [0.0] * len(texts)
        for batch in self._batches(texts):
            likelihoods = target_log_likelihoods(
                self.model,
                self.tokenizer,
                [texts[index] for index in batch],
                [golds[index] for index in batch],
                max_length=self.max_input_length,
            )
            for index, (total, count) in zip(batch, likelihoods):
                losses[index] = -total / count
        return losses


class _PredictionCache:
    """An LRU map from model input to output, with hit and miss counts."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self.hits = 0
        self.misses = 0
        self._outputs: OrderedDict[str, str] = OrderedDict()

    def get(self, text: str) -> str | None:
        output = self._outputs.get(text)
        if output is not None:
            self._outputs.move_to_end(text)
        return output

    def put(self, text: str, output: str) -> None:
        self._outputs[text] = output
        self._outputs.move_to_end(text)
        while len(self._outputs) > self.maxsize:
            self._outputs.popitem(last=False)

    def clear(self) -> None:
        self._outputs.clear()
        self.hits = self.misses = 0

    def count(self, *, hits: int, misses: int) -> None:
        self.hits += hits
        self.misses += misses

    def info(self) -> CacheInfo:
        return CacheInfo(self.hits, self.misses, self.maxsize, len(self._outputs))


def _is_int_at_least(value: object, minimum: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= minimum


def _checked_location(name: str, value: str | os.PathLike[str]) -> str:
    if not isinstance(value, (str, os.PathLike)) or not str(value).strip():
        raise ConfigurationTypeError(f"{name} must be a non-empty hub name or directory path, got {value!r}.")
    return str(value)
