"""Well-formed decoding of logical forms: generation kept to s-expressions whose heads take as many
arguments as they took in training.

A parser trained from scratch on a few hundred questions sometimes writes an output that is no
logical form at all: brackets that never close, ``loc`` with three arguments, a constant where a
predicate belongs. :class:`~textattack_semparse.victims.output_grammar.OutputGrammar` records, from
the training outputs, which atoms head an expression (with the fewest and most arguments each
took), which atoms are arguments and which stand alone as a whole output. :class:`WellFormedDecoding` then allows, at each generation step,
only the tokens that keep the output well formed under that record, so the model's likeliest
*well-formed* output is written. Type-constrained decoders do the same with a type system
(Krishnamurthy, Dasigi and Gardner 2017, "Neural Semantic Parsing with Type Constraints for
Semi-Structured Tables", EMNLP); this record is untyped and learned, and needs a word-level
vocabulary whose tokens are the output's atoms and brackets (``train --tokenizer word``, the
default).

``textattack-semparse train`` saves the record beside a model trained on logical forms
(:data:`~textattack_semparse.victims.output_grammar.GRAMMAR_FILE`);
:class:`~textattack_semparse.victims.seq2seq_parser.Seq2SeqParser` decodes with it when it is there.

This module does not import TextAttack.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from textattack_semparse.datasets.logical_form import without_repeated_conjuncts
from textattack_semparse.datasets.logical_form_types import variable_name
from textattack_semparse.victims.output_grammar import CLOSE, OPEN, OutputGrammar, input_words

ALTERNATIVES = 10
"""Beam width, and outputs read, when a decoded output is looked at again (:meth:`WellFormedDecoding.choose`)."""


class WellFormedDecoding:
    """``generate``'s ``prefix_allowed_tokens_fn``: after each prefix, the tokens that keep the
    output well formed under ``grammar``.

    An open bracket must be followed by a head; a head's list takes arguments (atoms of
    ``grammar.arguments`` or a nested list) up to its most and closes from its fewest; a
    finished expression (or root atom) is followed by the end of the output. With
    ``grammar.binders``, a variable is bound by the binder lists it is in (shadowing allowed, as
    one GEO training output does) and never written free. With ``grammar.distinct_conjuncts``,
    :meth:`finish` writes a conjunct the output repeats once. An atom of ``grammar.copied`` (a
    placeholder) is written only where the model's input has it (:meth:`for_inputs`). An output
    the grammar finds wanting (an atom its question implies missing, a variable bound and never
    used, a constant written twice: :meth:`OutputGrammar.admits <textattack_semparse.victims.output_grammar.OutputGrammar.admits>`)
    is replaced by the likeliest of :data:`ALTERNATIVES` beam-search outputs that is not
    (:meth:`choose`); greedy decoding, cheap, stays for every other output.

    Args:
        grammar (OutputGrammar): The training outputs' grammar.
        tokenizer: The model's tokenizer (word-level: one token per atom or bracket).
        prefix_length (int, default 1): Tokens before the output in the decoder's input (the
            decoder start token).

    Example:
        >>> from textattack_semparse.training.tokenizer import train_tokenizer
        >>> outputs = ["(size:<lo,i> s0)", "(lambda $0:e (state:<s,t> $0))"]
        >>> tokenizer = train_tokenizer(outputs)
        >>> allowed = WellFormedDecoding(OutputGrammar.fit(outputs), tokenizer)
        >>> def after(text):
        ...     ids = [tokenizer.eos_token_id] + tokenizer(text, add_special_tokens=False)["input_ids"]
        ...     return sorted(tokenizer.convert_ids_to_tokens(allowed.allowed(ids)))
        >>> after(""), after("( size:<lo,i>"), after("( size:<lo,i> s0"), after("( size:<lo,i> s0 )")
        (['('], ['(', 's0'], [')'], ['</s>'])

    Variables are scoped as in training (``grammar.binders``): a binder's first argument is a
    variable, and a variable is written only inside a list that binds it.

        >>> after("( lambda"), after("( lambda $0:e ( state:<s,t>")
        (['$0', '$0:e'], ['$0', '$0:e', '(', 's0'])
    """

    def __init__(self, grammar: OutputGrammar, tokenizer: Any, *, prefix_length: int = 1) -> None:
        vocabulary: dict[str, int] = tokenizer.get_vocab()
        self.grammar = grammar
        self.prefix_length = prefix_length
        self.open_id, self.close_id = vocabulary[OPEN], vocabulary[CLOSE]
        self.end_ids = [tokenizer.eos_token_id]
        self.arities = {vocabulary[head]: bounds for head, bounds in grammar.arities.items() if head in vocabulary}
        self.head_ids = sorted(self.arities)
        self.argument_ids = sorted({vocabulary[atom] for atom in grammar.arguments if atom in vocabulary} | {self.open_id})
        self.start_ids = sorted({vocabulary[atom] for atom in grammar.roots if atom in vocabulary} | {self.open_id})
        self.binder_ids = frozenset(vocabulary[head] for head in grammar.binders if head in vocabulary)
        self.distinct_conjuncts = grammar.distinct_conjuncts
        self.copied_tokens = {atom: vocabulary[atom] for atom in grammar.copied if atom in vocabulary}
        self.variable_names = {
            vocabulary[atom]: name
            for atom in grammar.arguments
            if atom in vocabulary and self.binder_ids and (name := variable_name(atom)) is not None
        }

    @classmethod
    def for_tokenizer(cls, grammar: OutputGrammar | None, tokenizer: Any, *, prefix_length: int = 1) -> WellFormedDecoding | None:
        """The decoding for ``grammar``, or ``None`` when there is no grammar or ``tokenizer``
        has no bracket tokens (not the word-level vocabulary the grammar is written in)."""
        if grammar is None:
            return None
        vocabulary = tokenizer.get_vocab()
        if OPEN not in vocabulary or CLOSE not in vocabulary:
            return None
        return cls(grammar, tokenizer, prefix_length=prefix_length)

    def finish(self, output: str) -> str:
        """The decoded ``output`` as the parser writes it: without a conjunct repeated (A and A is A)
        when no training output repeats one, else as decoded."""
        return without_repeated_conjuncts(output) if self.distinct_conjuncts else output

    @property
    def looks_again(self) -> bool:
        """Whether some outputs can be found wanting (the grammar has implied atoms, used binders, distinct
        constants or distinct variables in a list)."""
        grammar = self.grammar
        return bool(grammar.implied) or grammar.binders_used or grammar.distinct_constants or grammar.distinct_list_variables

    def wanting(self, inputs: Sequence[str], outputs: Sequence[str]) -> list[int]:
        """The indices of the ``outputs`` (finished, for the model ``inputs``) the grammar finds wanting."""
        if not self.looks_again:
            return []
        return [index for index, (text, output) in enumerate(zip(inputs, outputs)) if not self.grammar.admits(text, output)]

    def choose(self, text: str, candidates: Sequence[str], fallback: str) -> str:
        """The first of ``candidates`` (decoded outputs for the model input ``text``, likeliest first)
        the grammar does not find wanting, finished; ``fallback`` when each is."""
        for candidate in map(self.finish, candidates):
            if self.grammar.admits(text, candidate):
                return candidate
        return fallback

    def admitted(self, text: str, candidates: Sequence[str]) -> list[str]:
        """The distinct finished ``candidates`` (decoded outputs for the model input ``text``) the
        grammar does not find wanting, in order; all of them when it finds each wanting."""
        finished = list(dict.fromkeys(map(self.finish, candidates)))
        return [candidate for candidate in finished if self.grammar.admits(text, candidate)] or finished

    def __call__(self, batch_id: int, input_ids: Any) -> list[int]:
        return self.allowed(input_ids.tolist())

    def for_inputs(self, inputs: Sequence[str]) -> Callable[[int, Any], list[int]]:
        """``generate``'s ``prefix_allowed_tokens_fn`` for a batch of model ``inputs``: as the
        decoding itself, an atom of ``grammar.copied`` allowed only in the output of an input that
        has it as a word."""
        absent = [
            frozenset(token for atom, token in self.copied_tokens.items() if atom not in words)
            for words in map(input_words, inputs)
        ]

        def allowed(batch_id: int, input_ids: Any) -> list[int]:
            return self.allowed(input_ids.tolist(), absent[batch_id])

        return allowed

    def allowed(self, ids: Sequence[int], absent: frozenset[int] = frozenset()) -> list[int]:
        """The token ids allowed after the decoder input ``ids`` (start token included), none of
        ``absent`` (copied atoms the input does not have)."""
        allowed = self._allowed(ids)
        return [token for token in allowed if token not in absent] if absent else allowed

    def _allowed(self, ids: Sequence[int]) -> list[int]:
        stack: list[list[Any]] = []  # [head id or None, argument count, variable it binds] of each open list
        for token in ids[self.prefix_length :]:
            if token == self.open_id:
                if stack:
                    stack[-1][1] += 1
                stack.append([None, 0, None])
            elif token == self.close_id:
                if stack:
                    stack.pop()
                if not stack:
                    return self.end_ids
            elif not stack:
                return self.end_ids  # a root atom, or the end already written
            elif stack[-1][0] is None:
                stack[-1][0] = token
            else:
                if stack[-1][1] == 0 and stack[-1][0] in self.binder_ids:
                    stack[-1][2] = self.variable_names.get(token)
                stack[-1][1] += 1
        if not stack:
            return self.start_ids
        head, count, _ = stack[-1]
        if head is None:
            return self.head_ids
        fewest, most = self.arities.get(head, (0, count + 1))
        arguments = self._arguments(stack) if self.variable_names else self.argument_ids
        if count < fewest:
            return arguments
        return arguments + [self.close_id] if count < most else [self.close_id]

    def _arguments(self, stack: list[list[Any]]) -> list[int]:
        """The arguments allowed next in the innermost open list: a variable as a binder's first
        argument, elsewhere any argument but the variables no open list binds."""
        head, count, _ = stack[-1]
        if count == 0 and head in self.binder_ids:
            return sorted(self.variable_names)
        bound = {binds for _, _, binds in stack if binds is not None}
        return [
            token for token in self.argument_ids if token not in self.variable_names or self.variable_names[token] in bound
        ]
