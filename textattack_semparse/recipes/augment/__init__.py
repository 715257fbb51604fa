"""Augmentation recipes: ``textattack.augmentation.Augmenter`` subclasses."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "ConcatenationJiaLiang2016": "concatenation_jia_liang_2016",
        "GrammarErrorAugmenter": "grammar_error_augmenter",
        "MeaningPreservingAugmenter": "meaning_preserving_augmenter",
        "TableQAAugmenter": "table_qa_augmenter",
    },
)
