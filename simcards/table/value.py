"""The game-win value table: the chance that a side wins the game from given scores, by who deals.

Two sides race to a target (Gin: G-GAME-1, the first side to reach ``game_target`` wins). Each
hand (deal) moves the scores by a random amount whose law depends on who deals; the table is

    V[a, b, d] = P(side "me" wins the game | me at a, the other side at b, d = 1 if me deals next)

for ``0 <= a, b < target``. It is computed in two steps, neither of which names a game:

1. **The law of one hand**, from fast self-play with the numba kernel (``simcards.simulate`` with
   its per-hand table): for each hand, what the dealer's side and the other side gained (the
   running score columns' differences) and whether the same side deals the next hand (read off
   consecutive hands; the last hand of a game borrows the rate of hands with the same winner role).
2. **A dynamic programme over the score states**: value iteration of
   ``V[a, b, d] = sum_o P(o | d) * V[a + gain_me(o), b + gain_other(o), next dealer]`` with a side
   at or over the target worth 1 (0 for the other; a tie at or over it 1/2), until no value moves
   by more than 1e-10. Hands that score nothing (Gin's wall, G-WALL-1) are self-loops; they only
   slow the iteration down.

The table is computed once per (game, rules, strategy, games, seed) and cached on disk under
``simcards.compiling.cache_root() / "value"`` (an ``.npz``). :func:`win_table` returns it;
:meth:`WinTable.p_win` reads it, also at or beyond the target.

What the table assumes: both sides play the strategy of the self-play (``informed`` by default)
whatever the scores (no player here plays differently near the target), and hands are
independent given the dealer. Games the table does not fit (more than two sides scoring, Hollywood's
three games at once, a match of games) are refused with one line.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from simcards.errors import SimcardsError

TOL = 1e-10
MAX_ITER = 20_000
DEFAULT_GAMES = 4000
DEFAULT_STRATEGY = "informed"


@dataclass(frozen=True)
class HandLaw:
    """The law of one hand, seen from the side that deals it: rows ``(gain of the dealer's side,
    gain of the other side)`` with their probability ``p``, the chance ``same`` that the dealer's
    side deals the next hand too, and (optionally) ``tie``: who wins when the hand takes both
    sides over the top in the same hand (``TIE_DEALER``, ``TIE_OTHER``; ``TIE_HIGHER``, the
    default: the higher score, equal scores half each)."""

    gains: np.ndarray  # (n, 2) int64
    p: np.ndarray  # (n,) float
    same: np.ndarray  # (n,) float
    hands: int  # hands observed
    tie: np.ndarray | None = None  # (n,) int64: TIE_*; None: all TIE_HIGHER


TIE_DEALER, TIE_OTHER, TIE_HIGHER = 0, 1, 2


@dataclass(frozen=True)
class Race:
    """The bounds of a race (names no game): a side's score is *live* from ``lo`` to ``hi``
    (inclusive); a hand that takes a side over ``hi`` wins it the game (both over: the hand's tie
    rule), one that takes a side under ``lo`` loses it the game (both under: the higher score wins,
    equal scores half each); a side over ``hi`` beats one under ``lo``. ``resets``: a live score
    landed on exactly is moved (at most one move, before the bounds are read: Yaniv's Y-RESET-1
    order). Scores move in multiples of ``step`` (the table is stored on that lattice)."""

    lo: int
    hi: int
    resets: tuple[tuple[int, int], ...] = ()
    step: int = 1

    def reset(self, s: int) -> int:
        for a, b in self.resets:
            if s == a:
                return b
        return s

    def outcome(self, a: int, b: int, tie: int = TIE_HIGHER, a_dealt: bool = True) -> float | None:
        """P(the side at ``a`` wins) if the game is over at scores ``a``, ``b``; None if both are live."""
        up_a, up_b = a > self.hi, b > self.hi
        if up_a or up_b:
            if up_a and up_b and tie != TIE_HIGHER:
                return 1.0 if (tie == TIE_DEALER) == a_dealt else 0.0
            if up_a != up_b:
                return 1.0 if up_a else 0.0
            return 1.0 if a > b else 0.0 if b > a else 0.5
        down_a, down_b = a < self.lo, b < self.lo
        if down_a or down_b:
            if down_a != down_b:
                return 0.0 if down_a else 1.0
            return 1.0 if a > b else 0.0 if b > a else 0.5
        return None


@dataclass(frozen=True)
class WinTable:
    """``values[i, j, d]``: P(me wins | me at score ``lo + i * step``, the other at ``lo + j * step``;
    d = 1 if me deals next). See the module doc. ``target``: the first winning score (``hi + 1``)."""

    target: int
    values: np.ndarray
    law: HandLaw
    key: dict
    race: Race | None = None

    @property
    def bounds(self) -> Race:
        return self.race if self.race is not None else Race(0, self.target - 1)

    def p_win(self, me: int, other: int, me_deals: bool) -> float:
        """The chance that the side at ``me`` points wins against ``other`` when ``me_deals``
        (scores out of the live range: the game is over)."""
        r = self.bounds
        if self.race is None:  # a race from 0: a score under 0 reads as 0
            me, other = max(me, 0), max(other, 0)
        end = r.outcome(me, other)
        if end is not None:
            return end
        i, j = (me - r.lo) // r.step, (other - r.lo) // r.step
        return float(self.values[i, j, 1 if me_deals else 0])

    def after_hand(self, me: int, other: int, gain_me: int, gain_other: int, me_dealt: bool,
                   tie: int = TIE_HIGHER) -> float:
        """The chance of winning the game after a hand that ``me_dealt`` (or not) ended with these
        gains (``tie``: the hand's tie rule, ``TIE_*`` from the dealer's side): the bounds, the
        resets, then the next dealer as the hand law has it (the chance the same side deals again)."""
        r = self.bounds
        a, b = me + gain_me, other + gain_other
        end = r.outcome(a, b, tie, me_dealt)
        if end is not None:
            return end
        a, b = r.reset(a), r.reset(b)
        same = self.next_same(gain_me, gain_other, me_dealt)
        deals_next = same if me_dealt else 1.0 - same
        return deals_next * self.p_win(a, b, True) + (1 - deals_next) * self.p_win(a, b, False)

    def next_same(self, gain_me: int, gain_other: int, me_dealt: bool) -> float:
        """P(the side that dealt deals again) after such a hand (by which side won it)."""
        gd, go = (gain_me, gain_other) if me_dealt else (gain_other, gain_me)
        role = _role(gd, go)
        rates = self.key.get("same_by_role", {})
        return float(rates.get(str(role), 0.5))


def _role(gain_dealer: int, gain_other: int) -> int:
    """0: the dealer's side gained more, 1: the other side, 2: neither (a void hand)."""
    return 0 if gain_dealer > gain_other else 1 if gain_other > gain_dealer else 2


def hand_law(game_ids, dealer_side, gains, tie=None) -> tuple[HandLaw, dict]:
    """The law of one hand from self-play: per hand (in game order) its game, the side that dealt
    (0 or 1), each side's gain ``gains[:, side]`` and optionally its tie rule (``TIE_*``, from the
    dealer's side). Returns the law and the same-dealer rate per winner role (``_role``)."""
    game_ids = np.asarray(game_ids)
    dealer_side = np.asarray(dealer_side, dtype=np.int64)
    gains = np.asarray(gains, dtype=np.int64)
    n = len(game_ids)
    if n == 0:
        raise SimcardsError("the value table needs at least one hand of self-play")
    gd = gains[np.arange(n), dealer_side]
    go = gains[np.arange(n), 1 - dealer_side]
    roles = np.where(gd > go, 0, np.where(go > gd, 1, 2))
    has_next = np.zeros(n, dtype=bool)
    has_next[:-1] = game_ids[1:] == game_ids[:-1]
    same_next = np.zeros(n, dtype=bool)
    same_next[:-1] = dealer_side[1:] == dealer_side[:-1]
    rates = {}
    for r in (0, 1, 2):
        sel = has_next & (roles == r)
        rates[r] = float(same_next[sel].mean()) if sel.any() else (1.0 if r == 2 else 0.5)
    ties = np.full(n, TIE_HIGHER, dtype=np.int64) if tie is None else np.asarray(tie, dtype=np.int64)
    pairs, inverse = np.unique(np.stack([gd, go, ties], axis=1), axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    counts = np.bincount(inverse, minlength=len(pairs)).astype(float)
    same = np.array([rates[_role(int(x), int(y))] for x, y, _ in pairs])
    law = HandLaw(pairs[:, :2].astype(np.int64), counts / n, same, n,
                  None if tie is None else pairs[:, 2].astype(np.int64))
    return law, {str(k): v for k, v in rates.items()}


def solve(law: HandLaw, target: int) -> np.ndarray:
    """Value iteration of the race from 0 to ``target`` under ``law`` (gains of 0 or more);
    ``V[a, b, d]`` for ``0 <= a, b < target``."""
    if target < 1:
        raise SimcardsError(f"target {target}: the value table needs a positive game target")
    if (law.gains < 0).any():
        raise SimcardsError("a race from 0 to a target handles gains of 0 or more only (solve_race: scores "
                            "both ways)")
    return solve_race(law, Race(0, target - 1))


def lattice(law: HandLaw, race: Race) -> Race:
    """``race`` on the largest lattice every gain and reset is a multiple of (the scores from 0
    stay on it): its live bounds rounded inwards to the lattice, its ``step`` that lattice's."""
    from math import gcd

    g = 0
    for x in [*law.gains.reshape(-1).tolist(), *(v for r in race.resets for v in r)]:
        g = gcd(g, int(x))
    g = max(g, 1)
    return Race(-((-race.lo) // g) * g, (race.hi // g) * g, race.resets, g)


def solve_race(law: HandLaw, race: Race) -> np.ndarray:
    """Value iteration over the live score states of ``race`` under ``law`` (module doc; scores
    may move both ways): ``V[i, j, d]`` at scores ``lo + i * step``, ``lo + j * step``. Each sweep
    is a sum over the hand law, computed as a 2-D correlation of the state values (padded with
    the game's outcomes beyond the bounds) with the law's probabilities (FFT)."""
    from scipy.signal import correlate

    st = race.step
    if (law.gains % st).any() or race.lo % st or race.hi % st or race.hi < race.lo:
        raise SimcardsError(f"the race's scores are not on a lattice of {st} from {race.lo} to {race.hi}")
    n = (race.hi - race.lo) // st + 1
    g = law.gains // st
    gmin, gmax = min(int(g.min()), 0), max(int(g.max()), 0)
    size = n + gmax - gmin
    scores = race.lo + (np.arange(size) + gmin) * st  # padded index k -> score
    live = (scores >= race.lo) & (scores <= race.hi)
    # a live landing score -> the state it is reset to (Y-RESET-1: at most once)
    to_state = np.array([(race.reset(int(s)) - race.lo) // st if lv else 0 for s, lv in zip(scores, live)])
    if ((to_state < 0) | (to_state >= n)).any():
        raise SimcardsError("a reset leaves the live scores")
    li = np.flatnonzero(live)
    ties = law.tie if law.tie is not None else np.full(len(g), TIE_HIGHER, dtype=np.int64)
    # terminal pads per (tie rule, whether "me" dealt the hand)
    pads = {}
    for t in sorted({int(x) for x in ties}):
        for me_dealt in (True, False):
            pad = np.zeros((size, size))
            for i, a in enumerate(scores):
                for j, b in enumerate(scores):
                    end = race.outcome(int(a), int(b), t, me_dealt)
                    if end is not None:
                        pad[i, j] = end
            pads[t, me_dealt] = pad
    # the law's kernels: K[d][(tie, next dealer is me)][x - gmin, y - gmin]
    kw = gmax - gmin + 1
    kernels: dict[tuple[int, int, int], np.ndarray] = {}
    for (x, y), p, s, t in zip(g, law.p, law.same, ties):
        t = int(t)
        for d in (1, 0):
            mx, my = (x, y) if d == 1 else (y, x)  # me gains the dealer's if me dealt
            me_next_same = d == 1  # the dealer deals again with s: me deals next if me dealt
            for nd, w in ((1 if me_next_same else 0, s), (0 if me_next_same else 1, 1 - s)):
                if w * p == 0:
                    continue
                k = kernels.setdefault((d, t, nd), np.zeros((kw, kw)))
                k[mx - gmin, my - gmin] += p * w
    v = np.full((n, n, 2), 0.5)
    full = {key: pad.copy() for key, pad in pads.items()}
    for _ in range(MAX_ITER):
        new = np.zeros((n, n, 2))
        for (d, t, nd), k in kernels.items():
            pad = full[t, d == 1]
            pad[np.ix_(li, li)] = v[np.ix_(to_state[li], to_state[li])][:, :, nd]
            new[:, :, d] += correlate(pad, k, mode="valid", method="fft")
        np.clip(new, 0.0, 1.0, out=new)
        delta = float(np.abs(new - v).max())
        v = new
        if delta < TOL:
            break
    return v


# ----- per game: the self-play behind the law ---------------------------------------------------------
def covers(game: str, rules, players: int = 2) -> bool:
    """Whether the table fits ``game`` under ``rules`` (``players``: Yaniv's table): two sides
    racing (Gin to one target; Two Hundred's two teams to the target or the hole; two Yaniv players
    to elimination, without Kluft)."""
    if game == "yaniv":
        return players == 2 and not rules.kluft
    if game == "gin":
        return rules.players == 2 and not rules.hollywood and not rules.match_target and not rules.mahjong
    if game == "two-hundred":
        return rules.sides == 2 and rules.mode != "two-player"
    return False


def _gin_hands(rules, strategy: str, games: int, seed: int):
    """Gin (G-GAME-1): the kernel's per-hand table, each side's gain from the running scores."""
    if not covers("gin", rules):
        raise SimcardsError(f"Gin {rules.name}: the value table covers two players racing to one target "
                            "(not three players, teams, Hollywood or matches)")
    import simcards

    sim = simcards.simulate("gin", games=games, seed=seed, strategies=strategy, rules=_overrides(rules),
                            variant=_base(rules), threads=1)
    assert sim.detail is not None  # the per-hand table (detail=True)
    d = sim.detail.sort_values(["game", "hand"])
    scores = d[["score_0", "score_1"]].to_numpy(dtype=np.int64)
    game_ids = d["game"].to_numpy()
    prev = np.zeros_like(scores)
    prev[1:] = scores[:-1]
    first = np.ones(len(d), dtype=bool)
    first[1:] = game_ids[1:] != game_ids[:-1]
    prev[first] = 0
    return game_ids, d["dealer"].to_numpy(dtype=np.int64), scores - prev, None, None


def _two_hundred_hands(rules, strategy: str, games: int, seed: int):
    """Two Hundred's two sides (T-END-1/2): the kernel's per-deal table, each side's deal score,
    the dealing side (``dealer % 2``), and who wins when both sides reach the target in the deal
    (the contract team, T-END-1; a deal nobody bid scores nothing). Scores move both ways: the
    live scores run from ``hole + 1`` to ``target - 1`` (T-SC-3)."""
    if not covers("two-hundred", rules):
        raise SimcardsError(f"Two Hundred {rules.name}: the value table covers two sides (teams, six-2x3, kitty, "
                            "le-rough), not cutthroat, six-3x2 or the five-player and two-player tables")
    import simcards

    sim = simcards.simulate("two-hundred", games=games, seed=seed, strategies=strategy,
                            rules=_overrides(rules, "two-hundred"), variant=_base(rules), threads=1)
    assert sim.detail is not None
    d = sim.detail.sort_values(["game", "deal"])
    dealer_side = d["dealer"].to_numpy(dtype=np.int64) % 2
    gains = d[["deal_score_0", "deal_score_1"]].to_numpy(dtype=np.int64)
    ct = d["contract_team"].astype("float").fillna(-1).to_numpy().astype(np.int64)
    tie = np.where(ct < 0, TIE_HIGHER, np.where(ct == dealer_side, TIE_DEALER, TIE_OTHER))
    race = Race(int(rules.hole) + 1, int(rules.target) - 1)
    return d["game"].to_numpy(), dealer_side, gains, tie, race


def _yaniv_hands(rules, strategy: str, games: int, seed: int):
    """Two Yaniv players (Y-ELIM-1/2, Y-RESET-1, Y-V-RESET): the kernel's per-round table, each
    player's round score (Y-SC-1/2 and the options, from the hands, the caller and the rules'
    ``score_round``, before the resets), the starter as the dealing side. A race both ways on the
    scores negated: live from ``-out_over`` to 0, a side under it is out (both out: the lower total
    wins, Y-ELIM-2), the resets as moves of a live score. Y-V-THREE does not count with two
    players left (its Decision)."""
    if not covers("yaniv", rules):
        raise SimcardsError(f"Yaniv {rules.name}: the value table covers two players without Kluft")
    import simcards
    from simcards.games.yaniv.core import score_round

    sim = simcards.simulate("yaniv", games=games, seed=seed, strategies=strategy, players=2,
                            rules=_overrides(rules, "yaniv"), variant=_base(rules), threads=1)
    assert sim.detail is not None
    d = sim.detail[~sim.detail["playoff"].astype(bool)].sort_values(["game", "round"])
    enc = rules.encode()
    totals = d[["hand_0", "hand_1"]].to_numpy(dtype=np.int64)
    callers = d["caller"].astype("float").fillna(-1).to_numpy().astype(np.int64)
    alive = np.ones(8, dtype=np.int64)
    scored = np.zeros(8, dtype=np.int64)
    gains = np.zeros((len(d), 2), dtype=np.int64)
    for i in range(len(d)):
        t = np.zeros(8, dtype=np.int64)
        t[:2] = totals[i]
        score_round(int(callers[i]), t, alive, 2, enc, scored)
        gains[i] = -scored[:2]
    resets = tuple((-a, -b) for a, b in sorted(rules.reset_table().items()) if a != b)
    race = Race(-int(rules.out_over), 0, resets)
    return d["game"].to_numpy(), d["starter"].to_numpy(dtype=np.int64), gains, None, race


def _base(rules) -> str:
    """The preset the rules come from (their name up to a '+': the overrides follow)."""
    return rules.name.split("+")[0]


def _overrides(rules, game: str = "gin") -> dict:
    """The rules' options that differ from their preset."""
    import importlib

    preset = importlib.import_module(f"simcards.games.{game.replace('-', '_')}.rules").preset
    base = preset(_base(rules)).as_dict()
    return {k: v for k, v in rules.as_dict().items() if base.get(k) != v}


HANDS = {"gin": _gin_hands, "two-hundred": _two_hundred_hands, "yaniv": _yaniv_hands}
STRATEGY = {"gin": "informed", "two-hundred": "heuristic", "yaniv": "threshold"}  # the self-play (the game's default player for Two Hundred)


def _cache_path(key: dict) -> Path:
    from simcards.compiling import cache_root

    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return cache_root() / "value" / f"{key['game']}-{digest}.npz"


def win_table(game: str, rules, *, strategy: str | None = None, games: int = DEFAULT_GAMES, seed: int = 0,
              cache: bool = True) -> WinTable:
    """The value table of ``game`` under ``rules`` (a rules object: ``RunSpec.resolve(...).rules``),
    from ``games`` games of ``strategy`` self-play of ``seed`` (default: ``STRATEGY``); cached on disk."""
    from simcards.version import __version__

    if game not in HANDS:
        raise SimcardsError(f"{game}: no game-win value table yet (only {', '.join(HANDS)})")
    strategy = strategy or STRATEGY[game]
    key = {"game": game, "rules": rules.as_dict(), "strategy": strategy, "games": games, "seed": seed,
           "version": __version__, "format": 2}
    path = _cache_path(key)
    if cache and path.exists():
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                tie = z["tie"] if "tie" in z.files else None
                law = HandLaw(z["gains"], z["p"], z["same"], int(meta["hands"]), tie)
                race = Race(meta["race"][0], meta["race"][1], tuple(tuple(r) for r in meta["race"][2]),
                            meta["race"][3]) if meta.get("race") else None
                return WinTable(int(meta["target"]), z["values"], law, {**key, "same_by_role": meta["same_by_role"]},
                                race)
        except (OSError, KeyError, ValueError):
            pass  # a damaged cache file: computed again
    game_ids, dealer_side, gains, tie, race = HANDS[game](rules, strategy, games, seed)
    law, rates = hand_law(game_ids, dealer_side, gains, tie)
    if race is None:  # a race from 0 to the target (Gin)
        target = int(rules.game_target)
        values = solve(law, target)
    else:
        target = race.hi + 1
        race = lattice(law, race)
        values = solve_race(law, race)
    table = WinTable(target, values, law, {**key, "same_by_role": rates}, race)
    if cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = json.dumps({"target": target, "hands": law.hands, "same_by_role": rates,
                           "race": None if race is None else [race.lo, race.hi, [list(r) for r in race.resets],
                                                              race.step]})
        tmp = path.with_suffix(".tmp.npz")
        tie = law.tie if law.tie is not None else np.full(len(law.p), TIE_HIGHER, dtype=np.int64)
        np.savez(tmp, values=values, gains=law.gains, p=law.p, same=law.same, tie=tie, meta=np.array(meta))
        tmp.replace(path)
    return table
