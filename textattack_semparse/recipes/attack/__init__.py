"""Attack recipes: classes with a static ``build(model_wrapper, **options)``."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "GrammarErrorAttackYin2020": "grammar_error_attack_yin_2020",
        "MeaningPreservingAttackHuang2021": "meaning_preserving_attack_huang_2021",
        "PerturbationAttackHuang2021": "perturbation_attack_huang_2021",
        "TablePerturbationAttackZhao2023": "table_perturbation_attack_zhao_2023",
    },
)
