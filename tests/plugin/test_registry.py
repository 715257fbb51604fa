"""The registry and its pluggy host: fresh plugin managers with inline plugins."""

from __future__ import annotations

import pluggy
import pytest

from textattack_semparse import hookimpl, hookspecs
from textattack_semparse.errors import RegistryError
from textattack_semparse.registry import (
    Entry,
    Registry,
    attack_recipe_class,
    build_registry,
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
