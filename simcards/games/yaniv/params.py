"""The parameters of Yaniv's strategy families, declared once: the families (``game.FAMILIES``)
list them and the strategies read them at positions generated here by name (``slot``), never
numbered by hand. No numba here: the kernel, the strategies and the search import the positions.

``informed`` and ``mc`` share threshold's parameters at threshold's positions (threshold's
section-5 decisions and mc's rollouts read them with threshold's slots); their own follow.
"""

from __future__ import annotations

from simcards.strategy import Param

RANDOM = (
    Param("ask", 0.02, 0, 1, "Y-V-REQ: when polled, ask (for a uniform available card) with probability "
          "ask / (players who may be polled that turn): a table of random players sees a request in "
          "about this share of turns, whatever its size (0: never ask)"),
)

THRESHOLD = (
    Param("call", 5, 0, 60, "call when the hand total is at or under this (and the rules allow it)"),
    Param("keep", 0.5, 0, 1, "weight of kept pairs and group-building draws (0 = pure greedy shedding)"),
    Param("stock", 6.0, 0, 14, "expected value of an unknown stock card, compared with the discard"),
    Param("joker_end", 1.0, 0, 20, "cost of throwing a run with a joker at an end (a gift to the next player)"),
    Param("request", 0, -1, 13, "Y-V-REQ: ask for an available card when its value minus `group` "
          "(if it builds a group) is at most this (-1 with group=0: never ask)"),
    Param("refuse", 0, -1, 13, "Y-V-REQ: refuse a request (keep the card) when its value minus `group` "
          "(if it builds a group in my hand) is at most this; otherwise agree"),
    Param("group", 4, 0, 13, "Y-V-REQ: how much building a group is worth when asking or refusing"),
    Param("slam", 1, 0, 2, "Y-V-SLAM: 0 never, 1 when it lowers the hand without breaking a group, 2 always",
          integer=True),
    Param("onder", 2, -1, 60, "Y-V-KLUFT: call onderkluft at or under this total (1 less per earlier "
          "onderkluft)"),
    Param("onder_history", 3, 0, 30, "Y-V-KLUFT: raise the onderkluft threshold by this times the Kluft "
          "caller's rate of being beaten so far ((beaten + 1) / (calls + 2))"),
    Param("top", 1.0, 0, 20, "Y-V-KLUFT: cost of leaving a low card on top of a group "
          "(x (13 - value of the top card) / 13)"),
    Param("reset_aim", 1, 0, 1, "call (or overcall, Y-V-OVERCALL) when losing the call would land "
          "exactly on a reset score (Y-RESET-1)", integer=True),
)

INFORMED = (
    Param("call", 60, 0, 60, "never call above this total (the rules' limit applies too)"),
    *THRESHOLD[1:],
    Param("risk", 0.2, 0, 1, "call when the estimated probability of Asaf is at most this"),
    Param("deny", 3.0, 0, 30, "cost of leaving the next player a card that builds a group with its known cards"),
    Param("patience", 100, 0, 1000, "call whenever allowed once the round has lasted this many discards (a table "
          "of cautious players would otherwise wait for each other)", integer=True),
)

MC = (
    *THRESHOLD,
    Param("k", 48, 1, 4096, "samples of the unseen cards per decision (at most, with `stop`)", integer=True),
    Param("opp_call", 5, 0, 60, "the opponents' call value in the rollouts"),
    Param("search", 1, 0, 7, "decisions searched, as bits: 1 call, 2 discard, 4 draw (the call and the "
          "discard on k 64: the deep preset, far stronger against informed and 40 times slower; on 8 "
          "samples the discard search is weaker than informed's choice)", integer=True),
    Param("depth", 4, 1, 1000, "turns a rollout plays before it is scored as if everyone added their hand "
          "(short: the rest of the round is mostly noise)", integer=True),
    Param("prior", 1.0, 0, 100, "keep the heuristic's choice unless another option's mean result beats it by "
          "this many points"),
    Param("low", 1, 0, 10, "opponents keep low cards: each of their unseen cards is sampled as the lowest of "
          "1 + low unseen cards", integer=True),
    Param("risk", 0.2, 0, 1, "the heuristic (informed's) call: estimated Asaf probability at most this"),
    Param("deny", 3.0, 0, 30, "the heuristic (informed's) discard: cost of feeding the next player"),
    Param("patience", 100, 0, 1000, "the heuristic (informed's) call: call whenever allowed once the round has "
          "lasted this many discards", integer=True),
    Param("stop", 1, 0, 10, "stop sampling early (after 16 samples, checked every 8) once every option's mean "
          "result against the heuristic's choice is more than this many standard errors from `prior` (0: "
          "never)"),
)


def slot(params: tuple[Param, ...], name: str) -> int:
    """The position of parameter ``name`` in a seat's parameter vector of that family."""
    names = [p.name for p in params]
    if names.count(name) != 1:
        raise ValueError(f"parameter {name!r} is declared {names.count(name)} times")
    return names.index(name)


# The shared slots really are shared: threshold's parameters sit at the same positions in every family.
assert all(slot(fam, p.name) == i for fam in (INFORMED, MC) for i, p in enumerate(THRESHOLD) if i > 0)
