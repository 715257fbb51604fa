"""TextAttack's recipe and model names, read from its source without importing it, are the names
its imported tables hold (the plugin adds its own names to those tables when TextAttack loads)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from textattack_semparse import textattack_tables
from textattack_semparse.registry import get_registry
from textattack_semparse.textattack_tables import MODELS, RECIPES, is_textattack_model, is_textattack_recipe


def test_the_names_read_from_the_source_are_the_imported_tables_names():
    from textattack import attack_args, model_args

    modules = {"attack_args": attack_args, "model_args": model_args}
    plugin_names = {*get_registry().names("attack-recipe"), *get_registry().names("victim")}
    for module, table in (RECIPES, *MODELS):
        read = textattack_tables._literal_keys(module, table)
        assert read, f"textattack.{module}.{table} was not read from its source"
        assert read == set(getattr(modules[module], table)) - plugin_names


def test_names_are_told_without_importing_textattack():
    script = (
        "import sys; from textattack_semparse.textattack_tables import is_textattack_model, is_textattack_recipe; "
        "print(is_textattack_recipe('textfooler'), is_textattack_recipe('textfoolr'), "
        "is_textattack_model('bert-base-uncased-imdb'), 'textattack' in sys.modules)"
    )
    output = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=120).stdout
    assert output.split() == ["True", "False", "True", "False"]


def test_a_table_that_is_no_literal_is_imported(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(textattack_tables, "_literal_keys", lambda module, table: None)
    textattack_tables.table_names.cache_clear()
    try:
        assert is_textattack_recipe("pwws") and not is_textattack_recipe("pwwz")
        assert is_textattack_model("lstm-imdb")
    finally:
        textattack_tables.table_names.cache_clear()
