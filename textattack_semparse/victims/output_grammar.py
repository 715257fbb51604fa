"""The grammar of a parser's training outputs: which atoms head an expression (with how many
arguments), which are arguments and which stand alone.
:class:`~textattack_semparse.victims.well_formed_decoding.WellFormedDecoding` keeps generation to it.

``textattack-semparse train`` saves it beside a model trained on logical forms (:data:`GRAMMAR_FILE`).

This module does not import TextAttack.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.datasets.logical_form import SExpression, read_s_expression

GRAMMAR_FILE = "semparse_output_grammar.json"
"""Saved beside a model trained on logical forms; read by ``Seq2SeqParser``."""

OPEN, CLOSE = "(", ")"


@dataclass(frozen=True)
class OutputGrammar:
    """What well-formed outputs look like, as the training outputs show it.

    Args:
        arities (Mapping[str, tuple[int, int]]): Head atom -> fewest and most arguments it took.
        arguments (frozenset[str]): Atoms seen as arguments (constants, variables, placeholders).
        roots (frozenset[str]): Atoms seen as a whole output (ATIS' ``ci0``).

    Example:
        >>> grammar = OutputGrammar.fit(["(size:<lo,i> s0)", "(capital:<s,c> s0)", "(lambda $0:e (state:<s,t> $0))"])
        >>> grammar.arities["lambda"], sorted(grammar.arguments)
        ((2, 2), ['$0', '$0:e', 's0'])
        >>> OutputGrammar.fit(["SELECT city FROM city"]) is None
        True
    """

    arities: Mapping[str, tuple[int, int]]
    arguments: frozenset[str]
    roots: frozenset[str]

    @classmethod
    def fit(cls, outputs: Iterable[str]) -> OutputGrammar | None:
        """The grammar of ``outputs``; ``None`` unless every one is a single s-expression or atom
        (SQL, say, is not)."""
        counts: dict[str, list[int]] = {}
        arguments: set[str] = set()
        roots: set[str] = set()
        seen = False
        for output in outputs:
            expression = read_s_expression(output)
            if isinstance(expression, str):
                roots.add(expression)
            elif expression is None or not _record(expression, counts, arguments):
                return None
            seen = True
        if not seen:
            return None
        return cls({head: (min(found), max(found)) for head, found in sorted(counts.items())}, frozenset(arguments), frozenset(roots))

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write :data:`GRAMMAR_FILE` into ``directory``."""
        path = Path(directory) / GRAMMAR_FILE
        data = {
            "arities": {head: list(bounds) for head, bounds in self.arities.items()},
            "arguments": sorted(self.arguments),
            "roots": sorted(self.roots),
        }
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> OutputGrammar | None:
        """The grammar saved in ``directory``; ``None`` when there is none."""
        path = Path(directory) / GRAMMAR_FILE
        if not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            {head: (int(low), int(high)) for head, (low, high) in data["arities"].items()},
            frozenset(data["arguments"]),
            frozenset(data["roots"]),
        )


def _record(expression: SExpression, counts: dict[str, list[int]], arguments: set[str]) -> bool:
    """Add the argument count of each list's head and the atoms in argument position of
    ``expression`` (a list); False when a list is empty or starts with a list."""
    if not expression or not isinstance(expression[0], str):
        return False
    counts.setdefault(expression[0], []).append(len(expression) - 1)
    for item in expression[1:]:
        if isinstance(item, str):
            arguments.add(item)
        elif not _record(item, counts, arguments):
            return False
    return True
