from tests.recipes.test_grammar_error_attack_yin_2020 import *
def test_dbg(tiny_classifier):
    sentences = ["the film was good and the actors are great", "the story is bad", "a movie about the actors"]
    predictions = tiny_classifier(sentences).argmax(axis=1).tolist()
    print(tiny_classifier(sentences))
    dataset = textattack.datasets.Dataset(list(zip(sentences, predictions)))
    attack = GrammarErrorAttackYin2020.build(tiny_classifier, search="greedy", max_modification_rate=0.3)
    for r in _attack(attack, dataset, 3):
        print(type(r).__name__, r.perturbed_result.attacked_text.text, r.perturbed_result.score)
