"""``simcards advise``: the value of every legal option of one decision.

For the deciding seat's view only (no hidden card is read: the opponent's hand and the stock are
sampled consistently with what the seat has seen, by the search player's sampler), every legal
option is played on to the end of the hand in ``samples`` determinized deals, all options in the
same deals (common random numbers). Each option gets

* ``points``: the expected points of the hand for the deciding side (the opponent's count
  negative), and
* ``win``: the chance of winning the game, the mean over the deals of the game-win value table
  (``simcards.table.value``) read at the scores the hand ends with,

each with a 95% interval: the normal (Wald) interval of a mean, ``mean ± 1.96 · sd / sqrt(samples)``,
over the sampled deals. Differences between two options (what a choice cost) are paired over the
same deals, so their interval is narrower than the two values' intervals suggest.

The position comes from a step-interface table (``simcards.start``), or is given by hand: a
compact text form (``parse_position``) or a JSON object with the same keys. Reproducible: the same
position, ``samples`` and ``seed`` give the same numbers.

Games and presets (docs/advice.md): Gin's two-player presets (``hollywood``, ``tedesco`` and
``match``: points only, no win chance), not ``three-player``, ``four-player``, ``tedesco-teams*``,
``mahjong``; Yaniv's call, discard and draw decisions (the gain on the opponents this round, the
Asaf chance of a call, and with two players the win chance; not ``kluft``); Two Hundred's card
play (the deal margin, and on the two-side tables the win chance; not ``two-player``,
``five-player``). Positions by hand: Gin's and Yaniv's.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simcards.errors import SimcardsError

DEFAULT_SAMPLES = {"gin": 1000, "yaniv": 1000, "two-hundred": 1000}  # sampled deals per decision, by game


def default_samples(game: str) -> int:
    return DEFAULT_SAMPLES.get(game, 1000)
Z95 = 1.959963984540054
EVALUATED = ("gin", "yaniv", "two-hundred")


@dataclass(frozen=True)
class OptionValue:
    """One option's values: means and 95% (Wald) intervals over ``samples`` deals."""

    index: int
    label: str
    points: float
    points_ci: tuple[float, float]
    win: float | None
    win_ci: tuple[float, float] | None
    asaf: float | None = None  # Yaniv, calling: the chance of an Asaf (Y-SC-2)
    asaf_ci: tuple[float, float] | None = None

    def as_dict(self) -> dict:
        out = {"index": self.index, "label": self.label, "points": self.points, "points_ci": list(self.points_ci),
               "win": self.win, "win_ci": None if self.win_ci is None else list(self.win_ci)}
        if self.asaf is not None and self.asaf_ci is not None:
            out.update(asaf=self.asaf, asaf_ci=list(self.asaf_ci))
        return out


@dataclass
class Advice:
    """Every option of one decision with its values; ``ranked()`` best first (by the chance of
    winning the game, then the points)."""

    game: str
    rules: str
    seat: int
    kind: str
    scores: tuple[int, ...]  # the deciding side's, then the others'
    options: list[OptionValue]
    samples: int
    seed: int
    points: np.ndarray = field(repr=False)  # (samples, options): each deal's points
    wins: np.ndarray | None = field(repr=False)  # (samples, options): each deal's game-win value
    measure: str = "points this hand"  # what ``points`` counts (Yaniv: the gain on the opponents this round)

    def ranked(self) -> list[OptionValue]:
        return sorted(self.options, key=lambda o: (-(o.win if o.win is not None else 0.0), -o.points, o.index))

    @property
    def best(self) -> OptionValue:
        return self.ranked()[0]

    def cost(self, index: int) -> tuple[float, tuple[float, float], float, tuple[float, float]]:
        """What choosing option ``index`` costs against the best: (win chance lost, its paired
        95% interval, points lost, its interval). 0 for the best itself."""
        best = self.best.index
        dp = self.points[:, best] - self.points[:, index]
        pl, pci = _mean_ci(dp)
        if self.wins is None:
            return 0.0, (0.0, 0.0), pl, pci
        dw = self.wins[:, best] - self.wins[:, index]
        wl, wci = _mean_ci(dw)
        return wl, wci, pl, pci

    def as_dict(self) -> dict:
        return {"game": self.game, "rules": self.rules, "seat": self.seat, "decision": self.kind,
                "scores": list(self.scores), "measure": self.measure, "samples": self.samples, "seed": self.seed,
                "interval": "95% normal (Wald) interval of the mean over the sampled deals",
                "best": self.best.index,
                "options": [{**o.as_dict(), "cost": dict(zip(("win_lost", "win_lost_ci", "points_lost", "points_lost_ci"),
                                                             self.cost(o.index)))} for o in self.ranked()]}

    def text(self) -> str:
        """The ranked options as ``simcards advise`` prints them."""
        lines = [f"{self.kind} decision of seat {self.seat}; score {'-'.join(map(str, self.scores))}; "
                 f"{self.samples} sampled deals, seed {self.seed} (95% intervals; costs paired over the same deals)"]
        width = max(len(o.label) for o in self.options)
        has_win = self.wins is not None
        head = f"   {'option'.ljust(width)}  " + ("win game              " if has_win else "") + \
            f"{self.measure:<24}" + ("cost: win chance lost" if has_win else "cost: points lost")
        lines.append(head)
        best = self.best.index
        for rank, o in enumerate(self.ranked(), 1):
            win = f"{100 * o.win:5.1f}% [{100 * o.win_ci[0]:5.1f}, {100 * o.win_ci[1]:5.1f}]  " \
                if o.win is not None and o.win_ci is not None else ""
            wl, wci, pl, pci = self.cost(o.index)
            lost, ci = (100 * wl, (100 * wci[0], 100 * wci[1])) if has_win else (pl, pci)
            cost = "best" if o.index == best else f"{lost:4.1f} [{ci[0]:4.1f}, {ci[1]:4.1f}]"
            lines.append(f"{rank:>2} {o.label.ljust(width)}  {win}"
                         f"{o.points:+6.1f} [{o.points_ci[0]:+6.1f}, {o.points_ci[1]:+6.1f}]  {cost}")
        for o in self.options:
            if o.asaf is not None and o.asaf_ci is not None:
                lines.append(f"{o.label}: Asaf (Y-SC-2) in {100 * o.asaf:.1f}% "
                             f"[{100 * o.asaf_ci[0]:.1f}, {100 * o.asaf_ci[1]:.1f}] of the deals")
        return "\n".join(lines)


def _mean_ci(x: np.ndarray) -> tuple[float, tuple[float, float]]:
    n = len(x)
    m = float(x.mean())
    if n < 2:
        return m, (m, m)
    half = Z95 * float(x.std(ddof=1)) / math.sqrt(n)
    return m, (m - half, m + half)


# ----- the evaluation of one decision ------------------------------------------------------------------
def evaluate(game: str, rules, args: tuple, labels: list[str], *, samples: int | None = None, seed: int = 0,
             index: int = 0, win_table: Any = "auto") -> Advice:
    """Evaluate the decision the engine hands a strategy as ``args`` (the step interface's
    ``Decision.args``: kind, sid, params, hand, n, opts, n_opts, view, rules, rng) under ``rules``
    (the rules object). ``labels``: the options' labels. ``index`` picks the random stream
    (``simcards.rng.new_state(seed, index)``). ``win_table``: a ``WinTable``, ``None`` (points only)
    or ``"auto"`` (the rules' table, computed once and cached)."""
    if game not in EVALUATED:
        raise SimcardsError(f"{game}: advice is not available yet (games with advice: {', '.join(EVALUATED)})")
    samples = default_samples(game) if samples is None else samples
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)) or samples < 2:
        raise SimcardsError(f"samples={samples!r}: give a whole number from 2")
    from simcards.rng import new_state

    kind = int(args[0])
    if game == "two-hundred":  # decide(kind, sid, table, hand, opts, n_opts, view, rules, rng)
        opts, n_opts, view, rules_arr = args[4], int(args[5]), args[6], args[7]
    else:  # decide(kind, sid, params, hand, n, opts, n_opts, view, rules, rng)
        opts, n_opts, view, rules_arr = args[5], int(args[6]), args[7], args[8]
    check_rules(game, rules)
    names = _kind_names(game)
    rng = new_state(int(seed) ^ 0xAD71CE, int(index))
    params = mc_params(game, rules)
    pts = np.zeros((int(samples), n_opts))
    asaf = np.zeros(int(samples), dtype=np.int64)
    if game == "gin":
        from simcards.games.gin.advice import option_points

        ok = option_points(kind, params, opts, n_opts, view, rules_arr, int(samples), rng, pts)
    elif game == "two-hundred":
        from simcards.games.two_hundred.advice import option_values as th_values

        deal = np.zeros((int(samples), n_opts, 2), dtype=np.int64)
        ok = th_values(kind, params, np.int64(args[3]), opts, n_opts, view, rules_arr, int(samples), rng, pts,
                       deal)
    else:
        from simcards.games.yaniv.advice import option_values

        hand = np.ascontiguousarray(args[3], dtype=np.int64)
        deal = np.zeros((int(samples), n_opts, 2), dtype=np.int64)
        ok = option_values(kind, params, hand, int(args[4]), opts, n_opts, view, rules_arr, int(samples), rng, pts,
                           asaf, deal)
    if not ok:
        raise SimcardsError(f"{game} {rules.name}: no advice on a {names.get(kind, kind)} decision (docs/advice.md)")
    if game == "gin":
        from simcards.games.gin.layout import V_DEALER, V_MY_SCORE, V_OPP_SCORE, V_SEAT

        seat = int(view[V_SEAT])
        scores: tuple[int, ...] = (int(view[V_MY_SCORE]), int(view[V_OPP_SCORE]))
        measure = "points this hand"
    elif game == "two-hundred":
        from simcards.games.two_hundred import layout as T

        seat = int(view[T.V_SEAT])
        mine = int(view[T.V_SIDE + seat])
        sides = sorted({int(view[T.V_SIDE + p]) for p in range(rules.seats)})
        scores = (int(view[T.V_SCORES + mine]), *(int(view[T.V_SCORES + x]) for x in sides if x != mine))
        measure = "deal margin"
    else:
        from simcards.games.yaniv import layout as Y

        seat = int(view[Y.V_SEAT])
        others = [p for p in range(int(view[Y.V_PLAYERS])) if p != seat]
        scores = (int(view[Y.V_SCORES + seat]), *(int(view[Y.V_SCORES + p]) for p in others))
        measure = "gain this round"
        if len(scores) != 2:
            win_table = None  # more than two players: no value table (docs/advice.md)
    if win_table == "auto":
        win_table = table_for(game, rules, len(scores))
    wins = None
    if win_table is not None and game == "two-hundred":
        wins = _two_hundred_wins(win_table, view, scores, deal)
    elif win_table is not None and game == "yaniv":
        wins = _yaniv_wins(win_table, view, scores, deal)
    elif win_table is not None:
        me, other = scores
        dealt = bool(view[V_DEALER] == view[V_SEAT])
        cache: dict[int, float] = {}
        wins = np.empty_like(pts)
        flat, out = pts.reshape(-1), wins.reshape(-1)
        for i, p in enumerate(flat):
            v = int(p)
            if v not in cache:
                cache[v] = win_table.after_hand(me, other, max(v, 0), max(-v, 0), dealt)
            out[i] = cache[v]
    call = game == "yaniv" and kind == 0  # Yaniv's K_CALL: row [1, 1] calls
    options = []
    for a in range(n_opts):
        pm, pci = _mean_ci(pts[:, a])
        wm, wci = _mean_ci(wins[:, a]) if wins is not None else (None, None)
        am, aci = _mean_ci(asaf.astype(float)) if call and int(opts[a, 1]) == 1 else (None, None)
        options.append(OptionValue(a, labels[a], pm, pci, wm, wci, am, aci))
    return Advice(game, rules.name, seat, names.get(kind, str(kind)), scores, options, int(samples), int(seed), pts,
                  wins, measure)


def _two_hundred_wins(table, view, scores: tuple[int, ...], deal: np.ndarray) -> np.ndarray:
    """Two Hundred: each deal's chance of winning the game for the deciding side, the value table
    read at the scores the deal ends with (T-END-1/2: the target, the hole; both sides at the
    target: the contract team wins)."""
    from simcards.games.two_hundred import layout as T
    from simcards.table.value import TIE_DEALER, TIE_OTHER

    seat = int(view[T.V_SEAT])
    mine = int(view[T.V_SIDE + seat])
    dealer_side = int(view[T.V_SIDE + int(view[T.V_DEALER])])
    contract = int(view[T.V_SIDE + int(view[T.V_BIDDER])])
    me_dealt = dealer_side == mine
    tie = TIE_DEALER if contract == dealer_side else TIE_OTHER
    me, other = scores
    return _per_deal(deal, lambda mine, theirs: table.after_hand(me, other, mine, theirs, me_dealt, tie))


def _yaniv_wins(table, view, scores: tuple[int, ...], deal: np.ndarray) -> np.ndarray:
    """Two Yaniv players: each deal's chance of winning the game for the deciding seat, the value
    table (scores negated: the lower the better) read after the round's scores, the resets and the
    elimination (Y-ELIM-1/2, Y-RESET-1); the seat that started this round as the dealing side."""
    from simcards.games.yaniv import layout as Y

    me_started = int(view[Y.V_STARTER]) == int(view[Y.V_SEAT])
    me, other = scores
    return _per_deal(deal, lambda mine, theirs: table.after_hand(-me, -other, -mine, -theirs, me_started))


def _per_deal(deal: np.ndarray, value) -> np.ndarray:
    """``value(mine, theirs)`` of each sampled deal and option's two scores ``deal[s, a]``, each
    distinct pair computed once (a deal's scores repeat: few distinct pairs, many deals)."""
    cache: dict[tuple[int, int], float] = {}
    wins = np.empty(deal.shape[:2])
    for s in range(deal.shape[0]):
        for a in range(deal.shape[1]):
            g = (int(deal[s, a, 0]), int(deal[s, a, 1]))
            if g not in cache:
                cache[g] = value(*g)
            wins[s, a] = cache[g]
    return wins


def check_rules(game: str, rules) -> None:
    """Refuse, in one line, rules the evaluator cannot play (see the module doc)."""
    if game == "gin" and (rules.players != 2 or rules.mahjong):
        raise SimcardsError(f"Gin {rules.name}: advice covers the two-player game without Mahjong pickups "
                            "(not three-player, four-player, tedesco-teams or mahjong)")
    if game == "two-hundred" and rules.mode in ("two-player", "five-player"):
        raise SimcardsError(f"Two Hundred {rules.name}: advice cannot sample this table (T-V-2P's face-down "
                            "piles, T-V-5P's secret partner)")
    if game == "yaniv" and rules.kluft:
        raise SimcardsError(f"Yaniv {rules.name}: advice does not play Kluft (Y-V-KLUFT)")


def _kind_names(game: str) -> dict[int, str]:
    from simcards.table.games import ADAPTERS

    return dict(ADAPTERS[game](None, 2).kinds)


_PARAMS: dict[str, np.ndarray] = {}
_TABLES: dict[str, Any] = {}
# The search preset whose sampler and rollout settings the evaluator uses: Gin's ``deep`` checks a
# sampled opponent hand against its last turns (one that would have knocked is redealt); with mc's
# plain sampler a knock at 8 deadwood looked undercut one time in two.
SAMPLER = {"gin": "deep"}


def mc_params(game: str, rules) -> np.ndarray:
    """The search player's parameter row (its sampler's and rollouts' settings: ``SAMPLER``, else
    ``mc``)."""
    if game not in _PARAMS:
        from simcards.spec import RunSpec
        from simcards.table.games import ADAPTERS

        spec = RunSpec.resolve(game)
        strat = spec.gdef.strategies([SAMPLER.get(game, "mc")], 1)[0]
        _, params = ADAPTERS[game](spec.rules, spec.players).strategy_row(strat)
        _PARAMS[game] = np.ascontiguousarray(params, dtype=np.float64)
    return _PARAMS[game]


def table_for(game: str, rules, players: int = 2):
    """The rules' game-win value table (``None`` where it does not apply: Hollywood, matches, Two
    Hundred's tables of more than two sides, Yaniv with more than two players)."""
    from simcards.table.value import win_table

    key = json.dumps([game, players, rules.as_dict()], sort_keys=True, default=str)
    if key not in _TABLES:
        from simcards.table.value import covers

        _TABLES[key] = win_table(game, rules) if covers(game, rules, players) else None
    return _TABLES[key]


# ----- a position given by hand ------------------------------------------------------------------------
POSITION_KEYS = ("hand", "top", "pile", "took", "discarded", "passed", "score", "stock", "dealer", "decision",
                 "turn", "limit", "take", "sizes", "known")


def parse_position(text: str) -> dict:
    """The compact text form: ``key value`` fields separated by ``;`` or new lines, cards in the
    replay's notation (``As Td 10c``; ``-`` for none). Keys: ``hand`` (required), ``top``,
    ``pile``, ``took``, ``discarded``, ``passed``, ``score`` (``mine-theirs``), ``stock``,
    ``dealer`` (``me``/``opponent``), ``decision`` (``draw``, ``upcard``, ``discard``, ``knock``),
    ``turn`` (own discards this hand), ``limit``."""
    out: dict[str, Any] = {}
    for part in text.replace("\n", ";").split(";"):
        part = part.strip()
        if not part:
            continue
        key, _, value = part.partition(" ")
        if ":" in key:
            key, _, rest = part.partition(":")
            value = rest
        key = key.strip().lower()
        if key not in POSITION_KEYS:
            raise SimcardsError(f"{key!r} is not a position key (keys: {', '.join(POSITION_KEYS)})")
        if key in out:
            raise SimcardsError(f"{key!r} is given twice")
        out[key] = value.strip()
    return out


def _cards(value: Any, what: str) -> list[int]:
    from simcards.cards import parse_cards

    if value is None:
        return []
    if isinstance(value, str):
        value = value.replace(",", " ").split()
        if value in ([], ["-"], ["—"]):
            return []
    try:
        cards = [int(c) for c in parse_cards(list(value))]
    except (SimcardsError, ValueError) as exc:
        raise SimcardsError(f"{what}: {exc}") from None
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            from simcards.cards import card_code

            raise SimcardsError(f"{what}: {card_code(c)} is given twice")
        seen.add(c)
    return cards


def _int(value: Any, what: str, default: int) -> int:
    if value is None or value == "":
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise SimcardsError(f"{what}: {value!r} is not a whole number") from None


def gin_position(position: dict, rules) -> tuple[tuple, list[str]]:
    """A Gin position (``parse_position``'s keys) as the arguments the engine hands a strategy,
    and the options' labels. Refuses an impossible position with one line."""
    from simcards.cards import card_code
    from simcards.games.gin import layout as L
    from simcards.games.gin.melds import deadwood

    check_rules("gin", rules)
    from simcards.games.gin.rules import R_KNOCK, R_MV

    encoded = rules.encode()
    mv = int(encoded[R_MV])
    hand = _cards(position.get("hand"), "hand")
    if not hand:
        raise SimcardsError("hand: give the cards of your hand (e.g. hand As Ah 7h ...)")
    top_cards = _cards(position.get("top"), "top")
    if len(top_cards) > 1:
        raise SimcardsError("top: give one card (the discard pile's top)")
    top = top_cards[0] if top_cards else -1
    pile = _cards(position.get("pile"), "pile")
    if top >= 0 and top not in pile:
        pile.append(top)
    took = _cards(position.get("took"), "took")
    discarded = _cards(position.get("discarded"), "discarded")
    passed = _cards(position.get("passed"), "passed")
    for c in hand:
        if c in pile:
            raise SimcardsError(f"{card_code(c)} is both in your hand and in the discard pile")
    decision = str(position.get("decision") or ("discard" if len(hand) == 11 else "draw")).lower()
    kinds = {"draw": L.K_DRAW, "upcard": L.K_UPCARD, "discard": L.K_DISCARD, "knock": L.K_KNOCK}
    if decision not in kinds:
        raise SimcardsError(f"decision {decision!r}: one of {', '.join(kinds)}")
    kind = kinds[decision]
    want = 11 if kind == L.K_DISCARD else 10
    if len(hand) != want:
        raise SimcardsError(f"hand: {len(hand)} cards; a {decision} decision needs {want} (G-DEAL-1)")
    if kind in (L.K_DRAW, L.K_UPCARD) and top < 0:
        raise SimcardsError(f"top: a {decision} decision needs the discard pile's top card")
    limit = _int(position.get("limit"), "limit", int(encoded[R_KNOCK]))
    mask = 0
    for c in hand:
        mask |= 1 << c
    bits = lambda cards: sum(1 << c for c in cards)  # noqa: E731
    known = bits(took) & ~bits(pile) & ~mask
    free = 52 - len(hand) - len(pile) - bin(known).count("1")
    opp_hidden = 10 - bin(known).count("1")
    if opp_hidden < 0:
        raise SimcardsError("took: the opponent holds 10 cards; more than 10 of the cards it took are still in its hand")
    stock = _int(position.get("stock"), "stock", free - opp_hidden)
    if not 0 <= stock <= free - opp_hidden:
        raise SimcardsError(f"stock: {stock} cards; with your hand, the pile and the opponent's 10 cards "
                            f"at most {free - opp_hidden} are left")
    dealer = str(position.get("dealer") or "opponent").lower()
    if dealer not in ("me", "you", "opponent", "them"):
        raise SimcardsError(f"dealer {dealer!r}: me or opponent")
    score = str(position.get("score") or "0-0").replace("–", "-")
    try:
        mine, theirs = (int(x) for x in score.split("-"))
    except ValueError:
        raise SimcardsError(f"score {score!r}: give it as mine-theirs, e.g. 35-20") from None
    if not (0 <= mine < rules.game_target and 0 <= theirs < rules.game_target):
        raise SimcardsError(f"score {score}: each below the game target {rules.game_target}")
    my_turns = _int(position.get("turn"), "turn", len(discarded))
    dw = deadwood(np.int64(mask), mv)
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_SEAT] = 0
    view[L.V_DEALER] = 0 if dealer in ("me", "you") else 1
    view[L.V_HAND] = 1
    view[L.V_TURN] = my_turns + len(discarded)
    view[L.V_MY_TURNS] = my_turns
    view[L.V_STOCK] = stock
    view[L.V_TOP] = top
    view[L.V_LIMIT] = limit
    view[L.V_MY_SCORE], view[L.V_OPP_SCORE], view[L.V_TARGET] = mine, theirs, rules.game_target
    view[L.V_MASK] = mask
    view[L.V_OPP_TOOK] = bits(took)
    view[L.V_OPP_DISCARDS] = bits(discarded)
    view[L.V_PILE] = bits(pile)
    view[L.V_TAKEN] = -1
    view[L.V_FIRST] = 1 if kind == L.K_UPCARD else 0
    view[L.V_OPP_PASSED] = bits(passed)
    view[L.V_STAKE] = 1
    view[L.V_KNOCK_CARD] = -1
    view[L.V_THIRD_SCORE] = -1
    view[L.V_PLAYERS] = 2
    opts = np.zeros((L.MAX_OPTIONS, L.OPT_W), dtype=np.int64)
    labels: list[str] = []
    rows: list[tuple[int, ...]]
    if kind == L.K_DISCARD:
        rows = []
        for c in sorted(hand):
            rows.append((c, int(deadwood(np.int64(mask & ~(1 << c)), mv))))
        view[L.V_DW] = min(r[1] for r in rows)
        labels = [f"discard {card_code(c)} (deadwood {d})" for c, d in rows]
    elif kind == L.K_KNOCK:
        if dw > limit:
            raise SimcardsError(f"decision knock: your deadwood {dw} is over the knock limit {limit}")
        rows = [(0, int(dw)), (1, int(dw))]
        view[L.V_DW] = dw
        labels = ["play on", "go gin" if dw == 0 else f"knock with {dw}"]
    else:
        m11 = mask | (1 << top)
        after = min(int(deadwood(np.int64(m11 & ~(1 << c)), mv)) for c in hand)
        rows = [(0, -1), (1, top, int(deadwood(np.int64(m11), mv)), after)]
        view[L.V_DW] = dw
        first = "decline the upcard" if kind == L.K_UPCARD else "draw from the stock"
        labels = [first, f"take {card_code(top)} (then deadwood {after})"]
    for i, row in enumerate(rows):
        opts[i, : len(row)] = row
    hand_arr = np.zeros(L.MAX_HAND, dtype=np.int64)
    hand_arr[: len(hand)] = sorted(hand)
    args = (kind, 0, None, hand_arr, len(hand), opts, len(rows), view, encoded, None)
    return args, labels


def _faces(value: Any, what: str) -> list[int]:
    """Yaniv cards (two decks may repeat a face; a joker is any joker)."""
    from simcards.cards import parse_cards

    if value is None:
        return []
    items = value.replace(",", " ").split() if isinstance(value, str) else list(value)
    if items in ([], ["-"], ["—"]):
        return []
    try:
        return [int(c) for c in parse_cards(items)]
    except (SimcardsError, ValueError) as exc:
        raise SimcardsError(f"{what}: {exc}") from None


def yaniv_position(position: dict, rules, players: int) -> tuple[tuple, list[str]]:
    """A Yaniv position: ``hand``, ``take`` (the previous discard's cards you may take), ``pile``
    (the other cards lying in the discard pile), ``sizes`` (the others' hand sizes, in seat order
    after you), ``score`` (yours, then the others', ``-`` between), ``known`` (cards known in the
    others' hands, ``|`` between seats), ``stock``, ``turn`` (discards made this round) and
    ``decision`` (``call`` or ``discard``; by default ``call`` when the hand may call, Y-CALL-1).
    You are seat 0. Refuses an impossible position with one line."""
    from simcards.cards import card_code
    from simcards.games.yaniv import layout as Y
    from simcards.games.yaniv.reference import legal_groups
    from simcards.games.yaniv.rules import R_DECKS
    from simcards.table.games import ADAPTERS

    bad = [k for k in position if k in ("top", "took", "discarded", "passed", "dealer", "limit")]
    if bad:
        raise SimcardsError(f"{bad[0]!r} is a Gin key; Yaniv's: hand, take, pile, sizes, score, known, stock, turn, "
                            "decision")
    enc = rules.encode()
    hand = _faces(position.get("hand"), "hand")
    if not hand:
        raise SimcardsError("hand: give the cards of your hand (e.g. hand As 2s Jk)")
    if len(hand) > Y.MAX_HAND - 1:
        raise SimcardsError(f"hand: {len(hand)} cards; a Yaniv hand holds at most {Y.MAX_HAND - 1}")
    take = _faces(position.get("take"), "take")
    pile = _faces(position.get("pile"), "pile")
    others = players - 1
    sizes_text = str(position.get("sizes") or " ".join(["5"] * others))
    try:
        sizes = [int(x) for x in sizes_text.replace(",", " ").split()]
    except ValueError:
        raise SimcardsError(f"sizes {sizes_text!r}: the others' hand sizes, e.g. 5 5 5") from None
    if len(sizes) != others or any(not 1 <= x < Y.MAX_HAND for x in sizes):
        raise SimcardsError(f"sizes {sizes_text!r}: give {others} hand sizes from 1 (one per other seat; --players "
                            "sets the table)")
    score_text = str(position.get("score") or "-".join(["0"] * players)).replace("–", "-")
    try:
        scores = [int(x) for x in score_text.split("-")]
    except ValueError:
        raise SimcardsError(f"score {score_text!r}: yours then the others', e.g. 20-35-50-10") from None
    if len(scores) != players or any(not 0 <= x <= rules.out_over for x in scores):
        raise SimcardsError(f"score {score_text!r}: {players} scores from 0 to {rules.out_over}")
    known_text = str(position.get("known") or "")
    parts = [p for p in known_text.split("|")] if known_text else []
    if len(parts) > others:
        raise SimcardsError(f"known: {len(parts)} seats given, the table has {others} others")
    known = [_faces(p, "known") for p in parts] + [[] for _ in range(others - len(parts))]
    for p, cards in enumerate(known):
        if len(cards) > sizes[p]:
            raise SimcardsError(f"known: {len(cards)} cards known for seat {p + 1}, which holds {sizes[p]}")
    everything = hand + take + pile + [c for cards in known for c in cards]
    copies = np.zeros(Y.N_FACES, dtype=np.int64)
    for c in everything:
        copies[min(c, 52) if c >= 52 else c] += 1
    decks = int(enc[R_DECKS])
    for f in range(Y.N_FACES):
        allowed = decks * (2 if f == 52 else 1) if f < 52 or rules.jokers else 0
        if copies[f] > allowed:
            name = "a joker" if f >= 52 else card_code(f)
            raise SimcardsError(f"{name} is given {copies[f]} times; the deck holds {allowed}")
    free = rules.deck_size - len(everything) - sum(sizes) + sum(len(k) for k in known)
    stock = _int(position.get("stock"), "stock", free)
    if not 0 <= stock <= free:
        raise SimcardsError(f"stock: {stock} cards; with the hands and the pile at most {free} are left")
    turn = _int(position.get("turn"), "turn", players)
    from simcards.games.yaniv.groups import hand_total

    hand_arr = np.zeros(Y.MAX_HAND, dtype=np.int64)
    hand_arr[: len(hand)] = sorted(hand)
    total = int(hand_total(hand_arr, len(hand), enc))
    can_call = rules.call_limit is None or total <= rules.call_limit
    decision = str(position.get("decision") or ("call" if can_call else "discard")).lower()
    if decision not in ("call", "discard"):
        raise SimcardsError(f"decision {decision!r}: call or discard (a draw needs the group just thrown)")
    if decision == "call" and not can_call:
        raise SimcardsError(f"decision call: your total {total} is over the call limit {rules.call_limit} (Y-CALL-1)")
    view = np.zeros(Y.VIEW_SIZE, dtype=np.int64)
    view[Y.V_SEAT], view[Y.V_PLAYERS], view[Y.V_ALIVE_N] = 0, players, players
    view[Y.V_TURN], view[Y.V_STOCK], view[Y.V_ROUND], view[Y.V_TOTAL] = turn, stock, 1, total
    view[Y.V_AVAIL_N] = len(take)
    view[Y.V_AVAIL: Y.V_AVAIL + len(take)] = take
    view[Y.V_SCORES: Y.V_SCORES + players] = scores
    view[Y.V_SIZES] = len(hand)
    view[Y.V_SIZES + 1: Y.V_SIZES + players] = sizes
    view[Y.V_ALIVE: Y.V_ALIVE + players] = 1
    for c in take + pile:
        view[Y.V_SEEN + c] += 1
    for p, cards in enumerate(known):
        for c in cards:
            view[Y.V_KNOWN + p + 1] |= 1 << c
    opts = np.zeros((Y.MAX_OPTIONS, Y.ROW), dtype=np.int64)
    rows: list[tuple[int, ...]]
    if decision == "call":
        kind, rows = Y.K_CALL, [(0,), (1,)]
    else:
        kind, rows = Y.K_DISCARD, list(legal_groups(sorted(hand), rules))
        if len(rows) > Y.MAX_OPTIONS:
            raise SimcardsError(f"hand: {len(rows)} legal discards, more than the engine's {Y.MAX_OPTIONS}")
    for i, row in enumerate(rows):
        opts[i, 0] = len(row)
        opts[i, 1: 1 + len(row)] = row
    args = (kind, 0, None, hand_arr, len(hand), opts, len(rows), view, enc, None)
    adapter = ADAPTERS["yaniv"](rules, players)
    labels = [adapter.label(kind, tuple(row), args) for row in rows]
    return args, labels


def load_position(text: str | None = None, json_file: str | Path | None = None) -> dict:
    """A position from the compact text or a JSON file (an object with the same keys; card lists
    as strings or lists)."""
    if json_file is not None:
        try:
            data = json.loads(Path(json_file).read_text())
        except OSError as exc:
            raise SimcardsError(f"{json_file}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise SimcardsError(f"{json_file}: not JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(data, dict):
            raise SimcardsError(f"{json_file}: give a JSON object with the position's keys")
        bad = [k for k in data if k not in POSITION_KEYS]
        if bad:
            raise SimcardsError(f"{bad[0]!r} is not a position key (keys: {', '.join(POSITION_KEYS)})")
        return data
    if not text:
        raise SimcardsError("give a position (e.g. 'hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 3h') or --json FILE")
    return parse_position(text)


def advise(game: str, position: Any = None, *, variant: str | None = None, players: int | None = None,
           rules: dict[str, Any] | None = None,
           samples: int | None = None, seed: int = 0, json_file: str | Path | None = None) -> Advice:
    """The values of every option of one decision. ``position``: a step-interface ``Table`` with a
    decision pending (its deciding seat's view), a position in the compact text form
    (``parse_position``) or a dict of its keys; or ``json_file``. ``variant``/``rules``: the rules
    of a position given by hand (a table brings its own). See the module doc."""
    from simcards.games import canonical
    from simcards.spec import RunSpec
    from simcards.table.step import Table

    if isinstance(position, Table):
        t = position
        if t.decision is None:
            raise SimcardsError("the game is over: no decision to advise on")
        labels = [o.label for o in t.options]
        return evaluate(t.game, t.spec.rules, t.decision.args, labels, samples=samples, seed=seed,
                        index=len(t.actions))
    game = canonical(game)
    if game not in EVALUATED:
        raise SimcardsError(f"{game}: advice is not available yet (games with advice: {', '.join(EVALUATED)})")
    spec = RunSpec.resolve(game, variant=variant, players=players, rules=rules)
    if game == "two-hundred":
        raise SimcardsError(f"{game}: a position by hand is Gin's and Yaniv's only for now; advise on a table's "
                            "decision (simcards.advise(game, table), h in simcards play) or use simcards analyze")
    pos = position if isinstance(position, dict) else load_position(position, json_file)
    if game == "yaniv":
        args, labels = yaniv_position(pos, spec.rules, spec.players)
        return evaluate(game, spec.rules, args, labels, samples=samples, seed=seed)
    args, labels = gin_position(pos, spec.rules)
    return evaluate(game, spec.rules, args, labels, samples=samples, seed=seed)
