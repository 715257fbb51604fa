"""What every in-context LLM parser shares: fixed demonstrations, the prompt, the response cache
and the SQL in a completion.

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex" (https://arxiv.org/abs/2301.12868), prompt Codex
with the "Create Table + Select 3" prompt of Rajkumar, Li and Bahdanau (2022)
(https://arxiv.org/abs/2204.00498) and the same k demonstrations for every test question (§4.3
compares how they are selected), and study adversarial in-context learning (§4.2): the
demonstrations augmented with perturbed copies of their questions. :class:`PromptedParser` holds
all of that; a subclass only says how a prompt is completed (a local causal LM, an
OpenAI-compatible server).
"""

from __future__ import annotations

import dataclasses
from abc import abstractmethod
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar

from textattack_semparse.arguments import check_count
from textattack_semparse.cache import cache_dir
from textattack_semparse.errors import ConfigurationError, VictimError
from textattack_semparse.sql.completion_sql import extract_sql
from textattack_semparse.tables.answers import format_answer
from textattack_semparse.tables.table import Table
from textattack_semparse.victims.llm.few_shot_selection import DEFAULT_PERPLEXITY_MODEL, selector_from_name
from textattack_semparse.victims.llm.prompts import DatabasePrompt, PromptTemplate
from textattack_semparse.victims.llm.response_cache import CacheCounts, ResponseCache
from textattack_semparse.victims.llm.table_prompt import TablePrompt
from textattack_semparse.victims.semantic_parser import SemanticParser

if TYPE_CHECKING:
    import os

    from textattack_semparse.datasets.benchmark import Benchmark
    from textattack_semparse.datasets.example import SemparseExample

RESPONSE_CACHE_FILE = "llm_responses.sqlite"
"""The default response cache, under :func:`~textattack_semparse.cache.cache_dir`."""

SEEDED_SELECTIONS = ("random", "cluster-ed", "cluster-tfidf", "cluster-cwe")
"""Few-shot selectors that take the victim's ``seed``."""

PERPLEXITY_SELECTIONS = ("ppl-asc", "ppl-desc")
"""Few-shot selectors that score the pool with a causal LM (``ppl_model``)."""

OWN_MODEL = "victim"
"""``ppl_model`` value that scores perplexity with the victim's own language model."""

SQL_MAX_TOKENS = 200
"""Most tokens of a text-to-SQL completion: Zhuo et al.'s (2023) "maximum of 200 tokens"."""

SQL_STOP = ("--", "\n\n", ";", "#")
"""Stop sequences of a text-to-SQL completion, Zhuo et al.'s (2023) four stop tokens. In the
prompt each demonstration's query is followed by a blank line and the next ``-- question``, so a
model imitating it has finished its query at ``\\n\\n`` or ``--``; ``;`` ends a statement and
``#`` starts a comment (MySQL, Python)."""

OTHER_MAX_TOKENS = 128
"""Most tokens of any other completion (a Table QA answer, a judge's or renamer's answer)."""


def cut_at_stop(completion: str, stop: Sequence[str]) -> str:
    """``completion`` up to (without) the first of the ``stop`` sequences, as an OpenAI-compatible
    server returns it.

    Example:
        >>> cut_at_stop(" name FROM city;\\n\\n-- next", SQL_STOP)
        ' name FROM city'
    """
    ends = [index for index in (completion.find(sequence) for sequence in stop) if index >= 0]
    return completion[: min(ends)] if ends else completion


class PromptedParser(SemanticParser):
    """A text-to-SQL victim that completes a k-shot "Create Table + Select 3" prompt.

    Zhuo et al. (2023), https://arxiv.org/abs/2301.12868 (§4.2 adversarial in-context learning,
    §4.3 few-shot selection); the prompt of Rajkumar et al. (2022),
    https://arxiv.org/abs/2204.00498 (:class:`~textattack_semparse.victims.llm.prompts.DatabasePrompt`).

    ``shots`` demonstrations are chosen once, on first use, from the ``split_type`` training split
    of ``benchmark`` by the selector ``selection`` (see
    :func:`~textattack_semparse.victims.llm.few_shot_selection.selector_from_name`) and shown before every
    question. With ``adversarial`` (a registered perturbation's name), each demonstration is
    followed by a copy whose question that perturbation rewrote (one output, sampled with
    ``seed``; the gold's literals kept) and the same gold query; a demonstration the perturbation
    cannot change gets no copy. The completion is cut to its first query by
    :func:`~textattack_semparse.sql.completion_sql.extract_sql`, with the prompt's prefix
    (``SELECT``) re-attached.

    Every completion goes through a persistent
    :class:`~textattack_semparse.victims.llm.response_cache.ResponseCache` keyed by :attr:`model_id`, the
    full prompt and :attr:`decoding_parameters`, stored the moment it arrives: a repeated prompt,
    in one run, a re-run or a resumed run, is never paid for twice. :meth:`cache_counts` gives
    the hits and misses.

    On a Table QA benchmark (examples with tables, e.g. ``wtq``; RobuT's few-shot LLM setting,
    Zhao et al. 2023, https://arxiv.org/abs/2306.14321) the victim answers ``(question,
    Table.to_json())`` inputs with a :class:`~textattack_semparse.victims.llm.table_prompt.TablePrompt`:
    each demonstration's table, question and answer, then the test table and question; the
    completion's first line is read as the answer values (returned in WTQ's targetValue format).

    Subclasses define :attr:`model_id`, :attr:`decoding_parameters` and
    :meth:`_generate_completions`; registered as an LLM backend (hook
    ``semparse_llm_backends``), they are reached by victim names ``SCHEME:TARGET?options``
    through :data:`VICTIM_NAME_OPTIONS`, :meth:`victim_name_problem` and
    :meth:`from_victim_name`.

    Args:
        benchmark (Benchmark): Supplies the database (``benchmark.database``) and the training
            split the demonstrations come from.
        shots (int, default 5): Demonstrations in the prompt (0: zero-shot).
        selection (str, default "random"): Few-shot selector name.
        seed (int, default 0): Seed of the selector and of the adversarial perturbation.
        split_type (str, default "question"): Which split's training part is the pool.
        adversarial (str | None, default None): A registered perturbation that adds a perturbed
            copy of each demonstration (``textattack-semparse list perturbation``).
        template (PromptTemplate | None, default None): The prompt format; ``None`` is
            Rajkumar et al.'s. Text-to-SQL only (a Table QA benchmark uses ``TablePrompt``).
        cache_path (str | os.PathLike | None, default None): The response cache file;
            ``None`` is ``cache_dir() / "llm_responses.sqlite"``.
        selector_options (dict | None, default None): More keywords for the selector
            (``confidence=`` overrides :meth:`confidence_scorer`; ``model=`` overrides ``ppl_model``).
        ppl_model (str, default "gpt2"): The causal LM ``ppl-asc``/``ppl-desc`` score the pool
            with: a hub name, a local directory or ``.gguf`` file, or ``"victim"`` for the
            victim's own model (:meth:`own_language_model`). GPT-2 is Zhuo et al.'s; anything
            else is a substitute (offline GPT-2 cannot be downloaded), named in the victim name
            (``?ppl_model=victim``) so results under it are labelled.
        Other arguments (``max_failure_rate``): as :class:`SemanticParser`.
    """

    VICTIM_NAME_OPTIONS: ClassVar[dict[str, type]] = {}
    """The backend's own victim-name options and their types (beside the study's)."""

    @classmethod
    def victim_name_problem(cls, target: str) -> str | None:
        """What is wrong with a victim name's ``target``, or ``None`` when it is usable."""
        return None if target else f"the name gives no model after the scheme; see {cls.__name__}."

    @classmethod
    def unavailable_model(cls, target: str) -> VictimError | None:
        """The error the model of a victim name's ``target`` would fail to load with, found without
        loading it (a missing local file), or ``None`` (by default: a server is asked at its first call)."""
        return None

    @classmethod
    def from_victim_name(cls, target: str, *, benchmark: Benchmark, split_type: str, **options: Any) -> PromptedParser:
        """The victim a name ``SCHEME:TARGET?options`` stands for (by default ``cls(target, ...)``:
        the backends' constructors take the target first)."""
        backend: Callable[..., PromptedParser] = cls
        return backend(target, benchmark=benchmark, split_type=split_type, **options)

    def __init__(
        self,
        *,
        benchmark: Benchmark,
        shots: int = 5,
        selection: str = "random",
        seed: int = 0,
        split_type: str = "question",
        adversarial: str | None = None,
        template: PromptTemplate | None = None,
        cache_path: str | os.PathLike[str] | None = None,
        selector_options: dict[str, Any] | None = None,
        ppl_model: str = DEFAULT_PERPLEXITY_MODEL,
        **kwargs: Any,
    ) -> None:
        table_qa = _is_table_qa(benchmark)
        if table_qa and template is not None:
            raise ConfigurationError("template formats text-to-SQL prompts; a Table QA benchmark is prompted with TablePrompt.")
        database = None if benchmark is None else prompt_database(benchmark)
        if not table_qa and database is None:
            suite = (
                ""
                if benchmark is None or benchmark.databases is not None
                else f" {benchmark.name!r} has none: distil a test suite from its schema "
                f"('textattack-semparse test-suite build --benchmark {benchmark.name} --output-dir DIR', then "
                "SEMPARSE_TEST_SUITE_DIR=DIR), whose first database the prompt then shows."
            )
            raise VictimError(
                f"{type(self).__name__} needs a benchmark with one SQLite database (its prompt shows that schema);"
                + (suite or " pass benchmark=load_benchmark(...), or --dataset with a single-database benchmark's dataset.")
            )
        super().__init__(benchmark=benchmark, **kwargs)
        check_count("shots", shots, minimum=0)
        self.shots = shots
        self.selection = selection
        self.seed = seed
        self.split_type = split_type
        self.adversarial = adversarial or None
        if self.adversarial is not None:
            from textattack_semparse.registry import get_registry

            get_registry().get("perturbation", self.adversarial)  # fails early, naming the registered ones
        self.cache_path = Path(cache_path) if cache_path is not None else cache_dir() / RESPONSE_CACHE_FILE
        if not isinstance(ppl_model, str) or not ppl_model.strip():
            raise ConfigurationError(f"ppl_model must name a causal LM (hub name, directory, .gguf file or 'victim'), got {ppl_model!r}.")
        self.ppl_model = ppl_model
        self.selector = self._selector(dict(selector_options or {}))  # fails early on an unknown name
        self.prompt: DatabasePrompt | TablePrompt
        if table_qa or database is None:  # database is None only for Table QA (checked above)
            self.prompt = TablePrompt()
        else:
            self.prompt = DatabasePrompt(database) if template is None else DatabasePrompt(database, template=template)

    @property
    @abstractmethod
    def model_id(self) -> str:
        """The model as the response cache knows it."""

    @property
    @abstractmethod
    def decoding_parameters(self) -> dict[str, Any]:
        """Everything besides the prompt that decides a completion (part of the cache key)."""

    @abstractmethod
    def _generate_completions(self, prompts: list[str]) -> Iterator[tuple[str, str]]:
        """Complete ``prompts`` (distinct, none cached), yielding ``(prompt, completion)`` as each
        arrives, in any order; raise when one cannot be had."""

    @property
    def writes_sql(self) -> bool:
        """Whether the victim completes text-to-SQL prompts (Zhuo et al.'s decoding, :data:`SQL_MAX_TOKENS`
        and :data:`SQL_STOP`, is the default there), not Table QA or plain-completion ones."""
        return isinstance(self.prompt, DatabasePrompt)

    def confidence_scorer(self) -> Callable[[list[str]], list[float]] | None:
        """The zero-shot parser's confidence in each question, for ``selection="confidence"``
        (higher = more confident); ``None`` when the backend cannot compute it."""
        return None

    def own_language_model(self) -> tuple[str, str | None] | None:
        """The victim's own causal LM as ``(name or directory, GGUF file or None)``, for
        ``ppl_model="victim"``; ``None`` when the victim has no local model to score with."""
        return None

    def _perplexity_model(self) -> dict[str, str]:
        """The selector keywords (``model``, ``gguf_file``) of :attr:`ppl_model`."""
        if self.ppl_model == OWN_MODEL:
            own = self.own_language_model()
            if own is None:
                raise ConfigurationError(
                    f"ppl_model='victim' scores perplexity with the victim's own causal LM, which {type(self).__name__} "
                    f"{self.model_id!r} cannot serve; name a causal LM instead (ppl_model=gpt2, a directory or .gguf file)."
                )
            model, gguf_file = own
        else:
            path = PurePath(self.ppl_model)
            model, gguf_file = (str(path.parent), path.name) if path.name.endswith(".gguf") else (self.ppl_model, None)
        return {"model": model} if gguf_file is None else {"model": model, "gguf_file": gguf_file}

    def _selector(self, options: dict[str, Any]) -> Any:
        if self.selection in SEEDED_SELECTIONS:
            options.setdefault("seed", self.seed)
        elif self.selection in PERPLEXITY_SELECTIONS and "model" not in options:
            options.update(self._perplexity_model())
        elif self.selection == "confidence" and "confidence" not in options:
            scorer = self.confidence_scorer()
            if scorer is None:
                raise ConfigurationError(
                    f"selection='confidence' ranks the pool by the zero-shot parser's confidence, which "
                    f"{type(self).__name__} {self.model_id!r} cannot compute; pass "
                    "selector_options={'confidence': callable(list of questions) -> floats}."
                )
            options["confidence"] = scorer
        return selector_from_name(self.selection, **options)

    def extra_repr_keys(self) -> list[str]:
        return super().extra_repr_keys() + ["shots", "selection", "seed", "adversarial"]

    def reuse_loaded_model(self, other: PromptedParser) -> None:
        """Take over the model ``other`` has already loaded, when it is the same model (nothing to
        do by default): victims that differ only in their demonstrations, as the cells of an
        in-context learning study do, need not load it again."""

    @property
    def demonstrations(self) -> list[SemparseExample]:
        """The examples shown before every question (chosen once): the ``shots`` selected ones,
        each followed by its perturbed copy when ``adversarial`` is set."""
        if "_demonstrations" not in self.__dict__:
            benchmark = self.benchmark
            pool = [] if benchmark is None else benchmark.split(self.split_type, "train")
            selected = self.selector.select(pool, self.shots)
            self.__dict__["_demonstrations"] = (
                selected if self.adversarial is None else adversarial_demonstrations(selected, self.adversarial, self.seed)
            )
        return self.__dict__["_demonstrations"]

    @property
    def response_cache(self) -> ResponseCache:
        if "_response_cache" not in self.__dict__:
            self.__dict__["_response_cache"] = ResponseCache(self.cache_path)
        return self.__dict__["_response_cache"]

    def cache_counts(self) -> CacheCounts:
        """Response-cache hits and misses since this victim opened the cache."""
        return self.response_cache.counts()

    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        state.pop("_response_cache", None)
        return state

    def _parse_batch(self, questions: list[str], db_ids: list[str | None]) -> list[str]:
        if isinstance(self.prompt, TablePrompt):
            return self._answer_tables(self.prompt, questions, db_ids)
        prompts = [self.prompt(question, self.demonstrations) for question in questions]
        return [extract_sql(completion, prefix=self.prompt.prefix) for completion in self.complete(prompts)]

    def _answer_tables(self, prompt: TablePrompt, questions: list[str], tables: list[str | None]) -> list[str]:
        """Table QA: each question with its table (the ``table`` input column, ``Table.to_json()``)."""
        given = [table for table in tables if table is not None]
        if len(given) < len(tables):
            raise TypeError(
                f"{type(self).__name__} on a Table QA benchmark answers (question, Table.to_json()) inputs; "
                "got a question without its table."
            )
        prompts = [prompt(question, Table.from_json(table), self.demonstrations) for question, table in zip(questions, given)]
        return [format_answer(prompt.answer(completion)) for completion in self.complete(prompts)]

    def complete(self, prompts: list[str]) -> list[str]:
        """Raw completions of ``prompts``: from the response cache, else generated and stored as
        each arrives (so a failure later in the batch loses none)."""
        cache, parameters = self.response_cache, self.decoding_parameters
        completions: dict[str, str] = {}
        for prompt in prompts:
            if prompt not in completions:
                cached = cache.get(self.model_id, prompt, parameters)
                if cached is not None:
                    completions[prompt] = cached
        missing = list(dict.fromkeys(prompt for prompt in prompts if prompt not in completions))
        if missing:
            for prompt, completion in self._generate_completions(missing):
                cache.put(self.model_id, prompt, parameters, completion)
                completions[prompt] = completion
        return [completions[prompt] for prompt in prompts]


def prompt_database(benchmark: Benchmark) -> Path | None:
    """The SQLite file whose schema and example rows a text-to-SQL prompt shows: the benchmark's
    own database, else, for a benchmark published without one (Scholar), the first database of its
    distilled test suite (:meth:`~textattack_semparse.datasets.benchmark.Benchmark.with_test_suite`).

    Deviation: Zhuo et al. prompt Codex with the real Scholar database's rows; a suite database
    has the published schema's tables and columns but fuzzed values (sampled from each column's
    type, with the gold queries' literals planted), so its three example rows are not real data. ``None`` when
    there is neither (or the benchmark has one database per ``db_id``)."""
    if benchmark.database is not None:
        return benchmark.database
    if benchmark.test_suite is not None and benchmark.databases is not None and benchmark.databases.root is None:
        return benchmark.databases.primary
    return None


def _is_table_qa(benchmark: Benchmark | None) -> bool:
    """Whether ``benchmark`` is a Table QA benchmark (its examples carry tables, as WTQ's do)."""
    examples: Sequence[Any] = getattr(benchmark, "examples", ())
    return bool(examples) and getattr(examples[0], "table", None) is not None


def adversarial_demonstrations(
    demonstrations: list[SemparseExample], perturbation: str, seed: int
) -> list[SemparseExample]:
    """Each demonstration followed by a copy whose question ``perturbation`` rewrote (Zhuo et al.
    2023, §4.2), with the same gold; one output sampled with ``seed``, the gold's literals kept
    (:func:`~textattack_semparse.perturbations.example_perturber.perturb_examples`)."""
    from textattack_semparse.perturbations.example_perturber import create_perturbation, perturb_examples

    utterances = perturb_examples(
        demonstrations, create_perturbation(perturbation, seed=seed), perturbation=perturbation, seed=seed
    )
    rewritten = {utterance.example_id: utterance.perturbed for utterance in utterances}
    augmented: list[SemparseExample] = []
    for index, example in enumerate(demonstrations):
        augmented.append(example)
        if index in rewritten:
            augmented.append(dataclasses.replace(example, question=rewritten[index]))
    return augmented
