"""Goal functions: execution match, exact match."""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "ExactMatch": "exact_match",
        "ExecutionMatch": "execution_match",
        "SemanticParsingGoalFunction": "semantic_parsing_goal_function",
    },
)
