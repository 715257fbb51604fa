"""TapexParser on a tiny random BART with a byte-level TapexTokenizer built here (no download):
one answer per input in order, batching changes nothing, answers parse as TAPEX prints them,
device and precision choice, OmniTab as the same architecture."""

from __future__ import annotations

import pickle

import pytest
import torch

from tests.helpers import TINY_TABLES as TABLES
from tests.helpers import build_tiny_tapex
from textattack_semparse.tables.answers import format_answer
from textattack_semparse.tables.table import Table
from textattack_semparse.victims import tapex_parser
from textattack_semparse.victims.hub_models import OMNITAB_WTQ
from textattack_semparse.victims.tapex_parser import TapexParser, split_answer

INPUTS = [
    ("which city won in 2004", TABLES[0].to_json()),
    ("how many gold", TABLES[1].to_json()),
    ("total gold of the teams listed in this table", TABLES[0].to_json()),
    ("who", TABLES[1].to_json()),
]


@pytest.fixture(scope="module")
def tiny_tapex(tmp_path_factory):
    # init_std 1.0: large enough that the random model's output depends on its input.
    return build_tiny_tapex(tmp_path_factory.mktemp("tapex"), init_std=1.0)


def _parser(directory, **options):
    return TapexParser(directory, device="cpu", max_length=256, max_new_tokens=6, **options)


def test_one_answer_per_input_in_order_and_batching_changes_nothing(tiny_tapex):
    parser = _parser(tiny_tapex, batch_size=3)
    batched = parser(INPUTS)
    one_at_a_time = _parser(tiny_tapex, batch_size=1)
    assert len(batched) == len(INPUTS) and parser.inputs_failed == 0 and len(set(batched)) > 1
    assert batched == [one_at_a_time([item])[0] for item in INPUTS]


def test_answers_are_the_generated_text_split_as_tapex_prints_lists(tiny_tapex):
    parser = _parser(tiny_tapex)
    inputs = parser.tokenizer(
        table=[tapex_parser.table_frame(Table.from_json(table)) for _, table in INPUTS],
        query=[question for question, _ in INPUTS],
        padding=True,
        return_tensors="pt",
    )
    generated = parser.model.generate(**inputs, do_sample=False, max_new_tokens=6)
    texts = parser.tokenizer.batch_decode(generated, skip_special_tokens=True)
    assert parser(INPUTS) == [format_answer([value.strip() for value in text.split(", ") if value.strip()]) for text in texts]


def test_split_answer_reads_tapex_list_answers():
    # TAPEX prints a WTQ list answer as its values joined by ", " (Liu et al. 2022, WTQ fine-tuning).
    assert split_answer("oslo, rome") == ["oslo", "rome"]
    assert split_answer(" 2004 ") == ["2004"]
    assert split_answer("") == [] and split_answer(" , ") == []


def test_the_model_loads_on_first_use_and_is_not_pickled(tiny_tapex):
    parser = _parser(tiny_tapex)
    assert "_model" not in parser.__dict__
    first = parser(INPUTS[:1])
    copy = pickle.loads(pickle.dumps(parser))
    assert "_model" not in copy.__dict__ and copy(INPUTS[:1]) == first


def test_omnitab_is_tapex_with_another_checkpoint():
    parser = TapexParser(OMNITAB_WTQ, device="cpu")  # loads nothing
    assert parser.model_name_or_path == "neulab/omnitab-large-finetuned-wtq"
    assert TapexParser(device="cpu").model_name_or_path == "microsoft/tapex-large-finetuned-wtq"


def test_device_is_cpu_here_and_cuda_half_precision_when_cuda_is_present(monkeypatch):
    parser = TapexParser(device=None)
    assert parser.device == ("cuda" if torch.cuda.is_available() else "cpu")
    assert TapexParser(device="cpu").dtype == torch.float32
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)  # the GPU boundary only
    on_gpu = TapexParser(device=None)
    assert on_gpu.device == "cuda" and on_gpu.dtype == torch.float16
    assert TapexParser(device=None, half_precision=False).dtype == torch.float32


def test_a_hub_model_not_on_this_machine_says_how_to_give_a_local_path(monkeypatch):
    """Offline, TAPEX's tokenizer raises TypeError on a vocabulary path of None; the victim says what to do."""
    from textattack_semparse.errors import VictimError

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    parser = TapexParser(OMNITAB_WTQ, device="cpu")
    with pytest.raises(VictimError, match="not a local directory and not in this machine's Hugging Face cache.*local-dir"):
        _ = parser.model
