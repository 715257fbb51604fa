"""Large language models as semantic parsers by in-context learning (Zhuo et al. 2023, "On
Robustness of Prompt-based Semantic Parsing with Large Pre-trained Language Model"): prompts,
few-shot selection and the SQL in a completion."""
