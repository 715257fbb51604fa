"""Registers textattack-semparse with TextAttack right after ``textattack`` is imported.

Installed by ``textattack_semparse_autoload.pth``, which site runs at start-up. This module
imports only modules Python has already loaded, so processes that never import textattack pay
microseconds. Importing ``textattack`` runs :func:`textattack_semparse._textattack_shim.before_import`
(offline NLTK stopwords) and, once TextAttack's package has executed,
:func:`textattack_semparse._textattack_shim.after_import` (fills TextAttack's name tables).

Setting ``TEXTATTACK_SEMPARSE_DISABLE_IMPORT_HOOK`` to a non-empty value leaves the hook out
of the process (and of its children that inherit the variable): ``textattack`` then runs as if
the plugin were not installed (``bench/autoload_cost.py`` times ``textattack --help`` both ways).
Without the hook, ``import textattack`` needs NLTK's English stopwords on NLTK's own path.
"""

import os
import sys

# Duck-typed finder and loader: importing importlib.abc would cost ~20 ms at every start-up.

_TARGET = "textattack"
DISABLE_ENV = "TEXTATTACK_SEMPARSE_DISABLE_IMPORT_HOOK"

_AFTER_IMPORT = {}
"""Module name -> callbacks to run, once, right after the module executes (see :func:`after_import`)."""


class _RegisteringLoader:
    """Wraps a module's own loader; runs the plugin's set-up around TextAttack and the
    :func:`after_import` callbacks of the module."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        if module.__name__ == _TARGET:
            from textattack_semparse import _textattack_shim

            _textattack_shim.before_import()
            self._loader.exec_module(module)
            _textattack_shim.after_import(module)
        else:
            self._loader.exec_module(module)
        for callback in _AFTER_IMPORT.pop(module.__name__, ()):
            callback(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


class TextAttackImportHook:
    """Finds ``textattack`` (and modules with :func:`after_import` callbacks) with the finders
    after it and wraps the loader they return."""

    textattack_semparse_hook = True

    def find_spec(self, fullname, path=None, target=None):
        if fullname != _TARGET and fullname not in _AFTER_IMPORT:
            return None
        later_finders = sys.meta_path[sys.meta_path.index(self) + 1 :]
        for finder in later_finders:
            find_spec = getattr(finder, "find_spec", None)
            spec = find_spec(fullname, path, target) if find_spec else None
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _RegisteringLoader(spec.loader)
                return spec
        return None


def install():
    """Put the hook first on ``sys.meta_path``; a second call does nothing."""
    if any(getattr(finder, "textattack_semparse_hook", False) for finder in sys.meta_path):
        return
    sys.meta_path.insert(0, TextAttackImportHook())


def after_import(name, callback):
    """Call ``callback(module)`` once module ``name`` has executed: now if it is loaded, else
    right after it is imported (installing the hook if it is not)."""
    module = sys.modules.get(name)
    if module is not None:
        callback(module)
        return
    _AFTER_IMPORT.setdefault(name, []).append(callback)
    install()


if not os.environ.get(DISABLE_ENV):
    install()
