"""Entity anonymisation around a trained parser: database values become typed placeholders
before the model reads a question and real values again after it writes the output.

Dong & Lapata (2016), "Language to Logical Form with Neural Attention" (ACL,
https://aclanthology.org/P16-1004/), and Finegan-Dollak et al. (2018), "Improving Text-to-SQL
Evaluation Methodology" (ACL, https://aclanthology.org/P18-1033/), train and test their
parsers on questions whose entities are replaced by typed placeholders (``s0``,
``state_name0``); Huang et al. (2021), "On Robustness of Neural Semantic Parsers" (EACL),
train their victims the same way. The model never has to spell a value, so values unseen in
training are parsed like seen ones.

Training pairs come from the gold: text2sql-data examples carry their templates
(``template_question``/``template_gold``); for logical forms, the constants the question
spells out (:func:`~textattack_semparse.datasets.logical_form.logical_form_constants`) are
replaced in both. At parse time a :class:`~textattack_semparse.datasets.value_lexicon.ValueLexicon`
(training values, plus the database's values for SQL) finds the entities of a new question;
each gets its likeliest type, numbered per type in question order as the training
templates are.

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

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.logical_form import Constant, logical_form_constants
from textattack_semparse.datasets.text2sql import fill_placeholders
from textattack_semparse.datasets.value_lexicon import ValueLexicon, normalize_text, word_pattern
from textattack_semparse.errors import ConfigurationError

ANONYMIZATION_FILE = "semparse_anonymization.json"
"""Saved beside a trained model; :class:`~textattack_semparse.victims.seq2seq_parser.Seq2SeqParser`
applies it when present."""

STYLES = ("sql", "logical_form")

_PLACEHOLDER_ATOM = re.compile(r"^[a-z]+\d+$")
"""Constants already anonymised by the dataset (ATIS-lambda's ``ci0``) stay as they are."""


@dataclass(frozen=True)
class AnonymizedText:
    """A question with typed placeholders, and what each placeholder stands for in the output."""

    text: str
    values: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


class EntityAnonymizer:
    """Replaces entities by typed placeholders in questions and back in outputs.

    Args:
        lexicon (ValueLexicon): The values to look for, with their types.
        style (str): ``"sql"`` (a placeholder stands for the value as the database spells
            it, quoted or not as the SQL has it) or ``"logical_form"`` (a placeholder stands
            for a constant atom).
        atoms (Mapping[str, Mapping[str, str]] | None, default None): Logical forms only:
            normalised spelling -> type -> the atom written for it (``"austin" -> {"c":
            "austin_tx:c"}``).

    Example:
        >>> from textattack_semparse.datasets.example import SemparseExample
        >>> anonymizer = EntityAnonymizer.fit([SemparseExample(
        ...     "how big is austin", "(size:<lo,i> austin_tx:c)")])
        >>> anonymizer.training_pair(SemparseExample("how big is austin", "(size:<lo,i> austin_tx:c)"))
        ('how big is c0', '(size:<lo,i> c0)')
        >>> question = anonymizer.anonymize("How big is Austin?")
        >>> question.text, dict(question.values)
        ('how big is c0?', {'c0': 'austin_tx:c'})
        >>> anonymizer.deanonymize("(size:<lo,i> c0)", question.values)
        '(size:<lo,i> austin_tx:c)'
    """

    def __init__(
        self,
        lexicon: ValueLexicon,
        style: str,
        atoms: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        if style not in STYLES:
            raise ConfigurationError(f"style must be one of {', '.join(STYLES)}, got {style!r}.")
        self.lexicon = lexicon
        self.style = style
        self.atoms = {key: dict(by_type) for key, by_type in (atoms or {}).items()}

    @classmethod
    def fit(
        cls, examples: Iterable[SemparseExample], *, database: str | os.PathLike[str] | None = None
    ) -> EntityAnonymizer:
        """Learn the values of the training ``examples`` (and of ``database``, for SQL).

        Examples with templates (text2sql-data) give an SQL anonymiser; examples without
        (Dong & Lapata files) a logical-form one.
        """
        examples = list(examples)
        if not examples:
            raise ConfigurationError("EntityAnonymizer.fit needs training examples; got none.")
        if any(example.template_gold is not None for example in examples):
            return cls(ValueLexicon.from_examples(examples, database=database), "sql")
        counts: dict[str, Counter[tuple[str, str]]] = {}
        for example in examples:
            for constant in _constants(example):
                counts.setdefault(normalize_text(constant.spelling), Counter())[constant.type, constant.atom] += 1
        entries: dict[str, tuple[str, list[str]]] = {}
        atoms: dict[str, dict[str, str]] = {}
        for key, by_type_atom in counts.items():
            type_totals: Counter[str] = Counter()
            for (value_type, _), count in by_type_atom.items():
                type_totals[value_type] += count
            entries[key] = (key, sorted(type_totals, key=lambda value_type: (-type_totals[value_type], value_type)))
            atoms[key] = {}
            for (value_type, atom), _ in sorted(by_type_atom.items(), key=lambda item: -item[1]):
                atoms[key].setdefault(value_type, atom)
        return cls(ValueLexicon(entries), "logical_form", atoms)

    def training_pair(self, example: SemparseExample) -> tuple[str, str]:
        """The anonymised (question, gold) a model is trained on, from the gold's own values."""
        if self.style == "sql":
            if example.template_question is None or example.template_gold is None:
                return normalize_text(example.question), example.gold
            return normalize_text(example.template_question), example.template_gold
        text = normalize_text(example.question)
        gold = example.gold
        numbers: Counter[str] = Counter()
        for constant in _constants(example):
            placeholder = f"{constant.type}{numbers[constant.type]}"
            numbers[constant.type] += 1
            text = word_pattern([normalize_text(constant.spelling)]).sub(placeholder, text, count=1)
            gold = _replace_token(gold, constant.atom, placeholder)
        return text, gold

    def anonymize(self, question: str) -> AnonymizedText:
        """The question's entities (the lexicon's first reading, likeliest types) as placeholders."""
        text = normalize_text(question)
        mentions = self.lexicon.segmentations(text)[0]
        pieces: list[str] = []
        values: dict[str, str] = {}
        seen: dict[tuple[str, str], str] = {}
        numbers: Counter[str] = Counter()
        last = 0
        for mention in mentions:
            value_type = mention.types[0]
            key = text[mention.start : mention.end]
            placeholder = seen.get((key, value_type))
            if placeholder is None:
                placeholder = f"{value_type}{numbers[value_type]}"
                numbers[value_type] += 1
                seen[key, value_type] = placeholder
                values[placeholder] = self.atoms[key][value_type] if self.style == "logical_form" else mention.value
            pieces += [text[last : mention.start], placeholder]
            last = mention.end
        pieces.append(text[last:])
        return AnonymizedText("".join(pieces), MappingProxyType(values))

    def anonymize_output(self, output: str, values: Mapping[str, str]) -> str:
        """A real output (a gold SQL query or logical form) with ``values`` as their placeholders."""
        for placeholder, value in values.items():
            output = _replace_token(output, value, placeholder)
        return output

    def deanonymize(self, output: str, values: Mapping[str, str]) -> str:
        """The model's output with each placeholder replaced by the value it stands for."""
        return fill_placeholders(output, values)

    def to_dict(self) -> dict[str, object]:
        return {"style": self.style, "lexicon": self.lexicon.to_dict(), "atoms": self.atoms}

    def save(self, directory: str | os.PathLike[str]) -> Path:
        """Write :data:`ANONYMIZATION_FILE` into ``directory``."""
        path = Path(directory) / ANONYMIZATION_FILE
        path.write_text(json.dumps(self.to_dict(), indent=1) + "\n", encoding="utf-8")
        return path

    @classmethod
    def load(cls, directory: str | os.PathLike[str]) -> EntityAnonymizer | None:
        """The anonymiser saved in ``directory``; ``None`` when the model was trained without one."""
        path = Path(directory) / ANONYMIZATION_FILE
        if not path.is_file():
            return None
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(ValueLexicon.from_dict(data["lexicon"]), data["style"], data.get("atoms"))


def _constants(example: SemparseExample) -> list[Constant]:
    return [
        constant
        for constant in logical_form_constants(example.question, example.gold)
        if not _PLACEHOLDER_ATOM.match(constant.atom)
    ]


def _replace_token(text: str, token: str, replacement: str) -> str:
    """``text`` with whole-token occurrences of ``token`` (not inside a longer name) replaced."""
    pattern = re.compile(rf"(?<![\w:$]){re.escape(token)}(?![\w:])")
    return pattern.sub(lambda _: replacement, text)
