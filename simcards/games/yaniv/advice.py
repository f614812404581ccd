"""Yaniv's option evaluator for ``simcards advise`` / ``analyze``: every legal option of one call,
discard or draw decision played on to the end of the round in ``k`` determinized deals.

It reads only what the deciding seat may see (its hand, the options, the public view with the
round's memory: the faces lying in the pile, the faces known in each hand) and reuses the ``mc``
search player's machinery from ``search.py`` unchanged: ``sample_deal`` (each opponent gets its
known cards plus unseen ones up to its hand size, the rest is the stock in a random order; here
drawn uniformly, ``low`` = 0) and ``play_option`` (the option, then threshold play for everyone
to the end of the round: ``depth`` 1000 turns, the opponents calling at mc's ``opp_call``),
scored by ``round_value`` (Y-SC-1/2, the resets, elimination). Every option is played in the same
deals.

Returns, per deal and option, what the round gains the deciding seat on its opponents: the sum
over the opponents of their new score minus its own, less the same sum before the round (higher
is better; an elimination counts ``out_over`` more per opponent). For a call decision, also
whether calling is an Asaf in that deal (Y-SC-2: another player holds an equal or lower total).
With two players, also each player's round score (``scores[s, a]``: the deciding seat's, the
other's; Y-SC-1/2 before the resets), for the game-win value table (``simcards.table.value``):
``play_option`` returns only ``round_value``, so the round's caller (the deciding seat, the other,
or nobody: the stock ran out) is the one whose scoring of the final hands gives that value (the
deciding seat first when two fit; they then score the same, but in rare reset coincidences).
With any number of players (``scores`` wide enough), also the round's caller found the same way
(the deciding seat, the others in seat order, nobody) and every seat's final hand total: the
score process (``simcards.table.value.WinProcess``) ends the round with them through
``core.score_round`` and plays the game on.
Not evaluated (``False``): Kluft (Y-V-KLUFT) and the section-5 decisions (requests, grants,
slams, onderkluft, overcalls).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.games.yaniv.core import hand_total, score_round
from simcards.games.yaniv.layout import (
    K_CALL,
    K_DISCARD,
    K_DRAW,
    MAX_PLAYERS,
    V_ALIVE,
    V_PLAYERS,
    V_SCORES,
    V_SEAT,
    V_TOTAL,
)
from simcards.games.yaniv.position import KEYS, position_args
from simcards.games.yaniv.rules import R_KLUFT
from simcards.games.yaniv.search import (
    P_DEPTH,
    deal_scratch,
    play_option,
    round_value,
    sample_deal,
)

DEPTH = 1000  # turns: the rollouts play to the end of the round


@njit(cache=True)
def option_values(kind, params, hand, n, opts, n_opts, view, rules, rng, out, asaf, scores):
    """``out[s, a]``: option ``a``'s gain on the opponents in deal ``s`` of ``out``'s rows (module doc); ``asaf[s]``:
    1 when calling is an Asaf in deal ``s`` (call decisions); ``scores[s, a]``: with two players,
    the round scores of the deciding seat and of the other; when ``scores`` has ``3 + players``
    columns, also the round's caller (column 2: -1 nobody, -2 not found) and every seat's final
    hand total (columns 3..). False when not evaluated."""
    if rules[R_KLUFT] != 0 or (kind != K_CALL and kind != K_DISCARD and kind != K_DRAW):
        return False
    me = view[V_SEAT]
    players = view[V_PLAYERS]
    base = 0
    for p in range(players):
        if p != me and view[V_ALIVE + p]:
            base += view[V_SCORES + p] - view[V_SCORES + me]
    par = params.copy()
    par[P_DEPTH] = DEPTH
    opp_params, pool, deck, sample, t = deal_scratch(par, hand, n, view, rules)
    mine = view[V_TOTAL]
    totals = np.zeros(MAX_PLAYERS, dtype=np.int64)
    alive = np.ones(8, dtype=np.int64)
    scored = np.zeros(8, dtype=np.int64)
    wide = scores.shape[2] >= 3 + players  # the caller and every seat's total kept too
    for s in range(out.shape[0]):
        stock_n = sample_deal(me, hand, n, view, rules, rng, pool, deck, sample, 0)
        hit = 0
        for p in range(players):
            if p != me and view[V_ALIVE + p] and hand_total(sample.hands[p], sample.hand_n[p], rules) <= mine:
                hit = 1
        asaf[s] = hit
        for o in range(n_opts):
            for p in range(players):
                t.hand_n[p] = sample.hand_n[p]
                for i in range(sample.hand_n[p]):
                    t.hands[p, i] = sample.hands[p, i]
            for i in range(stock_n):
                t.stock[i] = sample.stock[i]
            v = play_option(kind, opts[o], t, stock_n, view, rules, par, opp_params, DEPTH)
            out[s, o] = v - base
            caller = -2
            if players == 2:
                caller = _round_scores(me, v, t, view, rules, totals, alive, scored)
                scores[s, o, 0] = scored[me]
                scores[s, o, 1] = scored[1 - me]
            elif wide:
                caller = _round_caller(me, v, t, view, rules, players, totals)
            if wide:
                scores[s, o, 2] = caller
                for p in range(players):
                    scores[s, o, 3 + p] = totals[p]
    return True


@njit(cache=True)
def _round_scores(me, value, t, view, rules, totals, alive, scored):
    """Two players: the round scores (``scored``) of the caller whose scoring of the final hands of
    ``t`` gives ``value`` (``round_value``): the deciding seat, the other, or nobody (-1)."""
    for p in range(2):
        totals[p] = hand_total(t.hands[p], t.hand_n[p], rules)
    other = 1 - me
    for c in (me, other, -1):
        if round_value(me, c, t.hands, t.hand_n, view, rules) == value:
            score_round(c, totals, alive, 2, rules, scored)
            return c
    score_round(-1, totals, alive, 2, rules, scored)
    return -2


@njit(cache=True)
def _round_caller(me, value, t, view, rules, players, totals):
    """Any number of players: the final hands' totals (``totals``, every seat; 0 for a seat out)
    and the round's caller, the first whose scoring of them gives ``value`` (``round_value``): the
    deciding seat, the others in seat order, nobody (-1; -2: none fits)."""
    for p in range(players):
        totals[p] = hand_total(t.hands[p], t.hand_n[p], rules) if view[V_ALIVE + p] else 0
    if round_value(me, me, t.hands, t.hand_n, view, rules) == value:
        return me
    for c in range(players):
        if c != me and view[V_ALIVE + c] and round_value(me, c, t.hands, t.hand_n, view, rules) == value:
            return c
    if round_value(me, -1, t.hands, t.hand_n, view, rules) == value:
        return -1
    return -2


# ----- the advice interface (``simcards.table.advise.GameAdvice``) ---------------------------------------
class YanivAdvice:
    """Yaniv's side of ``simcards advise`` / ``analyze``: ``option_values`` (the gain on the
    opponents this round, the Asaf of a call), and the win chance: with two players read after the
    round's scores (the value table of the scores negated: Y-ELIM-1/2, Y-RESET-1), with more the
    game played on from the round's end by the score process (``_process_wins``)."""

    measure = "gain this round"
    sampler = "mc"
    default_samples = 1000
    event = "Asaf (Y-SC-2)"
    keys = KEYS
    example = "hand 2s Ad Ac Jk; take 5s; sizes 2 5 5"
    word = "gain"
    # where no win chance is computed: the gain on the opponents lost, summed over them
    point_marks = ((20.0, "??", "blunder"), (10.0, "?", "mistake"), (5.0, "?!", "inaccuracy"))

    def check_rules(self, rules) -> None:
        from simcards.errors import SimcardsError

        if rules.kluft:
            raise SimcardsError(f"Yaniv {rules.name}: advice does not play Kluft (Y-V-KLUFT)")

    def values(self, args, params, samples, rng):
        from simcards.table.advise import Values

        kind, n, opts, n_opts, view, rules = int(args[0]), int(args[4]), args[5], int(args[6]), args[7], args[8]
        hand = np.ascontiguousarray(args[3], dtype=np.int64)
        pts = np.zeros((samples, n_opts))
        asaf = np.zeros(samples, dtype=np.int64)
        deal = np.zeros((samples, n_opts, 3 + int(view[V_PLAYERS])), dtype=np.int64)
        if not option_values(kind, params, hand, n, opts, n_opts, view, rules, rng, pts, asaf, deal):
            return None
        calls = tuple(a for a in range(n_opts) if kind == K_CALL and int(opts[a, 1]) == 1)  # row [1, 1] calls
        return Values(pts, deal, asaf, calls)

    def scores(self, args, rules):
        view = args[7]
        seat = int(view[V_SEAT])
        others = [p for p in range(int(view[V_PLAYERS])) if p != seat]
        return seat, (int(view[V_SCORES + seat]), *(int(view[V_SCORES + p]) for p in others))

    def wins(self, table, args, scores, values):
        """Two players: each deal's chance of winning the game for the deciding seat, the value
        table (scores negated: the lower the better) read after the round's scores, the resets and
        the elimination (Y-ELIM-1/2, Y-RESET-1); the seat that started this round as the dealing side."""
        from simcards.games.yaniv.layout import V_STARTER
        from simcards.table.advise import per_deal

        view = args[7]
        if not hasattr(table, "after_hand"):
            return self._process_wins(table, view, values)
        me_started = int(view[V_STARTER]) == int(view[V_SEAT])
        me, other = scores
        return per_deal(values.deal, lambda mine, theirs: table.after_hand(-me, -other, -mine, -theirs, me_started))

    @staticmethod
    def _process_wins(process, view, values):
        """Any number of players (``simcards.table.value.WinProcess``): each deal's round ended
        by its caller and final totals (``deal[s, a, 2:]``) from the view's state, then played on to
        the game's end by the round law, the options of one deal with the same random numbers."""
        pr = process.process
        players = pr.players
        deal = values.deal
        samples, n_opts = deal.shape[:2]
        state = pr.state(view)
        order = pr.order(state)
        place = np.full(players + 2, -1, dtype=np.int64)  # a caller's seat -> its place in the order (-1, -2: none)
        for j, seat in enumerate(order):
            place[seat] = j
        flat = deal.reshape(samples * n_opts, deal.shape[2])
        outcomes = np.zeros((len(flat), 1 + players), dtype=np.int64)
        outcomes[:, 0] = place[flat[:, 2]]
        outcomes[:, 1:1 + len(order)] = flat[:, 3 + np.array(order, dtype=np.int64)]
        states = np.repeat(state[None, :], len(flat), axis=0)
        keys = np.repeat(np.arange(samples), n_opts)
        return process.win_chance(states, int(view[V_SEAT]), outcomes, keys).reshape(samples, n_opts)

    def position(self, position, rules, players):
        return position_args(position, rules, players)

    def replay_line(self, events, hand, turn, kind):
        return None  # one replay line per engine event


ADVICE = YanivAdvice()
