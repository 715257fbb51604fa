"""Hub text-to-SQL models' input formats (victims/schema_serialized_input.py) and ``seq2seq:`` victim
names (victims/seq2seq_victim_name.py), down to a tiny T5 attacked from the stock CLI."""

from __future__ import annotations

import difflib
import json
import re
import sqlite3
from pathlib import Path

import pytest

from tests.helpers import run_command
from textattack_semparse.errors import ConfigurationError, VictimError
from textattack_semparse.scoring.databases import Databases
from textattack_semparse.victims.resolution import is_plugin_victim, resolve_victim
from textattack_semparse.victims.schema_serialized_input import (
    MATCH_THRESHOLD,
    SchemaSerializedInput,
    matched_values,
)
from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser
from textattack_semparse.victims.seq2seq_victim_name import parse_seq2seq_victim_name

DOCS = Path(__file__).resolve().parents[2] / "docs" / "victims.md"

UNIFIEDSKG_STRUCT_IN = (
    "| concert_singer | stadium : stadium_id , location , name , capacity , highest , lowest , average | singer : "
    "singer_id , name , country ( France ) , song_name , song_release_year , age , is_male | concert : concert_id , "
    "concert_name , theme , stadium_id , year | singer_in_concert : concert_id , singer_id"
)
"""The serialised schema UnifiedSKG's Spider models read for a concert_singer question about France,
as published with its released models (``struct_in`` with cell values, a public fact)."""


@pytest.fixture
def pets_root(tmp_path: Path) -> Path:
    """One Spider-style database folder, ``pets/pets.sqlite``, with mixed-case names."""
    (tmp_path / "pets").mkdir()
    with sqlite3.connect(tmp_path / "pets" / "pets.sqlite") as db:
        db.execute("CREATE TABLE Owner (OwnerID INT, State TEXT)")
        db.execute("CREATE TABLE Pet (PetID INT, PetType TEXT, OwnerID INT)")
        db.executemany("INSERT INTO Owner VALUES (?, ?)", [(1, "Kentucky"), (2, "New York"), (3, "Ohio")])
        db.executemany("INSERT INTO Pet VALUES (?, ?, ?)", [(1, "dog", 1), (2, "cat", 2), (3, "dog", 3)])
    return tmp_path


def test_picard_and_unifiedskg_serialise_tables_in_creation_order_lower_cased(pets_root):
    databases = Databases.at(pets_root)
    question = "  How many pets are there?  "
    assert SchemaSerializedInput(databases, "picard")(question, "pets") == (
        "How many pets are there? | pets | owner : ownerid , state | pet : petid , pettype , ownerid"
    )
    assert SchemaSerializedInput(databases, "unifiedskg")(question, "pets") == (
        "How many pets are there? ; structured knowledge: | pets | owner : ownerid , state | pet : petid , pettype , ownerid"
    )


def test_db_content_writes_the_values_the_question_mentions_beside_their_column(pets_root):
    serialize = SchemaSerializedInput(Databases.at(pets_root), "picard", db_content=True)
    assert serialize("How many dogs live in new york?", "pets") == (
        "How many dogs live in new york? | pets | owner : ownerid , state ( New York ) | pet : petid , pettype ( dog ) , ownerid"
    )


def test_a_value_matches_exactly_when_the_ratio_reaches_the_threshold(pets_root):
    """BRIDGE's rule as implemented: a value matches an n-gram of as many words whose
    SequenceMatcher ratio is at least 0.85."""
    path = pets_root / "pets" / "pets.sqlite"
    for spelling in ("kentucky", "kentuky", "kentcky", "kntcky", "ohio", "ohoi"):
        ratios = [difflib.SequenceMatcher(None, value, spelling).ratio() for value in ("kentucky", "ohio")]
        expected = tuple(value for value, ratio in zip(("Kentucky", "Ohio"), ratios) if ratio >= MATCH_THRESHOLD)
        assert matched_values(f"owners in {spelling}", path, "Owner", "State") == expected, spelling


def test_a_user_template_takes_the_question_db_id_and_tables(pets_root):
    serialize = SchemaSerializedInput(Databases.at(pets_root), "template", template="translate: {question} [{db_id}] {tables}")
    assert serialize("list pets", "pets") == "translate: list pets [pets] owner : ownerid , state | pet : petid , pettype , ownerid"


@pytest.mark.parametrize(
    ("format_", "template", "message"),
    [
        ("spider", None, "Unknown input format 'spider'"),
        ("template", None, "format=template needs a template"),
        ("picard", "{question}", "only it takes one"),
        ("template", "{tables} only", "must contain {question}"),
        ("template", "{question} {schema}", "may contain only"),
    ],
)
def test_bad_formats_and_templates_name_the_fix(pets_root, format_, template, message):
    with pytest.raises(ConfigurationError, match=re.escape(message)):
        SchemaSerializedInput(Databases.at(pets_root), format_, template=template)


def test_victim_names_parse_typed_options_and_refuse_unknown_ones():
    name = parse_seq2seq_victim_name("seq2seq:tscholak/cxmefzzi?format=picard&db_content=1&num_beams=4")
    assert (name.model, name.options) == ("tscholak/cxmefzzi", {"format": "picard", "db_content": True, "num_beams": 4})
    assert str(name) == "seq2seq:tscholak/cxmefzzi?format=picard&db_content=1&num_beams=4"
    template = parse_seq2seq_victim_name("seq2seq:m?format=template&template={question}%20%26%20{tables}")
    assert template.options["template"] == "{question} & {tables}"
    assert is_plugin_victim("seq2seq:anything")
    for bad, message in (
        ("seq2seq:", "names no model"),
        ("seq2seq:m?beams=4", "bad option 'beams=4'"),
        ("seq2seq:m?num_beams=four", "num_beams must be an integer"),
        ("seq2seq:m?db_content=yes", "db_content must be 0 or 1"),
    ):
        with pytest.raises(VictimError, match=re.escape(message)):
            parse_seq2seq_victim_name(bad)


def test_a_format_without_databases_is_refused_with_the_fix():
    with pytest.raises(VictimError, match="no dataset was given"):
        parse_seq2seq_victim_name("seq2seq:m?format=picard").create(benchmark=None)
    with pytest.raises(VictimError, match="need a format"):
        parse_seq2seq_victim_name("seq2seq:m?db_content=1").create(benchmark=None)


class _FixedOutputs(Seq2SeqParser):
    """The parser with generation replaced by fixed outputs: what is tested is what the parser
    does with a model's output, not the model."""

    def __init__(self, outputs: list[str]) -> None:
        super().__init__("unused", device="cpu", db_id_in_output=True, cache_size=0)
        self.outputs = outputs

    def _generate_cached(self, texts: list[str]) -> list[str]:
        return self.outputs[: len(texts)]


def test_the_db_id_prefix_is_removed_from_predictions_only_when_it_leads():
    parser = _FixedOutputs(["concert_singer | select count(*) from singer", "select a | b from t", "select 1"])
    assert parser._parse_batch(["q1", "q2", "q3"], ["concert_singer"] * 3) == [
        "select count(*) from singer",
        "select a | b from t",  # only a single identifier before the bar is a db_id
        "select 1",
    ]


# --- Real Spider dev: the documented examples and a tiny T5 from the stock CLI ----------------------------


def _dev_example(real_data_dir: Path, question: str) -> dict:
    return next(item for item in json.loads((real_data_dir / "spider-dev" / "dev.json").read_text()) if item["question"] == question)


def _documented_examples() -> dict[str, str]:
    """``format -> input`` from the fenced blocks after ``<!-- serialised: FORMAT -->`` in docs/victims.md."""
    text = DOCS.read_text(encoding="utf-8")
    return dict(re.findall(r"<!-- serialised: ([\w+-]+) -->\n```text\n(.*?)\n```", text, flags=re.S))


@pytest.mark.real_data
def test_documented_examples_are_the_serialised_inputs_of_a_real_spider_dev_example(real_data_dir):
    example = _dev_example(real_data_dir, "What is the average, minimum, and maximum age of all singers from France?")
    databases = Databases.at(real_data_dir / "spider-dev" / "database")
    documented = _documented_examples()
    assert set(documented) == {"picard", "picard+db_content", "unifiedskg+db_content"}
    for key, text in documented.items():
        format_, _, content = key.partition("+")
        assert SchemaSerializedInput(databases, format_, db_content=bool(content))(example["question"], example["db_id"]) == text
    # UnifiedSKG's published schema string for this database and question, character by character.
    assert documented["unifiedskg+db_content"].partition(" ; structured knowledge: ")[2] == UNIFIEDSKG_STRUCT_IN


@pytest.fixture(scope="module")
def spider_t5(tmp_path_factory: pytest.TempPathFactory, real_data_dir: Path) -> Path:
    """A randomly initialised T5 whose word-level tokenizer is trained here on serialised Spider inputs."""
    import torch
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers, processors, trainers

    dev = json.loads((real_data_dir / "spider-dev" / "dev.json").read_text())[:40]
    serialize = SchemaSerializedInput(Databases.at(real_data_dir / "spider-dev" / "database"), "picard", db_content=True)
    corpus = [serialize(item["question"], item["db_id"]) for item in dev] + [f"{item['db_id']} | {item['query']}" for item in dev]
    backend = Tokenizer(models.WordLevel(unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.Whitespace()
    backend.train_from_iterator(corpus, trainers.WordLevelTrainer(special_tokens=["<pad>", "</s>", "<unk>"]))
    backend.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    tokenizer = transformers.PreTrainedTokenizerFast(tokenizer_object=backend, pad_token="<pad>", eos_token="</s>", unk_token="<unk>")
    config = transformers.T5Config(
        vocab_size=len(tokenizer), d_model=32, d_ff=64, d_kv=16, num_layers=2, num_heads=2,
        pad_token_id=0, eos_token_id=1, decoder_start_token_id=0,
    )
    with torch.random.fork_rng():
        torch.manual_seed(0)
        model = transformers.T5ForConditionalGeneration(config)
    model.generation_config.max_new_tokens = 12
    directory = tmp_path_factory.mktemp("spider-t5")
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


FORMATS = {
    "picard": "format=picard&db_content=1",
    "unifiedskg": "format=unifiedskg",
    "template": "format=template&template=sql: {question} %26 {tables}",
}


@pytest.mark.real_data
@pytest.mark.parametrize("format_", sorted(FORMATS))
def test_a_tiny_t5_is_a_spider_victim_through_each_format(spider_t5, real_data_dir, tmp_path, format_):
    env = {"SEMPARSE_DATA_DIR": str(real_data_dir)}
    model = f"seq2seq:{spider_t5}?{FORMATS[format_]}"
    victim, _ = resolve_victim(model, dataset="spider-dev")
    question, db_id = "How many singers do we have?", "concert_singer"
    expected_schema = "stadium : stadium_id , location , name , capacity , highest , lowest , average | singer : singer_id"
    (model_input,) = victim._model_inputs([question], [db_id])
    assert model_input.startswith({"picard": f"{question} | concert_singer | ", "unifiedskg": f"{question} ; structured knowledge: | concert_singer | ", "template": f"sql: {question} & "}[format_])
    assert expected_schema in model_input
    assert victim.db_id_in_output is (format_ == "picard")

    summary = tmp_path / "summary.json"
    attack = run_command(
        "textattack", "attack", "--recipe", "semparse-spider", "--model", model, "--dataset-by-model", "spider-dev",
        "--num-examples", "2", "--log-summary-to-json", str(summary), "--disable-stdout", env=env,
    )
    assert attack.returncode == 0, attack.stderr[-3000:]
    results = json.loads(summary.read_text())["Attack Results"]
    assert sum(int(results[f"Number of {kind} attacks:"]) for kind in ("successful", "failed", "skipped")) == 2

    report = tmp_path / "evaluate.json"
    evaluate = run_command(
        "textattack-semparse", "evaluate", "--model", model, "--dataset", "spider-dev", "--num-examples", "3",
        "--output", str(report), "--no-progress", env=env,
    )
    assert evaluate.returncode == 0, evaluate.stderr[-3000:]
    assert json.loads(report.read_text())["examples"] == 3
