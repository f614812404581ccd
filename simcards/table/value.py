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
independent given the dealer. Games the table does not fit (Hollywood's three games at once, a
match of games) are refused with one line; more than two sides scoring: below.

**More than two sides.** Where more than two sides score (Yaniv with 3+ players, Two
Hundred's ``cutthroat`` and ``six-3x2``), the state is too large for the programme above (three
or four scores, who is still in, who starts). The chance of winning is then estimated by a
**score-process Monte Carlo**, which names no game either:

1. **The law of one round** (:class:`RoundLaw`), from the same fast self-play: each round's
   outcome as the game writes it relative to the round's starter or dealer (Yaniv: the caller and
   the hand totals in play order from the starter), pooled by the game's *condition* (what the law
   depends on: how many are still in, which sides relative to the dealer). Drawing a round is
   drawing one observed round of its condition's pool (a bootstrap of the self-play's rounds).
2. **The game's step** (:class:`ScoreProcess`, the game's ``analysis.score_process``): the state
   (scores, who is in, who starts next) and one outcome -> the new state and the winner, through
   the game's own scoring functions (never rewritten here).
3. **Continuations**: each state (an option's sampled end of round) is played on to the game's
   end by drawing rounds from the law, ``continuations`` times; its value is the share of them the
   side wins. States that share a ``key`` (the options of one sampled deal) draw with the same
   uniform numbers round by round (common random numbers: the options' differences are paired).

What it assumes: rounds independent given the condition (the self-play's rounds, whatever the
scores), every side playing the self-play's strategy to the end.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numba import njit

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


# ----- per game: the self-play behind the law (each game's ``analysis`` module) -------------------------
def _analysis(game: str):
    """The game's ``analysis`` module: ``VALUE_SELF_PLAY`` (the strategy of the self-play),
    ``value_covers(rules, players)`` (whether the table fits) and ``value_hands(rules, strategy,
    games, seed)`` (the per-hand gains: game ids, dealing side, gains, tie rules, race)."""
    import importlib

    from simcards.games import GAMES, canonical

    return importlib.import_module(GAMES[canonical(game)].rsplit(".", 1)[0] + ".analysis")


def covers(game: str, rules, players: int = 2) -> bool:
    """Whether the table fits ``game`` under ``rules`` (``players``: Yaniv's table): two sides
    racing (Gin to one target; Two Hundred's two teams to the target or the hole; two Yaniv players
    to elimination, without Kluft)."""
    return bool(_analysis(game).value_covers(rules, players))


def base_preset(rules) -> str:
    """The preset the rules come from (their name up to a '+': the overrides follow)."""
    return rules.name.split("+")[0]


def overrides(rules, game: str) -> dict:
    """The rules' options that differ from their preset."""
    from simcards.games import get_game

    base = get_game(game).rules_module.preset(base_preset(rules)).as_dict()
    return {k: v for k, v in rules.as_dict().items() if base.get(k) != v}


def _save(path: Path, **arrays: np.ndarray) -> None:
    """``np.savez`` to ``path`` through a temporary file of this process and thread's own
    (``store.write_new``): builders of the same table at once each save it whole (a shared
    temporary name had one rename the file from under the other)."""
    from simcards.store import write_new

    def savez(tmp: Path) -> None:
        with open(tmp, "wb") as fh:  # (a file object: ``np.savez`` would add ``.npz`` to a path)
            np.savez(fh, **arrays)

    path.parent.mkdir(parents=True, exist_ok=True)
    write_new(path, savez)


def _cache_path(key: dict) -> Path:
    from simcards.compiling import cache_root

    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return cache_root() / "value" / f"{key['game']}-{digest}.npz"


def win_table(game: str, rules, *, strategy: str | None = None, games: int = DEFAULT_GAMES, seed: int = 0,
              cache: bool = True) -> WinTable:
    """The value table of ``game`` under ``rules`` (a rules object: ``RunSpec.resolve(...).rules``),
    from ``games`` games of ``strategy`` self-play of ``seed`` (default: the game's
    ``analysis.VALUE_SELF_PLAY``); cached on disk."""
    from simcards.version import __version__

    module = _analysis(game)
    strategy = strategy or module.VALUE_SELF_PLAY
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
    game_ids, dealer_side, gains, tie, race = module.value_hands(rules, strategy, games, seed)
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
        meta = json.dumps({"target": target, "hands": law.hands, "same_by_role": rates,
                           "race": None if race is None else [race.lo, race.hi, [list(r) for r in race.resets],
                                                              race.step]})
        tie = law.tie if law.tie is not None else np.full(len(law.p), TIE_HIGHER, dtype=np.int64)
        _save(path, values=values, gains=law.gains, p=law.p, same=law.same, tie=tie, meta=np.array(meta))
    return table


# ===== more than two sides: the score process, by Monte Carlo ==========================================


@dataclass(frozen=True)
class RoundLaw:
    """Rounds observed in self-play, by condition: ``pools[c]`` an ``(n_c, width)`` int64 array of
    outcomes (the game's layout, padded with 0)."""

    pools: dict[int, np.ndarray]
    rounds: int

    def draw(self, cond: np.ndarray, u: np.ndarray) -> np.ndarray:
        """One round for each condition ``cond[i]``: the row ``floor(u[i] * n)`` of its pool of ``n``
        (a condition never observed: the largest pool)."""
        keys, rows, start, size = self._flat()
        out = np.empty((len(cond), rows.shape[1]), dtype=np.int64)
        _draw(keys, rows, start, size, int(np.argmax(size)), np.ascontiguousarray(cond, dtype=np.int64),
              np.ascontiguousarray(u), out)
        return out

    def _flat(self):
        if "_flat_cache" not in self.__dict__:
            keys = np.array(sorted(self.pools), dtype=np.int64)
            size = np.array([len(self.pools[int(k)]) for k in keys], dtype=np.int64)
            start = np.concatenate([[0], np.cumsum(size)[:-1]]).astype(np.int64)
            rows = np.ascontiguousarray(np.concatenate([self.pools[int(k)] for k in keys]))
            object.__setattr__(self, "_flat_cache", (keys, rows, start, size))
        return self.__dict__["_flat_cache"]


@njit(cache=True)
def _draw(keys, rows, start, size, largest, cond, u, out):
    """``out[i]``: row ``floor(u[i] * n)`` of the pool of ``cond[i]`` (``keys`` sorted; a key not
    there: pool ``largest``), the pools laid end to end in ``rows`` from ``start`` with ``size``."""
    for i in range(len(cond)):
        j = np.searchsorted(keys, cond[i])
        if j >= len(keys) or keys[j] != cond[i]:
            j = largest
        n = size[j]
        r = min(np.int64(u[i] * n), n - 1)
        src = rows[start[j] + r]
        for c in range(rows.shape[1]):
            out[i, c] = src[c]


class ScoreProcess(Protocol):
    """A game's score process (``simcards.games.<g>.analysis.score_process(rules, players)``)."""

    sides: int  # the sides that may win (the winner is one of 0..sides-1)
    width: int  # a state's columns

    def condition(self, states: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The law's condition (its pool) for the next round of each state ``states[rows[i]]``."""

    def step(self, states: np.ndarray, rows: np.ndarray, outcomes: np.ndarray) -> np.ndarray:
        """States ``rows`` after one round each (``outcomes[i]`` for row ``rows[i]``), in place;
        returns each one's winner, or -1 while the game goes on."""


MAX_ROUNDS = 2000  # rounds a continuation plays at most (then it counts 1 / sides: never reached in practice)
DEFAULT_CONTINUATIONS = 16


@dataclass(frozen=True)
class WinProcess:
    """The chance of winning a game of more than two sides (the module's second part): a game's
    ``process`` and the ``law`` of its rounds. ``seed``: the continuations' random stream."""

    process: Any
    law: RoundLaw
    key: dict
    continuations: int = DEFAULT_CONTINUATIONS
    seed: int = 0

    def seeded(self, seed: int, index: int = 0) -> WinProcess:
        """The same, drawing from stream (``seed``, ``index``)."""
        from dataclasses import replace

        return replace(self, seed=_mix(int(seed), int(index)))

    def win_chance(self, states: np.ndarray, me: int, outcomes: np.ndarray | None = None,
                   keys: np.ndarray | None = None) -> np.ndarray:
        """(M,): each state's chance that side ``me`` wins, the mean over ``continuations`` games
        played on from it (``outcomes``: the round each state is in ends so first). ``keys``: states
        with the same key draw the same random numbers (default: each its own)."""
        states = np.ascontiguousarray(states, dtype=np.int64)
        m = len(states)
        c = self.continuations
        keys = np.arange(m) if keys is None else np.asarray(keys, dtype=np.int64)
        n_keys = int(keys.max()) + 1 if m else 0
        st = np.repeat(states, c, axis=0)
        stream = (np.repeat(keys, c) * c + np.tile(np.arange(c), m)).astype(np.int64)
        win = np.zeros(m * c)
        active = np.arange(m * c)
        rng = np.random.default_rng([self.seed, 0x5C0E])
        if outcomes is not None:
            first = np.repeat(np.ascontiguousarray(outcomes, dtype=np.int64), c, axis=0)
            active = self._settle(st, active, first, win, me)
        for _ in range(MAX_ROUNDS):
            if not len(active):
                break
            u = rng.random(n_keys * c)[stream[active]]
            cond = np.asarray(self.process.condition(st, active), dtype=np.int64)
            active = self._settle(st, active, self.law.draw(cond, u), win, me)
        win[active] = 1.0 / self.process.sides
        return win.reshape(m, c).mean(axis=1)

    def _settle(self, st, active, outcomes, win, me) -> np.ndarray:
        winners = np.asarray(self.process.step(st, active, outcomes))
        done = winners >= 0
        win[active[done]] = winners[done] == me
        return active[~done]


def _mix(seed: int, index: int) -> int:
    return int(hashlib.sha256(f"{seed}/{index}".encode()).hexdigest()[:15], 16)


def process_covers(game: str, rules, players: int) -> bool:
    """Whether the score-process Monte Carlo fits ``game`` (the game's ``analysis.process_covers``)."""
    module = _analysis(game)
    return hasattr(module, "process_covers") and bool(module.process_covers(rules, players))


def round_law(game: str, rules, players: int, *, strategy: str | None = None, games: int = DEFAULT_GAMES,
              seed: int = 0, cache: bool = True) -> RoundLaw:
    """The law of one round of ``game`` at ``players`` from ``games`` games of ``strategy``
    self-play (the game's ``analysis.value_rounds``: each round's condition and outcome); cached on
    disk like the value table."""
    from simcards.version import __version__

    module = _analysis(game)
    strategy = strategy or module.VALUE_SELF_PLAY
    key = {"game": game, "rules": rules.as_dict(), "players": players, "strategy": strategy, "games": games,
           "seed": seed, "version": __version__, "format": "rounds-1"}
    path = _cache_path(key)
    if cache and path.exists():
        try:
            with np.load(path, allow_pickle=False) as z:
                conds, out = z["conds"], z["outcomes"]
                return _pooled(conds, out)
        except (OSError, KeyError, ValueError):
            pass  # a damaged cache file: computed again
    conds, out = module.value_rounds(rules, players, strategy, games, seed)
    conds = np.asarray(conds, dtype=np.int64)
    out = np.ascontiguousarray(out, dtype=np.int64)
    if len(conds) == 0:
        raise SimcardsError("the round law needs at least one round of self-play")
    if cache:
        _save(path, conds=conds, outcomes=out)
    return _pooled(conds, out)


MIN_POOL = 50  # rounds a condition needs in the self-play to get its own pool (else the largest pool's)


def _pooled(conds: np.ndarray, out: np.ndarray) -> RoundLaw:
    """The law's pools: a condition seen in fewer than ``MIN_POOL`` rounds (Two Hundred's six-3x2
    after a team left: one game in 4000) draws from the largest pool."""
    pools = {int(c): np.ascontiguousarray(out[conds == c]) for c in np.unique(conds)}
    big = max(pools, key=lambda c: len(pools[c]))
    return RoundLaw({c: p for c, p in pools.items() if len(p) >= MIN_POOL or c == big}, len(conds))


def win_process(game: str, rules, players: int, *, strategy: str | None = None, games: int = DEFAULT_GAMES,
                seed: int = 0, continuations: int = DEFAULT_CONTINUATIONS, cache: bool = True) -> WinProcess:
    """The score-process Monte Carlo of ``game`` under ``rules`` with ``players`` (the module's
    second part): the game's ``analysis.score_process`` and the round law (cached on disk)."""
    module = _analysis(game)
    if not process_covers(game, rules, players):
        raise SimcardsError(f"{game} {rules.name}: no score process for {players} players")
    if hasattr(module, "law_players"):  # the table size the rules fix (Two Hundred: its seats), one law per rules
        players = int(module.law_players(rules, players))
    law = round_law(game, rules, players, strategy=strategy, games=games, seed=seed, cache=cache)
    key = {"game": game, "players": players, "strategy": strategy or module.VALUE_SELF_PLAY, "games": games,
           "seed": seed}
    return WinProcess(module.score_process(rules, players), law, key, continuations)
