"""A per-``db_id`` database root assembled from SQLite files that live anywhere.

:class:`~textattack_semparse.scoring.databases.Databases` finds an example's database as
``<root>/<db_id>/<db_id>.sqlite``. Benchmarks whose databases do not sit in one such folder
(cached schema-perturbed copies; Dr.Spider's sets, whose pre- and post-perturbation databases
share names) get a cached root that links each file under the key its examples carry.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Mapping
from pathlib import Path

from textattack_semparse.cache import cache_dir


def linked_database_root(paths: Mapping[str, Path], *, under: str) -> Path:
    """A cached folder laid out as ``<key>/<key>.sqlite``, linking each of ``paths`` (key -> file).

    The folder is ``cache_dir() / under / <digest of the keys and paths>``: the same files give
    the same folder, reused; a link that already exists is kept. Where symbolic links cannot be
    made the file is copied.

    Args:
        paths (Mapping[str, Path]): Database key (a ``db_id``, a folder name) -> SQLite file.
        under (str): Folder of the cache the roots go to (``"schema_perturbations/roots"``).
    """
    digest = hashlib.sha256(repr(sorted((key, str(path)) for key, path in paths.items())).encode()).hexdigest()[:16]
    root = cache_dir() / under / digest
    for key, path in paths.items():
        target = root / key / f"{key}.sqlite"
        if target.is_file():
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.symlink(path, target)
        except OSError:
            shutil.copyfile(path, target)
    return root
