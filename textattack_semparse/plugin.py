"""The built-in plugin: the components textattack-semparse itself ships.

Registered through the same hooks as third-party plugins (see :mod:`textattack_semparse.hookspecs`).
"""

from __future__ import annotations

from collections.abc import Mapping

from textattack_semparse import hookimpl
from textattack_semparse.hookspecs import EntrySpec

_RECIPES = "textattack_semparse.recipes"
_KNN = "textattack_semparse.victims.knn_template_parser:KNNTemplateParser.from_benchmark"
_BENCHMARK_DATASET = "textattack_semparse.datasets.benchmark:benchmark_dataset"
_YIN = f"{_RECIPES}.attack.grammar_error_attack_yin_2020:GrammarErrorAttackYin2020"
_HUANG_COMBINED = f"{_RECIPES}.attack.meaning_preserving_attack_huang_2021:MeaningPreservingAttackHuang2021"
_MDA = f"{_RECIPES}.augment.meaning_preserving_augmenter:MeaningPreservingAugmenter"
_HUANG_SINGLE = f"{_RECIPES}.attack.perturbation_attack_huang_2021:PerturbationAttackHuang2021"

PERTURBATION_KEEP: Mapping[str, int | None] = {
    # Huang et al. 2021 §3.1; substitution-nf keeps the most similar masked-LM candidates,
    # back translation the best bridge language.
    "insertion": None,
    "deletion": None,
    "substitution-f": None,
    "substitution-nf": 10,
    "substitution-wordnet": 10,
    "backtranslation": 1,
    "reordering": 3,
    # Zhuo et al. 2023: 20 candidates per utterance, the 10 most similar by Sentence-BERT kept.
    "typo": 10,
    "random-deletion": 10,
    "random-swap": 10,
    "context-substitution": 10,
    "context-insertion": 10,
    "rewriting": 10,
    "distraction": None,
}
"""Per-perturbation recipes ``semparse-<name>`` and how many candidates each keeps."""


@hookimpl
def semparse_attack_recipes() -> Mapping[str, EntrySpec]:
    return {
        **{
            f"semparse-{benchmark}": {
                "target": _HUANG_COMBINED,
                "options": {"benchmark": benchmark},
                "description": f"Combined word-level perturbations (Huang et al. 2021; Zhuo et al. 2023 DB), greedy "
                f"word-importance search, bound to the {benchmark} benchmark's database.",
            }
            for benchmark in ("geo", "atis", "scholar", "spider")
        },
        **{
            f"semparse-{name}": {
                "target": _HUANG_SINGLE,
                "options": {"perturbation_name": name, "keep": keep},
                "description": f"One '{name}' perturbation per question, every candidate tried"
                + (f" (the {keep} most similar by Sentence-BERT)." if keep else "."),
            }
            for name, keep in PERTURBATION_KEEP.items()
        },
        "nucle-greedy": {
            "target": _YIN,
            "options": {"search": "greedy"},
            "description": "Learner grammatical errors (Yin et al. 2020), greedy search by word importance, "
            "at most 15% of the words; goal by victim (execution/exact match or classification).",
        },
        "nucle-beam": {
            "target": _YIN,
            "options": {"search": "beam"},
            "description": "Learner grammatical errors (Yin et al. 2020), beam search (width 5), at most 15% "
            "of the words; goal by victim.",
        },
        "nucle-genetic": {
            "target": _YIN,
            "options": {"search": "genetic"},
            "description": "Learner grammatical errors (Yin et al. 2020), genetic search (population 60, "
            "0.23 x positions iterations), no insertions/deletions; goal by victim.",
        },
        "nucle-probabilistic": {
            "target": _YIN,
            "options": {"search": "probabilistic"},
            "description": "Learner grammatical errors (Yin et al. 2020) sampled from the error model, "
            "one corrupted copy per question, no search (the paper's \"dist.\" setting); goal by victim.",
        },
    }


@hookimpl
def semparse_augmentation_recipes() -> Mapping[str, EntrySpec]:
    return {
        "semparse-mda": {
            "target": _MDA,
            "description": "Meaning-preserving data augmentation (Huang et al. 2021 §4.1) with every offline "
            "operation: function-word insertion/deletion/substitution, WordNet substitution, reordering.",
        },
        "semparse-function-words": {
            "target": _MDA,
            "options": {"perturbations": ("insertion", "deletion", "substitution-f")},
            "description": "Meaning-preserving function-word insertion, deletion and substitution (Huang et al. 2021).",
        },
        "nucle-augment": {
            "target": f"{_RECIPES}.augment.grammar_error_augmenter:GrammarErrorAugmenter",
            "description": "Learner grammatical errors sampled from an error model (Yin et al. 2020).",
        },
    }


@hookimpl
def semparse_victims() -> Mapping[str, EntrySpec]:
    return {
        "knn-geo": {
            "target": _KNN,
            "options": {"benchmark": "geo", "split_type": "question"},
            "dataset": "geo-question-test",
            "description": "Template-retrieval parser fit on GeoQuery's question-split train set "
            "(geo-mini when SEMPARSE_DATA_DIR is unset).",
        },
        "knn-geo-query": {
            "target": _KNN,
            "options": {"benchmark": "geo", "split_type": "query"},
            "dataset": "geo-query-test",
            "description": "Template-retrieval parser fit on GeoQuery's query-split train set; "
            "no test template occurs in training, so it is expected to fail.",
        },
        **_real_data_knn_victims(),
    }


# Real-data benchmarks (docs/datasets.md). Text2sql benchmarks have a question and a query split;
# logical-form benchmarks (and Spider) one standard split: benchmark -> (label, splits).
_TEXT2SQL_BENCHMARKS = {"atis": "ATIS", "scholar": "Scholar", "advising": "Advising"}
_SINGLE_SPLIT_BENCHMARKS = {
    "spider": ("Spider", ("dev",)),
    "geo-lambda": ("GeoQuery (lambda calculus)", ("train", "test")),
    "jobs-lambda": ("JOBS (lambda calculus)", ("train", "test")),
    "atis-lambda": ("ATIS (lambda calculus, anonymised and stemmed)", ("train", "dev", "test")),
}


def _real_data_knn_victims() -> dict[str, EntrySpec]:
    """``knn-<benchmark>`` (question split) and ``knn-<benchmark>-query`` for text2sql benchmarks,
    ``knn-<benchmark>`` for logical-form benchmarks; none for Spider (one database per question)."""
    victims: dict[str, EntrySpec] = {}
    for benchmark, label in _TEXT2SQL_BENCHMARKS.items():
        scoring = "execution match" if benchmark == "atis" else "exact match on SQL (no database)"
        victims[f"knn-{benchmark}"] = {
            "target": _KNN,
            "options": {"benchmark": benchmark, "split_type": "question"},
            "dataset": f"{benchmark}-question-test",
            "description": f"Template-retrieval parser fit on {label}'s question-split train set; "
            f"{scoring}. Needs SEMPARSE_DATA_DIR.",
        }
        victims[f"knn-{benchmark}-query"] = {
            "target": _KNN,
            "options": {"benchmark": benchmark, "split_type": "query"},
            "dataset": f"{benchmark}-query-test",
            "description": f"Template-retrieval parser fit on {label}'s query-split train set (the split the "
            f"text-to-SQL studies report); no test template occurs in training, so it is right only by "
            f"coincidence (another query with the same result). Needs SEMPARSE_DATA_DIR.",
        }
    for benchmark, (label, _) in _SINGLE_SPLIT_BENCHMARKS.items():
        if benchmark == "spider":
            continue
        victims[f"knn-{benchmark}"] = {
            "target": _KNN,
            "options": {"benchmark": benchmark, "split_type": "question"},
            "dataset": f"{benchmark}-test",
            "description": f"Nearest-neighbour parser over {label}: returns the logical form of the most similar "
            f"training question (entities are not re-filled); exact match. Needs SEMPARSE_DATA_DIR.",
        }
    return victims


_TRANSFORMATIONS = "textattack_semparse.transformations"


@hookimpl
def semparse_perturbations() -> Mapping[str, EntrySpec]:
    def entry(module: str, cls: str, description: str, **options: object) -> EntrySpec:
        return {"target": f"{_TRANSFORMATIONS}.{module}:{cls}", "options": options, "description": description}

    return {
        "insertion": entry("function_word_insertion", "FunctionWordInsertion", "Huang 2021: insert a function word.", seed=0),
        "deletion": entry("function_word_deletion", "FunctionWordDeletion", "Huang 2021: delete a function word."),
        "substitution-f": entry(
            "function_word_substitution", "FunctionWordSubstitution", "Huang 2021: swap a function word within its class.", seed=0
        ),
        "substitution-nf": entry(
            "masked_lm_content_word_substitution",
            "MaskedLMContentWordSubstitution",
            "Huang 2021: masked-LM (ELECTRA) substitutes for a content word; needs the model.",
        ),
        "substitution-wordnet": entry(
            "wordnet_synonym_substitution", "WordNetSynonymSubstitution", "Offline substitution (nf): WordNet synonyms."
        ),
        "backtranslation": entry(
            "back_translation", "BackTranslation", "Huang 2021: via Russian, French, Japanese (MarianMT); needs the models."
        ),
        "reordering": entry(
            "syntactic_reordering", "SyntacticReordering", "Huang 2021 reordering: move phrases on a dependency parse."
        ),
        "typo": entry("random_word_typo", "RandomWordTypo", "Zhuo 2023 TB: character typos in two words.", seed=0),
        "random-deletion": entry("random_word_deletion", "RandomWordDeletion", "Zhuo 2023 RD: delete two words.", seed=0),
        "random-swap": entry("random_word_transposition", "RandomWordTransposition", "Zhuo 2023 RS: swap two words.", seed=0),
        "context-substitution": entry(
            "masked_lm_random_word_substitution",
            "MaskedLMRandomWordSubstitution",
            "Zhuo 2023 CS: masked-LM (RoBERTa) substitutes for two words; needs the model.",
            seed=0,
        ),
        "context-insertion": entry(
            "masked_lm_random_word_insertion",
            "MaskedLMRandomWordInsertion",
            "Zhuo 2023 CI: two masked-LM (RoBERTa) insertions; needs the model.",
            seed=0,
        ),
        "rewriting": entry(
            "paraphrase_rewriting", "ParaphraseRewriting", "Zhuo 2023 RB: paraphrase model rewrite; needs the model."
        ),
        "distraction": entry("distraction_suffix", "DistractionSuffix", "Zhuo 2023 DB: append a distraction statement."),
    }


@hookimpl
def semparse_datasets() -> Mapping[str, EntrySpec]:
    return {
        **{
            f"geo-{split_type}-{split}": {
                "target": _BENCHMARK_DATASET,
                "options": {"benchmark": "geo", "split_type": split_type, "split": split},
                "description": f"GeoQuery {split_type}-split {split} set (geo-mini when SEMPARSE_DATA_DIR is unset).",
            }
            for split_type in ("question", "query")
            for split in ("train", "dev", "test")
        },
        **_real_data_datasets(),
    }


def _real_data_datasets() -> dict[str, EntrySpec]:
    """``<benchmark>-<split type>-<split>`` for text2sql benchmarks, ``<benchmark>-<split>`` for the others."""
    datasets: dict[str, EntrySpec] = {}
    for benchmark, label in _TEXT2SQL_BENCHMARKS.items():
        for split_type in ("question", "query"):
            for split in ("train", "dev", "test"):
                datasets[f"{benchmark}-{split_type}-{split}"] = {
                    "target": _BENCHMARK_DATASET,
                    "options": {"benchmark": benchmark, "split_type": split_type, "split": split},
                    "description": f"{label} {split_type}-split {split} set. Needs SEMPARSE_DATA_DIR.",
                }
    for benchmark, (label, splits) in _SINGLE_SPLIT_BENCHMARKS.items():
        for split in splits:
            datasets[f"{benchmark}-{split}"] = {
                "target": _BENCHMARK_DATASET,
                "options": {"benchmark": benchmark, "split_type": "question", "split": split},
                "description": f"{label} {split} set. Needs SEMPARSE_DATA_DIR.",
            }
    return datasets
