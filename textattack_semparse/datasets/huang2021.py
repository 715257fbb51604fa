"""Huang et al. (2021)'s released robustness test sets of GeoQuery, ATIS and JOBS.

Shuo Huang, Zhuang Li, Lizhen Qu and Lei Pan (2021), "On Robustness of Neural Semantic
Parsers", EACL, https://aclanthology.org/2021.eacl-main.292/.

The release, under ``<data_dir>/huang2021/`` (the layout of the authors' repository as issue 24
describes it; it could not be checked against a copy of the repository)::

    meaning_preserving_test_set/<op>/<domain>/   two line-aligned files: the originals (the name
                                                 contains ``_o``) and their rewrites; files
                                                 named ``*cleaned*`` are the same pair stemmed
                                                 and anonymised
    adversarial_test_set/<parser>/<parser>_<domain>_<op>_ad.txt
    black_box_test_set/<parser>/<parser>_<domain>_<op>_ad.txt

Every line is ``question<TAB>logical form``, the logical form in Dong & Lapata's untyped
notation. Operations (:data:`OPERATIONS`): ``insert``, ``remove``, ``replace``, ``non``
(substitution, non-functional words), ``back`` (back translation), ``para`` (reordering);
domains (:data:`DOMAINS`): ``geo``, ``atis``, ``jobs``.

A rewrite is scored against the gold the domain's benchmark (``geo-lambda``, ``atis-lambda``,
``jobs-lambda``) gives its original, found by the original's text
(:class:`~textattack_semparse.datasets.question_matching.QuestionMatcher`): victims of those
benchmarks are scored in their own notation. Of the two variants of a pair, the one whose
originals the benchmark matches more often is read (ties: the plain one), so GeoQuery and JOBS
read the natural questions and ATIS, whose benchmark is itself stemmed and anonymised, may read
the cleaned ones. A rewrite's placeholders get its original's entities. An adversarial line has
no original: it is paired with the original of a meaning-preserving set (else a benchmark
example) with the same logical form, the one whose words it shares most. Lines whose original
is not found are counted per operation and reason (:attr:`Huang2021Release.left_out`), never
silently dropped.

The examples follow the released-benchmark model of
:class:`~textattack_semparse.datasets.example.SemparseExample`: originals (the benchmark's
examples, ``perturbation`` :data:`ORIGINAL`, ``example_id`` ``<benchmark>/<index>``) and
rewrites (``perturbation`` the operation, or ``<parser>-<op>`` for the adversarial and
black-box sets; ``question_split`` the same, so each operation is a dataset).

Original to textattack-semparse. This module does not import TextAttack.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType

from textattack_semparse.datasets.example import ORIGINAL, SemparseExample
from textattack_semparse.datasets.logical_form import load_logical_forms
from textattack_semparse.datasets.question_matching import QuestionMatch, QuestionMatcher
from textattack_semparse.errors import DatasetError
from textattack_semparse.sql.literals import literal_words

FOLDER = "huang2021"
"""The release's folder under the data directory."""

MEANING_PRESERVING = "meaning_preserving_test_set"
ADVERSARIAL = "adversarial_test_set"
BLACK_BOX = "black_box_test_set"
SET_FOLDERS: Mapping[str, str] = MappingProxyType(
    {"meaning-preserving": MEANING_PRESERVING, "adversarial": ADVERSARIAL, "black-box": BLACK_BOX}
)
"""Kind of set -> its folder in the release."""

OPERATIONS: Mapping[str, str] = MappingProxyType(
    {
        "insert": "insertion",
        "remove": "deletion",
        "replace": "substitution",
        "non": "substitution of non-functional words (nf)",
        "back": "back translation",
        "para": "reordering",
    }
)
"""The release's operation folders -> the paper's names."""

DOMAINS: Mapping[str, str] = MappingProxyType({"geo": "geo-lambda", "atis": "atis-lambda", "jobs": "jobs-lambda"})
"""The release's domains -> the benchmark whose gold a rewrite is scored against."""

CLEANED = "cleaned"
NOT_FOUND = "original not found in the benchmark"
NO_ENTITY = "rewrite has a placeholder its original lacks"
NO_LOGICAL_FORM = "logical form of no original or benchmark example"

_ORIGINALS_MARK = "_o"
_SAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class UnmatchedLine:
    """A release line left out: no gold could be found for it.

    Args:
        file (Path): The rewrites' file.
        line (int): The line number (from 1).
        question (str): The rewrite as released.
        reason (str): Why (:data:`NOT_FOUND`, :data:`NO_ENTITY`, :data:`NO_LOGICAL_FORM`).
    """

    file: Path
    line: int
    question: str
    reason: str


@dataclass(frozen=True)
class Huang2021Release:
    """One kind of set of one domain, read and paired with the benchmark's golds.

    Args:
        examples (tuple[SemparseExample, ...]): The originals, then the rewrites in file order.
        unmatched (tuple[UnmatchedLine, ...]): The lines left out, with why.
        files (Mapping[str, Path]): Path relative to the release folder -> the file read.
        steps (Mapping[str, int]): How the originals were found: matching step -> lines.
    """

    examples: tuple[SemparseExample, ...]
    unmatched: tuple[UnmatchedLine, ...] = ()
    files: Mapping[str, Path] = field(default_factory=lambda: MappingProxyType({}))
    steps: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def left_out(self) -> dict[str, dict[str, int]]:
        """Perturbation -> reason -> count of the lines left out."""
        counts: dict[str, dict[str, int]] = {}
        for line in self.unmatched:
            by_reason = counts.setdefault(_perturbation_of(line.file), {})
            by_reason[line.reason] = by_reason.get(line.reason, 0) + 1
        return counts


@dataclass(frozen=True)
class _Pair:
    """A pair of line-aligned files: the originals and their rewrites."""

    originals: Path
    rewrites: Path


@dataclass(frozen=True)
class _Paired:
    """A release line whose original was found."""

    logical_form: str
    original_words: tuple[str, ...]
    match: QuestionMatch
    rewrite: str
    rewrite_line: int


_Reading = tuple[list[_Paired], list[tuple[int, str]]]
"""A pair read: the lines whose original was found, and (line, rewrite) of those whose was not."""


def operation_pairs(directory: Path) -> tuple[_Pair, ...]:
    """The plain pair of ``directory`` and, when present, its cleaned pair.

    Raises:
        DatasetError: The folder is missing, or a variant does not have exactly one originals
            file (name containing ``_o``) and one rewrites file.
    """
    if not directory.is_dir():
        raise DatasetError(
            f"Huang et al.'s release has no folder {str(directory)!r}; expected "
            f"'{MEANING_PRESERVING}/<op>/<domain>/' with an originals file (name containing '_o') and a rewrites file."
        )
    files = sorted(path for path in directory.iterdir() if path.is_file() and not path.name.startswith("."))
    pairs = []
    for cleaned in (False, True):
        variant = [path for path in files if (CLEANED in path.name.lower()) == cleaned]
        if not variant and cleaned:
            continue
        originals = [path for path in variant if _ORIGINALS_MARK in path.stem.lower().replace(CLEANED, "")]
        rewrites = [path for path in variant if path not in originals]
        if len(originals) != 1 or len(rewrites) != 1:
            kind = "cleaned" if cleaned else "plain"
            raise DatasetError(
                f"Folder {str(directory)!r} has {len(originals)} {kind} originals file(s) (name containing '_o') and "
                f"{len(rewrites)} {kind} rewrites file(s): {', '.join(path.name for path in variant) or 'none'}; "
                "expected one of each."
            )
        pairs.append(_Pair(originals[0], rewrites[0]))
    return tuple(pairs)


def load_huang2021_release(
    root: Path,
    domain: str,
    kind: str,
    benchmark_name: str,
    benchmark_examples: Sequence[SemparseExample],
) -> Huang2021Release:
    """Read one kind of set (``meaning-preserving``, ``adversarial``, ``black-box``) of ``domain``
    from the release folder ``root``, paired with the golds of ``benchmark_examples``.

    Raises:
        DatasetError: An unknown domain or kind, a missing folder, a malformed line, or an
            originals file and its rewrites of different lengths.
    """
    if domain not in DOMAINS:
        raise DatasetError(f"Huang et al.'s release has domains {', '.join(DOMAINS)}, not {domain!r}.")
    if kind not in SET_FOLDERS:
        raise DatasetError(f"Huang et al.'s release has sets {', '.join(SET_FOLDERS)}, not {kind!r}.")
    builder = _ReleaseBuilder(root, benchmark_name, benchmark_examples)
    if kind == "meaning-preserving":
        for operation in OPERATIONS:
            builder.add_operation(operation, domain)
    else:
        known = [
            line
            for operation in OPERATIONS
            for _, readings in [builder.read_operation(operation, domain)]
            for paired, _ in readings
            for line in paired
        ]
        builder.add_adversarial(root / SET_FOLDERS[kind], domain, known)
    return builder.release()


class _ReleaseBuilder:
    """Collects the originals and rewrites of a release as its files are read."""

    def __init__(self, root: Path, benchmark_name: str, examples: Sequence[SemparseExample]) -> None:
        self.root = root
        self.benchmark_name = benchmark_name
        order = sorted(range(len(examples)), key=lambda position: examples[position].question_split != "test")
        self._positions = order
        self._matcher = QuestionMatcher([examples[position] for position in order])
        self.originals: dict[str, SemparseExample] = {}
        self.rewrites: list[SemparseExample] = []
        self.unmatched: list[UnmatchedLine] = []
        self.files: dict[str, Path] = {}
        self.steps: dict[str, int] = {}

    def read_operation(self, operation: str, domain: str) -> tuple[tuple[_Pair, ...], list[_Reading]]:
        """The pairs of ``<op>/<domain>/`` (none when the folder is absent) and each one read."""
        directory = self.root / MEANING_PRESERVING / operation / domain
        if not directory.is_dir():
            return (), []
        pairs = operation_pairs(directory)
        return pairs, [self._read_pair(pair) for pair in pairs]

    def add_operation(self, operation: str, domain: str) -> None:
        """Read ``<op>/<domain>/``; the pairs of its best-matched variant become examples."""
        pairs, readings = self.read_operation(operation, domain)
        if not pairs:
            return
        best = max(range(len(readings)), key=lambda index: (len(readings[index][0]), -index))
        paired, unmatched = readings[best]
        pair = pairs[best]
        for path in (pair.originals, pair.rewrites):
            self.files[str(path.relative_to(self.root))] = path
        for line in paired:
            self.steps[line.match.step] = self.steps.get(line.match.step, 0) + 1
            question = line.match.fill(line.rewrite)
            if question is None:
                self.unmatched.append(UnmatchedLine(pair.rewrites, line.rewrite_line, line.rewrite, NO_ENTITY))
                continue
            original = self._original(line.match)
            example_id = f"{operation}/{domain}/{line.rewrite_line}"
            self.rewrites.append(self._rewrite(original, question, operation, example_id))
        self.unmatched.extend(UnmatchedLine(pair.rewrites, number, rewrite, NOT_FOUND) for number, rewrite in unmatched)

    def add_adversarial(self, folder: Path, domain: str, known: Sequence[_Paired]) -> None:
        """Read ``<parser>/<parser>_<domain>_<op>_ad.txt`` under ``folder``; each line is paired
        with a known original (else a benchmark example) of the same logical form."""
        if not folder.is_dir():
            raise DatasetError(
                f"Huang et al.'s release has no folder {str(folder)!r}; expected '<parser>/<parser>_<domain>_<op>_ad.txt' files."
            )
        by_form: dict[str, list[tuple[tuple[str, ...], QuestionMatch]]] = {}
        for line in known:
            by_form.setdefault(_form(line.logical_form), []).append((line.original_words, line.match))
        for position, example in enumerate(self._matcher.examples):
            words = tuple(literal_words(example.question))
            by_form.setdefault(_form(example.gold), []).append((words, QuestionMatch(example, position)))
        for parser in sorted(path for path in folder.iterdir() if path.is_dir()):
            for path in sorted(parser.glob(f"{parser.name}_{domain}_*_ad.txt")):
                operation = path.name[len(f"{parser.name}_{domain}_") : -len("_ad.txt")]
                perturbation = _SAFE.sub("_", f"{parser.name}-{operation}")
                self.files[str(path.relative_to(self.root))] = path
                for number, example in _numbered(path):
                    candidates = by_form.get(_form(example.gold))
                    if not candidates:
                        self.unmatched.append(UnmatchedLine(path, number, example.question, NO_LOGICAL_FORM))
                        continue
                    shared = set(literal_words(example.question))
                    _, match = max(candidates, key=lambda candidate: len(shared & set(candidate[0])))
                    question = match.fill(example.question)
                    if question is None:
                        self.unmatched.append(UnmatchedLine(path, number, example.question, NO_ENTITY))
                        continue
                    original = self._original(match)
                    example_id = f"{parser.name}/{domain}/{operation}/{number}"
                    self.rewrites.append(self._rewrite(original, question, perturbation, example_id))

    def release(self) -> Huang2021Release:
        """What was read."""
        return Huang2021Release(
            (*self.originals.values(), *self.rewrites),
            tuple(self.unmatched),
            MappingProxyType(dict(self.files)),
            MappingProxyType(dict(self.steps)),
        )

    def _read_pair(self, pair: _Pair) -> _Reading:
        """The lines whose original was found and those whose was not; a fresh matcher, so
        variants do not share turns."""
        originals = _numbered(pair.originals)
        rewrites = [(number, example.question) for number, example in _numbered(pair.rewrites)]
        if len(originals) != len(rewrites):
            raise DatasetError(
                f"{str(pair.originals)!r} has {len(originals)} lines and its rewrites {str(pair.rewrites)!r} "
                f"{len(rewrites)}; the two files must be line-aligned."
            )
        matcher = self._matcher.restarted()
        paired: list[_Paired] = []
        unmatched: list[tuple[int, str]] = []
        for (_, example), (number, rewrite) in zip(originals, rewrites):
            match = matcher.match(example.question)
            if match is None:
                unmatched.append((number, rewrite))
            else:
                words = tuple(literal_words(example.question))
                paired.append(_Paired(example.gold, words, match, rewrite, number))
        return paired, unmatched

    def _original(self, match: QuestionMatch) -> SemparseExample:
        """The benchmark's example ``match`` found, as an original (kept once)."""
        example = match.example
        example_id = f"{self.benchmark_name}/{self._positions[match.position]}"
        if example_id in self.originals:
            return self.originals[example_id]
        self.originals[example_id] = SemparseExample(
            question=example.question,
            gold=example.gold,
            question_split=ORIGINAL,
            example_id=example_id,
            perturbation=ORIGINAL,
        )
        return self.originals[example_id]

    @staticmethod
    def _rewrite(original: SemparseExample, question: str, perturbation: str, example_id: str) -> SemparseExample:
        return SemparseExample(
            question=question,
            gold=original.gold,
            question_split=perturbation,
            example_id=f"huang2021/{example_id}",
            original_id=original.example_id,
            perturbation=perturbation,
        )


def _numbered(path: Path) -> list[tuple[int, SemparseExample]]:
    """The examples of a ``question<TAB>logical form`` file with their line numbers."""
    examples = load_logical_forms(path)
    lines = [number for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.strip()]
    return list(zip(lines, examples))


def _form(logical_form: str) -> str:
    """A logical form with its brackets spaced and its whitespace collapsed."""
    return " ".join(logical_form.replace("(", " ( ").replace(")", " ) ").split())


def _perturbation_of(path: Path) -> str:
    """The perturbation a release file's lines belong to (its operation, or ``<parser>-<op>``)."""
    if path.name.endswith("_ad.txt"):
        parser = path.parent.name
        operation = path.name[len(parser) + 1 : -len("_ad.txt")].split("_", 1)[-1]
        return _SAFE.sub("_", f"{parser}-{operation}")
    return path.parent.parent.name


def release_root(data_dir: Path | None, name: str) -> Path:
    """``<data_dir>/huang2021``, or a :class:`DatasetError` naming what to set."""
    from textattack_semparse.datasets.data_dir import DATA_DIR_ENV

    if data_dir is None:
        raise DatasetError(
            f"Benchmark {name!r} reads Huang et al.'s release, but no data directory is configured. Set {DATA_DIR_ENV} "
            f"(or data_dir= in Python, --data-dir where a command takes it) to the folder holding '{FOLDER}/' and 'lambda/'."
        )
    root = data_dir / FOLDER
    if not root.is_dir():
        raise DatasetError(
            f"Benchmark {name!r} needs Huang et al.'s release in {str(root)!r}, which does not exist: put the "
            f"authors' '{MEANING_PRESERVING}/', '{ADVERSARIAL}/' and '{BLACK_BOX}/' folders there."
        )
    return root

