"""Shared fixtures: offline settings, the real-data directory, the docs examples' background runner,
headless Chromium for the pages the package writes."""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tools.browser import chromium_or_reason

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Tests that score on a test suite pass its folder explicitly; a user's suites must not leak in.
os.environ.pop("SEMPARSE_TEST_SUITE_DIR", None)

USER_STATE = {name: os.environ.get(name) for name in ("HOME", "TEXTATTACK_SEMPARSE_CACHE")}
"""Where the user's home and the plugin's cache were before this test run moved them."""
USER_STATE_VARIABLES = (
    "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "HF_HOME", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE",
    "TRANSFORMERS_CACHE", "HF_DATASETS_CACHE", "SENTENCE_TRANSFORMERS_HOME", "TORCH_HOME", "NLTK_DATA",
    "MPLCONFIGDIR",
)
"""Variables that point libraries at the user's caches and data (models, datasets, NLTK corpora)."""
TEST_HOME = Path(tempfile.mkdtemp(prefix="semparse-tests-home-"))
"""The home of this test run, empty at its start and removed at its end: the plugin's cache (the
embedding store, LLM responses, converted databases, trained victims, WordNet) and every library's
cache live under it, so what a user's own runs left behind never changes a result."""
os.environ["HOME"] = str(TEST_HOME)
os.environ["TEXTATTACK_SEMPARSE_CACHE"] = str(TEST_HOME / ".cache" / "textattack_semparse")
for _variable in USER_STATE_VARIABLES:
    os.environ.pop(_variable, None)
atexit.register(shutil.rmtree, TEST_HOME, ignore_errors=True)


@pytest.fixture(autouse=True)
def _environment_restored() -> Iterator[None]:
    """Each test starts from the environment the one before it started from: what a test, or a
    library it runs in-process (Ray's client mode, Accelerate), sets in ``os.environ`` is undone
    after it, so later tests see no leftovers and the commands they run still fork from the
    preloaded interpreter (``tests/fork_server.py`` runs a command fresh when the environment differs)."""
    saved = dict(os.environ)
    yield
    if dict(os.environ) != saved:
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture(scope="session")
def real_data_dir() -> Path:
    """``SEMPARSE_DATA_DIR``, or a visible skip when it is unset."""
    value = os.environ.get("SEMPARSE_DATA_DIR")
    if not value:
        pytest.skip("SEMPARSE_DATA_DIR is unset: real-benchmark test skipped (CI sets it to ../shared/data)")
    path = Path(value)
    if not path.is_dir():
        pytest.skip(f"SEMPARSE_DATA_DIR={value} is not a directory")
    return path


# --- Browser fixtures: headless Chromium (tools/browser.py) and where its artifacts are kept ---

REPOSITORY = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium (installed first when missing and possible), or a skip naming the fix."""
    executable, reason = chromium_or_reason()
    if executable is None:
        pytest.skip(f"headless Chromium unavailable: {reason}")
    return executable


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    """Where browser tests leave screenshots and pages for a person (or a CI run) to look at:
    ``$TEST_ARTIFACTS_DIR``, else ``test-artifacts/`` at the repository's root."""
    directory = Path(os.environ.get("TEST_ARTIFACTS_DIR") or REPOSITORY / "test-artifacts")
    directory.mkdir(parents=True, exist_ok=True)
    return directory


# --- end of the browser fixtures ---


def _uses_docs_runner(item: pytest.Item) -> bool:
    return "docs_runner" in getattr(item, "fixturenames", ())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The docs examples' tests run last: their blocks run in the background meanwhile."""
    items[:] = [item for item in items if not _uses_docs_runner(item)] + [item for item in items if _uses_docs_runner(item)]


@pytest.fixture(scope="session")
def docs_runner(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[object]:
    """Runs the README's and docs' code blocks (``tests/docs/runner.py``); every block a selected
    test will ask for is queued when the session starts."""
    from tests.docs.runner import WORKERS, BlockRunner
    from tests.docs.test_docs_examples import blocks_to_run

    runner = BlockRunner(tmp_path_factory.mktemp("docs-examples"), WORKERS, os.environ)
    runner.submit_all(block for item in request.session.items if _uses_docs_runner(item) for block in blocks_to_run(item))
    yield runner
    runner.close()


@pytest.fixture(scope="session", autouse=True)
def _docs_examples_in_background(request: pytest.FixtureRequest) -> None:
    """Start the docs runner with the session when docs examples are selected."""
    if any(_uses_docs_runner(item) for item in request.session.items):
        request.getfixturevalue("docs_runner")


@pytest.fixture(scope="session")
def smollm2(tmp_path_factory: pytest.TempPathFactory):
    """The packaged SmolLM2-135M GGUF as a ``CausalLMParser``, loaded once for the whole run (loading it
    takes about 12 s on an idle machine, 25-45 s beside other work): the modules that run it in-process share its model and tokenizer
    (``reuse_loaded_model``, or the pair itself), each with a response cache of its own."""
    from tests.helpers import SMOLLM2_MISSING, smollm2_gguf
    from textattack_semparse.datasets.benchmark import load_benchmark
    from textattack_semparse.victims.llm.causal_lm_parser import CausalLMParser

    gguf = smollm2_gguf()
    if gguf is None:
        pytest.skip(SMOLLM2_MISSING)
    parser = CausalLMParser(
        str(gguf.parent), gguf_file=gguf.name, benchmark=load_benchmark("geo-mini"), device="cpu",
        cache_path=tmp_path_factory.mktemp("smollm2") / "unused.sqlite",
    )  # fmt: skip
    parser.model  # noqa: B018 - load now
    return parser
