"""FGM and PGD adversarial training on geo-mini: the training loss is L(e) + L(e + r) with r computed
here from the gradient by the formulas (Miyato et al. 2017; Madry et al. 2018):

* FGM: r = ε · g / ‖g‖₂, g = ∇_e L(e);
* PGD: r₀ = 0, r_{k+1} = Π_{‖r‖₂ ≤ ε}(r_k + α · g_k / ‖g_k‖₂), g_k = ∇_r L(e + r_k), K steps.

Norms are per example (over all of its token embeddings). A tiny BART without dropout, so the
training-mode losses are deterministic.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from textattack_semparse.cli import main
from textattack_semparse.errors import ConfigurationError
from textattack_semparse.training.embedding_adversary import EmbeddingAdversary, project_onto_ball, unit_l2
from textattack_semparse.training.parser_trainer import TRAINING_FILE, ParserTrainer

TINY = {
    "architecture": "bart",
    "d_model": 16,
    "d_ff": 32,
    "num_layers": 1,
    "num_heads": 2,
    "dropout": 0.0,
    "warmup_steps": 0,
    "device": "cpu",
}


@pytest.fixture(autouse=True)
def geo_mini_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SEMPARSE_DATA_DIR", "")


def geo_mini_batch(tmp_path: Path, **adversary: object) -> tuple[object, object, dict[str, torch.Tensor]]:
    """The Seq2SeqTrainer that ``ParserTrainer`` builds for ``adversary``, its model (train mode) and a
    collated batch of 8 geo-mini training examples."""
    parser_trainer = ParserTrainer("geo-mini", tmp_path, **TINY, **adversary)
    data = parser_trainer._training_data()
    tokenizer = parser_trainer._tokenizer(data.train_pairs, None)
    features = parser_trainer._features(tokenizer, data.train_pairs[:8])
    model = parser_trainer._model(tokenizer, 64)
    trainer = parser_trainer._trainer(model, tokenizer, features, features, data, 64)
    model.train()
    return trainer, model, trainer.data_collator(features)


def loss_at(model: object, batch: dict[str, torch.Tensor], embeddings: torch.Tensor) -> torch.Tensor:
    rest = {key: value for key, value in batch.items() if key != "input_ids"}
    return model(**rest, inputs_embeds=embeddings).loss


def clean_embeddings(model: object, batch: dict[str, torch.Tensor]) -> torch.Tensor:
    return model.get_input_embeddings()(batch["input_ids"]).detach().requires_grad_(True)


def per_example_unit(gradient: torch.Tensor) -> torch.Tensor:
    return torch.stack([row / row.norm() for row in gradient])


def test_fgm_loss_is_clean_plus_loss_at_epsilon_times_the_normalised_gradient(tmp_path: Path) -> None:
    epsilon = 0.5
    trainer, model, batch = geo_mini_batch(tmp_path, adversary="fgm", adversary_epsilon=epsilon)
    embeddings = clean_embeddings(model, batch)
    clean = loss_at(model, batch, embeddings)
    (gradient,) = torch.autograd.grad(clean, embeddings)
    expected_r = epsilon * per_example_unit(gradient)
    adversarial = loss_at(model, batch, embeddings.detach() + expected_r)

    assert [row.norm().item() for row in expected_r] == pytest.approx([epsilon] * len(expected_r))
    assert adversarial.item() > clean.item()  # a step up the gradient raises the loss
    assert trainer.compute_loss(model, batch).item() == pytest.approx((clean + adversarial).item(), rel=1e-5)

    embeddings = clean_embeddings(model, batch)
    found = trainer.adversary.perturbation(
        lambda e: loss_at(model, batch, e), embeddings, loss_at(model, batch, embeddings)
    )
    torch.testing.assert_close(found, expected_r)


def test_pgd_takes_k_projected_steps_of_alpha_times_the_normalised_gradient(tmp_path: Path) -> None:
    epsilon, alpha, steps = 0.5, 0.3, 3
    trainer, model, batch = geo_mini_batch(
        tmp_path, adversary="pgd", adversary_epsilon=epsilon, adversary_alpha=alpha, adversary_steps=steps
    )
    base = clean_embeddings(model, batch).detach()
    r = torch.zeros_like(base)
    for _ in range(steps):
        r.requires_grad_(True)
        (gradient,) = torch.autograd.grad(loss_at(model, batch, base + r), r)
        r = r.detach() + alpha * per_example_unit(gradient)
        r = torch.stack([row if row.norm() <= epsilon else epsilon * row / row.norm() for row in r])
    # two steps of 0.3 can reach 0.6 > ε: the projection is exercised, and no example leaves the ball
    assert max(row.norm().item() for row in r) == pytest.approx(epsilon)
    clean = loss_at(model, batch, base)
    adversarial = loss_at(model, batch, base + r)
    assert adversarial.item() > clean.item()
    assert trainer.compute_loss(model, batch).item() == pytest.approx((clean + adversarial).item(), rel=1e-5)

    embeddings = clean_embeddings(model, batch)
    found = trainer.adversary.perturbation(
        lambda e: loss_at(model, batch, e), embeddings, loss_at(model, batch, embeddings)
    )
    torch.testing.assert_close(found, r, rtol=1e-4, atol=1e-6)


def test_evaluation_loss_stays_the_plain_loss(tmp_path: Path) -> None:
    trainer, model, batch = geo_mini_batch(tmp_path, adversary="fgm")
    model.eval()
    with torch.no_grad():
        assert trainer.compute_loss(model, batch).item() == pytest.approx(model(**batch).loss.item())


def test_unit_and_projection_are_per_example() -> None:
    tensor = torch.tensor([[[3.0, 4.0]], [[0.0, 0.0]], [[0.3, 0.4]]])
    torch.testing.assert_close(unit_l2(tensor), torch.tensor([[[0.6, 0.8]], [[0.0, 0.0]], [[0.6, 0.8]]]))
    torch.testing.assert_close(project_onto_ball(tensor, 1.0), torch.tensor([[[0.6, 0.8]], [[0.0, 0.0]], [[0.3, 0.4]]]))


@pytest.mark.parametrize(
    ("keywords", "message"),
    [
        ({"method": "fgsm"}, "fgm, pgd"),
        ({"method": "fgm", "epsilon": 0.0}, "epsilon must be positive"),
        ({"method": "pgd", "steps": 0}, "steps must be a positive int"),
    ],
)
def test_bad_adversary_settings_are_refused(keywords: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigurationError, match=message):
        EmbeddingAdversary(**keywords)


def test_train_defence_pgd_records_its_settings_and_plain_training_does_not(tmp_path: Path) -> None:
    common = ["train", "--benchmark", "geo-mini", "--max-steps", "2", "--d-model", "16", "--d-ff", "32",
              "--layers", "1", "--heads", "2", "--warmup-steps", "0", "--device", "cpu"]
    assert main([*common, "--output-dir", str(tmp_path / "pgd"), "--defence", "pgd", "--alpha", "0.2"]) == 0
    assert main([*common, "--output-dir", str(tmp_path / "plain")]) == 0
    pgd = json.loads((tmp_path / "pgd" / TRAINING_FILE).read_text(encoding="utf-8"))["settings"]
    plain = json.loads((tmp_path / "plain" / TRAINING_FILE).read_text(encoding="utf-8"))["settings"]
    assert {key: pgd[key] for key in pgd if key.startswith("adversary")} == {
        "adversary": "pgd", "adversary_epsilon": 1.0, "adversary_alpha": 0.2, "adversary_steps": 3,
    }
    assert not any(key.startswith("adversary") for key in plain)
