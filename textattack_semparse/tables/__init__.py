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

ROBUT_QUESTION_PERTURBATIONS = ("robut-word", "robut-word-wordnet", "robut-sentence", "robut-sentence-backtranslation")
"""RobuT's word- and sentence-level question perturbations by rule or model, by their registered
names (each also a recipe of that name)."""

ROBUT_LLM_QUESTION_PERTURBATIONS = ("robut-word-llm", "robut-sentence-llm")
"""RobuT's word- and sentence-level question perturbations written by an LLM (LeTA's prompting),
each also a recipe of that name."""

ROBUT_LLM_PERTURBATIONS = (*ROBUT_LLM_TABLE_PERTURBATIONS, *ROBUT_LLM_QUESTION_PERTURBATIONS)
"""Every perturbation an LLM writes (they take ``llm=``)."""

ROBUT_RTA_PERTURBATIONS = (*ROBUT_TABLE_PERTURBATIONS, "robut-word")
"""What ``robut-rta`` augments with: RobuT's RTA baseline, its rule-based header and content
perturbations and BERT-Attack-style word substitutions in the question (a masked LM)."""

ROBUT_RTA_OFFLINE_PERTURBATIONS = (*ROBUT_TABLE_PERTURBATIONS, "robut-word-wordnet")
"""``robut-rta-offline``: RTA with WordNet synonyms for the masked LM's words (no model needed)."""

ROBUT_LETA_PERTURBATIONS = (*ROBUT_TABLE_PERTURBATIONS[2:], *ROBUT_LLM_PERTURBATIONS)
"""What ``robut-leta`` augments with: header names and word- and sentence-level question rewrites
an LLM writes; the content perturbations stay rule-based (RobuT's LeTA prompts the LLM for them
too)."""
