"""Where the project's documentation lives, from the installed package's metadata (``[project.urls]``
of ``pyproject.toml``), so help texts and errors link to pages a wheel user can open."""

from __future__ import annotations

import functools
from importlib import metadata

DISTRIBUTION = "textattack-semparse"
DOCUMENTATION_LABEL = "Documentation"


@functools.cache
def documentation_url() -> str:
    """The ``Documentation`` URL of the installed distribution; ``docs`` (the folder of a source
    checkout) when the package is not installed.

    Example:
        >>> documentation_url().endswith("docs")
        True
    """
    try:
        urls = metadata.metadata(DISTRIBUTION).get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return "docs"
    for entry in urls:
        label, _, url = entry.partition(",")
        if label.strip() == DOCUMENTATION_LABEL:
            return url.strip().rstrip("/")
    return "docs"


def docs_url(page: str) -> str:
    """The link to a documentation page, e.g. ``docs_url("attack.md")``.

    Example:
        >>> docs_url("attack.md").endswith("docs/attack.md")
        True
    """
    return f"{documentation_url()}/{page}"
