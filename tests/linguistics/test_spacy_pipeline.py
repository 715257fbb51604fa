"""The packaged spaCy pipeline, parsed on TextAttack's own word segmentation."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from textattack.shared import AttackedText

from textattack_semparse.errors import ResourceError
from textattack_semparse.linguistics import spacy_pipeline
from textattack_semparse.linguistics.spacy_pipeline import (
    load_spacy,
    parse_attacked_text,
    parse_batch,
    parse_words,
    tag_batch,
    word_tags,
)


def test_load_spacy_loads_the_packaged_pipeline_once() -> None:
    nlp = load_spacy()
    assert nlp is load_spacy()
    assert {"tagger", "parser"} <= set(nlp.pipe_names)


def test_leaving_out_the_entity_recogniser_changes_no_tag_lemma_or_parse() -> None:
    import spacy
    from spacy.tokens import Doc

    from textattack_semparse.linguistics.spacy_pipeline import DEFAULT_PIPELINE, UNUSED_COMPONENTS
    from textattack_semparse.robustness.build_test_set import dataset_examples

    lean = load_spacy()
    assert not set(UNUSED_COMPONENTS) & set(lean.pipe_names)
    full = spacy.load(DEFAULT_PIPELINE)
    assert set(UNUSED_COMPONENTS) <= set(full.pipe_names)  # the comparison is not vacuous
    questions = [example.question.split() for example in dataset_examples("geo-mini-question-train")]
    questions += [AttackedText(text).words for text in ("Which rivers don't flow through New York, and why?",
                                                         "please list the states that border the most populous one")]

    def reading(nlp):
        docs = nlp.pipe([Doc(nlp.vocab, words=words) for words in questions])
        return [[(t.tag_, t.pos_, t.lemma_, t.dep_, t.head.i) for t in doc] for doc in docs]

    assert len(questions) > 70
    assert reading(lean) == reading(full)


def test_doc_tokens_are_the_words_of_the_attacked_text() -> None:
    text = AttackedText("Which rivers don't flow through New York, and why?")
    doc = parse_attacked_text(text)
    assert [token.text for token in doc] == text.words
    assert "don't" in text.words  # one TextAttack word, one spaCy token (spaCy alone splits it)


def test_geoquery_question_is_tagged_and_parsed() -> None:
    doc = parse_words("what is the capital of texas".split())
    assert [token.tag_ for token in doc][1:4] == ["VBZ", "DT", "NN"]
    assert doc[4].dep_ == "prep" and doc[5].head.i == 4


def test_ordinary_sentence_gets_noun_chunks() -> None:
    doc = parse_words("The old river flows into the sea".split())
    assert [chunk.text for chunk in doc.noun_chunks] == ["The old river", "the sea"]


def test_same_words_reuse_the_cached_parse() -> None:
    assert parse_words(["rivers", "flow"]) is parse_words(("rivers", "flow"))


def test_a_batch_parses_as_one_by_one_and_fills_the_cache() -> None:
    questions = [
        "which rivers flow through the states that border texas".split(),
        "what is the population of the largest city in the smallest state".split(),
        "how many people live in boston".split(),
    ]
    nlp = load_spacy()
    one_by_one = [nlp(" ".join(words)) for words in questions]  # spaCy's own tokens are the words here
    batch = parse_batch(questions)
    for alone, batched in zip(one_by_one, batch, strict=True):
        readings = [[(token.tag_, token.dep_, token.head.i, token.lemma_) for token in doc] for doc in (alone, batched)]
        assert readings[0] == readings[1]
    assert all(parse_words(words) is doc for words, doc in zip(questions, batch, strict=True))


def test_a_batch_of_repeated_words_gives_the_same_parse_for_each() -> None:
    first, second = parse_batch([["where", "is", "dallas"], ["where", "is", "dallas"]])
    assert first is second


def _questions_and_rewrites() -> list[list[str]]:
    """The geo-mini questions and the function-word rewrites ``semparse-geo`` proposes for them."""
    from textattack_semparse.recipes.attack.recipe_ingredients import perturbation
    from textattack_semparse.robustness.build_test_set import dataset_examples

    transformations = [perturbation(name) for name in ("insertion", "deletion", "substitution-f")]
    texts = [AttackedText(example.question) for example in dataset_examples("geo-mini-question-train")]
    rewrites = [rewrite for text in texts for transformation in transformations for rewrite in transformation(text)]
    return [text.words for text in texts + rewrites]


def test_the_tagger_alone_gives_the_tags_of_the_full_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    from spacy.tokens import Doc

    questions = _questions_and_rewrites()
    assert len(questions) > 1000
    # Empty caches: every word sequence is tagged by the tagger alone, none read off a cached parse.
    monkeypatch.setattr(spacy_pipeline, "_parses", OrderedDict())
    monkeypatch.setattr(spacy_pipeline, "_tags", OrderedDict())
    nlp = load_spacy()
    full = [tuple(token.tag_ for token in nlp(Doc(nlp.vocab, words=words))) for words in questions]
    tagged = [tags for start in range(0, len(questions), 7) for tags in tag_batch(questions[start : start + 7])]
    assert tagged == full
    assert not spacy_pipeline._parses  # tagged, not parsed
    assert any("JJS" in tags for tags in tagged) and any("WDT" in tags for tags in tagged)


def test_tags_come_from_a_cached_parse_and_are_remembered() -> None:
    words = ["which", "river", "is", "the", "longest"]
    doc = parse_words(words)
    assert word_tags(words) == tuple(token.tag_ for token in doc) == ("WDT", "NN", "VBZ", "DT", "JJS")
    assert tag_batch([words, ["rivers", "flow"], words]) == [word_tags(words), word_tags(["rivers", "flow"]), word_tags(words)]


@pytest.mark.parametrize("word", ["", "new york"])
def test_empty_or_spaced_word_is_rejected(word: str) -> None:
    with pytest.raises(ValueError, match="no whitespace"):
        parse_words(["what", word])


def test_missing_pipeline_error_names_the_pip_command() -> None:
    with pytest.raises(ResourceError, match="pip install en-core-web-nonexistent"):
        load_spacy("en_core_web_nonexistent")
