"""Analysis on top of ``simcards.simulate``: compare variants, tune strategy parameters, run
tournaments. Every function returns a :class:`StudyResult` of pandas tables with 95% intervals.

    >>> from simcards.analysis import compare, tune, tournament
    >>> compare("yaniv", ["israeli", "nepali"], games=2000).table
    >>> tune("yaniv", "threshold", ["call=0..5"], games=2000, adaptive=True).table
    >>> tournament("gin", ["random", "simple", "knock:max=5"], games=1000).tables["ratings"]
"""

from simcards.analysis.metrics import REGISTRY, GameMetrics, metrics_for
from simcards.analysis.stats import (Ratings, bradley_terry, newcombe_diff, paired_diff, paired_ratio_diff,
                                     ratio_diff, significant, welch_diff, z_for)
from simcards.analysis.study import (StudyResult, compare, field_lineups, pair_lineups, parse_values, tournament,
                                     tune)

__all__ = [
    "REGISTRY", "GameMetrics", "metrics_for", "Ratings", "bradley_terry", "newcombe_diff", "paired_diff",
    "paired_ratio_diff", "ratio_diff", "significant", "welch_diff", "z_for", "StudyResult", "compare",
    "field_lineups", "pair_lineups", "parse_values", "tournament", "tune",
]
