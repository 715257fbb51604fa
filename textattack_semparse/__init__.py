"""textattack-semparse: meaning-preserving attacks on semantic parsers, as a TextAttack plugin.

Importing this package is cheap: it loads neither torch, transformers nor textattack.
Components live in the subpackages (``transformations``, ``constraints``,
``goal_functions``, ``recipes``, ``victims``, ``datasets``, ``sql``, ``metrics``).
"""

from __future__ import annotations

import pluggy

__version__ = "0.1.0"

hookimpl = pluggy.HookimplMarker("textattack_semparse")
"""Marker for plugin hook implementations (see :mod:`textattack_semparse.hookspecs`)."""

__all__ = ["__version__", "hookimpl"]
