"""Meaning judges: is a rewrite of a question the same question?

A robustness figure counts a rewrite the victim gets wrong as the victim's failure only if the
rewrite asks what the original asked. Huang et al. (2021), "On Robustness of Neural Semantic
Parsers", https://aclanthology.org/2021.eacl-main.292/, had three crowd workers judge their
substitution (nf), back-translation and reordering rewrites and kept those at least two called the
same (function-word rewrites and MDA training examples were not checked); Zhuo et al. (2023) had
experts pick. A judge is this package's automatic filter, applied to every perturbation's rewrites
(a substitute for the human step where the papers had one): every default pipeline (``robustness
build``, ``augment``, the ``semparse-*`` recipes through
:class:`~textattack_semparse.constraints.meaning_judgement.MeaningJudgement`) keeps only the
rewrites its judge calls ``same``, and ``textattack-semparse validate`` measures a judge
against people.

Judges are registered by name (``textattack-semparse list judge``): ``default`` (offline: vetoes
grounded in the gold, then a cross-encoder reader, :mod:`.grounded_judge`), ``vetoes`` (the first
layer alone), ``cross-encoder:<model>`` (the vetoes, then another reader), ``llm:<LLM victim
name>`` (an LLM asked whether the two questions ask the same thing) and ``nli:<model>``
(bidirectional entailment); a plugin adds its own. Several judges compose: all must say ``same``.

Original to textattack-semparse.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.judges.judgement import Judgement, RewritePair, Verdict

DEFAULT_JUDGE = "default"
"""The judge every default pipeline applies unless told otherwise (``--judge``, ``--no-judge``)."""


class MeaningJudge(ABC):
    """Judges rewrites: ``judge(pairs)`` gives one :class:`Judgement` per pair, in order.

    Subclasses implement :meth:`judge`; judging a batch at once lets model-based judges batch
    their calls. ``name`` is the registered name the judge was made from, for reports.
    """

    name: str = "judge"

    @abstractmethod
    def judge(self, pairs: Sequence[RewritePair]) -> list[Judgement]:
        """One judgement per pair, in order."""

    def read_ahead(self, originals: Sequence[str]) -> None:
        """Prepare, in batches, what judging rewrites of ``originals`` will read (a judge that
        parses its questions parses them together); the judgements are the same. Nothing by
        default."""
        return

    @property
    def identity(self) -> str:
        """Exactly which judge decides, for a manifest (a model's files by digest); its name by default."""
        return self.name

    def __call__(self, original: str, rewrite: str, gold: str | None = None) -> Judgement:
        """The judgement of one rewrite."""
        return self.judge([RewritePair(original, rewrite, gold)])[0]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class AllJudges(MeaningJudge):
    """Several judges at once: ``same`` only when every one says ``same``; otherwise the first
    judge's answer that is not ``same``, its reason and layer naming the judge.

    Example:
        >>> from textattack_semparse.judges.grounded_judge import vetoes_only
        >>> both = AllJudges([vetoes_only(), vetoes_only()])
        >>> judgement = both("how many rivers are in texas", "how few rivers are in texas")
        >>> judgement.reason, judgement.layer
        ("vetoes: dropped 'how many' (aggregation)", 'vetoes:veto:aggregation')
    """

    def __init__(self, judges: Sequence[MeaningJudge]) -> None:
        if not judges:
            raise ConfigurationError("AllJudges needs at least one judge.")
        self.judges = tuple(judges)
        self.name = "+".join(judge.name for judge in self.judges)

    def read_ahead(self, originals: Sequence[str]) -> None:
        for judge in self.judges:
            judge.read_ahead(originals)

    @property
    def identity(self) -> str:
        return " + ".join(judge.identity for judge in self.judges)

    def judge(self, pairs: Sequence[RewritePair]) -> list[Judgement]:
        results = [Judgement(Verdict.SAME, "every judge: same")] * len(pairs)
        pending = list(range(len(pairs)))
        for judge in self.judges:
            if not pending:
                break
            for index, judgement in zip(pending, judge.judge([pairs[index] for index in pending]), strict=True):
                if not judgement.keeps_meaning:
                    layer = f"{judge.name}:{judgement.layer}" if judgement.layer else judge.name
                    results[index] = Judgement(judgement.verdict, f"{judge.name}: {judgement.reason}", layer)
            pending = [index for index in pending if results[index].keeps_meaning]
        return results


def judge_from_name(name: str) -> MeaningJudge:
    """The judge registered as ``name``'s scheme (``default``, ``llm:<LLM victim>``,
    ``nli:<model>``, a plugin's), given the text after ``:`` as ``target``.

    Raises:
        RegistryError: An unknown judge (with the closest registered names).

    Example:
        >>> judge_from_name("default").name
        'default'
    """
    from textattack_semparse.registry import get_registry

    scheme, separator, target = name.strip().partition(":")
    entry = get_registry().get("judge", scheme)
    judge = entry.create(**({"target": target} if separator else {}))
    if not isinstance(judge, MeaningJudge):
        raise ConfigurationError(f"Judge {scheme!r} of plugin {entry.provider!r} is no MeaningJudge ({entry.target}).")
    judge.name = name.strip()
    return judge


def judges_from_names(names: Sequence[str]) -> MeaningJudge:
    """One judge for ``names``: the judge itself for one name, :class:`AllJudges` for several.

    Example:
        >>> judges_from_names(["default", "default"]).name
        'default+default'
    """
    if not names:
        raise ConfigurationError("Name at least one judge (textattack-semparse list judge).")
    judges = [judge_from_name(name) for name in names]
    return judges[0] if len(judges) == 1 else AllJudges(judges)
