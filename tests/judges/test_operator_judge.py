"""The offline default judge on the failure classes people found in perturbed GeoQuery questions
(each pair below is one of the real examples of the judged sample, or one of its kind) and on
the harmless edits it must let through."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from textattack.shared import AttackedText

from textattack_semparse.judges import question_forms
from textattack_semparse.judges.judgement import RewritePair, Verdict
from textattack_semparse.judges.operator_judge import OperatorJudge, _edit_distance, _is_typo
from textattack_semparse.linguistics import operator_words, spacy_pipeline

GOLD = "SELECT state_name FROM state WHERE population = (SELECT MAX(population) FROM state)"


@pytest.fixture(scope="module")
def judge() -> OperatorJudge:
    return OperatorJudge()


@pytest.mark.parametrize(
    ("original", "rewrite", "reason"),
    [
        # random deletion
        ("where is portland", "portland", "dropped 'where' (question word)"),
        ("which is the highest peak not in alaska", "which the highest peak in alaska", "dropped 'not' (negation)"),
        # WordNet substitution outside the word's sense
        (
            "what is the population of texas",
            "what is the universe of texas",
            "not 'population' in its common senses here",
        ),
        ("which is the smallest state", "which is the lowest state", "replaced 'smallest' (comparison)"),
        ("what are the highest mountains in the usa", "what are the highest sights in the usa", "not 'mountains'"),
        # the tagger reads the noun after an opening "which" as a verb (VBZ), whose synonyms are "says" and "tells"
        ("which states border texas", "which says border texas", "'states' may be the noun"),
        ("which states border the missouri river", "which tell border the missouri river", "'states' may be the noun"),
        ("how many states border texas", "how many tells border texas", "'states' may be the noun"),
        # WordNet synonyms of the first sense that blind annotators read as another question
        ("name the rivers in arkansas", "call the rivers in arkansas", "people read as another question"),
        ("which students enrolled in the course", "which students recruited in the course", "people read as another"),
        ("what airline is a s as in sam", "what airline is a seconds as in sam", "replaced the letter 's'"),
        # function-word substitution
        ("how many people live in utah", "how mightn't people live in utah", "replaced 'many' (question word)"),
        (
            "name a state that borders indiana",
            "name a state formerly borders indiana",
            "replaced 'that' (relative word)",
        ),
        ("what rivers are in texas", "what rivers are near texas", "replaced 'in' (preposition)"),
        # deletion
        ("where is dallas", "is dallas", "dropped 'where' (question word)"),
        ("the state with the most inhabitants", "the state with the inhabitants", "dropped 'most' (quantifier)"),
        ("iowa borders how many states", "iowa borders many states", "dropped 'how' (question word)"),
        ("what is the capital of texas", "what is the of texas", "dropped 'capital' (a content word)"),
        # insertion
        ("what is the smallest state", "what is the six smallest state", "added 'six' (number"),
        ("what is the largest city", "what is the largest coastal city", "added 'coastal' (a content word"),
        # reordering that moves a phrase to another head
        ("what rivers are in states that border texas", "what rivers are that border texas in states", "moved"),
        # a phrase moved to the end, where it restricts the noun it follows
        ("what cities in ohio have more people than columbus", "what cities have more people than columbus in ohio",
         "moved 'in': it no longer depends on 'cities'"),
        # rejected by three blind annotators in the GeoQuery measurement (spaCy attaches "with" to the verb)
        ("what river runs through the state with the most cities", "what river runs with the most cities through the state",
         "moved 'with' away from 'state'"),
        ("how many colorado rivers are there", "how many colorado there are rivers", "split 'colorado rivers'"),
        # a change of tense, an operator word appended
        ("how many people live in austin", "how many people lived in austin", "another tense"),
        ("who cites jane smith", "who cites jane smith most", "added 'most' (quantifier"),
    ],
)
def test_meaning_changing_rewrites_are_different(judge, original, rewrite, reason):
    judgement = judge(original, rewrite)
    assert judgement.verdict is Verdict.DIFFERENT and reason in judgement.reason, judgement


def test_a_false_statement_joined_by_and_is_no_harmless_distraction(judge):
    """Naik et al.'s distraction statements are true ("and true is true"); "and true is false" would make
    the question ask for nothing, so it is not read as a statement about nothing the question asks."""
    assert judge("which states border iowa", "which states border iowa and true is true").keeps_meaning
    assert not judge("which states border iowa", "which states border iowa and true is false").keeps_meaning


@pytest.mark.parametrize(
    ("original", "rewrite"),
    [
        ("what is the capital of texas", "what is capital of texas"),  # article dropped
        ("how many rivers are in texas", "how many rivers are there in texas"),  # existential there
        ("what rivers are in texas", "what rivers in texas"),  # be dropped
        ("what is the capital of texas", "what is a capital of texas"),  # article for article
        ("what is the capital of texas", "what is the capitel of texas"),  # typo
        ("what is the capital of texas", "what is the capital of tex as"),  # a word split in two
        ("how many people live in utah", "how many people are living in utah"),  # inflection
        ("what is the capital of texas", "what is the capital of texas who is who; what is what"),  # distraction
        ("what is the capital of texas", "what capital is the of texas"),  # only free words moved
        ("what are the cities named durham", "what are the cities called durham"),  # name.v.01, not the request
    ],
)
def test_harmless_rewrites_are_the_same(judge, original, rewrite):
    assert judge(original, rewrite).verdict is Verdict.SAME


def test_the_gold_protects_its_predicates_and_values(judge):
    """Without the gold "state" -> "country" fails on WordNet's first sense; with it, the gold names it."""
    with_gold = judge("what state has the largest population", "what country has the largest population", GOLD)
    assert with_gold.reason == "replaced 'state' (the gold's predicate) by 'country'"
    values = judge("what is the capital of new york", "what is the capital of new jersey",
                   "SELECT capital FROM state WHERE state_name = 'new york'")  # fmt: skip
    assert values.verdict is Verdict.DIFFERENT and "database value" in values.reason


def test_a_synonym_in_the_words_sense_is_the_same(judge):
    assert judge("what is the largest city in texas", "what is the largest metropolis in texas").verdict is Verdict.SAME


def test_a_synonym_that_breaks_a_compound_is_different(judge):
    """WordNet's "one way" and "life expectancy" have senses of their own: a synonym of the word
    alone does not keep them (nlpaug's SynonymAug wrote "one fashion" on ATIS; 3 annotators of 3
    read it as another question)."""
    for original, rewrite in [
        ("ci0 to ci1 one way befor ti0", "ci0 to ci1 one fashion befor ti0"),
        ("what is the life expectancy in texas", "what is the life anticipation in texas"),
    ]:
        judgement = judge(original, rewrite)
        assert judgement.verdict is Verdict.DIFFERENT and "compound" in judgement.reason, judgement
    assert judge("list the phone number of the customers", "list the telephone number of the customers").keeps_meaning


def test_a_paraphrase_that_keeps_every_protected_word_is_unsure(judge):
    judgement = judge("how many people live in the state of utah", "how many persons reside within utah state")
    assert judgement.verdict in (Verdict.UNSURE, Verdict.DIFFERENT)
    assert not judgement.keeps_meaning


@pytest.mark.parametrize(
    ("old", "new", "typo"),
    [
        ("texas", "texsa", True), ("most", "mist", False), ("capital", "capitol", False), ("rivers", "rivres", True),
        # TextBugger's look-alike digits are letters; a number is never a typo of a word or of another number
        ("river", "r1ver", True), ("state", "5tate", True), ("of", "0f", True), ("and", "2nd", False),
        ("3rd", "4rd", False), ("3rd", "3dr", False), ("1990s", "1980s", False), ("ci0", "cj0", False),
    ],
)  # fmt: skip
def test_a_typo_is_a_near_non_word(old, new, typo):
    assert _is_typo(old, new) is typo


@pytest.mark.parametrize(
    ("original", "rewrite", "reason"),
    [
        # TextBugger typos of geo-lambda-test the judge rejected before it read them as typos
        ("where is portland", "wuere i s portland", "'i s': 'is' split in two"),
        ("what are the major rivers in ohio", "what are the m@jor r1vers in ohio", "'m@jor': a typo of 'major'"),
        ("what is the highest point in the usa", "what is the high3st piont in the usa", "'high3st': a typo"),
        ("what is the capital of massachusetts", "what is the caiptal 0f massachusetts", "'0f': a typo of 'of'"),
        # the original has a normal form the misspelt rewrite does not reach; word by word it is the same
        ("which state is the smallest", "which stxte is the smallet", "'smallet': a typo of 'smallest'"),
        ("tell me what cities are in texas", "tell m e what citeis are in texas", "'me' split in two"),
        # a word in more pieces than two (the judge reads "u.s.a." as three words)
        ("how long is the longest river in the usa", "how long is the longest river in the u.s.a.", "'usa' split in pieces"),
    ],
)
def test_typos_beside_other_typos_are_read_as_typos(judge, original, rewrite, reason):
    judgement = judge(original, rewrite)
    assert judgement.verdict is Verdict.SAME and reason in judgement.reason, judgement


@pytest.mark.parametrize(
    ("original", "rewrite", "reason"),
    [
        # a split word beside a word that changes the question
        ("which state is the smallest", "which st ate is the largest", "'smallest'"),
        ("where is portland", "wh ere is dallas", "'portland'"),
        # pieces that do not join to the word are not a split
        ("where is portland", "where i t portland", "added 'i'"),
        # a number or a code split in two is not a typo
        ("which cities have more than 150000 people", "which cities have more than 150 000 people", "150000"),
        ("list flight from ci0 to ci1", "list flight from ci 0 to ci1", "ci0"),
        # a changed number, even spelt among letters
        ("which cities have more than 150000 people", "which cities have more than 15000O people", "150000"),
        # word by word the same superlative, but another condition
        ("which state is the smallest", "which stxte is the largest", "'smallest'"),
    ],
)
def test_typo_readings_stop_at_a_changed_word(judge, original, rewrite, reason):
    judgement = judge(original, rewrite)
    assert not judgement.keeps_meaning and reason in judgement.reason, judgement


def test_the_judge_reads_textbuggers_at_sign_inside_a_word():
    assert operator_words.question_words("the m@jor rivers of @laska, alask@ @ what's") == [
        "the", "m@jor", "rivers", "of", "@laska", "alask@", "what's",
    ]  # fmt: skip


def test_edit_distance_counts_an_adjacent_swap_once():
    assert (_edit_distance("texas", "tekas"), _edit_distance("texas", "etxas"), _edit_distance("abc", "")) == (1, 1, 3)


@pytest.mark.parametrize(
    ("original", "rewrite", "reason"),
    [
        # an adverb of emphasis or politeness restricts nothing
        ("what is the capital of ohio", "what exactly is the capital of ohio", "only free words"),
        # another inflection of a function word
        ("how many rivers does texas have", "how many rivers does texas has", "'has' is another form of 'have'"),
        # a real word one edit away that cannot take the original's part of speech
        ("which state has the most people", "which state has the mist people", "'mist': a typo of 'most'"),
        # interchangeable operator words
        ("which rivers are in texas", "what rivers are in texas", "interchangeable question words"),
        ("name the rivers which flow through texas", "name the rivers that flow through texas", "relative pronouns"),
        ("what is the population of each state", "what is the population of every state", "interchangeable quantifiers"),
        # in/of between a noun and a place
        ("what is the largest city in texas", "what is the largest city of texas", "both place 'city' in 'texas'"),
        ("what is the largest city in the smallest state", "what is the largest city of the smallest state", "in 'state'"),
        # the same degree of a synonym
        ("what is the biggest city in texas", "what is the largest city in texas", "the same degree of a synonym"),
        # a synonym in a common (not only the first) sense
        ("what rivers flow through kansas", "what rivers run through kansas", "common sense run.v.06"),
        # a class noun next to a name that is an instance of it
        ("which rivers run through the state of ohio", "which rivers run through ohio", "names the class of 'ohio'"),
        ("how long is the rio grande", "how long is the rio grande river", "names the class of 'rio grande'"),
        # all / the names of on the asked-for phrase
        ("what are the cities in montana", "what are all the cities in montana", "the phrase the question asks for"),
        ("give me the rivers in oregon", "give me the names of the rivers in oregon", "the phrase the question asks for"),
        # an appended statement about nothing the question asks
        ("how many rivers are in colorado", "how many rivers are in colorado true is true", "a statement about nothing"),
        ("name the lakes in michigan", "name the lakes in michigan the sky is blue", "a statement about nothing"),
        # the normal forms
        ("what is the capital of the state of texas", "what is the capital of of texas", "a repeated word read once"),
        ("please tell me what rivers flow through colorado", "what rivers flow through colorado", "request"),
        ("what is the longest river in the us", "which river in the us is the longest", "superlative put before its noun"),
        ("which state has the smallest population density", "which state has the population density smallest",
         "superlative put before its noun"),
        # reordering
        ("what is the highest mountain in alaska", "what is the highest mountain alaska in", "swapped 'in alaska'"),
        ("which rivers are there in texas", "in texas, which rivers are there", "moved 'in texas' to the front"),
        ("in 2015 how many papers did jane smith publish", "how many papers did jane smith publish in 2015",
         "moved 'in 2015' to the end"),
        ("how many rivers are in the state with the largest area",
         "in the state with the largest area, how many rivers are there", "to the front"),
    ],
)  # fmt: skip
def test_each_harmless_rule_keeps_the_question(judge, original, rewrite, reason):
    judgement = judge(original, rewrite)
    assert judgement.verdict is Verdict.SAME and reason in judgement.reason, judgement


@pytest.mark.parametrize(
    ("original", "rewrite", "reason"),
    [
        # a real word that can take the original's part of speech is another word
        ("what is the height of mount rainier", "what is the weight of mount rainier", "replaced 'height'"),
        ("what lakes are in maine", "what lakes are in main", "replaced 'maine'"),
        # "that" is a relative pronoun after a noun only
        ("which rivers flow through texas", "that rivers flow through texas", "replaced 'which' (question word)"),
        # in/of after a verb, or before what is not a place
        ("how many people live in texas", "how many people live of texas", "replaced 'in' (preposition)"),
        ("what is the number of rivers in texas", "what is the number in rivers in texas", "replaced 'of'"),
        # another degree, or an adjective of another sense
        ("what is the largest city in texas", "what is the larger city in texas", "replaced 'largest' (comparison)"),
        ("what is the tallest mountain", "what is the shortest mountain", "replaced 'tallest' (comparison)"),
        # a class noun the name is no instance of
        ("what is the population of the capital of texas", "what is the population of texas", "dropped 'of'"),
        ("what is the area of boston", "what is boston", "dropped 'of'"),
        # all on a phrase the question does not ask for
        ("which rivers flow through states that border texas", "which rivers flow through all states that border texas",
         "added 'all' (quantifier"),
        # an appended clause that refers back, compares or asks
        ("what is the highest mountain in the us", "what is the highest mountain in the us that is not in alaska",
         "added 'that'"),
        ("what cities are in texas", "what cities are in texas and the population is over 1000", "added 'and'"),
        ("what is the capital of texas", "what is the capital of texas who is the president", "added 'who'"),
        # a phrase moved into the middle attaches to another noun
        ("which states border the state with the largest area", "which states with the largest area border the state",
         "moved"),
        # neighbours swapped that are both content words
        ("which states border kansas", "which border states kansas", "moved"),
    ],
)  # fmt: skip
def test_each_harmless_rule_stops_at_its_limit(judge, original, rewrite, reason):
    """Not kept: ``different``, or ``unsure`` when most words changed (a long appended clause)."""
    judgement = judge(original, rewrite)
    assert not judgement.keeps_meaning and reason in judgement.reason, judgement


def _function_word_pairs() -> list[RewritePair]:
    """The geo-mini questions, each with the function-word rewrites ``semparse-geo`` proposes for it
    and with two neighbouring words swapped."""
    from textattack_semparse.recipes.attack.recipe_ingredients import perturbation
    from textattack_semparse.robustness.build_test_set import dataset_examples

    transformations = [perturbation(name) for name in ("insertion", "deletion", "substitution-f")]
    pairs = []
    for example in dataset_examples("geo-mini-question-train"):
        text = AttackedText(example.question)
        rewrites = [rewrite.text for transformation in transformations for rewrite in transformation(text)]
        words = text.words
        rewrites += [" ".join([*words[:i], words[i + 1], words[i], *words[i + 2 :]]) for i in range(len(words) - 1)]
        pairs += [RewritePair(example.question, rewrite, example.gold) for rewrite in rewrites]
    return pairs


def _empty_caches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget every parse, tag and reading made so far, as a new process would."""
    monkeypatch.setattr(spacy_pipeline, "_parses", OrderedDict())
    monkeypatch.setattr(spacy_pipeline, "_tags", OrderedDict())
    for cached in (spacy_pipeline.word_annotations, question_forms._normal_form, operator_words._sql_protection):
        cached.cache_clear()


def test_rewrites_are_judged_as_with_their_full_parses(judge, monkeypatch):
    """The judge reads only the tags of most rewrites, from spaCy's tagger alone; its judgements
    are those it gives when every rewrite and its normal form were parsed beforehand."""
    pairs = _function_word_pairs()
    rewrites = [operator_words.question_words(pair.rewrite) for pair in pairs]
    spacy_pipeline.parse_batch(rewrites)
    spacy_pipeline.parse_batch([question_forms.normal_form(words, pipeline=judge.spacy_pipeline)[0] for words in rewrites])
    with_parses = judge.judge(pairs)
    _empty_caches(monkeypatch)
    assert judge.judge(pairs) == with_parses
    assert len(pairs) > 1000 and {judgement.verdict for judgement in with_parses} >= {Verdict.SAME, Verdict.DIFFERENT}
    assert sum("moved" in judgement.reason for judgement in with_parses) > 10  # rewrites it parses, too


def test_a_rewrite_opening_with_its_question_word_is_never_parsed(judge, monkeypatch):
    """Tagged when its normal form or an added word needs the tags, read by its words alone otherwise."""
    pairs = [pair for pair in _function_word_pairs() if "moved" not in judge(pair.original, pair.rewrite).reason]
    _empty_caches(monkeypatch)
    judge.judge(pairs)
    originals = {tuple(operator_words.question_words(pair.original)) for pair in pairs}
    rewrites = {tuple(operator_words.question_words(pair.rewrite)) for pair in pairs} - originals
    opening = {words for words in rewrites if words and words[0] in operator_words.QUESTION_WORDS}
    tagged = {words for _, words in spacy_pipeline._tags}
    assert len(opening) > 500 and len(opening & tagged) > 500 and len(opening - tagged) > 100
    assert not opening & {words for _, words in spacy_pipeline._parses}
