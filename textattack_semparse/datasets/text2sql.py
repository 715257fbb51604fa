"""Loader for the text2sql-data JSON format.

Finegan-Dollak, Kummerfeld, Zhang, Ramanathan, Sadasivam, Zhang and Radev (2018):
"Improving Text-to-SQL Evaluation Methodology". https://aclanthology.org/P18-1033/
Data and format description: https://github.com/jkkummerfeld/text2sql-data

Each entry holds ``sql`` (the first query is the gold), ``query-split``, the placeholder
definitions ``variables`` (``name``, ``type``, ``example``, ``location``) and ``sentences``
(``text`` with placeholders such as ``state_name0``, the sentence's ``variables`` and its
``question-split``). Loading fills the placeholders of the text and of ``sql[0]``.

This module does not import TextAttack; :class:`Text2SQLDataset` lives in
:mod:`textattack_semparse.datasets.text2sql_dataset`.
"""

from __future__ import annotations

import functools
import json
import re
import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

from textattack_semparse.cache import file_version
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.errors import ConfigurationError, DatasetError, closest_match_hint

SPLIT_TYPES = ("question", "query")
"""Accepted ``split_type`` values: the question split and the query (template) split."""

_TOKEN_CHARS = "A-Za-z0-9_"
_TOKEN_CHAR_SET = frozenset(string.ascii_letters + string.digits + "_")


def fill_placeholders(template: str, values: Mapping[str, str]) -> str:
    """Replace whole-token occurrences of each placeholder in ``template`` by its value.

    A placeholder matches only where it is not part of a longer identifier, so
    ``state_name0`` leaves ``state_name01`` and ``STATE_NAME0x`` alone. All placeholders
    are replaced in one pass, so a value that looks like a placeholder is never
    substituted again.

    Example:
        >>> fill_placeholders('cities in state_name0 ; "state_name0"', {"state_name0": "new york"})
        'cities in new york ; "new york"'
        >>> fill_placeholders("state_name01 state_name0", {"state_name0": "ohio"})
        'state_name01 ohio'
    """
    if not values:
        return template
    return placeholder_pattern(tuple(values)).sub(lambda match: values[match.group(1)], template)


@functools.lru_cache(maxsize=4096)
def placeholder_pattern(names: tuple[str, ...]) -> re.Pattern[str]:
    """The whole-token occurrences of any of ``names`` (longest first), the name as group 1;
    compiled once per set of names, as a file fills the same placeholders sentence after sentence.

    Example:
        >>> placeholder_pattern(("city_name0", "state_name0")).findall("state_name0 state_name01")
        ['state_name0']
    """
    return re.compile(bounded_alternatives(names, f"[{_TOKEN_CHARS}]"))


def bounded_alternatives(texts: Iterable[str], boundary: str) -> str:
    r"""A pattern for any of ``texts`` (longest first, as group 1) that has no character of the class
    ``boundary`` right before or after it: ``(?<!B)(t1|t2)(?!B)``, with the look-behind written
    after each text (``t1(?<!Bt1)``, the same test) so that the pattern starts with the texts' own
    characters, which ``re`` looks for much faster than it tries a look-behind at every position.

    Example:
        >>> re.findall(bounded_alternatives(["york", "new york"], r"\w"), "new york, newyork, york")
        ['new york', 'york']
    """
    escaped = [re.escape(text) for text in sorted(texts, key=len, reverse=True)]
    return "(" + "|".join(f"{text}(?<!{boundary}{text})" for text in escaped) + f")(?!{boundary})"


def placeholder_occurs(name: str, text: str) -> bool:
    """Whether placeholder ``name`` occurs in ``text`` as a whole token (as :func:`fill_placeholders` fills it).

    Found with ``str.find`` and a look at the characters around, several times faster than the
    pattern's search (whose look-behind is tried at every position).

    Example:
        >>> placeholder_occurs("state_name0", "state_name01 in state_name0"), placeholder_occurs("state_name0", "xstate_name0")
        (True, False)
    """
    start, size = text.find(name), len(name)
    while start >= 0:
        end = start + size
        if (start == 0 or text[start - 1] not in _TOKEN_CHAR_SET) and (end == len(text) or text[end] not in _TOKEN_CHAR_SET):
            return True
        start = text.find(name, start + 1)
    return False


def _is_mapping(value: Any) -> bool:
    """Whether ``value`` is a JSON object: a dict (what ``json`` gives) is settled without the ABC
    check, which costs several times as much on every entry and sentence of a file."""
    return isinstance(value, dict) or isinstance(value, Mapping)


def _split_label(value: Any) -> str | None:
    return None if value is None else str(value)


def _where(path: Path, index: int, sentence: int | None = None) -> str:
    try:
        version = file_version(path)
    except OSError:
        lines: tuple[int, ...] = ()
    else:
        lines = _entry_lines_of_version(path, version)
    line = f" (line {lines[index]})" if index < len(lines) else ""
    place = f"{path}: entry {index}{line}"
    return place if sentence is None else f"{place}, sentence {sentence}"


@functools.lru_cache(maxsize=8)
def _entry_lines_of_version(path: Path, version: tuple[int, int]) -> tuple[int, ...]:
    """:func:`_entry_lines` read once per version of the file (every entry names its place)."""
    return tuple(_entry_lines(path))


def _entry_lines(path: Path) -> list[int]:
    r"""The line on which each entry of the file's top-level JSON array starts (read only to
    name the line of a malformed entry; empty when the file is not such an array).

    Example:
        >>> import tempfile
        >>> file = Path(tempfile.mkdtemp()) / "d.json"
        >>> _ = file.write_text('[\n  {"sql": []},\n\n  {"sql": [1,\n 2]}, 3]')
        >>> _entry_lines(file)
        [2, 4, 5]
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    decoder = json.JSONDecoder()
    position = len(text) - len(text.lstrip())
    if not text.startswith("[", position):
        return []
    position += 1
    starts: list[int] = []
    while True:
        while position < len(text) and text[position] in " \t\r\n,":
            position += 1
        if position >= len(text) or text[position] == "]":
            return [text.count("\n", 0, start) + 1 for start in starts]
        starts.append(position)
        try:
            _, position = decoder.raw_decode(text, position)
        except json.JSONDecodeError:
            return [text.count("\n", 0, start) + 1 for start in starts]


def _definitions(entry: Mapping[str, Any], path: Path, index: int) -> dict[str, Mapping[str, Any]]:
    raw = entry.get("variables", [])
    if not isinstance(raw, list):
        raise DatasetError(
            f"{_where(path, index)} has 'variables' of type {type(raw).__name__}; expected a list of "
            f"{{'name', 'type', 'example', 'location'}} objects. Fix the entry or remove the key."
        )
    definitions: dict[str, Mapping[str, Any]] = {}
    for position, definition in enumerate(raw):
        if not _is_mapping(definition) or not definition.get("name"):
            raise DatasetError(
                f"{_where(path, index)}: variable definition {position} ({definition!r}) has no 'name'. "
                f"Give every definition a 'name' such as 'state_name0'."
            )
        definitions[str(definition["name"])] = definition
    return definitions


def _resolve_values(
    text: str,
    sql: str,
    given: Mapping[str, Any],
    definitions: Mapping[str, Mapping[str, Any]],
    where: Callable[[], str],
    in_sql_by_name: dict[str, bool],
) -> dict[str, str]:
    """Values of the placeholders used in ``text`` or ``sql``.

    A placeholder used only in the SQL with no value of its own takes the definition's
    ``example`` (the format's convention for ``location: sql-only``). Unused placeholders
    with empty values are dropped. ``where()`` names the sentence in an error;
    ``in_sql_by_name`` remembers which names ``sql`` uses, for the entry's next sentences.
    """
    values: dict[str, str] = {}
    for name in sorted(definitions.keys() | given.keys()):
        in_text = placeholder_occurs(name, text)
        in_sql = in_sql_by_name.get(name)
        if in_sql is None:
            in_sql = in_sql_by_name[name] = placeholder_occurs(name, sql)
        if not (in_text or in_sql):
            continue
        value = "" if given.get(name) is None else str(given[name])
        if not value and not in_text:
            value = str(definitions.get(name, {}).get("example") or "")
        if not value:
            used = "the question and the SQL" if in_text and in_sql else "the question" if in_text else "the SQL"
            raise DatasetError(
                f"{where()}: placeholder {name!r} is used in {used} but has no value. "
                f"Add a non-empty value for {name!r} to the sentence's 'variables'"
                + ("." if in_text else " or an 'example' to the entry's variable definition.")
            )
        values[name] = value
    return values


def _variable_type(name: str, definitions: Mapping[str, Mapping[str, Any]]) -> str:
    declared = definitions.get(name, {}).get("type")
    return str(declared) if declared else re.sub(r"\d+$", "", name)


def _entry_examples(entry: Any, path: Path, index: int) -> list[SemparseExample]:
    if not _is_mapping(entry):
        raise DatasetError(
            f"{_where(path, index)} is a {type(entry).__name__}, not an object. "
            f"Each entry needs 'sql', 'sentences', 'variables' and 'query-split'."
        )
    sql_list = entry.get("sql")
    if not isinstance(sql_list, list) or not sql_list or not isinstance(sql_list[0], str) or not sql_list[0].strip():
        raise DatasetError(
            f"{_where(path, index)} has no gold query ('sql' is {sql_list!r}). "
            f"Give the entry a non-empty 'sql' list; its first query is the gold."
        )
    sentences = entry.get("sentences")
    if not isinstance(sentences, list) or not sentences:
        raise DatasetError(
            f"{_where(path, index)} has no questions ('sentences' is {sentences!r}). "
            f"Add at least one sentence with 'text', 'variables' and 'question-split', or delete the entry."
        )
    template_gold = sql_list[0]
    definitions = _definitions(entry, path, index)
    query_split = _split_label(entry.get("query-split"))
    in_sql_by_name: dict[str, bool] = {}
    examples = []
    for number, sentence in enumerate(sentences):
        where = functools.partial(_where, path, index, number)  # named only in an error: it stats the file
        if not _is_mapping(sentence):
            raise DatasetError(f"{where()} is a {type(sentence).__name__}, not an object with 'text' and 'variables'.")
        text = sentence.get("text")
        if not isinstance(text, str) or not text.strip():
            raise DatasetError(
                f"{where()} has an empty question ('text' is {text!r}). Write the question or delete the sentence."
            )
        given = sentence.get("variables") or {}
        if not _is_mapping(given):
            raise DatasetError(f"{where()}: 'variables' must map placeholder names to values, got {given!r}.")
        values = _resolve_values(text, template_gold, given, definitions, where, in_sql_by_name)
        db_id = sentence.get("database")
        examples.append(
            SemparseExample(
                question=fill_placeholders(text, values),
                gold=fill_placeholders(template_gold, values),
                db_id=None if db_id is None else str(db_id),
                template_question=text,
                template_gold=template_gold,
                variables=MappingProxyType(values),
                variable_types=MappingProxyType({name: _variable_type(name, definitions) for name in values}),
                question_split=_split_label(sentence.get("question-split")),
                query_split=query_split,
            )
        )
    return examples


def _check_split_type(split_type: str) -> str:
    if split_type not in SPLIT_TYPES:
        raise ConfigurationError(
            f"split_type={split_type!r} is not one of {SPLIT_TYPES}: 'question' splits questions, "
            f"'query' splits SQL templates.{closest_match_hint(str(split_type), SPLIT_TYPES)}"
        )
    return split_type


def select_split(
    examples: Sequence[SemparseExample],
    split_type: str = "question",
    splits: Iterable[str] | str | None = None,
    *,
    source: str = "the dataset",
) -> list[SemparseExample]:
    """Keep the examples whose ``split_type`` split is one of ``splits`` (``None``: all).

    A single string is one split name. A requested split that no example carries raises
    :class:`DatasetError` listing those that exist.

    Example:
        >>> rows = [SemparseExample("q1", "g1", question_split="train"),
        ...         SemparseExample("q2", "g2", question_split="test")]
        >>> [e.question for e in select_split(rows, "question", ["test"])]
        ['q2']
    """
    _check_split_type(split_type)
    attribute = f"{split_type}_split"
    if splits is None:
        return list(examples)
    wanted = {splits} if isinstance(splits, str) else {str(split) for split in splits}
    labels = (getattr(example, attribute) for example in examples)
    available = sorted({label for label in labels if label is not None})
    for split in sorted(wanted):
        if split not in available:
            raise DatasetError(
                f"Split {split!r} does not exist in the {split_type} split of {source}; "
                f"available: {', '.join(available) or 'none'}.{closest_match_hint(split, available)}"
            )
    return [example for example in examples if getattr(example, attribute) in wanted]


def load_text2sql(
    path: str | Path,
    *,
    split_type: str = "question",
    splits: Iterable[str] | str | None = None,
) -> list[SemparseExample]:
    """Read a text2sql-data JSON file into one :class:`SemparseExample` per sentence.

    Args:
        path (str | Path): The JSON file (e.g. ``text2sql/geography.json``).
        split_type (str): ``"question"`` (default) or ``"query"``: which split ``splits`` selects on.
        splits (Iterable[str] | str | None): Split names to keep (``"train"``, ``"dev"``, ``"test"``
            or fold numbers); ``None`` (default) keeps every example.

    Returns:
        The examples in file order; ``question`` and ``gold`` have the values filled in,
        ``template_question``/``template_gold`` keep the placeholders.

    Raises:
        DatasetError: The file is missing, is not valid JSON, or has a malformed entry
            (no ``sql``, no ``sentences``, an empty question, a used placeholder without a
            value); the message names the file, the entry index and the fix.
        ValueError: ``split_type`` is not ``"question"`` or ``"query"``.
    """
    _check_split_type(split_type)
    return select_split(read_text2sql(path)[1], split_type, splits, source=str(path))


def read_text2sql(path: str | Path) -> tuple[list[Any], list[SemparseExample]]:
    """The entries of a text2sql-data JSON file as parsed and one :class:`SemparseExample` per
    sentence (in file order), from one read of the file; raises as :func:`load_text2sql`.

    Example:
        >>> from textattack_semparse.datasets.geo_mini import geo_mini_paths
        >>> entries, examples = read_text2sql(geo_mini_paths()[0])
        >>> sum(len(entry["sentences"]) for entry in entries) == len(examples)
        True
    """
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DatasetError(
            f"text2sql file {str(path)!r} does not exist. Check the path, or set SEMPARSE_DATA_DIR "
            f"to the folder that holds 'text2sql/'."
        ) from None
    except OSError as error:
        raise DatasetError(f"text2sql file {str(path)!r} cannot be read: {error}.") from error
    try:
        entries = json.loads(raw)
    except json.JSONDecodeError as error:
        raise DatasetError(
            f"{path} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}). "
            f"Expected a list of text2sql-data entries."
        ) from None
    if not isinstance(entries, list):
        raise DatasetError(
            f"{path} holds a JSON {type(entries).__name__}; the text2sql-data format is a list of entries "
            f"with 'sql', 'sentences', 'variables' and 'query-split'."
        )
    return entries, [example for index, entry in enumerate(entries) for example in _entry_examples(entry, path, index)]

