"""Hook specifications: how a package adds benchmarks, recipes, victims, datasets, perturbations
and LLM backends.

A plugin is a module (or object) with functions marked by
:data:`textattack_semparse.hookimpl`, advertised under the ``textattack_semparse``
entry-point group::

    [project.entry-points.textattack_semparse]
    acme_sql = "acme_sql.semparse_plugin"

Each hook returns a mapping from a public name to an *entry*: either an import path
``"package.module:Attribute"`` or a mapping with the keys ``target`` (that import path)
and optionally ``options`` (keyword arguments for the target), ``dataset`` (victims
only: the registered dataset the victim is evaluated on when none is given) and
``description`` (benchmarks: ``splits``, ``knn_victims``, ``trained_victims``, ``attack_recipe``;
perturbations: ``attack_recipe``). Nothing is imported until a name is selected. Every hook is called once
per plugin, so a name registered by two plugins is reported with both providers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pluggy

hookspec = pluggy.HookspecMarker("textattack_semparse")

EntrySpec = str | Mapping[str, Any]
"""``"package.module:Attribute"`` or ``{"target": ..., "options": ..., "dataset": ..., "description": ...}``."""


@hookspec
def semparse_benchmarks() -> Mapping[str, EntrySpec]:
    """Benchmarks: examples, splits, the databases gold outputs run on, and their scorer.

    :return: name -> entry whose target is a loader called as
        ``loader(name=NAME, data_dir=PATH_OR_NONE, **options)`` that returns a
        :class:`textattack_semparse.datasets.benchmark.Benchmark`. Besides ``target``,
        ``options`` and ``description`` an entry may give ``splits`` (split type -> split
        names, default ``{"question": ["train", "test"]}``), from which the dataset names
        ``<name>-<split>`` (one split type) or ``<name>-<type>-<split>`` are derived;
        ``knn_victims`` (bool): also derive ``knn-<name>`` template-retrieval victims; and
        ``attack_recipe`` (bool): also derive the bound recipe ``semparse-<name>``. Every
        benchmark with a ``train`` split also gets ``seq2seq-<name>`` victims, trained on
        first use (``textattack_semparse.training.trained_victims``), unless its entry gives
        ``trained_victims: False`` (Table QA: a question-only parser cannot read the table).

    Called once per plugin when the registry is built; all results are collected.
    """


@hookspec
def semparse_attack_recipes() -> Mapping[str, EntrySpec]:
    """Attack recipes, selectable with ``textattack attack --recipe NAME``.

    :return: name -> entry whose target is a class with a static
        ``build(model_wrapper, **options) -> textattack.Attack``.

    Called once per plugin when the registry is built; all results are collected.
    """


@hookspec
def semparse_augmentation_recipes() -> Mapping[str, EntrySpec]:
    """Augmentation recipes, selectable with ``textattack augment --recipe NAME``.

    :return: name -> entry whose target is a ``textattack.augmentation.Augmenter``
        subclass accepting TextAttack's augmenter keywords (``pct_words_to_swap``,
        ``transformations_per_example``, ...).

    Called once per plugin when the registry is built; all results are collected.
    """


@hookspec
def semparse_victims() -> Mapping[str, EntrySpec]:
    """Victim models, selectable with ``textattack attack --model NAME``.

    :return: name -> entry whose target is a callable returning a
        ``textattack.models.wrappers.ModelWrapper`` when called with ``options``.
        The entry's ``dataset`` names the registered dataset the victim is evaluated on
        when the user gives none (TextAttack's dataset-by-model convention).

    Called once per plugin when the registry is built; all results are collected.
    """


@hookspec
def semparse_perturbations() -> Mapping[str, EntrySpec]:
    """Meaning-preserving perturbations, used by the per-perturbation recipes and by
    ``textattack-semparse robustness``.

    :return: name -> entry whose target is a ``textattack.transformations.Transformation``
        class, instantiated with ``options``. An entry may give ``attack_recipe``: ``True``, or
        a mapping of build options such as ``{"keep": 10}``, derives the single-perturbation
        recipe ``semparse-<name>`` (``PerturbationAttackHuang2021``: each utterance perturbed
        once, every candidate tried, or the ``keep`` most similar by Sentence-BERT).

    Called once per plugin when the registry is built; all results are collected.
    """


@hookspec
def semparse_datasets() -> Mapping[str, EntrySpec]:
    """Datasets, selectable with ``textattack attack --dataset-by-model NAME``.

    :return: name -> entry whose target is a callable returning a
        ``textattack.datasets.Dataset`` when called with ``options``.

    Called once per plugin when the registry is built; all results are collected.
    """


@hookspec
def semparse_llm_backends() -> Mapping[str, EntrySpec]:
    """In-context LLM victims, selectable as ``--model SCHEME:TARGET[?key=value&...]``.

    :return: scheme -> entry whose target is a
        :class:`textattack_semparse.victims.llm.prompted_parser.PromptedParser` subclass with a
        ``VICTIM_NAME_OPTIONS`` mapping (its own name options -> their types, beside the study's
        ``shots``, ``selection``, ``seed`` and ``adversarial``) and a classmethod
        ``from_victim_name(target, *, benchmark, split_type, **options)``; ``target`` is the
        text between ``SCHEME:`` and ``?``. Built in: ``hf-causal`` and ``openai``.

    Called once per plugin when the registry is built; all results are collected.
    """


@hookspec
def semparse_judges() -> Mapping[str, EntrySpec]:
    """Meaning judges, selectable as ``--judge NAME`` or ``--judge NAME:TARGET``: is a rewrite of a
    question the same question?

    :return: name -> entry whose target is a
        :class:`textattack_semparse.judges.meaning_judge.MeaningJudge` subclass, instantiated with
        ``options`` and, for ``NAME:TARGET``, ``target=TARGET``. Built in: ``default`` (offline),
        ``llm`` (``llm:<LLM victim name>``) and ``nli`` (``nli:<NLI model>``).

    Called once per plugin when the registry is built; all results are collected.
    """
