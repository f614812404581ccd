"""Two Hundred's option evaluator for ``simcards advise`` / ``analyze``: every legal option of one
bid, bury, trump or card-play decision played on to the end of the deal in ``k`` determinized
deals, all options in the same deals.

It reads only what the deciding seat may see (its hand, the public view, its own buried kitty)
and reuses the ``mc`` search player's machinery from ``search.py``:

* **A card** (``K_PLAY``): ``mc_play``'s steps with each deal's value kept — the hidden holders
  (``holders``: every other seat in play with the cards it still holds, no card of a suit it
  showed void in, then the kitty), the deal (``sampled_deal``), the card played and the rollout
  to the last trick (``played_out``: mc's rollout policy, the heuristic's card play unless mc's
  ``rollout`` param asks for the informed one).
* **A bid or a pass** (``K_BID``), **a card buried** (``K_DISCARD``, T-V-KITTY, T-V-ROUGH) and
  **a trump** (``K_TRUMP``, T-TRUMP-1): every other seat in play gets a full hand of the unseen
  cards, and the kitty too while the seat has not taken it (``sample_hands``), dealt again (up to
  ``TRIES`` times, else the deal that fits best is kept) until the rollout policy holding them
  would have bid and passed as those seats did in the auction so far (``auction_history``: read
  off the view when it reads one way; a seat that raised twice leaves the hands unweighed); the
  option is played, then the deal is completed by the
  rollout policy: the auction (T-BID-1..5, every seat bidding as the ``informed`` family, mc's
  own choice where it does not search), the bidder taking the kitty and burying as many cards,
  the trump (the heuristic's, T-V-ROUGH's no trump where allowed), and the card play from the
  first trick, the bidder leading (T-LEAD-1). An auction everyone passes is thrown in: nothing
  scored (T-BID-5).

The deal's value for the deciding side is ``deal_value`` without mc's ``win`` bonus: the side's
deal score (T-SC-2 and the options, ``core.deal_scores``) minus the mean of the other sides' in
play (the **margin**). ``scores[s, a]`` keeps the deal's score of the deciding side and of the
other side, and whether the deciding side holds the contract (1), another side (0), or nobody
(-1, thrown in): the game-win value table is read at them (two sides, ``simcards.table.value``;
both sides at the target: the contract team wins, T-END-1). When ``scores`` has ``4 + sides``
columns, also the contract side (column 3, -1 thrown in) and every side's deal score (columns
4..): the score process (``simcards.table.value.WinProcess``: cutthroat, six-3x2) adds them to
the scores and plays the game on.

Not evaluated (``False``): T-V-5P's call, and the tables the sampler cannot rebuild
(``search.searchable``: T-V-2P's face-down piles, T-V-5P's secret partner).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.games.two_hundred.core import card_points, deal_scores, legal_options, n_cards, next_seat
from simcards.games.two_hundred.layout import (
    BIT_OF_FACE,
    K_BID,
    K_DISCARD,
    K_PLAY,
    K_TRUMP,
    MAX_OPTIONS,
    MAX_SEATS,
    NO_TRUMP,
    V_ACTIVE,
    V_BID,
    V_BIDDER,
    V_BIDS,
    V_DEALER,
    V_LEADER,
    V_N_ACTIVE,
    V_OWN_SEEN,
    V_PASSED,
    V_PLAYED,
    V_SCORES,
    V_SEAT,
    V_SIDE,
    V_TAKEN,
    V_TRUMP,
)
from simcards.games.two_hundred.params import P_ROLLOUT
from simcards.games.two_hundred.policies import SID_HEURISTIC, builtin_contract, informed_bid
from simcards.games.two_hundred.position import KEYS, position_args
from simcards.games.two_hundred.rules import (
    R_DEALER_BIDS,
    R_DECK,
    R_DECK_MASK,
    R_DUMMIES,
    R_KITTY,
    R_MAX_BID,
    R_MIN_BID,
    R_NO_TRUMP,
    R_SEATS,
    R_SIDES,
    R_STEP,
)
from simcards.games.two_hundred.search import (
    deal_value,
    first_trick,
    holder_scratch,
    holders,
    kitty_known,
    others_in_play,
    played_out,
    rollout,
    sample_hands,
    sampled_deal,
    searchable,
    seat_hands,
)


def option_values(kind, params, hand, opts, n_opts, view, rules, k, rng, out, scores):
    """``out[s, a]``: option ``a``'s deal margin for the deciding side in sampled deal ``s`` (module
    doc); ``scores[s, a, 0]``, ``scores[s, a, 1]``: the deal's score of the deciding side and of the
    other side (side ``1 - side``: two sides); ``scores[s, a, 2]``: 1 when the deciding side holds
    the contract, 0 another side, -1 nobody (thrown in). False when the decision is not evaluated.
    (Two compiled functions, the card play's and the contract's: a card's first advice does not
    compile the auction.)"""
    if kind == K_PLAY:
        return card_values(params, hand, opts, n_opts, view, rules, k, rng, out, scores)
    if kind in (K_BID, K_TRUMP, K_DISCARD):
        history = auction_history(view, rules)
        hist = np.zeros((len(history) if history else 0, 2), dtype=np.int64)
        if history:
            hist[:] = history
        return contract_values(kind, params, hand, opts, n_opts, view, rules, k, rng, out, scores, hist)
    return False


def auction_history(view, rules) -> list[tuple[int, int]] | None:
    """The auction so far as (seat, bid or 0 for a pass), in turn from the dealer's left, read off
    the view (each seat's highest bid and who passed, T-BID-1..4), when it reads one way: every
    seat made at most its one bid, at its first turn. ``None`` when it does not (a seat raised
    twice): the sampled hands are then not weighed by the bids."""
    seats = int(rules[R_SEATS])
    bidders = [p for p in range(seats) if (int(view[V_ACTIVE]) >> p) & 1 and not (int(rules[R_DUMMIES]) >> p) & 1]
    bids = {p: int(view[V_BIDS + p]) for p in bidders}
    passed = {p for p in bidders if (int(view[V_PASSED]) >> p) & 1}
    out: list[tuple[int, int]] = []
    high = 0
    done: set[int] = set()
    gone: set[int] = set()
    cur = int(view[V_DEALER])
    for _ in range(4 * seats):
        if done == {p for p in bidders if bids[p]} and gone == passed:
            return out
        cur = next((q for q in ((cur + i) % seats for i in range(1, seats + 1)) if q in bidders and q not in gone), -1)
        if cur < 0:
            return None
        if bids[cur] and cur not in done:
            if bids[cur] <= high:
                return None
            out.append((cur, bids[cur]))
            done.add(cur)
            high = bids[cur]
        elif cur in passed:
            out.append((cur, 0))
            gone.add(cur)
        else:
            return None
    return None


@njit(cache=True)
def _keep(rv, rules, side, kitty_points, ds, out, scores, s, i):
    """Deal ``s``, option ``i``: the margin and the two sides' deal scores of the deal ended in ``rv``."""
    out[s, i] = deal_value(rv, rules, side, kitty_points, 0.0)
    cs = rv[V_SIDE + rv[V_BIDDER]]
    deal_scores(rv[V_TAKEN:V_TAKEN + MAX_SEATS], MAX_SEATS, cs, -1, rv[V_BID], kitty_points,
                rv[V_TRUMP] == NO_TRUMP, rules, ds)
    scores[s, i, 0] = ds[side]
    scores[s, i, 1] = ds[1 - side] if side <= 1 else 0
    scores[s, i, 2] = 1 if cs == side else 0
    if scores.shape[2] > 3:  # every side's deal score and the contract side (the score process)
        scores[s, i, 3] = cs
        for j in range(scores.shape[2] - 4):
            scores[s, i, 4 + j] = ds[j]


@njit(cache=True)
def _deal_scratch(view):
    """Scratch for playing sampled deals out: the dealt hands, the hands in play, the view and the
    deal's scores."""
    return (np.zeros(MAX_SEATS, dtype=np.int64), np.zeros(MAX_SEATS, dtype=np.int64), np.empty_like(view),
            np.zeros(MAX_SEATS, dtype=np.int64))


@njit(cache=True)
def card_values(params, hand, opts, n_opts, view, rules, k, rng, out, scores):
    """A card (``K_PLAY``): ``option_values``."""
    if not searchable(rules):
        return False
    table = params.reshape((1, params.shape[0]))
    seat = view[V_SEAT]
    n_tricks = (rules[R_DECK] - rules[R_KITTY]) // view[V_N_ACTIVE]
    unseen = rules[R_DECK_MASK] & ~view[V_PLAYED] & ~hand & ~view[V_OWN_SEEN]
    need, voids, seats, held, cards = holder_scratch()
    n_h = holders(view, rules, seat, n_tricks, unseen, need, voids, seats)
    if n_h < 0:
        return False
    kitty = kitty_known(view, rules, seat)
    informed = table[0, P_ROLLOUT] >= 0.5
    side = view[V_SIDE + seat]
    base, hands, rv, ds = _deal_scratch(view)
    for s in range(k):
        kitty_points = sampled_deal(rng, unseen, need, voids, n_h, held, cards, seats, seat, hand, kitty, base)
        for i in range(n_opts):
            played_out(table, 0, base, hands, rv, view, rules, seat, opts[i], n_tricks, informed)
            _keep(rv, rules, side, kitty_points, ds, out, scores, s, i)
    return True


@njit(cache=True)
def _auction(table, hands, rv, rules, seat, bid, bopts):
    """T-BID-1..5 from ``seat``'s ``bid`` (0: pass) on: every later bid by the rollout policy
    (``informed_table``), clockwise among the bidding seats; a pass is final; a bid followed by
    everyone else passing ends it; a dealer whom all others passed may only pass where the rules
    say so (T-V-ROUGH). Returns the bidder (-1: everybody passed, T-BID-5); ``rv`` holds the auction."""
    n_seats = rules[R_SEATS]
    bidders = rv[V_ACTIVE] & ~rules[R_DUMMIES]
    n_bidders = n_cards(bidders)
    dealer = rv[V_DEALER]
    barred = rules[R_DEALER_BIDS] == 0
    high = rv[V_BID]
    bidder = rv[V_BIDDER]
    passed = rv[V_PASSED]
    n_passed = n_cards(passed & bidders)
    cur = seat
    v = bid
    while True:
        if v == 0:
            passed |= 1 << cur
            n_passed += 1
            rv[V_PASSED] = passed
        else:
            high = v
            bidder = cur
            rv[V_BID] = v
            rv[V_BIDDER] = cur
            rv[V_BIDS + cur] = v
        if n_passed == n_bidders or (n_passed == n_bidders - 1 and bidder >= 0):
            return bidder
        cur = next_seat(cur, bidders & ~passed, n_seats)
        bopts[0] = 0
        n = 1
        if not (barred and cur == dealer and n_passed == n_bidders - 1):
            b = rules[R_MIN_BID] if high == 0 else high + rules[R_STEP]
            while b <= rules[R_MAX_BID]:
                bopts[n] = b
                n += 1
                b += rules[R_STEP]
        rv[V_SEAT] = cur
        rv[V_OWN_SEEN] = 0
        v = bopts[informed_bid(table, cur, hands[cur], bopts, rv, rules)] if n > 1 else 0


@njit(cache=True)
def _bury(table, hands, rv, rules, bidder, buried, bopts, rng):
    """T-V-KITTY, T-V-ROUGH: the bidder (holding the kitty) buries cards until the kitty is full
    again, each by the rollout policy (the heuristic's; ``rng`` is not drawn from). Returns the buried cards."""
    while n_cards(buried) < rules[R_KITTY]:
        n = legal_options(hands[bidder], -1, bopts)
        rv[V_SEAT] = bidder
        rv[V_OWN_SEEN] = buried
        c = builtin_contract(K_DISCARD, SID_HEURISTIC, table, hands[bidder], bopts, n, rv, rules, rng)
        bit = np.int64(1) << BIT_OF_FACE[bopts[c]]
        hands[bidder] &= ~bit
        buried |= bit
    return buried


@njit(cache=True)
def _trump(table, hands, rv, rules, bidder, buried, bopts, rng):
    """T-TRUMP-1, T-V-ROUGH: the trump the rollout policy names for the bidder (no trump = 4)."""
    n = 5 if rules[R_NO_TRUMP] == 1 else 4
    for t in range(n):
        bopts[t] = t
    rv[V_SEAT] = bidder
    rv[V_OWN_SEEN] = buried
    return bopts[builtin_contract(K_TRUMP, SID_HEURISTIC, table, hands[bidder], bopts, n, rv, rules, rng)]


TRIES = 100  # deals dealt at most for one sample until the other seats' bids fit (else the best fit is kept)


@njit(cache=True)
def _misfits(table, base, view, rules, seat, history, sim, bopts):
    """How many of the other seats' bids and passes of ``history`` the rollout policy
    (``informed_bid``), holding the sampled hands ``base``, would not have made where they were
    made (0: all of them). A bid above the lowest legal one is not checked: the policy never jumps."""
    sim[:] = view
    sim[V_BID] = 0
    sim[V_BIDDER] = -1
    sim[V_PASSED] = 0
    sim[V_OWN_SEEN] = 0
    for p in range(MAX_SEATS):
        sim[V_BIDS + p] = 0
    n_bidders = n_cards(view[V_ACTIVE] & ~rules[R_DUMMIES])
    n_passed = 0
    miss = 0
    for j in range(len(history)):
        p = history[j, 0]
        b = history[j, 1]
        if p != seat:
            lowest = rules[R_MIN_BID] if sim[V_BIDDER] < 0 else sim[V_BID] + rules[R_STEP]
            barred = rules[R_DEALER_BIDS] == 0 and p == view[V_DEALER] and n_passed == n_bidders - 1
            if not barred and lowest <= rules[R_MAX_BID]:
                bopts[0] = 0
                bopts[1] = lowest
                sim[V_SEAT] = p
                c = informed_bid(table, p, base[p], bopts, sim, rules)
                if (b == 0 and c != 0) or (b == lowest and c != 1):
                    miss += 1
        if b == 0:
            sim[V_PASSED] |= 1 << p
            n_passed += 1
        else:
            sim[V_BID] = b
            sim[V_BIDDER] = p
            sim[V_BIDS + p] = b
    return miss


@njit(cache=True)
def contract_values(kind, params, hand, opts, n_opts, view, rules, k, rng, out, scores, history):
    """A bid, a card buried or a trump: ``option_values``. ``history``'s rows: the auction so far
    as (seat, bid or 0) in turn order (``auction_history``); a sampled deal is dealt again, up to
    ``TRIES`` times, until the rollout policy would have bid as the other seats did (else the deal
    that fits the most of their bids is kept)."""
    if not searchable(rules):
        return False
    table = np.empty((MAX_SEATS, params.shape[0]))  # the policy's row of every seat (it reads row = seat)
    for p in range(MAX_SEATS):
        table[p] = params
    seat = view[V_SEAT]
    n_tricks = (rules[R_DECK] - rules[R_KITTY]) // view[V_N_ACTIVE]
    unseen = rules[R_DECK_MASK] & ~hand & ~view[V_OWN_SEEN]
    need, voids, seats, held, cards = holder_scratch()
    n_h = others_in_play(view, rules, seat, n_tricks, need, seats)
    with_kitty = rules[R_KITTY] > 0
    if with_kitty and kind == K_BID:  # the kitty is hidden until the bidder takes it
        seats[n_h] = -1
        need[n_h] = rules[R_KITTY]
        n_h += 1
    total = 0
    for i in range(n_h):
        total += need[i]
    if total != n_cards(unseen):
        return False
    informed = table[0, P_ROLLOUT] >= 0.5
    side = view[V_SIDE + seat]
    base, hands, rv, ds = _deal_scratch(view)
    bopts = np.zeros(MAX_OPTIONS, dtype=np.int64)
    sim = np.empty_like(view)
    best = np.zeros(MAX_SEATS, dtype=np.int64)
    for s in range(k):
        kitty = np.int64(0)
        fewest = 1 << 30
        for _ in range(TRIES):
            sample_hands(rng, unseen, need, voids, n_h, held, cards)
            j = seat_hands(base, seat, hand, n_h, held, seats)
            dealt = np.int64(0) if j < 0 else held[j]
            m = 0 if len(history) == 0 else _misfits(table, base, view, rules, seat, history, sim, bopts)
            if m < fewest:
                fewest = m
                best[:] = base
                kitty = dealt
            if m == 0:
                break
        base[:] = best
        for i in range(n_opts):
            hands[:] = base
            rv[:] = view
            buried = np.int64(0) if kind == K_BID else view[V_OWN_SEEN]
            trump = opts[i] if kind == K_TRUMP else -1
            bidder = seat
            if kind == K_BID:
                bidder = _auction(table, hands, rv, rules, seat, opts[i], bopts)
                if bidder < 0:  # T-BID-5: thrown in, nobody scores
                    out[s, i] = 0.0
                    scores[s, i, 0] = 0
                    scores[s, i, 1] = 0
                    scores[s, i, 2] = -1
                    for j in range(3, scores.shape[2]):
                        scores[s, i, j] = -1 if j == 3 else 0
                    continue
                hands[bidder] |= kitty
            elif kind == K_DISCARD:
                bit = np.int64(1) << BIT_OF_FACE[opts[i]]
                hands[seat] &= ~bit
                buried |= bit
            if with_kitty and kind != K_TRUMP:
                buried = _bury(table, hands, rv, rules, bidder, buried, bopts, rng)
            if trump < 0:
                trump = _trump(table, hands, rv, rules, bidder, buried, bopts, rng)
            rv[V_TRUMP] = trump  # the play from the first trick, the bidder leading (T-LEAD-1)
            rv[V_LEADER] = -1
            first_trick(rv)
            rollout(table, 0, hands, rv, rules, bidder, n_tricks, informed)
            _keep(rv, rules, side, card_points(buried) if with_kitty else 0, ds, out, scores, s, i)
    return True


# ----- the advice interface (``simcards.table.advise.GameAdvice``) ---------------------------------------
class TwoHundredAdvice:
    """Two Hundred's side of ``simcards advise`` / ``analyze`` (module doc): the deal margin, and
    the win chance: on the two-side tables read at the deal's scores (T-END-1/2, T-SC-3), on
    cutthroat and six-3x2 the game played on from them by the score process (``_process_wins``)."""

    measure = "deal margin"
    sampler = "mc"
    default_samples = 1000
    event = ""
    keys = KEYS
    example = "hand s:AQ h:A9 d:A85 c:J9; dealer 3"
    word = "margin"
    # where no win chance is computed: the deal margin lost (the side's deal score minus the others' mean)
    point_marks = ((40.0, "??", "blunder"), (20.0, "?", "mistake"), (10.0, "?!", "inaccuracy"))

    def check_rules(self, rules) -> None:
        from simcards.errors import SimcardsError

        if rules.mode in ("two-player", "five-player"):
            raise SimcardsError(f"Two Hundred {rules.name}: advice cannot sample this table (T-V-2P's face-down "
                                "piles, T-V-5P's secret partner)")

    def values(self, args, params, samples, rng):
        from simcards.table.advise import Values

        kind, opts, n_opts, view, rules = int(args[0]), args[4], int(args[5]), args[6], args[7]
        pts = np.zeros((samples, n_opts))
        deal = np.zeros((samples, n_opts, 4 + int(rules[R_SIDES])), dtype=np.int64)
        if not option_values(kind, params, np.int64(args[3]), opts, n_opts, view, rules, samples, rng, pts, deal):
            return None
        return Values(pts, deal)

    def scores(self, args, rules):
        view = args[6]
        seat = int(view[V_SEAT])
        mine = int(view[V_SIDE + seat])
        sides = sorted({int(view[V_SIDE + p]) for p in range(rules.seats)})
        return seat, (int(view[V_SCORES + mine]), *(int(view[V_SCORES + x]) for x in sides if x != mine))

    def wins(self, table, args, scores, values):
        """Each deal's chance of winning the game for the deciding side: the value table read at the
        scores the deal ends with (T-END-1/2: the target, the hole; both sides at the target: the
        contract team wins; a deal thrown in scores nothing)."""
        from simcards.table.value import TIE_DEALER, TIE_HIGHER, TIE_OTHER

        view = args[6]
        mine = int(view[V_SIDE + int(view[V_SEAT])])
        if not hasattr(table, "after_hand"):
            return self._process_wins(table, view, values, mine)
        me_dealt = int(view[V_SIDE + int(view[V_DEALER])]) == mine
        me, other = scores
        ties = {1: TIE_DEALER if me_dealt else TIE_OTHER, 0: TIE_OTHER if me_dealt else TIE_DEALER, -1: TIE_HIGHER}
        cache: dict[tuple[int, int, int], float] = {}
        deal = values.deal
        wins = np.empty(deal.shape[:2])
        for s in range(deal.shape[0]):
            for a in range(deal.shape[1]):
                g = (int(deal[s, a, 0]), int(deal[s, a, 1]), int(deal[s, a, 2]))
                if g not in cache:
                    cache[g] = table.after_hand(me, other, g[0], g[1], me_dealt, ties[g[2]])
                wins[s, a] = cache[g]
        return wins

    @staticmethod
    def _process_wins(process, view, values, mine):
        """More than two sides (``simcards.table.value.WinProcess``): each sampled deal's scores
        (every side's, ``deal[s, a, 4:]``, and the contract side) added to the view's state, then
        the game played on to its end by the deal law, the options of one deal with the same random
        numbers."""
        pr = process.process
        deal = values.deal
        samples, n_opts = deal.shape[:2]
        flat = deal.reshape(samples * n_opts, deal.shape[2])
        states = np.repeat(pr.state(view)[None, :], len(flat), axis=0)
        outcomes = pr.outcomes(states, flat[:, 3], flat[:, 4:4 + pr.sides])
        keys = np.repeat(np.arange(samples), n_opts)
        return process.win_chance(states, mine, outcomes, keys).reshape(samples, n_opts)

    def position(self, position, rules, players):
        self.check_rules(rules)
        return position_args(position, rules, players)

    def replay_line(self, events, hand, turn, kind):
        """The replay is written per deal and trick: a card goes after its trick's line, a bid
        after the auction's, the trump, the bury or a call after the contract's."""
        start = next((i for i, e in enumerate(events) if e.startswith(f"— deal {hand}:")), 0)
        want = {"play": f"  trick {turn}:", "bid": "  auction:"}.get(kind)
        for j in range(start + 1, len(events)):
            e = events[j]
            if e.startswith("— deal"):
                break
            if (want is not None and e.startswith(want)) or (want is None and "contracts for" in e):
                return j
        return start


ADVICE = TwoHundredAdvice()
