"""Shared fixtures for the transformation tests: questions, tiny random models, Sentence-BERT.

No masked LM, translation or paraphrase model can be had offline, so the tests build tiny
randomly initialised ones: a WordPiece (BERT/ELECTRA) or byte-level BPE (RoBERTa) tokenizer
trained in seconds on GeoQuery-style questions, a one-layer model from a config, both saved
to a temporary directory and loaded back by name like any Hub model.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import torch
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import record_gold_output
from textattack_semparse.constraints.sentence_bert_similarity import SentenceBERTSimilarity

GEO_QUESTIONS: tuple[str, ...] = (
    "what is the capital of texas",
    "what is the population of new york",
    "which rivers run through the state with the largest population",
    "how many people live in new york",
    "what is the largest city in texas",
    "give me the cities in virginia",
    "what states border texas and have a major river",
    "what is the highest point in the smallest state",
    "how long is the mississippi river",
    "which states does the colorado river flow through",
)
"""GeoQuery-style questions (the phrasing of the GeoQuery benchmark), lower case as there."""

CORPUS = GEO_QUESTIONS + (
    "what are the major cities in the state of california",
    "what is the length of the longest river in the usa",
    "which state has the most people",
    "name the states which have no surrounding states",
    "what is the density of the united states",
    "how big is alaska",
    "where is the lowest point in the us",
)


def real_geo_examples(data_dir: Path, limit: int = 40) -> list[tuple[str, str]]:
    """``(question, gold SQL)`` of the first ``limit`` GeoQuery question-split test examples."""
    from textattack_semparse.datasets.text2sql import load_text2sql

    examples = load_text2sql(data_dir / "text2sql" / "geography.json", split_type="question", splits=["test"])
    return [(example.question, example.gold) for example in examples[:limit]]


@pytest.fixture(scope="session")
def geo_examples(real_data_dir: Path) -> list[AttackedText]:
    """Real GeoQuery test questions with their gold SQL recorded (for ``PreserveLiterals``)."""
    texts = []
    for question, gold in real_geo_examples(real_data_dir):
        text = AttackedText(question)
        record_gold_output(text, gold)
        texts.append(text)
    return texts


@pytest.fixture(scope="session")
def sbert() -> SentenceBERTSimilarity:
    """The packaged all-MiniLM-L6-v2 (offline), shared by the tests of one session."""
    return SentenceBERTSimilarity()


def _train_tokenizer(kind: str) -> object:
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors, trainers

    if kind == "wordpiece":
        specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
        tokenizer = Tokenizer(models.WordPiece(unk_token="[UNK]"))
        tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
        tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
        tokenizer.decoder = decoders.WordPiece()
        trainer = trainers.WordPieceTrainer(vocab_size=160, special_tokens=specials)
        tokenizer.train_from_iterator(CORPUS, trainer)
        cls, sep = tokenizer.token_to_id("[CLS]"), tokenizer.token_to_id("[SEP]")
        tokenizer.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]", special_tokens=[("[CLS]", cls), ("[SEP]", sep)]
        )
        return tokenizer
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    tokenizer = Tokenizer(models.BPE(unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, special_tokens=specials, initial_alphabet=pre_tokenizers.ByteLevel.alphabet()
    )
    tokenizer.train_from_iterator(CORPUS, trainer)
    bos, eos = tokenizer.token_to_id("<s>"), tokenizer.token_to_id("</s>")
    tokenizer.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[("<s>", bos), ("</s>", eos)]
    )
    return tokenizer


def build_masked_lm(directory: Path, model_type: str, seed: int = 0) -> str:
    """A tiny random masked LM (``bert``, ``electra`` or ``roberta``) saved in ``directory``."""
    from tokenizers import AddedToken
    from transformers import (
        BertConfig,
        BertForMaskedLM,
        ElectraConfig,
        ElectraForMaskedLM,
        PreTrainedTokenizerFast,
        RobertaConfig,
        RobertaForMaskedLM,
    )

    sizes = dict(hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32)
    if model_type == "roberta":
        tokenizer = PreTrainedTokenizerFast(
            tokenizer_object=_train_tokenizer("bpe"),
            bos_token="<s>", eos_token="</s>", cls_token="<s>", sep_token="</s>", unk_token="<unk>",
            pad_token="<pad>", mask_token=AddedToken("<mask>", lstrip=True),
        )
        config = RobertaConfig(
            vocab_size=len(tokenizer), max_position_embeddings=80, pad_token_id=tokenizer.pad_token_id,
            bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id, **sizes,
        )
        model_class = RobertaForMaskedLM
    else:
        tokenizer = PreTrainedTokenizerFast(
            tokenizer_object=_train_tokenizer("wordpiece"),
            unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
        )
        config_class, model_class = (ElectraConfig, ElectraForMaskedLM) if model_type == "electra" else (BertConfig, BertForMaskedLM)
        extra = {"embedding_size": 16} if model_type == "electra" else {}
        config = config_class(vocab_size=len(tokenizer), max_position_embeddings=64, **extra, **sizes)
    torch.manual_seed(seed)
    model_class(config).save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return str(directory)


def build_marian(directory: Path, seed: int, vocabulary: tuple[str, ...] = CORPUS) -> str:
    """A tiny random MarianMT model with a word-level tokenizer, saved in ``directory``.

    End-of-sentence is made impossible (``final_logits_bias``), so every output has exactly
    ``max_new_tokens`` words and is never empty.
    """
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import MarianConfig, MarianMTModel, PreTrainedTokenizerFast

    words = sorted({word for text in vocabulary for word in text.split()})
    vocab = {token: i for i, token in enumerate(["<pad>", "</s>", "<unk>", *words])}
    word_level = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    word_level.pre_tokenizer = pre_tokenizers.Whitespace()
    word_level.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 1)])
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=word_level, pad_token="<pad>", eos_token="</s>", unk_token="<unk>")
    config = MarianConfig(
        vocab_size=len(vocab), d_model=16, encoder_layers=1, decoder_layers=1, encoder_attention_heads=2,
        decoder_attention_heads=2, encoder_ffn_dim=32, decoder_ffn_dim=32, max_position_embeddings=64,
        pad_token_id=0, eos_token_id=1, decoder_start_token_id=0,
    )
    torch.manual_seed(seed)
    model = MarianMTModel(config)
    with torch.no_grad():
        model.final_logits_bias[0, [0, 1, 2]] = -1e4
    model.save_pretrained(directory)
    tokenizer.save_pretrained(directory)
    return str(directory)


@pytest.fixture(scope="session")
def tiny_masked_lm(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], str]:
    """``factory(model_type)`` -> directory of a tiny random masked LM (built once per type)."""
    built: dict[str, str] = {}

    def factory(model_type: str) -> str:
        if model_type not in built:
            built[model_type] = build_masked_lm(tmp_path_factory.mktemp(f"tiny-{model_type}"), model_type)
        return built[model_type]

    return factory


@pytest.fixture(scope="session")
def tiny_marian(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], str]:
    """``factory(seed)`` -> directory of a tiny random MarianMT model (built once per seed)."""
    built: dict[int, str] = {}

    def factory(seed: int) -> str:
        if seed not in built:
            built[seed] = build_marian(tmp_path_factory.mktemp(f"tiny-marian-{seed}"), seed)
        return built[seed]

    return factory


def protected_positions(text: AttackedText, transformation: object) -> set[int]:
    """Word positions ``PreserveLiterals`` forbids modifying in ``text``."""
    from textattack_semparse.constraints.preserve_literals import PreserveLiterals

    return set(range(text.num_words)) - PreserveLiterals()(text, transformation)


def literals_kept(original: AttackedText, output: AttackedText, protected: set[int]) -> bool:
    """Every protected word is in ``output`` unchanged, where ``original_index_map`` says,
    and consecutive protected words are still consecutive."""
    index_map = output.attack_attrs["original_index_map"]
    for position in protected:
        new = int(index_map[position])
        if new < 0 or output.words[new] != original.words[position]:
            return False
        if position + 1 in protected and int(index_map[position + 1]) != new + 1:
            return False
    return True


@pytest.fixture(scope="session")
def check_literals() -> Callable[[list[AttackedText], object], int]:
    """``check(texts, transformation)``: every output keeps the gold query's literal words.

    Returns how many outputs had protected words to keep (so a test can rule out a vacuous
    pass).
    """

    def check(texts: list[AttackedText], transformation: object) -> int:
        from textattack_semparse.constraints.preserve_literals import PreserveLiterals

        checked = 0
        for text in texts:
            protected = protected_positions(text, transformation)
            for output in transformation(text, pre_transformation_constraints=[PreserveLiterals()]):  # type: ignore[operator]
                assert literals_kept(text, output, protected), (text.text, output.text, sorted(protected))
                checked += bool(protected)
        return checked

    return check


@pytest.fixture(scope="session")
def geo_questions() -> list[AttackedText]:
    """:data:`GEO_QUESTIONS` as fresh ``AttackedText``s."""
    return [AttackedText(question) for question in GEO_QUESTIONS]
