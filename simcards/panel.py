"""The opponent panel of each game: the fixed strategies of different styles that strength is
measured against (issue 29), named here and nowhere else.

A player is strong when it beats every member of its game's panel, not one baseline: a search
player that models its opponents as the baseline can look strong against the baseline and no
stronger than a heuristic against another style. ``benchmarks/strength.py`` plays each game's
strongest preset (``STRONGEST``) against every member; ``simcards strategies GAME`` lists the
panel; the ``strong-play`` report plays it.

Every member is a spec of an existing family or a shipped preset (``simcards/data/strategies``),
so the panel needs no code of its own and a member's spec is what a user types.
"""

from __future__ import annotations

from dataclasses import dataclass

from simcards.errors import SimcardsError


@dataclass(frozen=True)
class Member:
    """One panel member: its ``spec`` (what ``--strategy`` takes) and the style it stands for."""

    spec: str
    style: str


PANELS: dict[str, tuple[Member, ...]] = {
    "gin": (
        Member("simple", "the EAAI baseline: knocks as soon as legal"),
        Member("camper", "knocks only in its first 3 turns, then plays for gin"),
        Member("informed", "remembers what it has seen (G-INFO-1)"),
        Member("knock:max=10,gin_after=6", "the best tuned knock (reports/gin-knock)"),
    ),
    "yaniv": (
        Member("threshold", "the baseline: calls at 5 or less"),
        Member("informed", "calls by the estimated chance of Asaf"),
        Member("bold", "an early caller: sheds greedily, calls at once"),
        Member("denier", "denies pickups (informed:deny=12)"),
    ),
    "two-hundred": (
        Member("heuristic", "the baseline bidder and card player"),
        Member("informed", "the heuristic with memory of the deal"),
        Member("aggressive", "an aggressive bidder (heuristic:aggr=1)"),
    ),
}

# Each game's strongest shipped preset, the player benchmarks/strength.py measures (Gin: `reader`,
# `deep` reading the opponent's style from its sampled hands, simcards/data/strategies/gin/reader.toml).
STRONGEST = {"gin": "reader", "yaniv": "deep", "two-hundred": "deep"}


def panel(game: str) -> tuple[Member, ...]:
    """The panel of ``game`` (a registered game's name)."""
    from simcards.games import get_game

    name = get_game(game).name
    if name not in PANELS:
        raise SimcardsError(f"{name} has no opponent panel (simcards.panel.PANELS)")
    return PANELS[name]


def panel_specs(game: str) -> list[str]:
    return [m.spec for m in panel(game)]
