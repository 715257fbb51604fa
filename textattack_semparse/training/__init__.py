"""Training semantic parsers from scratch: a tokenizer fitted on a benchmark and a small
encoder-decoder trained with ``transformers``' ``Seq2SeqTrainer``; fine-tuning pretrained Table QA
models (``TableQATrainer``)."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "ParserTrainer": "parser_trainer",
        "TableQATrainer": "table_qa_trainer",
        "TOKENIZER_KINDS": "tokenizer",
        "train_tokenizer": "tokenizer",
        "trained_parser": "trained_victims",
    },
)
