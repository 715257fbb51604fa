"""The grammatical-error beam search walks words in order of importance, one word per step."""

from __future__ import annotations

import pytest
from textattack import Attack
from textattack.constraints.pre_transformation import RepeatModification
from textattack.goal_function_results import GoalFunctionResultStatus
from textattack.shared import AttackedText

from textattack_semparse.constraints.max_grammar_error_rate import MaxGrammarErrorRate
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.goal_functions.semantic_parsing_goal_function import SemanticParsingGoalFunction
from textattack_semparse.search_methods.grammar_error_beam_search import GrammarErrorBeamSearch
from textattack_semparse.search_methods.grammar_error_greedy_search import GrammarErrorGreedySearch
from textattack_semparse.transformations.grammar.grammar_error_combined import GrammarErrorCombined
from textattack_semparse.victims.knn_template_parser import KNNTemplateParser


@pytest.fixture(scope="module")
def geo():
    return load_benchmark("geo-mini")


@pytest.fixture(scope="module")
def victim(geo) -> KNNTemplateParser:
    return KNNTemplateParser(geo.split("question", "train"), benchmark=geo)


def _attack(victim, beam_width: int = 5, keep_unchanged: bool = False) -> Attack:
    return Attack(
        SemanticParsingGoalFunction(victim),
        [RepeatModification(), PreserveLiterals(), MaxGrammarErrorRate(max_rate=1.0)],
        GrammarErrorCombined(),
        GrammarErrorBeamSearch(beam_width=beam_width, keep_unchanged=keep_unchanged),
    )


def _original_position(text: AttackedText, index: int) -> int:
    return list(text.attack_attrs["original_index_map"]).index(index)


def _run(attack: Attack, question: str, gold: str):
    """Run the search, recording each per-word request as (step word, text expanded)."""
    search = attack.search_method
    requests: list[tuple[int, str]] = []
    ask = search._transformations_at_positions

    def recording(current_text, original_text=None, indices_to_modify=None, **kwargs):
        if indices_to_modify is not None:
            (index,) = indices_to_modify  # one word per request
            requests.append((_original_position(current_text, index), current_text.text))
        return ask(current_text, original_text=original_text, indices_to_modify=indices_to_modify, **kwargs)

    search._transformations_at_positions = recording
    initial, _ = attack.goal_function.init_attack_example(AttackedText(question), gold)
    return initial, search(initial), requests


def _steps(requests: list[tuple[int, str]]) -> list[tuple[int, list[str]]]:
    steps: list[tuple[int, list[str]]] = []
    for position, text in requests:
        if steps and steps[-1][0] == position:
            steps[-1][1].append(text)
        else:
            steps.append((position, [text]))
    return steps


@pytest.mark.parametrize("keep_unchanged", [False, True])
def test_positions_are_expanded_in_order_of_importance_one_per_step(geo, victim, keep_unchanged):
    questions = geo.split("question", "test")
    walked = 0
    for example in questions[:12]:
        question, gold = example.question, example.gold
        attack = _attack(victim, keep_unchanged=keep_unchanged)
        initial, result, requests = _run(attack, question, gold)
        if initial.goal_status == GoalFunctionResultStatus.SKIPPED:
            continue
        steps = _steps(requests)
        positions = [position for position, _ in steps]
        # At most one new word per step, each word expanded at one step only.
        assert len(positions) == len(set(positions))
        # Every step expands at most beam_width distinct texts (the beam), the first only the question.
        for step, (_, texts) in enumerate(steps):
            assert len(texts) == len(set(texts)) <= 5
            if step == 0:
                assert texts == [initial.attacked_text.text]
        # Importance, computed here: the goal score of the question with the word deleted.
        original = initial.attacked_text
        leave_one_out, _ = attack.goal_function.get_results(
            [original.delete_word_at_index(position) for position in positions]
        )
        importance = [r.score for r in leave_one_out]
        assert importance == sorted(importance, reverse=True), (question, positions, importance)
        walked += len(steps) >= 3 and any(len(texts) > 1 for _, texts in steps)
    assert walked  # some question needed several steps with a full beam


def test_only_the_variant_keeps_the_unchanged_question_in_the_beam(geo, victim):
    """Yin et al.'s beam search (released code): the next beam is the best expansions, never
    the unchanged question; the plugin's variant lets it compete."""
    kept_unchanged = {False: 0, True: 0}
    for example in geo.split("question", "test")[:12]:
        for keep_unchanged in (False, True):
            initial, _, requests = _run(_attack(victim, keep_unchanged=keep_unchanged), example.question, example.gold)
            if initial.goal_status == GoalFunctionResultStatus.SKIPPED:
                break
            # Expanded after a text with an error was (words without errors are skipped, beam unchanged).
            expanded = [text for _, text in requests]
            first_error = next((i for i, text in enumerate(expanded) if text != initial.attacked_text.text), len(expanded))
            kept_unchanged[keep_unchanged] += initial.attacked_text.text in expanded[first_error:]
    assert kept_unchanged[False] == 0 and kept_unchanged[True] > 0


def test_every_text_of_a_step_carries_one_error_per_earlier_step(geo, victim):
    from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR

    checked = 0
    for example in geo.split("question", "test")[:12]:
        attack = _attack(victim)
        search = attack.search_method
        ask = search._transformations_at_positions
        errors_per_step: list[int] = []

        def recording(current_text, original_text=None, indices_to_modify=None, **kwargs):
            errors_per_step.append(len(current_text.attack_attrs.get(GRAMMAR_ERRORS_ATTR, ())))
            return ask(current_text, original_text=original_text, indices_to_modify=indices_to_modify, **kwargs)

        search._transformations_at_positions = recording
        initial, _ = attack.goal_function.init_attack_example(AttackedText(example.question), example.gold)
        if initial.goal_status == GoalFunctionResultStatus.SKIPPED:
            continue
        search(initial)
        # Error counts of the expanded texts never decrease and grow by one from step to step.
        assert errors_per_step == sorted(errors_per_step)
        assert set(errors_per_step) == set(range(len(set(errors_per_step))))
        checked += len(set(errors_per_step)) >= 2
    assert checked


def test_beam_width_one_of_the_variant_is_the_greedy_walk(geo, victim):
    for example in geo.split("question", "test")[:8]:
        outcomes = []
        for search in (GrammarErrorBeamSearch(beam_width=1, keep_unchanged=True), GrammarErrorGreedySearch()):
            attack = Attack(
                SemanticParsingGoalFunction(victim),
                [RepeatModification(), PreserveLiterals(), MaxGrammarErrorRate()],
                GrammarErrorCombined(),
                search,
            )
            initial, _ = attack.goal_function.init_attack_example(AttackedText(example.question), example.gold)
            if initial.goal_status == GoalFunctionResultStatus.SKIPPED:
                break
            result = search(initial)
            outcomes.append((result.attacked_text.text, result.goal_status, result.num_queries))
        else:
            assert outcomes[0] == outcomes[1]


def test_bad_beam_width_is_rejected():
    with pytest.raises(ValueError, match="beam_width"):
        GrammarErrorBeamSearch(beam_width=0)


def test_repr_and_black_box():
    search = GrammarErrorBeamSearch()
    assert "(beam_width):  5" in repr(search) and "(wir_method):  delete" in repr(search)
    assert "(keep_unchanged):  False" in repr(search)
    assert search.is_black_box and not GrammarErrorBeamSearch(wir_method="gradient").is_black_box


def test_every_word_is_ranked_by_default_the_last_one_too(victim):
    """TextAttack 0.3.11's GreedyWordSwapWIR reads truncate_words_to=-1 as "all but the last word"."""
    from textattack_semparse.search_methods.greedy_word_importance_search import GreedyWordImportanceSearch

    question = "what rivers flow through colorado"
    for search in (GreedyWordImportanceSearch(), GrammarErrorBeamSearch(), GrammarErrorGreedySearch()):
        attack = Attack(SemanticParsingGoalFunction(victim), [], GrammarErrorCombined(), search)
        initial, _ = attack.goal_function.init_attack_example(AttackedText(question), "SELECT 1")
        order, _ = search._get_index_order(initial.attacked_text)
        assert sorted(order) == list(range(len(question.split()))), type(search).__name__
