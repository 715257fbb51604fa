"""Registers textattack-semparse with TextAttack right after ``textattack`` is imported.

Installed by ``textattack_semparse_autoload.pth``, which site runs at start-up. This module
imports only the standard library, so processes that never import textattack pay
microseconds. Importing ``textattack`` runs :func:`textattack_semparse._textattack_shim.before_import`
(offline NLTK stopwords) and, once TextAttack's package has executed,
:func:`textattack_semparse._textattack_shim.after_import` (fills TextAttack's name tables).
"""

import sys

# Duck-typed finder and loader: importing importlib.abc would cost ~20 ms at every start-up.

_TARGET = "textattack"


class _RegisteringLoader:
    """Wraps TextAttack's own loader and runs the plugin's set-up around it."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        from textattack_semparse import _textattack_shim

        _textattack_shim.before_import()
        self._loader.exec_module(module)
        _textattack_shim.after_import(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


class TextAttackImportHook:
    """Finds ``textattack`` with the finders after it and wraps the loader they return."""

    textattack_semparse_hook = True

    def find_spec(self, fullname, path=None, target=None):
        if fullname != _TARGET:
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


install()
