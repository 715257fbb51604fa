"""Benchmark: dynamic padding in Seq2SeqParser vs TextAttack's HuggingFaceModelWrapper.

What is compared. In TextAttack 0.3.11, ``HuggingFaceModelWrapper.__call__`` on a
``T5ForConditionalGeneration`` (an encoder-decoder that ``can_generate()``) tokenises its
whole input list with ``padding="max_length"`` at the tokenizer's ``model_max_length``
(512 when the tokenizer sets none, as here), then calls ``model.generate(input_ids,
attention_mask, max_length=wrapper.max_length)`` and decodes. ``Seq2SeqParser`` calls the
same ``generate`` on batches padded only to their longest input. Both runs therefore do the
same work (greedy decoding of the same number of tokens: end-of-sequence is suppressed, so
every output is exactly ``NEW_TOKENS`` long) with the same weights, on the same 64 inputs, in
batches of 32 (``GoalFunction``'s default ``model_batch_size``; the wrapper gets one call per
batch, as from a goal function); the only difference is padding, which inflates the encoder
and every decoder step's cross-attention.

The model is a randomly initialised T5 (d_model 256, 4 + 4 layers, 3,000-word vocabulary)
built in a temporary directory, so nothing is downloaded. Times are wall-clock seconds on
whatever device ``Seq2SeqParser`` picks (CUDA when available).

Run: ``HF_HUB_OFFLINE=1 python bench/seq2seq_padding.py``
"""

from __future__ import annotations

import random
import tempfile
import time
from pathlib import Path

import torch
import transformers
from textattack.models.wrappers import HuggingFaceModelWrapper
from tokenizers import Tokenizer, models, pre_tokenizers, processors

from textattack_semparse.victims.seq2seq_parser import Seq2SeqParser

SEED = 13
VOCAB_SIZE = 3000
NUM_INPUTS = 64
INPUT_WORDS = (20, 60)
BATCH_SIZE = 32
NEW_TOKENS = 16
SPECIAL = ["<pad>", "</s>", "<unk>"]


def build_model(directory: Path, rng: random.Random) -> list[str]:
    """Save a random T5 and a WordLevel tokenizer to ``directory``; return its vocabulary words."""
    letters = "abcdefghijklmnopqrstuvwxyz"
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < VOCAB_SIZE - len(SPECIAL):
        word = "".join(rng.choice(letters) for _ in range(rng.randint(3, 9)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    tokenizer = Tokenizer(
        models.WordLevel(
            vocab={token: index for index, token in enumerate(SPECIAL + words)}, unk_token="<unk>"
        )
    )
    tokenizer.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tokenizer.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer, pad_token="<pad>", eos_token="</s>", unk_token="<unk>"
    )
    config = transformers.T5Config(
        vocab_size=VOCAB_SIZE,
        d_model=256,
        d_ff=1024,
        d_kv=64,
        num_heads=4,
        num_layers=4,
        pad_token_id=0,
        eos_token_id=1,
        decoder_start_token_id=0,
    )
    with torch.random.fork_rng():
        torch.manual_seed(SEED)
        model = transformers.T5ForConditionalGeneration(config)
    model.generation_config.suppress_tokens = [0, 1, 2]  # no <pad>, </s>, <unk>: fixed-length outputs
    model.save_pretrained(directory)
    fast.save_pretrained(directory)
    return words


def time_call(function, inputs: list[str]) -> tuple[float, list[str]]:
    start = time.perf_counter()
    outputs = function(inputs)
    return time.perf_counter() - start, outputs


def main() -> None:
    rng = random.Random(SEED)
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        words = build_model(directory, rng)
        inputs = [" ".join(rng.choices(words, k=rng.randint(*INPUT_WORDS))) for _ in range(NUM_INPUTS)]

        parser = Seq2SeqParser(directory, batch_size=BATCH_SIZE, max_new_tokens=NEW_TOKENS)
        model = transformers.AutoModelForSeq2SeqLM.from_pretrained(directory).to(parser.device).eval()
        tokenizer = transformers.AutoTokenizer.from_pretrained(directory)
        wrapper = HuggingFaceModelWrapper(model, tokenizer, max_length=NEW_TOKENS + 1)  # + decoder start

        def wrapper_in_batches(texts: list[str]) -> list[str]:
            outputs: list[str] = []
            for start in range(0, len(texts), BATCH_SIZE):
                outputs.extend(wrapper(texts[start : start + BATCH_SIZE]))
            return outputs

        parser(inputs[:2])  # load and warm up both
        wrapper(inputs[:2])
        ours, our_outputs = time_call(parser, inputs)
        theirs, their_outputs = time_call(wrapper_in_batches, inputs)

        padded_to = [
            parser._tokenize_batch([inputs[index] for index in batch])["input_ids"].shape[1]
            for batch in parser._batches(inputs)
        ]
    agree = sum(a == b for a, b in zip(our_outputs, their_outputs))
    print(
        f"device: {parser.device}; {NUM_INPUTS} inputs of {INPUT_WORDS[0]}-{INPUT_WORDS[1]} words, "
        f"batches of {BATCH_SIZE}, {NEW_TOKENS} new tokens each"
    )
    print(f"Seq2SeqParser (batches padded to {padded_to} tokens): {ours:.2f} s")
    print(f"HuggingFaceModelWrapper (batches padded to 512 tokens): {theirs:.2f} s")
    print(f"speed-up: {theirs / ours:.1f}x; identical outputs: {agree}/{NUM_INPUTS}")


if __name__ == "__main__":
    main()
