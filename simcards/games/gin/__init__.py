"""Gin Rummy: rules, engines and strategies (see ../shared/rules/gin-rummy.md).

``min_deadwood(cards)`` and ``best_melds(cards)`` answer single-hand questions exactly."""

from simcards.games.gin.melds import Arrangement, best_melds, min_deadwood  # noqa: F401
