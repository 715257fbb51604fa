"""WordListAugmenter: TextAttack's Augmenter semantics for random deletion/swap, only kept candidates made."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from textattack.augmentation import Augmenter
from textattack.constraints.pre_transformation import RepeatModification, StopwordModification
from textattack.shared import AttackedText
from textattack.shared.utils import words_from_text

from textattack_semparse.augmentation.literal_protection import keeps_literals, protecting_literals
from textattack_semparse.augmentation.text2sql_augmentation import text2sql_items
from textattack_semparse.augmentation.word_list_augmenter import WordListAugmenter, text_words
from textattack_semparse.experiments.augment import build_augmenter
from textattack_semparse.constraints.meaning_judgement import MeaningJudgement
from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.datasets.geo_mini import geo_mini_paths
from textattack_semparse.judges.judgement import Judgement, RewritePair, Verdict
from textattack_semparse.judges.meaning_judge import MeaningJudge
from textattack_semparse.sql.literals import literal_word_indices
from textattack_semparse.transformations.random_word_deletion import RandomWordDeletion
from textattack_semparse.transformations.random_word_transposition import RandomWordTransposition

ODD_TEXTS = (
    "  what's 'the' capital, of new-york?? ",
    "-- a * b @c_ d' _e_",
    "how  big\tis   texas .",
    "rivers in ×Оo and ɑЬϲ",
    "state the the the",
    "",
)


@pytest.fixture(scope="module")
def geo_items(real_data_dir: Path) -> list[tuple[str, tuple[str, ...]]]:
    """GeoQuery's 877 questions with the literals `augment` protects in each."""
    return [(item.question, item.literals) for item in text2sql_items(real_data_dir / "text2sql" / "geography.json")]


def mini_items() -> list[tuple[str, tuple[str, ...]]]:
    return [(item.question, item.literals) for item in text2sql_items(geo_mini_paths()[0])]


def augmenter(transformation: object, literals: tuple[str, ...] = (), **options: object) -> WordListAugmenter:
    constraints = [RepeatModification(), PreserveLiterals(literals=literals)]
    return WordListAugmenter(transformation, constraints=constraints, **options)


def all_candidates(transformation: object, text: str, literals: tuple[str, ...]) -> set[str]:
    """Every text the transformation can make of ``text`` with the literals protected (all position sets)."""
    everything = type(transformation)(num_words=transformation.num_words, num_candidates=10**6, seed=0)
    constraints = [RepeatModification(), PreserveLiterals(literals=literals)]
    return {t.text for t in everything(AttackedText(text), pre_transformation_constraints=constraints)}


def test_words_are_textattacks_on_odd_text() -> None:
    for text in ODD_TEXTS:
        assert text_words(text) == words_from_text(text), text


def test_words_are_textattacks_on_real_geoquery(geo_items: list[tuple[str, tuple[str, ...]]]) -> None:
    assert all(text_words(question) == words_from_text(question) for question, _ in geo_items)


@pytest.mark.parametrize(
    "transformation",
    [RandomWordDeletion(seed=0), RandomWordTransposition(seed=0), RandomWordDeletion(num_words=3, seed=0)],
    ids=["deletion", "swap", "deletion-of-3"],
)
def test_every_output_is_a_candidate_of_the_transformation(transformation: object) -> None:
    # The rendering of the kept edit is exactly AttackedText's, with the literals protected.
    for question, literals in [*mini_items(), *((text, ()) for text in ODD_TEXTS[:5])]:
        outputs = augmenter(transformation, literals, transformations_per_example=3).augment(question)
        candidates = all_candidates(transformation, question, literals)
        assert set(outputs) <= candidates | {question}, question
        assert (question in outputs) == (len(candidates) < 3), question


@pytest.mark.parametrize("operation", ["random-deletion", "random-swap"])
def test_real_geoquery_properties(geo_items: list[tuple[str, tuple[str, ...]]], operation: str) -> None:
    augment = protecting_literals(
        # No meaning judge: the operation's own outputs (a judge may stop TextAttack's steps early).
        build_augmenter(
            "semparse-mda",
            pct_words_to_swap=0.1,
            transformations_per_example=2,
            seed=0,
            judges=(),
            perturbations=[operation],
        )
    )
    outputs = protected = 0
    for question, literals in geo_items:
        words = text_words(question)
        literal_positions = literal_word_indices(words, literals)
        results = augment(question, literals)
        assert len(results) == len(set(results)) <= 2
        words_to_swap = max(int(0.1 * len(words)), 1)  # TextAttack's Augmenter: steps until this many
        for result in results:
            new = text_words(result)
            assert keeps_literals(question, result, literals), (question, result, literals)
            if operation == "random-deletion":
                # Each step deletes 2 words and counts as one swapped word.
                assert len(new) == len(words) - 2 * words_to_swap
                remaining = iter(words)
                assert all(word in remaining for word in new)
                assert Counter(words) - Counter(new) <= Counter(w for i, w in enumerate(words) if i not in literal_positions)
            else:
                # Each step swaps 2 words, both counted as swapped.
                changed = [i for i, (a, b) in enumerate(zip(words, new)) if a != b]
                assert len(changed) == 2 * math.ceil(words_to_swap / 2) and Counter(new) == Counter(words)
                assert not set(changed) & literal_positions
            outputs += 1
            protected += bool(literal_positions)
    # Question words, operators and prepositions are never deleted or moved either, so a few
    # questions with too few other words get fewer outputs.
    assert outputs > 1500 and protected > 900


def test_draws_are_uniform_over_position_sets_like_textattacks_augmenter() -> None:
    question, literals = "which rivers run through the state of colorado", ("colorado",)
    candidates = all_candidates(RandomWordDeletion(), question, literals)
    # 4 deletable words (not "which", "through", "of" nor the literal), 2 deleted, no repeated word: one text per set
    assert len(candidates) == 6
    fast = augmenter(RandomWordDeletion(seed=11), literals, transformations_per_example=1)
    fast_counts = Counter(fast.augment(question)[0] for _ in range(1200))
    random.seed(0)
    stock = Augmenter(RandomWordDeletion(seed=11), constraints=[RepeatModification(), PreserveLiterals(literals=literals)])
    stock_counts = Counter(stock.augment(question)[0] for _ in range(300))
    assert set(fast_counts) == set(stock_counts) == candidates
    # 200 expected per text: a 4-sigma band; the stock loop's 50 expected each, likewise.
    assert all(abs(count - 200) < 4 * 200**0.5 for count in fast_counts.values()), fast_counts
    assert all(abs(count - 50) < 4 * 50**0.5 for count in stock_counts.values()), stock_counts


def test_same_seed_same_outputs_other_seed_others() -> None:
    def run(seed: int) -> list[list[str]]:
        fast = augmenter(RandomWordTransposition(seed=seed), transformations_per_example=2)
        return [fast.augment(question) for question, _ in mini_items()]

    assert run(4) == run(4) != run(5)


def test_nothing_to_edit_returns_the_question_as_textattack_does() -> None:
    # Deletion needs more words than it deletes; a swap needs two different modifiable words.
    for transformation, question in (
        (RandomWordDeletion(seed=0), "how big"),
        (RandomWordDeletion(num_words=3, seed=0), "how big alaska"),
        (RandomWordTransposition(seed=0), "the the alaska"),
    ):
        stock = Augmenter(transformation, constraints=[RepeatModification(), PreserveLiterals(literals=("alaska",))])
        fast = augmenter(transformation, ("alaska",))
        assert fast.augment(question) == stock.augment(question) == [question]


def test_long_questions_take_several_steps_without_touching_a_word_twice() -> None:
    # Twenty words none of which is protected (a word with a digit would be a number).
    words = ("alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima mike november oscar papa quebec "
             "romeo sierra tango").split()  # fmt: skip
    question = " ".join(words)
    deleted = augmenter(RandomWordDeletion(seed=0), ("hotel",)).augment(question)
    assert len(deleted) == 1 and len(text_words(deleted[0])) == 16 and "hotel" in deleted[0]
    swapped = augmenter(RandomWordTransposition(seed=0), pct_words_to_swap=0.2).augment(question)[0].split()
    assert len([i for i in range(20) if swapped[i] != words[i]]) == 4 and sorted(swapped) == sorted(words)


def test_other_settings_take_textattacks_own_path() -> None:
    question = "what is the capital of the state with the largest population"
    for options, constraints in (({"high_yield": True}, []), ({}, [StopwordModification()])):
        fast = WordListAugmenter(RandomWordDeletion(seed=2), constraints=[RepeatModification(), *constraints], **options)
        stock = Augmenter(RandomWordDeletion(seed=2), constraints=[RepeatModification(), *constraints], **options)
        random.seed(1)
        expected = stock.augment(question)
        random.seed(1)
        assert fast.augment(question) == expected


def test_stock_transformation_is_unchanged_for_attacks() -> None:
    # Transformation._get_transformations still gives up to num_candidates texts: attacks see every candidate.
    question = "give me the names and lengths of major rivers running across each big southern state"
    outputs = RandomWordDeletion(seed=0)(AttackedText(question))
    assert len(outputs) == 20 == len({output.text for output in outputs})


class KeepsWord(MeaningJudge):
    """A meaning judge that keeps a rewrite when ``word`` is still in it, and counts the pairs it judges."""

    name = "keeps-word"

    def __init__(self, word: str) -> None:
        self.word = word
        self.judged = 0

    def judge(self, pairs: Sequence[RewritePair]) -> list[Judgement]:
        self.judged += len(pairs)
        return [
            Judgement(Verdict.SAME if self.word in pair.rewrite.split() else Verdict.DIFFERENT, "rule")
            for pair in pairs
        ]


def judged_augmenter(transformation: object, judge: MeaningJudge, literals: tuple[str, ...] = (), **options: object):
    constraints = [RepeatModification(), PreserveLiterals(literals=literals), MeaningJudgement(judge)]
    return WordListAugmenter(transformation, constraints=constraints, **options)


def test_judged_draws_are_uniform_over_the_kept_texts_like_textattacks_augmenter() -> None:
    question, literals = "which rivers run through the state of colorado", ("colorado",)
    # Deleting 2 of the 4 deletable words ("rivers", "run", "the", "state"): 6 texts, the 3 that keep "rivers" are kept.
    kept = {text for text in all_candidates(RandomWordDeletion(), question, literals) if "rivers" in text.split()}
    assert len(kept) == 3
    fast_judge = KeepsWord("rivers")
    fast = judged_augmenter(RandomWordDeletion(seed=11), fast_judge, literals, transformations_per_example=1)
    fast_counts = Counter(fast.augment(question)[0] for _ in range(900))
    random.seed(0)
    stock_judge = KeepsWord("rivers")
    stock = Augmenter(
        RandomWordDeletion(seed=11),
        constraints=[RepeatModification(), PreserveLiterals(literals=literals), MeaningJudgement(stock_judge)],
    )
    stock_counts = Counter(stock.augment(question)[0] for _ in range(300))
    assert set(fast_counts) == set(stock_counts) == kept
    # 300 expected per text (fast), 100 (stock): 4-sigma bands.
    assert all(abs(count - 300) < 4 * 300**0.5 for count in fast_counts.values()), fast_counts
    assert all(abs(count - 100) < 4 * 100**0.5 for count in stock_counts.values()), stock_counts
    # TextAttack judges all 6 candidates of every augmentation. The draw-first path judges the 6 texts in a random
    # order in batches of 1, 2, 4 and stops after the batch with the first kept one: 1 judgement when the first is
    # kept (1/2), 3 when one of the next two is (1/2 x 9/10), all 6 when the first three are refused (1/2 x 1/10).
    expected = 1 * 1 / 2 + 3 * (1 / 2) * (9 / 10) + 6 * (1 / 2) * (1 / 10)
    assert stock_judge.judged == 6 * 300
    assert abs(fast_judge.judged / 900 - expected) < 0.15, (fast_judge.judged / 900, expected)


def test_a_judge_that_keeps_nothing_leaves_the_question_after_num_candidates_refusals() -> None:
    question = "alpha bravo charlie delta echo foxtrot golf hotel india juliett kilo lima"
    fast_judge, stock_judge = KeepsWord("zulu"), KeepsWord("zulu")
    fast = judged_augmenter(RandomWordTransposition(num_candidates=20, seed=0), fast_judge)
    stock = Augmenter(RandomWordTransposition(num_candidates=20, seed=0), constraints=[MeaningJudgement(stock_judge)])
    assert fast.augment(question) == stock.augment(question) == [question]
    # 66 position sets could be tried; both judge 20 (TextAttack: the 20 candidates it made) and give up.
    assert fast_judge.judged == stock_judge.judged == 20


def test_judged_path_keeps_only_what_the_default_judge_keeps(geo_items: list[tuple[str, tuple[str, ...]]]) -> None:
    from textattack_semparse.judges.meaning_judge import DEFAULT_JUDGE, judges_from_names

    augment = build_augmenter(
        "semparse-mda", pct_words_to_swap=0.1, transformations_per_example=1, seed=0, perturbations=["random-swap"]
    )
    assert augment._word_list_transformation() is not None  # the judged augmenter takes the draw-first path
    judge = judges_from_names([DEFAULT_JUDGE])
    protected = protecting_literals(augment)
    outputs = [(question, output) for question, literals in geo_items[:200] for output in protected(question, literals)]
    assert len(outputs) > 50
    assert all(judge(question, output).keeps_meaning for question, output in outputs)
    tally = augment.judgement.tally
    assert tally.judged - tally.rejected >= len(outputs) and tally.judged < 20 * 200


def _forget_parses() -> None:
    """Empty the parse caches the random-word transformations read, as in a new process."""
    from textattack_semparse.linguistics import operator_words, spacy_pipeline

    spacy_pipeline._parses.clear()
    spacy_pipeline.word_annotations.cache_clear()
    operator_words._protected_set.cache_clear()
    operator_words._sql_protection.cache_clear()


@pytest.mark.parametrize("operation", ["random-deletion", "random-swap"])
def test_read_ahead_parses_the_questions_in_batches_and_changes_no_output(
    monkeypatch: pytest.MonkeyPatch, operation: str
) -> None:
    from textattack_semparse.linguistics import spacy_pipeline

    loads = []
    load_spacy = spacy_pipeline.load_spacy
    monkeypatch.setattr(spacy_pipeline, "load_spacy", lambda name: loads.append(name) or load_spacy(name))
    items = mini_items()

    def outputs(read_ahead: bool) -> tuple[list[list[str]], int]:
        _forget_parses()
        built = build_augmenter(
            "semparse-mda", pct_words_to_swap=0.1, transformations_per_example=1, seed=0, judges=(),
            perturbations=[operation],
        )  # fmt: skip
        if read_ahead:
            built.read_ahead([question for question, _ in items])
        loads.clear()
        augment = protecting_literals(built)
        return [augment(question, literals) for question, literals in items], len(loads)

    ahead, parses_after_read_ahead = outputs(read_ahead=True)
    one_by_one, parses_one_by_one = outputs(read_ahead=False)
    assert ahead == one_by_one
    # Every question's parse was read ahead; one at a time, each first step parses its question.
    assert parses_after_read_ahead == 0 and parses_one_by_one >= len(items) // 2


def test_files_are_read_ahead_in_chunks_with_the_same_output(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from textattack_semparse.augmentation import literal_protection
    from textattack_semparse.augmentation.text2sql_augmentation import augment_text2sql

    monkeypatch.setattr(literal_protection, "READ_AHEAD", 16)
    source = geo_mini_paths()[0]
    questions = [question for question, _ in mini_items()]
    chunks: list[list[str]] = []

    def write(path: Path, read_ahead: bool) -> bytes:
        _forget_parses()
        built = build_augmenter(
            "semparse-mda", pct_words_to_swap=0.1, transformations_per_example=2, seed=3, perturbations=["random-swap"]
        )

        def recording(texts: Sequence[str]) -> None:
            chunks.append(list(texts))
            built.read_ahead(texts)

        augment_text2sql(source, path, protecting_literals(built), read_ahead=recording if read_ahead else None)
        return path.read_bytes()

    assert write(tmp_path / "ahead.json", True) == write(tmp_path / "one-by-one.json", False)
    assert chunks == [questions[start : start + 16] for start in range(0, len(questions), 16)]
