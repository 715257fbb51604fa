"""Alzantot-style genetic search over grammatical errors (Yin et al. 2020)."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
from textattack.search_methods import AlzantotGeneticAlgorithm
from textattack.search_methods.population_based_search import PopulationMember
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import original_text
from textattack_semparse.search_methods.grammar_edit_positions import GrammarEditPositions
from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR


def _overlapping_groups(edits: list[tuple[int, GrammarEdit]]) -> list[list[tuple[int, GrammarEdit]]]:
    """Group ``(parent, edit)`` pairs whose word indices overlap (transitively)."""
    groups: list[list[tuple[int, GrammarEdit]]] = []
    for item in edits:
        indices = set(item[1].indices)
        touching = [any(indices.intersection(edit.indices) for _, edit in group) for group in groups]
        merged = [item] + [pair for group, touches in zip(groups, touching) if touches for pair in group]
        groups = [group for group, touches in zip(groups, touching) if not touches] + [merged]
    return groups


class GrammarErrorGeneticAlgorithm(GrammarEditPositions, AlzantotGeneticAlgorithm):
    """Alzantot et al.'s genetic algorithm with Yin et al.'s per-sentence iteration count.

    Yin et al. (2020) run the genetic attack of Alzantot et al. (2018) with a population of
    60 and ``0.23 x`` the number of perturbable positions as the maximum number of
    iterations. TextAttack's ``AlzantotGeneticAlgorithm`` takes a fixed ``max_iters``; this
    subclass sets it for each sentence to ``max(min_iterations, ceil(iterations_ratio * P))``,
    where ``P`` is the number of words at which at least one grammatical error is allowed
    (the anchors of the transformation's candidates on the original sentence).

    Two further changes, both needed for multi-word errors:

    * mutation goes through :class:`GrammarEditPositions`, so a word-order swap is proposed
      at its adverb;
    * crossover works on *errors*, not words: the errors of both parents are grouped where
      their words overlap and each group is taken from one parent or the other with
      probability 1/2 (for one-word errors this is TextAttack's word-wise crossover). A child
      therefore never holds half of a swap, and it records the errors it inherited in
      ``attack_attrs["semparse_grammar_errors"]`` for the per-type analysis.

    Crossover addresses words by their index in the original sentence, so the transformation
    must not insert or delete words: use ``length_preserving=True`` (checked).

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
    Alzantot, Sharma, Elgohary, Ho, Srivastava and Chang (2018), "Generating Natural Language
    Adversarial Examples", EMNLP 2018, https://aclanthology.org/D18-1316/.

    Args:
        pop_size (int, default 60): population size (paper: 60).
        iterations_ratio (float, default 0.23): iterations per perturbable position (paper: 0.23).
        min_iterations (int, default 1): iterations for sentences with few positions.
        temp (float, default 0.3): softmax temperature of parent selection (TextAttack's default).
        give_up_if_no_improvement (bool, default False): as ``AlzantotGeneticAlgorithm``.
        post_crossover_check (bool, default True): check children against the constraints.
        max_crossover_retries (int, default 20): as ``AlzantotGeneticAlgorithm``.
        seed (int | None, default None): seed of the crossover's coin flips (parent selection
            and mutation use TextAttack's global NumPy generator, seeded by ``--random-seed``).
    """

    def __init__(
        self,
        pop_size: int = 60,
        iterations_ratio: float = 0.23,
        min_iterations: int = 1,
        temp: float = 0.3,
        give_up_if_no_improvement: bool = False,
        post_crossover_check: bool = True,
        max_crossover_retries: int = 20,
        seed: int | None = None,
    ) -> None:
        if isinstance(pop_size, bool) or not isinstance(pop_size, int) or pop_size < 1:
            raise ValueError(f"pop_size must be a positive integer, got {pop_size!r}.")
        if isinstance(iterations_ratio, bool) or not isinstance(iterations_ratio, (int, float)) or iterations_ratio <= 0:
            raise ValueError(f"iterations_ratio must be a positive number, got {iterations_ratio!r}.")
        if isinstance(min_iterations, bool) or not isinstance(min_iterations, int) or min_iterations < 1:
            raise ValueError(f"min_iterations must be a positive integer, got {min_iterations!r}.")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise TypeError(f"seed must be an int or None, got {seed!r}.")
        super().__init__(
            pop_size=pop_size,
            max_iters=min_iterations,
            temp=temp,
            give_up_if_no_improvement=give_up_if_no_improvement,
            post_crossover_check=post_crossover_check,
            max_crossover_retries=max_crossover_retries,
        )
        self.iterations_ratio = iterations_ratio
        self.min_iterations = min_iterations
        self.seed = seed
        self._rng = random.Random(seed)

    def perturbable_positions(self, text: AttackedText) -> set[int]:
        """Words of ``text`` at which the attack may place at least one error."""
        return {
            edit.position
            for candidate in self.get_transformations(text, original_text=text)
            for edit in self.new_edits(candidate, text)
        }

    def iterations_for(self, text: AttackedText) -> int:
        """``max(min_iterations, ceil(iterations_ratio * perturbable positions))``."""
        return max(self.min_iterations, math.ceil(self.iterations_ratio * len(self.perturbable_positions(text))))

    def perform_search(self, initial_result: Any) -> Any:
        self.max_iters = self.iterations_for(initial_result.attacked_text)
        return super().perform_search(initial_result)

    def _crossover_operation(
        self, pop_member1: PopulationMember, pop_member2: PopulationMember
    ) -> tuple[AttackedText, dict[str, Any]]:
        parents = (pop_member1, pop_member2)
        edits = [
            (parent, edit)
            for parent, member in enumerate(parents)
            for edit in member.attacked_text.attack_attrs.get(GRAMMAR_ERRORS_ATTR, ())
        ]
        original_words = original_text(pop_member1.attacked_text).words
        candidates_per_word = np.copy(pop_member1.attributes["num_candidate_transformations"])
        new_words: dict[int, str] = {}
        inherited: list[GrammarEdit] = []
        for group in _overlapping_groups(edits):
            if self._rng.random() < 0.5:
                inherited += [edit for parent, edit in group if parent == 0]
                continue
            for parent, edit in group:
                for index in edit.indices:
                    new_words.setdefault(index, original_words[index])
                    candidates_per_word[index] = pop_member2.attributes["num_candidate_transformations"][index]
            for parent, edit in group:
                if parent == 1:
                    new_words.update(zip(edit.indices, edit.replacement))
                    inherited.append(edit)
        child = pop_member1.attacked_text.replace_words_at_indices(list(new_words), list(new_words.values()))
        child.attack_attrs[GRAMMAR_ERRORS_ATTR] = tuple(sorted(inherited, key=lambda edit: edit.indices))
        return child, {"num_candidate_transformations": candidates_per_word}

    def check_transformation_compatibility(self, transformation: Any) -> bool:
        return super().check_transformation_compatibility(transformation) and bool(
            getattr(transformation, "length_preserving", False)
        )

    def extra_repr_keys(self) -> list[str]:
        keys = [key for key in super().extra_repr_keys() if key != "max_iters"]
        return keys + ["iterations_ratio", "min_iterations", "seed"]
