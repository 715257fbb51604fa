"""Alzantot-style genetic search over grammatical errors (Yin et al. 2020)."""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any

import numpy as np
from textattack.search_methods import AlzantotGeneticAlgorithm
from textattack.search_methods.population_based_search import PopulationMember
from textattack.shared import AttackedText

from textattack_semparse.arguments import check_count, check_seed
from textattack_semparse.attack_attrs import original_text
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.search_methods.grammar_edit_positions import GrammarEditPositions
from textattack_semparse.transformations.grammar.grammar_edit import GrammarEdit
from textattack_semparse.transformations.grammar.grammar_error_transformation import GRAMMAR_ERRORS_ATTR
from textattack_semparse.transformations.word_edits import replace_words_at_indices


def _overlapping_groups(edits: list[tuple[int, GrammarEdit]]) -> list[list[tuple[int, GrammarEdit]]]:
    """Group ``(parent, edit)`` pairs whose word indices overlap (transitively)."""
    groups: list[list[tuple[int, GrammarEdit]]] = []
    for item in edits:
        indices = set(item[1].indices)
        touching = [any(indices.intersection(edit.indices) for _, edit in group) for group in groups]
        merged = [item] + [pair for group, touches in zip(groups, touching) if touches for pair in group]
        groups = [group for group, touches in zip(groups, touching) if not touches] + [merged]
    return groups


def original_edits(text: AttackedText) -> tuple[GrammarEdit, ...] | None:
    """The grammatical errors of ``text`` with word indices of the original sentence.

    ``attack_attrs["semparse_grammar_errors"]`` gives each error the indices of the text it
    was applied to; following ``previous_attacked_text`` back to the original, each step's new
    errors are mapped through that step's ``original_index_map``. ``None`` when an error
    touches a word the attack inserted, or two errors touch the same original word (possible
    only without ``RepeatModification``): such a text is not "the original plus a set of
    errors at original positions".
    """
    steps: list[tuple[AttackedText, tuple[GrammarEdit, ...]]] = []
    current = text
    while "previous_attacked_text" in current.attack_attrs:
        previous = current.attack_attrs["previous_attacked_text"]
        steps.append((previous, GrammarEditPositions.new_edits(current, previous)))
        current = previous
    mapped: list[GrammarEdit] = []
    used: set[int] = set()
    for previous, edits in reversed(steps):
        index_map = previous.attack_attrs["original_index_map"]
        to_original = {int(now): before for before, now in enumerate(index_map) if now >= 0}
        for edit in edits:
            if not set(edit.indices) <= to_original.keys():
                return None
            indices = tuple(to_original[index] for index in edit.indices)
            if used.intersection(indices):
                return None
            used.update(indices)
            mapped.append(dataclasses.replace(edit, indices=indices, position=to_original[edit.position]))
    return tuple(mapped)


class GrammarErrorGeneticAlgorithm(GrammarEditPositions, AlzantotGeneticAlgorithm):
    """Alzantot et al.'s genetic algorithm over grammatical errors, with Yin et al.'s settings.

    Yin et al. (2020) run the genetic attack of Alzantot et al. (2018) with a population of
    60 and at most ``0.23 x`` the sentence length (its number of words) generations.
    TextAttack's ``AlzantotGeneticAlgorithm`` takes a fixed ``max_iters``; this subclass sets
    it for each sentence to ``max(min_iterations, ceil(iterations_ratio * words))`` (9 words:
    ``ceil(2.07) = 3``).

    Every grammatical error is allowed, insertions and deletions (ArtOrDet, Prep, Trans)
    included, so the population holds texts of different lengths. An individual is the
    original sentence plus a set of errors at *original* word positions
    (:func:`original_edits`), and the operators work on those positions:

    * mutation picks an original word (weighted by its number of candidate errors, as
      Alzantot et al.), finds it in the individual through ``original_index_map`` (skipping
      words the individual deleted) and applies the most damaging error anchored there
      (:class:`GrammarEditPositions`, so a word-order swap is proposed at its adverb);
    * crossover works on *errors*, not word indices: the errors of both parents are grouped
      where their original words overlap and each group is taken from one parent or the other
      with probability 1/2 (for one-word substitutions this is TextAttack's word-wise
      crossover); the child is the original sentence with the inherited errors applied, so
      it never holds half of a swap nor a word shifted by the other parent's insertion, and it
      records its errors in ``attack_attrs["semparse_grammar_errors"]`` for the per-type
      analysis.

    Yin, Long, Meng and Chang (2020), "On the Robustness of Language Encoders against
    Grammatical Errors", ACL 2020, https://aclanthology.org/2020.acl-main.310/.
    Alzantot, Sharma, Elgohary, Ho, Srivastava and Chang (2018), "Generating Natural Language
    Adversarial Examples", EMNLP 2018, https://aclanthology.org/D18-1316/.

    Args:
        pop_size (int, default 60): population size (paper: 60).
        iterations_ratio (float, default 0.23): generations per word of the sentence (paper: 0.23).
        min_iterations (int, default 1): generations for very short sentences.
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
        check_count("pop_size", pop_size)
        if isinstance(iterations_ratio, bool) or not isinstance(iterations_ratio, (int, float)) or iterations_ratio <= 0:
            raise ConfigurationError(f"iterations_ratio must be a positive number, got {iterations_ratio!r}.")
        check_count("min_iterations", min_iterations)
        check_seed(seed)
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
        """``max(min_iterations, ceil(iterations_ratio * number of words))``."""
        # Rounded first: 0.23 * 100 is 23.000000000000004 in floating point.
        return max(self.min_iterations, math.ceil(round(self.iterations_ratio * len(text.words), 9)))

    def perform_search(self, initial_result: Any) -> Any:
        self.max_iters = self.iterations_for(initial_result.attacked_text)
        return super().perform_search(initial_result)

    def _initialize_population(self, initial_result: Any, pop_size: int) -> list[PopulationMember]:
        # As AlzantotGeneticAlgorithm, but a candidate counts at its error's anchor word (an
        # insertion or a swap changes several indices).
        text = initial_result.attacked_text
        counts = np.zeros(text.num_words)
        for candidate in self.get_transformations(text, original_text=text):
            for edit in self.new_edits(candidate, text):
                counts[edit.position] += 1
        if counts.size:
            epsilon = max(1, int(np.amin(counts) * 0.1))
            counts = np.maximum(counts, epsilon)
        return [
            self._perturb(
                PopulationMember(text, initial_result, attributes={"num_candidate_transformations": np.copy(counts)}),
                initial_result,
            )
            for _ in range(pop_size)
        ]

    def _perturb(
        self, pop_member: PopulationMember, original_result: Any, index: int | None = None
    ) -> PopulationMember:
        # As GeneticAlgorithm._perturb, with the word drawn among the *original* words (the
        # weights are per original word) and found in the member through original_index_map.
        weights = np.copy(self._get_word_select_prob_weights(pop_member)).astype(float)
        index_map = pop_member.attacked_text.attack_attrs["original_index_map"]
        weights[np.asarray(index_map) < 0] = 0
        tries = np.count_nonzero(weights)
        for _ in range(tries):
            if index is not None:
                original_index = index
            else:
                original_index = int(np.random.choice(len(weights), 1, p=weights / np.sum(weights))[0])
            current_index = int(index_map[original_index])
            candidates = []
            if current_index >= 0:
                candidates = self.get_transformations(
                    pop_member.attacked_text,
                    original_text=original_result.attacked_text,
                    indices_to_modify=[current_index],
                )
            if candidates:
                results, self._search_over = self.get_goal_results(candidates)
                if results:
                    best = max(range(len(results)), key=lambda i: results[i].score)
                    if results[best].score > pop_member.result.score:
                        return self._modify_population_member(
                            pop_member, candidates[best], results[best], original_index
                        )
            weights[original_index] = 0
            if self._search_over or index is not None or not weights.any():
                break
        return pop_member

    def _crossover_operation(
        self, pop_member1: PopulationMember, pop_member2: PopulationMember
    ) -> tuple[AttackedText, dict[str, Any]]:
        parents = (pop_member1, pop_member2)
        first_edits, second_edits = (original_edits(member.attacked_text) for member in parents)
        candidates_per_word = np.copy(pop_member1.attributes["num_candidate_transformations"])
        if first_edits is None or second_edits is None:
            # Not decomposable into errors at original positions: the child is a parent.
            chosen = parents[0] if self._rng.random() < 0.5 else parents[1]
            child = replace_words_at_indices(chosen.attacked_text, [], [])
            child.attack_attrs[GRAMMAR_ERRORS_ATTR] = chosen.attacked_text.attack_attrs.get(GRAMMAR_ERRORS_ATTR, ())
            return child, {"num_candidate_transformations": np.copy(chosen.attributes["num_candidate_transformations"])}
        edits = [(parent, edit) for parent, member_edits in enumerate((first_edits, second_edits)) for edit in member_edits]
        inherited: list[GrammarEdit] = []
        for group in _overlapping_groups(edits):
            parent = 0 if self._rng.random() < 0.5 else 1
            inherited += [edit for owner, edit in group if owner == parent]
            if parent == 1:
                for _, edit in group:
                    for index in edit.indices:
                        candidates_per_word[index] = pop_member2.attributes["num_candidate_transformations"][index]
        inherited.sort(key=lambda edit: edit.indices)
        original = original_text(pop_member1.attacked_text)
        child = replace_words_at_indices(
            original,
            [index for edit in inherited for index in edit.indices],
            [text for edit in inherited for text in edit.replacement],
        )
        child.attack_attrs[GRAMMAR_ERRORS_ATTR] = tuple(inherited)
        return child, {"num_candidate_transformations": candidates_per_word}

    def _crossover(
        self, pop_member1: PopulationMember, pop_member2: PopulationMember, original_text: AttackedText
    ) -> PopulationMember:
        # As GeneticAlgorithm._crossover, except for "modified_indices": the child is built from
        # the original sentence, so its own modified_indices are right, while TextAttack's
        # recombination of the parents' indices assumes all three texts have equal length.
        for _ in range(self.max_crossover_retries + 1):
            child_text, attributes = self._crossover_operation(pop_member1, pop_member2)
            for parent in (pop_member1.attacked_text, pop_member2.attacked_text):
                if "last_transformation" in parent.attack_attrs:
                    child_text.attack_attrs["last_transformation"] = parent.attack_attrs["last_transformation"]
                    break
            if not self.post_crossover_check or self._post_crossover_check(
                child_text, pop_member1.attacked_text, pop_member2.attacked_text, original_text
            ):
                results, self._search_over = self.get_goal_results([child_text])
                return PopulationMember(child_text, result=results[0], attributes=attributes)
        return pop_member1 if np.random.uniform() < 0.5 else pop_member2

    def extra_repr_keys(self) -> list[str]:
        keys = [key for key in super().extra_repr_keys() if key != "max_iters"]
        return keys + ["iterations_ratio", "min_iterations", "seed"]
