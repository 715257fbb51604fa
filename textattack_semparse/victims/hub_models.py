"""The hub models the registered Table QA victims stand for, named where the registry can read
them without importing the victims' modules (torch, transformers)."""

TAPAS_WTQ = "google/tapas-base-finetuned-wtq"
"""TAPAS (Herzig et al. 2020) fine-tuned on WTQ: ``--model tapas-wtq``, :class:`TapasParser`'s default."""
TAPEX_WTQ = "microsoft/tapex-large-finetuned-wtq"
"""TAPEX (Liu et al. 2022) fine-tuned on WTQ: ``--model tapex-wtq``, :class:`TapexParser`'s default."""
OMNITAB_WTQ = "neulab/omnitab-large-finetuned-wtq"
"""OmniTab (Jiang et al. 2022) fine-tuned on WTQ, TAPEX's architecture: ``--model omnitab-wtq``."""
