"""Fenced code blocks of the Markdown documentation, and how the docs tests treat each one.

Classification (by the fence's info string, nothing else):

* ``python``: a Python example, executed as a script.
* ``bash`` / ``sh`` / ``console`` / ``shell``: shell commands, executed with ``bash -euo pipefail``.
* ``text``, ``json``, ``toml``, ``yaml``, ``sql``, ``ini``: listings (output, file layouts, usage
  synopses, configuration), never run.
* A fence without an info string is an error: every block must say which of the above it is.

A runnable block is skipped only when the nearest non-blank line above its opening fence is
``<!-- docs-test: skip (reason) -->``; ``<!-- docs-test: slow -->`` marks a block that runs but
takes longer than about 20 s (it gets ``@pytest.mark.slow``). The markers are HTML comments, so
they do not render.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

PYTHON_LANGUAGES = frozenset({"python"})
SHELL_LANGUAGES = frozenset({"bash", "sh", "console", "shell"})
LISTING_LANGUAGES = frozenset({"text", "json", "toml", "yaml", "sql", "ini"})

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^`]*)$")
_HEADING = re.compile(r"^#{1,6}\s+(?P<title>.+?)\s*#*\s*$")
_MARKER = re.compile(r"^\s*<!--\s*docs-test:\s*(?P<kind>skip|slow)\s*(?:\((?P<reason>.*)\))?\s*-->\s*$")


@dataclass(frozen=True)
class CodeBlock:
    """One fenced block: where it is, its language, its dedented text and its docs-test marker."""

    path: Path
    line: int  # 1-based line of the opening fence
    language: str  # first word of the info string, lowercased; "" when absent
    code: str
    marker: str | None = None  # "skip" or "slow"
    reason: str | None = None  # the skip reason
    section: str = ""  # the nearest Markdown heading above the block

    @property
    def relative_path(self) -> str:
        return self.path.relative_to(REPO_ROOT).as_posix()

    @property
    def id(self) -> str:
        return f"{self.relative_path}:{self.line}"

    @property
    def kind(self) -> str:
        """``python``, ``shell``, ``listing`` or ``unknown``."""
        if self.language in PYTHON_LANGUAGES:
            return "python"
        if self.language in SHELL_LANGUAGES:
            return "shell"
        if self.language in LISTING_LANGUAGES:
            return "listing"
        return "unknown"

    @property
    def runnable(self) -> bool:
        return self.kind in ("python", "shell")

    def shell_script(self) -> str:
        """The block as a bash script; ``$ `` prompts of ``console`` blocks are dropped."""
        if self.language != "console":
            return self.code
        lines = [line[2:] for line in self.code.splitlines() if line.startswith("$ ")]
        return "\n".join(lines) + "\n"


def documentation_files() -> list[Path]:
    """README.md and every ``docs/*.md``, in a stable order."""
    return [REPO_ROOT / "README.md", *sorted((REPO_ROOT / "docs").glob("*.md"))]


def code_blocks(path: Path) -> list[CodeBlock]:
    """Every fenced code block of ``path``, with the marker right above it (if any)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks: list[CodeBlock] = []
    section = ""
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if not opening:
            if heading := _HEADING.match(lines[index]):
                section = heading["title"].strip()
            index += 1
            continue
        indent, fence, info = opening["indent"], opening["fence"], opening["info"].strip()
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
        end = index + 1
        while end < len(lines) and not closing.match(lines[end]):
            end += 1
        if end == len(lines):
            raise ValueError(f"{path}:{index + 1}: code block is never closed")
        body = [line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[index + 1 : end]]
        marker = reason = None
        previous = index - 1
        while previous >= 0 and not lines[previous].strip():
            previous -= 1
        if previous >= 0 and (found := _MARKER.match(lines[previous])):
            marker, reason = found["kind"], (found["reason"] or "").strip() or None
        blocks.append(
            CodeBlock(
                path=path,
                line=index + 1,
                language=info.split()[0].lower() if info else "",
                code=textwrap.dedent("\n".join(body)) + "\n",
                marker=marker,
                reason=reason,
                section=section,
            )
        )
        index = end + 1
    return blocks


def all_code_blocks() -> list[CodeBlock]:
    return [block for path in documentation_files() for block in code_blocks(path)]
