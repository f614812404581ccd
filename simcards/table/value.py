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
    gain of the other side)`` with their probability ``p`` and the chance ``same`` that the
    dealer's side deals the next hand too."""

    gains: np.ndarray  # (n, 2) int64
    p: np.ndarray  # (n,) float
    same: np.ndarray  # (n,) float
    hands: int  # hands observed


@dataclass(frozen=True)
class WinTable:
    """``values[a, b, d]``: P(me wins | scores a, b; d = 1 if me deals next). See the module doc."""

    target: int
    values: np.ndarray
    law: HandLaw
    key: dict

    def p_win(self, me: int, other: int, me_deals: bool) -> float:
        """The chance that the side at ``me`` points wins against ``other`` when ``me_deals``
        (scores at or over the target: the game is over)."""
        t = self.target
        if me >= t or other >= t:
            return 1.0 if me > other else 0.0 if other > me else 0.5
        return float(self.values[max(me, 0), max(other, 0), 1 if me_deals else 0])

    def after_hand(self, me: int, other: int, gain_me: int, gain_other: int, me_dealt: bool) -> float:
        """The chance of winning the game after a hand that ``me_dealt`` (or not) ended with these
        gains: the next dealer as the hand law has it (the chance the same side deals again)."""
        a, b = me + gain_me, other + gain_other
        if a >= self.target or b >= self.target:
            return self.p_win(a, b, True)
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


def hand_law(game_ids, dealer_side, gains) -> tuple[HandLaw, dict]:
    """The law of one hand from self-play: per hand (in game order) its game, the side that dealt
    (0 or 1) and each side's gain ``gains[:, side]``. Returns the law and the same-dealer rate per
    winner role (``_role``)."""
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
    pairs, inverse = np.unique(np.stack([gd, go], axis=1), axis=0, return_inverse=True)
    inverse = inverse.reshape(-1)
    counts = np.bincount(inverse, minlength=len(pairs)).astype(float)
    same = np.array([rates[_role(int(x), int(y))] for x, y in pairs])
    law = HandLaw(pairs.astype(np.int64), counts / n, same, n)
    return law, {str(k): v for k, v in rates.items()}


def solve(law: HandLaw, target: int) -> np.ndarray:
    """Value iteration of the race to ``target`` under ``law`` (the module doc); ``V[a, b, d]``."""
    if target < 1:
        raise SimcardsError(f"target {target}: the value table needs a positive game target")
    gains = law.gains
    if (gains < 0).any():
        raise SimcardsError("the value table handles gains of 0 or more only (no negative hand scores)")
    g = int(gains.max()) if len(gains) else 0
    size = target + g
    a = np.arange(size)[:, None]
    b = np.arange(size)[None, :]
    done = (a >= target) | (b >= target)
    terminal = np.where(a > b, 1.0, np.where(b > a, 0.0, 0.5))
    w = np.zeros((size, size, 2))
    w[done] = terminal[done][:, None]
    w[:target, :target, :] = 0.5
    t = target
    for _ in range(MAX_ITER):
        new = np.zeros((t, t, 2))
        for (x, y), p, s in zip(gains, law.p, law.same):
            # me deals (d=1): me gains the dealer's x, the other y; the same side deals next with s
            new[:, :, 1] += p * (s * w[x:x + t, y:y + t, 1] + (1 - s) * w[x:x + t, y:y + t, 0])
            # the other deals (d=0): me gains y, the other x; the other deals again with s
            new[:, :, 0] += p * (s * w[y:y + t, x:x + t, 0] + (1 - s) * w[y:y + t, x:x + t, 1])
        delta = float(np.abs(new - w[:t, :t, :]).max())
        w[:t, :t, :] = new
        if delta < TOL:
            break
    return w[:t, :t, :].copy()


# ----- per game: the self-play behind the law ---------------------------------------------------------
def covers(game: str, rules) -> bool:
    """Whether the table fits ``game`` under ``rules``: two sides racing to one target."""
    if game == "gin":
        return rules.players == 2 and not rules.hollywood and not rules.match_target and not rules.mahjong
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
    return game_ids, d["dealer"].to_numpy(dtype=np.int64), scores - prev, int(rules.game_target)


def _base(rules) -> str:
    """The preset the rules come from (their name up to a '+': the overrides follow)."""
    return rules.name.split("+")[0]


def _overrides(rules) -> dict:
    """The rules' options that differ from their preset."""
    from simcards.games.gin.rules import preset

    base = preset(_base(rules)).as_dict()
    return {k: v for k, v in rules.as_dict().items() if base.get(k) != v}


HANDS = {"gin": _gin_hands}


def _cache_path(key: dict) -> Path:
    from simcards.compiling import cache_root

    digest = hashlib.sha256(json.dumps(key, sort_keys=True, default=str).encode()).hexdigest()[:16]
    return cache_root() / "value" / f"{key['game']}-{digest}.npz"


def win_table(game: str, rules, *, strategy: str = DEFAULT_STRATEGY, games: int = DEFAULT_GAMES, seed: int = 0,
              cache: bool = True) -> WinTable:
    """The value table of ``game`` under ``rules`` (a rules object: ``RunSpec.resolve(...).rules``),
    from ``games`` games of ``strategy`` self-play of ``seed``; cached on disk."""
    from simcards.version import __version__

    if game not in HANDS:
        raise SimcardsError(f"{game}: no game-win value table yet (only {', '.join(HANDS)})")
    key = {"game": game, "rules": rules.as_dict(), "strategy": strategy, "games": games, "seed": seed,
           "version": __version__, "format": 1}
    path = _cache_path(key)
    if cache and path.exists():
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                law = HandLaw(z["gains"], z["p"], z["same"], int(meta["hands"]))
                return WinTable(int(meta["target"]), z["values"], law, {**key, "same_by_role": meta["same_by_role"]})
        except (OSError, KeyError, ValueError):
            pass  # a damaged cache file: computed again
    game_ids, dealer_side, gains, target = HANDS[game](rules, strategy, games, seed)
    law, rates = hand_law(game_ids, dealer_side, gains)
    values = solve(law, target)
    table = WinTable(target, values, law, {**key, "same_by_role": rates})
    if cache:
        path.parent.mkdir(parents=True, exist_ok=True)
        meta = json.dumps({"target": target, "hands": law.hands, "same_by_role": rates})
        tmp = path.with_suffix(".tmp.npz")
        np.savez(tmp, values=values, gains=law.gains, p=law.p, same=law.same, meta=np.array(meta))
        tmp.replace(path)
    return table
