"""How many perturbed utterances a test set keeps per example: the papers' two settings."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

SELECTION_SETTINGS: Mapping[str, tuple[int | None, int | None]] = MappingProxyType(
    {
        # Huang et al. (2021), https://aclanthology.org/2021.eacl-main.292/: one perturbed
        # utterance per example and operation (drawn at random among the operation's outputs).
        "huang-2021": (1, 1),
        # Zhuo et al. (2023), https://arxiv.org/abs/2301.12868: 20 candidates per
        # utterance, the 10 most similar to the original by Sentence-BERT kept.
        "zhuo-2023": (20, 10),
    }
)
"""Setting name -> (candidates sampled, candidates kept) per example and perturbation."""

DEFAULT_SETTING = "huang-2021"
