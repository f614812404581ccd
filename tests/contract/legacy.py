"""Card conservation for the games that do not yet provide ``GameDef.card_audit``: their own
section-7 checkers, which assert (among the rest of section 7) that every card is accounted for
after every action. A new game provides ``card_audit`` and needs nothing here."""

from __future__ import annotations


def _yaniv(rules, players, strategies, seed, game) -> None:
    from tests.test_yaniv_engines import Auditor  # hands + stock + discard pile = deck, after every action
    from tests.yaniv_support import reference_game

    reference_game(rules, players, strategies, seed, game, check=Auditor(rules))


def _gin(rules, players, strategies, seed, game) -> None:
    from tests.test_gin_engines import check_mj_transcript, check_transcript, kernel_game

    log, out, _ = kernel_game(rules, strategies, seed, game)
    (check_mj_transcript if rules.mahjong else check_transcript)(log, rules, out)


def _two_hundred(rules, players, strategies, seed, game) -> None:
    from tests.test_two_hundred_support import check_transcript, kernel_run

    log, _, _ = kernel_run(strategies, seed, game, rules)
    check_transcript(log, rules)


CARD_CHECKS = {"yaniv": _yaniv, "gin": _gin, "two-hundred": _two_hundred}
