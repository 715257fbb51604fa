"""Entity anonymisation: typed placeholders in, real values out (Dong & Lapata 2016;
Finegan-Dollak et al. 2018)."""

from __future__ import annotations

import re

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.datasets.entity_anonymization import ANONYMIZATION_FILE, EntityAnonymizer
from textattack_semparse.datasets.example import SemparseExample
from textattack_semparse.datasets.geoquery_constants import KnownConstant

LAMBDA_TRAIN = [
    SemparseExample(
        "what is the capital of texas",
        "(capital:<s,c> texas:s)",
    ),
    SemparseExample(
        "how long is the mississippi river",
        "(len:<r,i> mississippi_river:r)",
    ),
    SemparseExample(
        "which rivers run through texas and new mexico",
        "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 texas:s) (loc:<lo,<lo,t>> $0 new_mexico:s)))",
    ),
    SemparseExample(
        "how many people live in austin",
        "(population:<lo,i> austin_tx:c)",
    ),
    SemparseExample(
        "what is the population of austin",
        "(population:<lo,i> austin_tx:c)",
    ),
    SemparseExample(
        "list flights from ci0 to ci1",
        "( lambda $0 e ( and ( flight $0 ) ( from $0 ci0 ) ( to $0 ci1 ) ) )",
    ),
]


def _agreeing_with_the_gold(anonymizer: EntityAnonymizer, examples: list[SemparseExample]) -> int:
    """How many of ``examples`` the anonymiser reads as their gold anonymisation has them."""
    return sum(
        (question.text, anonymizer.anonymize_output(example.gold, question.values)) == anonymizer.training_pair(example)
        for example in examples
        for question in [anonymizer.anonymize(example.question)]
    )


@pytest.fixture(scope="module")
def lambda_anonymizer() -> EntityAnonymizer:
    return EntityAnonymizer.fit(LAMBDA_TRAIN)


def test_logical_form_training_pairs_replace_each_spelled_constant_by_its_type_and_number(lambda_anonymizer):
    question, gold = lambda_anonymizer.training_pair(LAMBDA_TRAIN[2])
    assert question == "which rivers run through s0 and s1"
    assert gold == "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 s0) (loc:<lo,<lo,t>> $0 s1)))"
    # A city is spelled without its state suffix and a river without "_river" (or with it).
    assert lambda_anonymizer.training_pair(LAMBDA_TRAIN[3]) == ("how many people live in c0", "(population:<lo,i> c0)")
    assert lambda_anonymizer.training_pair(LAMBDA_TRAIN[1]) == ("how long is the r0", "(len:<r,i> r0)")


def test_constants_the_dataset_already_anonymised_stay_as_they_are(lambda_anonymizer):
    assert lambda_anonymizer.training_pair(LAMBDA_TRAIN[5]) == (LAMBDA_TRAIN[5].question, LAMBDA_TRAIN[5].gold)


def test_a_new_question_is_anonymised_with_training_values_and_restored_after_the_model(lambda_anonymizer):
    question = lambda_anonymizer.anonymize("Which rivers run through New Mexico and Texas?")
    assert question.text == "which rivers run through s0 and s1?"
    assert dict(question.values) == {"s0": "new_mexico:s", "s1": "texas:s"}
    model_output = "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 s0) (loc:<lo,<lo,t>> $0 s1)))"
    assert lambda_anonymizer.deanonymize(model_output, question.values) == (
        "(lambda $0:e (and:<t*,t> (river:<r,t> $0) (loc:<lo,<lo,t>> $0 new_mexico:s) (loc:<lo,<lo,t>> $0 texas:s)))"
    )


def test_a_value_mentioned_twice_is_one_placeholder_and_unknown_words_are_left_alone(lambda_anonymizer):
    question = lambda_anonymizer.anonymize("is austin bigger than boston or austin")
    assert question.text == "is c0 bigger than boston or c0"
    assert dict(question.values) == {"c0": "austin_tx:c"}


def test_anonymize_output_is_undone_by_deanonymize(lambda_anonymizer):
    for example in LAMBDA_TRAIN:
        question = lambda_anonymizer.anonymize(example.question)
        anonymised = lambda_anonymizer.anonymize_output(example.gold, question.values)
        assert lambda_anonymizer.deanonymize(anonymised, question.values) == example.gold
        # What the model sees at parse time is what it was trained on for a training question.
        assert (question.text, anonymised) == lambda_anonymizer.training_pair(example)


def test_sql_anonymizer_trains_on_the_dataset_templates_and_finds_database_values():
    geo = load_benchmark("geo-mini")
    train = geo.split("question", "train")
    anonymizer = EntityAnonymizer.fit(train, database=geo.database)
    assert anonymizer.style == "sql"
    for example in train:
        assert anonymizer.training_pair(example) == (example.template_question.lower(), example.template_gold)
    training_values = {value.lower() for example in train for value in example.variables.values()}
    # geo-mini's database names states the training questions never mention.
    database_state = next(
        key
        for key, (_, types) in anonymizer.lexicon.entries.items()
        if "state_name" in types and key not in training_values and " " not in key
    )
    question = anonymizer.anonymize(f"what is the capital of {database_state}")
    assert question.text == "what is the capital of state_name0"
    template = 'SELECT STATEalias0.CAPITAL FROM STATE AS STATEalias0 WHERE STATEalias0.STATE_NAME = "state_name0" ;'
    filled = anonymizer.deanonymize(template, question.values)
    assert re.search(rf'STATE_NAME = "{database_state}"', filled, re.IGNORECASE)


def test_sql_round_trip_on_every_geo_mini_example():
    geo = load_benchmark("geo-mini")
    anonymizer = EntityAnonymizer.fit(geo.split("question", "train"), database=geo.database)
    for example in geo.examples:
        question = anonymizer.anonymize(example.question)
        restored = anonymizer.deanonymize(anonymizer.anonymize_output(example.gold, question.values), question.values)
        assert restored == example.gold


def test_save_and_load_keep_the_anonymisation(tmp_path, lambda_anonymizer):
    lambda_anonymizer.save(tmp_path)
    assert (tmp_path / ANONYMIZATION_FILE).is_file()
    loaded = EntityAnonymizer.load(tmp_path)
    for text in ("how many people live in austin", "which rivers run through texas and new mexico"):
        assert loaded.anonymize(text) == lambda_anonymizer.anonymize(text)
    assert EntityAnonymizer.load(tmp_path / "elsewhere") is None


def test_bad_arguments_name_the_fix():
    with pytest.raises(ValueError, match="needs training examples"):
        EntityAnonymizer.fit([])
    with pytest.raises(ValueError, match="style must be one of"):
        EntityAnonymizer(EntityAnonymizer.fit(LAMBDA_TRAIN).lexicon, "prolog")


@pytest.mark.parametrize("benchmark", ["geo-lambda", "geo"])
def test_real_test_sets_round_trip_and_mostly_match_the_gold_anonymisation(real_data_dir, benchmark):
    loaded = load_benchmark(benchmark, data_dir=real_data_dir)
    anonymizer = EntityAnonymizer.fit(loaded.split("question", "train"), database=loaded.database)
    test = loaded.split("question", "test")
    agreeing = 0
    for example in test:
        question = anonymizer.anonymize(example.question)
        anonymised = anonymizer.anonymize_output(example.gold, question.values)
        assert anonymizer.deanonymize(anonymised, question.values) == example.gold
        agreeing += (question.text, anonymised) == anonymizer.training_pair(example)
    # Unseen entities and ambiguous types ("mississippi") make some test questions disagree
    # with their gold anonymisation; most must agree, or the parser could not reach the
    # studies' accuracies.
    assert agreeing > 0.8 * len(test)


def test_a_known_constant_unseen_in_training_is_anonymised_and_restored(lambda_anonymizer):
    known = [KnownConstant("new jersey", "s", "new_jersey:s"), KnownConstant("tempe", "c", "tempe_az:c")]
    anonymizer = EntityAnonymizer.fit(LAMBDA_TRAIN, known_constants=known)
    # Without the known constants, "new jersey" stays words the model never saw.
    assert lambda_anonymizer.anonymize("what is the capital of new jersey").text == "what is the capital of new jersey"
    question = anonymizer.anonymize("what is the capital of new jersey")
    assert question.text == "what is the capital of s0"
    assert anonymizer.deanonymize("(capital:<s,c> s0)", question.values) == "(capital:<s,c> new_jersey:s)"
    assert dict(anonymizer.anonymize("how many people live in tempe").values) == {"c0": "tempe_az:c"}
    # Training values keep their training atoms and the training pairs do not change.
    assert anonymizer.training_pair(LAMBDA_TRAIN[2]) == lambda_anonymizer.training_pair(LAMBDA_TRAIN[2])
    assert dict(anonymizer.anonymize("how big is texas").values) == {"s0": "texas:s"}


def test_a_known_constant_the_training_questions_use_as_words_is_left_out():
    anonymizer = EntityAnonymizer.fit(LAMBDA_TRAIN, known_constants=[KnownConstant("people", "c", "people_xx:c")])
    assert anonymizer.anonymize("how many people live in austin").text == "how many people live in c0"


def test_the_word_before_a_value_picks_its_type():
    train = [
        SemparseExample("how many states have a city named austin",
                        "(count:<<e,t>,i> (lambda $0:e (and:<t*,t> (state:<s,t> $0) (exists:<<e,t>,t> (lambda $1:e "
                        "(and:<t*,t> (city:<c,t> $1) (named:<e,<n,t>> $1 austin:n) (loc:<lo,<lo,t>> $1 $0)))))))"),
        SemparseExample("what is the population of austin", "(population:<lo,i> austin_tx:c)"),
        SemparseExample("how many people live in austin", "(population:<lo,i> austin_tx:c)"),
    ]
    anonymizer = EntityAnonymizer.fit(train, known_constants=[KnownConstant("dallas", "c", "dallas_tx:c"),
                                                              KnownConstant("dallas", "n", "dallas:n")])
    assert dict(anonymizer.anonymize("what states have a city named dallas").values) == {"n0": "dallas:n"}
    assert dict(anonymizer.anonymize("how many people live in dallas").values) == {"c0": "dallas_tx:c"}
    # A city's state after the city is a word in training, so it stays one.
    known = EntityAnonymizer.fit(train, known_constants=[KnownConstant("texas", "s", "texas:s")])
    assert known.anonymize("what is the population of austin texas").text == "what is the population of c0 texas"


def test_a_city_named_with_its_state_is_that_states_city_and_says_nothing_of_the_name_alone(tmp_path):
    train = [
        SemparseExample("what is the population of portland maine", "(population:<lo,i> portland_me:c)"),
        SemparseExample("what is the population of springfield missouri", "(population:<lo,i> springfield_mo:c)"),
        SemparseExample("where is springfield", "(lambda $0:e (loc:<lo,<lo,t>> springfield_il:c $0))"),
        SemparseExample("what is the capital of maine", "(capital:<s,c> maine:s)"),
        SemparseExample("what is the capital of missouri", "(capital:<s,c> missouri:s)"),
    ]
    known = [
        KnownConstant("portland", "c", "portland_or:c"),  # the most populous Portland
        KnownConstant("springfield", "c", "springfield_ma:c"),
        KnownConstant("maine", "s", "maine:s"),
        KnownConstant("missouri", "s", "missouri:s"),
        KnownConstant("illinois", "s", "illinois:s"),
    ]
    anonymizer = EntityAnonymizer.fit(train, known_constants=known)
    assert anonymizer.qualified == {
        "portland maine": {"c": "portland_me:c"},
        "springfield missouri": {"c": "springfield_mo:c"},
    }

    def read(question: str) -> tuple[str, dict[str, str]]:
        anonymized = anonymizer.anonymize(question)
        return anonymized.text, dict(anonymized.values)

    # Named with its state, the city is that state's, and the state stays a word as in training.
    assert read("where is portland maine") == ("where is c0 maine", {"c0": "portland_me:c"})
    assert read("how big is springfield missouri") == ("how big is c0 missouri", {"c0": "springfield_mo:c"})
    # Alone, the name is what training reads it as alone ("where is springfield"), else the known constant.
    assert read("where is portland") == ("where is c0", {"c0": "portland_or:c"})
    assert read("where is springfield") == ("where is c0", {"c0": "springfield_il:c"})
    # A state training never named after the city leaves the city as the name alone reads it.
    assert read("where is springfield illinois") == ("where is c0 illinois", {"c0": "springfield_il:c"})
    reloaded = EntityAnonymizer.load(anonymizer.save(tmp_path).parent)
    assert reloaded.qualified == anonymizer.qualified
    assert dict(reloaded.anonymize("where is portland maine").values) == {"c0": "portland_me:c"}


def test_an_unseen_word_where_training_has_a_placeholder_is_copied_with_that_placeholders_type(tmp_path):
    train = [
        SemparseExample("show me jobs using java", "(lambda $0:e (and_ (job $0) (language $0 java)))"),
        SemparseExample("list jobs using perl", "(lambda $0:e (and_ (job $0) (language $0 perl)))"),
        SemparseExample("what jobs in austin use java", "(lambda $0:e (and_ (job $0) (loc $0 austin) (language $0 java)))"),
    ]
    anonymizer = EntityAnonymizer.fit(train)
    # JOBS' constants are typed by the predicate that takes them.
    assert anonymizer.training_pair(train[2]) == (
        "what jobs in loc0 use language0", "(lambda $0:e (and_ (job $0) (loc $0 loc0) (language $0 language0)))"
    )
    # "using" precedes a placeholder every time in training: an unseen word after it is copied.
    question = anonymizer.anonymize("show me jobs using 'vc++'")
    assert question.text == "show me jobs using 'language0'"
    assert anonymizer.deanonymize("(lambda $0:e (and_ (job $0) (language $0 language0)))", question.values) == (
        "(lambda $0:e (and_ (job $0) (language $0 vc++)))"
    )
    # "jobs" rarely does: an unseen word after it stays a word.
    assert anonymizer.anonymize("list jobs urgently").text == "list jobs urgently"
    reloaded = EntityAnonymizer.load(anonymizer.save(tmp_path).parent)
    assert reloaded.anonymize("show me jobs using 'vc++'") == question


def test_unseen_words_are_read_as_jobs_training_writes_its_values():
    train = [
        SemparseExample("jobs for a bscs", "(lambda $0:e (and_ (job $0) (req_deg $0 BSCS)))"),
        SemparseExample("jobs for a bsee", "(lambda $0:e (and_ (job $0) (req_deg $0 BSEE)))"),
        SemparseExample("jobs for a mscs", "(lambda $0:e (and_ (job $0) (req_deg $0 MSCS)))"),
        SemparseExample("jobs for a msee", "(lambda $0:e (and_ (job $0) (req_deg $0 MSEE)))"),
        SemparseExample("jobs for a gui specialist", "(lambda $0:e (and_ (job $0) (area $0 gui)))"),
        SemparseExample("jobs for a web specialist", "(lambda $0:e (and_ (job $0) (area $0 web)))"),
        SemparseExample("jobs at ibm", "(lambda $0:e (and_ (job $0) (company $0 IBM)))"),
        SemparseExample("jobs at compaq", "(lambda $0:e (and_ (job $0) (company $0 Compaq)))"),
        SemparseExample("jobs at apple", "(lambda $0:e (and_ (job $0) (company $0 Apple)))"),
        SemparseExample("jobs in san antonio", '(lambda $0:e (and_ (job $0) (loc $0 "san antonio")))'),
        SemparseExample("jobs using a pc", "(lambda $0:e (and_ (job $0) (platform $0 pc)))"),
    ]
    anonymizer = EntityAnonymizer.fit(train)
    # "a" precedes degrees most, but "specialist" follows only areas. The type is naive Bayes's
    # over both neighbours, the most of P(a | t) P(specialist | t) P(t) as training counts them,
    # the following word's probability add-one smoothed over the words that follow placeholders.
    before, after = anonymizer.contexts["a"], anonymizer.following["specialist"]
    totals = {t: sum(by_type.get(t, 0) for by_type in anonymizer.contexts.values()) for t in before}
    likelihood = {t: before[t] * (after.get(t, 0) + 1) / (totals[t] + len(anonymizer.following)) for t in before}
    assert max(before, key=before.get) == "req_deg" and max(likelihood, key=likelihood.get) == "area"
    question = anonymizer.anonymize("jobs for a ole specialist")
    assert (question.text, dict(question.values)) == ("jobs for a area0 specialist", {"area0": "ole"})
    # Unseen words in a row are one value, written as training writes its type's values:
    # companies capitalised (two of three), several words in double quotes (as "san antonio").
    question = anonymizer.anonymize("jobs at applied materials")
    assert (question.text, dict(question.values)) == ("jobs at company0", {"company0": '"Applied Materials"'})
    assert dict(anonymizer.anonymize("jobs for a phd").values) == {"req_deg0": "PHD"}  # degrees: upper case
    # The plural of a known value is that value.
    question = anonymizer.anonymize("jobs using pcs")
    assert (question.text, dict(question.values)) == ("jobs using platform0", {"platform0": "pc"})
    # A known plural between unseen words ends their run: the mentions never overlap.
    mentions = anonymizer._unknown_words("jobs at apex pcs zeta", ())
    assert [(m.value, m.types) for m in mentions] == [("pc", ("platform",)), ("apex", ("company",))]


def test_real_jobs_lambda_anonymisation_reads_unseen_values_by_their_neighbours(real_data_dir):
    loaded = load_benchmark("jobs-lambda", data_dir=real_data_dir)
    anonymizer = EntityAnonymizer.fit(loaded.split("question", "train"), known_constants=loaded.known_constants)
    # Measured: 135 of 140 (134 before "tcp ip" was read as tcp/ip; 129 with the word before an
    # unseen word alone and one word per value).
    assert _agreeing_with_the_gold(anonymizer, loaded.split("question", "test")) >= 134
    question = anonymizer.anonymize("are there any jobs in tcp ip ?")
    assert (question.text, dict(question.values)) == ("are there any jobs in area0 ?", {"area0": "tcp/ip"})


def test_real_geo_lambda_anonymisation_covers_test_entities_unseen_in_training(real_data_dir):
    loaded = load_benchmark("geo-lambda", data_dir=real_data_dir)
    assert KnownConstant("new jersey", "s", "new_jersey:s") in loaded.known_constants
    anonymizer = EntityAnonymizer.fit(loaded.split("question", "train"), known_constants=loaded.known_constants)
    agreeing = _agreeing_with_the_gold(anonymizer, loaded.split("question", "test"))
    # Measured: 277 of 280 (276 before "portland" alone was read apart from training's "portland
    # maine"; 248 with the training values alone).
    assert agreeing >= 270
    assert dict(anonymizer.anonymize("where is portland").values) == {"c0": "portland_or:c"}
    assert dict(anonymizer.anonymize("what is the population of springfield south dakota").values) == {
        "c0": "springfield_sd:c"
    }


def test_predicates_that_take_the_same_atoms_share_one_placeholder_type(tmp_path):
    train = [
        SemparseExample("jobs requiring a bscs", "(lambda $0:e (and_ (job $0) (req_deg $0 BSCS)))"),
        SemparseExample("jobs desiring a bscs", "(lambda $0:e (and_ (job $0) (des_deg $0 BSCS)))"),
        SemparseExample("jobs requiring a phd", "(lambda $0:e (and_ (job $0) (req_deg $0 PhD)))"),
        SemparseExample("jobs requiring 2 years", "(lambda $0:e (and_ (job $0) (req_exp $0 2)))"),
        SemparseExample("jobs desiring 2 years", "(lambda $0:e (and_ (job $0) (des_exp $0 2)))"),
        SemparseExample("jobs in austin", "(lambda $0:e (and_ (job $0) (loc $0 austin)))"),
    ]
    anonymizer = EntityAnonymizer.fit(train)
    # req_deg and des_deg both take BSCS: one type, named by the word both end with; loc is alone
    assert anonymizer.type_names == {"des_deg": "deg", "req_deg": "deg", "des_exp": "exp", "req_exp": "exp"}
    assert anonymizer.training_pair(train[1]) == ("jobs desiring a deg0", "(lambda $0:e (and_ (job $0) (des_deg $0 deg0)))")
    assert anonymizer.training_pair(train[2])[0] == "jobs requiring a deg0"  # PhD only ever req_deg: its group's type
    assert anonymizer.training_pair(train[5])[0] == "jobs in loc0"
    question = anonymizer.anonymize("jobs desiring a phd")
    assert question.text == "jobs desiring a deg0"  # the model, not the placeholder, picks des_deg
    assert anonymizer.deanonymize("(lambda $0:e (and_ (job $0) (des_deg $0 deg0)))", question.values) == (
        "(lambda $0:e (and_ (job $0) (des_deg $0 PhD)))"
    )
    reloaded = EntityAnonymizer.load(anonymizer.save(tmp_path).parent)
    assert reloaded.type_names == anonymizer.type_names
    assert reloaded.training_pair(train[1]) == anonymizer.training_pair(train[1])


def test_typed_atoms_keep_their_types_even_when_spelled_alike():
    train = [
        SemparseExample("how long is the colorado river", "(len:<r,i> colorado_river:r)"),
        SemparseExample("what is the capital of colorado", "(capital:<s,c> colorado:s)"),
    ]
    # colorado_river:r and colorado:s are different atoms: the type chooses which one is written
    assert EntityAnonymizer.fit(train).type_names == {}


def test_the_reading_and_type_the_training_contexts_support_are_chosen():
    from textattack_semparse.datasets.value_lexicon import ValueLexicon

    # "mississippi" is a training value (a river or a state); the lowest point "mississippi river" comes
    # from the database. Training templates write "the river_name0 river" and "border state_name0".
    lexicon = ValueLexicon(
        {"mississippi": ("mississippi", ["state_name", "river_name"]), "mississippi river": ("mississippi river", ["lowest_point"])},
        training_keys={"mississippi"},
    )
    assert [[m.value for m in reading] for reading in lexicon.segmentations("how long is the mississippi river")] == [
        ["mississippi river"], ["mississippi"]
    ]
    following = {"river": {"river_name": 9}, "": {"state_name": 2, "lowest_point": 1}}
    contexts = {"the": {"river_name": 6, "lowest_point": 1}, "border": {"state_name": 8}}
    informed = EntityAnonymizer(lexicon, "sql", contexts=contexts, following=following)
    question = informed.anonymize("how long is the mississippi river")
    assert (question.text, dict(question.values)) == ("how long is the river_name0 river", {"river_name0": "mississippi"})
    # The preceding word decides the type first ("border" -> a state), the following word breaks ties.
    assert informed.anonymize("what states border mississippi").text == "what states border state_name0"
    assert informed.anonymize("is mississippi long").text == "is state_name0 long"  # no context: the likeliest type
    assert EntityAnonymizer(lexicon, "sql", contexts=contexts, following={"river": {"state_name": 1, "river_name": 2}}).anonymize(
        "where does mississippi river flow"
    ).text == "where does river_name0 river flow"
    # Without contexts the lexicon's first reading stands, as before contexts were learnt.
    assert EntityAnonymizer(lexicon, "sql").anonymize("how long is the mississippi river").text == "how long is the lowest_point0"


def test_real_geoquery_sql_anonymisation_follows_the_templates_words(real_data_dir, tmp_path):
    loaded = load_benchmark("geo", data_dir=real_data_dir)
    anonymizer = EntityAnonymizer.fit(loaded.split("question", "train"), database=loaded.database)
    assert anonymizer.following["river"]["river_name"] > 0 and "state_name" in anonymizer.contexts["border"]
    question = anonymizer.anonymize("what states does the mississippi river run through")
    assert question.text == "what states does the river_name0 river run through"
    agreeing = _agreeing_with_the_gold(anonymizer, loaded.split("question", "test"))
    # Measured: 273 of 279 (252 with the lexicon's first reading and its likeliest type).
    assert agreeing >= 270
    reloaded = EntityAnonymizer.load(anonymizer.save(tmp_path).parent)
    assert reloaded.following == anonymizer.following and reloaded.contexts == anonymizer.contexts


def test_a_value_training_spells_in_the_plural_is_read_as_that_value_where_the_plural_mostly_names_it(tmp_path):
    train = [
        SemparseExample("jobs involving databases", "(lambda $0:e (and_ (job $0) (area $0 database)))"),
        SemparseExample("database jobs in austin", "(lambda $0:e (and_ (job $0) (area $0 database) (loc $0 austin)))"),
        SemparseExample("jobs using databases and java", "(lambda $0:e (and_ (job $0) (area $0 database) (language $0 java)))"),
        SemparseExample("jobs paying 50000 in years", "(lambda $0:e (and_ (job $0) (salary_greater_than $0 50000 year)))"),
        SemparseExample("jobs paying 40000 a year", "(lambda $0:e (and_ (job $0) (salary_greater_than $0 40000 year)))"),
        SemparseExample("jobs requiring 2 years", "(lambda $0:e (and_ (job $0) (req_exp $0 2)))"),
        SemparseExample("jobs requiring 5 years", "(lambda $0:e (and_ (job $0) (req_exp $0 5)))"),
    ]
    anonymizer = EntityAnonymizer.fit(train)
    # "databases" names database in both questions with the word (2 * 2 >= 2); "years" names the
    # salary unit year in one of its three questions (2 * 1 < 3), so it stays a word.
    assert anonymizer.plurals == {"databases"}
    assert anonymizer.training_pair(train[0]) == ("jobs involving area0", "(lambda $0:e (and_ (job $0) (area $0 area0)))")
    assert anonymizer.training_pair(train[3]) == (
        "jobs paying salary_greater_than0 in years",
        "(lambda $0:e (and_ (job $0) (salary_greater_than $0 salary_greater_than0 year)))",
    )
    question = anonymizer.anonymize("jobs involving databases in austin")
    assert (question.text, dict(question.values)) == ("jobs involving area0 in loc0", {"area0": "database", "loc0": "austin"})
    anonymizer.save(tmp_path)
    assert EntityAnonymizer.load(tmp_path).plurals == {"databases"}


def test_a_value_whose_words_a_mark_joins_is_also_read_with_a_space_between_them(tmp_path):
    # JOBS writes client/server as the atom and "client server" in its questions.
    train = [
        SemparseExample("list jobs in client server", "(lambda $0:e (and_ (job $0) (area $0 client/server)))"),
        SemparseExample("jobs that deal with 'tcp/ip'", "(lambda $0:e (and_ (job $0) (area $0 tcp/ip)))"),
        SemparseExample("jobs using c++ in austin", "(lambda $0:e (and_ (job $0) (language $0 c++) (loc $0 austin)))"),
    ]
    anonymizer = EntityAnonymizer.fit(train)
    # The training question's own words become the placeholder, so the pair teaches it.
    assert anonymizer.training_pair(train[0]) == ("list jobs in area0", "(lambda $0:e (and_ (job $0) (area $0 area0)))")
    assert anonymizer.training_pair(train[1])[0] == "jobs that deal with 'area0'"
    for question, value in [("jobs in tcp ip", "tcp/ip"), ("jobs in client/server", "client/server")]:
        anonymized = anonymizer.anonymize(question)
        assert (anonymized.text, dict(anonymized.values)) == ("jobs in area0", {"area0": value})
    # A mark that joins no two words ("c++") leaves the value as it is.
    assert dict(anonymizer.anonymize("jobs using c++").values) == {"language0": "c++"}
    reloaded = EntityAnonymizer.load(anonymizer.save(tmp_path).parent)
    assert dict(reloaded.anonymize("jobs in tcp ip").values) == {"area0": "tcp/ip"}


def test_only_untyped_constants_are_found_in_the_plural_and_only_when_asked():
    from textattack_semparse.datasets.logical_form import Constant, logical_form_constants

    jobs = ("jobs using databases", "(lambda $0:e (and_ (job $0) (area $0 database)))")
    assert logical_form_constants(*jobs) == []
    assert logical_form_constants(*jobs, plurals=True) == [Constant("database", "databases", "area", 2, plural=True)]
    # A singular spelling is taken first; GEO's typed atoms are never read in the plural.
    both = ("database jobs using databases", "(lambda $0:e (and_ (job $0) (area $0 database)))")
    assert logical_form_constants(*both, plurals=True) == [Constant("database", "database", "area", 0)]
    assert logical_form_constants("rivers in the dakotas", "(lambda $0:e (loc:<lo,<lo,t>> $0 dakota:s))", plurals=True) == []


def test_a_training_pair_has_a_placeholder_in_its_gold_only_where_its_question_has_it():
    train = [
        SemparseExample("jobs using 'c++'", "(lambda $0:e (and_ (job $0) (language $0 c++)))"),
        SemparseExample("jobs in visual 'c++'", '(lambda $0:e (and_ (job $0) (language $0 "visual c++")))'),
    ]
    anonymizer = EntityAnonymizer.fit(train)
    assert anonymizer.training_pair(train[0]) == ("jobs using 'language0'", "(lambda $0:e (and_ (job $0) (language $0 language0)))")
    # The question spells "visual c++" around a quote: no placeholder in either, rather than one in the gold alone.
    assert anonymizer.training_pair(train[1]) == ("jobs in visual 'c++'", '(lambda $0:e (and_ (job $0) (language $0 "visual c++")))')
