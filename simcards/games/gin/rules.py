"""Gin Rummy rules as data: every option of gin-rummy.md sections 1–6, presets, validation and
the encoding both engines read.

A variant is a value of ``GinRules``; the kernel and the reference engine read the same encoded
``int64`` array (``encode()``), never a branch copied per variant. Combinations the rules file
does not define (say Hollywood scoring for three players) are refused by ``validate()`` with a
message naming the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from simcards.errors import SimcardsError
from simcards.games.gin.layout import VALUE_SCHEMES, meld_variant
from simcards.names import resolve
from simcards.options import RuleSet, check_options, option, with_overrides

HAND_SIZE = 10  # G-DEAL-2
NEXT_DEALERS = ("loser", "winner", "alternate")  # G-DEAL-1
SHUTOUTS = ("bonus", "double")  # G-GAME-1
KNOCK_CARDS = ("upcard", "second_deck")  # G-V-OKLA
PLAYER_COUNTS = (2, 3, 4, 6, 8)  # head to head, G-V-3P, teams of two (G-V-4P), three, four (G-V-TED)
HOLLYWOOD_GAMES = 3  # G-V-HOLLY
SPADES = 0  # suit index of spades (simcards.cards)
# G-V-MATCH: match points per hand won, for winning a match, and more when the loser won no hand.
MATCH_HAND_POINTS, MATCH_WIN_POINTS, MATCH_SHUTOUT_POINTS = 25, 100, 100

@dataclass(frozen=True)
class GinRules(RuleSet):
    """Every Gin Rummy option, each declared once with its rule, allowed values and help
    (``simcards.options``). Constructing an invalid value raises ``SimcardsError``."""

    TITLE: ClassVar[str] = "Gin"

    players: int = option(2, rule="G-V-3P, G-V-4P, G-V-TED", allowed=", ".join(map(str, PLAYER_COUNTS)),
                          help="3: the dealer sits out; 4, 6, 8: two teams of 2, 3, 4 (presets set it; --players "
                               "must match)")
    knock_limit: int = option(10, rule="G-KNOCK-1", allowed="0..10",
                              help="highest deadwood that may knock (0: gin only)")
    gin_bonus: int = option(20, rule="G-SC-4", allowed="0..100", help="bonus for going gin (tournament 25)")
    undercut_bonus: int = option(10, rule="G-SC-3", allowed="0..100", help="bonus for an undercut (tournament 20)")
    undercut_on_tie: bool = option(True, rule="G-SC-3",
                                   help="a tie is an undercut (false: a tie scores 0-0, as OpenSpiel)")
    game_target: int = option(100, rule="G-GAME-1", allowed="1..1000", help="a game ends when a total reaches this")
    game_bonus: int = option(100, rule="G-GAME-1", allowed="0..1000", help="bonus for winning the game")
    shutout_bonus: int = option(200, rule="G-GAME-1", allowed="0..2000",
                                help="game bonus instead when the loser scored nothing")
    shutout: str = option("bonus", rule="G-GAME-1", allowed=", ".join(SHUTOUTS),
                          help="bonus: shutout_bonus; double: the winner's whole score x2")
    box_bonus: int = option(20, rule="G-GAME-2", allowed="0..100",
                            help="line/box bonus per hand won, added at the end (tournament 25)")
    next_dealer: str = option("loser", rule="G-DEAL-1", allowed=", ".join(NEXT_DEALERS), help="who deals the next hand")
    gra_rediscard: bool = option(False, rule="G-TURN-3", help="a card taken from the pile may be discarded again; "
                                 "one's own discard is taken back only to knock")
    last_chance: bool = option(False, rule="G-WALL-2",
                               help="at the wall the other player may take the last discard to knock")
    fiftieth_card: bool = option(False, rule="G-WALL-3", help="turns on last_chance; the taken card may itself be "
                                 "discarded to knock")
    deal_11: bool = option(False, rule="G-V-DEAL11",
                           help="the non-dealer gets 11 cards and starts by discarding; no upcard")
    straight: bool = option(False, rule="G-V-STRAIGHT", help="no knocking: play until someone goes gin")
    oklahoma: bool = option(False, rule="G-V-OKLA", help="the knock card's value is the hand's knock limit (face "
                            "cards 10); a spade doubles the hand")
    ace_upcard_gin_only: bool = option(True, rule="G-V-OKLA",
                                       help="an ace knock card allows only gin (false: a limit of 1)")
    spade_double: bool = option(True, rule="G-V-OKLA",
                                help="a spade knock card doubles the hand's score, bonuses included")
    oklahoma_boxes: bool = option(False, rule="G-V-OKLA",
                                  help="extra boxes: an undercut 1, a gin 2 (with a spade 2 and 4)")
    knock_card: str = option("upcard", rule="G-V-OKLA", allowed=", ".join(KNOCK_CARDS),
                             help="second_deck: the bottom card of a second shuffled deck (no upcard; the winner "
                                  "of the previous hand draws first)")
    hollywood: bool = option(False, rule="G-V-HOLLY",
                             help="three games scored at once (a player's n-th win enters games 1..n)")
    round_the_corner: bool = option(False, rule="G-V-TED",
                                    help="aces high or low; runs may turn the corner (Q-K-A, K-A-2)")
    ace_value: int = option(1, rule="G-V-TED", allowed="1, 15", help="what an unmelded ace counts")
    sweep_bonus: int = option(0, rule="G-V-TED", allowed="0..1000", help="team bonus when all the team's players "
                              "win their hands (teams of three 25, four 50)")
    match_target: int = option(0, rule="G-V-MATCH", allowed="0..100000", help="0: one game is the match; N: "
                               "multi-match to N match points (25 a hand won, 100 a match, +100 when the loser won "
                               "no hand)")
    mahjong: bool = option(False, rule="G-V-MJ", help="Mahjong gin: no knock, multi-card pickups melded on the table")
    mj_face: int = option(10, rule="G-V-MJ", allowed="10, 5",
                          help="value of 10-K in Mahjong gin (Decision 10; the source's 5)")
    name: str = field(default="custom", compare=False)

    def __post_init__(self) -> None:
        self.validate()
        if self.fiftieth_card and not self.last_chance:  # G-WALL-3 turns on G-WALL-2
            object.__setattr__(self, "last_chance", True)  # frozen: set once, while constructing

    # ----- derived facts ------------------------------------------------------------------
    @property
    def teams(self) -> bool:
        """Team play (G-V-4P, G-V-TED teams): two teams, seat s in team s % 2."""
        return self.players >= 4

    @property
    def tables(self) -> int:
        """Two-player hands played at once in each deal: one per pair of opponents."""
        return self.players // 2 if self.teams else 1

    @property
    def sides(self) -> int:
        """What scores are kept for: seats (two or three players) or the two teams."""
        return 3 if self.players == 3 else 2

    @property
    def meld_variant(self) -> int:
        if self.mahjong:
            return meld_variant(False, "mahjong" if self.mj_face == 10 else "mahjong5")
        return meld_variant(self.round_the_corner, "ace15" if self.ace_value == 15 else "standard")

    @property
    def upcard(self) -> bool:
        """Is a 21st card turned up to start the discard pile (G-DEAL-2)?"""
        return not self.deal_11 and not (self.oklahoma and self.knock_card == "second_deck")

    # ----- validation -------------------------------------------------------------------
    def validate(self) -> GinRules:
        """Each option against its declaration, then the combinations the rules file does not define.
        Runs on construction (``__post_init__``), so a ``GinRules`` value is always valid."""
        def bad(msg: str) -> SimcardsError:
            return SimcardsError(f"gin rules: {msg}")

        def needs(flag: bool, what: str, condition: str) -> None:
            if flag:
                raise bad(f"{what} {condition}")

        check_options(self)
        # G-V-OKLA / G-V-STRAIGHT: who sets the knock limit
        needs(self.oklahoma and self.straight, "oklahoma and straight", "cannot be combined (straight gin allows "
              "no knock; G-V-STRAIGHT)")
        needs((self.oklahoma or self.straight) and self.knock_limit != 10, f"knock_limit={self.knock_limit}",
              "cannot be set with oklahoma or straight (the knock card, or gin only, sets the limit)")
        for key in ("ace_upcard_gin_only", "spade_double", "oklahoma_boxes", "knock_card"):
            needs(not self.oklahoma and getattr(self, key) != self.__dataclass_fields__[key].default,
                  f"{key}={getattr(self, key)}", "applies only with oklahoma=true (G-V-OKLA)")
        needs(self.oklahoma and self.deal_11 and self.knock_card == "upcard", "oklahoma with deal_11",
              "has no upcard to set the knock limit; add knock_card=second_deck (G-V-OKLA, G-V-DEAL11)")
        # G-V-3P / G-V-4P: player counts and scoring forms
        needs(self.players == 3 and self.next_dealer != "loser", f"next_dealer={self.next_dealer}",
              "is not defined for three players: the loser deals (G-V-3P)")
        needs(self.teams and self.next_dealer != "loser", f"next_dealer={self.next_dealer}",
              "is not defined for team play: the losing team deals (G-V-4P)")
        needs(self.players == 3 and self.hollywood, "hollywood", "is not defined for three players (G-V-HOLLY, G-V-3P)")
        needs(self.match_target > 0 and self.players != 2, "match_target",
              "(multi-match) is defined for two players only (G-V-MATCH)")
        needs(self.match_target > 0 and self.hollywood, "match_target with hollywood",
              "cannot be combined (G-V-MATCH, G-V-HOLLY)")
        needs(self.sweep_bonus > 0 and not self.teams, "sweep_bonus", "needs team play (players 4, 6 or 8; G-V-TED)")
        # G-V-MJ: its own turn, values and scoring; only what section 5 states
        if self.mahjong:
            for key in ("deal_11", "straight", "oklahoma", "hollywood", "round_the_corner", "gra_rediscard",
                        "last_chance", "fiftieth_card"):
                needs(getattr(self, key), f"mahjong with {key}", "is not defined (G-V-MJ)")
            needs(self.players != 2, "mahjong", "is defined for two players only (G-V-MJ)")
            needs(self.match_target > 0, "mahjong with match_target", "is not defined (G-V-MJ)")
            needs(self.ace_value != 1, "ace_value", "is set by mahjong's own values (G-V-MJ: ace 15)")
            needs(self.knock_limit != 10, f"knock_limit={self.knock_limit}", "cannot be set: mahjong gin has no knock")
        else:
            needs(self.mj_face != 10, "mj_face", "applies only with mahjong=true (G-V-MJ)")
        return self

    def check_players(self, players: int) -> None:
        if players != self.players:
            what = {2: "two players", 3: "three players (G-V-3P)", 4: "four players in two teams (G-V-4P)",
                    6: "six players in two teams of three (G-V-TED)",
                    8: "eight players in two teams of four (G-V-TED)"}[self.players]
            raise SimcardsError(f"--players {players}: these Gin rules ({self.name}) are for {what}; "
                                f"give --players {self.players}, or choose the player count with a preset "
                                f"(three-player, four-player, tedesco-teams) or --rule players=N")

    # ----- the bridge to the kernels ---------------------------------------------------------
    def encode(self) -> np.ndarray:
        arr = np.zeros(R_SIZE, dtype=np.int64)
        for slot, name in PLAIN_SLOTS.items():  # options the engines read as they are
            arr[slot] = getattr(self, name)
        arr[R_KNOCK] = 0 if self.straight or self.mahjong else self.knock_limit
        arr[R_SHUTOUT_DOUBLE] = self.shutout == "double"
        arr[R_NEXT_DEALER] = NEXT_DEALERS.index(self.next_dealer)
        arr[R_LAST_CHANCE] = self.last_chance or self.fiftieth_card  # G-WALL-3 turns on G-WALL-2
        arr[R_SECOND_DECK] = self.oklahoma and self.knock_card == "second_deck"
        scheme = VALUE_SCHEMES["standard"]
        for r in range(13):
            arr[R_VALUES + r] = scheme[r]  # values of the knock card (G-V-OKLA: face cards 10)
        for key, (index, _width) in hand_sections(self).items():
            arr[key] = index
        arr[R_H_WIDTH] = hand_width(self)
        return arr


# Encoded layout (indices into the int64 array).
(R_KNOCK, R_GIN, R_UNDERCUT, R_TIE_UNDERCUT, R_TARGET, R_GAME_BONUS, R_SHUTOUT_BONUS, R_SHUTOUT_DOUBLE,
 R_BOX, R_NEXT_DEALER, R_GRA, R_LAST_CHANCE, R_FIFTIETH, R_PLAYERS, R_TABLES, R_TEAMS, R_SIDES, R_DEAL11,
 R_UPCARD, R_OKLA, R_ACE_GIN, R_SPADE_DOUBLE, R_OKLA_BOXES, R_SECOND_DECK, R_HOLLY, R_MV, R_SWEEP, R_MATCH,
 R_MJ, R_H_OKLA, R_H_HOLLY, R_H_MATCH, R_H_TEAM, R_H_WIDTH) = range(34)
R_VALUES = 34  # 13 entries: the value of each rank for the knock card
R_H_MJ = 47
R_SIZE = 48
DEALER_LOSER, DEALER_WINNER, DEALER_ALTERNATE = range(3)


# The options encoded as their value (bool or int); the others are computed in ``encode``.
PLAIN_SLOTS = {
    R_GIN: "gin_bonus", R_UNDERCUT: "undercut_bonus", R_TIE_UNDERCUT: "undercut_on_tie", R_TARGET: "game_target",
    R_GAME_BONUS: "game_bonus", R_SHUTOUT_BONUS: "shutout_bonus", R_BOX: "box_bonus", R_GRA: "gra_rediscard",
    R_FIFTIETH: "fiftieth_card", R_PLAYERS: "players", R_TABLES: "tables", R_TEAMS: "teams", R_SIDES: "sides",
    R_DEAL11: "deal_11", R_UPCARD: "upcard", R_OKLA: "oklahoma", R_ACE_GIN: "ace_upcard_gin_only",
    R_SPADE_DOUBLE: "spade_double", R_OKLA_BOXES: "oklahoma_boxes", R_HOLLY: "hollywood", R_MV: "meld_variant",
    R_SWEEP: "sweep_bonus", R_MATCH: "match_target", R_MJ: "mahjong",
}

def hand_sections(rules: GinRules) -> dict[int, tuple[int, int]]:
    """Optional column blocks of a per-hand row: {R_H_* key: (first column, width)}. A block is
    present only when the rules need it, so the standard row stays narrow."""
    from simcards.games.gin import layout as L

    blocks = []
    if rules.oklahoma:
        blocks.append((R_H_OKLA, L.HO_WIDTH))
    if rules.hollywood:
        blocks.append((R_H_HOLLY, L.HH_WIDTH))
    if rules.match_target > 0:
        blocks.append((R_H_MATCH, L.HM_WIDTH))
    if rules.teams:
        blocks.append((R_H_TEAM, L.HT_WIDTH))
    if rules.mahjong:
        blocks.append((R_H_MJ, L.HJ_WIDTH))
    out = {}
    at = L.H_CORE
    for key, width in blocks:
        out[key] = (at, width)
        at += width
    return out


def hand_width(rules: GinRules) -> int:
    from simcards.games.gin import layout as L

    return L.H_CORE + sum(w for _, w in hand_sections(rules).values())


STANDARD = GinRules(name="standard")
TOURNAMENT = STANDARD.replace(gin_bonus=25, undercut_bonus=20, box_bonus=25, name="tournament")
OKLAHOMA = STANDARD.replace(oklahoma=True, game_target=150, name="oklahoma")
TEDESCO = OKLAHOMA.replace(ace_upcard_gin_only=False, round_the_corner=True, ace_value=15, hollywood=True,
                           game_target=200, name="tedesco")
NO_BONUSES = {"game_bonus": 0, "shutout_bonus": 0, "box_bonus": 0}  # G-V-4P Decision: the team game
PRESETS: dict[str, tuple[GinRules, str]] = {
    "standard": (STANDARD,
                 "sections 1–4: knock ≤10, undercut 10 (ties too), gin 20, box 20, game 100 (+100, 200 shutout)"),
    "tournament": (TOURNAMENT, "standard with gin 25, undercut 20, box 25"),
    "oklahoma": (OKLAHOMA, "G-V-OKLA: the upcard's value is the knock limit (ace: gin only), a spade upcard "
                           "doubles the hand, game to 150"),
    "oklahoma-second-deck": (OKLAHOMA.replace(knock_card="second_deck", name="oklahoma-second-deck"),
                             "G-V-OKLA tournament form: the knock card is the bottom card of a second deck; "
                             "no upcard"),
    "straight": (STANDARD.replace(straight=True, name="straight"), "G-V-STRAIGHT: no knocking, play to gin"),
    "hollywood": (STANDARD.replace(hollywood=True, name="hollywood"),
                  "G-V-HOLLY: standard play, three games scored at once"),
    "tedesco": (TEDESCO, "G-V-TED: Oklahoma with aces high or low, round-the-corner runs, an unmelded ace 15 "
                         "(ace upcard: limit 1), Hollywood to 200"),
    "tedesco-teams": (TEDESCO.replace(players=4, **NO_BONUSES, name="tedesco-teams"),
                      "G-V-TED by teams of two: four players, Hollywood to 200 on team scores"),
    "tedesco-teams-3": (TEDESCO.replace(players=6, game_target=300, sweep_bonus=25, **NO_BONUSES,
                                        name="tedesco-teams-3"),
                        "G-V-TED by teams of three: six players, Hollywood to 300, +25 when all three win"),
    "tedesco-teams-4": (TEDESCO.replace(players=8, game_target=400, sweep_bonus=50, **NO_BONUSES,
                                        name="tedesco-teams-4"),
                        "G-V-TED by teams of four: eight players, +50 when all four win (Decision: to 400)"),
    "deal-11": (STANDARD.replace(deal_11=True, name="deal-11"),
                "G-V-DEAL11: 11 cards to the non-dealer, 10 to the dealer, no upcard"),
    "three-player": (STANDARD.replace(players=3, name="three-player"),
                     "G-V-3P: the dealer sits out, the loser deals; game to 100 for each player's own total"),
    "four-player": (STANDARD.replace(players=4, game_target=125, **NO_BONUSES, name="four-player"),
                    "G-V-4P: two teams of two, opponents rotating, team scoring to 125, no bonuses"),
    "match": (STANDARD.replace(match_target=500, name="match"),
              "G-V-MATCH multi-match: games to 100; 25 per hand won, 100 per match, +100 shutout; to 500"),
    "mahjong": (STANDARD.replace(mahjong=True, gin_bonus=25, name="mahjong"),
                "G-V-MJ: no knocking, multi-card pickups melded on the table; table melds minus hand, gin +25"),
    # Decision (section 6): the EAAI-2021 challenge's conditions, so results compare with the published bots
    "eaai": (STANDARD.replace(gin_bonus=25, undercut_bonus=25, box_bonus=0, game_bonus=0, shutout_bonus=0,
                              next_dealer="alternate", name="eaai"),
             "the EAAI-2021 challenge's conditions: standard play, gin 25, undercut 25 (ties too), no box, game or "
             "shutout bonus, game to 100; the deal alternates (a wall hand is dealt again by the same dealer)"),
}


def preset(name: str) -> GinRules:
    return PRESETS[resolve("Gin variant", name, PRESETS)][0]  # case-insensitive, the nearest name suggested


def build_rules(variant: str = "standard", overrides: dict | None = None) -> GinRules:
    """A preset plus single-option overrides (text or typed values), validated on construction."""
    return with_overrides(preset(variant), overrides)
