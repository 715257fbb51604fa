"""A tokenizer fitted on a benchmark's own training text, saved as a ``PreTrainedTokenizerFast``."""

from __future__ import annotations

from collections.abc import Iterable

import transformers

from textattack_semparse.arguments import check_choice

PAD_TOKEN = "<pad>"
EOS_TOKEN = "</s>"
UNK_TOKEN = "<unk>"
SPECIAL_TOKENS = (PAD_TOKEN, EOS_TOKEN, UNK_TOKEN)
"""Ids 0, 1, 2 in this order: T5's convention (pad is also the decoder start token)."""

TOKENIZER_KINDS = ("word", "bpe")

_ISOLATED = r"[()]"
"""Split off as tokens of their own. A decoded output (tokens joined by spaces) then has the
gold's normalised tokens (:func:`~textattack_semparse.scoring.exact_match_scorer.normalize_logical_form`
splits brackets and commas too, in prediction and gold alike); keeping ``<<e,t>,<<e,i>,e>>``
in one token makes typed lambda calculus about 40% shorter than splitting every comma."""


def train_tokenizer(
    texts: Iterable[str],
    *,
    kind: str = "word",
    vocab_size: int = 8000,
    min_frequency: int = 1,
    model_max_length: int = 512,
) -> transformers.PreTrainedTokenizerFast:
    """A tokenizer trained on ``texts`` (questions and gold outputs: one vocabulary for both).

    ``"word"`` is a word-level vocabulary: text is split at whitespace and around
    parentheses, and decoding joins the tokens with spaces (SQL and logical forms survive,
    spacing aside; unseen words become ``<unk>``). ``"bpe"`` is byte-level BPE of at most
    ``vocab_size`` tokens, which round-trips any text exactly. Every encoding ends with
    ``</s>``; the ids of ``<pad>``, ``</s>``, ``<unk>`` are 0, 1, 2.

    Original to textattack-semparse.

    Args:
        texts (Iterable[str]): The training text.
        kind (str, default "word"): ``"word"`` or ``"bpe"``.
        vocab_size (int, default 8000): Most tokens of a BPE vocabulary (``"word"`` keeps every word).
        min_frequency (int, default 1): Fewest occurrences of a kept word or merge.
        model_max_length (int, default 512): Saved as the tokenizer's maximum length.

    Example:
        >>> tokenizer = train_tokenizer(["cities in texas", "(lambda $0 e (city:t $0))"])
        >>> tokenizer.decode(tokenizer("(city:t texas)")["input_ids"], skip_special_tokens=True)
        '( city:t texas )'
    """
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, processors, trainers

    check_choice("kind", kind, TOKENIZER_KINDS)
    texts = list(texts)
    if kind == "word":
        tokenizer = Tokenizer(models.WordLevel(unk_token=UNK_TOKEN))
        tokenizer.pre_tokenizer = pre_tokenizers.Sequence(
            [pre_tokenizers.WhitespaceSplit(), pre_tokenizers.Split(Regex(_ISOLATED), behavior="isolated")]
        )
        trainer = trainers.WordLevelTrainer(special_tokens=list(SPECIAL_TOKENS), min_frequency=min_frequency)
    else:
        tokenizer = Tokenizer(models.BPE(unk_token=UNK_TOKEN))
        tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
        tokenizer.decoder = decoders.ByteLevel()
        trainer = trainers.BpeTrainer(
            vocab_size=vocab_size,
            min_frequency=min_frequency,
            special_tokens=list(SPECIAL_TOKENS),
            initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        )
    tokenizer.train_from_iterator(texts, trainer)
    eos_id = tokenizer.token_to_id(EOS_TOKEN)
    tokenizer.post_processor = processors.TemplateProcessing(
        single=f"$A {EOS_TOKEN}", pair=f"$A {EOS_TOKEN} $B {EOS_TOKEN}", special_tokens=[(EOS_TOKEN, eos_id)]
    )
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=tokenizer,
        pad_token=PAD_TOKEN,
        eos_token=EOS_TOKEN,
        unk_token=UNK_TOKEN,
        model_max_length=model_max_length,
        clean_up_tokenization_spaces=False,
        model_input_names=["input_ids", "attention_mask"],
    )
