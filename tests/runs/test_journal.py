import json

import pytest

from textattack_semparse.runs.journal import Journal, JournalError


def test_appended_items_are_read_back_in_order(tmp_path):
    journal = Journal(tmp_path / "done.jsonl")
    journal.append("b", {"prediction": "SELECT name FROM river"})
    journal.append("a", [1, 2.5, None])
    assert list(Journal(journal.path).read().items()) == [
        ("b", {"prediction": "SELECT name FROM river"}),
        ("a", [1, 2.5, None]),
    ]


def test_a_missing_journal_has_no_items(tmp_path):
    assert Journal(tmp_path / "never-written.jsonl").read() == {}


@pytest.mark.parametrize("cut", [1, 7, 20])
def test_a_line_torn_by_a_kill_is_dropped_and_cut_off_the_file(tmp_path, cut):
    path = tmp_path / "done.jsonl"
    journal = Journal(path)
    journal.append("q1", "SELECT 1")
    whole = path.read_bytes()
    line = json.dumps({"key": "q2", "value": "SELECT 2"}).encode()
    path.write_bytes(whole + line[:cut])
    assert journal.read() == {"q1": "SELECT 1"}
    assert path.read_bytes() == whole
    journal.append("q2", "SELECT 2")
    assert journal.read() == {"q1": "SELECT 1", "q2": "SELECT 2"}


def test_a_damaged_line_before_the_end_names_file_and_line(tmp_path):
    path = tmp_path / "done.jsonl"
    Journal(path).append("q1", 1)
    path.write_text(path.read_text() + "not json\n" + json.dumps({"key": "q3", "value": 3}) + "\n")
    with pytest.raises(JournalError, match=r"done\.jsonl, line 2: not a journal record"):
        Journal(path).read()


def test_unicode_and_control_characters_survive(tmp_path):
    value = "rivers in \u05ea\u05dc \u202e texas\x00\n\u0301 \U0001F30A"
    journal = Journal(tmp_path / "done.jsonl")
    journal.append(value, value)
    assert journal.read() == {value: value}
