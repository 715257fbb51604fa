"""Which perturbed utterances a test set keeps per example: the papers' two settings.

A setting is a default selection ``(candidates, keep)`` (:data:`SELECTION_SETTINGS`), the
perturbations that select otherwise (:data:`SETTING_PERTURBATION_SELECTION`) and the
constructor options it gives perturbations (:data:`SETTING_PERTURBATION_OPTIONS`);
:func:`perturbation_selection` combines the first two. ``candidates`` outputs of a
perturbation are sampled (``None``: all), and the ``keep`` most similar to the original by
Sentence-BERT are kept (``None``: all sampled), so ``(1, 1)`` is one output drawn at random
and ``(None, 1)`` the single most similar of all outputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from textattack_semparse.errors import ConfigurationError, closest_match_hint

Selection = tuple[int | None, int | None]
"""``(candidates, keep)``: outputs sampled per example, the most similar of them kept."""

SELECTION_SETTINGS: Mapping[str, Selection] = MappingProxyType(
    {
        # Huang et al. (2021), https://aclanthology.org/2021.eacl-main.292/: insertion,
        # deletion and substitution (f) make one perturbed utterance per example (a random
        # position or function word); here they take a random one of their outputs.
        "huang-2021": (1, 1),
        # Zhuo et al. (2023), https://arxiv.org/abs/2301.12868: 20 candidates per
        # utterance, the 10 most similar to the original by Sentence-BERT kept.
        "zhuo-2023": (20, 10),
    }
)
"""Setting name -> its default selection ``(candidates, keep)`` per example and perturbation."""

DEFAULT_SETTING = "huang-2021"

SETTING_PERTURBATION_SELECTION: Mapping[str, Mapping[str, Selection]] = MappingProxyType(
    {
        # Huang et al. (2021) rank the candidates of substitution (nf), back translation and
        # reordering by Sentence-BERT similarity to the original and keep the best back
        # translation and the n (substitution nf) or k (reordering) highest, n and k not given;
        # here all of an operation's distinct outputs are ranked and the top one kept.
        # substitution-wordnet is the offline stand-in for substitution (nf).
        "huang-2021": MappingProxyType(
            {
                "substitution-nf": (None, 1),
                "substitution-wordnet": (None, 1),
                "backtranslation": (None, 1),
                "reordering": (None, 1),
            }
        ),
    }
)
"""Setting name -> perturbation name -> the selection it uses instead of the setting's default."""

SETTING_PERTURBATION_OPTIONS: Mapping[str, Mapping[str, Mapping[str, object]]] = MappingProxyType(
    {
        # Huang et al. (2021) insert, delete and substitute function words, without a crowd
        # check ("perturbation operations related to function words rarely alter meanings"),
        # and name no word list. Here the function-word operations draw on the stop-word list
        # NLTK | scikit-learn | punctuation, its words of the meaning-preserving classes only,
        # never an operator word. Every output is a candidate.
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


def check_setting(setting: str) -> str:
    """``setting`` if it names a setting of :data:`SELECTION_SETTINGS`, else ``ValueError``.

    Example:
        >>> check_setting("zhuo-2023")
        'zhuo-2023'
    """
    if setting not in SELECTION_SETTINGS:
        raise ConfigurationError(
            f"Unknown selection setting {setting!r}.{closest_match_hint(str(setting), SELECTION_SETTINGS)} "
            f"Settings: {', '.join(SELECTION_SETTINGS)}."
        )
    return setting


def perturbation_selection(setting: str, perturbation: str) -> Selection:
    """The selection ``(candidates, keep)`` setting ``setting`` uses for ``perturbation``.

    Example:
        >>> perturbation_selection("huang-2021", "insertion"), perturbation_selection("huang-2021", "reordering")
        ((1, 1), (None, 1))
    """
    check_setting(setting)
    return SETTING_PERTURBATION_SELECTION.get(setting, {}).get(perturbation, SELECTION_SETTINGS[setting])


def describe_selection(candidates: int | None, keep: int | None) -> str:
    """A selection in words, as the ``robustness build`` table prints it ("top": the most
    similar to the original by Sentence-BERT).

    Example:
        >>> describe_selection(1, 1), describe_selection(None, 1), describe_selection(20, 10), describe_selection(None, None)
        ('1 at random', 'top 1 of all', 'top 10 of 20', 'all')
    """
    if keep is None or keep == candidates:
        return "all" if candidates is None else f"{candidates} at random"
    return f"top {keep} of {'all' if candidates is None else candidates}"
