"""Scoring: where a benchmark's gold outputs run and how predictions are compared with them.

No TextAttack import here: the goal functions, ``evaluate`` and the robustness evaluation all
judge predictions through :class:`~textattack_semparse.scoring.scoring.Scoring`.
"""

from textattack_semparse._lazy import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Databases": "databases",
        "ExactMatchScorer": "exact_match_scorer",
        "ExecutionScorer": "execution_scorer",
        "GoldError": "scorer",
        "Judgement": "scoring",
        "MeasuredDistance": "scorer",
        "Outcome": "outcome",
        "Score": "scorer",
        "Scorer": "scorer",
        "Scoring": "scoring",
        "TableAnswerScorer": "table_answer_scorer",
    },
)
