"""Victims: semantic parsers wrapped as TextAttack model wrappers."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "KNNTemplateParser": "knn_template_parser",
        "LazyPretrained": "lazy_pretrained",
        "LexicalTableParser": "lexical_table_parser",
        "LLMVictimName": "llm_victim_name",
        "OutputGrammar": "output_grammar",
        "Prediction": "prediction",
        "ReconstructionReranker": "reconstruction_reranker",
        "SchemaSerializedInput": "schema_serialized_input",
        "SemanticParser": "semantic_parser",
        "Seq2SeqParser": "seq2seq_parser",
        "Seq2SeqVictimName": "seq2seq_victim_name",
        "TableQAParser": "table_qa_parser",
        "TapasParser": "tapas_parser",
        "TapexParser": "tapex_parser",
        "WellFormedDecoding": "well_formed_decoding",
    },
)
