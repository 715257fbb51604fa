"""Package conventions: one public class per component module, repr shows the configuration."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

import pytest

import textattack_semparse

PACKAGE = Path(textattack_semparse.__file__).parent
COMPONENT_PACKAGES = (
    "transformations",
    "transformations.grammar",
    "transformations.table",
    "constraints",
    "goal_functions",
    "search_methods",
    "victims",
    "recipes.attack",
    "recipes.augment",
)


def _component_modules():
    for package in COMPONENT_PACKAGES:
        for path in sorted((PACKAGE / package.replace(".", "/")).glob("*.py")):
            if path.name != "__init__.py":
                yield package, path


@pytest.mark.parametrize(("package", "path"), list(_component_modules()), ids=lambda value: getattr(value, "stem", value))
def test_component_module_defines_at_most_one_public_class_named_like_it(package, path):
    classes = [node.name for node in ast.parse(path.read_text()).body if isinstance(node, ast.ClassDef) and not node.name.startswith("_")]
    assert len(classes) <= 1, classes
    if classes:
        assert classes[0].lower() == path.stem.replace("_", "").lower()
        exported = importlib.import_module(f"textattack_semparse.{package}")
        assert getattr(exported, classes[0]).__module__ == f"textattack_semparse.{package}.{path.stem}"


def _default_constructible_components():
    from textattack.constraints import Constraint
    from textattack.transformations import Transformation

    for package in ("transformations", "transformations.grammar", "transformations.table", "constraints"):
        module = importlib.import_module(f"textattack_semparse.{package}")
        for name in dir(module):
            cls = getattr(module, name)
            if not (inspect.isclass(cls) and issubclass(cls, (Transformation, Constraint))) or inspect.isabstract(cls):
                continue
            parameters = inspect.signature(cls.__init__).parameters.values()
            required = [p for p in parameters if p.name != "self" and p.default is p.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
            if not required:
                yield cls


@pytest.mark.parametrize("cls", list(_default_constructible_components()), ids=lambda cls: cls.__name__)
def test_repr_lists_every_constructor_parameter(cls):
    text = repr(cls())
    parameters = [
        p.name for p in inspect.signature(cls.__init__).parameters.values()
        if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    missing = [name for name in parameters if f"({name})" not in text]
    assert not missing, f"{cls.__name__} repr lacks {missing}: {text}"
