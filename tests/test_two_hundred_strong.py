"""Two Hundred strong players (issue 17): the ``informed`` and ``mc`` families play every preset,
the kernel and the reference engine agree move for move with them, they see only their view
(two games that differ only in the hidden cards get the same views, random states and decisions
from the engine), the mc sampler deals only the unseen cards and respects hand sizes and voids, and the
informed player uses the voids it has seen."""

from __future__ import annotations

import numpy as np
import pytest

from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.game import BINDING, FAMILIES, GAME, seat_arrays
from simcards.games.two_hundred.params import N_INFORMED
from simcards.games.two_hundred.policies import (
    SID_INFORMED,
    SID_MC,
    best_trump,
    heuristic_decide,
    informed_decide,
)
from simcards.games.two_hundred.search import P_K, mc_decide, sample_hands
from tests.test_two_hundred_engines import _differential

STRONG = [
    ("standard", ["informed", "heuristic"], {}),
    ("standard", ["mc:k=3", "heuristic"], {}),
    ("standard", ["mc:k=2,rollout=1,search=1", "informed"], {"no_trump": "true", "fail_score": "points_minus_bid"}),
    ("standard", ["informed:boff=8,threat=1.5,drawlow=3,short=3", "mc:k=2,rollout=1,search=5,short=3,drawlow=2"], {}),
    ("kitty", ["mc:k=2", "informed"], {}),
    ("le-rough", ["informed", "mc:k=2"], {}),
    ("cutthroat", ["mc:k=2", "informed", "heuristic", "random"], {}),
    ("six-3x2", ["mc:k=2", "informed", "heuristic"], {"hole": "-100"}),
    ("six-2x3", ["informed", "mc:k=2"], {}),
    ("two-player", ["mc:k=2", "informed"], {}),
    ("five-player", ["informed", "mc:k=2", "heuristic", "informed", "random"], {}),
]


@pytest.mark.parametrize("preset,specs,overrides", STRONG, ids=[f"{p}-{'+'.join(s)}" for p, s, _ in STRONG])
def test_strong_engines_agree(preset, specs, overrides):
    # Principle 3 with the new families: same seed, same game, move for move, every preset.
    _differential(preset, specs, overrides, 5, 6 if preset == "standard" else 4)


def test_families_listed_with_parameters():
    assert FAMILIES["informed"].sid == SID_INFORMED and FAMILIES["mc"].sid == SID_MC
    names = [p.name for p in FAMILIES["mc"].params]
    assert names[:N_INFORMED] == [p.name for p in FAMILIES["informed"].params]
    assert names[N_INFORMED:] == ["k", "search", "margin", "win", "rollout"]
    assert names.index("k") == P_K
    assert all(p.help for p in FAMILIES["mc"].params)


def _face(suit, rank_char):
    return suit * 13 + "A23456789TJQK".index(rank_char)


def _bit(face):
    return np.int64(1) << int(L.BIT_OF_FACE[face])


def _mask(faces):
    m = np.int64(0)
    for f in faces:
        m |= _bit(f)
    return m


def _position():
    """Standard deal, trump hearts (suit 1), seat 0 contracted for 50. Trick 4: seat 0 led K♠,
    seat 1 played 7♠; seat 2 (the decider, seat 0's partner) holds 8♠ 10♠ and four clubs;
    seat 3 has shown void in spades and in hearts. The A♠ is unseen. Returns (rules, view, hand,
    the unseen cards, the hidden hands' sizes)."""
    rules = GAME.build_rules("standard").encode()
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_TRICK_FACES:L.V_TRICK_FACES + L.MAX_SEATS] = -1
    for s in range(L.MAX_SEATS):
        view[L.V_SIDE + s] = s % 2 if s < 4 else -1
    # 13 cards played in the first three tricks and this one: enough to have shown the voids.
    earlier = [_face(0, "9"), _face(0, "J"), _face(1, "5"), _face(0, "Q"),
               _face(1, "A"), _face(1, "K"), _face(2, "5"), _face(1, "Q"),
               _face(3, "A"), _face(3, "K"), _face(3, "5"), _face(2, "7")]
    trick = [_face(0, "K"), _face(0, "7")]
    hand = [_face(0, "8"), _face(0, "T"), _face(3, "7"), _face(3, "8"), _face(3, "9"), _face(3, "J")]
    view[L.V_SEAT] = 2
    view[L.V_DEAL] = 1
    view[L.V_BID] = 50
    view[L.V_BIDDER] = 0
    view[L.V_TRUMP] = 1
    view[L.V_TRICK] = 3
    view[L.V_LEADER] = 0
    view[L.V_N_IN] = 2
    view[L.V_LEAD_SUIT] = 0
    view[L.V_WIN_SEAT] = 0
    view[L.V_WIN_FACE] = _face(0, "K")
    view[L.V_PLAYED] = _mask(earlier + trick)
    view[L.V_ACTIVE] = 0b1111
    view[L.V_N_ACTIVE] = 4
    view[L.V_CALLED] = -1
    view[L.V_PARTNER] = -1
    view[L.V_BIDS] = 50
    view[L.V_TRICK_FACES] = trick[0]
    view[L.V_TRICK_FACES + 1] = trick[1]
    view[L.V_VOIDS + 3] = 0b11  # seat 3 did not follow spades nor hearts
    hmask = _mask(hand)
    unseen = int(L.DECK_MASK_36) & ~int(view[L.V_PLAYED]) & ~int(hmask)
    return rules, view, hmask, unseen


def _opts(hand, lead):
    legal = [f for f in range(52) if L.BIT_OF_FACE[f] >= 0 and (int(hand) >> int(L.BIT_OF_FACE[f])) & 1
             and (lead < 0 or f // 13 == lead)]
    legal.sort(key=lambda f: L.BIT_OF_FACE[f])
    o = np.zeros(L.MAX_OPTIONS, dtype=np.int64)
    o[:len(legal)] = legal
    return o, len(legal)


def builtin_decide(kind, sid, table, hand, opts, n, view, rules, rng):
    """The engines' dispatcher with the attached families (informed and mc, chained the way a
    user policy is: the reference engine calls it, the kernel is built around it)."""
    decide = BINDING.engine(GAME.strategies(["informed", "mc"], 2)).decide
    return decide(kind, sid, table, hand, opts, n, view, rules, rng)


def _engine_decide(family, kind, params, hand, opts, n, view, rules, rng):
    """``family``'s decision through the engines' dispatcher, every seat's row set to ``params``."""
    return int(builtin_decide(kind, FAMILIES[family].sid, np.tile(params, (4, 1)), hand, opts, n, view, rules, rng))


def test_informed_smears_when_the_last_opponent_is_void():
    # The partner's K♠ wins unless the unseen A♠ falls; the only opponent still to play (seat 3)
    # has shown void in spades and in trumps (T-PLAY-1: it would have followed), so it cannot take
    # the trick: the informed player puts its 10♠ on it (T-CARD-2: 10 points); the heuristic,
    # which knows only that the A♠ is out, plays the 8♠.
    rules, view, hand, _ = _position()
    opts, n = _opts(hand, 0)
    assert [int(f) for f in opts[:n]] == [_face(0, "8"), _face(0, "T")]
    inf = np.array([v.default for v in FAMILIES["informed"].params], dtype=np.float64)
    heu = np.array([v.default for v in FAMILIES["heuristic"].params], dtype=np.float64)
    rng = np.zeros(1, dtype=np.uint64)
    assert _engine_decide("heuristic", L.K_PLAY, heu, hand, opts, n, view, rules, rng) == 0
    assert _engine_decide("informed", L.K_PLAY, inf, hand, opts, n, view, rules, rng) == 1


def _first_decisions(family, hidden_seed):
    """Seat 0 plays ``family`` in a reference game whose first deal is stacked: seat 0's hand is
    fixed, the other 27 cards are dealt to seats 1-3 by ``hidden_seed``, and the deal's stream (the
    engine's, which would deal the next hands) is keyed by it too. Seats 1-3 always take
    option 0 (they pass; in play the lowest legal card), so the public history is the same
    whatever they hold up to seat 0's first card. Returns, for each of seat 0's decisions up to
    that card, what the engine handed it (the view, the hand, the options, its random state) and
    what it chose, with its random state afterwards, and the hidden cards."""
    from simcards.games.two_hundred import reference as ref
    from simcards.rng import stream_key

    rules = GAME.build_rules("standard")
    mine = [_face(1, r) for r in "AKQJT"] + [_face(0, "A"), _face(2, "A"), _face(3, "A"), _face(0, "K")]
    rest = [f for f in ref.deck(36) if f not in mine]
    np.random.default_rng(hidden_seed).shuffle(rest)
    stacked = [{0: mine, 1: rest[:9], 2: rest[9:18], 3: rest[18:]}]
    strats = GAME.strategies([family if family != "mc" else "mc:k=8", "random", "random", "random"], 4)
    sids, params = seat_arrays(strats, rules)
    seen = []

    def decide(kind, sid, table, hand, opts, n, view, enc, rng):
        if view[L.V_SEAT] != 0:
            return 0
        if seen and seen[-1][0] == L.K_PLAY:
            return 0  # past seat 0's first card: the others' plays differ with their hands
        before = (kind, view.copy(), int(hand), opts[:n].copy(), int(rng[0]))
        c = int(builtin_decide(kind, sid, table, hand, opts, n, view, enc, rng))
        seen.append((*before, c, int(rng[0])))
        return c

    game = ref.ReferenceGame(rules, sids, params, 5, 0, decide, stacked=stacked, first_dealer=3, max_deals=1)
    game.rng[0] = stream_key(hidden_seed, 0)  # the hidden part's random state differs too: the deal's stream
    game.play()
    return seen, rest


def _same(a, b):
    return len(a) == len(b) and all(x[0] == y[0] and np.array_equal(x[1], y[1]) and x[2] == y[2]
                                     and np.array_equal(x[3], y[3]) and x[4:] == y[4:] for x, y in zip(a, b))


@pytest.mark.parametrize("family", ["informed", "mc"])
def test_no_peeking(family):
    # Two games the decider cannot tell apart: seat 0's hand and the public history are the same,
    # the other seats' hands differ. The engine builds the view, the hand and the random state it
    # hands seat 0 at each decision (bid, trump, first lead): they must be equal, and so must the
    # decisions (mc: the same samples, drawn from the unseen cards with its own stream). The
    # random state is seat 0's own stream: the same in both games although the deals and the
    # deal's stream differ (before issue 27 the engine handed the deal's stream: this failed).
    a, hidden_a = _first_decisions(family, 1)
    b, hidden_b = _first_decisions(family, 2)
    assert hidden_a != hidden_b
    assert [d[0] for d in a] == [L.K_BID, L.K_TRUMP, L.K_PLAY]  # seat 0 bid, named trump and led
    assert _same(a, b)


def test_no_peeking_check_can_fail(monkeypatch):
    # The check can fail: an engine whose view shows seat 1's hand (as if face up) to everyone
    # gives the two games different views.
    from simcards.games.two_hundred import reference as ref

    deal_hands, new_view = ref.ReferenceGame.deal_hands, ref.ReferenceGame.new_view

    def dealing(self, dealer):
        hands, kitty = deal_hands(self, dealer)
        self.leaked = hands[1]
        return hands, kitty

    def leaking(self, deal, dealer, up):
        v = new_view(self, deal, dealer, up)
        v[L.V_UP + 1] = ref.hand_mask(self.leaked)
        return v

    monkeypatch.setattr(ref.ReferenceGame, "deal_hands", dealing)
    monkeypatch.setattr(ref.ReferenceGame, "new_view", leaking)
    a, _ = _first_decisions("informed", 1)
    b, _ = _first_decisions("informed", 2)
    assert a and b and not _same(a, b)


@pytest.mark.slow
@pytest.mark.parametrize("family,decide", [("heuristic", heuristic_decide), ("informed", informed_decide),
                                           ("mc", mc_decide)])
def test_public_signature_decides_as_the_engines_dispatcher(family, decide):
    # The families' wrappers with the public policy signature (one parameter row) make the
    # engines' decision at the no-peeking position, and the smear position's.
    rules, view, hand, _ = _position()
    params = np.array([v.default for v in FAMILIES[family].params], dtype=np.float64)
    if family == "mc":
        params[P_K] = 8
    opts, n = _opts(hand, 0)
    got = decide(L.K_PLAY, params, hand, bin(int(hand)).count("1"), opts, n, view.copy(), rules,
                 np.array([12345], dtype=np.uint64))
    assert got == _engine_decide(family, L.K_PLAY, params, hand, opts, n, view.copy(), rules,
                                 np.array([12345], dtype=np.uint64))


def test_sampler_deals_only_unseen_cards_with_sizes_and_voids():
    # The mc sampler: every sample is a partition of the unseen cards into the hidden hands with
    # their sizes, and no hand gets a suit its seat has shown void in (T-PLAY-1).
    _, view, hand, unseen = _position()
    need = np.array([5, 5, 6, 0, 0, 0, 0], dtype=np.int64)
    voids = np.array([0, 0, 0b11, 0, 0, 0, 0], dtype=np.int64)
    out = np.zeros(7, dtype=np.int64)
    cards = np.zeros(64, dtype=np.int64)
    rng = np.array([99], dtype=np.uint64)
    seen = set()
    for _ in range(200):
        assert sample_hands(rng, np.int64(unseen), need, voids, 3, out, cards)
        hands = [int(x) for x in out[:3]]
        assert [bin(h).count("1") for h in hands] == [5, 5, 6]
        assert hands[0] | hands[1] | hands[2] == unseen
        assert hands[0] & hands[1] == 0 and hands[0] & hands[2] == 0 and hands[1] & hands[2] == 0
        assert hands[2] & int(L.LANE_FULL | (L.LANE_FULL << L.LANE)) == 0  # no spade, no heart
        seen.add(tuple(hands))
    assert len(seen) > 50  # it really samples


def test_strong_families_reproducible_any_threads():
    # Principle 2 with the new families: same seed, same games on 1 and 2 threads and in chunks.
    import numba

    rules = GAME.build_rules("standard")
    run = GAME.new_run(rules, 4, GAME.strategies(["mc:k=3", "informed"], 4))
    numba.set_num_threads(1)
    g1, _ = run.raw(3, 0, 8, 0)
    numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
    g2, _ = run.raw(3, 0, 8, 0)
    g3 = np.concatenate([run.raw(3, 0, 5, 0)[0], run.raw(3, 5, 3, 0)[0]])
    assert (g1 == g2).all() and (g1 == g3).all()


def _informed(**values):
    params = np.array([v.default for v in FAMILIES["informed"].params], dtype=np.float64)
    names = [p.name for p in FAMILIES["informed"].params]
    for k, v in values.items():
        params[names.index(k)] = v
    return params


def _decide(kind, params, hand, opts, n, view, rules):
    return _engine_decide("informed", kind, params, hand, opts, n, view, rules, np.zeros(1, dtype=np.uint64))


def test_informed_short_gives_from_the_shortest_side_suit():
    # Seat 1 leads the 7♠ (no points: below ruff_min, so no ruff); seat 2 is void in spades
    # (T-PLAY-1: any card) and holds a trump. With short=0 it gives the cheapest card, the 8♦;
    # with short=1 (discarding; the default 3 includes it) the lowest pointless card of its
    # shortest side suit, the J♣ of J♣ Q♣, to be void in clubs sooner; short=2 (leading only)
    # does not change a discard.
    rules, view, _, _ = _position()
    view[L.V_LEADER] = 1
    view[L.V_N_IN] = 1
    view[L.V_WIN_SEAT] = 1
    view[L.V_WIN_FACE] = _face(0, "7")
    view[L.V_TRICK_FACES] = _face(0, "7")
    view[L.V_TRICK_FACES + 1] = -1
    view[L.V_TRICK_POINTS] = 0
    view[L.V_PLAYED] = int(view[L.V_PLAYED]) & ~int(_bit(_face(0, "K")))
    hand = _mask([_face(1, "7"), _face(2, "8"), _face(2, "9"), _face(2, "J"), _face(3, "J"), _face(3, "Q")])
    opts, n = _opts(hand, -1)  # no spade: any card
    faces = [int(f) for f in opts[:n]]
    assert faces[_decide(L.K_PLAY, _informed(short=0), hand, opts, n, view, rules)] == _face(2, "8")
    assert faces[_decide(L.K_PLAY, _informed(short=2), hand, opts, n, view, rules)] == _face(2, "8")
    assert faces[_decide(L.K_PLAY, _informed(short=1), hand, opts, n, view, rules)] == _face(3, "J")
    assert faces[_decide(L.K_PLAY, _informed(), hand, opts, n, view, rules)] == _face(3, "J")


def test_informed_drawlow_leads_a_low_trump_when_long_without_the_boss():
    # Seat 2 leads for the contract side (seat 0 bid) holding 7♥ 8♥ 9♥ of trumps; T♥ and J♥ are
    # unseen and seat 1 has not shown void in hearts, so an opponent may hold one. Without the
    # boss trump, with drawlow=0 it leads its cheapest side card (8♦); drawlow=3 (and the
    # default 2) leads the 7♥ to pull trumps; drawlow=4 needs four trumps.
    rules, view, _, _ = _position()
    view[L.V_LEADER] = 2
    view[L.V_N_IN] = 0
    view[L.V_LEAD_SUIT] = -1
    view[L.V_WIN_SEAT] = -1
    view[L.V_WIN_FACE] = -1
    view[L.V_TRICK_FACES] = -1
    view[L.V_TRICK_FACES + 1] = -1
    view[L.V_TRICK_POINTS] = 0
    hand = _mask([_face(1, "7"), _face(1, "8"), _face(1, "9"), _face(2, "8"), _face(2, "9"), _face(2, "J")])
    opts, n = _opts(hand, -1)
    faces = [int(f) for f in opts[:n]]
    assert faces[_decide(L.K_PLAY, _informed(drawlow=0, short=0), hand, opts, n, view, rules)] == _face(2, "8")
    assert faces[_decide(L.K_PLAY, _informed(drawlow=4, short=0), hand, opts, n, view, rules)] == _face(2, "8")
    assert faces[_decide(L.K_PLAY, _informed(drawlow=3), hand, opts, n, view, rules)] == _face(1, "7")
    assert faces[_decide(L.K_PLAY, _informed(), hand, opts, n, view, rules)] == _face(1, "7")


def test_informed_bid_offset_and_threat():
    # T-BID-2: the first bid is 50. A hand whose limit (aggr × estimate) is just under 50 passes;
    # boff adds points to the limit, and threat scales it when the opponents are within 50 of the
    # target (T-END-1: any contract of theirs would end the game).
    rules = GAME.build_rules("standard").encode()
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_TRICK_FACES:L.V_TRICK_FACES + L.MAX_SEATS] = -1
    for s in range(L.MAX_SEATS):
        view[L.V_SIDE + s] = s % 2 if s < 4 else -1
    view[L.V_BIDDER] = -1
    view[L.V_TRUMP] = -1
    view[L.V_LEAD_SUIT] = -1
    view[L.V_CALLED] = -1
    view[L.V_PARTNER] = -1
    view[L.V_ACTIVE] = 0b1111
    view[L.V_N_ACTIVE] = 4
    hand = _mask([_face(0, "A"), _face(0, "K"), _face(0, "T"), _face(0, "8"), _face(1, "7"), _face(2, "9"),
                  _face(2, "8"), _face(3, "7"), _face(3, "8")])
    params = _informed(threat=1.0)
    _, e = best_trump(hand, params[1] * 1.0)  # the partner allowance of one 9-card partner
    limit = e * params[0]
    assert 40 < limit < 50, limit  # the position is as described
    opts = np.zeros(L.MAX_OPTIONS, dtype=np.int64)
    opts[1:4] = [50, 55, 60]
    assert _decide(L.K_BID, params, hand, opts, 4, view, rules) == 0
    assert _decide(L.K_BID, _informed(boff=51 - limit), hand, opts, 4, view, rules) == 1
    assert _decide(L.K_BID, _informed(threat=1.25), hand, opts, 4, view, rules) == 0  # not near yet
    view[L.V_SCORES + 1] = 150
    assert _decide(L.K_BID, _informed(threat=51 / limit), hand, opts, 4, view, rules) == 1
    assert _decide(L.K_BID, params, hand, opts, 4, view, rules) == 0
