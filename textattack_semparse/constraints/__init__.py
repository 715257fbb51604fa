"""Constraints: Sentence-BERT similarity and literal preservation."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "MaxGrammarErrorRate": "max_grammar_error_rate",
        "PreserveLiterals": "preserve_literals",
        "SentenceBERTSimilarity": "sentence_bert_similarity",
    },
)
