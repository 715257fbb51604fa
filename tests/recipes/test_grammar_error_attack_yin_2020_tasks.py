"""Yin et al.'s per-task rules: the attacked sentence of a pair and NER's kept entities."""

from __future__ import annotations

from collections import OrderedDict

import pytest
import textattack
from textattack import AttackArgs, Attacker
from textattack.attack_results import SuccessfulAttackResult
from textattack.shared import AttackedText

from tests.recipes.conftest import build_tiny_classifier
from textattack_semparse.constraints.attacked_sentence import AttackedSentence
from textattack_semparse.constraints.preserve_entities import PreserveEntities, bio_entity_spans
from textattack_semparse.errors import ConfigurationError, RecipeError
from textattack_semparse.recipes.attack.grammar_error_attack_yin_2020 import GrammarErrorAttackYin2020
from textattack_semparse.registry import attack_recipe_class
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR

PREMISES = [
    "the man is walking to the school with his dog",
    "a woman plays the guitar in the park",
    "two children are reading books about animals",
    "the students discuss the plan after the class",
]
HYPOTHESES = [
    "a man walks to a school and the dog runs",
    "the woman is playing music on a guitar",
    "the kids read a book about the animals",
    "students talk about the plans in the class",
]
WORDS = " ".join(PREMISES + HYPOTHESES) + " walked walk plays played playing books book reads"


class QueryLog(textattack.models.wrappers.ModelWrapper):
    """The tiny pair classifier, keeping every input pair the attack asked it about."""

    def __init__(self, classifier) -> None:
        self.classifier = classifier
        self.model = classifier.model
        self.queries: list[tuple[str, str]] = []

    def __call__(self, text_input_list):
        self.queries += [tuple(pair) for pair in text_input_list]
        return self.classifier(text_input_list)


@pytest.fixture(scope="module")
def pair_classifier(tmp_path_factory):
    return build_tiny_classifier(tmp_path_factory.mktemp("tiny-pair-bert"), WORDS, seed=2, num_labels=3)


def _pair_dataset(classifier, columns: tuple[str, str]) -> textattack.datasets.Dataset:
    pairs = list(zip(PREMISES, HYPOTHESES))
    labels = classifier(pairs).argmax(axis=1).tolist()  # labels the model gets right
    return textattack.datasets.Dataset(list(zip(pairs, labels)), input_columns=columns)


def _attack(recipe: str, victim, dataset, **options):
    attack = attack_recipe_class(recipe).build(victim, max_modification_rate=0.3, **options)
    args = AttackArgs(num_examples=len(dataset), disable_stdout=True, silent=True, random_seed=0)
    return Attacker(attack, dataset, args).attack_dataset()


@pytest.mark.parametrize(
    ("columns", "options", "attacked"),
    [
        (("premise", "hypothesis"), {}, 1),  # MNLI's columns: the second sentence
        (("sentence1", "sentence2"), {}, 0),  # MRPC's columns: the first sentence
        (("question", "sentence"), {}, 1),  # QNLI's columns: the second sentence
        (("text_a", "text_b"), {"task": "mrpc"}, 0),  # columns the paper does not name: the task decides
        (("premise", "hypothesis"), {"sentence": "first"}, 0),  # an explicit sentence overrides the columns
    ],
)
def test_nucle_greedy_on_a_pair_classifier_changes_only_the_papers_sentence(pair_classifier, columns, options, attacked):
    victim = QueryLog(pair_classifier)
    results = _attack("nucle-greedy", victim, _pair_dataset(pair_classifier, columns), **options)
    frozen = 1 - attacked
    originals = set(zip(PREMISES, HYPOTHESES))
    # Every pair the classifier was asked about keeps the other sentence of one of the originals.
    assert {query[frozen] for query in victim.queries} == {pair[frozen] for pair in originals}
    assert any(query[attacked] not in {pair[attacked] for pair in originals} for query in victim.queries)
    successes = [result for result in results if isinstance(result, SuccessfulAttackResult)]
    assert successes, [type(result).__name__ for result in results]
    for result in successes:
        before = result.original_result.attacked_text
        after = result.perturbed_result.attacked_text
        assert after.column_labels == before.column_labels
        assert after._text_input[columns[frozen]] == before._text_input[columns[frozen]]
        assert after._text_input[columns[attacked]] != before._text_input[columns[attacked]]
        # The budget is a share of the attacked sentence's words (30% of 8-10 words: 2-3 errors).
        attacked_words = len(before.words_per_input[attacked])
        assert 1 <= len(after.attack_attrs[GRAMMAR_ERRORS_ATTR]) <= int(0.3 * attacked_words)


def test_the_beam_and_probabilistic_recipes_keep_the_other_sentence_too(pair_classifier):
    for recipe in ("nucle-beam", "nucle-probabilistic"):
        victim = QueryLog(pair_classifier)
        _attack(recipe, victim, _pair_dataset(pair_classifier, ("premise", "hypothesis")))
        assert {premise for premise, _ in victim.queries} == set(PREMISES), recipe
        assert {hypothesis for _, hypothesis in victim.queries} - set(HYPOTHESES), recipe


def test_a_pair_layout_the_paper_does_not_name_asks_which_sentence(pair_classifier):
    dataset = _pair_dataset(pair_classifier, ("question1", "question2"))
    with pytest.raises(RecipeError, match=r"Which sentence of the input columns \('question1', 'question2'\)"):
        _attack("nucle-greedy", pair_classifier, dataset)


def test_tasks_name_the_attacked_sentence_as_the_paper_does(pair_classifier):
    for task, sentence in {"mnli": "second", "QNLI": "second", "mrpc": "first", "sst-2": "first"}.items():
        attack = GrammarErrorAttackYin2020.build(pair_classifier, task=task)
        (constraint,) = [c for c in attack.pre_transformation_constraints if isinstance(c, AttackedSentence)]
        assert constraint.sentence == sentence, task
    with pytest.raises(RecipeError, match="Did you mean 'mnli'"):
        GrammarErrorAttackYin2020.build(pair_classifier, task="mnlj")
    with pytest.raises(ConfigurationError, match="'first' or 'second'"):
        GrammarErrorAttackYin2020.build(pair_classifier, sentence="third")


def test_one_column_texts_and_parser_inputs_are_attacked_in_their_question():
    assert AttackedSentence()._get_modifiable_indices(AttackedText("what is the capital of texas")) == set(range(6))
    spider = AttackedText(OrderedDict(question="how many singers are there", db_id="concert_singer"))
    assert AttackedSentence()._get_modifiable_indices(spider) == set(range(5))


def test_bio_tags_give_entity_spans():
    assert bio_entity_spans(["B-PER", "I-PER", "O", "B-LOC", "I-LOC", "O"]) == [(0, 2), (3, 5)]
    assert bio_entity_spans(["I-ORG", "I-ORG", "O", "I-LOC"]) == [(0, 2), (3, 4)]  # IOB1: I- opens an entity


def test_ner_keeps_the_gold_entities_of_a_hand_written_sentence(tiny_classifier):
    tokens = "John Smith walked to the old bank of the Thames in London yesterday .".split()
    tags = ["B-PER", "I-PER", "O", "O", "O", "O", "O", "O", "O", "B-LOC", "O", "B-LOC", "O", "O"]
    sentence = " ".join(tokens)
    constraint = PreserveEntities({sentence: bio_entity_spans(tags)})
    text = AttackedText(sentence)
    entity_words = {text.words.index(word) for word in ("John", "Smith", "Thames", "London")}
    assert constraint._get_modifiable_indices(text) == set(range(text.num_words)) - entity_words
    # The recipe with task="ner": every candidate of the attack keeps the entities, insertions
    # included (nothing is inserted before an entity word).
    attack = GrammarErrorAttackYin2020.build(tiny_classifier, task="ner", entity_spans={sentence: bio_entity_spans(tags)})
    candidates = attack.get_transformations(text, original_text=text)
    assert candidates
    for candidate in candidates:
        index_map = candidate.attack_attrs["original_index_map"]
        for index in entity_words:
            assert candidate.words[index_map[index]] == text.words[index], candidate.text
        # No error touches an entity word or is anchored at one (an insertion belongs to the word it precedes).
        for edit in candidate.attack_attrs[GRAMMAR_ERRORS_ATTR]:
            assert edit.position not in entity_words and entity_words.isdisjoint(edit.indices), (edit, candidate.text)
    unprotected = GrammarErrorAttackYin2020.build(tiny_classifier).get_transformations(text, original_text=text)
    assert any(
        edit.position in entity_words for candidate in unprotected for edit in candidate.attack_attrs[GRAMMAR_ERRORS_ATTR]
    )
    # Protected words follow the text across an earlier deletion ("the" before "old").
    shorter = text.delete_word_at_index(text.words.index("the"))
    assert {shorter.words[i] for i in set(range(shorter.num_words)) - constraint._get_modifiable_indices(shorter)} == {
        "John",
        "Smith",
        "Thames",
        "London",
    }


def test_ner_needs_the_entity_spans(tiny_classifier):
    with pytest.raises(RecipeError, match="entity_spans"):
        GrammarErrorAttackYin2020.build(tiny_classifier, task="ner")
    with pytest.raises(ConfigurationError, match="does not lie within the 2 tokens"):
        PreserveEntities({"New York": [(1, 3)]})


def test_adversarial_training_with_textattacks_trainer_uses_greedy_examples_of_the_attacked_sentence(
    pair_classifier, tmp_path
):
    """Adversarial training from greedy-attack examples (``textattack train --attack nucle-greedy``):
    TextAttack's Trainer attacks the training pairs with nucle-greedy after a clean epoch and
    trains on the successful adversarial pairs, whose premises are the originals'."""
    import csv

    dataset = _pair_dataset(pair_classifier, ("premise", "hypothesis"))
    attack = attack_recipe_class("nucle-greedy").build(pair_classifier, max_modification_rate=0.3)
    args = textattack.TrainingArgs(
        num_epochs=2, num_clean_epochs=1, num_train_adv_examples=-1, per_device_train_batch_size=4,
        learning_rate=1e-6, output_dir=str(tmp_path), log_to_tb=False, random_seed=0,
        load_best_model_at_end=False, save_last=False, checkpoint_interval_epochs=None,
    )
    textattack.Trainer(pair_classifier, "classification", attack, dataset, dataset, args).train()
    with open(tmp_path / "attack-train-2.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == len(PREMISES) and any(row["result_type"] == "Successful" for row in rows)
    for row in rows:
        original_premise = row["original_text"].split("<SPLIT>")[0]
        perturbed_premise, perturbed_hypothesis = row["perturbed_text"].split("<SPLIT>")
        assert perturbed_premise == original_premise and "[[" not in perturbed_premise.replace("[[[[Premise]]]]", "")
        if row["result_type"] == "Successful":
            assert "[[" in perturbed_hypothesis.replace("[[[[Hypothesis]]]]", "")
