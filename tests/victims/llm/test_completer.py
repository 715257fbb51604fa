"""An LLM named by several components (robut-leta's header renaming and question rewrites, the
``llm:`` judge) is one completer in a process, made once per response-cache directory."""

from __future__ import annotations

from pathlib import Path

import pytest

from textattack_semparse.cache import CACHE_ENV
from textattack_semparse.llm.llm_header_renaming import LLMHeaderRenaming
from textattack_semparse.llm.llm_question_rewriting import LLMQuestionRewriting
from textattack_semparse.victims.llm.completer import llm_completer


def test_components_naming_one_llm_share_its_model_and_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    name = f"hf-causal:{tmp_path}"  # made lazily: nothing is loaded until a prompt is completed
    header, question = LLMHeaderRenaming(llm=name), LLMQuestionRewriting(llm=name)
    assert header.completer is question.completer is llm_completer(name)
    assert header.completer.cache_path.parent == tmp_path / "cache"
    assert llm_completer(f"{name}?max_new_tokens=9") is not header.completer  # another LLM setting


def test_another_cache_directory_gets_its_own_completer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = f"hf-causal:{tmp_path}"
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "first"))
    first = llm_completer(name)
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "second"))
    second = llm_completer(name)
    assert first is not second and second.cache_path.parent == tmp_path / "second"
