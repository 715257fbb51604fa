"""Entity anonymisation around a trained parser: database values become typed placeholders
before the model reads a question and real values again after it writes the output.

Dong & Lapata (2016), "Language to Logical Form with Neural Attention" (ACL,
https://aclanthology.org/P16-1004/), and Finegan-Dollak et al. (2018), "Improving Text-to-SQL
Evaluation Methodology" (ACL, https://aclanthology.org/P18-1033/), train and test their
parsers on questions whose entities are replaced by typed placeholders (``s0``,
``state_name0``). The model never has to spell a value, so values unseen in
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
import string
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.geoquery_constants import KnownConstant
from textattack_semparse.datasets.logical_form import Constant, logical_form_constants
from textattack_semparse.datasets.text2sql import fill_placeholders
from textattack_semparse.datasets.value_lexicon import Mention, ValueLexicon, normalize_text, word_ngrams, word_pattern
from textattack_semparse.errors import ConfigurationError

ANONYMIZATION_FILE = "semparse_anonymization.json"
"""Saved beside a trained model; :class:`~textattack_semparse.victims.seq2seq_parser.Seq2SeqParser`
applies it when present."""

STYLES = ("sql", "logical_form")

ANONYMIZATION_REVISION = 4
"""Raised when what :meth:`EntityAnonymizer.fit` learns changes (2: the words around training
placeholders, for SQL too; 3: values spelled in the plural, and a placeholder in a training gold
only where its question has it; 4: a value's words joined by a mark also read with a space,
"client server" for ``client/server``, and a city named with its state read as that state's city): part of a cached trained victim's key, so a victim trained with
an older anonymiser is trained again rather than reused."""

_PLACEHOLDER_ATOM = re.compile(r"^[a-z]+\d+$")
"""Constants already anonymised by the dataset (ATIS-lambda's ``ci0``) stay as they are."""
_PLACEHOLDER = re.compile(r"(?<!\w)(?P<type>[a-z]+(?:_[a-z]+)*)\d+(?!\w)")
"""A placeholder in an anonymised question: ``c0``, ``language0``, ``state_name0``."""
_TYPED_ATOM = re.compile(r"^[^:<>]+:[A-Za-z]+$")
"""A constant with a type suffix (``austin_tx:c``); JOBS' (``(language $0 java)``) are typed by
the predicate that takes them."""

_JOINING_MARKS = re.compile(r"(?<=\w)[^\w\s]+(?=\w)")
"""Marks between two word characters of a value (``tcp/ip``), which questions may write as a space."""
_WORD_CHARACTERS = re.compile(r"\w+")
_WORD = re.compile(r"[^\s'\"?!,.]+")
"""A question word, quotes and sentence punctuation left out (``'vc++'`` -> ``vc++``)."""


def placeholder_type(atom: str) -> str | None:
    """The type a placeholder names (``s0`` -> ``s``, ``state_name1`` -> ``state_name``); ``None`` for
    any other atom.

    Example:
        >>> placeholder_type("state_name1"), placeholder_type("texas:s")
        ('state_name', None)
    """
    match = _PLACEHOLDER.fullmatch(atom)
    return match.group("type") if match else None


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
        contexts (Mapping[str, Mapping[str, int]] | None, default None): The word before a
            training placeholder -> its type -> how often; of a value's types, the one its
            preceding word most often precedes in training is chosen ("cities named austin" ->
            ``n``, "the population of austin" -> ``c``), its following word breaking ties.
        following (Mapping[str, Mapping[str, int]] | None, default None): The word after a
            training placeholder -> its type -> how often ("the mississippi river" ->
            ``river_name0 river``). Where the lexicon reads a question several ways, the reading
            whose values these contexts support most is taken ("the mississippi river" as the
            river "mississippi" followed by "river", as the training templates write it, not
            as the lowest point "mississippi river").
        vocabulary (Mapping[str, int] | None, default None): Logical forms whose constants have
            no type suffix (JOBS) only: the words of the anonymised training questions -> how
            often. Words outside it (and the lexicon) in a row, after a word that a placeholder
            follows at least half the time in training, are copied as a placeholder of
            themselves, of the type their neighbouring words suggest (JOBS: "jobs using
            'vc++'" -> ``jobs using 'language0'``, ``language0`` -> ``vc++``) and spelled as
            training spells that type's values (``"Applied Materials"``): the model cannot
            spell a word it never saw, but it can copy its placeholder. The plural of a lexicon
            value is that value ("pcs" -> ``pc``).
        type_names (Mapping[str, str] | None, default None): Logical forms only: a value type ->
            the placeholder type written for it, where predicates take the same atoms (JOBS'
            ``req_deg`` and ``des_deg`` both take ``BSCS``: one type ``deg``). The placeholder
            then does not say which predicate to write; the question's words do ("requires" or
            "desires"), as in Dong & Lapata's anonymised JOBS (``degid0`` for both).
        plurals (Iterable[str] | None, default None): Logical forms only: plural spellings of
            training values read as those values (JOBS' "databases" -> ``database``), learnt by
            :meth:`fit` where training questions use the plural as a value at least as often as
            otherwise ("years" is mostly "5 years of experience", not the salary unit ``year``).
        qualified (Mapping[str, Mapping[str, str]] | None, default None): Logical forms with typed
            atoms only: a value followed by another value that stays a word, as training names them
            ("portland maine") -> type -> the atom training wrote (``portland_me:c``). The value
            alone is then read as training reads it alone, else as the known constants have it
            (``portland_or:c``, the most populous Portland), since naming the state says nothing of
            which Portland the name alone means.

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
        contexts: Mapping[str, Mapping[str, int]] | None = None,
        vocabulary: Mapping[str, int] | None = None,
        type_names: Mapping[str, str] | None = None,
        following: Mapping[str, Mapping[str, int]] | None = None,
        plurals: Iterable[str] | None = None,
        qualified: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        if style not in STYLES:
            raise ConfigurationError(f"style must be one of {', '.join(STYLES)}, got {style!r}.")
        self.lexicon = lexicon
        self.style = style
        self.atoms = {key: dict(by_type) for key, by_type in (atoms or {}).items()}
        self.contexts = {word: dict(by_type) for word, by_type in (contexts or {}).items()}
        self.following = {word: dict(by_type) for word, by_type in (following or {}).items()}
        self.vocabulary = dict(vocabulary or {})
        self.type_names = dict(type_names or {})
        self.plurals = frozenset(plurals or ())
        self.qualified = {phrase: dict(by_type) for phrase, by_type in (qualified or {}).items()}

    @classmethod
    def fit(
        cls,
        examples: Iterable[SemparseExample],
        *,
        database: str | os.PathLike[str] | None = None,
        known_constants: Iterable[KnownConstant] = (),
    ) -> EntityAnonymizer:
        """Learn the values of the training ``examples`` (and of ``database``, for SQL; of
        ``known_constants``, for logical forms).

        Examples with templates (text2sql-data) give an SQL anonymiser; examples without
        (Dong & Lapata files) a logical-form one. A known constant adds its type to a training
        value that lacks it; one training never saw becomes a value of its own, with its types
        in order of their training frequency, unless the training questions use its spelling
        as ordinary words ("high point" is also a city). A value whose words a mark joins
        (``client/server``) is also read with a space there, as questions write it.
        """
        examples = list(examples)
        if not examples:
            raise ConfigurationError("EntityAnonymizer.fit needs training examples; got none.")
        if any(example.template_gold is not None for example in examples):
            anonymizer = cls(ValueLexicon.from_examples(examples, database=database), "sql")
            value_types = {value_type for _, types in anonymizer.lexicon.entries.values() for value_type in types}
            anonymizer._learn_contexts(examples, value_types)
            return anonymizer
        plurals = _value_plurals(examples)
        known = list(known_constants)
        found = [(example, _constants(example, plurals)) for example in examples]
        value_pattern = word_pattern(
            {normalize_text(item.spelling) for _, constants in found for item in constants}
            | {normalize_text(item.spelling) for item in known}
        )
        counts: dict[str, Counter[tuple[str, str]]] = {}
        alone: Counter[tuple[str, str]] = Counter()  # (spelling, atom) -> mentions with no value named after them
        qualified: dict[str, dict[str, str]] = {}
        for example, constants in found:
            text = normalize_text(example.question)
            spellings = {normalize_text(constant.spelling) for constant in constants}
            for constant in constants:
                key = normalize_text(constant.spelling)
                counts.setdefault(key, Counter())[constant.type, constant.atom] += 1
                after = _value_after(text, key, value_pattern) if _TYPED_ATOM.match(constant.atom) else None
                if after is None or after in spellings:
                    alone[key, constant.atom] += 1
                else:  # "portland maine": the city of that state, which says nothing of "portland" alone
                    qualified.setdefault(f"{key} {after}", {})[constant.type] = constant.atom
        type_names = _shared_atom_types(counts)
        counts = {
            key: Counter({(type_names.get(value_type, value_type), atom): count for (value_type, atom), count in by_type_atom.items()})
            for key, by_type_atom in counts.items()
        }
        entries: dict[str, tuple[str, list[str]]] = {}
        atoms: dict[str, dict[str, str]] = {}
        type_totals: Counter[str] = Counter()
        for key, by_type_atom in counts.items():
            key_totals: Counter[str] = Counter()
            for (value_type, _), count in by_type_atom.items():
                key_totals[value_type] += count
            type_totals.update(key_totals)
            types = sorted(key_totals, key=lambda value_type: (-key_totals[value_type], value_type))
            for form in _written_forms(key):
                entries.setdefault(form, (key, types))
            atoms[key] = {}
            for (value_type, atom), _ in sorted(by_type_atom.items(), key=lambda item: (-alone[key, item[0][1]], -item[1])):
                atoms[key].setdefault(value_type, atom)
        phrases = word_ngrams(example.question for example in examples) if known else set()
        for domain_constant in sorted(known, key=lambda item: (-type_totals[item.type], item.type)):
            key = normalize_text(domain_constant.spelling)
            if key not in counts and key in phrases:
                continue
            spelling, types = entries.setdefault(key, (key, []))
            for form in _written_forms(key)[1:]:
                if form not in phrases:
                    entries.setdefault(form, (spelling, types))
            if domain_constant.type not in types:
                types.append(domain_constant.type)
                atoms.setdefault(key, {})[domain_constant.type] = domain_constant.atom
            elif key in counts and not alone[key, atoms[key][domain_constant.type]]:
                atoms[key][domain_constant.type] = domain_constant.atom  # training named it only with its state
        training_keys = {form for key in counts for form in _written_forms(key)}
        anonymizer = cls(
            ValueLexicon(entries, training_keys),
            "logical_form",
            atoms,
            type_names=type_names,
            plurals=plurals,
            qualified=qualified,
        )
        vocabulary = anonymizer._learn_contexts(examples, set(type_totals))
        untyped = any(not _TYPED_ATOM.match(atom) for by_type_atom in counts.values() for _, atom in by_type_atom)
        if untyped:
            anonymizer.vocabulary = dict(sorted(vocabulary.items()))
        return anonymizer

    def _learn_contexts(self, examples: Iterable[SemparseExample], value_types: set[str]) -> Counter[str]:
        """Set :attr:`contexts` and :attr:`following` from the training questions with their
        placeholders (:meth:`training_pair`); return the words of those questions, counted."""
        before: dict[str, Counter[str]] = {}
        after: dict[str, Counter[str]] = {}
        vocabulary: Counter[str] = Counter()
        for example in examples:
            text = self.training_pair(example)[0]
            vocabulary.update(_WORD.findall(text))
            for match in _PLACEHOLDER.finditer(text):
                if match.group("type") in value_types:
                    before.setdefault(_previous_word(text, match.start()), Counter())[match.group("type")] += 1
                    after.setdefault(_next_word(text, match.end()), Counter())[match.group("type")] += 1
        self.contexts = {word: dict(by_type) for word, by_type in sorted(before.items())}
        self.following = {word: dict(by_type) for word, by_type in sorted(after.items())}
        return vocabulary

    def training_pair(self, example: SemparseExample) -> tuple[str, str]:
        """The anonymised (question, gold) a model is trained on, from the gold's own values: a
        placeholder is in the gold only where it is in the question."""
        if self.style == "sql":
            if example.template_question is None or example.template_gold is None:
                return normalize_text(example.question), example.gold
            return normalize_text(example.template_question), example.template_gold
        text = normalize_text(example.question)
        gold = example.gold
        numbers: Counter[str] = Counter()
        for constant in _constants(example, self.plurals):
            value_type = self.type_names.get(constant.type, constant.type)
            placeholder = f"{value_type}{numbers[value_type]}"
            text, replaced = word_pattern(_written_forms(normalize_text(constant.spelling))).subn(placeholder, text, count=1)
            if not replaced:
                continue  # spelled around quotes ("visual 'c++'"): the value stays in both, as the question has it
            numbers[value_type] += 1
            gold = _replace_token(gold, constant.atom, placeholder)
        return text, gold

    def anonymize(self, question: str) -> AnonymizedText:
        """The question's entities (the lexicon's reading the training contexts support most,
        each value with the type its neighbouring words suggest) as placeholders."""
        text = normalize_text(question)
        known = self._best_reading(text)
        mentions = sorted((*known, *self._unknown_words(text, known)), key=lambda m: m.start)
        pieces: list[str] = []
        values: dict[str, str] = {}
        seen: dict[tuple[str, str], str] = {}
        numbers: Counter[str] = Counter()
        last = 0
        previous: tuple[str, str, str] | None = None  # the last placeholder's text, type and name
        for mention in mentions:
            before = "".join(pieces) + text[last : mention.start]
            previous_word = _previous_word(before, len(before))
            key = text[mention.start : mention.end]
            if self._never_follows(previous_word):
                # "erie pennsylvania": training leaves a city's state a word, and the state picks the city
                if previous is not None and previous[2] == previous_word:
                    atom = self.qualified.get(f"{previous[0]} {key}", {}).get(previous[1])
                    values[previous[2]] = atom or values[previous[2]]
                continue
            value_type = self._likeliest_type(mention.types, previous_word, _next_word(text, mention.end))
            placeholder = seen.get((key, value_type))
            if placeholder is None:
                placeholder = f"{value_type}{numbers[value_type]}"
                numbers[value_type] += 1
                seen[key, value_type] = placeholder
                values[placeholder] = (
                    self._atom(mention.value, value_type) if self.style == "logical_form" else mention.value
                )
            pieces += [text[last : mention.start], placeholder]
            last = mention.end
            previous = key, value_type, placeholder
        pieces.append(text[last:])
        return AnonymizedText("".join(pieces), MappingProxyType(values))

    def _atom(self, spelling: str, value_type: str) -> str:
        """The atom a logical form writes for the value ``spelling`` of ``value_type``: training's,
        else (a value training never saw) ``spelling`` in the case of most of the type's training
        atoms (JOBS' companies capitalised, its degrees upper case) and, when it has several words,
        in double quotes if training's atoms of several words mostly are (JOBS' ``"san antonio"``)."""
        known = self.atoms.get(spelling, {}).get(value_type)
        if known is not None:
            return known
        typed = [by_type[value_type] for by_type in self.atoms.values() if value_type in by_type]
        cases = Counter(case for case in map(_case, (atom.strip('"') for atom in typed)) if case is not None)
        case = max(sorted(cases), key=lambda name: cases[name]) if cases else "lower"
        atom = {"upper": spelling.upper(), "title": string.capwords(spelling)}.get(case, spelling)
        several = [other for by_type in self.atoms.values() for other in by_type.values() if " " in other]
        if " " in atom and 2 * sum(other.startswith('"') for other in several) > len(several):
            return f'"{atom}"'
        return atom

    def _unknown_words(self, text: str, known: Sequence[Mention]) -> tuple[Mention, ...]:
        """The words of ``text`` outside :attr:`vocabulary` and the lexicon's mentions ``known``:
        a plural of a lexicon value as that value ("pcs" -> ``pc``); a run of them after a word
        placeholders mostly follow as one mention of itself ("at applied materials"), of the type
        its neighbouring words suggest (:meth:`_copied_type`)."""
        if not self.vocabulary:
            return ()
        covered = [(mention.start, mention.end) for mention in known]
        unknown = [
            match
            for match in _WORD.finditer(text)
            if match.group() not in self.vocabulary
            and not any(start < match.end() and match.start() < end for start, end in covered)
        ]
        mentions: list[Mention] = []
        unseen: list[re.Match[str]] = []
        for match in unknown:
            singular = self.lexicon.entries.get(match.group()[:-1]) if match.group().endswith("s") else None
            if singular is None:
                unseen.append(match)
            else:
                mentions.append(Mention(match.start(), match.end(), singular[0], tuple(singular[1])))
        run: list[re.Match[str]] = []
        for position, match in enumerate(unseen):
            run.append(match)
            following = unseen[position + 1] if position + 1 < len(unseen) else None
            if following is not None and text[match.end() : following.start()] == " ":
                continue  # the run goes on (a plural between two unseen words ends it: the gap is more than a space)
            start, end = run[0].start(), run[-1].end()
            run = []
            value_type = self._copied_type(_previous_word(text, start), self._next_mention_word(text, end, known))
            if value_type is not None:
                mentions.append(Mention(start, end, text[start:end], (value_type,)))
        return tuple(mentions)

    def _next_mention_word(self, text: str, end: int, known: Sequence[Mention]) -> str:
        """The word after position ``end``, as a training question has it: a lexicon mention that
        starts there reads as a placeholder of its likeliest type ("a delphi developer" ->
        ``title0``)."""
        for mention in known:
            if mention.start > end and not text[end : mention.start].strip():
                return f"{mention.types[0]}0"
        return _next_word(text, end)

    def _copied_type(self, previous_word: str, following_word: str = "") -> str | None:
        """If placeholders follow ``previous_word`` in at least half of its training occurrences,
        the type likeliest between it and ``following_word``: the most of ``P(previous | type) ×
        P(following | type) × P(type)`` as training counts them, the following word's probability
        add-one smoothed (naive Bayes: "a ole specialist" is an ``area``, though "a" precedes degrees
        most); else ``None``."""
        by_type = self.contexts.get(previous_word, {})
        follows = sum(by_type.values())
        if not follows or 2 * follows < self.vocabulary.get(previous_word, 0):
            return None
        after = self.following.get(following_word, {})
        totals, words_after = self._type_totals(), len(self.following)

        def likelihood(value_type: str) -> float:
            return by_type[value_type] * (after.get(value_type, 0) + 1) / (totals[value_type] + words_after)

        return max(sorted(by_type), key=likelihood)

    def _type_totals(self) -> Counter[str]:
        """How many training placeholders of each type there are (counted from :attr:`contexts`)."""
        totals: Counter[str] = Counter()
        for by_type in self.contexts.values():
            totals.update(by_type)
        return totals

    def _never_follows(self, previous_word: str) -> bool:
        """Whether ``previous_word`` is a placeholder that no training placeholder follows."""
        return (
            bool(self.contexts)
            and _PLACEHOLDER.fullmatch(previous_word) is not None
            and (previous_word not in self.contexts)
        )

    def _best_reading(self, text: str) -> tuple[Mention, ...]:
        """Of the lexicon's readings of ``text`` (its first one first), the one whose values'
        neighbouring words surround a placeholder most often in training."""
        readings = self.lexicon.segmentations(text)
        if len(readings) == 1:
            return readings[0]

        def support(mention: Mention) -> int:
            around = _previous_word(text, mention.start), _next_word(text, mention.end)
            return max(sum(self._context_counts(value_type, *around)) for value_type in mention.types)

        supports = [sum(map(support, reading)) for reading in readings]
        return readings[max(range(len(readings)), key=lambda index: (supports[index], -index))]

    def _context_counts(self, value_type: str, previous_word: str, following_word: str) -> tuple[int, int]:
        """How often training placeholders of ``value_type`` follow ``previous_word``, and how
        often they precede ``following_word``."""
        return (
            self.contexts.get(previous_word, {}).get(value_type, 0),
            self.following.get(following_word, {}).get(value_type, 0),
        )

    def _likeliest_type(self, types: tuple[str, ...], previous_word: str, following_word: str) -> str:
        """Of a value's ``types`` (likeliest first), the one ``previous_word`` most often precedes,
        then ``following_word`` most often follows."""
        return max(
            types,
            key=lambda value_type: (
                *self._context_counts(value_type, previous_word, following_word),
                -types.index(value_type),
            ),
        )

    def anonymize_output(self, output: str, values: Mapping[str, str]) -> str:
        """A real output (a gold SQL query or logical form) with ``values`` as their placeholders."""
        for placeholder, value in values.items():
            output = _replace_token(output, value, placeholder)
        return output

    def deanonymize(self, output: str, values: Mapping[str, str]) -> str:
        """The model's output with each placeholder replaced by the value it stands for."""
        return fill_placeholders(output, values)

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"style": self.style, "lexicon": self.lexicon.to_dict(), "atoms": self.atoms}
        if self.contexts:
            data["contexts"] = self.contexts
        if self.following:
            data["following"] = self.following
        if self.vocabulary:
            data["vocabulary"] = self.vocabulary
        if self.type_names:
            data["type_names"] = self.type_names
        if self.plurals:
            data["plurals"] = sorted(self.plurals)
        if self.qualified:
            data["qualified"] = dict(sorted(self.qualified.items()))
        return data

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
        return cls(
            ValueLexicon.from_dict(data["lexicon"]),
            data["style"],
            data.get("atoms"),
            data.get("contexts"),
            data.get("vocabulary"),
            data.get("type_names"),
            data.get("following"),
            data.get("plurals"),
            data.get("qualified"),
        )


def _shared_atom_types(counts: Mapping[str, Counter[tuple[str, str]]]) -> dict[str, str]:
    """Value type -> the name of its group, for types that take the same atom for some value
    (types of one group become one placeholder type; types alone in their group are left out).

    A group is named by the words (``_``-separated) its types end with, else begin with, else
    by its most frequent type: ``req_exp``/``des_exp`` -> ``exp``, ``salary_greater_than``/
    ``salary_less_than`` -> ``salary``, ``loc``/``country`` -> ``loc``.

    Example:
        >>> _shared_atom_types({"bscs": Counter({("req_deg", "BSCS"): 60, ("des_deg", "BSCS"): 6}),
        ...                     "texas": Counter({("s", "texas:s"): 9, ("n", "texas:n"): 1})})
        {'des_deg': 'deg', 'req_deg': 'deg'}
    """
    group_of: dict[str, str] = {}

    def root(value_type: str) -> str:
        while group_of.get(value_type, value_type) != value_type:
            value_type = group_of[value_type]
        return value_type

    totals: Counter[str] = Counter()
    for by_type_atom in counts.values():
        types_by_atom: dict[str, list[str]] = {}
        for (value_type, atom), count in by_type_atom.items():
            totals[value_type] += count
            types_by_atom.setdefault(atom, []).append(value_type)
        for value_types in types_by_atom.values():
            first = root(value_types[0])
            for other in value_types[1:]:
                if root(other) != first:
                    group_of[root(other)] = first
    groups: dict[str, list[str]] = {}
    for value_type in totals:
        groups.setdefault(root(value_type), []).append(value_type)
    names: dict[str, str] = {}
    for members in groups.values():
        if len(members) > 1:
            name = _group_name(sorted(members, key=lambda value_type: (-totals[value_type], value_type)), totals)
            names.update(dict.fromkeys(members, name))
    return dict(sorted(names.items()))


def _group_name(members: list[str], taken: Iterable[str]) -> str:
    """The longer of the ``_``-separated words all ``members`` end with and those they begin with,
    else the first member (also when that name is ``taken`` by a type outside the group)."""
    words = [member.split("_") for member in members]
    suffix = "_".join(reversed(os.path.commonprefix([list(reversed(parts)) for parts in words])))
    prefix = "_".join(os.path.commonprefix(words))
    name = max(suffix, prefix, key=len)
    return name if name and (name in members or name not in set(taken)) else members[0]


def _constants(example: SemparseExample, plurals: frozenset[str] | None) -> list[Constant]:
    """The constants of the example's gold its question spells, in the plural only where
    ``plurals`` has the spelling (``None``: every plural spelling, as :func:`_value_plurals` weighs them)."""
    return [
        constant
        for constant in logical_form_constants(example.question, example.gold, plurals=plurals is None or bool(plurals))
        if not _PLACEHOLDER_ATOM.match(constant.atom)
        and (not constant.plural or plurals is None or normalize_text(constant.spelling) in plurals)
    ]


def _written_forms(spelling: str) -> list[str]:
    """``spelling`` and, where a mark joins two of its words, the same words with a space: the
    words the constant finder matches (:func:`~textattack_semparse.sql.literals.literal_words`), as
    questions write them ("client server" for JOBS' ``client/server`` in 4 training questions).

    Example:
        >>> _written_forms("tcp/ip"), _written_forms("c++")
        (['tcp/ip', 'tcp ip'], ['c++'])
    """
    spaced = _JOINING_MARKS.sub(" ", spelling)
    return [spelling] if spaced == spelling else [spelling, spaced]


def _value_after(text: str, spelling: str, values: re.Pattern[str]) -> str | None:
    """The value of ``values`` that ``text`` names right after the first ``spelling`` in it
    ("maine" in "the population of portland maine"), ``None`` when no value follows it."""
    found = word_pattern([spelling]).search(text)
    if found is None or text[found.end() : found.end() + 1] != " ":
        return None
    following = values.match(text, found.end() + 1)
    return following.group() if following else None


def _value_plurals(examples: list[SemparseExample]) -> frozenset[str]:
    """The plural spellings of training constants (JOBS' "databases" for ``database``) that the
    training questions use as the value at least as often as otherwise: "years" spells the salary
    unit ``year`` in 4 JOBS training questions and is an ordinary word ("5 years of experience")
    in many more, so it is left out."""
    mentions = Counter(
        normalize_text(constant.spelling)
        for example in examples
        for constant in _constants(example, None)
        if constant.plural
    )
    if not mentions:
        return frozenset()
    words = Counter(word for example in examples for word in _WORD.findall(normalize_text(example.question)))
    return frozenset(spelling for spelling, count in mentions.items() if 2 * count >= words[spelling])


def _case(atom: str) -> str | None:
    """``"lower"``, ``"upper"`` or ``"title"`` (each word capitalised), as ``atom`` is written;
    ``None`` for atoms without letters or in mixed case (``PhD``)."""
    if atom.lower() == atom.upper():
        return None
    if atom == atom.lower():
        return "lower"
    if atom == atom.upper():
        return "upper"
    return "title" if atom == string.capwords(atom) else None


def _previous_word(text: str, start: int) -> str:
    """The word before position ``start`` of ``text`` ("" at the start)."""
    words = _WORD_CHARACTERS.findall(text[:start])
    return words[-1] if words else ""


def _next_word(text: str, end: int) -> str:
    """The word after position ``end`` of ``text`` ("" at the end)."""
    word = _WORD_CHARACTERS.search(text, end)
    return word.group() if word else ""


def _replace_token(text: str, token: str, replacement: str) -> str:
    """``text`` with whole-token occurrences of ``token`` (not inside a longer name) replaced."""
    pattern = re.compile(rf"(?<![\w:$]){re.escape(token)}(?![\w:])")
    return pattern.sub(lambda _: replacement, text)
