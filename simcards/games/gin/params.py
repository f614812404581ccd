"""The parameters of Gin's strategy families, declared once: the families (``game.FAMILIES``) list
them, and the strategies and the search read them at positions generated here by name (``slot``),
never numbered by hand. No numba here: the policies, ``informed`` and the search import the
positions (module-level ints, compile-time constants to numba).

``informed`` has the ``knock`` family's parameters at knock's positions (it reads them with
knock's slots: ``knock_threshold``, ``wants_card``), then its own; ``mc`` has informed's at
informed's positions, then its own.
"""

from __future__ import annotations

import dataclasses

from simcards.strategy import Param

NEVER = 99.0  # a turn or a gain that never comes (parameters that switch a rule off)

KNOCK = (
    Param("max", 10, 0, 10, "knock at or under this deadwood (never above the rules' knock limit)", True),
    Param("drop", 0, 0, 10, "lower the knock threshold by this much per own turn already played"),
    Param("gin_after", NEVER, 1, NEVER, "from this own turn of the hand on, knock only with gin (99: never)",
          True),
    Param("gin_stock", 0, 0, 31, "knock only with gin once the stock has this many cards or fewer (0: never)",
          True),
    Param("avoid", 0, 0, 20, "penalty (points) per card the opponent took that a discard would meld with"),
    Param("take", NEVER, 1, NEVER, "also take a discard that lowers the deadwood by at least this (99: never)"),
    Param("scale", 1, 0, 1, "knock at or under this fraction of the hand's knock limit (G-V-OKLA: the "
          "knock card's value)"),
    Param("spade", 0, 0, 10, "on a doubled hand (G-V-OKLA spade knock card) lower the knock threshold by "
          "this much"),
    Param("hurry", 0, 0, 1000, "knock at the hand's full limit once an opponent (G-V-3P: also the player "
          "sitting out) is within this many points of the target (0: never)"),
    Param("pile", 0, -200, 200, "G-V-MJ: take the top N cards of the pile that gain most (deadwood saved "
          "plus value put on the table) when the gain is above this; else draw from the stock"),
    Param("deny", 0, 0, 1, "G-LAY-0: 1 = when knocking, of the arrangements with the minimum deadwood lay "
          "out the one whose melds leave the defender the fewest lay-off points expected (sets instead of "
          "runs can deny a lay-off); 0 = the default tie-broken arrangement", True),
)

# informed's defaults (benchmarks/strong_gin.py on seeds 7, 11, 13, 17): take 8 and gin_after 8 (each
# measured better than never); the knock family's others unchanged
INFORMED_DEFAULTS = {"take": 8, "gin_after": 8}
INFORMED = tuple(dataclasses.replace(p, default=INFORMED_DEFAULTS.get(p.name, p.default)) for p in KNOCK) + (
    Param("outs", 0.7, 0, 5, "discard: credit (points) per unseen card that would meld with the cards kept"),
    Param("safe", 1, 0, 20, "discard: penalty (points) per card the opponent is known to hold that it melds with"),
    Param("hint", 0, 0, 10, "discard: credit (points) per card the opponent discarded or passed that it melds with"),
    Param("late", 1, 1, NEVER, "knock: from this own turn of the hand on, lower the threshold by fall per turn"),
    Param("fall", 0, 0, 10, "knock: threshold lowered by this per own turn from turn late on (the undercut risk grows)"),
    Param("wary", 0, 0, 10, "knock: threshold lowered by this per card the opponent took from the pile and holds"),
    Param("finish", 0, 0, 1000, "knock at the hand's full limit once the own score is within this of the target "
          "(0: never)"),
    Param("swap", NEVER, 0, NEVER, "draw: also take the pile's top card when the informed score after the best "
          "discard beats the hand's by this much (99: never)"),
    Param("reach", 2, 0, 20, "discard: credit x the deadwood an unseen card would meld with the cards kept, "
          "averaged over the unseen cards"),
    Param("fade", 10, 0, 30, "discard: scale the outs/reach credits by max(0, 1 - (own turn - 1) / fade) (0: off)"),
)

MC = INFORMED + (
    Param("k", 64, 1, 1024, "samples (determinized deals) per searched decision", True),
    Param("width", 4, 1, 11, "discard candidates searched (the best by the informed score; 1: no search)", True),
    Param("draw", 0, 0, 1, "1: search the draw (pile top vs stock; off by default: it measured no better)", True),
    Param("knock", 0, 0, 1, "1: search the knock (knock now vs play on; gin always goes out; off by default: it "
          "measured no better)", True),
    Param("goal", 0, 0, 200, "score hands by points capped at what a side needs to reach the target, plus "
          "this for reaching it (0: plain hand points)"),
    Param("filter", 3, 0, 30, "sampled opponent hands: deal it one more card per draw it made from the stock "
          "(at most this many) and throw back its worst (a hand kept by a player, not a uniform one; 0: uniform)",
          True),
    Param("z", 1, 0, 5, "keep the heuristic's choice unless another option's mean gain over it in the same "
          "samples is above z standard errors"),
    Param("fit", 12, 0, 64, "sampled opponent hands: deal up to this many times, keeping the first hand that "
          "melds with none of the cards the opponent discarded or declined (else the fewest; 0 or 1: off)", True),
    Param("rtake", NEVER, 1, NEVER, "rollouts: the player also takes a pile card that lowers its deadwood by at "
          "least this (99: never, as simple)"),
    Param("rknock", NEVER, 0, NEVER, "rollouts: the player knocks only at this deadwood or under (gin always; "
          "99: at once, as simple)"),
    Param("stop", 0, 0, 10, "stop sampling early (after 16 samples, checked every 8) once every option's mean "
          "gain over the heuristic's choice is more than this many standard errors from 0 (0: never)"),
    Param("prune", 0, 0, 100, "search only the discards whose informed score is within this many points of the "
          "best's (0: the width best, whatever their score)"),
    Param("rgin", 8, 1, NEVER, "rollouts: from this own turn of the hand on the player goes only gin, as "
          "informed's gin_after, and a searched discard knocks only at informed's threshold (99: as simple)"),
    Param("strict", 0, 0, 1, "sampled opponent hands (with fit): 1 = also count against a sample a deadwood within "
          "the knock limit after the opponent discarded (simple would have knocked) and a latest discard that was "
          "not a lowest-deadwood one of the sampled hand"),
    Param("rout", 0, 0, 5, "rollouts: the player discards by deadwood after minus this credit per live out of "
          "the cards kept (unseen cards that meld with them, by bits), scaled by informed's fade (0: as simple)"),
    Param("depth", 5, 0, 32, "sampled opponent hands (with fit): also count against a sample each of the "
          "opponent's last depth turns a simple-like player holding it would not have played so (the card "
          "thrown not a lowest-deadwood one, a kept hand it could knock with, a pile card left that melds)"),
    Param("seen", 0, 0, 1, "sampled opponent hands (with fit): 1 = count against a sample the cards the "
          "opponent discarded or declined this hand that meld with it"),
    Param("ogin", NEVER, 1, NEVER, "rollouts: the opponent goes only gin from its own turn ogin (99: never)"),
    Param("style", 6, 0, 32, "from the opponent's turn style on, a sampled hand that passed a knock is kept, "
          "played for gin (0: off)", True),
    Param("patience", NEVER, 1, NEVER, "until the opponent is seen keeping a hand it could knock with, gin_after "
          "and rgin at this turn (99: off)", True),
)


def slot(params: tuple[Param, ...], name: str) -> int:
    """The position of parameter ``name`` in a seat's parameter vector of that family."""
    names = [p.name for p in params]
    if names.count(name) != 1:
        raise ValueError(f"parameter {name!r} is declared {names.count(name)} times")
    return names.index(name)


# The shared slots really are shared: knock's parameters sit at knock's positions in informed and mc,
# informed's at informed's in mc.
assert all(slot(fam, p.name) == i for fam in (INFORMED, MC) for i, p in enumerate(KNOCK))
assert all(slot(MC, p.name) == i for i, p in enumerate(INFORMED))
