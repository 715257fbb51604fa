"""Preserve literals
=====================

Keep the words that carry the gold query's database values unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable

from textattack.constraints import PreTransformationConstraint
from textattack.shared import AttackedText

from textattack_semparse.attack_attrs import gold_output, original_text
from textattack_semparse.datasets.logical_form import is_logical_form, logical_form_literals
from textattack_semparse.errors import ConfigurationTypeError
from textattack_semparse.sql.literals import literal_word_indices, quoted_values, sql_literals


class PreserveLiterals(PreTransformationConstraint):
    """Never modify the question words that name the gold query's database values.

    The literals are the string and numeric literals of the gold SQL recorded on the
    original text by the plugin's goal functions (:func:`textattack_semparse.attack_attrs.
    gold_output`), plus any given explicitly as ``literals``. Their words are located in the
    *original* question ("new york" -> words 5 and 6 of "what is the population of new
    york") and mapped to the current text through ``attack_attrs["original_index_map"]``,
    so the protection follows the words across earlier insertions and deletions.

    Design: a pre-transformation constraint is enough to keep a multi-word literal
    contiguous, because every TextAttack edit is anchored at a word index: ``WordInsertion``
    inserts *before* ``words[i]``, ``insert_text_after_word_index`` *after* it, swaps and
    deletions replace it. A gap inside "new york" is only reachable through "new" or
    "york", and both are protected, so "new the york" cannot be produced by a
    transformation that honours ``indices_to_modify``. The cost is that insertion right
    before a literal is also refused. Search methods that rank indices (``GreedyWordSwapWIR``)
    see the restriction too and spend no queries on literal words.

    A value the question itself puts in quotes is protected too
    (:func:`~textattack_semparse.sql.literals.quoted_values`), even where the gold misspells it.
    Without a recorded gold output, without ``literals`` and without quotes nothing is protected. A literal
    the question does not spell out (the gold says ``150000``, the question "150,000")
    cannot be located and is not protected. Gold queries are read with sqlglot's tokenizer
    in ``dialect`` (see :func:`textattack_semparse.sql.literals.sql_literals`); a gold
    logical form (an s-expression such as ``(capital:<s,c> new_york:s)``) gives the
    constants the question spells out
    (:func:`textattack_semparse.datasets.logical_form.logical_form_literals`).

    Original to textattack-semparse.

    Args:
        literals (Iterable[str] | None): Values to protect in addition to those of the gold
            query, e.g. for augmentation without a goal function. Default ``None``.
        dialect (str): sqlglot dialect for reading the gold query. Default ``"mysql"``
            (reads GeoQuery's double-quoted strings as strings).

    Example:
        >>> from textattack.shared import AttackedText
        >>> from textattack_semparse.attack_attrs import record_gold_output
        >>> text = AttackedText("what is the population of new york")
        >>> record_gold_output(text, 'SELECT population FROM city WHERE city_name = "new york"')
        >>> sorted(PreserveLiterals()._get_modifiable_indices(text))
        [0, 1, 2, 3, 4]
    """

    def __init__(self, literals: Iterable[str] | None = None, dialect: str = "mysql") -> None:
        if isinstance(literals, str):
            raise ConfigurationTypeError(f"literals must be an iterable of strings, not the string {literals!r}; wrap it in a list.")
        if not isinstance(dialect, str) or not dialect:
            raise ConfigurationTypeError(f"dialect must be a sqlglot dialect name such as 'mysql', got {dialect!r}.")
        self.literals = None if literals is None else tuple(str(literal) for literal in literals)
        self.dialect = dialect

    def protected_literals(self, current_text: AttackedText) -> list[str]:
        """:meth:`question_literals` of the original question, then those of the recorded gold
        query, deduplicated."""
        gold = gold_output(current_text)
        question = original_text(current_text).text
        if not gold:
            from_gold: list[str] = []
        elif is_logical_form(gold):
            from_gold = logical_form_literals(question, gold)
        else:
            from_gold = sql_literals(gold, dialect=self.dialect)
        return list(dict.fromkeys([*self.question_literals(question), *from_gold]))

    def question_literals(self, question: str) -> list[str]:
        """The literals protected in ``question`` whatever the gold: the explicit ones, then the
        values it quotes."""
        return list(dict.fromkeys([*(self.literals or ()), *quoted_values(question)]))

    def _get_modifiable_indices(self, current_text: AttackedText) -> set[int]:
        all_indices = set(range(current_text.num_words))
        literals = self.protected_literals(current_text)
        if not literals:
            return all_indices
        original_indices = literal_word_indices(original_text(current_text).words, literals)
        index_map = current_text.attack_attrs["original_index_map"]
        protected = {int(index_map[i]) for i in original_indices if index_map[i] >= 0}
        return all_indices - protected

    def extra_repr_keys(self) -> list[str]:
        return ["literals", "dialect"] + super().extra_repr_keys()
