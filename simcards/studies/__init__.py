"""Studies on top of the play loop: compare variants, tune strategy parameters, run tournaments.
Every function returns a :class:`StudyResult` of pandas tables with 95% intervals.

    >>> from simcards.studies import compare, tune, tournament
    >>> compare("yaniv", ["israeli", "nepali"], games=2000).table
    >>> tune("yaniv", "threshold", ["call=0..5"], games=2000, adaptive=True).table
    >>> tournament("gin", ["random", "simple", "knock:max=5"], games=1000).tables["ratings"]
    >>> equilibrium("yaniv", family="threshold", params=["call=0..7"], players=2).tables["equilibrium"]

Two design rules make the comparisons sharp and honest:

* **Common random numbers.** Game *i* of seed *s* uses its own random stream, so playing the same
  game indices under two variants (same deck) or two strategy values deals the same cards. Then
  differences are computed game by game (paired), which removes most of the luck of the deal.
* **Seat rotation.** A matchup is played once per *lineup*: every assignment of the strategies to
  sides in rotation (sides are seats, or teams in Two Hundred), each on the same game indices. A
  deal is the unit of every interval: its value is the average over the lineups, so seat and
  deal luck cancel inside the unit and the interval stays honest (units are independent).

Every rate carries a 95% interval; every difference says whether it is significant (its interval
excludes 0).
"""

from simcards.studies.common import StudyResult, field_lineups, pair_lineups
from simcards.studies.compare import compare
from simcards.studies.equilibrium import equilibrium
from simcards.studies.tournament import tournament
from simcards.studies.tune import parse_values, tune

__all__ = ["StudyResult", "compare", "equilibrium", "field_lineups", "pair_lineups", "parse_values", "tournament", "tune"]
