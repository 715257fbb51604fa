"""Victims: semantic parsers wrapped as TextAttack model wrappers."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "KNNTemplateParser": "knn_template_parser",
        "LazyPretrained": "lazy_pretrained",
        "LexicalTableParser": "lexical_table_parser",
        "LLMVictimName": "llm_victim_name",
        "Prediction": "prediction",
        "SemanticParser": "semantic_parser",
        "Seq2SeqParser": "seq2seq_parser",
        "TableQAParser": "table_qa_parser",
        "TapasParser": "tapas_parser",
        "TapexParser": "tapex_parser",
    },
)
