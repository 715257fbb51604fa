"""The persistent LLM response cache: keyed by model, prompt and decoding parameters; durable
across processes and interruptions; safe under concurrent threads."""

from __future__ import annotations

import pickle
import sqlite3
import subprocess
import sys
import threading

import pytest

from textattack_semparse.datasets.benchmark import load_benchmark
from textattack_semparse.victims.llm.prompts import DatabasePrompt
from textattack_semparse.victims.llm.response_cache import CacheCounts, ResponseCache, cache_key

GREEDY = {"temperature": 0, "max_tokens": 128, "stop": [";", "\n\n"]}


@pytest.fixture()
def prompt() -> str:
    geo = load_benchmark("geo-mini")
    train = geo.split("question", "train")
    return DatabasePrompt(geo.database)(train[3].question, train[:2])


def test_each_part_of_the_key_separates_entries(tmp_path, prompt):
    cache = ResponseCache(tmp_path / "responses.sqlite")
    cache.put("smollm2", prompt, GREEDY, " STATE_NAME FROM STATE")
    assert cache.get("smollm2", prompt, GREEDY) == " STATE_NAME FROM STATE"
    assert cache.get("other-model", prompt, GREEDY) is None
    assert cache.get("smollm2", prompt + " ", GREEDY) is None
    assert cache.get("smollm2", prompt, {**GREEDY, "temperature": 0.7}) is None
    assert cache.get("smollm2", prompt, dict(reversed(list(GREEDY.items())))) == " STATE_NAME FROM STATE"
    assert cache.counts() == CacheCounts(hits=2, misses=3)
    assert len(cache) == 1


def test_completions_survive_a_killed_process(tmp_path, prompt):
    path = tmp_path / "responses.sqlite"
    writer = (
        "import os, sys\n"
        "from textattack_semparse.victims.llm.response_cache import ResponseCache\n"
        "cache = ResponseCache(sys.argv[1])\n"
        "cache.put('smollm2', sys.stdin.read(), {'temperature': 0}, ' AREA FROM STATE')\n"
        "os._exit(9)  # no close, no clean shutdown\n"
    )
    result = subprocess.run([sys.executable, "-c", writer, str(path)], input=prompt, text=True, timeout=120)
    assert result.returncode == 9
    assert ResponseCache(path).get("smollm2", prompt, {"temperature": 0}) == " AREA FROM STATE"


def test_concurrent_threads_each_store_and_read_their_completion(tmp_path):
    cache = ResponseCache(tmp_path / "responses.sqlite")
    questions = [example.question for example in load_benchmark("geo-mini").examples]
    errors: list[BaseException] = []

    def work(offset: int) -> None:
        try:
            for index in range(offset, len(questions), 4):
                cache.put("m", questions[index], GREEDY, f"answer {index}")
                assert cache.get("m", questions[index], GREEDY) is not None
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=work, args=(offset,)) for offset in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors
    assert len(cache) == len(set(questions))
    with sqlite3.connect(tmp_path / "responses.sqlite") as connection:
        stored = dict(connection.execute("SELECT prompt, completion FROM responses"))
    for question in set(questions):
        # A question asked twice keeps one of the completions written for it.
        assert stored[question] in {f"answer {index}" for index, text in enumerate(questions) if text == question}


def test_a_pickled_cache_reopens_the_same_file(tmp_path):
    cache = ResponseCache(tmp_path / "responses.sqlite")
    cache.put("m", "p", {}, "c")
    copy = pickle.loads(pickle.dumps(cache))
    assert copy.path == cache.path and copy.get("m", "p", {}) == "c"


def test_bad_values_name_the_fix(tmp_path):
    cache = ResponseCache(tmp_path / "responses.sqlite")
    with pytest.raises(TypeError, match="must be a str"):
        cache.put("m", "p", {}, None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="JSON values"):
        cache_key("m", "p", {"stop": object()})
