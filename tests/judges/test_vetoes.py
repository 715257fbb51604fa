"""The meaning judge's first layer: each veto fires on the edit it names and on nothing that keeps
the gold's values, numbers, operators and predicates."""

from __future__ import annotations

import pytest

from textattack_semparse.judges.judgement import RewritePair
from textattack_semparse.judges.lexicon import lexicon, operator_marks, reason
from textattack_semparse.judges.vetoes import (
    VETOES,
    edit_distance,
    gold_facts,
    is_typo_of,
    logical_form_operators,
    sql_operators,
    veto_reason,
)

GEO_SQL = "SELECT population FROM state WHERE state_name = 'texas'"
ARGMAX = "(argmax:<<e,t>,<<e,i>,e>> (lambda $0:e (state:<s,t> $0)) (lambda $0:e (population:<lo,i> $0)))"
SINGERS = "SELECT count(*) FROM singer"
SCHEMA = frozenset({"singer", "song", "name", "country", "age", "concert", "stadium"})
SINGERS_FIRST = "SELECT T1.name FROM singer AS T1 JOIN song AS T2 ON T1.id = T2.singer_id ORDER BY T2.year LIMIT 1"
OWNERS = "SELECT first_name, last_name FROM owners ORDER BY age DESC LIMIT 1"
DOCUMENTS = "SELECT document_description FROM documents WHERE document_name = 'Robbin CV'"
DOCUMENT_SCHEMA = frozenset({"document", "documents", "description", "name", "text", "details", "template"})

VETOED = [
    # (original, rewrite, gold, schema, the veto's reason)
    ("what is the population of texas", "what is the population of ohio", GEO_SQL, frozenset(),
     "changed the value 'texas' to 'ohio'"),
    ("what is the population of texas", "what is the population", GEO_SQL, frozenset(), "dropped the value 'texas'"),
    ("name 3 rivers in texas", "name four rivers in texas", None, frozenset(), "changed the number '3' to 'four'"),
    ("name the rivers in texas", "name 2 rivers in texas", None, frozenset(), "added the number '2'"),
    ("which states border texas", "which states do not border texas", None, frozenset(), "added 'not' (negation)"),
    ("which states do not border texas", "which states do border texas", "SELECT state_name FROM state WHERE "
     "state_name NOT IN (SELECT border FROM border_info WHERE state_name = 'texas')", frozenset(), "dropped 'not' (negation)"),
    ("which state has the largest population", "which state has the smallest population", ARGMAX, frozenset(),
     "turned 'largest' into 'smallest' (superlative)"),
    ("which state has the largest population", "which state has population", ARGMAX, frozenset(),
     "dropped 'largest' (superlative)"),
    ("what is the capital of texas", "what is the largest capital of texas", None, frozenset(),
     "added 'largest' (superlative)"),
    ("cities with more than 100000 people", "cities with less than 100000 people", None, frozenset(),
     "turned 'more than' into 'less than' (comparative)"),
    ("how many singers do we have", "what singers do we have", SINGERS, SCHEMA, "dropped 'how many' (aggregation)"),
    ("rivers that cross all states", "rivers that cross some states", None, frozenset(),
     "turned 'all' into 'some' (quantifier)"),
    ("how many singers do we have", "how many songs do we have", SINGERS, SCHEMA,
     "replaced 'singers' (the gold's singer) by 'songs', which names song"),
    ("which state has the largest population", "which has the largest population", ARGMAX, frozenset(),
     "dropped 'state', which names the gold's state"),
    ("show me the flights from ci0 to ci1", "show me the flights from ci0 through ci1", None, frozenset(),
     "replaced 'to' (destination) by 'through' (via)"),
    ("what is the highest mountain in us", "where is the highest mountain in us", None, frozenset(),
     "replaced 'what' (thing) by 'where' (place)"),
    ("what is the capital of texas", "is the capital of texas", None, frozenset(),
     "dropped 'what' (question word): no question or request is left"),
    ("what is the largest city in the smallest state", "what is the smallest city in the largest state", None,
     frozenset(), "exchanged the operators 'largest' and 'smallest'"),
    ("flights from boston to denver", "flights from denver to boston",
     "SELECT f.id FROM flight AS f WHERE f.origin = 'boston' AND f.destination = 'denver'", frozenset(),
     "exchanged the values 'boston' and 'denver'"),
    ("how many rivers are in the state that has the most rivers", "how many cities are in the state that has the "
     "most rivers", "(count (river $0))", frozenset({"river", "city", "state"}),
     "replaced 'rivers' (the gold's river) by 'cities', which names city"),
    # "first" before anything but a name is still the superlative of time.
    ("which singer released the first song", "which singer released the song", SINGERS_FIRST, SCHEMA,
     "dropped 'first' (superlative)"),
    # A count put for a word that is no predicate of the gold adds an aggregation.
    ("what is the name of the singers", "what is the number of singers", "SELECT name FROM singer", SCHEMA,
     "added 'number of' (aggregation)"),
    # A phrase whose last word names another column of the schema.
    ("how many singers do we have", "how many concert venues do we have", SINGERS,
     SCHEMA | {"venue"}, "replaced 'singers' (the gold's singer) by 'concert venues', which names venue"),
    # Another form of the word that names another column: WTQ's "award" and "awarding body".
    ("what was the last award that nujoma won", "what was the last awarding body that nujoma won from", None,
     frozenset({"award", "awarding", "body", "date"}), "replaced 'award' (the gold's award) by 'awarding body', "
     "which names body"),
]

KEPT = [
    # Synonyms and paraphrases of what the gold names: left to the reader.
    ("how many singers do we have", "how many vocalists do we have", SINGERS, SCHEMA),
    ("how many singers do we have", "count the singers we have", SINGERS, SCHEMA),
    # The same operator in other words.
    ("which state has the largest population", "which state is the most populous", ARGMAX, frozenset()),
    ("which state has the largest population", "which state has the biggest population", ARGMAX, frozenset()),
    ("name 3 rivers in texas", "name three rivers in texas", None, frozenset()),
    ("cities with more than 100000 people", "cities with over 100000 people", None, frozenset()),
    # What the gold does not aggregate: "how many people" asks for a population here.
    ("how many people live in texas", "what is the population of texas", GEO_SQL, frozenset()),
    # A class noun beside its value, the names of the answer, typos.
    ("what is the population of the state of texas", "what is the population of texas", GEO_SQL, frozenset()),
    ("what are the names of the singers", "what are the singers", "SELECT name FROM singer", SCHEMA),
    ("what is the population of texas", "what is the populaton of txeas", GEO_SQL, frozenset()),
    ("which state has the largest population", "which state has the largset population", ARGMAX, frozenset()),
    ("what are all the rivers in texas", "what are the rivers in texas", None, frozenset()),
    ("what rivers are in texas", "list the rivers in texas", None, frozenset()),  # a request asks too
    # A negated comparison in other words; a negation a paraphrase spells otherwise.
    ("flights that do not exceed do0", "flights that cost no more than do0", None, frozenset()),
    ("show me nonstop flight from ci0 to ci1", "which flight go from ci0 to ci1 without stopping", None, frozenset()),
    # Words of two kinds swapped: a scramble people read through, left to the reader.
    ("find the cell phone of professionals who operate", "find the cell operate of professionals who phone", None,
     frozenset()),
    # A value named by a derived word, and a possessive.
    ("cities in european countries", "cities in countries of europe", "SELECT c FROM t WHERE continent = 'Europe'",
     frozenset()),
    ("what is the capital of colorado", "tell me which city is colorado's capital",
     "SELECT capital FROM state WHERE state_name = 'colorado'", frozenset()),
    # A person's first and last name are names, not superlatives (Spider-Syn's "given name", "family name").
    ("what is the first name and last name of the oldest owner", "what is the given name and family name of the "
     "oldest guardian", OWNERS, frozenset({"owner", "owners", "first", "last", "name", "age"})),
    # A quantity said as a count of its things.
    ("what is the population of houston", "what is the number of residents of houston",
     "SELECT population FROM city WHERE city_name = 'houston'", frozenset()),
    # Another part of speech of the predicate's word; a phrase naming it by its last word.
    ("what is the description of the document named robbin cv", "what is the describing details of the document "
     "named robbin cv", DOCUMENTS, DOCUMENT_SCHEMA),
    ("what is the description of the document named robbin cv", "what is the description of the text file named "
     "robbin cv", DOCUMENTS, DOCUMENT_SCHEMA),
    # ATIS's stem "befor" is "before"; "at least one" is "some"; look-alikes and pieces of a word.
    ("list flight befor ti0 from ci0 to ci1", "which flights from ci0 to ci1 leave before ti0",
     "( lambda $0 e ( and ( flight $0 ) ( < ( departure_time $0 ) ti0 ) ) )", frozenset()),
    ("what are airlines that have some flight from ci0", "which airlines operate at least one flight from ci0", None,
     frozenset()),
    ("list ground transport in ci0", "list 9round tra nsport in ci0", None, frozenset()),
]


@pytest.mark.parametrize(("original", "rewrite", "gold", "schema", "expected"), VETOED)
def test_each_veto_fires_on_the_edit_it_names(original, rewrite, gold, schema, expected) -> None:
    assert veto_reason(RewritePair(original, rewrite, gold, schema)) == expected


@pytest.mark.parametrize(("original", "rewrite", "gold", "schema"), KEPT)
def test_no_veto_fires_where_the_gold_s_parts_are_kept(original, rewrite, gold, schema) -> None:
    assert veto_reason(RewritePair(original, rewrite, gold, schema)) is None


def test_every_veto_class_is_exercised_and_ordered_as_reported() -> None:
    names = [veto.name for veto in VETOES]
    assert names == [
        "value", "number", "negation", "superlative", "comparative", "aggregation", "quantifier", "question-word",
        "relation", "exchange", "predicate",
    ]  # fmt: skip
    from textattack_semparse.judges.vetoes import read_pair

    fired = set()
    for original, rewrite, gold, schema, _ in VETOED:
        reading = read_pair(RewritePair(original, rewrite, gold, schema))
        fired.add(next(veto.name for veto in VETOES if veto(reading) is not None))
    assert fired == set(names)


def test_the_lexicon_gives_each_class_its_reason_and_marks_phrases_first() -> None:
    for kind in ("superlative", "comparative", "negation", "aggregation", "quantifier", "numbers", "answer_nouns"):
        assert reason(kind).strip().endswith(".")
    marks = operator_marks("how many rivers are at least 500 miles long".split())
    assert [(m.kind, m.text) for m in marks] == [("aggregation", "how many"), ("comparative", "at least"), ("number", "500")]
    # Every word of a scale sits on one side of it only.
    for kind in ("superlative", "comparative"):
        for scale, sides in lexicon()[kind]["scales"].items():
            assert not set(sides["more"]) & set(sides["less"]), (kind, scale)


def test_gold_operators_from_sql_and_logical_forms() -> None:
    assert sql_operators("SELECT name FROM city ORDER BY population DESC LIMIT 1") == {"superlative", "number"}
    assert sql_operators("SELECT avg(age) FROM singer WHERE country != 'France'") == {"aggregation", "negation"}
    assert sql_operators("not sql at all (") is None
    assert logical_form_operators("( lambda $0 e ( and ( flight $0 ) ( > ( fare $0 ) 200 ) ) )") == {"comparative", "number"}
    assert logical_form_operators("(count:<<e,t>,i> (lambda $0:e (river:<r,t> $0)))") == {"aggregation"}


def test_the_gold_s_values_are_found_as_the_question_spells_them() -> None:
    facts = gold_facts(tuple("what rivers flow through new york".split()), "SELECT river_name FROM river WHERE traverse = 'new york'")
    assert facts.value_spans == ((4, 6),) and "river" in facts.predicates
    assert gold_facts(("where", "is", "dallas"), None).operators is None  # no gold: every class counts


def test_typos_are_near_misses_of_the_same_word() -> None:
    assert edit_distance("kitten", "sitting") == 3
    assert is_typo_of("stte", "state") and is_typo_of("mountian", "mountain")
    assert not is_typo_of("lakes", "rivers") and not is_typo_of("10", "100")


def test_a_replacement_is_unrelated_unless_wordnet_gives_it_a_shared_sense() -> None:
    from textattack_semparse.judges.vetoes import read_pair, unrelated_replacement

    def unrelated(original: str, rewrite: str):
        return unrelated_replacement(read_pair(RewritePair(original, rewrite)))

    assert unrelated("how many singers are there", "how many vocalists are there") is None  # a shared synset
    assert unrelated("how many concerts play there", "how many xyzzies play there") is None  # unknown to WordNet
    assert unrelated("what is the length of the river", "what is the location of the river") == ("length", "location")
