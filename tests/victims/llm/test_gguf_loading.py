"""gguf_read_once: a GGUF file loaded into transformers with its header read once gives the
tokenizer, config and weights of an ordinary load. On a tiny llama written in the test with gguf's
own writer (2 blocks, a byte-level BPE vocabulary of 265 tokens, Q4_1 and F32 tensors, as
SmolLM2's file has)."""

from __future__ import annotations

import threading
import time

import numpy as np
import pytest

gguf = pytest.importorskip("gguf")
transformers = pytest.importorskip("transformers")
torch = pytest.importorskip("torch")

from textattack_semparse.datasets.benchmark import load_benchmark  # noqa: E402
from textattack_semparse.victims.llm.causal_lm_parser import CausalLMParser  # noqa: E402
from textattack_semparse.victims.llm.gguf_loading import gguf_read_once  # noqa: E402

WIDTH, FEED_FORWARD, BLOCKS, HEADS = 32, 64, 2, 2
TEXT = "the rivers that run through texas"


def _write_tiny_llama(path) -> None:
    """A llama GGUF as llama.cpp's converter writes one: metadata, a GPT-2 style tokenizer, Q4_1 matrices."""
    from transformers.models.gpt2.tokenization_gpt2 import bytes_to_unicode

    merges = ["Ġ t", "h e", "Ġt he", "Ġ r", "i v", "e r", "Ġr iv", "Ġriv er"]
    tokens = ["<|endoftext|>", *bytes_to_unicode().values(), *("".join(merge.split()) for merge in merges)]
    writer = gguf.GGUFWriter(str(path), "llama")
    writer.add_name("tiny-llama")
    writer.add_context_length(64)
    writer.add_embedding_length(WIDTH)
    writer.add_feed_forward_length(FEED_FORWARD)
    writer.add_block_count(BLOCKS)
    writer.add_head_count(HEADS)
    writer.add_head_count_kv(HEADS)
    writer.add_layer_norm_rms_eps(1e-5)
    writer.add_rope_freq_base(10000.0)
    writer.add_tokenizer_model("gpt2")
    writer.add_token_list(tokens)
    writer.add_token_merges(merges)
    writer.add_token_types([gguf.TokenType.CONTROL] + [gguf.TokenType.NORMAL] * (len(tokens) - 1))
    writer.add_bos_token_id(0)
    writer.add_eos_token_id(0)
    writer.add_add_bos_token(False)
    random = np.random.default_rng(0)

    def add(name: str, *shape: int, quantized: bool = True) -> None:
        weights = random.standard_normal(shape).astype(np.float32)
        if quantized:
            kind = gguf.GGMLQuantizationType.Q4_1
            writer.add_tensor(name, gguf.quants.quantize(weights, kind), raw_dtype=kind)
        else:
            writer.add_tensor(name, weights)

    add("token_embd.weight", len(tokens), WIDTH)
    for block in range(BLOCKS):
        add(f"blk.{block}.attn_norm.weight", WIDTH, quantized=False)
        for name in ("attn_q", "attn_k", "attn_v", "attn_output"):
            add(f"blk.{block}.{name}.weight", WIDTH, WIDTH)
        add(f"blk.{block}.ffn_norm.weight", WIDTH, quantized=False)
        add(f"blk.{block}.ffn_gate.weight", FEED_FORWARD, WIDTH)
        add(f"blk.{block}.ffn_up.weight", FEED_FORWARD, WIDTH)
        add(f"blk.{block}.ffn_down.weight", WIDTH, FEED_FORWARD)
    add("output_norm.weight", WIDTH, quantized=False)
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()


@pytest.fixture(scope="module")
def tiny_gguf(tmp_path_factory):
    path = tmp_path_factory.mktemp("tiny-gguf") / "tiny-llama.Q4_1.gguf"
    _write_tiny_llama(path)
    return path


@pytest.fixture
def header_reads(monkeypatch):
    """The reads of a GGUF file's header from now on, one per ``GGUFReader`` made."""
    reads = []
    made = gguf.gguf_reader.GGUFReader.__init__
    counting = lambda self, *args, **kwargs: reads.append(args) or made(self, *args, **kwargs)  # noqa: E731
    monkeypatch.setattr(gguf.gguf_reader.GGUFReader, "__init__", counting)
    return reads


def _load(path):
    tokenizer = transformers.AutoTokenizer.from_pretrained(str(path.parent), gguf_file=path.name)
    model = transformers.AutoModelForCausalLM.from_pretrained(str(path.parent), gguf_file=path.name)
    return tokenizer, model


def test_a_load_reading_the_header_once_equals_an_ordinary_load(tiny_gguf, header_reads):
    ordinary_tokenizer, ordinary_model = _load(tiny_gguf)
    ordinary_reads = len(header_reads)
    with gguf_read_once(tiny_gguf.name):
        tokenizer, model = _load(tiny_gguf)
    # An ordinary load reads the header several times (4 with transformers 4.57: the tokenizer's class,
    # the tokenizer, the config, the weights); the block reads it once.
    assert ordinary_reads > 1 and len(header_reads) - ordinary_reads == 1

    assert model.config.to_dict() == ordinary_model.config.to_dict()
    weights, ordinary_weights = model.state_dict(), ordinary_model.state_dict()
    assert weights.keys() == ordinary_weights.keys() and len(weights) == 3 + 9 * BLOCKS
    assert all(torch.equal(weights[name], ordinary_weights[name]) for name in weights)
    assert tokenizer.get_vocab() == ordinary_tokenizer.get_vocab() and len(tokenizer) == 265
    assert tokenizer(TEXT).input_ids == ordinary_tokenizer(TEXT).input_ids
    assert "Ġriver" in tokenizer.convert_ids_to_tokens(tokenizer(TEXT).input_ids)  # the merges were read
    inputs = tokenizer(TEXT, return_tensors="pt")
    with torch.inference_mode():
        assert torch.equal(model(**inputs).logits, ordinary_model(**inputs).logits)


def test_gguf_and_transformers_are_themselves_again_after_the_block(tiny_gguf):
    from transformers import configuration_utils

    reader, name_map, parse = gguf.GGUFReader, gguf.get_tensor_name_map, configuration_utils.load_gguf_checkpoint
    with pytest.raises(RuntimeError, match="inside"), gguf_read_once(tiny_gguf.name):
        assert gguf.GGUFReader(tiny_gguf) is gguf.GGUFReader(str(tiny_gguf))  # one reader per file
        assert gguf.GGUFReader(tiny_gguf, "c") is not gguf.GGUFReader(tiny_gguf, "c")  # copy-on-write: its own
        first = configuration_utils.load_gguf_checkpoint(str(tiny_gguf))
        first["config"]["num_hidden_layers"] = 99  # a caller changing its copy
        assert configuration_utils.load_gguf_checkpoint(str(tiny_gguf)) == parse(str(tiny_gguf))
        raise RuntimeError("inside")
    assert (gguf.GGUFReader, gguf.get_tensor_name_map) == (reader, name_map)
    assert configuration_utils.load_gguf_checkpoint is parse
    assert gguf.GGUFReader(tiny_gguf) is not gguf.GGUFReader(tiny_gguf)


def test_blocks_in_two_threads_take_turns_and_leave_gguf_itself():
    """Without taking turns, a block entered while another is open and left after it would put the
    first block's reader back for good."""
    original = gguf.GGUFReader
    first_inside, release_first, first_done = threading.Event(), threading.Event(), threading.Event()

    def first():
        with gguf_read_once("first.gguf"):
            first_inside.set()
            release_first.wait(10)
        first_done.set()

    def second():
        first_inside.wait(10)
        with gguf_read_once("second.gguf"):
            assert first_done.wait(10)  # entered only once the first block had ended

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    first_inside.wait(10)
    time.sleep(0.2)  # the second thread reaches its block
    release_first.set()
    for thread in threads:
        thread.join(20)
    assert gguf.GGUFReader is original


def test_causal_lm_parser_reads_a_gguf_header_once_and_follows_its_add_bos_token(tiny_gguf, header_reads):
    victim = CausalLMParser(
        str(tiny_gguf.parent), gguf_file=tiny_gguf.name, benchmark=load_benchmark("geo-mini"), device="cpu"
    )
    ordinary_tokenizer, ordinary_model = _load(tiny_gguf)
    before = len(header_reads)
    model, tokenizer = victim.model, victim.tokenizer
    assert len(header_reads) - before == 1  # the add_bos_token look-up included
    assert tokenizer(TEXT).input_ids == ordinary_tokenizer(TEXT).input_ids[1:]  # the file says no BOS
    weights, ordinary_weights = model.state_dict(), ordinary_model.state_dict()
    assert all(torch.equal(weights[name], ordinary_weights[name]) for name in ordinary_weights)
