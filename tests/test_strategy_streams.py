"""A strategy's random state is its own stream (issue 27, item 2; ARCHITECTURE principle 9).

Before, every strategy was handed the game's random state itself, the SplitMix64 counter that had
just shuffled the deck: stepping it back a few hundred steps and shuffling again rebuilt the deal
(the other players' hands, the stock order) in every game. Now the deal's stream stays with the
engine, and each seat draws from a stream keyed by SipHash-2-4 (a keyed PRF, key: the run's seed)
of ``(game, seat, domain)``: nothing of the deal can be computed from it.

The attack runs through the reference engines (which hand the strategies the same states as the
kernels: the engines agree move for move, tests/test_*_engines.py) with a spy around the decision
function, so it needs no user-policy kernel."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.rng import next_u64, rand_below, shuffle

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
BACK = 3000  # how far back the attacker steps the stream it was handed (the deal is ~60 draws back)
GAMES = 20


# --- the attacker: what a user policy could compute from its own arguments ---------------------
def _candidates(x: int, back: int):
    """The states the counter held ``j`` draws before it read ``x`` (j = 0 .. back - 1)."""
    for j in range(back):
        yield np.array([(x - j * int(GOLDEN)) % 2**64], dtype=np.uint64)


def _rebuild(x: int, template, consistent, back: int = BACK):
    """The first deck order, shuffled from a state the stream held before ``x``, that agrees with
    what the attacker knows (its own hand); None when no step back gives one."""
    template = np.asarray(template, dtype=np.int64)
    for state in _candidates(x, back):
        deck = template.copy()
        start = state.copy()
        shuffle(state, deck, len(deck))
        if consistent(deck) if consistent.__code__.co_argcount == 1 else consistent(deck, start):
            return deck
    return None


class SeenEnough(Exception):
    """Every seat has made its first decision: the rest of the game tells the attack nothing."""


class Spy:
    """Wraps a decision function: keeps the arguments of the first call (the attacker's moment)
    and the random state handed to each seat at its first decision; once all ``seats`` have
    decided it ends the game (``SeenEnough``, caught by ``until_seen``): the attack's 20 whole Gin
    games of random players in the reference engine took 219 s of a cold test run."""

    def __init__(self, decide, seats: int):
        self.decide = decide
        self.seats = seats
        self.first = None
        self.seat_states: dict[int, int] = {}

    def __call__(self, *args):
        view, rng = args[-3], args[-1]
        if self.first is None:
            self.first = tuple(a.copy() if isinstance(a, np.ndarray) else a for a in args)
        self.seat_states.setdefault(int(view[0]), int(rng[0]))
        if len(self.seat_states) == self.seats:
            raise SeenEnough
        return self.decide(*args)


def until_seen(play, *args) -> None:
    """``play(*args)``, a reference game with a spy, up to every seat's first decision."""
    try:
        play(*args)
    except SeenEnough:
        pass


def _record_shuffles(monkeypatch, module):
    """The deck orders the engine shuffles, in order (the truth the attacker tries to rebuild)."""
    decks = []

    def recording(state, arr, n):
        shuffle(state, arr, n)
        decks.append(np.array(arr[:n], dtype=np.int64))

    monkeypatch.setattr(module, "shuffle", recording)
    return decks


# --- per game: a reference game with a spy, and the attacker's consistency check -----------------
def _yaniv(seed, game, monkeypatch, rekey=None):
    from simcards.games.yaniv import reference as ref
    from simcards.games.yaniv.game import GAME, engine_for, seat_arrays

    rules, players = GAME.build_rules("israeli"), 3
    strategies = GAME.strategies(["random"] * players, players)
    decide, _, _ = engine_for(strategies)
    sids, params = seat_arrays(strategies)
    decks = _record_shuffles(monkeypatch, ref)
    spy = Spy(decide, players)
    g = ref.ReferenceGame(rules, players, sids, params, seed, game, spy)
    if rekey is not None:
        g.rng[0] = rekey
    until_seen(g.play)
    template = ref.deck(rules)
    _, _, _, hand, n, _, _, view, _, _ = spy.first
    own, seat = set(int(c) for c in hand[:n]), int(view[0])

    def consistent(deck):  # Y-DEAL-1: five each, one at a time, from the top (the array's end)
        return own == {int(deck[-1 - (k * players + seat)]) for k in range(5)}
    return spy, decks[0], template, consistent


def _gin(seed, game, monkeypatch, rekey=None):
    from simcards.games.gin import reference as ref
    from simcards.games.gin.game import GAME, engine_for, seat_arrays

    rules = GAME.build_rules("standard")
    strategies = GAME.strategies(["random", "random"], 2)
    decide, _, _ = engine_for(strategies)
    sids, params = seat_arrays(strategies)
    decks = _record_shuffles(monkeypatch, ref)
    spy = Spy(decide, 2)
    g = ref.ReferenceGame(rules, sids, params, seed, game, spy)
    if rekey is not None:
        g.rng[0] = rekey
    until_seen(g.play)
    _, _, _, hand, n, *_ = spy.first
    own = set(int(c) for c in hand[:n])

    def consistent(deck):  # G-DEAL-2: ten each, one at a time, from the top (the array's end)
        return own in (set(deck[-1:-21:-2].tolist()), set(deck[-2:-21:-2].tolist()))
    return spy, decks[0], np.arange(52), consistent


def _two_hundred(seed, game, monkeypatch, rekey=None):
    from simcards.games.two_hundred import layout as L
    from simcards.games.two_hundred import reference as ref
    from simcards.games.two_hundred.game import GAME, engine_for, seat_arrays

    rules = GAME.build_rules("standard")
    strategies = GAME.strategies(["random"] * 4, 4)
    decide, _, _ = engine_for(strategies)
    sids, params = seat_arrays(strategies, rules)
    decks = _record_shuffles(monkeypatch, ref)
    spy = Spy(decide, 4)
    g = ref.ReferenceGame(rules, sids, params, seed, game, spy)
    if rekey is not None:
        g.rng[0] = rekey
    until_seen(g.play)
    _, _, _, hand, _, _, view, _, _ = spy.first
    seat, dealer = int(view[L.V_SEAT]), int(view[L.V_DEALER])
    own = {f for f in ref.deck(rules.deck) if (int(hand) >> int(L.BIT_OF_FACE[f])) & 1}
    mine = ((seat - dealer - 1) % 4)  # T-DEAL-1: one at a time from the dealer's left

    def consistent(deck):
        return own == set(deck[mine::4].tolist())
    return spy, decks[0], ref.deck(rules.deck), consistent


def _high_card(seed, game, monkeypatch, rekey=None):
    from simcards.games.engine import seat_arrays
    from tests.toygame import kernel as K
    from tests.toygame import reference as ref
    from tests.toygame.game import GAME

    rules, players = GAME.build_rules(None), 4
    strategies = GAME.strategies(["random"] * players, players)
    sids, params = seat_arrays(strategies)
    decks = _record_shuffles(monkeypatch, ref)
    spy = Spy(K.decide, players)
    monkeypatch.setattr(K, "decide", spy)
    until_seen(ref.play_reference, rules, players, sids, params, seed, game)
    _, _, hand, _, view, _, _ = spy.first
    own, seat = set(int(c) for c in hand[:2]), int(view[K.V_SEAT])

    def consistent(deck, state):  # H-DEAL-1: two each; H-PLAY-1: the leader, drawn just before
        before = np.array([(int(state[0]) - int(GOLDEN)) % 2**64], dtype=np.uint64)
        return own == set(deck[2 * seat:2 * seat + 2].tolist()) and rand_below(before, players) == seat
    return spy, decks[0], np.arange(52), consistent


GAMES_UNDER_ATTACK = {"yaniv": _yaniv, "gin": _gin, "two-hundred": _two_hundred, "high-card": _high_card}


@pytest.mark.parametrize("game", list(GAMES_UNDER_ATTACK))
def test_a_strategy_cannot_rebuild_the_deal_from_its_random_state(game, monkeypatch):
    """The attack: at its first decision a strategy steps the random state it was handed back up to
    3,000 draws and shuffles the deck from each; the first order that agrees with its own hand is
    its guess of the deal (every hidden hand, the stock order). On the engines before issue 27 it
    rebuilt the deal in every game; now in none."""
    rebuilt = 0
    for g in range(GAMES):
        with monkeypatch.context() as m:
            spy, truth, template, consistent = GAMES_UNDER_ATTACK[game](11, g, m)
        # (high card: a 2-card hand identifies a deck order less surely; the deal is 52 draws back)
        guess = _rebuild(int(spy.first[-1][0]), template, consistent, 120 if game == "high-card" else BACK)
        rebuilt += guess is not None and np.array_equal(guess, truth)
    assert rebuilt == 0, f"the deal was rebuilt from a strategy's random state in {rebuilt} of {GAMES} games"


@pytest.mark.parametrize("game", ["yaniv", "gin", "two-hundred"])
def test_a_seats_random_state_does_not_depend_on_the_deal(game, monkeypatch):
    """Two games with the same seed and index but a different deal (the engine's deal stream
    re-keyed): every seat is handed the same random state at its first decision. Before issue 27
    the state handed over was the deal's stream, so it differed with the deal."""
    from simcards.rng import strategy_key, stream_key

    play = GAMES_UNDER_ATTACK[game]
    for g in range(3):
        with monkeypatch.context() as m:
            a, deal_a, _, _ = play(5, g, m)
        with monkeypatch.context() as m:
            b, deal_b, _, _ = play(5, g, m, rekey=stream_key(99, g))
        assert not np.array_equal(deal_a, deal_b)
        assert a.seat_states == b.seat_states
        # a seat's first decision: its stream as keyed, nothing drawn from it yet
        assert a.seat_states == {s: int(strategy_key(5, g, s)) for s in a.seat_states}


def test_siphash_matches_the_published_vectors():
    """SipHash-2-4 (Aumasson and Bernstein), key 00 01 .. 0f, message 00 01 .. (n-1): the first
    entries of the reference implementation's vectors.h and the paper's example (15 bytes)."""
    from simcards.rng import siphash24

    key = bytes(range(16))
    k0, k1 = (int.from_bytes(key[i:i + 8], "little") for i in (0, 8))
    expected = {
        0: "310e0edd47db6f72", 1: "fd67dc93c539f874", 2: "5a4fa9d909806c0d", 3: "2d7efbd796666785",
        7: "37d1018bf50002ab", 8: "6224939a79f5f593", 15: "e545be4961ca29a1", 16: "db9bc2577fcc2a3f",
        24: "94af49f6c650adb8", 63: "724506eb4c328a95",
    }
    for n, want in expected.items():
        msg = bytes(range(n)) + bytes(-n % 8)
        words = np.array([int.from_bytes(msg[i:i + 8], "little") for i in range(0, len(msg), 8)] or [0],
                         dtype=np.uint64)
        got = int(siphash24(np.uint64(k0), np.uint64(k1), words, n))
        assert got.to_bytes(8, "little").hex() == want, n


def test_seat_streams_are_distinct_and_deterministic():
    from simcards.rng import seed_streams, strategy_key, stream_key

    state = np.zeros(1 + 10, dtype=np.uint64)
    seed_streams(state, 7, 3)
    assert int(state[0]) == int(stream_key(7, 3))
    keys = [int(strategy_key(7, 3, s)) for s in range(10)]
    assert list(state[1:].astype(np.uint64).tolist()) == keys
    assert len(set(keys) | {int(state[0])}) == 11
    assert int(strategy_key(7, 3, 0)) != int(strategy_key(8, 3, 0)) != int(strategy_key(7, 4, 0))
    again = np.zeros(1 + 10, dtype=np.uint64)
    seed_streams(again, 7, 3)
    assert np.array_equal(state, again)
    next_u64(state[1:2])  # a seat's draw moves only that seat's stream
    assert int(state[0]) == int(stream_key(7, 3)) and int(state[2]) == keys[1]


def test_a_shuffle_is_fisher_yates_on_the_streams_draws():
    # rng.shuffle keeps the stream's state in a local: the same swaps, drawn by rand_below, and the
    # stream left where those draws leave it.
    for n in (0, 1, 2, 36, 52, 108):
        for seed in range(5):
            state = np.array([seed * 7919 + n], dtype=np.uint64)
            by_draws, drawn = np.arange(n), state.copy()
            for i in range(n - 1, 0, -1):
                j = rand_below(drawn, i + 1)
                by_draws[i], by_draws[j] = by_draws[j], by_draws[i]
            arr = np.arange(n)
            shuffle(state, arr, n)
            assert np.array_equal(arr, by_draws) and state[0] == drawn[0], (n, seed)


@pytest.mark.slow
def test_the_yaniv_kernel_hands_a_user_policy_its_seats_stream(monkeypatch):
    """The same attack on the kernel, through a user-policy engine (``make_engine``): the policy
    writes the random state of its first decision where the kernel reports a policy's bad indices
    (``layout.V_BAD``, copied to the game's row). It is the seat's fresh stream, ``strategy_key``,
    and stepping it back rebuilds no deal (slow: compiles a user-policy kernel)."""
    from numba import njit

    from simcards.games.yaniv import kernel as K
    from simcards.games.yaniv import layout as L
    from simcards.games.yaniv.game import GAME, seat_arrays
    from simcards.games.yaniv.search import kernel_decide
    from simcards.rng import strategy_key

    @njit
    def spy(kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
        if view[L.V_BAD + 4] == 0:
            view[L.V_BAD + 4] = 1
            view[L.V_BAD + 3] = view[L.V_SEAT]
            view[L.V_BAD + 2] = np.int64(rng[0])
        return kernel_decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng)

    decide_fn = K.make_engine(spy)
    rules, players = GAME.build_rules("israeli"), 3
    sids, params = seat_arrays(GAME.strategies(["random"] * players, players))
    rebuilt = 0
    for g in range(GAMES):
        out = np.zeros(L.G_WIDTH, dtype=np.int64)
        K.play_game(g, 11, rules.encode(), players, sids, params, out, np.zeros((0, L.round_width(players)), np.int32),
                    0, np.zeros((0, K.LOG_WIDTH), np.int64), K.play_round_via, decide_fn)
        seat, x = int(out[L.G_BAD + 3]), int(np.int64(out[L.G_BAD + 2]).astype(np.uint64))
        assert x == int(strategy_key(11, g, seat))
        with monkeypatch.context() as m:
            _, truth, template, consistent = _yaniv(11, g, m)  # the same game in the reference engine
        guess = _rebuild(x, template, consistent)
        rebuilt += guess is not None and np.array_equal(guess, truth)
    assert rebuilt == 0


@pytest.mark.parametrize("variant", ["standard", "kitty", "five-player", "two-player", "le-rough"])
def test_the_two_hundred_heuristic_never_draws_from_its_stream(variant):
    """The kernel keys only the streams of the seats whose strategy may draw
    (``kernel._start_game``: a SipHash a seat, about 1% of a plain game), so a heuristic seat's
    stream is never keyed and the heuristic must never read it. In reference games of heuristic
    players, every decision leaves the stream it was handed as it was."""
    from simcards.games.two_hundred import reference as ref
    from simcards.games.two_hundred.game import GAME, engine_for, seat_arrays

    rules = GAME.build_rules(variant)
    players = GAME.players_for(rules)
    strategies = GAME.strategies(["heuristic"], players)
    decide, _, _ = engine_for(strategies)
    sids, params = seat_arrays(strategies, rules)
    calls = []

    def watching(*args):
        rng = args[-1]
        before = rng.copy()
        choice = decide(*args)
        calls.append(bool((rng == before).all()))
        return choice

    for game in range(6):
        ref.ReferenceGame(rules, sids, params, 3, game, watching).play()
    assert len(calls) > 100 and all(calls)
