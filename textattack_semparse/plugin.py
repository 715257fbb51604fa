"""The built-in plugin: the components textattack-semparse itself ships.

Registered through the same hooks as third-party plugins (see :mod:`textattack_semparse.hookspecs`).
"""

from __future__ import annotations

from collections.abc import Mapping

from textattack_semparse import hookimpl
from textattack_semparse.datasets.example import ORIGINAL
from textattack_semparse.datasets.huang2021 import DOMAINS as HUANG2021_DOMAINS
from textattack_semparse.datasets.huang2021 import OPERATIONS as HUANG2021_OPERATIONS
from textattack_semparse.hookspecs import EntrySpec
from textattack_semparse.tables import (
    ROBUT_LETA_PERTURBATIONS,
    ROBUT_LLM_QUESTION_PERTURBATIONS,
    ROBUT_LLM_TABLE_PERTURBATIONS,
    ROBUT_QUESTION_PERTURBATIONS,
    ROBUT_RTA_OFFLINE_PERTURBATIONS,
    ROBUT_TABLE_PERTURBATIONS,
)
from textattack_semparse.victims.hub_models import OMNITAB_WTQ, TAPAS_WTQ, TAPEX_WTQ

_RECIPES = "textattack_semparse.recipes"
_YIN = f"{_RECIPES}.attack.grammar_error_attack_yin_2020:GrammarErrorAttackYin2020"
_MDA = f"{_RECIPES}.augment.meaning_preserving_augmenter:MeaningPreservingAugmenter"
_ZHAO = f"{_RECIPES}.attack.table_perturbation_attack_zhao_2023:TablePerturbationAttackZhao2023"

@hookimpl
def semparse_benchmarks() -> Mapping[str, EntrySpec]:
    return {
        "geo": {
            "target": f"{_LOADERS}:load_geo",
            "splits": _TEXT2SQL_SPLITS,
            "knn_victims": True,
            "attack_recipe": True,
            "description": f"{_GEOQUERY} with SEMPARSE_DATA_DIR, else the embedded geo-mini.",
        },
        "geo-mini": {
            "target": f"{_LOADERS}:load_geo_mini",
            "splits": _TEXT2SQL_SPLITS,
            "description": "Embedded GeoQuery-style questions on a small US-geography database.",
        },
        "geoquery": _text2sql("geography", _GEOQUERY, needs_database=True, knn=False, recipe=False),
        "atis": _text2sql(
            "atis",
            "ATIS (Hemphill et al. 1990; Dahl et al. 1994) in the text2sql-data format, executed on a SQLite "
            "rebuild of the ATIS-3 tables",
            needs_database=True,
            # Question-split test #272 runs 41 s on an idle 2-core machine and past 60 s beside a test
            # run; 300 s keeps the denominators the same under load (#317 runs past 300 s either way).
            gold_timeout=300.0,
        ),
        "scholar": _text2sql(
            "scholar",
            "Scholar (Iyer et al. 2017) in the text2sql-data format; exact match on SQL unless "
            "text2sql/scholar.sqlite exists",
        ),
        "advising": _text2sql(
            "advising",
            "Advising (Finegan-Dollak et al. 2018) in the text2sql-data format; exact match on SQL unless "
            "text2sql/advising.sqlite exists",
            recipe=False,
        ),
        "spider": {
            "target": f"{_LOADERS}:load_spider_benchmark",
            "splits": {"question": ("dev",)},
            "attack_recipe": True,
            "description": "Spider (Yu et al. 2018) dev set over 20 databases (one per db_id), test-suite "
            "comparison. Needs SEMPARSE_DATA_DIR.",
        },
        "geo-lambda": _logical_forms(
            "geo",
            {"train": "geo_lambda_calculus_train.tsv", "test": "geo_lambda_calculus_test.tsv"},
            "GeoQuery in lambda calculus (Zettlemoyer & Collins 2005 split, 600/280), natural questions with "
            "entities spelled out",
            geography_database="text2sql/geography.sqlite",
        ),
        "jobs-lambda": _logical_forms(
            "jobs",
            {"train": "job_lambda_train.tsv", "test": "job_lambda_test.tsv"},
            "JOBS (Tang & Mooney 2001) in lambda calculus (500/140), natural questions",
        ),
        "atis-lambda": _logical_forms(
            "atis",
            {"train": "train.txt", "dev": "dev.txt", "test": "test.txt"},
            "ATIS in lambda calculus as preprocessed by Dong & Lapata 2016 (4434/491/448): entities anonymised "
            "(ci0, al0), words stemmed",
        ),
        # Table QA (RobuT, Zhao et al. 2023): question + table -> answer, scored by WTQ's denotation match.
        "wtq": {
            "target": f"{_LOADERS}:load_wtq_benchmark",
            "options": {"random_split": 1},
            "trained_victims": False,
            "splits": {"question": ("train", "dev", "test")},
            "description": "WikiTableQuestions (Pasupat & Liang 2015): train/dev = random-split-1 (RobuT's), test = "
            "pristine-unseen-tables; denotation match. Needs SEMPARSE_DATA_DIR.",
        },
        "wikisql-weak": {
            "target": f"{_LOADERS}:load_wikisql_weak_benchmark",
            "trained_victims": False,
            "splits": {"question": ("train", "dev", "test")},
            "description": "WikiSQL (Zhong et al. 2017) as weakly supervised Table QA: answers are the SQL's "
            "denotations; denotation match. Needs SEMPARSE_DATA_DIR with wikisql/.",
        },
        "sqa": {
            "target": f"{_LOADERS}:load_sqa_benchmark",
            "trained_victims": False,
            "splits": {"question": ("train", "test")},
            "description": "SQA (Iyyer et al. 2017), each question of a sequence alone; denotation match. Needs "
            "SEMPARSE_DATA_DIR with sqa/.",
        },
        # RobuT (Zhao et al. 2023), released: originals and human-annotated rewrites, one split per perturbation type.
        **{f"robut-{split}": _robut(split, description) for split, description in _ROBUT_SPLITS.items()},
        # Huang et al. (2021)'s released sets, each rewrite scored against its original's gold in geo/atis/jobs-lambda.
        **_huang2021_benchmarks(),
        # The same benchmarks read from the Hugging Face Hub (datasets.load_dataset; cached, HF_HUB_OFFLINE honoured).
        "spider-hub": {
            "target": f"{_HUB}:load_spider_hub_benchmark",
            "splits": {"question": ("train", "dev")},
            "trained_victims": False,
            "description": "Spider's questions from the Hugging Face Hub (xlangai/spider), run on Spider's databases "
            "under SEMPARSE_DATA_DIR/spider-dev/database/ as 'spider'.",
        },
        "wtq-hub": {
            "target": f"{_HUB}:load_wtq_hub_benchmark",
            "options": {"random_split": 1},
            "trained_victims": False,
            "splits": {"question": ("train", "dev", "test")},
            "description": "'wtq' read from the Hugging Face Hub (stanfordnlp/wikitablequestions, its parquet export), "
            "tables included; no local file.",
        },
        "wikisql-weak-hub": {
            "target": f"{_HUB}:load_wikisql_weak_hub_benchmark",
            "trained_victims": False,
            "splits": {"question": ("train", "dev", "test")},
            "description": "'wikisql-weak' read from the Hugging Face Hub (Salesforce/wikisql, its parquet export); "
            "no local file.",
        },
        # Schema perturbations (Dr.Spider, Chang et al. 2023; RobuT's header operations) of text-to-SQL databases.
        **_schema_perturbed("geoquery", _TEXT2SQL_SPLITS),
        **_schema_perturbed("spider", {"question": ("dev",)}),
        # Dr.Spider's released test sets (Chang et al. 2023), one split (dataset drspider-<category>-<set>) each.
        "drspider": {
            "target": f"{_LOADERS}:load_drspider_benchmark",
            "splits": {"question": _drspider_splits()},
            "trained_victims": False,
            "description": "Dr.Spider (Chang et al. 2023): every released set present, the Spider dev originals "
            "and the perturbed questions, each side on its own databases; test-suite comparison, Dr.Spider's "
            "leaderboard table. Needs SEMPARSE_DATA_DIR/drspider (or SEMPARSE_DRSPIDER_DIR).",
        },
    }


_LOADERS = "textattack_semparse.datasets.benchmark_loaders"
_HUANG2021_SETS = {"": "meaning-preserving", "adversarial-": "adversarial", "black-box-": "black-box"}
"""Name infix of a Huang et al. (2021) benchmark -> the kind of set it reads."""
_HUB = "textattack_semparse.datasets.hub"
_GEOQUERY = "GeoQuery (Zelle & Mooney 1996) in the text2sql-data format (Finegan-Dollak et al. 2018)"
_TEXT2SQL_SPLITS = {"question": ("train", "dev", "test"), "query": ("train", "dev", "test")}


def _text2sql(
    stem: str,
    description: str,
    *,
    needs_database: bool = False,
    knn: bool = True,
    recipe: bool = True,
    **scorer_options: object,
) -> EntrySpec:
    """A text2sql-data benchmark (question and query splits) read from ``SEMPARSE_DATA_DIR``."""
    return {
        "target": f"{_LOADERS}:load_text2sql_benchmark",
        "options": {"stem": stem, "needs_database": needs_database, **scorer_options},
        "splits": _TEXT2SQL_SPLITS,
        "knn_victims": knn,
        "attack_recipe": recipe,
        "description": f"{description}. Needs SEMPARSE_DATA_DIR.",
    }


SCHEMA_PERTURBATION_DESCRIPTIONS: Mapping[str, str] = {
    "synonym": "columns renamed with header synonyms",
    "abbreviation": "columns renamed with header abbreviations",
    "table-rename": "tables renamed with synonyms (else abbreviations) of their names",
    "column-shuffle": "each table's columns in a new order",
    "column-adding": "a distractor column (copied from another table) added to each table",
}
"""Schema perturbations (:mod:`textattack_semparse.sql.schema_perturbation`) registered as ``<benchmark>-schema-<kind>``."""


def _schema_perturbed(base: str, splits: Mapping[str, tuple[str, ...]]) -> dict[str, EntrySpec]:
    """``<base>-schema-<kind>``: ``base`` on schema-perturbed copies of its databases, golds rewritten."""
    return {
        f"{base}-schema-{kind}": {
            "target": "textattack_semparse.datasets.schema_perturbed_benchmark:load_schema_perturbed_benchmark",
            "options": {"base": base, "perturbation": kind},
            "splits": dict(splits),
            "trained_victims": False,  # a model trained on the perturbed schema is not the victim studied
            "description": f"{base} with {description} on a cached copy of its databases (seed 0), gold SQL "
            "rewritten to match (Dr.Spider-style schema perturbation). Needs SEMPARSE_DATA_DIR.",
        }
        for kind, description in SCHEMA_PERTURBATION_DESCRIPTIONS.items()
    }


_ROBUT_SPLITS = {
    "wtq": "WikiTableQuestions",
    "wikisql": "WikiSQL-Weak",
    "sqa": "SQA (each turn scored, averaged per question sequence)",
}


def _robut(split: str, description: str) -> EntrySpec:
    """RobuT's release of one benchmark: the originals and rewrites of every perturbation type."""
    from textattack_semparse.datasets.robut import PERTURBATION_TYPES

    return {
        "target": f"{_LOADERS}:load_robut_benchmark",
        "options": {"split": split},
        "splits": {"question": PERTURBATION_TYPES},
        "trained_victims": False,
        "description": f"RobuT (Zhao et al. 2023) on {description}: originals and human-annotated header, content "
        "and question perturbations, one split per perturbation type; denotation match. Local files under "
        "SEMPARSE_DATA_DIR/robut (or --robut-dir), else the hub's yilunzhao/robut.",
    }


@hookimpl
def semparse_datasets() -> Mapping[str, EntrySpec]:
    # Released robustness benchmarks whole (their per-perturbation datasets are derived from their splits).
    return {
        **{
            f"robut-{split}": _released_whole(
                f"robut-{split}", f"RobuT on {description}: every original and rewrite; `robustness evaluate "
                f"--dataset robut-{split}` prints RobuT's table."
            )
            for split, description in _ROBUT_SPLITS.items()
        },
        "drspider": _released_whole(
            "drspider", "Dr.Spider (Chang et al. 2023): every set of the release; `robustness evaluate --dataset "
            "drspider` prints Dr.Spider's table."
        ),
        **{
            f"huang2021-{infix}{domain}": _released_whole(
                f"huang2021-{infix}{domain}", f"All of Huang et al. (2021)'s {kind} test sets of {domain}: originals and rewrites."
            )
            for infix, kind in _HUANG2021_SETS.items()
            for domain in HUANG2021_DOMAINS
        },
    }


def _released_whole(benchmark: str, description: str) -> EntrySpec:
    """The dataset of every example of a released robustness benchmark, named after it."""
    return {
        "target": "textattack_semparse.datasets.benchmark:benchmark_dataset",
        "options": {"benchmark": benchmark, "split_type": "question", "split": None},
        "description": description,
    }


def _drspider_splits() -> tuple[str, ...]:
    """Dr.Spider's sets as the splits of its benchmark (``nlq-keyword_synonym``), in the release's order."""
    from textattack_semparse.datasets.drspider import DRSPIDER_SETS, drspider_split

    return tuple(drspider_split(name) for name in DRSPIDER_SETS)


def _logical_forms(
    folder: str, files: Mapping[str, str], description: str, *, geography_database: str | None = None
) -> EntrySpec:
    """A Dong & Lapata logical-form benchmark, scored by exact match, read from ``SEMPARSE_DATA_DIR``
    (with ``geography_database``, GeoQuery's values as its known constants)."""
    options: dict[str, object] = {"folder": folder, "files": dict(files)}
    if geography_database is not None:
        options["geography_database"] = geography_database
    return {
        "target": f"{_LOADERS}:load_logical_form_benchmark",
        "options": options,
        "splits": {"question": tuple(files)},
        "knn_victims": True,
        "description": f"{description}; exact match. Needs SEMPARSE_DATA_DIR.",
    }


def _huang2021_benchmarks() -> dict[str, EntrySpec]:
    """``huang2021-<domain>`` (meaning-preserving sets, one split per operation),
    ``huang2021-adversarial-<domain>`` and ``huang2021-black-box-<domain>``."""
    entries: dict[str, EntrySpec] = {}
    for infix, kind in _HUANG2021_SETS.items():
        for domain, base in HUANG2021_DOMAINS.items():
            operations = tuple(HUANG2021_OPERATIONS) if kind == "meaning-preserving" else ()
            entries[f"huang2021-{infix}{domain}"] = {
                "target": f"{_LOADERS}:load_huang2021_benchmark",
                "options": {"domain": domain, "kind": kind},
                "splits": {"question": (ORIGINAL, *operations)},
                "trained_victims": False,  # the victims studied are those of the base benchmark
                "description": f"Huang et al. (2021)'s {kind} test sets of {domain} (SEMPARSE_DATA_DIR/huang2021), "
                f"rewrites scored against their original's gold in {base}; "
                + ("one split per operation." if operations else "perturbations named <parser>-<op>."),
            }
    return entries


@hookimpl
def semparse_attack_recipes() -> Mapping[str, EntrySpec]:
    return {
        "nucle-greedy": {
            "target": _YIN,
            "options": {"search": "greedy"},
            "description": "Learner grammatical errors (Yin et al. 2020), greedy search by word importance, "
            "at most 15% of the words; goal by victim (execution/exact match or classification).",
        },
        "nucle-beam": {
            "target": _YIN,
            "options": {"search": "beam"},
            "description": "Learner grammatical errors (Yin et al. 2020), beam search (width 5) over the words "
            "in order of importance, one error per word and step, at most 15% of the words; goal by victim.",
        },
        "nucle-beam-skip": {
            "target": _YIN,
            "options": {"search": "beam-skip"},
            "description": "Learner grammatical errors (Yin et al. 2020), the plugin's beam variant: as nucle-beam, "
            "but the unchanged beam competes with its expansions (a word may stay correct); goal by victim.",
        },
        "nucle-genetic": {
            "target": _YIN,
            "options": {"search": "genetic"},
            "description": "Learner grammatical errors (Yin et al. 2020), genetic search (population 60, "
            "ceil(0.23 x words) generations), all error types incl. insertions/deletions; goal by victim.",
        },
        "nucle-probabilistic": {
            "target": _YIN,
            "options": {"search": "probabilistic"},
            "description": "Learner grammatical errors (Yin et al. 2020) sampled from the error model, "
            "one corrupted copy per question, no search (the paper's \"dist.\" setting); goal by victim.",
        },
        # RobuT (Zhao et al. 2023): Table QA, one table perturbation per example, every candidate tried.
        **{
            f"robut-{name}": {
                "target": _ZHAO,
                "options": {"perturbation_name": name},
                "description": f"RobuT (Zhao et al. 2023): one '{name}' table perturbation per Table QA example, "
                "every candidate tried; WTQ denotation match"
                + ("; the LLM from --recipe-option llm=NAME or SEMPARSE_PERTURBATION_LLM." if llm else "."),
            }
            for names, llm in ((ROBUT_TABLE_PERTURBATIONS, False), (ROBUT_LLM_TABLE_PERTURBATIONS, True))
            for name in names
        },
        # RobuT's question perturbations and its mix, recipes under their perturbation names.
        **{
            name: {
                "target": _ZHAO,
                "options": {"perturbation_name": name},
                "description": f"RobuT (Zhao et al. 2023): the '{name}' question rewrites of each Table QA example, "
                "every candidate tried; WTQ denotation match"
                + ("; the LLM from --recipe-option llm=NAME or SEMPARSE_PERTURBATION_LLM." if llm else "."),
            }
            for names, llm in ((ROBUT_QUESTION_PERTURBATIONS, False), (ROBUT_LLM_QUESTION_PERTURBATIONS, True))
            for name in names
        },
        "robut-mix": {
            "target": _ZHAO,
            "options": {"perturbation_name": "robut-mix"},
            "description": "RobuT's mix (Zhao et al. 2023): two or three levels (header, content, question) perturbed "
            "on one example; every candidate tried.",
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
        "jia-liang-concat": {
            "target": f"{_RECIPES}.augment.concatenation_jia_liang_2016:ConcatenationJiaLiang2016",
            "description": "Two random training examples concatenated, questions and logical forms (Jia & Liang "
            "2016; the baseline of Huang et al. 2021's RQ5); on a question<TAB>logical form file or in `train`.",
        },
        "nucle-augment": {
            "target": f"{_RECIPES}.augment.grammar_error_augmenter:GrammarErrorAugmenter",
            "description": "Learner grammatical errors sampled from an error model (Yin et al. 2020).",
        },
        "robut-rta": {
            "target": f"{_RECIPES}.augment.table_qa_augmenter:TableQAAugmenter",
            "description": "RobuT's rule-based baseline RTA (Zhao et al. 2023): each table perturbation and a "
            "BERT-Attack-style word substitution (robut-word, bert-base-uncased) once per WTQ question; needs the "
            "masked LM. `augment --dataset wtq-train` writes rows and tables.",
        },
        "robut-rta-offline": {
            "target": f"{_RECIPES}.augment.table_qa_augmenter:TableQAAugmenter",
            "options": {"perturbations": ROBUT_RTA_OFFLINE_PERTURBATIONS},
            "description": "RobuT's RTA with WordNet synonyms (robut-word-wordnet) for the masked LM's words: offline.",
        },
        "robut-leta": {
            "target": f"{_RECIPES}.augment.table_qa_augmenter:TableQAAugmenter",
            "options": {"perturbations": ROBUT_LETA_PERTURBATIONS},
            "description": "RobuT's LeTA (Zhao et al. 2023): header names and word- and sentence-level question "
            "rewrites an LLM writes (content perturbations rule-based); the LLM from SEMPARSE_PERTURBATION_LLM.",
        },
    }


_TRANSFORMATIONS = "textattack_semparse.transformations"


@hookimpl
def semparse_perturbations() -> Mapping[str, EntrySpec]:
    def entry(module: str, cls: str, description: str, keep: object = False, **options: object) -> EntrySpec:
        """A perturbation; with ``keep`` (a count, or ``None`` for every candidate) also its recipe
        ``semparse-<name>`` keeping that many candidates, the most similar by Sentence-BERT."""
        spec: dict[str, object] = {
            "target": f"{_TRANSFORMATIONS}.{module}:{cls}",
            "options": options,
            "description": description,
        }
        if keep is not False:
            spec["attack_recipe"] = {"keep": keep}
        return spec

    # keep: Huang et al. 2021 §3.1: substitution-nf keeps the most similar masked-LM candidates, back
    # translation the best bridge language; Zhuo et al. 2023: 20 candidates per utterance, the 10 most
    # similar by Sentence-BERT kept.
    return {
        "insertion": entry(
            "function_word_insertion",
            "FunctionWordInsertion",
            "Huang 2021: insert a function word (here a meaning-preserving one, never next to an operator word).",
            seed=0,
            keep=None,
        ),
        "deletion": entry(
            "function_word_deletion",
            "FunctionWordDeletion",
            "Huang 2021: delete a function word (here a meaning-preserving one; word_list='huang-2021': "
            "also punctuation).",
            keep=None,
        ),
        "substitution-f": entry(
            "function_word_substitution",
            "FunctionWordSubstitution",
            "Huang 2021: substitute a function word (here a meaning-preserving one, within its class).",
            seed=0,
            keep=None,
        ),
        "substitution-nf": entry(
            "masked_lm_content_word_substitution",
            "MaskedLMContentWordSubstitution",
            "Huang 2021: masked-LM (ELECTRA) substitutes for a content word; needs the model.",
            keep=10,
        ),
        "substitution-wordnet": entry(
            "wordnet_synonym_substitution", "WordNetSynonymSubstitution", "Offline substitution (nf): WordNet synonyms.",
            keep=10,
        ),
        "backtranslation": entry(
            "back_translation",
            "BackTranslation",
            "Huang 2021: via Russian, French, Japanese (here MarianMT, not Google Translate); needs the models.",
            keep=1,
        ),
        "reordering": entry(
            "syntactic_reordering",
            "SyntacticReordering",
            "Huang 2021 reordering (here phrases moved on a dependency parse, not SOW-REAP).",
            keep=3,
        ),
        "typo": entry(
            "text_bugger_typo",
            "TextBuggerTypo",
            "Zhuo 2023 TB: TextBugger character bugs (space, delete, swap, keyboard, look-alike) in the two most "
            "important words (semparse-typo: to the victim; else Sentence-BERT leave-one-out).",
            seed=0,
            keep=10,
        ),
        "random-deletion": entry(
            "random_word_deletion", "RandomWordDeletion", "Zhuo 2023 RD: delete two words.", seed=0,
            keep=10,
        ),
        "random-swap": entry(
            "random_word_transposition", "RandomWordTransposition", "Zhuo 2023 RS: swap two words.", seed=0,
            keep=10,
        ),
        "context-substitution": entry(
            "masked_lm_random_word_substitution",
            "MaskedLMRandomWordSubstitution",
            "Zhuo 2023 CS: two words replaced by masked-LM (RoBERTa) fillers that are WordNet synonyms; needs the model.",
            seed=0,
            keep=10,
        ),
        "context-insertion": entry(
            "masked_lm_random_word_insertion",
            "MaskedLMRandomWordInsertion",
            "Zhuo 2023 CI: insert the masked LM's (RoBERTa) most probable word at two random positions; "
            "needs the model.",
            seed=0,
            keep=10,
        ),
        "rewriting": entry(
            "paraphrase_rewriting", "ParaphraseRewriting", "Zhuo 2023 RB: paraphrase model rewrite; needs the model.",
            keep=10,
        ),
        "distraction": entry(
            "distraction_suffix",
            "DistractionSuffix",
            "Zhuo 2023 DB: append the five statements 'who is who; what is what; when is when; which is which; "
            "where is where'.",
            keep=None,
        ),
        # RobuT (Zhao 2023) table perturbations: Table QA inputs only; without a table column they give nothing.
        "header-synonym": entry(
            "table.header_synonym_replacement",
            "HeaderSynonymReplacement",
            "RobuT header synonym replacement: rename columns to synonyms (WTQ header lexicon, then WordNet).",
            seed=0,
        ),
        "header-abbreviation": entry(
            "table.header_abbreviation",
            "HeaderAbbreviation",
            "RobuT header abbreviation: rename columns to abbreviations (packaged table, truncation, dropped "
            "vowels, initialisms).",
            seed=0,
        ),
        "row-shuffle": entry(
            "table.row_shuffle", "RowShuffle", "RobuT row shuffle; questions about position are left out.", seed=0
        ),
        "column-shuffle": entry(
            "table.column_shuffle", "ColumnShuffle", "RobuT column shuffle; questions about position are left out.", seed=0
        ),
        "column-extension": entry(
            "table.column_extension",
            "ColumnExtension",
            "RobuT column extension: split a score, date or 'Name (Country)' column not holding the answer.",
            seed=0,
        ),
        "column-masking": entry(
            "table.column_masking",
            "ColumnMasking",
            "RobuT column masking: drop a column another column determines, not needed by question or answer.",
            seed=0,
        ),
        **{
            f"llm-header-{kind}": {
                "target": "textattack_semparse.llm.llm_header_renaming:LLMHeaderRenaming",
                "options": {"kind": kind, "seed": 0},
                "description": f"RobuT LeTA: rename columns to the {kind}s an LLM writes (few-shot); needs an LLM "
                "victim name (llm=..., or SEMPARSE_PERTURBATION_LLM).",
            }
            for kind in ("synonym", "abbreviation")
        },
        # nlpaug's text augmenters (Ma 2019), one member per augmenter and arguments:
        # nlpaug:KeyboardAug, nlpaug:SynonymAug:aug_p=0.1; recipes semparse-nlpaug:<augmenter>.
        "nlpaug": {
            "target": f"{_TRANSFORMATIONS}.nlpaug_perturbation:NlpaugPerturbation",
            "argument": "augmenter",
            "options": {"seed": 0},
            "description": "nlpaug's text augmenters: nlpaug:<augmenter>[:KEY=VALUE...] (KeyboardAug, OcrAug, "
            "RandomCharAug, SpellingAug, SynonymAug, RandomWordAug offline; model-based ones with model_path=PATH).",
            "attack_recipe": {"keep": 10},
        },
        "column-adding": entry(
            "table.column_adding",
            "ColumnAdding",
            "RobuT column adding: add a column of the most related WTQ table (TF-IDF over headers) without the "
            "answer; needs SEMPARSE_DATA_DIR or table_dir.",
            seed=0,
        ),
        # RobuT (Zhao 2023) question perturbations, word and sentence level (its annotators wrote them;
        # RTA perturbs questions BERT-Attack-style, LeTA with an LLM), and its mix of levels.
        "robut-word": entry(
            "masked_lm_content_word_substitution",
            "MaskedLMContentWordSubstitution",
            "RobuT word level, BERT-Attack-style (Li et al. 2020): a masked LM's top-48 words for one content word "
            "(bert-base-uncased; model_name_or_path= a local copy); needs the model.",
            model_name_or_path="bert-base-uncased",
            top_k=48,
        ),
        "robut-word-wordnet": entry(
            "wordnet_synonym_substitution",
            "WordNetSynonymSubstitution",
            "RobuT word level, offline: a content word replaced by a WordNet synonym of its first sense.",
        ),
        "robut-sentence": entry(
            "paraphrase_rewriting",
            "ParaphraseRewriting",
            "RobuT sentence level: a seq2seq paraphrase model's beams (tuner007/pegasus_paraphrase; "
            "model_name_or_path= another); needs the model.",
        ),
        "robut-sentence-backtranslation": entry(
            "back_translation",
            "BackTranslation",
            "RobuT sentence level: back translation via Russian, French, Japanese (MarianMT); needs the models.",
        ),
        **{
            f"robut-{level}-llm": {
                "target": "textattack_semparse.llm.llm_question_rewriting:LLMQuestionRewriting",
                "options": {"level": level},
                "description": f"RobuT LeTA, {level} level: an LLM rewrites the question, reasoning first (five "
                "demonstrations); needs an LLM victim name (llm=..., or SEMPARSE_PERTURBATION_LLM).",
            }
            for level in ("word", "sentence")
        },
        "robut-mix": entry(
            "robut_mix",
            "RobutMix",
            "RobuT mix: two or three levels on one example (header synonym/abbreviation, a content perturbation, "
            "a question rewrite; question= picks the question perturbations).",
            seed=0,
        ),
    }


@hookimpl
def semparse_llm_backends() -> Mapping[str, EntrySpec]:
    return {
        "hf-causal": {
            "target": "textattack_semparse.victims.llm.causal_lm_parser:CausalLMParser",
            "description": "hf-causal:PATH: a local causal LM (directory, hub name or .gguf file) through transformers.",
        },
        "openai": {
            "target": "textattack_semparse.victims.llm.openai_parser:OpenAIParser",
            "description": "openai:MODEL@URL: a model behind an OpenAI-compatible endpoint (API, vLLM, llama.cpp).",
        },
    }


_TABLE_QA = "textattack_semparse.victims"


@hookimpl
def semparse_victims() -> Mapping[str, EntrySpec]:
    # Table QA victims (RobuT, Zhao et al. 2023), bound to the WTQ benchmark and evaluated on its dev set.
    def table_qa(target: str, description: str, **options: object) -> EntrySpec:
        return {
            "target": f"{_TABLE_QA}.{target}.from_benchmark",
            "options": {"benchmark": "wtq", **options},
            "dataset": "wtq-dev",
            "description": description,
        }

    return {
        "table-lexical": table_qa(
            "lexical_table_parser:LexicalTableParser",
            "Offline Table QA baseline: matches question words to column names and cells, then lookup, count, "
            "sum, superlative, comparison. Needs SEMPARSE_DATA_DIR.",
        ),
        "tapas-wtq": table_qa(
            "tapas_parser:TapasParser",
            f"TAPAS (Herzig et al. 2020) {TAPAS_WTQ}: cell selection + aggregation; needs the model.",
            model_name_or_path=TAPAS_WTQ,
        ),
        "tapex-wtq": table_qa(
            "tapex_parser:TapexParser",
            f"TAPEX (Liu et al. 2022) {TAPEX_WTQ}: BART generating the answer; needs the model.",
            model_name_or_path=TAPEX_WTQ,
        ),
        "omnitab-wtq": table_qa(
            "tapex_parser:TapexParser",
            f"OmniTab (Jiang et al. 2022) {OMNITAB_WTQ}, TAPEX's architecture; needs the model.",
            model_name_or_path=OMNITAB_WTQ,
        ),
    }


@hookimpl
def semparse_judges() -> Mapping[str, EntrySpec]:
    return {
        "default": {
            "target": "textattack_semparse.judges.grounded_judge:default_judge",
            "description": "Offline: vetoes grounded in the gold (a value, number, operator or predicate dropped or "
            "changed), then the packaged reader (a cross-encoder trained on the benchmarks' own paraphrases).",
        },
        "vetoes": {
            "target": "textattack_semparse.judges.grounded_judge:vetoes_only",
            "description": "The default judge's vetoes alone: what no veto settles is the same question.",
        },
        "cross-encoder": {
            "target": "textattack_semparse.judges.grounded_judge:cross_encoder_judge",
            "description": "cross-encoder:<hub name or folder>[?threshold=T]: the vetoes, then that CrossEncoder (or a "
            "reader of `judge train`) as the reader.",
        },
        "llm": {
            "target": "textattack_semparse.judges.llm_judge:LLMJudge",
            "description": "llm:<LLM victim name>: the LLM is asked whether both questions ask the same thing "
            "(few-shot, greedy, cached).",
        },
        "nli": {
            "target": "textattack_semparse.judges.nli_judge:NLIJudge",
            "description": "nli:<model>: each question entails the other (default roberta-large-mnli, online).",
        },
    }
