"""The types that annotated logical forms give their atoms, as GeoQuery's lambda-calculus release
writes them: ``capital:<s,c>`` (a function from states to cities), ``texas:s`` (a state), ``$0:e``
(a variable of the generic entity type), ``argmax:<<e,t>,<<e,i>,e>>``.

One reader for every part of the package that reasons about types: the output grammar's record of
the argument types training outputs give
(:attr:`~textattack_semparse.victims.output_grammar.OutputGrammar.argument_types`) and whole-phrase
recombination's phrase types (:mod:`~textattack_semparse.training.recombination`). Logical forms
without annotations (JOBS, ATIS) give no types.

This module does not import TextAttack.
"""

from __future__ import annotations

from collections.abc import Mapping

from textattack_semparse.datasets.entity_anonymization import placeholder_type
from textattack_semparse.datasets.logical_form import SExpression, bound_variable

_CONJUNCTIONS = frozenset({"and", "and_"})
_NO_ENTITY = frozenset({"t", "i", "e"})
"""Plain types that name no kind of entity: a truth value, a number, an entity of any kind."""


def variable_name(atom: str) -> str | None:
    """The variable an atom names (``$1:e`` -> ``$1``), ``None`` for an atom that is no variable."""
    return atom.partition(":")[0] if atom.startswith("$") else None


def argument_types(expression: SExpression) -> set[tuple[str, str]]:
    """The (expected, given) type of each argument of ``expression`` whose type is known: expected
    from its head's annotation (``capital:<s,c>`` expects ``s``; each argument of ``and:<t*,t>``
    ``t*``), given by the argument's own (:func:`value_type`'s rules).

    Example:
        >>> from textattack_semparse.datasets.logical_form import read_s_expression
        >>> sorted(argument_types(read_s_expression(
        ...     "(capital:<s,c> (argmax:<<e,t>,<<e,i>,e>> (lambda $0:e (river:<r,t> $0)) (lambda $0:e (len:<r,i> $0))))")))
        [('<e,i>', '<e,i>'), ('<e,t>', '<r,t>'), ('r', 'e'), ('r', 'r'), ('s', 'r')]
    """
    found: set[tuple[str, str]] = set()
    _given_type(expression, {}, found)
    return found


def value_type(expression: SExpression) -> str | None:
    """The kind of entity ``expression`` denotes (``c`` for ``(capital:<s,c> s0)``, ``r`` for the
    longest river), or ``None`` for a set, a number, a truth value or what its annotations leave open.

    A constant has its annotation's type, a placeholder its name's (``s0``: a state), a function's
    application its result type, a superlative (``argmax``, ``the``: a head returning ``e`` from a
    set) the type of the set's members: the type the one-place predicates on its variable assert,
    when they assert exactly one.

    Example:
        >>> from textattack_semparse.datasets.logical_form import read_s_expression
        >>> value_type(read_s_expression("(capital:<s,c> s0)")), value_type(read_s_expression("(size:<lo,i> s0)"))
        ('c', None)
        >>> value_type(read_s_expression("(argmax:<<e,t>,<<e,i>,e>> (lambda $0:e (state:<s,t> $0)) (lambda $0:e (size:<lo,i> $0)))"))
        's'
    """
    kind = _given_type(expression, {}, set())
    return kind if kind is not None and kind not in _NO_ENTITY and not kind.startswith("<") else None


def _signature(atom: str) -> tuple[list[str], str] | None:
    """An annotated atom's argument types and result type (``capital:<s,c>`` -> ``(['s'], 'c')``,
    ``texas:s`` -> ``([], 's')``); ``None`` for an atom without an annotation or a variable."""
    if variable_name(atom) is not None:
        return None
    annotation = atom.partition(":")[2]
    return _split_annotation(annotation) if annotation else None


def _split_annotation(annotation: str) -> tuple[list[str], str] | None:
    """``<a,<b,t>>`` -> ``(['a', 'b'], 't')``; a type without arrows -> ``([], type)``."""
    arguments: list[str] = []
    while annotation.startswith("<") and annotation.endswith(">"):
        inner, depth = annotation[1:-1], 0
        for position, character in enumerate(inner):
            depth += {"<": 1, ">": -1}.get(character, 0)
            if character == "," and depth == 0:
                arguments.append(inner[:position])
                annotation = inner[position + 1 :]
                break
        else:
            return None
    return arguments, annotation


def _given_type(expression: SExpression, scope: Mapping[str, str | None], found: set[tuple[str, str]]) -> str | None:
    """The type of ``expression``, ``None`` when unknown; the argument pairs of its lists go into ``found``.

    A variable has the type the one-place predicates of its binding list say (one type; else its
    declared one), a list that binds one ``<variable type,body type>``, a list whose head returns
    the entity type ``e`` from a set (``argmax``, ``the``) the set's type."""
    if isinstance(expression, str):
        name = variable_name(expression)
        if name is not None:
            return scope.get(name, expression.partition(":")[2] or None)
        annotated = _signature(expression)
        if annotated is not None:
            return annotated[1] if not annotated[0] else expression.partition(":")[2]
        return placeholder_type(expression)
    variable = bound_variable(expression)
    if variable is not None:
        asserted = {kind for item in expression[2:] for kind in _asserted_types(item, variable)}
        declared = expression[1].partition(":")[2] or None
        kind = next(iter(asserted)) if len(asserted) == 1 else declared
        inner = {**scope, variable: kind}
        body = [_given_type(item, inner, found) for item in expression[2:]]
        return f"<{kind},{body[0]}>" if kind and len(body) == 1 and body[0] else None
    head = expression[0]
    given = [_given_type(item, scope, found) for item in expression[1:]]
    annotated = _signature(head) if isinstance(head, str) else None
    if annotated is None:
        return None
    expected, result = annotated
    if expected and expected[-1].endswith("*"):
        expected = [expected[-1]] * len(given)
    found.update((want, have) for want, have in zip(expected, given) if have is not None)
    if len(given) < len(expected):
        return None
    if result == "e" and given and given[0]:
        members = _split_annotation(given[0])
        return members[0][0] if members and members[0] else result
    return result


def _asserted_types(expression: SExpression, variable: str) -> list[str]:
    """The types one-place predicates assert of ``variable`` in ``expression`` (a conjunction's
    conjuncts, or the expression itself): ``(river:<r,t> $0)`` asserts ``r`` of ``$0``."""
    if isinstance(expression, str):
        return []
    if isinstance(expression[0], str) and expression[0].partition(":")[0] in _CONJUNCTIONS:
        return [kind for item in expression[1:] for kind in _asserted_types(item, variable)]
    if len(expression) != 2 or not isinstance(expression[0], str) or not isinstance(expression[1], str):
        return []
    annotated = _signature(expression[0])
    if annotated is None or variable_name(expression[1]) != variable:
        return []
    expected, result = annotated
    return [expected[0]] if len(expected) == 1 and result == "t" and not expected[0].startswith("<") else []
