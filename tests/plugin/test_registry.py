"""The registry and its pluggy host: fresh plugin managers with inline plugins."""

from __future__ import annotations

import re
from pathlib import Path

import pluggy
import pytest

from textattack_semparse import hookimpl, hookspecs
from textattack_semparse.datasets.benchmark import benchmark_names, clear_benchmark_cache
from textattack_semparse.errors import RegistryError
from textattack_semparse.registry import (
    DEFAULT_SPLITS,
    Entry,
    Registry,
    attack_recipe_class,
    build_registry,
    dataset_name,
    derived_entries,
    get_registry,
    make_plugin_manager,
)


@pytest.fixture
def manager() -> pluggy.PluginManager:
    manager = pluggy.PluginManager("textattack_semparse")
    manager.add_hookspecs(hookspecs)
    return manager


class AcmePlugin:
    @hookimpl
    def semparse_attack_recipes(self):
        return {"acme-attack": "textattack_semparse.errors:SemparseError"}

    @hookimpl
    def semparse_victims(self):
        return {
            "acme-victim": {
                "target": "collections:OrderedDict",
                "options": {"a": 1},
                "dataset": "geo-question-test",
                "description": "an ordered dict standing in for a victim factory",
            }
        }


def test_string_entry_becomes_target(manager):
    manager.register(AcmePlugin(), name="acme")
    registry = build_registry(manager)
    entry = registry.get("attack-recipe", "acme-attack")
    assert entry.target == "textattack_semparse.errors:SemparseError"
    assert entry.provider == "acme"


def test_mapping_entry_keeps_options_and_dataset(manager):
    manager.register(AcmePlugin(), name="acme")
    entry = build_registry(manager).get("victim", "acme-victim")
    assert entry.dataset == "geo-question-test"
    assert entry.create(b=2) == {"a": 1, "b": 2}


def test_duplicate_name_names_both_providers(manager):
    class Rival:
        @hookimpl
        def semparse_attack_recipes(self):
            return {"acme-attack": "json:loads"}

    manager.register(AcmePlugin(), name="acme")
    manager.register(Rival(), name="rival")
    with pytest.raises(RegistryError, match=r"registered twice.*'acme'.*'rival'|registered twice.*'rival'.*'acme'"):
        build_registry(manager)


def test_unknown_name_suggests_closest_match():
    registry = Registry()
    registry.add(Entry(kind="attack-recipe", name="semparse-geo", target="json:loads", provider="x"))
    with pytest.raises(RegistryError, match="Did you mean 'semparse-geo'"):
        registry.get("attack-recipe", "semparse-gep")


def test_unknown_kind_is_rejected():
    with pytest.raises(RegistryError, match="Unknown kind 'recipe'"):
        Registry().names("recipe")


def test_entry_with_unknown_key_is_rejected(manager):
    class Sloppy:
        @hookimpl
        def semparse_datasets(self):
            return {"d": {"target": "json:loads", "split": "test"}}

    manager.register(Sloppy(), name="sloppy")
    with pytest.raises(RegistryError, match=r"unknown keys \['split'\]"):
        build_registry(manager)


def test_bad_target_is_reported_on_load():
    entry = Entry(kind="victim", name="v", target="json:no_such_function", provider="p")
    with pytest.raises(RegistryError, match="has no attribute 'no_such_function'"):
        entry.load()


def test_hook_with_unknown_argument_fails_validation(manager):
    class WrongSignature:
        @hookimpl
        def semparse_victims(self, registry):
            return {}

    with pytest.raises(pluggy.PluginValidationError):
        manager.register(WrongSignature(), name="wrong")


def test_unknown_hook_is_rejected_by_check_pending(manager):
    class Typo:
        @hookimpl
        def semparse_victimz(self):
            return {}

    manager.register(Typo(), name="typo")
    with pytest.raises(pluggy.PluginValidationError):
        manager.check_pending()


def test_builtin_plugin_registers_demo_names():
    registry = get_registry()
    assert "semparse-geo" in registry.names("attack-recipe")
    assert "semparse-function-words" in registry.names("augmentation-recipe")
    assert registry.get("victim", "knn-geo").dataset == "geo-question-test"
    assert registry.get("victim", "knn-geo").dataset in registry.names("dataset")


def test_builtin_plugin_cannot_be_disabled():
    with pytest.raises(RegistryError, match="cannot be disabled"):
        make_plugin_manager(disabled=["builtin"])


def test_autoload_can_be_switched_off_by_environment(monkeypatch):
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_DISABLE_PLUGIN_AUTOLOAD", "1")
    manager = make_plugin_manager()
    assert [name for name, _ in manager.list_name_plugin()] == ["builtin"]


def test_bound_recipe_passes_registered_options():
    recipe = attack_recipe_class("semparse-geo")
    assert recipe.options == {"benchmark": "geo"}
    assert recipe.recipe.__name__ == "MeaningPreservingAttackHuang2021"


# --- benchmarks and the names derived from them ------------------------------------------------

TWO_KINDS = {"question": ("train", "dev", "test"), "query": ("train", "dev", "test")}


def benchmark_entry(name="zoo", splits=None, **flags) -> Entry:
    extras = {} if splits is None else {"splits": splits}
    return Entry(kind="benchmark", name=name, target="json:loads", provider="zoo-plugin", **extras, **flags)


def by_kind(entries: list[Entry]) -> dict[str, list[str]]:
    kinds: dict[str, list[str]] = {}
    for entry in entries:
        kinds.setdefault(entry.kind, []).append(entry.name)
    return kinds


def test_dataset_name_of_a_benchmark_with_one_split_type_omits_the_type():
    assert dataset_name("spider", {"question": ("dev",)}, "question", "dev") == "spider-dev"


def test_dataset_name_of_a_benchmark_with_two_split_types_names_the_type():
    assert dataset_name("geo", TWO_KINDS, "query", "test") == "geo-query-test"
    assert dataset_name("geo", TWO_KINDS, "question", "train") == "geo-question-train"


def test_benchmark_entry_defaults_to_question_train_and_test_splits():
    entry = benchmark_entry()
    assert entry.splits == DEFAULT_SPLITS == {"question": ("train", "test")}
    assert not entry.knn_victims and not entry.attack_recipe


def test_derived_entries_without_flags_are_one_dataset_per_split_and_the_trained_victims():
    entries = derived_entries(benchmark_entry(splits=TWO_KINDS))
    assert by_kind(entries) == {
        "dataset": [
            "zoo-question-train", "zoo-question-dev", "zoo-question-test",
            "zoo-query-train", "zoo-query-dev", "zoo-query-test",
        ],
        "victim": ["seq2seq-zoo", "seq2seq-zoo-query"],
    }


def test_derived_dataset_loads_its_split_of_the_benchmark():
    dataset = derived_entries(benchmark_entry(splits=TWO_KINDS))[4]
    assert dataset.target == "textattack_semparse.datasets.benchmark:benchmark_dataset"
    assert dict(dataset.options) == {"benchmark": "zoo", "split_type": "query", "split": "dev"}
    assert dataset.provider == "zoo-plugin" and "benchmark 'zoo'" in dataset.description


def knn_victims(entries: list[Entry]) -> list[Entry]:
    return [entry for entry in entries if entry.kind == "victim" and entry.name.startswith("knn-")]


def test_knn_victim_per_split_type_with_a_train_split_evaluated_on_test():
    victims = knn_victims(derived_entries(benchmark_entry(splits=TWO_KINDS, knn_victims=True)))
    assert [(v.name, v.dataset) for v in victims] == [
        ("knn-zoo", "zoo-question-test"),
        ("knn-zoo-query", "zoo-query-test"),
    ]
    assert dict(victims[1].options) == {"benchmark": "zoo", "split_type": "query"}
    assert victims[0].target == "textattack_semparse.victims.knn_template_parser:KNNTemplateParser.from_benchmark"
    assert all(v.provider == "zoo-plugin" for v in victims)


def test_knn_victim_without_a_test_split_is_evaluated_on_the_last_split():
    entries = derived_entries(benchmark_entry(splits={"question": ("train", "dev")}, knn_victims=True))
    [victim] = knn_victims(entries)
    assert (victim.name, victim.dataset) == ("knn-zoo", "zoo-dev")


def test_no_knn_victim_for_a_split_type_without_train():
    entries = derived_entries(benchmark_entry(splits={"question": ("dev",)}, knn_victims=True))
    assert by_kind(entries) == {"dataset": ["zoo-dev"]}


def test_a_later_split_type_with_train_is_named_by_its_type():
    entries = derived_entries(
        benchmark_entry(splits={"question": ("test",), "query": ("train", "test")}, knn_victims=True)
    )
    assert [(e.name, e.dataset) for e in knn_victims(entries)] == [("knn-zoo-query", "zoo-query-test")]


def test_trained_victim_per_split_type_with_a_train_split_evaluated_on_test():
    victims = [entry for entry in derived_entries(benchmark_entry(splits=TWO_KINDS)) if entry.kind == "victim"]
    assert [(v.name, v.dataset) for v in victims] == [
        ("seq2seq-zoo", "zoo-question-test"),
        ("seq2seq-zoo-query", "zoo-query-test"),
    ]
    assert dict(victims[1].options) == {"benchmark": "zoo", "split_type": "query", "victim_name": "seq2seq-zoo-query"}
    assert victims[0].target == "textattack_semparse.training.trained_victims:trained_parser"
    assert "first use" in victims[0].description and "cache" in victims[0].description


def test_trained_victims_sit_beside_the_knn_victims_and_share_their_datasets():
    entries = derived_entries(benchmark_entry(splits={"question": ("train", "dev")}, knn_victims=True))
    assert [(e.name, e.dataset) for e in entries if e.kind == "victim"] == [
        ("knn-zoo", "zoo-dev"),
        ("seq2seq-zoo", "zoo-dev"),
    ]


def test_a_benchmark_can_opt_out_of_trained_victims():
    entries = derived_entries(benchmark_entry(splits={"question": ("train", "dev")}, knn_victims=True, trained_victims=False))
    assert [e.name for e in entries if e.kind == "victim"] == ["knn-zoo"]


def test_no_trained_victim_for_a_split_type_without_train():
    entries = derived_entries(benchmark_entry(splits={"question": ("test",), "query": ("train", "test")}))
    assert [e.name for e in entries if e.kind == "victim"] == ["seq2seq-zoo-query"]


def test_attack_recipe_is_bound_to_the_benchmark():
    entries = derived_entries(benchmark_entry(attack_recipe=True))
    recipe = next(entry for entry in entries if entry.kind == "attack-recipe")
    assert recipe.name == "semparse-zoo" and dict(recipe.options) == {"benchmark": "zoo"}
    assert recipe.target.endswith(":MeaningPreservingAttackHuang2021")


class ZooPlugin:
    @hookimpl
    def semparse_benchmarks(self):
        return {
            "zoo": {
                "target": "json:loads",
                "splits": {"question": ["train", "test"]},
                "knn_victims": True,
                "attack_recipe": True,
                "description": "a zoo",
            }
        }


def test_build_registry_adds_the_derived_names(manager):
    manager.register(ZooPlugin(), name="zoo-plugin")
    registry = build_registry(manager)
    assert registry.names("benchmark") == ["zoo"]
    assert registry.names("dataset") == ["zoo-test", "zoo-train"]
    assert registry.get("victim", "knn-zoo").dataset == "zoo-test"
    assert registry.get("attack-recipe", "semparse-zoo").provider == "zoo-plugin"
    assert registry.get("benchmark", "zoo").splits == {"question": ("train", "test")}


class SwapPlugin:
    @hookimpl
    def semparse_perturbations(self):
        return {
            "acme-swap": {"target": "json:loads", "attack_recipe": {"keep": 4}},
            "acme-every": {"target": "json:loads", "attack_recipe": True},
            "acme-plain": "json:loads",
        }


def test_a_perturbation_with_attack_recipe_brings_its_single_perturbation_recipe(manager):
    manager.register(SwapPlugin(), name="swap-plugin")
    registry = build_registry(manager)
    assert registry.names("attack-recipe") == ["semparse-acme-every", "semparse-acme-swap"]
    swap = registry.get("attack-recipe", "semparse-acme-swap")
    assert dict(swap.options) == {"perturbation_name": "acme-swap", "keep": 4}
    assert swap.target.endswith(":PerturbationAttackHuang2021") and swap.provider == "swap-plugin"
    assert "the 4 most similar by Sentence-BERT" in swap.description
    assert dict(registry.get("attack-recipe", "semparse-acme-every").options) == {"perturbation_name": "acme-every", "keep": None}


def test_a_perturbations_attack_recipe_must_be_a_flag_or_options(manager):
    class Bad:
        @hookimpl
        def semparse_perturbations(self):
            return {"acme-bad": {"target": "json:loads", "attack_recipe": "yes"}}

    manager.register(Bad(), name="bad")
    with pytest.raises(RegistryError, match="'attack_recipe' must be true or false, or a mapping of recipe options"):
        build_registry(manager)


def test_builtin_single_perturbation_recipes_keep_the_papers_candidates():
    """Huang et al. 2021 §3.1 (nf: the most similar masked-LM candidates; back translation: the best bridge
    language) and Zhuo et al. 2023 (20 candidates, the 10 most similar kept)."""
    registry = get_registry()
    keep = {name: registry.get("attack-recipe", f"semparse-{name}").options["keep"]
            for name in ("insertion", "substitution-nf", "backtranslation", "typo", "distraction")}  # fmt: skip
    assert keep == {"insertion": None, "substitution-nf": 10, "backtranslation": 1, "typo": 10, "distraction": None}


def test_derived_name_taken_by_another_plugin_is_a_duplicate(manager):
    class Squatter:
        @hookimpl
        def semparse_datasets(self):
            return {"zoo-test": "json:loads"}

    manager.register(ZooPlugin(), name="zoo-plugin")
    manager.register(Squatter(), name="squatter")
    with pytest.raises(RegistryError, match=r"dataset 'zoo-test' is registered twice.*'squatter'.*'zoo-plugin'"):
        build_registry(manager)


@pytest.mark.parametrize(
    "splits",
    [
        "test",
        {},
        {"question": "test"},
        {"question": []},
        {1: ["test"]},
        ["question", "test"],
    ],
)
def test_bad_splits_spec_is_rejected_with_an_example(manager, splits):
    class Bad:
        @hookimpl
        def semparse_benchmarks(self):
            return {"bad": {"target": "json:loads", "splits": splits}}

    manager.register(Bad(), name="bad-plugin")
    with pytest.raises(
        RegistryError,
        match=r"benchmark 'bad' from plugin 'bad-plugin': 'splits' must map each split type to its split names, "
        r"e\.g\. \{'question': \['train', 'test'\]\}; got ",
    ):
        build_registry(manager)


def test_unknown_benchmark_key_lists_the_accepted_keys(manager):
    class Old:
        @hookimpl
        def semparse_benchmarks(self):
            return {"old": {"target": "json:loads", "metric": "exact", "database": "x.sqlite"}}

    manager.register(Old(), name="old")
    with pytest.raises(
        RegistryError,
        match=r"benchmark 'old' from plugin 'old' has unknown keys \['database', 'metric'\]; accepted: "
        r"attack_recipe, description, knn_victims, options, splits, target, trained_victims\.",
    ):
        build_registry(manager)


def test_benchmark_keys_are_refused_on_other_kinds(manager):
    class Mixed:
        @hookimpl
        def semparse_victims(self):
            return {"v": {"target": "json:loads", "splits": {"question": ["test"]}}}

    manager.register(Mixed(), name="mixed")
    with pytest.raises(RegistryError, match=r"victim 'v' from plugin 'mixed' has unknown keys \['splits'\]; "
                                            r"accepted: dataset, description, options, target\."):
        build_registry(manager)


# The built-in benchmarks' derived names (they replace the hand-written tables of plugin.py).

BUILTIN_KNN_VICTIMS = {
    "knn-geo": "geo-question-test",
    "knn-geo-query": "geo-query-test",
    "knn-atis": "atis-question-test",
    "knn-atis-query": "atis-query-test",
    "knn-scholar": "scholar-question-test",
    "knn-scholar-query": "scholar-query-test",
    "knn-advising": "advising-question-test",
    "knn-advising-query": "advising-query-test",
    "knn-geo-lambda": "geo-lambda-test",
    "knn-jobs-lambda": "jobs-lambda-test",
    "knn-atis-lambda": "atis-lambda-test",
}


def test_builtin_knn_victims_and_their_datasets_are_derived():
    registry = get_registry()
    assert {entry.name: entry.dataset for entry in registry.entries("victim") if entry.name.startswith("knn-")} == (
        BUILTIN_KNN_VICTIMS
    )


def test_every_builtin_victim_defaults_to_a_registered_dataset():
    registry = get_registry()
    for entry in registry.entries("victim"):
        assert entry.dataset in registry.names("dataset"), entry.name


def test_builtin_datasets_are_derived_from_a_registered_benchmark():
    registry = get_registry()
    for entry in registry.entries("dataset"):
        options = entry.options
        assert options["benchmark"] in benchmark_names(), entry.name
        splits = registry.get("benchmark", options["benchmark"]).splits
        if options["split"] is None:  # a released benchmark whole (robut-wtq): named after it
            assert entry.name == options["benchmark"]
            continue
        assert entry.name == dataset_name(options["benchmark"], splits, options["split_type"], options["split"])


def test_builtin_bound_recipes_are_derived_for_flagged_benchmarks():
    registry = get_registry()
    bound = {entry.name for entry in registry.entries("attack-recipe") if entry.options.get("benchmark")}
    flagged = {f"semparse-{entry.name}" for entry in registry.entries("benchmark") if entry.attack_recipe}
    assert bound == flagged
    assert {"semparse-geo", "semparse-spider", "semparse-atis"} <= bound
    assert "semparse-geoquery" not in bound and "semparse-advising" not in bound


def test_spider_has_one_dataset_and_no_knn_victim():
    registry = get_registry()
    spider = [name for name in registry.names("dataset") if name.startswith("spider")]
    # schema-perturbed variants aside; spider-hub reads the Hub's train and validation splits
    assert [name for name in spider if "-schema-" not in name] == ["spider-dev", "spider-hub-dev", "spider-hub-train"]
    assert not any(name.startswith(("knn-spider", "seq2seq-spider")) for name in registry.names("victim"))


BUILTIN_TRAINED_VICTIMS = {
    **{name.replace("knn-", "seq2seq-", 1): dataset for name, dataset in BUILTIN_KNN_VICTIMS.items()},
    "seq2seq-geo-mini": "geo-mini-question-test",
    "seq2seq-geo-mini-query": "geo-mini-query-test",
    "seq2seq-geoquery": "geoquery-question-test",
    "seq2seq-geoquery-query": "geoquery-query-test",
}


def test_builtin_trained_victims_are_derived_for_every_benchmark_with_a_train_split_unless_opted_out():
    registry = get_registry()
    assert {entry.name: entry.dataset for entry in registry.entries("victim") if entry.name.startswith("seq2seq-")} == (
        BUILTIN_TRAINED_VICTIMS
    )
    with_train = {
        entry.name
        for entry in registry.entries("benchmark")
        if entry.trained_victims and any("train" in names for names in entry.splits.values())
    }
    assert {"wtq", "wikisql-weak", "sqa"} <= {entry.name for entry in registry.entries("benchmark")} - with_train
    assert {registry.get("victim", name).options["benchmark"] for name in BUILTIN_TRAINED_VICTIMS} == with_train


def test_real_data_benchmark_descriptions_say_they_need_the_data():
    for entry in get_registry().entries("benchmark"):
        if entry.name.endswith("-hub"):
            assert "Hugging Face Hub" in entry.description, entry.name
        elif entry.name not in ("geo", "geo-mini"):
            assert "SEMPARSE_DATA_DIR" in entry.description, entry.name


@pytest.mark.real_data
@pytest.mark.parametrize(
    ("name", "benchmark", "size", "columns"),
    [
        ("atis-query-test", "atis", 347, ("question",)),
        ("atis-question-test", "atis", 447, ("question",)),
        ("scholar-query-test", "scholar", 315, ("question",)),
        ("advising-query-test", "advising", 1832, ("question",)),
        ("spider-dev", "spider", 1034, ("question", "db_id")),
        ("geo-lambda-test", "geo-lambda", 280, ("question",)),
        ("jobs-lambda-test", "jobs-lambda", 140, ("question",)),
        ("atis-lambda-test", "atis-lambda", 448, ("question",)),
    ],
)
def test_registered_real_datasets_load(
    real_data_dir: Path, monkeypatch: pytest.MonkeyPatch, name: str, benchmark: str, size: int, columns: tuple[str, ...]
) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", str(real_data_dir))
    clear_benchmark_cache()
    dataset = get_registry().get("dataset", name).create()
    assert len(dataset) == size and dataset.input_columns == columns
    assert dataset.benchmark.name == benchmark


def test_benchmark_flags_must_be_booleans():
    from textattack_semparse.errors import RegistryError
    from textattack_semparse.registry import _entry_from_spec

    with pytest.raises(RegistryError, match=r"benchmark 'zoo' from plugin 'acme': 'knn_victims' must be true or false, got 'yes'"):
        _entry_from_spec("benchmark", "zoo", {"target": "acme.zoo:load", "knn_victims": "yes"}, "acme")


class WrapperFamilyPlugin:
    """A perturbation family: ``wrap:<inner>[:KEY=VALUE...]`` makes ``dict(inner=..., **options)``."""

    @hookimpl
    def semparse_perturbations(self):
        return {
            "wrap": {
                "target": "builtins:dict",
                "argument": "inner",
                "options": {"seed": 0},
                "attack_recipe": {"keep": 3},
                "description": "a dict standing in for a family of perturbations",
            }
        }


def test_a_family_member_passes_its_argument_and_literal_options(manager):
    manager.register(WrapperFamilyPlugin(), name="wrapper")
    member = build_registry(manager).get("perturbation", "wrap:Inner:rate=0.5:words=['a', 'b']:path=/tmp/x")
    assert member.name == "wrap:Inner:rate=0.5:words=['a', 'b']:path=/tmp/x"
    assert member.create() == {"seed": 0, "inner": "Inner", "rate": 0.5, "words": ["a", "b"], "path": "/tmp/x"}


def test_a_family_is_listed_apart_from_the_plain_names(manager):
    manager.register(WrapperFamilyPlugin(), name="wrapper")
    registry = build_registry(manager)
    assert "wrap" not in registry.names("perturbation")
    assert ("perturbation", "wrap:Inner") in registry and ("attack-recipe", "semparse-wrap:Inner") in registry
    assert ("perturbation", "wrap") not in registry and ("perturbation", "other:Inner") not in registry
    assert [family.display_name for family in registry.families("perturbation")] == ["wrap:<inner>"]
    assert [family.display_name for family in registry.families("attack-recipe")] == ["semparse-wrap:<inner>"]


def test_a_family_derives_the_recipe_family_of_its_members(manager):
    manager.register(WrapperFamilyPlugin(), name="wrapper")
    recipe = build_registry(manager).get("attack-recipe", "semparse-wrap:Inner:rate=0.5")
    assert dict(recipe.options) == {"keep": 3, "perturbation_name": "wrap:Inner:rate=0.5"}
    assert recipe.target.endswith("perturbation_attack_huang_2021:PerturbationAttackHuang2021")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("wrap:", "names no member of family 'wrap': write wrap:<inner>"),
        ("wrap:Inner:rate", "'rate' is not KEY=VALUE; write wrap:Inner:KEY=VALUE"),
        ("wrap:Inner:2x=1", "'2x=1' is not KEY=VALUE"),
        ("wrp:Inner", "Did you mean 'wrap'?"),
    ],
)
def test_a_bad_member_name_is_one_line_naming_the_fix(manager, name, message):
    manager.register(WrapperFamilyPlugin(), name="wrapper")
    with pytest.raises(RegistryError, match=re.escape(message)) as raised:
        build_registry(manager).get("perturbation", name)
    assert "\n" not in str(raised.value)


def test_an_unknown_name_lists_the_families_with_their_argument(manager):
    manager.register(WrapperFamilyPlugin(), name="wrapper")
    with pytest.raises(RegistryError, match=re.escape("Registered: wrap:<inner>.")):
        build_registry(manager).get("perturbation", "nothing")


def test_a_family_name_taken_by_a_plain_entry_is_a_duplicate(manager):
    class Rival:
        @hookimpl
        def semparse_perturbations(self):
            return {"wrap": "builtins:dict"}

    manager.register(WrapperFamilyPlugin(), name="wrapper")
    manager.register(Rival(), name="rival")
    with pytest.raises(RegistryError, match="registered twice"):
        build_registry(manager)


def test_a_registered_name_may_not_contain_the_member_separator(manager):
    class Colon:
        @hookimpl
        def semparse_perturbations(self):
            return {"a:b": "builtins:dict"}

    manager.register(Colon(), name="colon")
    with pytest.raises(RegistryError, match="may not contain ':'"):
        build_registry(manager)


def test_a_family_argument_must_name_a_keyword(manager):
    class Bad:
        @hookimpl
        def semparse_perturbations(self):
            return {"bad": {"target": "builtins:dict", "argument": "not a keyword"}}

    manager.register(Bad(), name="bad")
    with pytest.raises(RegistryError, match="'argument' must name a keyword"):
        build_registry(manager)


def test_builtin_nlpaug_family_and_its_recipes_are_registered():
    registry = get_registry()
    assert [family.name for family in registry.families("perturbation")] == ["nlpaug"]
    member = registry.get("perturbation", "nlpaug:KeyboardAug:aug_char_max=2")
    assert dict(member.options) == {"seed": 0, "augmenter": "KeyboardAug", "aug_char_max": 2}
    recipe = registry.get("attack-recipe", "semparse-nlpaug:KeyboardAug")
    assert dict(recipe.options) == {"keep": 10, "perturbation_name": "nlpaug:KeyboardAug"}
