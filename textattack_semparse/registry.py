"""The plugin registry: one source of truth for every name the plugin adds to TextAttack.

Built-in components are registered exactly like third-party ones: through the hooks of
:mod:`textattack_semparse.hookspecs`. Entries are import paths resolved with
:mod:`importlib` only when a name is selected, so listing names imports no component.

An entry with an ``argument`` is a *family*: it names no component itself, its members do.
``nlpaug:KeyboardAug:aug_char_max=2`` is a member of the perturbation family ``nlpaug``: the text
after the first ``:`` up to the next is passed as the family's ``argument`` keyword
(``augmenter="KeyboardAug"``), each further ``KEY=VALUE`` as a keyword read as a Python literal
(``aug_char_max=2``). ``:`` separates because it needs no quoting in a shell and is no
separator of the comma-separated name lists the commands take.
"""

from __future__ import annotations

import functools
import importlib
import importlib.metadata
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import pluggy

from textattack_semparse import hookspecs
from textattack_semparse.arguments import literal_value
from textattack_semparse.errors import RegistryError, closest_match_hint

PROJECT = "textattack_semparse"
ENTRY_POINT_GROUP = "textattack_semparse"
DISABLE_AUTOLOAD_ENV = "TEXTATTACK_SEMPARSE_DISABLE_PLUGIN_AUTOLOAD"
DISABLED_PLUGINS_ENV = "TEXTATTACK_SEMPARSE_DISABLE_PLUGINS"
BUILTIN_PLUGIN = "builtin"

KIND_HOOKS: Mapping[str, str] = MappingProxyType(
    {
        "benchmark": "semparse_benchmarks",
        "attack-recipe": "semparse_attack_recipes",
        "augmentation-recipe": "semparse_augmentation_recipes",
        "victim": "semparse_victims",
        "dataset": "semparse_datasets",
        "perturbation": "semparse_perturbations",
        "llm-backend": "semparse_llm_backends",
        "judge": "semparse_judges",
    }
)

_COMMON_KEYS = frozenset({"target", "options", "description"})
KIND_KEYS: Mapping[str, frozenset[str]] = MappingProxyType(
    {
        "victim": _COMMON_KEYS | {"dataset"},
        "benchmark": _COMMON_KEYS | {"splits", "knn_victims", "trained_victims", "attack_recipe"},
        "perturbation": _COMMON_KEYS | {"attack_recipe", "argument"},
    }
)
"""Entry keys per kind beyond ``target``, ``options`` and ``description``."""

LISTED_NAMES = 30
"""An unknown name's error lists the registered names of its kind up to this many."""

DEFAULT_SPLITS: Mapping[str, tuple[str, ...]] = MappingProxyType({"question": ("train", "test")})
"""A benchmark entry's ``splits`` when it names none."""

BENCHMARK_DATASET = "textattack_semparse.datasets.benchmark:benchmark_dataset"
"""The target of the datasets that are a split of a registered benchmark (options ``benchmark``,
``split_type``, ``split``)."""
_KNN_FROM_BENCHMARK = "textattack_semparse.victims.knn_template_parser:KNNTemplateParser.from_benchmark"
_TRAINED_PARSER = "textattack_semparse.training.trained_victims:trained_parser"
_BOUND_RECIPE = (
    "textattack_semparse.recipes.attack.meaning_preserving_attack_huang_2021:MeaningPreservingAttackHuang2021"
)
_PERTURBATION_RECIPE = "textattack_semparse.recipes.attack.perturbation_attack_huang_2021:PerturbationAttackHuang2021"
RECIPE_PREFIX = "semparse-"
"""The prefix of the recipes a perturbation (or perturbation family) derives: ``semparse-<name>``."""
MEMBER_SEPARATOR = ":"
"""Separates a family's name, its member's argument and the member's ``KEY=VALUE`` options."""
_UNSAFE_FILE_CHARACTERS = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Entry:
    """One registered name.

    Args:
        kind (str): One of ``KIND_HOOKS``.
        name (str): The public name (``semparse-geo``).
        target (str): ``"package.module:Attribute"``; the attribute may be dotted.
        provider (str): The plugin that registered it.
        options (Mapping[str, Any]): Keyword arguments for the target.
        dataset (str | None): Victims only: the dataset evaluated on by default.
        description (str): One line for listings.
        splits (Mapping[str, tuple[str, ...]]): Benchmarks only: split type -> split names,
            from which dataset names are derived.
        knn_victims (bool): Benchmarks only: derive ``knn-<name>`` template-retrieval victims
            (``seq2seq-<name>`` trained victims are derived for every benchmark with a train split).
        trained_victims (bool): Benchmarks only: derive the trained ``seq2seq-<name>`` victims
            (default true; false for benchmarks whose input a question-only seq2seq parser
            cannot read, such as Table QA).
        attack_recipe (bool): Benchmarks: derive the bound recipe ``semparse-<name>``;
            perturbations: derive the single-perturbation recipe ``semparse-<name>``.
        recipe_options (Mapping[str, Any]): Perturbations only: build options of that recipe
            (``keep``).
        argument (str | None): Families only: the keyword a member's argument is passed as
            (``<name>:<argument>[:KEY=VALUE...]``); ``None`` for a plain entry.
        member_scheme (str | None): The recipe family a perturbation family derives only: its
            member ``semparse-<family>:<rest>`` passes the perturbation name ``<family>:<rest>``
            as ``perturbation_name`` (its ``argument`` is the perturbation family's, for listings).
    """

    kind: str
    name: str
    target: str
    provider: str
    options: Mapping[str, Any] = field(default_factory=dict)
    dataset: str | None = None
    description: str = ""
    splits: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: DEFAULT_SPLITS)
    knn_victims: bool = False
    trained_victims: bool = True
    attack_recipe: bool = False
    recipe_options: Mapping[str, Any] = field(default_factory=dict)
    argument: str | None = None
    member_scheme: str | None = None

    @property
    def is_family(self) -> bool:
        """Whether this entry names a family of members rather than one component."""
        return self.argument is not None

    @property
    def display_name(self) -> str:
        """The name as listings show it: ``nlpaug:<augmenter>`` for a family."""
        return f"{self.name}{MEMBER_SEPARATOR}<{self.argument}>" if self.is_family else self.name

    def member(self, parameter: str) -> Entry:
        """The member ``<name>:<parameter>`` of this family.

        ``parameter`` is ``VALUE`` or ``VALUE:KEY=VALUE:...``: the first part is passed as the
        ``argument`` keyword, each ``KEY=VALUE`` as a keyword whose value is read as a Python
        literal, else kept as a string (:func:`~textattack_semparse.arguments.literal_value`).

        Raises:
            RegistryError: No argument, or an option that is not ``KEY=VALUE``.

        Example:
            >>> family = Entry("perturbation", "nlpaug", "m:C", "builtin", argument="augmenter")
            >>> dict(family.member("KeyboardAug:aug_char_max=2:include_numeric=False").options)
            {'augmenter': 'KeyboardAug', 'aug_char_max': 2, 'include_numeric': False}
        """
        if not self.is_family:
            raise RegistryError(f"{self.kind} {self.name!r} is no family; it has no members.")
        name = f"{self.name}{MEMBER_SEPARATOR}{parameter}"
        if self.member_scheme is not None:
            options = {**self.options, "perturbation_name": f"{self.member_scheme}{MEMBER_SEPARATOR}{parameter}"}
            return Entry(self.kind, name, self.target, self.provider, MappingProxyType(options), None, self.description)
        value, *pairs = parameter.split(MEMBER_SEPARATOR)
        if not value:
            raise RegistryError(
                f"{self.kind} {name!r} names no member of family {self.name!r}: write "
                f"{self.display_name}, e.g. with `textattack-semparse list {self.kind}`."
            )
        options = {**self.options, str(self.argument): value}
        for pair in pairs:
            key, separator, text = pair.partition("=")
            if not separator or not key.isidentifier():
                raise RegistryError(
                    f"{self.kind} {name!r}: {pair!r} is not KEY=VALUE; write "
                    f"{self.name}{MEMBER_SEPARATOR}{value}{MEMBER_SEPARATOR}KEY=VALUE (e.g. "
                    f"{self.name}{MEMBER_SEPARATOR}{value}{MEMBER_SEPARATOR}aug_p=0.1)."
                )
            options[key] = literal_value(text)
        return Entry(self.kind, name, self.target, self.provider, MappingProxyType(options), None, self.description)

    def load(self) -> Any:
        """Import and return the target attribute."""
        module_name, _, attribute = self.target.partition(":")
        if not module_name or not attribute:
            raise RegistryError(
                f"{self.kind} {self.name!r} from plugin {self.provider!r} has target {self.target!r}; "
                "expected 'package.module:Attribute'."
            )
        obj: Any = importlib.import_module(module_name)
        for part in attribute.split("."):
            try:
                obj = getattr(obj, part)
            except AttributeError:
                raise RegistryError(
                    f"{self.kind} {self.name!r} from plugin {self.provider!r}: module {module_name!r} "
                    f"has no attribute {attribute!r}."
                ) from None
        return obj

    def create(self, **overrides: Any) -> Any:
        """Call the target with the entry's options updated by ``overrides``."""
        return self.load()(**{**self.options, **overrides})


def _entry_from_spec(kind: str, name: str, spec: hookspecs.EntrySpec, provider: str) -> Entry:
    if isinstance(spec, str):
        return Entry(kind=kind, name=name, target=spec, provider=provider)
    if not isinstance(spec, Mapping) or "target" not in spec:
        raise RegistryError(
            f"{kind} {name!r} from plugin {provider!r} must be an import path or a mapping with a "
            f"'target' key, got {spec!r}."
        )
    accepted = KIND_KEYS.get(kind, _COMMON_KEYS)
    unknown = set(spec) - accepted
    if unknown:
        raise RegistryError(
            f"{kind} {name!r} from plugin {provider!r} has unknown keys {sorted(unknown)}; "
            f"accepted: {', '.join(sorted(accepted))}."
        )
    extras: dict[str, Any] = {key: spec[key] for key in ("knn_victims", "trained_victims", "attack_recipe") if key in spec}
    if "argument" in spec:
        if not isinstance(spec["argument"], str) or not spec["argument"].isidentifier():
            raise RegistryError(
                f"{kind} {name!r} from plugin {provider!r}: 'argument' must name a keyword, got {spec['argument']!r}."
            )
        extras["argument"] = spec["argument"]
    if kind == "perturbation" and isinstance(extras.get("attack_recipe"), Mapping):
        extras["recipe_options"] = MappingProxyType(dict(extras["attack_recipe"]))
        extras["attack_recipe"] = True
    for key, value in extras.items():
        if key in ("recipe_options", "argument"):
            continue
        if not isinstance(value, bool):
            allowed = "true or false" + (", or a mapping of recipe options" if kind == "perturbation" else "")
            raise RegistryError(f"{kind} {name!r} from plugin {provider!r}: {key!r} must be {allowed}, got {value!r}.")
    if "splits" in spec:
        extras["splits"] = _checked_splits(kind, name, provider, spec["splits"])
    return Entry(
        kind=kind,
        name=name,
        target=spec["target"],
        provider=provider,
        options=MappingProxyType(dict(spec.get("options", {}))),
        dataset=spec.get("dataset"),
        description=spec.get("description", ""),
        **extras,
    )


def _checked_splits(kind: str, name: str, provider: str, splits: Any) -> Mapping[str, tuple[str, ...]]:
    if (
        not isinstance(splits, Mapping)
        or not splits
        or not all(isinstance(k, str) and not isinstance(v, str) and list(v) for k, v in splits.items())
    ):
        raise RegistryError(
            f"{kind} {name!r} from plugin {provider!r}: 'splits' must map each split type to its split "
            f"names, e.g. {{'question': ['train', 'test']}}; got {splits!r}."
        )
    return MappingProxyType({split_type: tuple(names) for split_type, names in splits.items()})


def file_safe_name(name: str) -> str:
    """``name`` as a file name: every run of characters other than letters, digits, ``.``, ``_``
    and ``-`` becomes ``_``, so a family member's name can name its test-set or augmentation file.

    Example:
        >>> file_safe_name("nlpaug:KeyboardAug:aug_char_max=2"), file_safe_name("insertion")
        ('nlpaug_KeyboardAug_aug_char_max_2', 'insertion')
    """
    return _UNSAFE_FILE_CHARACTERS.sub("_", name)


def benchmark_key(name: str) -> str:
    """The registered form of a benchmark name: case, outer spaces and ``_``/``-`` do not matter.

    Example:
        >>> benchmark_key(" Geo_Mini ")
        'geo-mini'
    """
    return name.strip().lower().replace("_", "-")


def dataset_name(benchmark: str, splits: Mapping[str, tuple[str, ...]], split_type: str, split: str | None) -> str:
    """The derived name of one split: ``<benchmark>-<split>`` when the benchmark has one split
    type, else ``<benchmark>-<split type>-<split>``; the benchmark's own name for all of its
    examples (``split`` ``None``: a released robustness benchmark whole, ``huang2021-geo``).

    Example:
        >>> dataset_name("geo", {"question": ("test",), "query": ("test",)}, "query", "test")
        'geo-query-test'
        >>> dataset_name("spider", {"question": ("dev",)}, "question", "dev")
        'spider-dev'
        >>> dataset_name("huang2021-geo", {"question": ("original", "insert")}, "question", None)
        'huang2021-geo'
    """
    if split is None:
        return benchmark
    return f"{benchmark}-{split}" if len(splits) == 1 else f"{benchmark}-{split_type}-{split}"


def derived_entries(benchmark: Entry) -> list[Entry]:
    """The dataset, victim and bound-recipe names a benchmark entry brings.

    One dataset per split. Per split type that has a ``train`` split, unless
    ``trained_victims`` is false, a trained victim ``seq2seq-<name>`` (first split type; ``seq2seq-<name>-<type>`` for the others; trained on
    first use into the cache, :mod:`textattack_semparse.training.trained_victims`) and, with
    ``knn_victims``, a template-retrieval victim ``knn-<name>`` (``knn-<name>-<type>``); both
    evaluated on that type's ``test`` split (else its last). With ``attack_recipe``,
    ``semparse-<name>`` bound to the benchmark.
    """
    name, provider, splits = benchmark.name, benchmark.provider, benchmark.splits
    entries = [
        Entry(
            kind="dataset",
            name=dataset_name(name, splits, split_type, split),
            target=BENCHMARK_DATASET,
            provider=provider,
            options=MappingProxyType({"benchmark": name, "split_type": split_type, "split": split}),
            description=f"{split_type}-split {split} set of benchmark {name!r}."
            if len(splits) > 1
            else f"{split} set of benchmark {name!r}.",
        )
        for split_type, names in splits.items()
        for split in names
    ]
    for position, (split_type, names) in enumerate(splits.items()):
        if "train" not in names:
            continue
        suffix = name if position == 0 else f"{name}-{split_type}"
        evaluated_on = dataset_name(name, splits, split_type, "test" if "test" in names else names[-1])
        if benchmark.knn_victims:
            entries.append(
                Entry(
                    kind="victim",
                    name=f"knn-{suffix}",
                    target=_KNN_FROM_BENCHMARK,
                    provider=provider,
                    options=MappingProxyType({"benchmark": name, "split_type": split_type}),
                    dataset=evaluated_on,
                    description=f"Template-retrieval parser (Finegan-Dollak et al. 2018) fit on the {split_type}-split "
                    f"train set of benchmark {name!r}; scored as the benchmark is.",
                )
            )
        if not benchmark.trained_victims:
            continue
        entries.append(
            Entry(
                kind="victim",
                name=f"seq2seq-{suffix}",
                target=_TRAINED_PARSER,
                provider=provider,
                options=MappingProxyType({"benchmark": name, "split_type": split_type, "victim_name": f"seq2seq-{suffix}"}),
                dataset=evaluated_on,
                description=f"Small seq2seq parser (ParserTrainer) trained from scratch on the {split_type}-split train "
                f"set of benchmark {name!r}: on first use into the cache (minutes on a CPU), loaded from there after.",
            )
        )
    if benchmark.attack_recipe:
        entries.append(
            Entry(
                kind="attack-recipe",
                name=f"semparse-{name}",
                target=_BOUND_RECIPE,
                provider=provider,
                options=MappingProxyType({"benchmark": name}),
                description="Combined word-level perturbations (Huang et al. 2021; Zhuo et al. 2023 DB), greedy "
                f"word-importance search, scored on benchmark {name!r}.",
            )
        )
    return entries


def perturbation_recipe(perturbation: Entry) -> Entry:
    """The single-perturbation recipe ``semparse-<name>`` a perturbation entry with
    ``attack_recipe`` brings, with its ``recipe_options`` (``keep``) bound; for a perturbation
    family the recipe family ``semparse-<name>``, whose member ``semparse-<name>:<rest>``
    attacks with the perturbation ``<name>:<rest>``."""
    keep = perturbation.recipe_options.get("keep")
    described = perturbation.display_name
    options: dict[str, Any] = {"keep": None, **perturbation.recipe_options}
    if not perturbation.is_family:
        options = {"perturbation_name": perturbation.name, **options}
    return Entry(
        kind="attack-recipe",
        name=f"{RECIPE_PREFIX}{perturbation.name}",
        target=_PERTURBATION_RECIPE,
        provider=perturbation.provider,
        options=MappingProxyType(options),
        description=f"One '{described}' perturbation per question, every candidate tried"
        + (f" (the {keep} most similar by Sentence-BERT)." if keep else "."),
        argument=perturbation.argument,
        member_scheme=perturbation.name if perturbation.is_family else None,
    )


class Registry:
    """Names -> entries, per kind, with duplicate detection naming both providers.

    Families (entries with an ``argument``) are kept apart from the plain entries: ``names`` and
    ``entries`` list the plain ones, :meth:`families` the families, and :meth:`get` resolves a
    family's member names (``nlpaug:KeyboardAug``).
    """

    def __init__(self) -> None:
        self._entries: dict[str, dict[str, Entry]] = {kind: {} for kind in KIND_HOOKS}
        self._families: dict[str, dict[str, Entry]] = {kind: {} for kind in KIND_HOOKS}

    def add(self, entry: Entry) -> None:
        """Register ``entry``; a name already taken raises :class:`RegistryError`."""
        table = self._table(entry.kind)
        families = self._families[entry.kind]
        if MEMBER_SEPARATOR in entry.name:
            raise RegistryError(
                f"{entry.kind} {entry.name!r} from plugin {entry.provider!r}: a name may not contain "
                f"{MEMBER_SEPARATOR!r}, which separates a family from its members."
            )
        existing = table.get(entry.name) or families.get(entry.name)
        if existing is not None:
            raise RegistryError(
                f"{entry.kind} {entry.name!r} is registered twice: by plugin {existing.provider!r} "
                f"({existing.target}) and by plugin {entry.provider!r} ({entry.target}). "
                "Rename one, or disable a plugin with --disable NAME."
            )
        (families if entry.is_family else table)[entry.name] = entry

    def get(self, kind: str, name: str) -> Entry:
        """The entry for ``name``, or the member entry for a family member's name; unknown
        names raise with the accepted names."""
        table = self._table(kind)
        if name in table:
            return table[name]
        scheme, separator, parameter = name.partition(MEMBER_SEPARATOR)
        family = self._families[kind].get(scheme) if separator else None
        if family is not None:
            return family.member(parameter)
        families = self._families[kind]
        known = [*table, *families]
        shown = sorted([*table, *(entry.display_name for entry in families.values())])
        listed = (
            f"Registered: {', '.join(shown) or '(none)'}." if len(shown) <= LISTED_NAMES else f"{len(shown)} are registered."
        )
        raise RegistryError(
            f"Unknown {kind} {name!r}.{closest_match_hint(scheme if separator else name, known)} {listed} "
            f"Run `textattack-semparse list {kind}` to see them."
        )

    def __contains__(self, key: tuple[str, str]) -> bool:
        """Whether ``name`` is a registered name of ``kind`` or names a member of one of its families."""
        kind, name = key
        scheme, separator, _ = name.partition(MEMBER_SEPARATOR)
        return name in self._table(kind) or bool(separator and scheme in self._families[kind])

    def names(self, kind: str) -> list[str]:
        """Registered names of ``kind``, sorted."""
        return sorted(self._table(kind))

    def entries(self, kind: str) -> list[Entry]:
        """Registered entries of ``kind``, sorted by name."""
        table = self._table(kind)
        return [table[name] for name in sorted(table)]

    def families(self, kind: str) -> list[Entry]:
        """Registered families of ``kind`` (entries whose members are named ``<name>:<argument>``), sorted by name."""
        self._table(kind)
        families = self._families[kind]
        return [families[name] for name in sorted(families)]

    def _table(self, kind: str) -> dict[str, Entry]:
        if kind not in self._entries:
            raise RegistryError(
                f"Unknown kind {kind!r}.{closest_match_hint(kind, KIND_HOOKS)} Kinds: {', '.join(KIND_HOOKS)}."
            )
        return self._entries[kind]


def make_plugin_manager(*, autoload: bool = True, disabled: Iterable[str] = ()) -> pluggy.PluginManager:
    """A plugin manager with the built-in plugin and (unless disabled) entry-point plugins.

    Args:
        autoload: Load plugins advertised under the ``textattack_semparse`` entry-point
            group; also switched off by the environment variable
            ``TEXTATTACK_SEMPARSE_DISABLE_PLUGIN_AUTOLOAD``.
        disabled: Plugin names (entry-point names) not to load.
    """
    from textattack_semparse import plugin as builtin_plugin

    disabled = set(disabled)
    if BUILTIN_PLUGIN in disabled:
        raise RegistryError(
            f"Plugin {BUILTIN_PLUGIN!r} provides the plugin's own components and cannot be disabled."
        )
    manager = pluggy.PluginManager(PROJECT)
    manager.add_hookspecs(hookspecs)
    manager.register(builtin_plugin, name=BUILTIN_PLUGIN)
    if autoload and not os.environ.get(DISABLE_AUTOLOAD_ENV):
        for entry_point in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
            if entry_point.name in disabled or manager.get_plugin(entry_point.name) is not None:
                continue
            try:
                plugin = entry_point.load()
            except Exception as error:
                distribution = entry_point.dist.name if entry_point.dist else "unknown distribution"
                raise RegistryError(
                    f"Plugin {entry_point.name!r} ({entry_point.value}) from distribution "
                    f"{distribution!r} failed to load: {error!r}. Fix or uninstall it, or skip it with "
                    f"--disable {entry_point.name} (or {DISABLE_AUTOLOAD_ENV}=1 to load no plugins)."
                ) from error
            manager.register(plugin, name=entry_point.name)
    manager.check_pending()
    return manager


def build_registry(manager: pluggy.PluginManager) -> Registry:
    """Collect every plugin's entries into a fresh :class:`Registry`."""
    registry = Registry()
    for kind, hook_name in KIND_HOOKS.items():
        for implementation in getattr(manager.hook, hook_name).get_hookimpls():
            specs = implementation.function() or {}
            for name, spec in specs.items():
                registry.add(_entry_from_spec(kind, name, spec, implementation.plugin_name))
    for benchmark in registry.entries("benchmark"):
        for entry in derived_entries(benchmark):
            registry.add(entry)
    for perturbation in [*registry.entries("perturbation"), *registry.families("perturbation")]:
        if perturbation.attack_recipe:
            registry.add(perturbation_recipe(perturbation))
    return registry


@functools.cache
def _cached_registry(autoload: bool, disabled: frozenset[str]) -> Registry:
    return build_registry(make_plugin_manager(autoload=autoload, disabled=disabled))


def get_registry(*, autoload: bool = True, disabled: Iterable[str] = ()) -> Registry:
    """The process-wide registry (built once per set of options).

    Plugins named in ``TEXTATTACK_SEMPARSE_DISABLE_PLUGINS`` (comma-separated) are skipped
    as if passed in ``disabled``; ``textattack-semparse --disable NAME`` sets it.
    """
    from_environment = {name.strip() for name in os.environ.get(DISABLED_PLUGINS_ENV, "").split(",") if name.strip()}
    return _cached_registry(autoload, frozenset(disabled) | frozenset(from_environment))


@dataclass(frozen=True)
class BoundRecipe:
    """An attack recipe with the options its registry entry binds (e.g. its benchmark)."""

    recipe: Any
    options: Mapping[str, Any]

    def build(self, model_wrapper: Any, **options: Any) -> Any:
        return self.recipe.build(model_wrapper, **{**self.options, **options})


def attack_recipe_class(name: str) -> Any:
    """The recipe registered as ``name``: an object with ``build(model_wrapper, **options)``.

    TextAttack's ``--recipe`` lookup evaluates a call to this function.
    """
    entry = get_registry().get("attack-recipe", name)
    recipe = entry.load()
    return BoundRecipe(recipe, entry.options) if entry.options else recipe


def augmentation_recipe_class(name: str) -> Any:
    """The augmenter registered as ``name``: called with TextAttack's augmenter keywords."""
    entry = get_registry().get("augmentation-recipe", name)
    augmenter = entry.load()
    return functools.partial(augmenter, **entry.options) if entry.options else augmenter


def combines_examples(augmenter: Any) -> bool:
    """Whether an augmenter of :func:`augmentation_recipe_class` makes new examples from several
    training examples, gold outputs included (its class sets ``combines_examples = True``), rather
    than rewriting one question."""
    return bool(getattr(getattr(augmenter, "func", augmenter), "combines_examples", False))


def is_table_qa_augmenter(augmenter: Any) -> bool:
    """Whether an augmenter of :func:`augmentation_recipe_class` augments Table QA rows
    (question, table, answer): its class sets ``table_qa = True``."""
    return bool(getattr(getattr(augmenter, "func", augmenter), "table_qa", False))
