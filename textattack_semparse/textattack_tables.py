"""The names in TextAttack's recipe and model tables, read without importing TextAttack.

Importing TextAttack takes about 8 s (it imports flair, transformers and torch), and a command
given a misspelt ``--recipe`` or ``--model`` should say so at once. TextAttack keeps these tables
as dict literals (``ATTACK_RECIPE_NAMES`` in ``textattack/attack_args.py``, ``HUGGINGFACE_MODELS``
and ``TEXTATTACK_MODELS`` in ``textattack/model_args.py``); their keys are read from the installed
files with :mod:`ast`. Should a table not be such a literal (another TextAttack release), it is
imported instead. A name found here is loaded from TextAttack's module as before.
"""

from __future__ import annotations

import ast
import functools
import importlib
import importlib.util
from pathlib import Path

RECIPES = ("attack_args", "ATTACK_RECIPE_NAMES")
"""TextAttack's attack recipes: name -> class path."""
MODELS = (("model_args", "HUGGINGFACE_MODELS"), ("model_args", "TEXTATTACK_MODELS"))
"""TextAttack's model names: hub models and its own fine-tuned ones."""


@functools.cache
def table_names(module: str, table: str) -> frozenset[str]:
    """The keys of the dict ``table`` of ``textattack.<module>``, from its source when the table is a
    literal there, else from the imported module.

    Example:
        >>> {"textfooler", "pwws"} <= table_names(*RECIPES)
        True
    """
    names = _literal_keys(module, table)
    if names is None:
        names = frozenset(getattr(importlib.import_module(f"textattack.{module}"), table))
    return names


def is_textattack_recipe(name: str) -> bool:
    """Whether ``name`` is one of TextAttack's own attack recipes (``textfooler``)."""
    return name in table_names(*RECIPES)


def is_textattack_model(name: str) -> bool:
    """Whether ``name`` is in TextAttack's model tables (``bert-base-uncased-imdb``)."""
    return any(name in table_names(*table) for table in MODELS)


def _literal_keys(module: str, table: str) -> frozenset[str] | None:
    """The string keys of the top-level ``table = {...}`` of TextAttack's ``module`` source, or ``None``."""
    spec = importlib.util.find_spec("textattack")  # finds the package without running it
    if spec is None or not spec.submodule_search_locations:
        return None
    try:
        tree = ast.parse(Path(list(spec.submodule_search_locations)[0], f"{module}.py").read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(target, ast.Name) and target.id == table for target in node.targets):
            if not isinstance(node.value, ast.Dict):
                return None
            keys = [key.value if isinstance(key, ast.Constant) else None for key in node.value.keys]
            return frozenset(keys) if all(isinstance(key, str) for key in keys) else None  # type: ignore[arg-type]
    return None
