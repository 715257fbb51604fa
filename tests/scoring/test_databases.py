"""Databases: one file, a suite of one schema, or a root of per-db_id folders (real SQLite files)."""

from __future__ import annotations

import dataclasses
import pickle
import sqlite3
from pathlib import Path

import pytest

from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.errors import SchemaError
from textattack_semparse.scoring.databases import Databases


def sqlite_file(path: Path, value: int = 1) -> Path:
    """A SQLite database at ``path`` with one table ``t(x)`` holding ``value``."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE t (x INT)")
        connection.execute("INSERT INTO t VALUES (?)", (value,))
    connection.close()
    return path


def test_at_a_file_is_one_database(tmp_path):
    path = sqlite_file(tmp_path / "geo.sqlite")
    databases = Databases.at(path)
    assert databases.files == (path,) and databases.root is None
    assert databases.for_example(None) == (path,)


def test_at_accepts_a_string_path(tmp_path):
    path = sqlite_file(tmp_path / "geo.sqlite")
    assert Databases.at(str(path)) == Databases.at(path)


def test_at_a_directory_is_a_per_db_id_root(tmp_path):
    databases = Databases.at(tmp_path)
    assert databases.root == tmp_path and databases.files == ()


def test_at_a_missing_path_is_a_schema_error_naming_it(tmp_path):
    with pytest.raises(SchemaError, match=r"'.*nowhere\.sqlite' does not exist"):
        Databases.at(tmp_path / "nowhere.sqlite")


def test_geo_mini_database_is_its_own_primary():
    _, database = geo_mini_paths()
    assert Databases.at(database).primary == database


def test_suite_keeps_the_order_of_its_files(tmp_path):
    a, b = sqlite_file(tmp_path / "a.sqlite"), sqlite_file(tmp_path / "b.sqlite")
    databases = Databases.suite([b, a])
    assert databases.files == (b, a) and databases.primary == b
    assert databases.for_example("ignored") == (b, a)


def test_suite_of_no_files_is_refused():
    with pytest.raises(SchemaError, match="at least one SQLite file"):
        Databases.suite([])


def test_files_and_root_together_are_refused(tmp_path):
    with pytest.raises(ValueError, match="either files .* or a root"):
        Databases(files=(tmp_path / "a.sqlite",), root=tmp_path)


def test_neither_files_nor_root_is_refused():
    with pytest.raises(ValueError, match="either files"):
        Databases()


def test_paths_are_normalised_to_path_objects(tmp_path):
    databases = Databases(files=(str(tmp_path / "a.sqlite"),))
    assert databases.files == (tmp_path / "a.sqlite",)
    assert Databases(root=str(tmp_path)).root == tmp_path


def test_databases_are_frozen(tmp_path):
    with pytest.raises(dataclasses.FrozenInstanceError):
        Databases.at(tmp_path).root = None  # type: ignore[misc]


def test_root_has_no_primary(tmp_path):
    assert Databases.at(tmp_path).primary is None


def test_root_picks_the_db_id_folder(tmp_path):
    one = sqlite_file(tmp_path / "one" / "one.sqlite")
    two = sqlite_file(tmp_path / "two" / "two.sqlite")
    databases = Databases.at(tmp_path)
    assert databases.for_example("one") == (one,)
    assert databases.for_example("two") == (two,)


def test_root_puts_the_original_first_then_the_suite_beside_it_sorted(tmp_path):
    main = sqlite_file(tmp_path / "concert" / "concert.sqlite")
    later = sqlite_file(tmp_path / "concert" / "concert_9.sqlite")
    earlier = sqlite_file(tmp_path / "concert" / "a_concert.sqlite")
    (tmp_path / "concert" / "schema.sql").write_text("CREATE TABLE t (x INT);")
    assert Databases.at(tmp_path).for_example("concert") == (main, earlier, later)


def test_root_without_db_id_names_the_fix(tmp_path):
    with pytest.raises(SchemaError, match="chosen by db_id, but the example has none.*'db_id' input column"):
        Databases.at(tmp_path).for_example(None)


def test_root_with_unknown_db_id_names_the_missing_file(tmp_path):
    sqlite_file(tmp_path / "one" / "one.sqlite")
    with pytest.raises(SchemaError, match=r"No database for db_id 'three': '.*three\.sqlite' does not exist"):
        Databases.at(tmp_path).for_example("three")


def test_root_folder_without_its_main_file_is_missing(tmp_path):
    sqlite_file(tmp_path / "one" / "other.sqlite")
    with pytest.raises(SchemaError, match="No database for db_id 'one'"):
        Databases.at(tmp_path).for_example("one")


def test_describe_one_file(tmp_path):
    path = sqlite_file(tmp_path / "geo.sqlite")
    assert Databases.at(path).describe() == str(path)


def test_describe_a_suite(tmp_path):
    assert Databases(files=("a.sqlite", "b.sqlite", "c.sqlite")).describe() == "suite of 3 databases (a.sqlite, ...)"


def test_describe_a_root(tmp_path):
    assert Databases.at(tmp_path).describe() == f"{tmp_path} (one database per db_id)"


def test_root_lists_each_folder_once(tmp_path):
    main = sqlite_file(tmp_path / "concert" / "concert.sqlite")
    databases = Databases.at(tmp_path)
    assert databases.for_example("concert") == (main,)
    sqlite_file(tmp_path / "concert" / "concert_2.sqlite")  # a change while in use is not seen
    assert databases.for_example("concert") == (main,)
    assert Databases.at(tmp_path).for_example("concert") == (main, tmp_path / "concert" / "concert_2.sqlite")


def test_listings_are_not_part_of_the_value_nor_pickled(tmp_path):
    main = sqlite_file(tmp_path / "concert" / "concert.sqlite")
    listed = Databases.at(tmp_path)
    listed.for_example("concert")
    assert listed == Databases.at(tmp_path) and hash(listed) == hash(Databases.at(tmp_path))
    assert repr(listed) == repr(Databases.at(tmp_path))
    later = sqlite_file(tmp_path / "concert" / "concert_2.sqlite")
    assert pickle.loads(pickle.dumps(listed)).for_example("concert") == (main, later)
