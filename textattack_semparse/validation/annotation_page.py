"""The annotation page (``annotate.html``): one self-contained HTML file an annotator opens in any
browser, offline, to judge the exported items.

Everything is inline (style, script, the items as JSON): nothing is fetched, so the page works
from an e-mail attachment or a USB stick. It asks the annotator's name, shows one item at a time
with the task's options (same-meaning: Huang et al.'s *same meaning* / *different meaning* /
*not sure* on keys ``s`` / ``d`` / ``u``; best-of-k: the candidates on keys ``1``-``9`` (``0``:
the tenth) and *none keeps the meaning* on ``n``), goes back with ``b`` or Backspace, and counts
the items judged. Every answer is kept in the browser's ``localStorage`` under the export's item
set, so a reload or a closed tab loses nothing. A button downloads ``judgments-<annotator>.csv``
with the rows ``item_id,annotator,label`` that ``validate import`` reads.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib import resources

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup

from textattack_semparse.validation.validation_items import SAME_MEANING, ValidationItem

TITLES = {SAME_MEANING: "Does the rewrite ask the same question?", "best-of-k": "Which rewrite keeps the question?"}


def annotation_page(items: Sequence[ValidationItem], task: str, item_set: str) -> str:
    """The page for ``items`` of ``task``; ``item_set`` keys its stored answers.

    Example:
        >>> from textattack_semparse.validation.validation_items import Candidate, ValidationItem
        >>> item = ValidationItem("a1", "rivers in texas", (Candidate("1", "the rivers in texas", ()),))
        >>> page = annotation_page([item], "same-meaning", "set1")
        >>> "the rivers in texas" in page and "<script src" not in page
        True
    """
    data = {"task": task, "item_set": item_set, "items": [item.shown(task) for item in items]}
    environment = Environment(
        loader=PackageLoader("textattack_semparse.validation", "templates"),
        autoescape=select_autoescape(enabled_extensions=("html.j2",), default=False),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    return environment.get_template("annotate.html.j2").render(
        title=TITLES[task],
        task=task,
        style=Markup(_asset("annotate.css")),
        script=Markup(_asset("annotate.js")),
        data=Markup(_script_json(data)),
    )


def _asset(name: str) -> str:
    return (resources.files("textattack_semparse.validation") / "templates" / name).read_text(encoding="utf-8")


def _script_json(data: object) -> str:
    """``data`` as JSON that cannot end the ``<script>`` element it sits in."""
    return json.dumps(data, ensure_ascii=False).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
