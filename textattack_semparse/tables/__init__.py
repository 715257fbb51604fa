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
