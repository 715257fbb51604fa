"""Every registered perturbation, constraint and victim, built offline for the fuzz suite.

Components that need a model the machine cannot download get the tiny randomly initialised
ones the component tests build (masked LMs, MarianMT, T5, GPT-2, TAPAS, TAPEX); a victim that
trains on first use (``seq2seq-*``) is fuzzed as the :class:`Seq2SeqParser` it trains, on a
tiny T5. Each entry has an example budget and a per-input time bound: cheap components get
many examples, model-backed ones few.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textattack_semparse.registry import get_registry

TABLE_PERTURBATIONS = (
    "header-synonym", "header-abbreviation", "row-shuffle", "column-shuffle", "column-extension",
    "column-masking", "column-adding",
)
# name -> (examples, seconds per input)
PERTURBATION_BUDGETS: dict[str, tuple[int, float]] = {
    "insertion": (250, 60),
    "deletion": (700, 60),
    "substitution-f": (500, 60),
    "substitution-nf": (40, 120),
    "substitution-wordnet": (300, 60),
    "backtranslation": (25, 120),
    "reordering": (300, 60),
    "typo": (80, 120),
    "random-deletion": (250, 60),
    "random-swap": (250, 60),
    "context-substitution": (30, 120),
    "context-insertion": (30, 120),
    "rewriting": (25, 120),
    "distraction": (1000, 60),
    "header-synonym": (300, 60),
    "header-abbreviation": (300, 60),
    "row-shuffle": (400, 60),
    "column-shuffle": (400, 60),
    "column-extension": (300, 60),
    "column-masking": (300, 60),
    "column-adding": (150, 60),
}


def perturbation_options(name: str, models: TinyModels) -> dict[str, Any]:
    """Constructor overrides that swap a model the paper names for a tiny local one.

    ``max_length`` is kept within the tiny models' position embeddings (64 or 80), as the
    defaults (128) are within the real models' (512).
    """
    if name == "substitution-nf":
        return {"model_name_or_path": models.masked_lm("electra"), "device": "cpu", "max_length": 64}
    if name in ("context-substitution", "context-insertion"):
        return {"model_name_or_path": models.masked_lm("roberta"), "device": "cpu", "max_length": 64}
    if name == "rewriting":
        return {
            "model_name_or_path": models.marian(7), "device": "cpu", "max_new_tokens": 5, "num_candidates": 2,
            "max_length": 64,
        }
    if name == "backtranslation":
        return {"bridges": [(models.marian(1), models.marian(2))], "device": "cpu", "max_new_tokens": 5, "max_length": 64}
    if name == "column-adding":
        return {"table_dir": models.wtq_tables()}
    return {}


class TinyModels:
    """Tiny random models built once per session in ``root`` (no download)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.built: dict[str, str] = {}

    def _once(self, key: str, build: Any) -> str:
        if key not in self.built:
            directory = self.root / key
            directory.mkdir(parents=True, exist_ok=True)
            self.built[key] = str(build(directory) or directory)
        return self.built[key]

    def masked_lm(self, model_type: str) -> str:
        from tests.transformations.conftest import build_masked_lm

        return self._once(f"mlm-{model_type}", lambda d: build_masked_lm(d, model_type))

    def marian(self, seed: int) -> str:
        from tests.transformations.conftest import build_marian

        return self._once(f"marian-{seed}", lambda d: build_marian(d, seed))

    def t5(self) -> str:
        from tests.helpers import save_tiny_t5
        from tests.victims.test_seq2seq_parser import WORDS

        return self._once("t5", lambda d: save_tiny_t5(d, list(WORDS), suppress_special_tokens=True))

    def causal_lm(self) -> str:
        from tests.llm.test_icl_study import save_tiny_causal_lm

        return self._once("gpt2", save_tiny_causal_lm)

    def tapas(self) -> str:
        from tests.victims.test_tapas_parser import _save_tiny_tapas

        return self._once("tapas-root", lambda d: _save_tiny_tapas(d / "wtq", aggregation=True))

    def tapex(self) -> str:
        from tests.victims.test_tapex_parser import tiny_tapex

        class _Factory:
            def mktemp(self, name: str) -> Path:
                return directory

        directory = self.root / "tapex"
        directory.mkdir(parents=True, exist_ok=True)
        return self._once("tapex", lambda d: tiny_tapex.__wrapped__(_Factory()))

    def wtq_tables(self) -> str:
        """A WTQ-layout table folder (``csv/<n>-csv/*.tsv``) of three small tables."""

        def write(directory: Path) -> None:
            folder = directory / "csv" / "200-csv"
            folder.mkdir(parents=True)
            tables = {
                "0.tsv": "City\tYear\tGold\nOslo\t2001\t3\nRome\t2004\t5\n",
                "1.tsv": "Team\tCoach\tWins\nLions\tAnn\t7\nBears\tBo\t4\n",
                "2.tsv": "Country\tCapital\tPopulation\nNorway\tOslo\t5\nItaly\tRome\t59\n",
            }
            for name, text in tables.items():
                (folder / name).write_text(text, encoding="utf-8")
                (folder / name.replace(".tsv", ".csv")).write_text(text.replace("\t", ","), encoding="utf-8")

        return self._once("wtq", write)


def perturbation(name: str, models: TinyModels) -> Any:
    """The registered perturbation ``name`` with its registered options and tiny models."""
    entry = get_registry().get("perturbation", name)
    return entry.create(**perturbation_options(name, models))
