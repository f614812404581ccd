"""Equilibria, α-rank and skill versus luck on games whose answers are known (simcards.stats.equilibrium)."""

import math

import numpy as np
import pytest

from simcards.stats.equilibrium import (
    SymmetricGame,
    alpha_rank,
    games_to_be_sure,
    match_win_probability,
    skill_share,
    symmetric_nash,
    symmetric_profiles,
    zero_sum_nash,
)

RPS = np.array([[0, -1, 1], [1, 0, -1], [-1, 1, 0]], dtype=float)


def test_profiles_are_the_multisets_of_strategies():
    for k, n in [(2, 2), (3, 4), (5, 3), (8, 4)]:
        p = symmetric_profiles(k, n)
        assert len(p) == math.comb(k + n - 1, n)
        assert (p.sum(axis=1) == n).all() and len({tuple(r) for r in p}) == len(p)


def test_rock_paper_scissors_is_uniform_by_the_linear_program():
    eq = symmetric_nash(SymmetricGame.from_matrix(RPS))
    assert eq.method.startswith("linear program")
    np.testing.assert_allclose(eq.mixture, [1 / 3] * 3, atol=1e-9)
    assert eq.max_regret < 1e-9


def test_rock_paper_scissors_as_win_rates_is_uniform_too():
    # the same game as a constant-sum table of win shares (win 1, tie 1/2, loss 0)
    eq = symmetric_nash(SymmetricGame.from_matrix((RPS + 1) / 2))
    np.testing.assert_allclose(eq.mixture, [1 / 3] * 3, atol=1e-9)


def test_a_known_zero_sum_lp_answer():
    # row player's game: mixture (2/5, 3/5) against any column, value 1/5 (checked by hand:
    # 2/5·2 + 3/5·(−1) = 1/5 and 2/5·(−1) + 3/5·1 = 1/5)
    a = np.array([[2.0, -1.0], [-1.0, 1.0]])
    x, v = zero_sum_nash(a)
    np.testing.assert_allclose(x, [2 / 5, 3 / 5], atol=1e-9)
    assert v == pytest.approx(1 / 5)


def test_a_dominated_strategy_gets_no_weight_in_a_four_player_game():
    # strategy 2 is strictly dominated (always 0.1 below strategy 0 in the same profile);
    # 0 and 1 are a hawk-dove pair, so the equilibrium mixes them
    def payoff(c, i):
        others = c.copy()
        others[i] -= 1
        share0 = (others[0] + others[2]) / 3  # 2 looks like 0 to the others
        base = {0: 1 - 2 * share0, 1: 0.5 - share0 * 0.5, 2: 1 - 2 * share0 - 0.1}[i]
        return base

    game = SymmetricGame.from_function(3, 4, payoff)
    eq = symmetric_nash(game)
    assert eq.method == "replicator dynamics"
    assert eq.mixture[2] < 1e-6
    assert eq.max_regret < 1e-6
    assert eq.mixture[0] > 0.05 and eq.mixture[1] > 0.05


def test_regret_is_positive_off_equilibrium_and_a_pure_dominant_strategy_wins():
    # prisoner's dilemma: defect (1) dominates
    game = SymmetricGame.from_matrix(np.array([[3.0, 0.0], [5.0, 1.0]]))
    assert game.regrets(np.array([1.0, 0.0]))[1] > 0
    eq = symmetric_nash(game)
    np.testing.assert_allclose(eq.mixture, [0, 1], atol=1e-6)


def test_coordination_games_report_several_equilibria():
    game = SymmetricGame.from_matrix(np.array([[2.0, 0.0], [0.0, 1.0]]))
    eq = symmetric_nash(game)
    assert eq.found >= 2 and eq.max_regret < 1e-6


def test_alpha_rank_puts_the_mass_on_the_dominant_strategy_and_is_uniform_on_a_cycle():
    pd_game = SymmetricGame.from_matrix(np.array([[3.0, 0.0], [5.0, 1.0]]))
    pi = alpha_rank(pd_game, alpha=50)
    assert pi[1] > 0.99
    pi = alpha_rank(SymmetricGame.from_matrix(RPS), alpha=50)
    np.testing.assert_allclose(pi, [1 / 3] * 3, atol=1e-9)


def test_match_length_for_a_sure_win():
    assert match_win_probability(0.6, 1) == pytest.approx(0.6)
    assert match_win_probability(0.6, 3) == pytest.approx(0.6 ** 3 + 3 * 0.6 ** 2 * 0.4)
    assert match_win_probability(0.6, 2) == pytest.approx(0.36 + 0.48 / 2)
    n = games_to_be_sure(0.6)
    assert match_win_probability(0.6, n) >= 0.95 > match_win_probability(0.6, n - 2)
    assert games_to_be_sure(0.5) is None and games_to_be_sure(0.99) == 1


def test_variance_decomposition_finds_a_planted_skill_difference():
    rng = np.random.default_rng(3)
    effects = np.array([-0.3, 0.0, 0.3])  # between-strategy variance 0.06
    groups = np.repeat(np.arange(3), 20_000)
    y = effects[groups] + rng.normal(0, 1.0, len(groups))  # within variance 1
    share, between, within = skill_share(y, groups)
    assert between == pytest.approx(0.06, abs=0.01)
    assert within == pytest.approx(1.0, abs=0.03)
    assert share == pytest.approx(0.06 / 1.06, abs=0.01)
    # no planted difference: the share is near 0, not the noise of the means
    share0, _, _ = skill_share(rng.normal(0, 1.0, len(groups)), groups)
    assert share0 < 0.001


def test_two_way_decomposition_separates_skill_from_seat_and_luck():
    from simcards.stats.equilibrium import variance_shares

    rng = np.random.default_rng(7)
    games = 30_000
    # two strategies on two seats, rotated: strategy effect ±0.2, first seat +0.1, noise sd 1
    strategy = np.tile([0, 1, 1, 0], games)
    seat = np.tile([0, 1, 0, 1], games)
    y = np.where(strategy == 0, 0.2, -0.2) + np.where(seat == 0, 0.1, -0.1) + rng.normal(0, 1, strategy.size)
    v = variance_shares(y, strategy, seat)
    assert v["skill"] == pytest.approx(0.04, abs=0.005)
    assert v["seat"] == pytest.approx(0.01, abs=0.005)
    assert v["luck"] == pytest.approx(1.0, abs=0.03)
    assert v["skill_share"] + v["seat_share"] + v["luck_share"] == pytest.approx(1.0)
    nothing = variance_shares(rng.normal(0, 1, strategy.size), strategy, seat)
    assert nothing["skill_share"] < 0.001 and nothing["seat_share"] < 0.001


# ----- issue 28, item 4: an equilibrium near a tie --------------------------------------------------
def _near_tie_sums(rng, deals: int = 1000, edge: float = 0.002):
    """Two strategies, two sides: A against A or B against B wins exactly half (seat rotation);
    B wins 50% − ``edge`` of its games against A (2 seatings a deal). The equilibrium is pure A
    and B's regret against it is −edge."""
    from simcards.studies.equilibrium import PayoffSums

    profiles = symmetric_profiles(2, 2)  # [2, 0], [1, 1], [0, 2]
    sums = PayoffSums.empty(len(profiles), 2)
    half = np.full(deals, 0.5)
    sums.add(0, 0, np.vstack([half, np.zeros(deals)]))
    b = rng.binomial(2, 0.5 - edge, deals) / 2
    sums.add(1, 0, np.vstack([1 - b, b]))
    sums.add(2, 0, np.vstack([np.zeros(deals), half]))
    return profiles, sums


def test_regret_intervals_near_a_tie_come_from_each_resamples_own_equilibrium():
    """A planted pure equilibrium whose alternative loses 0.2 points: the estimate picks the wrong
    side of the tie about 40% of the time. Regrets resampled at the one estimated mixture then
    give B a regret of 0 on every resample whenever B was picked (issue 28: 68% coverage); at each
    resample's own equilibrium they cover B's true regret, −0.2 points."""
    from simcards.studies.equilibrium import _game, bootstrap_equilibria

    rng = np.random.default_rng(28)
    runs, reps, truth = 30, 60, -0.002
    own = fixed = wrong = 0
    for r in range(runs):
        profiles, sums = _near_tie_sums(rng)
        eq = symmetric_nash(_game(2, profiles, sums.means()))
        wrong += eq.mixture[1] > 1e-3
        mix_b, reg_b = bootstrap_equilibria(2, profiles, sums, reps, seed=r)
        lo, hi = np.quantile(reg_b[:, 1], [0.025, 0.975])
        own += min(lo, eq.regrets[1]) <= truth <= max(hi, eq.regrets[1])
        assert mix_b.shape == reg_b.shape == (reps, 2)
        rng_b = np.random.default_rng(r)  # the old way: the same resamples, regrets at the estimate
        at_estimate = []
        for _ in range(reps):
            w = rng_b.multinomial(64, np.full(64, 1 / 64)).astype(float)
            at_estimate.append(_game(2, profiles, sums.means(w)).regrets(eq.mixture)[1])
        lo, hi = np.quantile(at_estimate, [0.025, 0.975])
        fixed += lo <= truth <= hi
    assert 0.2 < wrong / runs < 0.7  # the support is a coin toss at this many deals
    assert fixed / runs < 0.8  # what the fixed mixture gave
    assert own / runs >= 0.85, own / runs


def test_payoff_cells_get_the_exact_widening_near_0_and_1():
    """A strategy that won 2 of its 400 deals in a profile: the normal interval over deals is far
    too narrow there; the cell's interval contains the exact binomial one, as every other rate."""
    from simcards.stats.estimates import exact_proportion
    from simcards.studies.equilibrium import PayoffSums

    profiles = symmetric_profiles(2, 2)
    sums = PayoffSums.empty(3, 2)
    deals = 400
    won = np.zeros(deals)
    won[[17, 230]] = 1.0
    sums.add(0, 0, np.vstack([np.full(deals, 0.5), np.zeros(deals)]))
    sums.add(1, 0, np.vstack([1 - won, won]))
    sums.add(2, 0, np.vstack([np.zeros(deals), np.full(deals, 0.5)]))
    low, high = sums.intervals(profiles > 0)
    el, eh = exact_proportion(2, deals)
    assert low[1, 1] <= el and high[1, 1] >= eh and low[1, 1] >= 0
    assert high[1, 0] >= 1 - el and high[1, 0] <= 1  # the other side of the same cell
    assert (low[0, 0], high[0, 0]) == (0.5, 0.5)  # self-play: exactly the fair share on every deal


# ----- issue 28, items 5 and 11: no α-rank; the payoff matrix with its intervals -------------------
def _near_tie_result():
    """An equilibrium study's result built from the near tie above (no engine): the tables the
    study writes, from the study's own functions."""
    import pandas as pd

    from simcards.studies.common import StudyResult
    from simcards.studies.equilibrium import _game, _invasion_table, bootstrap_equilibria, equilibrium_rows

    profiles, sums = _near_tie_sums(np.random.default_rng(3))
    names = ["A", "B"]
    eq = symmetric_nash(_game(2, profiles, sums.means()))
    mix_b, reg_b = bootstrap_equilibria(2, profiles, sums, 200, seed=1)
    low, high = sums.intervals(profiles > 0)
    tables = {"equilibrium": pd.DataFrame(equilibrium_rows(names, eq, mix_b, reg_b)),
              "invasion": _invasion_table(names, profiles, sums.means(), low, high, 2)}
    summary = {"max_regret": eq.max_regret, "method": eq.method, "equilibria_found": 1, "games_played": 6000,
               "profiles": 3, "flat_grid_games": 6000, "fair_share": 0.5, "edges": []}
    return StudyResult("equilibrium", "near tie", tables, summary, [], {"bootstrap": 200})


def test_equilibrium_tables_show_the_payoff_intervals_and_no_alpha_rank():
    from simcards.report.build import display_tables, equilibrium_answer

    res = _near_tie_result()
    assert not any("alpha" in c for c in res.tables["equilibrium"].columns)
    tables = dict(display_tables(res))
    eq_caption = next(c for c in tables if c.startswith("Symmetric equilibrium"))
    assert "α-rank" not in tables[eq_caption].columns and "own equilibrium" in eq_caption
    inv_caption = next(c for c in tables if c.startswith("Win share of one player"))
    cells = tables[inv_caption].set_index("row among column →")
    assert cells.loc["B", "A"].count("[") == 1 and cells.loc["A", "A"] == "50.0% [50.0, 50.0]"
    answer = equilibrium_answer(res)
    text = " ".join(answer["lead"] + answer["sentences"])
    assert "α-rank" not in text
    share = float(res.tables["equilibrium"].set_index("strategy").loc["B", "in_support_share"])
    assert 0.05 < share < 0.95 and "Not settled by these games: **" in text  # a near tie is not settled
