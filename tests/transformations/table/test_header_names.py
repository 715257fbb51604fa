"""Alternative header names: the packaged lexicons and the abbreviation rules."""

from __future__ import annotations

import json
from importlib import resources

import pytest

from textattack_semparse.tables.header_names import (
    abbreviation_table,
    dropped_vowels,
    header_abbreviations,
    header_synonyms,
    initialism,
    synonym_lexicon,
    truncations,
    wordnet_header_synonyms,
)

NAMES = ("Attendance", "Avg. Attendance", "Date of birth", "Home team", "Number", "Time/Retired", "No.", "", "2007", "#")


def test_lexicons_are_packaged_resources() -> None:
    for resource, key in (("table_header_synonyms.json", "synonyms"), ("header_abbreviations.json", "abbreviations")):
        record = json.loads(resources.files("textattack_semparse").joinpath("resources", resource).read_text("utf-8"))
        assert record[key] and all(isinstance(values, list) for values in record[key].values())


def test_the_issue_s_abbreviation_examples() -> None:
    # The issue: "number" -> "no.", "population" -> "pop.", in the header's capitalisation.
    assert header_abbreviations("Number")[0] == "No."
    assert header_abbreviations("Population")[0] == "Pop."
    assert header_abbreviations("population")[0] == "pop."
    assert header_abbreviations("POPULATION")[0] == "POP."
    assert "Avg. attendance" in header_abbreviations("Average attendance")
    assert "Pts" in header_abbreviations("Points")


def test_table_entries_come_before_rules_and_override_them() -> None:
    assert abbreviation_table()["title"] == ()
    assert header_abbreviations("Title") == []
    assert header_abbreviations("Manufacturer") == ["Manuf.", "Mnfctr"]


def test_truncation_cuts_after_a_consonant_cluster_and_avoids_words() -> None:
    # "Att" ends the consonant cluster after the first vowel; "man" is a word, so "Manuf." is next.
    assert truncations("Attendance") == ["att."]
    assert truncations("Manufacturer") == ["manuf."]
    assert truncations("Year") == [] and truncations("UEFA") == []


def test_dropped_vowels_keep_the_first_letter_and_merge_doubles() -> None:
    assert dropped_vowels("Attendance") == ["atndnc"]
    assert dropped_vowels("Nationality") == ["ntnlty"]
    assert dropped_vowels("Venue") == []  # "vn" is too short


def test_initialisms_of_multi_word_names() -> None:
    assert initialism("Games played") == "GP"
    assert initialism("Date of birth") == "DOB"
    assert initialism("Score in the final") == "SIF"
    assert initialism("To par") is None and initialism("Attendance") is None
    assert header_abbreviations("Current club")[-1] == "CC"


def test_multi_word_names_keep_their_other_words_and_style() -> None:
    assert header_synonyms("Date of birth") == ["Birth date"]
    assert header_synonyms("Home Team") == ["Host Team", "Hosts", "Home Squad", "Home Side"]
    assert header_synonyms("Peak chart positions\nUK")[0] == "Highest chart positions\nUK"
    assert header_abbreviations("Avg. Attendance") == ["Avg. Att.", "AA"]


def test_lexicon_words_without_synonyms_stay() -> None:
    # A word the lexicon lists takes only the lexicon's synonyms: WordNet's "clip" for "time"
    # and "mark"/"grade" for "score" are never consulted.
    assert synonym_lexicon()["time"] == ()
    assert header_synonyms("Time") == []
    assert header_synonyms("Score") == ["Scoreline"]


def test_wordnet_fallback_is_limited_to_well_attested_synonyms() -> None:
    assert wordnet_header_synonyms("Physician") == ("doctor",)
    assert wordnet_header_synonyms("films") == ("movies",)
    assert wordnet_header_synonyms("Hand") == ()  # "mitt" and "paw" are never tagged in that sense
    assert header_synonyms("Physician") == ["Doctor"]


@pytest.mark.parametrize("name", NAMES)
def test_never_the_name_itself_and_always_the_same_order(name: str) -> None:
    for alternatives in (header_synonyms, header_abbreviations):
        first, second = alternatives(name), alternatives(name)
        assert first == second
        assert name.lower() not in {alternative.lower() for alternative in first}
        assert len(first) == len(set(first))


def test_plural_marker_takes_one_word_alternatives() -> None:
    assert header_synonyms("Producer(s)") == []
    assert header_abbreviations("Producer(s)") == ["Prod.(s)"]
