"""The grammar of a parser's training outputs: which atoms head an expression (with how many
arguments), which are arguments and which stand alone.
:class:`~textattack_semparse.victims.well_formed_decoding.WellFormedDecoding` keeps generation to it.

``textattack-semparse train`` saves it beside a model trained on logical forms (:data:`GRAMMAR_FILE`).

This module does not import TextAttack.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from textattack_semparse.datasets.logical_form import SExpression, bound_variable, distinct_conjuncts, read_s_expression
from textattack_semparse.datasets.logical_form_types import argument_types, variable_name

GRAMMAR_FILE = "semparse_output_grammar.json"
"""Saved beside a model trained on logical forms; read by ``Seq2SeqParser``."""

OPEN, CLOSE = "(", ")"

GRAMMAR_REVISION = 4
"""Raised when what :meth:`OutputGrammar.fit` learns changes (2: implied atoms, used binders, distinct constants;
3: distinct variables in a list; 4: argument types):
part of a cached trained victim's key, so a victim saved with an older grammar is trained again."""

IMPLICATION_SUPPORT = 5
"""Training questions a word must be in before it implies an atom (:attr:`OutputGrammar.implied`)."""


@dataclass(frozen=True)
class OutputGrammar:
    """What well-formed outputs look like, as the training outputs show it.

    Args:
        arities (Mapping[str, tuple[int, int]]): Head atom -> fewest and most arguments it took.
        arguments (frozenset[str]): Atoms seen as arguments (constants, variables, placeholders).
        roots (frozenset[str]): Atoms seen as a whole output (ATIS' ``ci0``).
        binders (frozenset[str], default empty): Heads that bind the variable written first in
            their lists (``lambda`` in ``(lambda $0:e ...)``, JOBS' ``exists_``; the heads
            :func:`~textattack_semparse.datasets.logical_form.bound_variable` knows), when every
            variable of every training output is bound by an enclosing one and each head binds in
            all its lists or none: a variable (``$1``, ``$0:e``; its name is what precedes ``:``)
            may then be used only inside a list that binds it. Empty otherwise.
        distinct_conjuncts (bool, default False): No training output repeats an argument of
            ``and``/``or`` (JOBS' training outputs; one GEO and sixteen ATIS training outputs
            do): a conjunct the model writes twice is then written once (A and A is A).
        copied (frozenset[str], default empty): Atoms every training output wrote only when its
            question had the same word: the placeholders of an anonymised question (``language0``,
            ATIS' ``ci0``) and the like. A parser writes one only when its question has it (an
            output naming a value the question does not have cannot be right).
        implied (Mapping[str, frozenset[str]], default empty): Question word -> the atoms every
            training output of a question with that word has, for words of at least
            :data:`IMPLICATION_SUPPORT` training questions; atoms in more than half the outputs
            (``lambda``, ``and``) imply nothing and are left out. GEO's "major" implies
            ``major:<lo,t>`` (41 of 41 training questions), "bordering" ``next_to:<lo,<lo,t>>``.
            An output without an atom its question implies is looked at again (:meth:`admits`).
        binders_used (bool, default False): Every variable a training output binds is used in
            the list that binds it (GEO's, JOBS' and ATIS' outputs): an output that binds a
            variable and never uses it (``(lambda $2:e (next_to:<lo,<lo,t>> $1 $1))``) is looked at
            again.
        distinct_constants (bool, default False): No training output writes a constant (an
            argument that is no variable) twice (JOBS' outputs; one of GEO's and 86 of ATIS' do): an
            output that does (``(title $0 "Systems Administrator") (platform $0 "Systems
            Administrator")``) is looked at again.
        distinct_list_variables (bool, default False): No list of a training output has the same
            variable twice among its arguments (GEO's, JOBS' and ATIS' outputs): an output with one
            that does (``(loc:<lo,<lo,t>> $0 $0)``, a place inside itself) is looked at again.
        argument_types (frozenset[tuple[str, str]], default empty): The (expected, given) type
            pairs of the training outputs' arguments, where atoms carry type annotations (GEO's
            ``capital:<s,<c,t>>``, ``texas:s``; :func:`~textattack_semparse.datasets.logical_form_types.argument_types`): a constant's type is its
            annotation, a placeholder's its name (``s0``: ``s``), a variable's what the one-place
            predicates on it say (``$0`` of ``(river:<r,t> $0)`` is a river), a superlative's that
            of its set. An output giving an argument a type no training output gives it there
            (``(capital:<s,<c,t>> $1 $0)`` with ``$0`` a river, ``( capital:<s,c> <a river> )``) is
            looked at again. Empty for outputs without annotations (JOBS', ATIS').

    Example:
        >>> grammar = OutputGrammar.fit(["(size:<lo,i> s0)", "(capital:<s,c> s0)", "(lambda $0:e (state:<s,t> $0))"])
        >>> grammar.arities["lambda"], sorted(grammar.arguments), sorted(grammar.binders)
        ((2, 2), ['$0', '$0:e', 's0'], ['lambda'])
        >>> OutputGrammar.fit(["SELECT city FROM city"]) is None
        True
    """

    arities: Mapping[str, tuple[int, int]]
    arguments: frozenset[str]
    roots: frozenset[str]
    binders: frozenset[str] = frozenset()
    distinct_conjuncts: bool = False
    copied: frozenset[str] = frozenset()
    implied: Mapping[str, frozenset[str]] = field(default_factory=lambda: MappingProxyType({}))
    binders_used: bool = False
    distinct_constants: bool = False
    distinct_list_variables: bool = False
    argument_types: frozenset[tuple[str, str]] = frozenset()

    @classmethod
    def fit(cls, outputs: Iterable[str], inputs: Iterable[str] | None = None) -> OutputGrammar | None:
        """The grammar of ``outputs`` (with ``inputs``, the questions in the same order, the atoms
        :attr:`copied` from them); ``None`` unless every output is a single s-expression or atom
        (SQL, say, is not)."""
        counts: dict[str, list[int]] = {}
        arguments: set[str] = set()
        roots: set[str] = set()
        expressions: list[SExpression] = []
        outputs = list(outputs)
        for output in outputs:
            expression = read_s_expression(output)
            if isinstance(expression, str):
                roots.add(expression)
            elif expression is None or not _record(expression, counts, arguments):
                return None
            else:
                expressions.append(expression)
        if not expressions and not roots:
            return None
        heads = _binding_heads(expressions)
        binders = heads if heads and not any(map(_free_variables, expressions)) else set()
        inputs = None if inputs is None else list(inputs)
        return cls(
            {head: (min(found), max(found)) for head, found in sorted(counts.items())},
            frozenset(arguments),
            frozenset(roots),
            frozenset(binders),
            all(distinct_conjuncts(expression) == expression for expression in expressions),
            _copied(outputs, inputs, arguments | roots) if inputs is not None else frozenset(),
            MappingProxyType(_implied(outputs, inputs) if inputs is not None else {}),
            bool(binders) and not any(map(_binds_unused, expressions)),
            not any(map(_repeats_a_constant, expressions)),
            not any(map(_repeats_a_variable, expressions)),
            frozenset(pair for expression in expressions for pair in argument_types(expression)),
        )

    def admits(self, question: str, output: str) -> bool:
        """Whether ``output`` (as the model wrote it for the model input ``question``) is as the
        training outputs are: it has every atom the question's words imply (:attr:`implied`), uses
        each variable it binds (with :attr:`binders_used`), writes no constant twice (with
        :attr:`distinct_constants`), no variable twice in one list (with :attr:`distinct_list_variables`)
        and no argument of a type training never gives it (:attr:`argument_types`).

        Example:
            >>> grammar = OutputGrammar.fit(
            ...     ["(lambda $0:e (major:<lo,t> $0))"] * 5 + ["(lambda $0:e (river:<r,t> $0))"] * 6,
            ...     ["major ones"] * 5 + ["rivers"] * 6)
            >>> dict(grammar.implied), grammar.binders_used
            ({'major': frozenset({'major:<lo,t>'}), 'ones': frozenset({'major:<lo,t>'})}, True)
            >>> grammar.admits("major rivers", "(lambda $0:e (river:<r,t> $0))")
            False
            >>> grammar.admits("rivers", "(lambda $0:e (river:<r,t> $1))")
            False
            >>> grammar.distinct_constants, grammar.admits("rivers", "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 s0) (loc:<lo,<lo,t>> $0 s0)))")
            (True, False)
            >>> grammar.distinct_list_variables, grammar.admits("rivers", "(lambda $0:e (loc:<lo,<lo,t>> $0 $0))")
            (True, False)
            >>> typed = OutputGrammar.fit(["(capital:<s,c> s0)", "(lambda $0:e (river:<r,t> $0))"])
            >>> typed.admits("", "(capital:<s,c> s1)"), typed.admits("", "(capital:<s,c> r0)")
            (True, False)
        """
        atoms = set(_OUTPUT_ATOM.findall(output))
        for word in input_words(question):
            if not self.implied.get(word, frozenset()) <= atoms:
                return False
        if self.binders_used or self.distinct_constants or self.distinct_list_variables or self.argument_types:
            expression = read_s_expression(output)
            if expression is None:
                return False
            if self.binders_used and _binds_unused(expression):
                return False
            if self.distinct_constants and _repeats_a_constant(expression):
                return False
            if self.distinct_list_variables and _repeats_a_variable(expression):
                return False
            if self.argument_types and not argument_types(expression) <= self.argument_types:
                return False
        return True

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write :data:`GRAMMAR_FILE` into ``directory``."""
        path = Path(directory) / GRAMMAR_FILE
        data = {
            "arities": {head: list(bounds) for head, bounds in self.arities.items()},
            "arguments": sorted(self.arguments),
            "roots": sorted(self.roots),
            "binders": sorted(self.binders),
            "distinct_conjuncts": self.distinct_conjuncts,
            "copied": sorted(self.copied),
            "implied": {word: sorted(atoms) for word, atoms in sorted(self.implied.items())},
            "binders_used": self.binders_used,
            "distinct_constants": self.distinct_constants,
            "distinct_list_variables": self.distinct_list_variables,
            "argument_types": sorted(map(list, self.argument_types)),
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
            frozenset(data.get("binders", ())),  # grammars saved before scoping was learnt: none
            bool(data.get("distinct_conjuncts", False)),  # saved before it was learnt: outputs as written
            frozenset(data.get("copied", ())),  # saved before it was learnt: none
            # Saved before they were learnt: every output is taken as written.
            MappingProxyType({word: frozenset(atoms) for word, atoms in data.get("implied", {}).items()}),
            bool(data.get("binders_used", False)),
            bool(data.get("distinct_constants", False)),
            bool(data.get("distinct_list_variables", False)),
            frozenset((str(expected), str(given)) for expected, given in data.get("argument_types", ())),
        )


_INPUT_WORD = re.compile(r"[^\s()'\"?!,]+")
_OUTPUT_ATOM = re.compile(r"[^\s()]+")


def input_words(question: str) -> set[str]:
    """The words of a model input, quotes and punctuation apart (``'language0'`` -> ``language0``),
    as :attr:`OutputGrammar.copied` compares them with output atoms.

    Example:
        >>> sorted(input_words("jobs using 'language0' in loc0 ?"))
        ['in', 'jobs', 'language0', 'loc0', 'using']
    """
    return set(_INPUT_WORD.findall(question))


def _copied(outputs: list[str], inputs: Iterable[str], atoms: set[str]) -> frozenset[str]:
    """Of ``atoms`` (the outputs' arguments and roots), those every output that has one writes
    with the same word in its input."""
    copied = set(atoms)
    for output, question in zip(outputs, inputs, strict=True):
        words = input_words(question)
        copied -= {atom for atom in _OUTPUT_ATOM.findall(output) if atom in copied and atom not in words}
    return frozenset(copied)


def _implied(outputs: list[str], inputs: list[str]) -> dict[str, frozenset[str]]:
    """:attr:`OutputGrammar.implied` of the training ``outputs`` and their questions ``inputs``."""
    questions: Counter[str] = Counter()  # word -> training questions with it
    together: dict[str, Counter[str]] = {}  # word -> atom -> outputs with it of those questions
    written: Counter[str] = Counter()  # atom -> outputs with it
    for output, question in zip(outputs, inputs, strict=True):
        atoms = {atom for atom in _OUTPUT_ATOM.findall(output) if variable_name(atom) is None}
        written.update(atoms)
        for word in input_words(question):
            questions[word] += 1
            together.setdefault(word, Counter()).update(atoms)
    common = {atom for atom, count in written.items() if count > len(outputs) / 2}
    implied = {
        word: frozenset(atom for atom, count in together[word].items() if count == total and atom not in common)
        for word, total in sorted(questions.items())
        if total >= IMPLICATION_SUPPORT
    }
    return {word: atoms for word, atoms in implied.items() if atoms}


def _binds_unused(expression: SExpression) -> bool:
    """Whether a list of ``expression`` binds a variable that nothing in the list uses."""
    if isinstance(expression, str):
        return False
    variable = bound_variable(expression)
    if variable is not None and not any(_uses(item, variable) for item in expression[2:]):
        return True
    return any(_binds_unused(item) for item in expression[1:])


def _repeats_a_constant(expression: SExpression) -> bool:
    """Whether ``expression`` writes an argument that is no variable twice."""
    seen: set[str] = set()
    pending = [expression] if isinstance(expression, list) else []
    while pending:
        items = pending.pop()
        for item in items[1:]:
            if isinstance(item, list):
                pending.append(item)
            elif variable_name(item) is None:
                if item in seen:
                    return True
                seen.add(item)
    return False


def _repeats_a_variable(expression: SExpression) -> bool:
    """Whether a list of ``expression`` has the same variable twice among its arguments."""
    if isinstance(expression, str):
        return False
    names = [variable_name(item) for item in expression[1:] if isinstance(item, str)]
    named = [name for name in names if name is not None]
    return len(set(named)) < len(named) or any(_repeats_a_variable(item) for item in expression[1:])


def _uses(expression: SExpression, variable: str) -> bool:
    if isinstance(expression, str):
        return variable_name(expression) == variable
    return any(_uses(item, variable) for item in expression)


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


def _binding_heads(expressions: list[SExpression]) -> set[str] | None:
    """The heads of the lists of ``expressions`` that bind a variable
    (:func:`~textattack_semparse.datasets.logical_form.bound_variable`); ``None`` when a head
    binds in some of its lists and not in others."""
    binds: dict[str, set[bool]] = {}
    pending = list(expressions)
    while pending:
        expression = pending.pop()
        if isinstance(expression, list):
            binds.setdefault(str(expression[0]), set()).add(bound_variable(expression) is not None)
            pending.extend(expression[1:])
    if any(len(found) > 1 for found in binds.values()):
        return None
    return {head for head, found in binds.items() if True in found}


def _free_variables(expression: SExpression, bound: frozenset[str] = frozenset()) -> bool:
    """Whether ``expression`` uses a variable that no enclosing list binds."""
    if isinstance(expression, str):
        name = variable_name(expression)
        return name is not None and name not in bound
    variable = bound_variable(expression)
    if variable is not None:
        return any(_free_variables(item, bound | {variable}) for item in expression[2:])
    return any(_free_variables(item, bound) for item in expression[1:])
