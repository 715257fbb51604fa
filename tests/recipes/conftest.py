"""Tiny BERT classifiers built offline for the recipe tests (single sentences and sentence pairs)."""

from __future__ import annotations

from pathlib import Path

import pytest


def build_tiny_classifier(directory: Path, words: str, *, seed: int, num_labels: int = 2):
    """A randomly initialised BERT classifier with a word-level tokenizer over ``words``, saved in
    ``directory`` and loaded back, wrapped for TextAttack. The wide initialisation gives outputs
    that single words can flip."""
    import textattack
    import torch
    import transformers
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {token: index for index, token in enumerate(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted(set(words.split()))])}
    tokenizer = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    fast = transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        unk_token="[UNK]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        sep_token="[SEP]",
        mask_token="[MASK]",
        model_max_length=64,
    )
    config = transformers.BertConfig(
        vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
        max_position_embeddings=64, num_labels=num_labels, initializer_range=0.5,
    )
    torch.manual_seed(seed)
    model = transformers.BertForSequenceClassification(config).eval()
    fast.save_pretrained(directory)
    model.save_pretrained(directory)
    return textattack.models.wrappers.HuggingFaceModelWrapper(
        transformers.BertForSequenceClassification.from_pretrained(directory).eval(),
        transformers.PreTrainedTokenizerFast.from_pretrained(directory),
    )


@pytest.fixture(scope="module")
def tiny_classifier(tmp_path_factory):
    """A two-label sentence classifier (checked with seeds 1 and 2: words flip its outputs)."""
    words = "the a an of in on for to with about by and but so film movie was is are good bad great story actors"
    return build_tiny_classifier(tmp_path_factory.mktemp("tiny-bert"), words, seed=1)
