"""Rewrites of a robustness test set (``robustness build``/``run``; an ICL study's ``test_set/``):
one per perturbed utterance whose question changed, grouped by example and perturbation (the
candidates Zhuo et al.'s experts chose among)."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from pathlib import Path

from textattack_semparse.llm.icl_results import ICL_TEST_SET_DIR
from textattack_semparse.robustness.robustness_test_set import MANIFEST, ORIGINALS, RobustnessTestSet
from textattack_semparse.validation.rewrite_source import Location, Rewrite, RewriteSource

TEST_SET, ICL_RUN = "robustness-test-set", "icl-run"


class RobustnessSource(RewriteSource):
    """A robustness test set in ``path`` (``kind`` :data:`TEST_SET`), or the test set of the ICL
    study in ``path`` (``kind`` :data:`ICL_RUN`: in ``path/test_set``).

    A rewrite's location is ``(perturbation, index in its file)``. The copy without the dropped
    rewrites is a test set of the same originals (an ICL study's in ``OUTPUT/test_set``, where
    ``textattack-semparse icl --output-dir OUTPUT`` takes it); a perturbation left without a
    rewrite is listed under the manifest's ``skipped``.
    """

    def __init__(self, path: Path, *, kind: str = TEST_SET) -> None:
        self.path = path
        self.kind = kind
        self.folder = path / ICL_TEST_SET_DIR if kind == ICL_RUN else path
        self._test_set: RobustnessTestSet | None = None

    @property
    def test_set(self) -> RobustnessTestSet:
        """The test set, read on first use."""
        if self._test_set is None:
            self._test_set = RobustnessTestSet.read(self.folder)
        return self._test_set

    def files(self) -> list[Path]:
        names = [MANIFEST, ORIGINALS, *(f"{name}.jsonl" for name in self.test_set.perturbations)]
        return [self.folder / name for name in names]

    def rewrites(self) -> list[Rewrite]:
        return [
            Rewrite(
                original=utterance.original,
                rewrite=utterance.perturbed,
                gold=utterance.gold,
                perturbation=name,
                location=(name, index),
                group=f"{name}/{utterance.example_id}",
            )
            for name, utterances in self.test_set.utterances.items()
            for index, utterance in enumerate(utterances)
            if utterance.perturbed != utterance.original
        ]

    def write_without(self, dropped: Collection[Location], output: Path) -> Path:
        test_set = self.test_set
        gone = set(dropped)
        kept = {
            name: [utterance for index, utterance in enumerate(utterances) if (name, index) not in gone]
            for name, utterances in test_set.utterances.items()
        }
        skipped = dict(test_set.skipped)
        for name, utterances in test_set.utterances.items():
            if utterances and not kept[name]:
                skipped[name] = f"validation kept none of its {len(utterances)} rewrites"
        validated = dataclasses.replace(
            test_set,
            utterances={name: utterances for name, utterances in kept.items() if utterances},
            skipped=skipped,
            selection={name: pair for name, pair in test_set.selection.items() if kept.get(name)},
        )
        folder = output / ICL_TEST_SET_DIR if self.kind == ICL_RUN else output
        validated.write(folder)
        return output
