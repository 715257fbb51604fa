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

SETTING_PERTURBATION_OPTIONS: Mapping[str, Mapping[str, Mapping[str, object]]] = MappingProxyType(
    {
        # Huang et al. (2021) insert, delete and substitute *any* function word, their test
        # sets counting stop-word-list words (NLTK | scikit-learn) and punctuation as function
        # words; a substitute is any different one. Every output is a candidate.
        "huang-2021": MappingProxyType(
            {
                "insertion": MappingProxyType({"word_list": "huang-2021", "max_candidates_per_position": None}),
                "deletion": MappingProxyType({"word_list": "huang-2021"}),
                "substitution-f": MappingProxyType({"word_list": "huang-2021", "max_candidates_per_position": None}),
            }
        ),
    }
)
"""Setting name -> perturbation name -> constructor options the setting gives it (on top of
the registered options; an option the perturbation's constructor does not take is left out)."""
