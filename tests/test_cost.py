"""The cost of a strategy (``tournament(..., cost=REF)``, ``simcards.studies.cost``): every game's
count of a seat's decisions agrees with its kernel transcript, the cost table sums the decisions
of the measured strategy's seats only, and its rates are the counts over the clocked seconds."""

from __future__ import annotations

import numpy as np
import pytest

import simcards.games
from simcards.errors import SimcardsError
from simcards.games import get_game
from simcards.studies import tournament
from simcards.studies.common import Arena
from tests.contract.registry import TEST_GAMES

SEED = 11


@pytest.fixture
def high_card(monkeypatch):
    for name, module in TEST_GAMES.items():
        monkeypatch.setitem(simcards.games.GAMES, name, module)


def hook_counts(game: str, specs: list[str], first: int, count: int, variant: str | None = None) -> np.ndarray:
    """Per game and seat, the game's ``seat_decisions`` on the batch's own tables."""
    t = Arena(game, variant)
    games, units = t.play([t.strategy(s) for s in specs], SEED, first, count, detail=True)
    return t.m.seat_decisions(games, units, t.players)


def transcript_counts(game: str, specs: list[str], first: int, count: int, is_decision,
                      variant: str | None = None) -> np.ndarray:
    """Per game and seat, the decisions counted event by event in the kernel's transcript."""
    gdef = get_game(game)
    t = Arena(game, variant)
    strategies = gdef.strategies(specs, t.players)
    out = np.zeros((count, t.players), dtype=np.int64)
    for i, g in enumerate(range(first, first + count)):
        log, _ = gdef.transcripts(t.rules, t.players, strategies, SEED, g)
        for row in log:
            if is_decision(row):
                out[i, int(row[2])] += 1
    return out


def test_toy_game_count_matches_its_transcript(high_card):
    """H-PLAY-2: each seat plays one card a round."""
    from tests.toygame import kernel as K

    specs = ["random", "greedy"]
    assert (hook_counts("high-card", specs, 0, 25) ==
            transcript_counts("high-card", specs, 0, 25, lambda r: r[0] == K.EV_PLAY)).all()


class FakeClock:
    """Every reading moves the wall clock by 0.5 s and the CPU clock by 0.25 s."""

    def __init__(self):
        self.n = 0

    def __call__(self):
        self.n += 1
        return 0.5 * self.n, 0.25 * self.n


def test_cost_table_counts_the_measured_seats_and_divides_by_the_clock(high_card, monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr("simcards.studies.cost.clocks", clock)
    games = 30
    res = tournament("high-card", ["random", "greedy"], games=games, seed=SEED, cost="greedy", threads=1)
    cost = res.tables["cost"].set_index("strategy")
    # random's matchup: two seat rotations (random at seat 0, then at seat 1) on the same deals
    mine = [hook_counts("high-card", ["random", "greedy"], 0, games)[:, 0].sum(),
            hook_counts("high-card", ["greedy", "random"], 0, games)[:, 1].sum()]
    r = cost.loc["random"]
    assert r["games"] == 2 * games and r["decisions"] == sum(mine)
    # two clocked plays (one per rotation), each 0.5 s of wall clock and 0.25 s of CPU
    assert r["wall_seconds"] == pytest.approx(1.0) and r["cpu_seconds"] == pytest.approx(0.5)
    assert r["games_per_s"] == pytest.approx(2 * games / 1.0)
    assert r["decisions_per_s"] == pytest.approx(sum(mine) / 1.0)
    assert r["decisions_per_cpu_s"] == pytest.approx(sum(mine) / 0.5)
    # the reference's own row: self-play on as many games, one clocked play, every seat counted
    g = cost.loc["greedy"]
    both = hook_counts("high-card", ["greedy", "greedy"], 0, 2 * games).sum()
    assert g["games"] == 2 * games and g["decisions"] == both
    assert g["games_per_s"] == pytest.approx(2 * games / 0.5)
    assert g["decisions_per_game"] == pytest.approx(both / (2 * games))
    assert clock.n == 6  # two readings per clocked play: the engine warm-up is off the clock
    assert res.meta["cost"]["reference"] == "greedy" and res.meta["cost"]["decision_unit"] == "cards played"


def test_cost_reference_must_be_a_player(high_card):
    with pytest.raises(SimcardsError, match="cost reference must be one of the strategies"):
        tournament("high-card", ["random", "greedy"], games=5, cost="greedy:lead_high=0")


def test_yaniv_turns_match_the_transcript():
    """Y-PLAY-2 (eliminated players skipped, both directions), Y-CALL-1: a turn is a discard, or the call."""
    from simcards.games.yaniv import layout as L

    turn = lambda r: r[0] == L.EV_DISCARD or (r[0] == L.EV_CALL and r[4] == 1)  # noqa: E731
    for variant in ("israeli", "nepali"):  # clockwise, counterclockwise
        specs = ["threshold"] * 4
        assert (hook_counts("yaniv", specs, 0, 3, variant) ==
                transcript_counts("yaniv", specs, 0, 3, turn, variant)).all()


def test_gin_turns_match_the_transcript():
    """G-FIRST-1: the upcard taker or the non-dealer moves first; a turn draws once."""
    from simcards.games.gin import layout as L

    specs = ["simple", "simple"]
    assert (hook_counts("gin", specs, 0, 3) ==
            transcript_counts("gin", specs, 0, 3, lambda r: r[0] == L.EV_DRAW)).all()


def test_two_hundred_cards_played_match_the_transcript():
    """T-PLAY-1: every seat plays its whole hand in a deal not thrown in (T-BID-5)."""
    from simcards.games.two_hundred import layout as L

    specs = ["heuristic"] * 4
    assert (hook_counts("two-hundred", specs, 0, 3) ==
            transcript_counts("two-hundred", specs, 0, 3, lambda r: r[0] == L.EV_PLAY)).all()
