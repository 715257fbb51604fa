"""Embedding-space adversarial training: FGM and PGD perturbations of a parser's input word embeddings.

Huang et al. (2021), "On Robustness of Neural Semantic Parsers" (EACL,
https://aclanthology.org/2021.eacl-main.292/), train their parsers with FGM, PGD and MDA and compare
their robustness. FGM, the fast gradient method of Miyato, Dai and Goodfellow (2017),
"Adversarial Training Methods for Semi-Supervised Text Classification" (ICLR,
https://arxiv.org/abs/1605.07725), adds to the embeddings ``e`` of a question the perturbation

    r = ε · g / ‖g‖₂,   g = ∇_e L(e),

and trains on ``L(e) + L(e + r)``. PGD, projected gradient descent (Madry et al. 2018, "Towards Deep
Learning Models Resistant to Adversarial Attacks", ICLR, https://arxiv.org/abs/1706.06083), takes
``steps`` ascent steps from ``r₀ = 0``,

    r_{k+1} = Π_{‖r‖₂ ≤ ε}(r_k + α · g_k / ‖g_k‖₂),   g_k = ∇_r L(e + r_k),

and trains on ``L(e) + L(e + r_K)``. Norms are taken per example, over all of its token embeddings
(Miyato et al. normalise the perturbation of a whole sequence); ``r`` is a constant (no gradient flows
through it). The defaults are the values common in NLP embedding adversarial training: ε = 1 for FGM;
ε = 1, α = 0.3, K = 3 for PGD.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import torch

from textattack_semparse.errors import ConfigurationError
from textattack_semparse.training.defaults import ADVERSARY_ALPHA, ADVERSARY_EPSILON, ADVERSARY_METHODS, ADVERSARY_STEPS


def unit_l2(tensor: torch.Tensor) -> torch.Tensor:
    """``tensor / ‖tensor‖₂`` per example (the norm over every dimension but the first); an example
    whose norm is 0 stays 0."""
    norms = tensor.flatten(1).norm(dim=1).view(-1, *([1] * (tensor.dim() - 1)))
    return torch.where(norms > 0, tensor / norms.clamp_min(torch.finfo(tensor.dtype).tiny), torch.zeros_like(tensor))


def project_onto_ball(perturbation: torch.Tensor, epsilon: float) -> torch.Tensor:
    """``perturbation`` projected onto the L2 ball of radius ``epsilon``, per example: unchanged inside
    it, scaled to norm ``epsilon`` outside."""
    norms = perturbation.flatten(1).norm(dim=1).view(-1, *([1] * (perturbation.dim() - 1)))
    return torch.where(norms > epsilon, perturbation * (epsilon / norms.clamp_min(epsilon)), perturbation)


@dataclass(frozen=True)
class EmbeddingAdversary:
    """An FGM or PGD adversary on the input embeddings.

    Args:
        method (str): ``"fgm"`` or ``"pgd"``.
        epsilon (float, default 1.0): Radius ε of the perturbation (per-example L2 norm).
        alpha (float, default 0.3): PGD's step size α (FGM ignores it).
        steps (int, default 3): PGD's number of steps K (FGM takes one step of size ε).

    Example:
        >>> EmbeddingAdversary("pgd").settings()
        {'method': 'pgd', 'epsilon': 1.0, 'alpha': 0.3, 'steps': 3}
        >>> EmbeddingAdversary("fgm", epsilon=0.5).settings()
        {'method': 'fgm', 'epsilon': 0.5}
    """

    method: str
    epsilon: float = ADVERSARY_EPSILON
    alpha: float = ADVERSARY_ALPHA
    steps: int = ADVERSARY_STEPS

    def __post_init__(self) -> None:
        if self.method not in ADVERSARY_METHODS:
            raise ConfigurationError(f"Unknown embedding adversary {self.method!r}; choose one of {', '.join(ADVERSARY_METHODS)}.")
        if not self.epsilon > 0:
            raise ConfigurationError(f"epsilon must be positive, got {self.epsilon!r}.")
        if not self.alpha > 0:
            raise ConfigurationError(f"alpha must be positive, got {self.alpha!r}.")
        if isinstance(self.steps, bool) or not isinstance(self.steps, int) or self.steps < 1:
            raise ConfigurationError(f"steps must be a positive int, got {self.steps!r}.")

    def settings(self) -> dict[str, Any]:
        """The hyper-parameters that apply to ``method`` (for reports and the model's settings)."""
        if self.method == "fgm":
            return {"method": self.method, "epsilon": self.epsilon}
        return {"method": self.method, "epsilon": self.epsilon, "alpha": self.alpha, "steps": self.steps}

    def perturbation(
        self, loss_of: Callable[[torch.Tensor], torch.Tensor], embeddings: torch.Tensor, clean_loss: torch.Tensor
    ) -> torch.Tensor:
        """The perturbation ``r`` of ``embeddings`` (detached), from the gradients of ``loss_of``.

        Args:
            loss_of: The training loss of the batch with the given input embeddings.
            embeddings: The batch's input embeddings, part of ``clean_loss``'s graph.
            clean_loss: ``loss_of(embeddings)``; its graph is kept for the training backward pass.
        """
        (gradient,) = torch.autograd.grad(clean_loss, embeddings, retain_graph=True)
        if self.method == "fgm":
            return (self.epsilon * unit_l2(gradient)).detach()
        base = embeddings.detach()
        perturbation = project_onto_ball(self.alpha * unit_l2(gradient), self.epsilon).detach()
        for _ in range(self.steps - 1):
            perturbation.requires_grad_(True)
            (gradient,) = torch.autograd.grad(loss_of(base + perturbation), perturbation)
            perturbation = project_onto_ball(perturbation.detach() + self.alpha * unit_l2(gradient), self.epsilon)
        return perturbation.detach()

    def training_loss(
        self, model: Any, inputs: Mapping[str, Any], loss_of_inputs: Callable[[dict[str, Any]], torch.Tensor]
    ) -> torch.Tensor:
        """``L(e) + L(e + r)`` for a batch: ``e`` the encoder input embeddings of ``inputs["input_ids"]``
        (``model.get_input_embeddings()``, scaled as the model scales them), ``loss_of_inputs`` the
        trainer's loss of a batch given ``inputs_embeds`` instead of ``input_ids``."""
        embeddings = model.get_input_embeddings()(inputs["input_ids"])
        rest = {key: value for key, value in inputs.items() if key != "input_ids"}

        def loss_of(perturbed: torch.Tensor) -> torch.Tensor:
            return loss_of_inputs({**rest, "inputs_embeds": perturbed})

        clean_loss = loss_of(embeddings)
        return clean_loss + loss_of(embeddings + self.perturbation(loss_of, embeddings, clean_loss))
