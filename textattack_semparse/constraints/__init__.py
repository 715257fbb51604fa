"""Constraints: Sentence-BERT similarity, literal preservation, grammar error rate and a meaning judge's verdict."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "MaxGrammarErrorRate": "max_grammar_error_rate",
        "MeaningJudgement": "meaning_judgement",
        "PreserveLiterals": "preserve_literals",
        "SentenceBERTSimilarity": "sentence_bert_similarity",
    },
)
