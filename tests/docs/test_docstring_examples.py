"""Modules documented by their docstring examples keep having some.

``--doctest-modules`` (``addopts`` in ``pyproject.toml``) runs every docstring example of the
package, but a module whose examples were deleted simply yields no doctest; these modules' tests
used to assert, while running the examples a second time, that some were attempted.
"""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES_WITH_EXAMPLES = (
    "textattack_semparse.sql.denotation",
    "textattack_semparse.sql.execution",
    "textattack_semparse.sql.execution_result",
    "textattack_semparse.sql.mysql_dump",
    "textattack_semparse.sql.sql_tokens",
    "textattack_semparse.sql.sqlite_executor",
    "textattack_semparse.sql.suite_preparation",
    "textattack_semparse.transformations.grammar.error_model",
    "textattack_semparse.transformations.grammar.grammar_error_combined",
    "textattack_semparse.transformations.grammar.grammar_error_nn",
    "textattack_semparse.transformations.grammar.grammar_error_sva",
    "textattack_semparse.transformations.grammar.grammar_error_worder",
)


@pytest.mark.parametrize("name", MODULES_WITH_EXAMPLES)
def test_module_has_docstring_examples(name: str) -> None:
    tests = doctest.DocTestFinder().find(importlib.import_module(name))
    assert sum(len(test.examples) for test in tests) > 0, f"{name} lost its docstring examples"
