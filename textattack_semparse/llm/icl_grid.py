"""The grid of the in-context-learning study of Zhuo et al. (2023): shots x few-shot selection x
adversarial demonstrations.

Zhuo et al. (2023), "On Robustness of Prompt-based Semantic Parsing with Large Pre-trained
Language Model: An Empirical Study on Codex", https://arxiv.org/abs/2301.12868, vary how many
demonstrations a prompt shows, how they are selected (§4.3) and whether each is followed by a
perturbed copy (adversarial in-context learning, §4.2). A grid cell is an :class:`ICLCell`. Zero
shots show no demonstrations, so selection and adversarial copies mean nothing there: the grid has
one zero-shot cell (selection ``"-"``, adversarial ``"none"``) however many selections and
adversarial perturbations it crosses. The study runs in :mod:`textattack_semparse.experiments.icl`.
Original to textattack-semparse: the grid expansion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from textattack_semparse.errors import ConfigurationError, DatasetError, VictimError, closest_match_hint
from textattack_semparse.victims.llm.few_shot_selection import SELECTOR_NAMES
from textattack_semparse.victims.llm_victim_name import is_llm_victim_name, parse_llm_victim_name, with_options

NO_ADVERSARIAL = "none"
"""``adversarial`` of a cell whose demonstrations have no perturbed copies."""
ZERO_SHOT_SELECTION = "-"
"""``selection`` of the zero-shot cell: nothing is selected."""
DEFAULT_TEST_PERTURBATION = "typo"
"""The test perturbation when none is given and no adversarial perturbation names one."""
GRID_OPTIONS = ("shots", "selection", "adversarial", "seed")
"""LLM victim options the study sets per cell; a ``model`` name must leave them out."""


@dataclass(frozen=True, order=True)
class ICLCell:
    """One cell of the grid: ``shots`` demonstrations chosen by ``selection``, each followed by a
    copy perturbed by ``adversarial`` unless it is ``"none"`` (Zhuo et al. 2023, §4.2-4.3).

    Example:
        >>> ICLCell(5, "cluster-tfidf", "typo").key, ICLCell(0).key
        ('5-shot_cluster-tfidf_typo', '0-shot')
    """

    shots: int
    selection: str = ZERO_SHOT_SELECTION
    adversarial: str = NO_ADVERSARIAL

    @property
    def key(self) -> str:
        """The cell's name, also its key in the ``cells.jsonl`` journal."""
        return "0-shot" if self.shots == 0 else f"{self.shots}-shot_{self.selection}_{self.adversarial}"

    @property
    def label(self) -> str:
        """A short name for tables, ``+`` marking adversarial copies.

        Example:
            >>> ICLCell(5, "cluster-tfidf", "typo").label, ICLCell(5, "random").label, ICLCell(0).label
            ('5-shot cluster-tfidf +typo', '5-shot random', '0-shot')
        """
        if self.shots == 0:
            return "0-shot"
        copies = "" if self.adversarial == NO_ADVERSARIAL else f" +{self.adversarial}"
        return f"{self.shots}-shot {self.selection}{copies}"

    def victim_name(self, model: str, seed: int) -> str:
        """``model`` with this cell's options (and ``seed``, of the selector and the copies).

        Example:
            >>> ICLCell(2, "random", "typo").victim_name("hf-causal:/m/x.gguf", 0)
            'hf-causal:/m/x.gguf?shots=2&selection=random&adversarial=typo&seed=0'
            >>> ICLCell(0).victim_name("hf-causal:/m/x.gguf", 0)
            'hf-causal:/m/x.gguf?shots=0'
        """
        if self.shots == 0:
            return with_options(model, shots=0)
        adversarial = None if self.adversarial == NO_ADVERSARIAL else self.adversarial
        return with_options(model, shots=self.shots, selection=self.selection, adversarial=adversarial, seed=seed)

    def to_json(self) -> dict[str, Any]:
        return {"shots": self.shots, "selection": self.selection, "adversarial": self.adversarial}


def expand_grid(shots: Sequence[int], selections: Sequence[str], adversarial: Sequence[str]) -> list[ICLCell]:
    """The cells of shots x selections x adversarial, in that order, repeats dropped; shots 0
    gives the one zero-shot cell.

    Example:
        >>> [cell.key for cell in expand_grid([0, 2], ["random"], ["none", "typo"])]
        ['0-shot', '2-shot_random_none', '2-shot_random_typo']
    """
    cells: list[ICLCell] = []
    for count in dict.fromkeys(shots):
        if count == 0:
            cells.append(ICLCell(0))
            continue
        cells.extend(ICLCell(count, selection, name) for selection in selections for name in adversarial)
    return list(dict.fromkeys(cells))


def default_test_perturbations(adversarial: Sequence[str]) -> list[str]:
    """The adversarial perturbations (a model is tested on what its demonstrations show), else
    ``["typo"]``.

    Example:
        >>> default_test_perturbations(["none", "typo"]), default_test_perturbations(["none"])
        (['typo'], ['typo'])
    """
    return [name for name in dict.fromkeys(adversarial) if name != NO_ADVERSARIAL] or [DEFAULT_TEST_PERTURBATION]


def check_grid(
    model: str,
    dataset: str,
    shots: Sequence[int],
    selections: Sequence[str],
    adversarial: Sequence[str],
    perturbations: Sequence[str] = (),
) -> None:
    """Fail before anything runs (or is written) on a study that cannot run.

    Raises:
        VictimError: ``model`` is not an LLM victim name, or it sets an option the grid sets.
        DatasetError: ``dataset`` is not a registered dataset of a benchmark (the prompt needs its
            database and training split).
        ValueError: No or negative shots, an unknown selection.
        RegistryError: An adversarial name that is neither ``"none"`` nor a registered
            perturbation, or an unregistered test perturbation.
    """
    if not is_llm_victim_name(model):
        raise VictimError(
            f"The icl study prompts an in-context LLM victim; {model!r} is none. Pass hf-causal:PATH (a local causal "
            "LM directory or .gguf file) or openai:MODEL@URL (an OpenAI-compatible server)."
        )
    fixed = sorted(set(parse_llm_victim_name(model).options) & set(GRID_OPTIONS))
    if fixed:
        raise VictimError(
            f"{model!r} sets {', '.join(fixed)}, which the study sets per cell; drop them from the name and use "
            "shots/selections/adversarial/seed (--shots, --selection, --adversarial, --seed)."
        )
    if not shots or any(isinstance(count, bool) or not isinstance(count, int) or count < 0 for count in shots):
        raise ConfigurationError(f"shots must be one or more ints >= 0, got {list(shots)!r}.")
    if any(count > 0 for count in shots):
        if not selections:
            raise ConfigurationError("Give at least one few-shot selection for the cells with shots > 0, e.g. random.")
        for selection in selections:
            if selection not in SELECTOR_NAMES:
                raise ConfigurationError(
                    f"Cannot use selection {selection!r}: it is unknown; choose from {', '.join(SELECTOR_NAMES)}."
                    + closest_match_hint(str(selection), SELECTOR_NAMES)
                )
        if not adversarial:
            raise ConfigurationError("Give at least one adversarial setting, 'none' for demonstrations without copies.")
    from textattack_semparse.registry import get_registry
    from textattack_semparse.victims.resolution import dataset_benchmark

    for name in [*adversarial, *perturbations]:
        if name != NO_ADVERSARIAL:
            get_registry().get("perturbation", name)  # names the registered ones when unknown
    if dataset_benchmark(dataset) is None:
        raise DatasetError(
            f"{dataset!r} is not a registered dataset of a benchmark; the prompts show its database and draw "
            f"demonstrations from its training split. Pass one of: {', '.join(get_registry().names('dataset'))}."
        )
