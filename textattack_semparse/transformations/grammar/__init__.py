"""Grammatical-error transformations (Yin et al. 2020) and their error model."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "ErrorModel": "error_model",
        "GrammarEdit": "grammar_edit",
        "GrammarErrorArtOrDet": "grammar_error_art_or_det",
        "GrammarErrorCombined": "grammar_error_combined",
        "GrammarErrorNn": "grammar_error_nn",
        "GrammarErrorPrep": "grammar_error_prep",
        "GrammarErrorSVA": "grammar_error_sva",
        "GrammarErrorTrans": "grammar_error_trans",
        "GrammarErrorTransformation": "grammar_error_transformation",
        "GrammarErrorVform": "grammar_error_vform",
        "GrammarErrorWchoice": "grammar_error_wchoice",
        "GrammarErrorWorder": "grammar_error_worder",
    },
)
