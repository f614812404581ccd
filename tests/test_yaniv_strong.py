"""The strong Yaniv players (search.py): ``informed`` and ``mc``.

The public memory both engines keep (layout.V_SEEN / V_KNOWN) is what every player saw; the
players read nothing else (no peeking); the kernel and the reference engine play the same games
with them; the exact Asaf probability is exact."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simcards.games.yaniv import layout as L
from simcards.games.yaniv import search
from simcards.games.yaniv.game import FAMILIES, GAME, seat_arrays
from simcards.games.yaniv.reference import ReferenceGame
from simcards.games.yaniv.rules import R_VALUES, preset
from simcards.rng import new_state
from tests.test_yaniv_engines import _compare
from tests.yaniv_support import engine_for

ISRAELI = preset("israeli")


def test_strong_families_are_listed_with_their_parameters():
    assert {"informed", "mc"} <= set(GAME.families())
    assert FAMILIES["informed"].param("risk").default == 0.2
    assert FAMILIES["mc"].param("k").integer
    # both share threshold's parameter slots, so threshold's section-5 decisions read the same values
    names = [p.name for p in FAMILIES["threshold"].params]
    assert [p.name for p in FAMILIES["mc"].params][:12] == names
    assert [p.name for p in FAMILIES["informed"].params][1:12] == names[1:]


@pytest.mark.parametrize("variant,players,decks,specs,games", [
    ("israeli", 4, 1, ["informed", "threshold", "mc:k=3,search=7", "threshold"], 6),
    ("israeli", 2, 1, ["mc:k=4,search=7", "informed:risk=0.5,deny=9"], 6),
    ("israeli", 5, 2, ["mc:k=2", "informed", "threshold", "random", "threshold"], 3),  # Y-CARD-3
    ("adrian", 3, 1, ["mc:k=2,request=6,slam=2", "informed:request=4", "threshold"], 4),  # Y-V-REQ, Y-V-SLAM
    ("nepali-jokers", 3, 1, ["informed", "mc:k=2", "threshold"], 4),  # Y-V-NEP: any card of a discard
    ("kluft", 3, 1, ["mc:k=2", "informed", "threshold"], 4),  # Y-V-KLUFT: top card only
    ("israeli", 3, 1, ["mc:k=24,search=3,stop=1", "informed", "threshold"], 3),  # sampling stopped early
])
def test_reference_and_kernel_play_the_same_games_with_strong_players(variant, players, decks, specs, games):
    rules = preset(variant).replace(decks=decks) if decks != preset(variant).decks else preset(variant)
    for game in range(games):
        _compare(rules, players, specs, 20261202, game)


class MemoryCheck:
    """After every action of a reference game: the public memory is what was seen. ``seen``
    counts the discard pile (the buried cards and the previous discard, Y-DRAW-2, Y-STOCK-1);
    every face ``known`` in a hand is in that hand."""

    def __init__(self):
        self.game = None
        self.checked = 0

    def __call__(self, event, state):
        if "buried" not in state:
            return
        pile = [0] * L.N_FACES
        for c in list(state["buried"]) + list(state["previous"]):
            pile[c] += 1
        if event in ("discard", "draw", "slam"):  # the group just thrown lies on the pile too
            for c in state["extra"]:
                pile[c] += 1
        assert self.game.seen == pile, (event, self.game.seen, pile)
        for p, mask in enumerate(self.game.known):
            for f in range(L.N_FACES):
                if mask >> f & 1:
                    assert f in state["hands"][p], (event, p, f)
        self.checked += 1


@pytest.mark.parametrize("variant,players", [("israeli", 4), ("adrian", 3), ("israeli-anyset", 3)])
def test_public_memory_is_the_discard_pile_and_the_cards_taken(variant, players):
    """V_SEEN is the pile once a turn is done; V_KNOWN only names cards really held
    (Y-DRAW-1/2: a card taken from a discard is seen by all; Y-V-REQ: so is a requested card)."""
    rules = preset(variant)
    strategies = GAME.strategies(["threshold", "random"] + ["threshold"] * (players - 2), players)
    decide, _, _ = engine_for(strategies)
    sids, params = seat_arrays(strategies)
    for g in range(3):
        game = ReferenceGame(rules, players, sids, params, 5, g, decide)
        check = MemoryCheck()
        check.game = game
        game.check = check
        game.play()
        assert check.checked > 50


def _brute_p_at_most(pool, values, u, limit):
    cards = [f for f in range(L.N_FACES) for _ in range(pool[f])]
    good = total = 0
    for combo in itertools.combinations(range(len(cards)), u):
        total += 1
        good += sum(values[cards[i]] for i in combo) <= limit
    return good / total


@pytest.mark.parametrize("u,limit", [(1, 0), (1, 3), (2, 4), (3, 7), (2, 20)])
def test_asaf_probability_is_exact_for_one_opponent_y_sc_2(u, limit):
    """The chance that u unseen cards total at most ``limit`` (Y-SC-2: an equal total is an Asaf)
    is counted exactly: compared with enumerating every hand of a small unseen set."""
    rules = ISRAELI.encode()
    values = rules[R_VALUES:R_VALUES + L.N_FACES]
    pool = np.zeros(L.N_FACES, dtype=np.int64)
    for f in (0, 1, 2, 13, 14, 27, 30, 40, 52, 11, 12, 9):  # A♣ 2♣ 3♣ A♦ 2♦ 2♥ 5♥ 2♠ Jk Q♣ K♣ 10♣
        pool[f] += 1
    got = search.p_at_most(pool, rules, u, limit)
    assert got == pytest.approx(_brute_p_at_most(pool, values, u, limit), abs=1e-12)


def _view(players=2, seat=0, total=3, sizes=(5, 1)):
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_PLAYERS] = players
    view[L.V_ALIVE_N] = players
    view[L.V_SEAT] = seat
    view[L.V_TOTAL] = total
    view[L.V_STOCK] = 30
    view[L.V_TURN] = 6
    for p in range(players):
        view[L.V_ALIVE + p] = 1
        view[L.V_SIZES + p] = sizes[p]
    return view


def _params(spec):
    _, params = seat_arrays(GAME.strategies([spec], 1))
    return params[0]


def _sure_asaf():
    """(rules, hand, view, options): holding 3 (A♣ 2♣) at a call, against one opponent holding one
    card known to be a joker (taken from the discard): a call is a sure Asaf (Y-SC-2)."""
    rules = ISRAELI.encode()
    hand = np.zeros(L.MAX_HAND, dtype=np.int64)
    hand[:2] = [0, 1]
    view = _view(total=3, sizes=(2, 1))
    view[L.V_KNOWN + 1] = np.int64(1) << 52
    opts = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
    opts[0, :2] = [1, 0]
    opts[1, :2] = [1, 1]
    return rules, hand, view, opts


def test_informed_does_not_call_into_a_known_asaf_y_sc_2():
    """Holding 3 (A♣ 2♣) against one card known to be a joker (taken from the discard), a call is
    a sure Asaf: informed plays on where threshold (call at 5) calls."""
    rules, hand, view, opts = _sure_asaf()
    rng = new_state(1, 1)
    assert search.builtin_decide(L.K_CALL, 1, _params("threshold"), hand, 2, opts, 2, view, rules, rng) == 1
    assert search.asaf_probability(hand, 2, view, rules) == 1.0
    assert search.builtin_decide(L.K_CALL, search.SID_INFORMED, _params("informed"), hand, 2, opts, 2, view,
                                 rules, rng) == 0
    # the same hand against one unknown card: the chance of Asaf is that of a card <= 3 among the unseen
    view[L.V_KNOWN + 1] = 0
    p = search.asaf_probability(hand, 2, view, rules)
    assert 0.1 < p < 0.3


@pytest.mark.parametrize("spec", ["informed", "mc:k=8,search=7", "mc:k=8,search=1,risk=1",
                                  "mc:k=24,search=7,stop=1"])
def test_no_peeking_same_view_different_hidden_cards(spec):
    """Two states of one round that the player cannot tell apart — the same own hand, the same
    public history (discards, pickups, hand sizes), different opponents' cards and stock — give the
    same view and the same decisions from the same random state, for every decision kind."""
    rules = ISRAELI
    players = 3
    strategies = GAME.strategies([spec, "threshold", "threshold"], players)
    decide, _, _ = engine_for(strategies)
    sids, params = seat_arrays(strategies)
    game = ReferenceGame(rules, players, sids, params, 3, 0, decide)
    game.seen = [0] * L.N_FACES
    game.known = [0] * players
    mine = [0, 1, 27, 12]  # A♣ 2♣ 2♥ K♣: a call (3 + ...) is not offered, discards and draws are
    pile = [30, 31, 44]  # 5♥ 6♥ 6♠ buried, the previous discard 6♠ ...
    for c in pile:
        game.seen[c] += 1
    game.known[1] = 1 << 13  # seat 1 took A♦ from a discard
    rest = [f for f in range(54) if f not in mine + pile + [13]]
    rng = np.random.default_rng(0)
    views = []
    decisions = []
    first_hands = None
    for _ in range(2):
        rng.shuffle(rest)  # a different deal of the hidden cards each time
        hands = {0: list(mine), 1: sorted([13] + rest[:3]), 2: sorted(rest[3:7])}
        stock = rest[7:30]
        assert first_hands is None or hands[1] != first_hands[1]
        first_hands = hands
        hand = np.zeros(L.MAX_HAND, dtype=np.int64)
        hand[:4] = mine
        view_d = game.view(0, hands, 5, stock, 2, 1, [44])
        game.seen[12] += 1  # K♣ thrown: the draw decision
        view_r = game.view(0, {**hands, 0: mine[:3]}, 5, stock, 2, 1, [44], thrown=[12])
        game.seen[12] -= 1
        views.append((view_d, view_r))
        got = []
        opts = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
        for i, c in enumerate(mine):
            opts[i, :2] = [1, c]
        state = new_state(9, 9)
        got.append(decide(L.K_DISCARD, sids[0], params[0], hand, 4, opts, 4, view_d, rules.encode(), state))
        got.append(int(state[0]))
        dopts = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
        dopts[0, :2] = [1, -1]
        dopts[1, :2] = [1, 44]
        state = new_state(9, 10)
        got.append(decide(L.K_DRAW, sids[0], params[0], hand, 3, dopts, 2, view_r, rules.encode(), state))
        got.append(int(state[0]))
        small = np.zeros(L.MAX_HAND, dtype=np.int64)
        small[:2] = [0, 1]
        view_c = game.view(0, {0: [0, 1], 1: hands[1], 2: hands[2]}, 5, stock, 2, 1, [44])
        copts = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
        copts[0, :2] = [1, 0]
        copts[1, :2] = [1, 1]
        state = new_state(9, 11)
        got.append(decide(L.K_CALL, sids[0], params[0], small, 2, copts, 2, view_c, rules.encode(), state))
        got.append(int(state[0]))
        decisions.append(got)
    assert np.array_equal(views[0][0], views[1][0]) and np.array_equal(views[0][1], views[1][1])
    assert decisions[0] == decisions[1]


def test_mc_is_reproducible_and_uses_the_games_stream():
    """Same seed, same games (any chunking or thread count); mc draws its samples from the game's stream, so a
    different k changes the games."""
    import simcards

    kw = dict(variant="israeli", players=3, games=6, seed=4, detail=False)
    a = simcards.simulate("yaniv", strategies=["mc:k=4", "threshold", "threshold"], threads=1, **kw).games
    b = simcards.simulate("yaniv", strategies=["mc:k=4", "threshold", "threshold"], threads=1, chunk=2, **kw).games
    c = simcards.simulate("yaniv", strategies=["mc:k=5", "threshold", "threshold"], threads=1, **kw).games
    assert a.equals(b)
    assert not a.equals(c)


def test_mc_samples_only_unseen_cards_with_the_known_ones_in_place():
    """mc's deals: each opponent holds its known cards plus unseen ones, up to its hand size; the
    stock holds only unseen cards; nothing from the own hand or the discard pile (no peeking)."""
    rules = ISRAELI.encode()
    hand = np.zeros(L.MAX_HAND, dtype=np.int64)
    hand[:3] = [0, 14, 40]
    view = _view(players=3, total=1 + 2 + 2, sizes=(3, 4, 2))
    view[L.V_STOCK] = 20
    pile = [5, 6, 7, 51, 52]
    for c in pile:
        view[L.V_SEEN + c] += 1
    view[L.V_KNOWN + 1] = (np.int64(1) << 9) | (np.int64(1) << 22)
    pool = np.zeros(L.N_FACES, dtype=np.int64)
    size = search.unseen_counts(hand, 3, view, rules, pool)
    assert size == 54 - 3 - len(pile) - 2
    sample = search.new_table()  # the sampled table: hands, hand sizes, stock
    hands, hand_n, stock = sample.hands, sample.hand_n, sample.stock
    deck = np.zeros(108, dtype=np.int64)
    rng = new_state(2, 3)
    for _ in range(20):
        n_stock = search.sample_deal(0, hand, 3, view, rules, rng, pool, deck, sample, 2)
        assert n_stock == 20
        assert list(hands[0, :3]) == [0, 14, 40]
        assert hand_n[1] == 4 and {9, 22} <= set(hands[1, :4].tolist()) and hand_n[2] == 2
        dealt = hands[1, :4].tolist() + hands[2, :2].tolist() + stock[:n_stock].tolist()
        assert not set(dealt) & (set(pile) | {0, 14, 40})
        assert len(dealt) == len(set(dealt))  # one deck: no face twice


def test_mc_settles_when_every_other_option_is_clearly_on_one_side_of_the_margin():
    """``settled`` (mc's early stop): an option whose mean difference to the prior's is more than
    ``stop`` standard errors from the margin is settled; one within them is not."""
    done, prior, edge = 16, 0, 1.0
    sums = np.array([0, 16 * 3], dtype=np.int64)  # option 1 gains 3 points a deal on the prior
    steady = np.array([0.0, 16 * 9.0])  # always exactly 3: no spread
    noisy = np.array([0.0, 16 * (9.0 + 64.0)])  # 3 on average, standard deviation 8: a standard error of 2
    assert search.settled(sums, steady, 2, done, prior, edge, 2.0)
    assert not search.settled(sums, noisy, 2, done, prior, edge, 2.0)  # (3 - 1) / 2 = 1 standard error
    assert search.settled(sums, noisy, 2, done, prior, edge, 0.9)


def test_mc_stops_sampling_on_a_clear_call_and_keeps_its_choice():
    """Holding 3 against one card known to be a joker, calling is a sure Asaf (Y-SC-2) in every
    deal: with ``stop`` the search ends at its first check (16 deals) with the choice it makes on
    all 64; without, it plays all 64."""
    rules, hand, view, opts = _sure_asaf()
    results = {}
    for stop in (0, 2):
        params = _params(f"mc:k=64,stop={stop}")
        sums, done = search.option_sums(L.K_CALL, params, hand, 2, opts, 2, view, rules, new_state(3, 3), 64, 0, 1.0)
        results[stop] = (sums / done, done)
        assert search.builtin_decide(L.K_CALL, search.SID_MC, params, hand, 2, opts, 2, view, rules,
                                     new_state(3, 3)) == 0
    assert results[0][1] == 64 and results[2][1] == search.STOP_MIN
    assert results[0][0][1] < results[0][0][0] - 10 and results[2][0][1] < results[2][0][0] - 10


def test_asaf_probability_with_several_opponents_is_the_product_of_each_ones_y_sc_2():
    """With three opponents of different hand sizes and known cards, the Asaf chance (read from
    one table of ways for all of them) is 1 - the product of each one's chance of not holding a
    total at most mine, each counted on its own by ``p_at_most``."""
    rules = ISRAELI.encode()
    hand = np.zeros(L.MAX_HAND, dtype=np.int64)
    hand[:3] = [0, 1, 14]  # A♣ 2♣ 2♦: 5
    view = _view(players=4, total=5, sizes=(3, 4, 2, 5))
    for f in (30, 31, 44, 20):
        view[L.V_SEEN + f] += 1
    view[L.V_KNOWN + 1] = np.int64(1) << 25  # K♦: 13, more than my total on its own
    view[L.V_KNOWN + 2] = np.int64(1) << 13  # A♦
    pool = np.zeros(L.N_FACES, dtype=np.int64)
    search.unseen_counts(hand, 3, view, rules, pool)
    safe = 1.0
    for unknown, limit in ((3, 5 - 13), (1, 5 - 1), (5, 5)):
        safe *= 1.0 - search.p_at_most(pool, rules, unknown, limit)
    assert search.asaf_probability(hand, 3, view, rules) == pytest.approx(1.0 - safe, abs=1e-15)
    assert 0.0 < 1.0 - safe < 1.0


def test_the_deny_discard_is_the_first_group_of_least_cost_plus_deny():
    """``deny_discard`` scores only the groups threshold's floors leave possible: on random hands
    and known cards it picks what scoring every group does, the first row of least
    ``group_cost`` plus ``deny`` for each card the next player could take that builds a group
    with its known cards (ties: the first row)."""
    from simcards.games.yaniv.core import hand_total
    from simcards.games.yaniv.groups import SCRATCH, available_faces, legal_groups
    from simcards.games.yaniv.policies import builds_group, group_cost, hand_held
    from simcards.games.yaniv.rules import PICK_TOP, R_PICKUP, R_WILD

    params = _params("informed")
    gen = np.random.default_rng(29)
    checked = 0
    for variant in ("israeli", "nepali-jokers", "kluft"):
        rules = preset(variant).encode()
        wild = rules[R_WILD] != 0
        top_only = rules[R_PICKUP] == PICK_TOP
        for _ in range(300):
            faces = gen.choice(54, 12, replace=False)
            n = int(gen.integers(2, 8))
            hand = np.zeros(L.MAX_HAND, dtype=np.int64)
            hand[:n] = np.sort(faces[:n])
            opts = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
            n_opts = legal_groups(hand, n, rules, opts, np.zeros(L.MAX_OPTIONS, dtype=np.int64),
                                  np.zeros(SCRATCH, dtype=np.int64))
            view = _view(players=3, total=hand_total(hand, n, rules), sizes=(n, 5, 5))
            view[L.V_AVAIL_N] = 1
            view[L.V_AVAIL] = faces[n]
            mask = np.int64(0)
            for f in faces[n + 1:n + 1 + int(gen.integers(1, 4))]:
                mask |= np.int64(1) << int(f)
            view[L.V_KNOWN + search.next_alive(0, view, rules)] = mask  # the next player's known cards
            deny = float(gen.choice([1.0, 3.0, 12.0]))
            counts, lanes, twice, jokers, pairs, _ = hand_held(hand, n)
            held = (counts, lanes, twice, jokers, pairs)
            avail = view[L.V_AVAIL:L.V_AVAIL + L.MAX_HAND]
            stock = params[search.P_STOCK]
            k_counts = k_lanes = k_jokers = 0
            for f in range(L.N_FACES):
                if mask >> f & 1:
                    if f >= 52:
                        k_jokers += 1
                    else:
                        k_counts += 1 << (4 * (f % 13))
                        k_lanes |= 1 << f
            costs = []
            out = np.zeros(L.MAX_HAND, dtype=np.int64)
            for a in range(n_opts):
                cost, _ = group_cost(opts[a, 1:], opts[a, 0], view[L.V_TOTAL], held, avail, 1, wild,
                                     params[search.P_KEEP], stock, top_only, params, rules)
                for t in range(available_faces(opts[a, 1:], opts[a, 0], rules[R_PICKUP], out)):
                    if builds_group(out[t], np.int64(k_counts), np.int64(k_lanes), k_jokers, wild):
                        cost += deny
                costs.append(cost)
            want = int(np.argmin(costs))  # the first of the least
            par = params.copy()
            par[search.P_DENY] = deny
            got = search.informed_decide(L.K_DISCARD, par, hand, n, opts, n_opts, view, rules, new_state(1, 1))
            assert got == want, (variant, hand[:n].tolist(), mask, deny, costs)
            checked += 1
    assert checked == 900
