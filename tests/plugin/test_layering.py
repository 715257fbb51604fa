"""The package is layered: a module imports only from its own layer or the layers below.

Type-only imports (under ``TYPE_CHECKING``) are exempt; imports inside functions are not. A
subpackage has its package's layer (``victims/llm`` is ``victims``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import textattack_semparse

PACKAGE = Path(textattack_semparse.__file__).parent
LAYERS = (
    {"__init__", "errors", "_lazy", "cache", "torch_device", "attack_attrs", "hookspecs", "registry", "arguments", "project", "runs"},
    {"sql", "linguistics", "offline", "resources", "tables", "textattack_tables"},
    {"scoring", "datasets", "test_suites"},
    {"transformations"},
    {"constraints", "victims", "perturbations", "judges"},
    {"search_methods", "goal_functions"},
    {"metrics", "augmentation"},
    {"recipes", "robustness", "training"},
    {"llm"},
    {"report", "validation", "exports"},
    {"experiments"},
    {"commands", "cli", "_textattack_shim", "plugin"},
)
LAYER = {name: level for level, names in enumerate(LAYERS) for name in names}



def _top(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _runtime_imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    type_only = {
        id(child)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for child in ast.walk(node)
    }
    return [
        (node.lineno, node.module)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        and id(node) not in type_only
        and node.module
        and node.module.split(".")[0] == "textattack_semparse"
    ]


def test_every_top_level_module_has_a_layer():
    names = {path.stem if path.is_file() else path.name for path in PACKAGE.iterdir()}
    modules = {name for name in names if (PACKAGE / f"{name}.py").is_file() or (PACKAGE / name / "__init__.py").is_file()}
    assert modules - set(LAYER) == set()


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda path: str(path.relative_to(PACKAGE)))
def test_no_import_reaches_a_higher_layer(path):
    own = path.relative_to(PACKAGE).parts[0].removesuffix(".py")
    upward = [
        f"line {line}: {module}"
        for line, module in _runtime_imports(path)
        if LAYER[_top(module)] > LAYER[own]
    ]
    assert not upward, f"{own} (layer {LAYER[own]}) imports from a higher layer: {upward}"
