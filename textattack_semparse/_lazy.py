"""Lazy public names for subpackages, as sqlglot's dialects do.

``from textattack_semparse.transformations import FunctionWordInsertion`` imports only the
module that defines the class, on first access; importing the subpackage imports nothing.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``, mapping each public name to its module.

    Example:
        >>> getattr_, dir_ = lazy_exports("json", {"JSONDecoder": "decoder"})
        >>> getattr_("JSONDecoder").__name__, dir_()
        ('JSONDecoder', ['JSONDecoder'])
    """

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(f"{package}.{module}"), name)

    def __dir__() -> list[str]:
        return sorted(exports)

    return __getattr__, __dir__
