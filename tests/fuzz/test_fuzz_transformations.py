"""Every registered perturbation on hostile questions: no crash, no hang, gold literals kept.

Question perturbations get the question alone; table perturbations a Table QA input whose
headers and cells are hostile too. Inputs a perturbation may refuse (blank questions, and
questions over ``MAX_QUESTION_WORDS`` words for perturbations that build candidates for every
word) must be refused with a ``ValueError``/``TypeError`` naming the problem; anything else
raised is a crash.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import example as explicit_example
from hypothesis import given

from textattack_semparse.constraints.preserve_literals import PreserveLiterals

from tests.fuzz.components import PERTURBATION_BUDGETS, TABLE_PERTURBATIONS, TinyModels, perturbation
from tests.fuzz.hostile import LONG_EXAMPLE, HostileExample, fuzz_settings, hostile_examples, lost_literals


@pytest.fixture(scope="session")
def tiny_models(tmp_path_factory: pytest.TempPathFactory) -> TinyModels:
    return TinyModels(Path(tmp_path_factory.mktemp("fuzz-models")))


@pytest.mark.parametrize("name", sorted(PERTURBATION_BUDGETS))
def test_perturbation_survives_hostile_input(name: str, tiny_models: TinyModels, ledger) -> None:
    examples, seconds = PERTURBATION_BUDGETS[name]
    transformation = perturbation(name, tiny_models)
    with_table = name in TABLE_PERTURBATIONS
    component = f"perturbation:{name}"
    lost: list[tuple[str, str, list[str]]] = []

    @fuzz_settings(examples)
    @given(example=hostile_examples())
    @explicit_example(example=LONG_EXAMPLE)
    def run(example: HostileExample) -> None:
        text = example.attacked_text(with_table=with_table)
        outputs = ledger.run(
            component,
            example.question,
            lambda: transformation(text, pre_transformation_constraints=[PreserveLiterals()]),
            seconds=seconds,
            rejects=example.refused_clearly,
        )
        for output in outputs or ():
            missing = lost_literals(text, output, example.gold)
            if missing:
                lost.append((text.text, output.text, missing))

    run()
    ledger.counts(component).literals_lost = len(lost)
    ledger.assert_clean(component)
    assert not lost, f"{name} lost gold literals in {len(lost)} outputs, e.g. {lost[:3]}"
