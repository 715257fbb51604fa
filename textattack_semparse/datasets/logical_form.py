"""Loader for logical-form files in the Dong & Lapata format: ``question<TAB>logical form``.

Dong and Lapata (2016), "Language to Logical Form with Neural Attention", ACL.
https://aclanthology.org/P16-1004/ ; the files of GeoQuery, JOBS and ATIS distributed with
Unimer (Guo et al. 2020, https://aclanthology.org/2020.emnlp-main.118/) use the same format.

One example per line: the question, one tab, the logical form (lambda calculus or Prolog,
as an s-expression). :func:`logical_form_literals` finds the question words that a logical
form's constants name, so perturbations can leave them alone.

This module does not import TextAttack.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import DatasetError
from textattack_semparse.sql.literals import literal_words

_ATOM = re.compile(r'"[^"]*"|[()]|[^\s()]+')
"""An s-expression token: a double-quoted string (JOBS' ``"windows nt"``), a bracket or a word."""
_BINDERS = frozenset({"lambda"})
_SIMPLE_TYPE = re.compile(r"^(?P<name>.+?):(?P<type>[A-Za-z]+)$")
# GeoQuery spells cities with their state (``austin_tx``) and rivers with ``_river``;
# questions often leave the suffix out.
_OPTIONAL_SUFFIX = {"c": re.compile(r"^(?P<name>.+)_[a-z]{2}$"), "r": re.compile(r"^(?P<name>.+)_river$")}


def parse_logical_form_line(line: str, *, where: str) -> tuple[str, str]:
    """Split one ``question<TAB>logical form`` line into its two stripped fields.

    Raises:
        DatasetError: The line has no tab, more than one tab, or an empty field; the
            message starts with ``where`` (the file and line number).

    Example:
        >>> parse_logical_form_line("where is c0\\t( lambda $0 e ( loc:t c0 $0 ) )", where="x")
        ('where is c0', '( lambda $0 e ( loc:t c0 $0 ) )')
    """
    fields = line.split("\t")
    if len(fields) != 2:
        raise DatasetError(
            f"{where} has {len(fields) - 1} tabs ({line[:80]!r}); expected exactly one: "
            f"'question<TAB>logical form'. Fix the line or remove it."
        )
    question, logical_form = fields[0].strip(), fields[1].strip()
    if not question or not logical_form:
        empty = "question" if not question else "logical form"
        raise DatasetError(f"{where} has an empty {empty} ({line[:80]!r}). Fill it in or remove the line.")
    return question, logical_form


def load_logical_forms(path: str | Path, *, split: str | None = None) -> list[SemparseExample]:
    """Read a ``question<TAB>logical form`` file into one :class:`SemparseExample` per line.

    Empty lines (such as a final newline) are skipped. The examples have no templates and
    no variables; ``split`` becomes their ``question_split`` (the files are the standard
    train/dev/test splits, which are splits of questions).

    Args:
        path (str | Path): The file (e.g. ``lambda/geo/geo_lambda_calculus_test.tsv``).
        split (str | None, default None): Split label given to every example.

    Raises:
        DatasetError: The file is missing or unreadable, or a line is malformed (no tab,
            several tabs, an empty field); the message names the file and the line number.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DatasetError(
            f"Logical-form file {str(path)!r} does not exist. Check the path, or set SEMPARSE_DATA_DIR "
            f"to the folder that holds 'lambda/'."
        ) from None
    except (OSError, UnicodeDecodeError) as error:
        raise DatasetError(f"Logical-form file {str(path)!r} cannot be read as UTF-8 text: {error}.") from error
    examples = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        question, logical_form = parse_logical_form_line(line, where=f"{path}: line {number}")
        examples.append(SemparseExample(question=question, gold=logical_form, question_split=split))
    if not examples:
        raise DatasetError(
            f"Logical-form file {str(path)!r} has no examples; expected 'question<TAB>logical form' lines."
        )
    return examples


def _argument_atoms(logical_form: str) -> list[tuple[str, str]]:
    """The atoms of an s-expression that are arguments (not heads, variables or binder
    types), each with the head of the expression it is an argument of."""
    atoms = []
    previous = ""
    heads: list[str] = []
    for token in _ATOM.findall(logical_form):
        if token == "(":
            heads.append("")
        elif token == ")":
            if heads:
                heads.pop()
        elif previous == "(":
            heads[-1] = token
        elif not token.startswith("$") and not (heads and heads[-1] in _BINDERS and previous.startswith("$")):
            atoms.append((token, heads[-1] if heads else ""))
        previous = token
    return atoms


def _spellings(atom: str) -> list[str]:
    """How a constant may be spelled in the question: ``new_york:s`` -> ``new york``;
    ``austin_tx:c`` -> ``austin tx``, ``austin``; ``mississippi_river:r`` -> also ``mississippi``;
    ``"windows nt"`` -> ``windows nt``."""
    if "<" in atom:
        return []
    typed = _SIMPLE_TYPE.match(atom)
    name = typed.group("name") if typed else atom.strip('"')
    spellings = [name.replace("_", " ")]
    suffix = _OPTIONAL_SUFFIX.get(typed.group("type")) if typed else None
    short = suffix.match(name) if suffix else None
    if short:
        spellings.append(short.group("name").replace("_", " "))
    return spellings


@dataclass(frozen=True)
class Constant:
    """A logical-form constant that the question spells out.

    Args:
        atom (str): As the logical form writes it (``austin_tx:c``).
        spelling (str): As the question spells it (``austin``).
        type (str): The atom's type suffix (``c``), else the head of the expression it is an
            argument of (JOBS: ``(loc $0 austin)`` -> ``loc``).
        position (int): Index of the question word where the spelling starts.
        plural (bool, default False): The question spells the atom in the plural
            (:func:`logical_form_constants` with ``plurals``).
    """

    atom: str
    spelling: str
    type: str
    position: int
    plural: bool = False


def logical_form_constants(question: str, logical_form: str, *, plurals: bool = False) -> list[Constant]:
    """The constants of ``logical_form`` that ``question`` spells out, in question order
    (longer spellings first at the same word).

    A constant is an argument atom of the s-expression (not a predicate, a ``$n`` variable
    or a lambda's type); a simple type suffix is dropped and ``_`` read as a space
    (``new_york:s`` -> "new york"); a GeoQuery city's state suffix and a river's
    ``_river`` are optional (``austin_tx:c`` -> "austin", ``mississippi_river:r`` ->
    "mississippi"). Anonymised entities (``ci0``, ``s0``) and numbers are constants too.
    Matching is on whole words, ignoring case; each atom counts once. With ``plurals``, an
    untyped atom the question does not spell otherwise may be spelled in the plural ("databases"
    for JOBS' ``database``; :attr:`Constant.plural`).

    Example:
        >>> logical_form_constants("how big is austin", "(size:<lo,i> austin_tx:c)")
        [Constant(atom='austin_tx:c', spelling='austin', type='c', position=3, plural=False)]
    """
    words = literal_words(question)
    found: dict[str, Constant] = {}
    for atom, head in _argument_atoms(logical_form):
        if atom in found:
            continue
        typed = _SIMPLE_TYPE.match(atom)
        candidates = [(spelling, False) for spelling in _spellings(atom)]
        if plurals and not typed:  # tried after every singular spelling
            candidates += [(f"{spelling}s", True) for spelling, _ in candidates]
        for spelling, plural in candidates:
            position = _find_words(words, literal_words(spelling))
            if position is not None:
                found[atom] = Constant(atom, spelling, typed.group("type") if typed else head, position, plural)
                break
    return sorted(found.values(), key=lambda constant: (constant.position, -len(constant.spelling)))


_BARE_CONSTANT = re.compile(r"[a-z]+\d+|[^\s()]+:[a-z]+")
"""A logical form that is one constant: an anonymised entity (ATIS's ``ci0``, the whole form of
"list ci0") or a typed one (GeoQuery's ``texas:s``)."""


def is_logical_form(gold: str) -> bool:
    """Whether ``gold`` is a logical form rather than SQL: an s-expression (SQL may open with a
    bracket too, but says ``select``), or a single constant (:data:`_BARE_CONSTANT`); 43 of
    ATIS's 448 test questions have one ("what airlin is al0": ``al0``).

    Example:
        >>> is_logical_form("(capital:<s,c> texas:s)"), is_logical_form("al0"), is_logical_form("texas:s")
        (True, True, True)
        >>> is_logical_form("(SELECT 1) UNION (SELECT 2)"), is_logical_form("SELECT name FROM city")
        (False, False)
    """
    stripped = gold.strip()
    if stripped.startswith("("):
        return "select" not in stripped.lower()
    return _BARE_CONSTANT.fullmatch(stripped) is not None


def logical_form_literals(question: str, logical_form: str) -> list[str]:
    """The spellings of :func:`logical_form_constants`, each once, in question order.

    Example:
        >>> logical_form_literals("what is the capital of new york",
        ...     "(capital:<s,c> new_york:s)")
        ['new york']
        >>> logical_form_literals("list flight from ci0 to ci1",
        ...     "( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ( to $0 ci1 ) ) )")
        ['ci0', 'ci1']
        >>> logical_form_literals("how big is austin", "(size:<lo,i> austin_tx:c)")
        ['austin']
    """
    return list(dict.fromkeys(constant.spelling for constant in logical_form_constants(question, logical_form)))


def _find_words(words: list[str], phrase: list[str]) -> int | None:
    if not phrase:
        return None
    for start in range(len(words) - len(phrase) + 1):
        if words[start : start + len(phrase)] == phrase:
            return start
    return None


_S_EXPRESSION_TOKEN = re.compile(r"[()]|[^\s()]+")
"""A token of an s-expression as the word-level tokenizer splits one: a bracket, or a run of other
non-space characters."""
_COMMUTATIVE = frozenset({"and", "or", "and_", "or_"})
"""Heads (before any ``:type``) whose arguments may come in any order: GeoQuery's ``and:<t*,t>``,
ATIS' ``and``, JOBS' ``and_``."""
_VARIABLE_BINDERS = frozenset({"lambda", "exists", "exists_", "argmax", "argmin", "count", "sum", "min", "max", "the"})
"""Heads that bind the variable written right after them (``(lambda $0:e ...)``,
``( exists $1 ... )``, ``(exists_ $0:e ...)``); GeoQuery's ``argmax:<...>`` takes a lambda
instead, and a variable is then bound by that lambda."""
SExpression = str | list  # an atom, or a list of s-expressions


def read_s_expression(text: str) -> SExpression | None:
    """``text`` as one s-expression: an atom, or a (nested) list of atoms and lists; ``None`` when
    it is not exactly one balanced expression. Tokens are kept as written (case included).

    Example:
        >>> read_s_expression("(size:<lo,i> (capital:<s,c> texas:s))")
        ['size:<lo,i>', ['capital:<s,c>', 'texas:s']]
        >>> read_s_expression("ci0"), read_s_expression("(a) (b)"), read_s_expression("(a")
        ('ci0', None, None)
    """
    stack: list[list[SExpression]] = [[]]
    for token in _S_EXPRESSION_TOKEN.findall(text):
        if token == "(":
            stack.append([])
        elif token == ")":
            if len(stack) == 1:
                return None
            closed = stack.pop()
            stack[-1].append(closed)
        else:
            stack[-1].append(token)
    if len(stack) != 1 or len(stack[0]) != 1:
        return None
    return stack[0][0]


@functools.lru_cache(maxsize=4096)
def canonical_logical_form(text: str) -> tuple[str, ...] | None:
    """The tokens of ``text`` (lowercased) with every bound variable named by how many binders
    enclose it and the arguments of ``and``/``or`` sorted: equal for logical forms that differ
    only in conjunct order and variable names, as Dong & Lapata's released evaluation compares
    GeoQuery, ATIS and JOBS; ``None`` when ``text`` is not one balanced s-expression.

    A binder is a head of :data:`_VARIABLE_BINDERS` followed by a variable (``$0``, with or
    without a ``:e`` type); its variable becomes ``$<depth>`` (types kept) in its scope, so a
    variable that shadows an outer one stays distinct from it. Remembered per text (an attack
    compares many outputs with the same gold).

    Example:
        >>> a = canonical_logical_form("(lambda $1:e (and:<t*,t> (river:<r,t> $1) (loc:<lo,<lo,t>> $1 texas:s)))")
        >>> b = canonical_logical_form("(lambda $0:e (and:<t*,t> (loc:<lo,<lo,t>> $0 texas:s) (river:<r,t> $0)))")
        >>> a == b, " ".join(a)
        (True, '( lambda $0:e ( and:<t*,t> ( loc:<lo,<lo,t>> $0 texas:s ) ( river:<r,t> $0 ) ) )')
        >>> canonical_logical_form("(loc $0 $1)") == canonical_logical_form("(loc $1 $0)")
        False
        >>> canonical_logical_form("(state $0") is None
        True
    """
    expression = read_s_expression(text.lower())
    if expression is None:
        return None
    canonical: list[str] = []
    _write_canonical(_canonical_expression(expression, {}, 0), canonical)
    return tuple(canonical)


def _canonical_expression(expression: SExpression, names: dict[str, str], depth: int) -> SExpression:
    """``expression`` with bound variables renamed by depth and commutative arguments sorted."""
    if isinstance(expression, str):
        name, colon, value_type = expression.partition(":")
        return names[name] + colon + value_type if name in names else expression
    head = expression[0] if expression and isinstance(expression[0], str) else None
    base = head.partition(":")[0] if head is not None else None
    variable = bound_variable(expression)
    if variable is not None:
        value_type = expression[1].partition(":")[2]
        inner = {**names, variable: f"${depth}"}
        typed = f"${depth}:{value_type}" if ":" in expression[1] else f"${depth}"
        return [head, typed, *(_canonical_expression(item, inner, depth + 1) for item in expression[2:])]
    items = [_canonical_expression(item, names, depth) for item in expression]
    if base in _COMMUTATIVE:
        items = [items[0], *sorted(items[1:], key=_sort_key)]
    return items


def bound_variable(expression: SExpression) -> str | None:
    """The variable a list binds: its head (before any ``:type``) one of :data:`_VARIABLE_BINDERS`,
    its first argument a variable, named without its type; ``None`` for anything else.

    Example:
        >>> bound_variable(["lambda", "$1:e", ["state:<s,t>", "$1"]]), bound_variable(["exists", "$0", ["x", "$0"]])
        ('$1', '$0')
        >>> bound_variable(["state:<s,t>", "$1"]), bound_variable("$1")
        (None, None)
    """
    if isinstance(expression, str) or len(expression) < 2 or not isinstance(expression[0], str):
        return None
    first = expression[1]
    if expression[0].partition(":")[0] not in _VARIABLE_BINDERS or not isinstance(first, str) or not first.startswith("$"):
        return None
    return first.partition(":")[0]


def without_repeated_conjuncts(text: str) -> str:
    """``text`` with each argument of ``and``/``or`` (:data:`_COMMUTATIVE`) that repeats an earlier
    argument of the same list left out: A and A is A, so the question asked is the same. A parser
    trained on a few hundred outputs sometimes writes a conjunct twice, which no JOBS training
    output does (one GEO and sixteen ATIS training outputs do). The tokens
    are then joined by single spaces, as the word-level tokenizer decodes them; ``text`` itself when
    nothing repeats or it is not one s-expression.

    Example:
        >>> without_repeated_conjuncts("( lambda $0 ( and_ ( job $0 ) ( title $0 t0 ) ( job $0 ) ) )")
        '( lambda $0 ( and_ ( job $0 ) ( title $0 t0 ) ) )'
        >>> without_repeated_conjuncts("(loc $0 s0)")
        '(loc $0 s0)'
    """
    expression = read_s_expression(text)
    if expression is None:
        return text
    distinct = distinct_conjuncts(expression)
    if distinct == expression:
        return text
    tokens: list[str] = []
    _write_canonical(distinct, tokens)
    return " ".join(tokens)


def distinct_conjuncts(expression: SExpression) -> SExpression:
    """``expression`` with each argument of ``and``/``or`` that repeats an earlier one of the same
    list left out (:func:`without_repeated_conjuncts` on a read expression)."""
    if isinstance(expression, str):
        return expression
    items = [distinct_conjuncts(item) for item in expression]
    if items and isinstance(items[0], str) and items[0].partition(":")[0] in _COMMUTATIVE:
        arguments: list[SExpression] = []
        for item in items[1:]:
            if item not in arguments:
                arguments.append(item)
        items = [items[0], *arguments]
    return items


def _sort_key(expression: SExpression) -> str:
    tokens: list[str] = []
    _write_canonical(expression, tokens)
    return " ".join(tokens)


def _write_canonical(expression: SExpression, tokens: list[str]) -> None:
    if isinstance(expression, str):
        tokens.append(expression)
        return
    tokens.append("(")
    for item in expression:
        _write_canonical(item, tokens)
    tokens.append(")")
