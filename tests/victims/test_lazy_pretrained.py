"""Whether a victim's model can be had here, found without loading it (``unavailable``): what the
commands ask before they write a run directory."""

from __future__ import annotations

import pytest
from huggingface_hub import constants

from textattack_semparse.offline import hub_offline
from textattack_semparse.victims.lazy_pretrained import unavailable
from textattack_semparse.victims.resolution import registered_victim_unavailable


def cache_holding(root, repo_id: str, filename: str):
    """A Hugging Face hub cache, laid out as huggingface_hub writes it, holding ``filename`` of ``repo_id``."""
    repo = root / f"models--{repo_id.replace('/', '--')}"
    (repo / "refs").mkdir(parents=True)
    (repo / "refs" / "main").write_text("0123abcd")
    (repo / "snapshots" / "0123abcd").mkdir(parents=True)
    (repo / "snapshots" / "0123abcd" / filename).write_text("{}")
    return root


def test_a_path_that_does_not_exist_is_named(tmp_path):
    error = unavailable("Seq2SeqParser", str(tmp_path / "t5-geo"))
    assert f"Seq2SeqParser could not load '{tmp_path / 't5-geo'}': there is no such local directory" in str(error)
    assert "save_pretrained" in str(error)


def test_a_gguf_file_missing_from_its_folder_is_named(tmp_path):
    error = unavailable("CausalLMParser", str(tmp_path), "model.gguf")
    assert f"could not load '{tmp_path / 'model.gguf'}': there is no such file" in str(error)
    (tmp_path / "model.gguf").write_bytes(b"GGUF")
    assert unavailable("CausalLMParser", str(tmp_path), "model.gguf") is None


def test_an_existing_directory_may_load(tmp_path):
    assert unavailable("Seq2SeqParser", str(tmp_path)) is None  # what it holds is for loading to say


def test_offline_a_hub_name_must_be_in_the_cache(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    error = unavailable("Seq2SeqParser", "nobody/t5-geo")
    assert "not in this machine's Hugging Face cache; HF_HUB_OFFLINE is set" in str(error)
    assert "huggingface-cli download nobody/t5-geo --local-dir DIR" in str(error)
    cache_holding(tmp_path, "nobody/t5-geo", "config.json")
    assert unavailable("Seq2SeqParser", "nobody/t5-geo") is None
    assert "not in this machine's Hugging Face cache" in str(unavailable("CausalLMParser", "nobody/t5-geo", "q4.gguf"))


def test_a_registered_victim_is_asked_for_its_entry_s_model(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    assert "could not load 'microsoft/tapex-large-finetuned-wtq'" in str(registered_victim_unavailable("tapex-wtq"))
    assert "could not load 'neulab/omnitab-large-finetuned-wtq'" in str(registered_victim_unavailable("omnitab-wtq"))
    cache_holding(tmp_path, "microsoft/tapex-large-finetuned-wtq", "config.json")
    assert registered_victim_unavailable("tapex-wtq") is None
    assert registered_victim_unavailable("knn-geo") is None  # its entry names no pretrained model


def test_online_a_hub_name_is_left_to_the_download(tmp_path, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path))
    assert unavailable("Seq2SeqParser", "nobody/t5-geo") is None


@pytest.mark.parametrize(
    ("hf_hub_offline", "transformers_offline", "offline"),
    [("1", None, True), ("yes", None, True), ("0", "1", False), (None, "1", True), (None, "true", True), (None, None, False)],
)
def test_offline_is_read_as_huggingface_hub_reads_it(hf_hub_offline, transformers_offline, offline, monkeypatch):
    """huggingface_hub: ``HF_HUB_OFFLINE = _is_true(os.environ.get("HF_HUB_OFFLINE") or
    os.environ.get("TRANSFORMERS_OFFLINE"))``, true being 1, ON, YES or TRUE in any case."""
    for name, value in (("HF_HUB_OFFLINE", hf_hub_offline), ("TRANSFORMERS_OFFLINE", transformers_offline)):
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)
    assert hub_offline() is offline
