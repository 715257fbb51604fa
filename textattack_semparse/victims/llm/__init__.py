"""Large language models as semantic parsers by in-context learning (Zhuo et al. 2023, "On
Robustness of Prompt-based Semantic Parsing with Large Pre-trained Language Model"): prompts,
few-shot selection, the response cache and the SQL in a completion."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "CausalLMParser": "causal_lm_parser",
        "OpenAIParser": "openai_parser",
        "PromptedParser": "prompted_parser",
    },
)
