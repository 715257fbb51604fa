"""Search methods that drive insertions and single perturbations."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "GrammarEditPositions": "grammar_edit_positions",
        "GrammarErrorBeamSearch": "grammar_error_beam_search",
        "GrammarErrorGeneticAlgorithm": "grammar_error_genetic_algorithm",
        "GrammarErrorGreedySearch": "grammar_error_greedy_search",
        "GrammarErrorSamplingSearch": "grammar_error_sampling_search",
        "GreedyWordImportanceSearch": "greedy_word_importance_search",
        "SinglePerturbationSearch": "single_perturbation_search",
    },
)
