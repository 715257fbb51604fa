"""Transformations: meaning-preserving perturbations (Huang et al. 2021; Zhuo et al. 2023) and the top-k similarity filter."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "BackTranslation": "back_translation",
        "DistractionSuffix": "distraction_suffix",
        "FunctionWordDeletion": "function_word_deletion",
        "FunctionWordInsertion": "function_word_insertion",
        "FunctionWordSubstitution": "function_word_substitution",
        "FunctionWordTransformation": "function_word_transformation",
        "MaskedLMCandidates": "masked_lm_candidates",
        "MaskedLMContentWordSubstitution": "masked_lm_content_word_substitution",
        "MaskedLMRandomWordInsertion": "masked_lm_random_word_insertion",
        "MaskedLMRandomWordSubstitution": "masked_lm_random_word_substitution",
        "MaskedLMRandomWordsTransformation": "masked_lm_random_words_transformation",
        "NlpaugPerturbation": "nlpaug_perturbation",
        "ParaphraseRewriting": "paraphrase_rewriting",
        "RandomWordDeletion": "random_word_deletion",
        "RobutMix": "robut_mix",
        "RandomWordTransposition": "random_word_transposition",
        "RandomWordsTransformation": "random_words_transformation",
        "SentenceRewriteTransformation": "sentence_rewrite_transformation",
        "Seq2SeqGenerator": "seq2seq_generator",
        "SyntacticReordering": "syntactic_reordering",
        "TextBuggerTypo": "text_bugger_typo",
        "TopKBySimilarity": "top_k_by_similarity",
        "WordNetSynonymSubstitution": "wordnet_synonym_substitution",
    },
)
