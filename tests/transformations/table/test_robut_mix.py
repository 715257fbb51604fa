"""RobutMix (RobuT's mix, Zhao et al. 2023): two or three perturbation levels -- header, content,
question -- on one Table QA example, the gold answer kept."""

from __future__ import annotations

import pickle

import pytest

from textattack_semparse.errors import ConfigurationError, ConfigurationTypeError, RegistryError
from textattack_semparse.tables.table import Table
from textattack_semparse.tables.table_text import QUESTION_COLUMN, table_changes, table_of
from textattack_semparse.transformations.robut_mix import RobutMix

TABLE = Table(
    ["Year", "City", "Population", "Number of members"],
    [["2001", "Oslo", "7,169", "12"], ["2002", "Rome", "6,260", "15"], ["2003", "Bergen", "5,871", "9"]],
)
QUESTION = "which city had the largest population?"
HEADER_LEVEL = {"header-synonym", "header-abbreviation"}


def _levels(text, output) -> set[str]:
    """The levels ``output`` perturbed, read from its table changes and its question."""
    changes = [change.perturbation for change in table_changes(output)]
    levels = {"header" if name in HEADER_LEVEL else "content" for name in changes}
    if output._text_input[QUESTION_COLUMN] != text._text_input[QUESTION_COLUMN]:
        levels.add("question")
    return levels


def test_each_output_perturbs_two_or_three_levels_header_first_and_keeps_the_answer(table_text) -> None:
    text = table_text(QUESTION, TABLE, ["Oslo"])
    outputs = RobutMix(num_candidates=5)(text)
    assert outputs
    for output in outputs:
        assert len(_levels(text, output)) in (2, 3)
        changes = [change.perturbation for change in table_changes(output)]
        assert len(changes) == len({"header", "content"} & _levels(text, output))  # one perturbation per level
        assert not changes or changes[0] in HEADER_LEVEL or "header" not in _levels(text, output)
        assert "Oslo" in table_of(output).cells()
    assert len({(o.text, table_of(o)) for o in outputs}) == len(outputs)


def test_three_levels_when_asked_for_three(table_text) -> None:
    # "survey" is the one content word not in the table: the word level may replace only it ("study").
    text = table_text("which city had the largest population in the survey?", TABLE, ["Oslo"])
    outputs = RobutMix(level_counts=(3,), content=("row-shuffle",), num_candidates=2)(text)
    assert outputs
    assert all(_levels(text, output) == {"header", "content", "question"} for output in outputs)


def test_the_question_level_takes_any_registered_question_perturbation(table_text) -> None:
    text = table_text("which city had the largest population", TABLE, ["Oslo"])
    outputs = RobutMix(level_counts=(3,), question=("deletion",), content=("column-shuffle",))(text)
    assert outputs
    for output in outputs:
        assert output._text_input[QUESTION_COLUMN].split() != text._text_input[QUESTION_COLUMN].split()


def test_same_seed_same_outputs_and_no_model_is_pickled(table_text) -> None:
    text = table_text(QUESTION, TABLE, ["Oslo"])
    mix = RobutMix(num_candidates=3)
    first = [(o.text, table_of(o)) for o in mix(text)]
    assert mix.deterministic
    assert first == [(o.text, table_of(o)) for o in RobutMix(num_candidates=3)(text)]
    assert pickle.loads(pickle.dumps(mix))._parts == {}


def test_a_question_without_a_table_gets_nothing_as_every_mix_has_a_table_level() -> None:
    from textattack.shared import AttackedText

    assert RobutMix()(AttackedText("which city had the largest population?")) == []


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"level_counts": (1,)}, ConfigurationError),
        ({"level_counts": ()}, ConfigurationError),
        ({"header": "header-synonym"}, ConfigurationTypeError),
        ({"question": ()}, ConfigurationTypeError),
        ({"content": ("no-such-perturbation",)}, RegistryError),
        ({"num_candidates": 0}, ConfigurationError),
    ],
)
def test_bad_arguments_rejected(kwargs: dict, error: type[Exception]) -> None:
    with pytest.raises(error):
        RobutMix(**kwargs)


def test_registered_as_robut_mix() -> None:
    from textattack_semparse.registry import get_registry

    mix = get_registry().get("perturbation", "robut-mix").create()
    assert isinstance(mix, RobutMix) and mix.level_counts == (2, 3) and mix.question == ("robut-word-wordnet",)
