"""Gin's option evaluator for ``simcards advise`` / ``analyze``: every legal option of one decision,
played on to the end of the hand in ``k`` determinized deals.

It reads only what the deciding seat may see (the view, its hand, the options; G-INFO-1) and reuses
the ``mc`` search player's machinery from ``search.py`` unchanged: the sampler
(``fitted_deal``: the opponent gets its known cards plus unseen ones, filtered by its draws and
checked against what it threw and let lie, with mc's params), and the rollout (``rollout``: both
players play ``simple``-like to the end of the hand, the searching player with mc's rollout rules,
``knock_points`` scoring a knock). Every option is played in the same deals (common random numbers),
so the differences between options are measured more precisely than their values.

What each kind of decision plays (the option first, then the rollout):

* ``K_DISCARD``: the card thrown; a discard that leaves a deadwood at or under informed's knock
  threshold knocks at once (as mc's search does), others play on from the opponent's draw.
* ``K_DRAW``: the stock's or the pile's top card, then the rollout's discard and play.
* ``K_KNOCK``: knock now (``knock_points``), or play on from the opponent's draw.
* ``K_UPCARD`` (G-FIRST-1): take it, then discard and play on; decline: the dealer declining lets the
  non-dealer draw from the stock; the non-dealer declining is played as the dealer's ordinary draw
  (it takes the upcard by the rollout's rule or draws from the stock; the rule's pass back to the
  non-dealer when both decline is not played).

Not evaluated (``NaN``): the wall's last chance (G-WALL-2), Mahjong's pickups (G-V-MJ), the choice
of an arrangement (G-LAY-0), and any view that does not fit a two-hand table (three players,
teams). Returns the hand's points from the deciding side (negative: the opponent's), times the
hand's stake (G-V-OKLA), one row per deal.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.games.gin.informed import informed_threshold
from simcards.games.gin.layout import (
    K_DISCARD,
    K_DRAW,
    K_KNOCK,
    K_UPCARD,
    V_DEALER,
    V_LIMIT,
    V_MASK,
    V_MY_TURNS,
    V_PILE,
    V_PLAYERS,
    V_SEAT,
    V_STAKE,
    V_TOP,
)
from simcards.games.gin.melds import SCRATCH_SIZE, deadwood
from simcards.games.gin.params import NEVER
from simcards.games.gin.position import KEYS, position_args
from simcards.games.gin.rules import R_MJ, R_MV
from simcards.games.gin.search import (
    ENDS_ROWS,
    P_FADE,
    P_RGIN,
    P_RKNOCK,
    P_ROUT,
    P_RTAKE,
    Plan,
    Sampler,
    bit,
    deal_space,
    fitted_deal,
    knock_points,
    rollout,
    sampler_terms,
)

EVALUATED = (K_UPCARD, K_DRAW, K_DISCARD, K_KNOCK)


@njit(cache=True)
def option_points(kind, params, opts, n_opts, view, rules, k, rng, out):
    """``out[s, a]``: the hand's points (the deciding side's; times the stake) when option ``a`` is
    played in sampled deal ``s`` (``s < k``), see the module doc. Returns False (``out`` untouched)
    when the decision is not one this evaluator plays."""
    if rules[R_MJ] != 0 or view[V_PLAYERS] != 2:
        return False
    if kind != K_DISCARD and kind != K_DRAW and kind != K_KNOCK and kind != K_UPCARD:
        return False
    mv = rules[R_MV]
    limit = view[V_LIMIT]
    mask = view[V_MASK]
    pool = np.empty(52, dtype=np.int64)
    known, n_opp, n_pool, ns = deal_space(view, pool)
    if n_opp < 0 or ns < 0:
        return False
    buf = np.empty(52, dtype=np.int64)
    stock = np.empty(52, dtype=np.int64)
    best_stock = np.empty(52, dtype=np.int64)
    scratch = np.zeros(SCRATCH_SIZE, dtype=np.int64)
    ends = np.zeros((ENDS_ROWS, 14), dtype=np.int64)
    idx = np.zeros(ENDS_ROWS, dtype=np.int64)
    extra, shown, tries, cap, last, depth = sampler_terms(params, view)
    smp = Sampler(pool, n_pool, n_opp, extra, known, shown, tries, cap, last, depth, limit, view, mv)
    my_gin = params[P_RGIN]
    plan = Plan(rules, mv, limit, stock, ns, scratch, ends, idx, params[P_RTAKE], params[P_RKNOCK], my_gin,
                params[P_ROUT], params[P_FADE])
    pile = view[V_PILE]
    top = view[V_TOP]
    turn = view[V_MY_TURNS] + 1
    knock_at = informed_threshold(params, view) if my_gin < NEVER else float(limit)
    dw_me = deadwood(mask, mv) if kind == K_DRAW or kind == K_UPCARD else 0
    dealer = view[V_DEALER] == view[V_SEAT]
    stake = view[V_STAKE] if view[V_STAKE] > 0 else 1
    for s in range(k):
        opp = fitted_deal(smp, buf, stock, best_stock, scratch, rng)
        dw_opp = deadwood(opp, mv)
        for a in range(n_opts):
            if kind == K_DISCARD:
                c = opts[a, 0]
                m10 = mask & ~bit(c)
                if opts[a, 1] <= knock_at and opts[a, 1] <= limit:
                    pts = knock_points(m10, opp, rules, mv, ends, idx)
                else:
                    pts = rollout(plan, m10, opp, opts[a, 1], dw_opp, c, 1, -1, turn + 1, pile | bit(c), known)
            elif kind == K_DRAW:
                pts = rollout(plan, mask, opp, dw_me, dw_opp, top, 0, opts[a, 0], turn, pile, known)
            elif kind == K_UPCARD:
                if opts[a, 0] == 1:
                    pts = rollout(plan, mask, opp, dw_me, dw_opp, top, 0, 1, turn, pile, known)
                elif dealer:
                    pts = rollout(plan, mask, opp, dw_me, dw_opp, top, 1, 0, turn, pile, known)
                else:
                    pts = rollout(plan, mask, opp, dw_me, dw_opp, top, 1, -1, turn, pile, known)
            else:  # K_KNOCK
                if opts[a, 0] == 1:
                    pts = knock_points(mask, opp, rules, mv, ends, idx)
                else:
                    pts = rollout(plan, mask, opp, opts[a, 1], dw_opp, top, 1, -1, turn + 1, pile, known)
            out[s, a] = pts * stake
    return True


# ----- the advice interface (``simcards.table.advise.GameAdvice``) ---------------------------------------
class GinAdvice:
    """Gin's side of ``simcards advise`` / ``analyze``: ``option_points`` over the ``deep`` preset's
    sampler, the win chance read at the scores after the hand's points (G-GAME-1)."""

    measure = "points this hand"
    sampler = "deep"  # checks a sampled opponent hand against its last turns (one that would have
    # knocked is redealt); with mc's plain sampler a knock at 8 deadwood looked undercut one time in two
    default_samples = 1000
    event = ""

    keys = KEYS
    example = "hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 3h"
    word = "points"
    point_marks = ((12.0, "??", "blunder"), (6.0, "?", "mistake"), (3.0, "?!", "inaccuracy"))  # Hollywood, match

    def check_rules(self, rules) -> None:
        from simcards.errors import SimcardsError

        if rules.players != 2 or rules.mahjong:
            raise SimcardsError(f"Gin {rules.name}: advice covers the two-player game without Mahjong pickups "
                                "(not three-player, four-player, tedesco-teams or mahjong)")

    def values(self, args, params, samples, rng):
        from simcards.table.advise import Values

        kind, opts, n_opts, view, rules = int(args[0]), args[5], int(args[6]), args[7], args[8]
        pts = np.zeros((samples, n_opts))
        if not option_points(kind, params, opts, n_opts, view, rules, samples, rng, pts):
            return None
        return Values(pts)

    def scores(self, args, rules):
        from simcards.games.gin.layout import V_MY_SCORE, V_OPP_SCORE

        view = args[7]
        return int(view[V_SEAT]), (int(view[V_MY_SCORE]), int(view[V_OPP_SCORE]))

    def wins(self, table, args, scores, values):
        view = args[7]
        me, other = scores
        dealt = bool(view[V_DEALER] == view[V_SEAT])
        cache: dict[int, float] = {}
        pts = values.points
        wins = np.empty_like(pts)
        flat, out = pts.reshape(-1), wins.reshape(-1)
        for i, p in enumerate(flat):
            v = int(p)
            if v not in cache:
                cache[v] = table.after_hand(me, other, max(v, 0), max(-v, 0), dealt)
            out[i] = cache[v]
        return wins

    def position(self, position, rules, players):
        self.check_rules(rules)
        return position_args(position, rules, players)

    def replay_line(self, events, hand, turn, kind):
        return None  # one replay line per engine event


ADVICE = GinAdvice()
