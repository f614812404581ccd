"""The parameters of Two Hundred's strategy families, declared once; the kernel's positions of
them (``P_*``, the column of a parameter table) are generated from these declarations by name.
The families extend each other (heuristic, informed, mc), so one position holds one parameter in
every family that has it."""

from __future__ import annotations

from dataclasses import replace

from simcards.strategy import Param

HEURISTIC_PARAMS = (
    Param("aggr", 0.7, 0.0, 3.0, "aggressiveness: bid up to this multiple of the hand's estimated points"),
    Param("partner", 15.0, 0.0, 60.0, "points credited to the unseen partner's hand in the estimate"),
    Param("raise", 1, 0, 1, "1: may overbid the partner's bid; 0: pass when the partner holds the high bid",
          integer=True),
    Param("ruff_min", 5.0, 0.0, 40.0, "trump a trick (when void) only if it already holds this many points"),
    Param("smear", 1, 0, 1, "1: play point cards onto a trick the partner safely wins", integer=True),
    Param("draw", 1, 0, 1, "1: as contractor, lead the boss trump while opponents may hold trumps",
          integer=True),
    Param("kitty", 20.0, 0.0, 60.0, "points credited in the auction for the kitty the bidder will take "
          "(T-V-KITTY, T-V-ROUGH)"),
    Param("nt", 1.2, 0.0, 3.0, "name no trump (where allowed) when every suit is stopped and the "
          "no-trump estimate is at least nt × the bid; 0 never"),
)
# The heuristic's parameters with the defaults tuned for the informed play (standard preset,
# against heuristic, seeds 7 and 8, apart from the reported ones), then its own.
INFORMED_PARAMS = tuple(replace(p, default=18.0) if p.name == "partner" else p for p in HEURISTIC_PARAMS) + (
    Param("pbid", 0.35, 0.0, 1.5, "a partner who bid X is credited with pbid × X points in the bid estimate"),
    Param("ppass", 1.0, 0.0, 1.5, "a partner who passed without bidding: this multiple of the partner allowance"),
    Param("popp", 1.0, 0.0, 2.0, "over an opponent's bid, bid up to this multiple of the usual limit"),
    Param("pend", 1.0, 0.0, 2.0, "when making the lowest raise would reach the target, bid up to this multiple "
          "of the usual limit"),
    Param("boff", 0.0, -40.0, 40.0, "points added to the bid limit (limit = aggr × estimate + boff)"),
    Param("threat", 1.1, 0.0, 2.0, "when an opponent side is within the minimum bid of the target, bid up to "
          "this multiple of the usual limit"),
    Param("drawlow", 2, 0, 9, "on the contract side, without the boss trump but with at least this many "
          "trumps, lead the lowest trump while an opponent may hold one; 0 never", integer=True),
    Param("short", 3, 0, 3, "with trumps in hand, give cards from the shortest side suit to make a void, a bit "
          "mask: 1 when discarding, 2 when leading", integer=True),
)
MC_PARAMS = INFORMED_PARAMS + (
    Param("k", 24, 1, 512, "samples (determinized deals) per searched decision", integer=True),
    Param("search", 7, 0, 7, "decisions searched, a bit mask: 1 card play, 2 bid, 4 trump", integer=True),
    Param("margin", 0.0, -100.0, 100.0, "bid when declaring the lowest raise is worth more than this "
          "(deal score minus the opponents', mean over the samples)"),
    Param("win", 40.0, 0.0, 400.0, "value of the deal taking the side to the target (minus for an "
          "opponent reaching it or the side reaching the hole)"),
    Param("rollout", 0, 0, 1, "rollout card play: 0 heuristic, 1 informed", integer=True),
)


def _slots(params: tuple[Param, ...]) -> dict[str, int]:
    names = [p.name for p in params]
    assert len(set(names)) == len(names), "a parameter declared twice"
    return {n: i for i, n in enumerate(names)}


# Every family's parameters are the first ones of the next's (heuristic, informed, mc).
assert [p.name for p in MC_PARAMS[:len(INFORMED_PARAMS)]] == [p.name for p in INFORMED_PARAMS]
assert [p.name for p in INFORMED_PARAMS[:len(HEURISTIC_PARAMS)]] == [p.name for p in HEURISTIC_PARAMS]
SLOT = _slots(MC_PARAMS)
N_HEURISTIC, N_INFORMED, N_MC = len(HEURISTIC_PARAMS), len(INFORMED_PARAMS), len(MC_PARAMS)

P_AGGR, P_PARTNER, P_RAISE, P_RUFF_MIN = SLOT["aggr"], SLOT["partner"], SLOT["raise"], SLOT["ruff_min"]
P_SMEAR, P_DRAW, P_KITTY, P_NT = SLOT["smear"], SLOT["draw"], SLOT["kitty"], SLOT["nt"]
P_PBID, P_PPASS, P_POPP, P_PEND = SLOT["pbid"], SLOT["ppass"], SLOT["popp"], SLOT["pend"]
P_BOFF, P_THREAT, P_DRAWLOW, P_SHORT = SLOT["boff"], SLOT["threat"], SLOT["drawlow"], SLOT["short"]
P_K, P_SEARCH, P_MARGIN, P_WIN, P_ROLLOUT = SLOT["k"], SLOT["search"], SLOT["margin"], SLOT["win"], SLOT["rollout"]
