"""Training semantic parsers from scratch: a tokenizer fitted on a benchmark and a small
encoder-decoder trained with ``transformers``' ``Seq2SeqTrainer``."""

from textattack_semparse.training.parser_trainer import ParserTrainer
from textattack_semparse.training.tokenizer import TOKENIZER_KINDS, train_tokenizer

__all__ = ["TOKENIZER_KINDS", "ParserTrainer", "train_tokenizer"]
