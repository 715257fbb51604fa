"""The LLM that writes a perturbation: named like any LLM victim, or by an environment variable.

RobuT's LeTA (Zhao et al. 2023, "RobuT: A Systematic Study of Table QA Robustness Against
Human-Annotated Adversarial Perturbations", ACL 2023, https://arxiv.org/abs/2306.14321) prompts
an LLM to write adversarial examples. The perturbations that do so here (LLM-written header
names, LLM-written question rewrites) name their LLM the same way: an ``llm`` argument, else
``SEMPARSE_PERTURBATION_LLM`` (so the stock ``textattack`` CLI can use them).
"""

from __future__ import annotations

import os

from textattack_semparse.errors import ResourceError

LLM_ENVIRONMENT_VARIABLE = "SEMPARSE_PERTURBATION_LLM"
"""The LLM victim name used when none is passed."""


def perturbation_llm_name(llm: str | None, perturbation: str, task: str) -> str:
    """``llm``, else ``SEMPARSE_PERTURBATION_LLM``.

    Args:
        llm: An LLM victim name (``hf-causal:/models/x.gguf``, ``openai:MODEL@URL``) or ``None``.
        perturbation: The perturbation's registered name, for the error message.
        task: What the LLM writes ("the new header names"), for the error message.

    Raises:
        ResourceError: Neither is set.
    """
    name = llm or os.environ.get(LLM_ENVIRONMENT_VARIABLE, "").strip()
    if not name:
        raise ResourceError(
            f"{perturbation} needs an LLM to write {task}: pass llm='hf-causal:PATH' or "
            f"llm='openai:MODEL@URL' (textattack-semparse attack --recipe-option llm=...), or set "
            f"{LLM_ENVIRONMENT_VARIABLE} to such a name (textattack-semparse list llm-backend)."
        )
    return name
