"""The chance of winning a game of more than two sides: the score-process Monte Carlo of
``simcards.table.value`` (``WinProcess``) with Yaniv's and Two Hundred's steps, and the advice and
analysis that read it (docs/advice.md)."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.spec import RunSpec
from simcards.table.value import RoundLaw, WinProcess, win_process, win_table

Z99 = 2.5758293035489004


def _ci(x: np.ndarray, z: float = Z99) -> tuple[float, float]:
    return float(x.mean()), z * float(x.std(ddof=1)) / np.sqrt(len(x))


def _yaniv_state(process, scores, starter):
    from simcards.games.yaniv.analysis import S_ALIVE_N, S_SEATS, S_STARTER

    p = process.players
    st = np.zeros(process.width, dtype=np.int64)
    st[S_ALIVE_N] = p
    st[S_STARTER] = starter
    st[S_SEATS:S_SEATS + p] = scores
    st[S_SEATS + p:S_SEATS + 2 * p] = 1
    return st


@pytest.mark.parametrize("a,b,starter", [(0, 0, 0), (150, 100, 0), (100, 150, 1), (190, 60, 1), (30, 170, 0)])
def test_two_yaniv_players_agree_with_the_value_table(a, b, starter):
    """Y-ELIM-1/2, Y-RESET-1, Y-START-2: with two players the Monte Carlo (the round law of the
    same self-play, the game's own step) gives the dynamic programme's chance within its 99%
    interval (ten comparisons in this file: 99% each), 2,000 states x 16 continuations."""
    rules = RunSpec.resolve("yaniv", players=2).rules
    table = win_table("yaniv", rules)
    wp = win_process("yaniv", rules, 2)
    st = _yaniv_state(wp.process, (a, b), starter)
    m, h = _ci(wp.win_chance(np.repeat(st[None], 2000, axis=0), 0))
    exact = table.p_win(-a, -b, starter == 0)
    assert abs(m - exact) <= h, (m, h, exact)


@pytest.mark.parametrize("a,b,dealer", [(0, 0, 0), (150, 0, 1), (-150, 0, 0), (180, 175, 2), (-100, 100, 3)])
def test_two_hundred_teams_agree_with_the_value_table(a, b, dealer):
    """T-END-1/2, T-SC-3, T-DEAL-1: Two Hundred's two teams, the Monte Carlo against the dynamic
    programme (team 0 deals when the dealer's seat is even) within the 99% interval."""
    from simcards.games.two_hundred.analysis import S_DEALER, S_MASK, S_SCORES

    rules = RunSpec.resolve("two-hundred").rules
    table = win_table("two-hundred", rules)
    wp = win_process("two-hundred", rules, 4)
    st = np.zeros(wp.process.width, dtype=np.int64)
    st[S_DEALER], st[S_MASK], st[S_SCORES:S_SCORES + 2] = dealer, 0b11, (a, b)
    m, h = _ci(wp.win_chance(np.repeat(st[None], 2000, axis=0), 0))
    exact = table.p_win(a, b, dealer % 2 == 0)
    assert abs(m - exact) <= h, (m, h, exact)


def _three_player_law():
    """A made-up round law of three rows with three players in and three with two, each row
    ``[caller's place from the starter, totals in play order from the starter]``."""
    three = np.array([[0, 3, 20, 15, 0],  # the starter (seat 0) wins the call: 210 and 210, both out
                      [1, 10, 4, 12, 0],  # seat 1 calls with 4 and wins: seat 0 160, seat 2 207 (out)
                      [2, 5, 9, 5, 0]],  # seat 2 calls with 5, seat 0 holds 5: Asaf, seat 2 230 (out)
                     dtype=np.int64)
    two = np.array([[0, 3, 50, 0, 0],  # the starter calls and wins, the other +50: out
                    [1, 60, 4, 0, 0],  # the other calls and wins, the starter +60: out
                    [0, 2, 70, 0, 0]], dtype=np.int64)  # as the first row
    return RoundLaw({3: three, 2: two}, 6)


def test_three_players_one_elimination_away_match_the_exact_chance():
    """Y-SC-1 (the caller strictly lowest scores 0, the others their hands), Y-SC-2 (Asaf: the
    caller adds its total + 30), Y-ELIM-1 (over 200 is out), Y-START-2 (the lowest hand among those
    still in starts): at 150, 190, 195 with seat 0 starting, every round of the law above ends the
    game or leaves two players whom the next round separates. By hand: row 1 -> seat 0 wins; row 2
    -> seats 0 (160) and 1 (190) left, seat 1 (the lowest hand, 4) starts, and the starter wins 2
    of the 3 two-player rows: seat 0 wins 1/3; row 3 -> seats 0 (155) and 1 (199) left, seat 0
    (5 against 9) starts: seat 0 wins 2/3. So seat 0 wins (1 + 1/3 + 2/3) / 3 = 2/3, seat 1 1/3,
    seat 2 never."""
    rules = RunSpec.resolve("yaniv", players=3).rules
    from simcards.games.yaniv.analysis import score_process

    process = score_process(rules, 3)
    wp = WinProcess(process, _three_player_law(), {}, continuations=8, seed=3)
    st = np.repeat(_yaniv_state(process, (150, 190, 195), 0)[None], 3000, axis=0)
    for seat, exact in ((0, 2 / 3), (1, 1 / 3)):
        m, h = _ci(wp.win_chance(st, seat))
        assert abs(m - exact) <= h and h < 0.01, (seat, m, h)
    assert (wp.win_chance(st[:50], 2) == 0).all()
    # a round given as it ended: the first row decides at once, the third as computed above
    first = np.tile(_three_player_law().pools[3][[0, 2]], (25, 1))
    w = wp.win_chance(st[:50], 0, outcomes=first)
    assert (w[::2] == 1.0).all() and abs(w[1::2].mean() - 2 / 3) < 0.1


def test_the_win_chance_is_reproducible_for_a_seed():
    """The same position, samples and seed give the same win chances, number for number; another
    seed draws other continuations."""
    import simcards

    pos = "hand 7s 7h 8h 9h Kd; take 4c; sizes 5 4; score 120-35-150"
    a = simcards.advise("yaniv", pos, players=3, samples=60, seed=4)
    b = simcards.advise("yaniv", pos, players=3, samples=60, seed=4)
    c = simcards.advise("yaniv", pos, players=3, samples=60, seed=5)
    assert a.wins is not None and np.array_equal(a.wins, b.wins)
    assert c.wins is not None and not np.array_equal(a.wins[:, 0], c.wins[:, 0])


def test_four_players_every_option_has_a_win_chance_and_a_round_that_ends_the_game_is_certain():
    """Y-SC-1, Y-ELIM-1, Y-RESET-1: four players, the three others at 195-197. Every sampled deal
    in which calling with 2 wins the round and takes all three others over 200 (their totals, the
    rules' resets of exactly 200 aside) is a won game, worth exactly 1; every option has a win
    chance with an interval, and calling (which took all three out in every sampled deal) is best."""
    import simcards
    from simcards.games.yaniv.advice import ADVICE
    from simcards.games.yaniv.position import position_args
    from simcards.rng import new_state
    from simcards.table.advise import mc_params, table_for

    pos = "hand Ad As; take 9h; sizes 5 5 5; score 20-195-196-197"
    adv = simcards.advise("yaniv", pos, samples=300, seed=1)
    assert adv.wins is not None and all(o.win is not None and o.win_ci is not None for o in adv.options)
    call = next(o for o in adv.options if o.label == "call Yaniv")
    assert adv.best.index == call.index and call.win == 1.0 and call.win_ci == (1.0, 1.0)
    rules = RunSpec.resolve("yaniv").rules
    args, labels = position_args({"hand": "Ad As", "take": "9h", "sizes": "5 5 5", "score": "20-195-196-197"},
                                 rules, 4)
    vals = ADVICE.values(args, mc_params("yaniv", rules), 300, new_state(1, 0))
    wins = ADVICE.wins(table_for("yaniv", rules, 4).seeded(1), args, (20, 195, 196, 197), vals)
    a = labels.index("call Yaniv")
    deal = vals.deal[:, a]
    others = deal[:, 4:7] + np.array([195, 196, 197])
    ended = (deal[:, 2] == 0) & (deal[:, 4:7] > 2).all(axis=1) & (others > 200).all(axis=1)
    assert ended.sum() > 200 and (wins[ended, a] == 1.0).all()


def test_a_planted_four_player_blunder_is_marked_by_the_win_chance_it_lost():
    """A four-player game (seed 1, game 0, all four still in at 52-136-77-67): seat 0 throws its
    joker at its 89th decision where threshold threw the 4h 5h Jk run. Marked ?? by the win chance
    lost (8 points or more, the paired interval clear of it being 0); threshold's own move there
    is not marked."""
    import simcards

    played = simcards.analyze("yaniv", seed=1, game_index=0, samples=100)
    planted = simcards.analyze("yaniv", seed=1, game_index=0, samples=100, plays={89: "throw Jk"})
    own, bad = played.decisions[88], planted.decisions[88]
    assert own.number == bad.number == 89 and bad.played_label == "throw Jk" and own.played_label != "throw Jk"
    assert own.advice is not None and own.advice.wins is not None and own.mark != "??"
    assert bad.mark == "??" and bad.win_lost >= 0.08 and bad.win_lost_ci[0] > 0
    assert planted.costliest(1)[0].number == 89


def test_two_hundred_cutthroat_near_the_target():
    """T-END-1 (a side at the target wins; the contract side first), T-V-CUT (four players each on
    their own): at 185 against 0, 0, 0, every option of the bid has a win chance; every sampled deal
    in which the seat holds the contract and scores 15 or more is a won game (exactly 1), and one in
    which another player's contract takes it to the target while the seat stays under is lost (0)."""
    import simcards

    adv = simcards.advise("two-hundred", "hand s:AKQ h:AK d:AK c:AK; dealer 3; score 185-0-0-190", variant="cutthroat",
                          samples=200, seed=2)
    assert adv.wins is not None and all(o.win_ci is not None for o in adv.options)
    from simcards.games.two_hundred.advice import ADVICE
    from simcards.games.two_hundred.position import position_args
    from simcards.rng import new_state
    from simcards.table.advise import mc_params, table_for

    rules = RunSpec.resolve("two-hundred", variant="cutthroat").rules
    args, _ = position_args({"hand": "s:AKQ h:AK d:AK c:AK", "dealer": "3", "score": "185-0-0-190"}, rules, 4)
    vals = ADVICE.values(args, mc_params("two-hundred", rules), 200, new_state(1, 0))
    wins = ADVICE.wins(table_for("two-hundred", rules, 4).seeded(1), args, (185, 0, 0, 190), vals)
    deal = vals.deal
    mine_made = (deal[:, :, 3] == 0) & (deal[:, :, 4] >= 15)
    theirs = (deal[:, :, 3] == 3) & (deal[:, :, 7] >= 10) & (deal[:, :, 4] < 15)
    assert mine_made.sum() > 50 and (wins[mine_made] == 1.0).all()
    assert (wins[theirs] == 0.0).all()
    best = adv.best
    assert best.label != "pass" and best.win is not None and best.win > 0.5


def test_three_player_game_with_two_left_at_the_limit_matches_the_brute_force_over_the_law():
    """Y-SC-1/2, Y-ELIM-1/2 with the real round law of three-player self-play (resets off,
    Y-V-RESET (e), so a score of exactly 200 stays): seat 1 is out, seats 0 and 2 are both at 200,
    so any round scoring a player more than 0 takes it out. The caller who wins (strictly lowest,
    Y-SC-1) scores 0 and the other at least 1: the caller wins the game; on an Asaf (Y-SC-2) the
    caller scores 30 or more and the other its hand, at most the caller's: the other is left or has
    the lower total (Y-ELIM-2): the other wins. The exact chance is therefore a count over every
    round of the two-player pool (the starter is seat 0, first in play order); the Monte Carlo
    agrees within its 99% interval."""
    rules = RunSpec.resolve("yaniv", players=3, rules={"resets": "none"}).rules
    wp = win_process("yaniv", rules, 3)
    pool = wp.law.pools[2]
    caller, first, second = pool[:, 0], pool[:, 1], pool[:, 2]
    assert not ((caller < 0) & (first == second)).any()  # no turn-cap tie (a play-off) in the pool
    starter_wins = np.where(caller == 0, first < second,
                            np.where(caller == 1, first <= second, first < second))
    exact = float(starter_wins.mean())
    from simcards.games.yaniv.analysis import S_ALIVE_N, S_SEATS, S_STARTER

    st = np.zeros(wp.process.width, dtype=np.int64)
    st[S_ALIVE_N], st[S_STARTER] = 2, 0
    st[S_SEATS:S_SEATS + 3] = (200, 215, 200)
    st[S_SEATS + 3:S_SEATS + 6] = (1, 0, 1)
    states = np.repeat(st[None], 3000, axis=0)
    m, h = _ci(wp.win_chance(states, 0))
    assert 0.2 < exact < 0.8 and abs(m - exact) <= h, (m, h, exact)
    m2, _ = _ci(wp.win_chance(states, 2))
    assert abs(m + m2 - 1.0) < 1e-12 and (wp.win_chance(states[:20], 1) == 0).all()
