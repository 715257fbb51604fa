"""Constraints: Sentence-BERT similarity, literal and entity preservation, the attacked sentence of a pair,
grammar error rate and a meaning judge's verdict."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "AttackedSentence": "attacked_sentence",
        "MaxGrammarErrorRate": "max_grammar_error_rate",
        "MeaningJudgement": "meaning_judgement",
        "PreserveEntities": "preserve_entities",
        "PreserveLiterals": "preserve_literals",
        "SentenceBERTSimilarity": "sentence_bert_similarity",
    },
)
