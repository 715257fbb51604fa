"""Tables for Table QA (RobuT, Zhao et al. 2023): the table record and how it travels with a question."""

ROBUT_TABLE_PERTURBATIONS = (
    "header-synonym",
    "header-abbreviation",
    "row-shuffle",
    "column-shuffle",
    "column-extension",
    "column-masking",
    "column-adding",
)
"""RobuT's header and content perturbations, by their registered names (each also a ``robut-<name>`` recipe)."""

ROBUT_LLM_TABLE_PERTURBATIONS = ("llm-header-synonym", "llm-header-abbreviation")
"""RobuT's header perturbations written by an LLM (its LeTA augmentation), by their registered
names (each also a ``robut-<name>`` recipe); they need an LLM victim name."""

ROBUT_AUGMENTATION_PERTURBATIONS = (*ROBUT_TABLE_PERTURBATIONS, "deletion")
"""What ``robut-lapt`` augments with: RobuT's seven header and content perturbations and an
offline question perturbation (Huang et al.'s function-word deletion) standing in for its
question-level ones; ``robut-leta`` adds :data:`ROBUT_LLM_TABLE_PERTURBATIONS`."""
