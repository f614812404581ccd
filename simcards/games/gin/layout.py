"""Fixed sizes and array layouts shared by the Gin kernel, reference engine and policies.

Options offered to a policy are rows ``[a, b, c, d]`` of one table (unused columns are 0):

* ``K_UPCARD`` (G-FIRST-1), ``K_DRAW`` (G-TURN-1), ``K_LAST`` (G-WALL-2): row 0 ``[0, -1]`` =
  decline / draw from the stock / pass, row 1 ``[1, card, dw11, after]`` = take that discard-pile
  card (``dw11``: deadwood of the 11 cards with it; ``after``: the lowest deadwood after a legal
  discard, i.e. not that card unless the rules allow re-discarding it).
* ``K_DISCARD``: one row ``[card, deadwood after discarding it]`` per legal discard, by card id
  (also the first discard of the 11-card deal, G-V-DEAL11, with ``view[V_FIRST]`` 1).
* ``K_KNOCK`` (G-KNOCK-1): ``[0, dw]`` play on, ``[1, dw]`` knock (gin when dw is 0). Offered
  only when dw is within this hand's limit ``view[V_LIMIT]`` (G-V-OKLA: the knock card's value;
  G-V-STRAIGHT and G-V-MJ: 0, gin only).
* ``K_ARRANGE`` (G-LAY-0): after a knock that is not gin, when the knocker's hand has several
  arrangements of the minimum deadwood, one row ``[sets, dw, exposed, known]`` per arrangement, in
  the documented tie-break order (row 0 is the default arrangement): ``sets`` the cards laid in
  sets (the other melded cards are maximal runs), ``dw`` the deadwood (the same in every row),
  ``exposed`` the value of the cards that would lay off directly on its melds (the card beyond
  each end of a run, the missing card of a 3-set) and that the knocker has not seen placed (not
  in its hand, not in the discard pile), ``known`` the part of ``exposed`` the opponent is known
  to hold (cards it took from the pile, ``view[V_OPP_TOOK]``). The defender then lays off
  (G-LAY-1) onto the chosen melds.
* ``K_PICKUP`` (G-V-MJ, instead of ``K_UPCARD``/``K_DRAW``): row 0 ``[0, -1, dw]`` = draw from the
  stock (first turn: decline the upcard), row i ``[N, deepest card, after, placed]`` = take the top
  N cards of the pile; the deepest goes on the table at once (``placed``: the value put on the
  table; ``after``: the hand's deadwood after that and the best legal discard).

A decision with a single legal option is not asked (both engines skip it the same way).
"""

MAX_HAND = 12
OPT_W = 4
MAX_OPTIONS = 16
MAX_MELDS = 20  # G-V-MJ: melds on the table
MAX_SEATS = 8  # teams of four (G-V-TED)
MAX_TABLES = 4
MAX_SIDES = 3  # seats of the three-player game (G-V-3P), else two (seats or teams)
N_HOLLY = 3  # G-V-HOLLY

TURN_CAP = 400  # discards per hand before the hand is stopped (scored as void, counted)
HAND_CAP = 5000  # hands (deals) per game before the game is stopped (counted)

K_UPCARD, K_DRAW, K_DISCARD, K_KNOCK, K_LAST, K_PICKUP, K_ARRANGE = range(7)
DECISION_NAMES = ("upcard", "draw", "discard", "knock", "last_chance", "pickup", "arrange")

# The view a policy receives (int64). Masks are 52-bit card masks (bit = face id).
V_SEAT = 0  # the deciding player's seat
V_DEALER = 1  # the seat that dealt (G-V-3P: the dealer sits out)
V_HAND = 2  # hand number in the game, from 1
V_TURN = 3  # discards already made this hand (both players)
V_MY_TURNS = 4  # discards this player already made this hand
V_STOCK = 5  # cards left in the stock
V_TOP = 6  # top card of the discard pile (-1 if none)
V_DW = 7  # the player's deadwood: 10 cards before a draw, best after-discard at discard/knock
V_LIMIT = 8  # this hand's knock limit (G-KNOCK-1; G-V-OKLA: set by the knock card; 0: gin only)
V_MY_SCORE = 9  # own score toward the target (team score in team play; G-V-HOLLY: the first open game)
V_OPP_SCORE = 10
V_TARGET = 11  # game target (G-GAME-1)
V_MASK = 12  # the player's own hand
V_OPP_TOOK = 13  # cards the opponent took from the discard pile this hand (public, G-INFO-1)
V_OPP_DISCARDS = 14  # cards the opponent discarded this hand
V_PILE = 15  # cards in the discard pile
V_TAKEN = 16  # card taken from the discard pile this turn (-1: none)
V_TAKE_MUST_KNOCK = 17  # taking the top card obliges a knock this turn (G-TURN-3, G-WALL-2)
V_FIRST = 18  # 1 during the first turn (G-FIRST-1 upcard protocol, G-V-DEAL11 first discard)
V_OPP_PASSED = 19  # discard-pile cards the opponent declined (upcard or top cards left lying)
V_STAKE = 20  # the hand's score multiplier (G-V-OKLA: 2 with a spade knock card, else 1)
V_KNOCK_CARD = 21  # G-V-OKLA: the knock card (-1 when not Oklahoma)
V_THIRD_SCORE = 22  # G-V-3P: the score of the player sitting out (-1 otherwise)
V_PLAYERS = 23  # players in the game
V_TABLE_MINE = 24  # G-V-MJ: cards this player put on the table (they score for it)
V_TABLE_OPP = 25  # G-V-MJ: cards the opponent put on the table
V_TABLE = 26  # G-V-MJ: every card in a table meld
V_BAD = 27  # .. 31: see G_BAD
V_OPP_TURNS = 32  # the opponent's turns this hand recorded in V_OPP_HIST (at most HIST_MAX)
V_OPP_HIST = 33  # .. 40: the opponent's turns this hand in order (G-INFO-1), HIST_PER_SLOT to a slot
# The opponent's earliest own turn of a hand at which an earlier hand of this game showed it holding, after
# its discard, a hand it could have knocked with, and not knocking (0: never seen). Shown when the other
# player knocked or went gin (the defender's hand is laid out, G-LAY-1: it is the hand after its last
# discard): the evidence that it waits for gin or an undercut rather than knocking when it can.
V_OPP_WAITED = 41
VIEW_SIZE = V_OPP_WAITED + 1

# A turn record (16 bits; turn i sits in view[V_OPP_HIST + i // 4] at bit 16 * (i % 4)): the card
# discarded, the pile's top card when the player drew (the card taken, or the card left lying;
# HIST_NONE: no pile), and how it drew (HIST_TOOK: the pile's top; HIST_STOCK: the stock; neither:
# no draw, G-V-DEAL11's first discard). Later turns are not recorded (no real hand comes near).
HIST_MAX = 32
HIST_PER_SLOT = 4
HIST_BITS = 16
HIST_CARD = 63  # the discarded card: bits 0-5; the top card: bits 6-11
HIST_NONE = 63
HIST_TOOK = 1 << 12
HIST_STOCK = 1 << 13

# Hand outcomes.
O_KNOCK, O_GIN, O_UNDERCUT, O_WALL, O_TIE, O_CAPPED = range(6)
OUTCOMES = ("knock", "gin", "undercut", "wall", "tie", "capped")

# Per-game result columns (int64). Per-seat blocks hold MAX_SEATS slots; per-side blocks
# MAX_SIDES (a side is a seat with two or three players, a team in team play).
(G_WINNER, G_HANDS, G_SCORED, G_FIRST_DEALER, G_KNOCKS, G_GINS, G_UNDERCUTS, G_WALLS, G_TIES,
 G_CAPPED_HANDS, G_CAPPED, G_TURNS, G_SHUTOUT, G_MARGIN, G_DEALER_WON, G_DOUBLED, G_DEALS, G_PICKUPS,
 G_MULTI_PICKUPS) = range(19)
G_SCORES = 19  # points from hands won, without bonuses, per seat (G-V-MJ: every hand's points)
G_WON = G_SCORES + MAX_SEATS  # hands won, per seat
G_SIDE_POINTS = G_WON + MAX_SEATS  # points toward the target, per side
G_SIDE_WON = G_SIDE_POINTS + MAX_SIDES  # hands (deals) won, per side
G_BOXES = G_SIDE_WON + MAX_SIDES  # boxes, per side (hands won plus G-V-OKLA extra boxes)
G_FINAL = G_BOXES + MAX_SIDES  # final score with game bonus, shutout and boxes, per side
G_SWEEPS = G_FINAL + MAX_SIDES  # G-V-TED: deals a team won at every table, per team
# G-V-HOLLY, per game k: winner, shutout, margin, hand that closed it, then per side points,
# boxes, final, hands entered.
G_HOLLY = G_SWEEPS + 2
(GH_WINNER, GH_SHUTOUT, GH_MARGIN, GH_CLOSED) = range(4)
GH_POINTS, GH_BOXES, GH_FINAL, GH_WON = 4, 6, 8, 10
GH_WIDTH = 12
# G-V-MATCH: matches played, shutout matches, per side matches won and match points.
G_MATCHES = G_HOLLY + N_HOLLY * GH_WIDTH
G_MATCH_SHUTOUTS = G_MATCHES + 1
G_MATCHES_WON = G_MATCHES + 2
G_MATCH_POINTS = G_MATCHES + 4
# A user policy's bad option indices (simcards.policy.BAD_WIDTH slots: count, strategy id, kind,
# index, options): recorded in the view by the policy's dispatcher, copied to the game's row.
G_BAD = G_MATCHES + 6
G_WIDTH = G_BAD + 5

# Per-hand result columns (int32). The core block; the table's two players are positions 0 (the
# non-dealer's part: first to play) and 1 (the dealer's part).
(H_HAND, H_DEALER, H_KNOCKER, H_OUTCOME, H_WINNER, H_POINTS, H_TURNS, H_UPCARD_TAKER,
 H_LAID_N, H_LAID_PTS, H_STOCK) = range(11)
H_SEAT = 11  # seat at position 0 and 1
H_DW = 13  # final deadwood at position 0 and 1 (the defender's after lay-offs)
H_SCORES = 15  # running points toward the target after the hand, per side
H_CORE = H_SCORES + MAX_SIDES
# Optional blocks, placed after the core when the rules need them (rules.hand_sections):
HO_KNOCK_CARD, HO_LIMIT, HO_STAKE, HO_BOXES = range(4)  # G-V-OKLA
HO_WIDTH = 4
HH_ENTERED = 0  # G-V-HOLLY: bit k-1 set when the hand's score went into game k
HH_SCORES = 1  # running points of game k, side s at 1 + 2k + s
HH_WIDTH = 1 + 2 * N_HOLLY
HM_MATCH, HM_POINTS = 0, 1  # G-V-MATCH: match number, running match points per side
HM_WIDTH = 3
HT_TABLE, HT_DEAL_WINNER, HT_DEAL_POINTS = range(3)  # team play: table, the deal's scoring team and points
HT_WIDTH = 3
# G-V-MJ, per position: the hand's points, the value of the cards the player put on the table; then
# the hand's pile pickups and the most cards taken at once.
HJ_POINTS, HJ_TABLE, HJ_PICKUPS, HJ_MAX_TAKE = 0, 2, 4, 5
HJ_WIDTH = 6


# ----- the transcript: one row per event, the same from both engines ----------------------------------
# (differential tests compare these arrays move for move)
(EV_DEAL, EV_UPCARD, EV_UPCARD_CHOICE, EV_DRAW, EV_DISCARD, EV_KNOCK, EV_LAST, EV_WALL, EV_LAYOFF,
 EV_HAND_END, EV_SCORE, EV_KNOCK_CARD, EV_LEDGER, EV_PICKUP, EV_TABLE_LAYOFF, EV_MJ_SCORE) = range(16)
LOG_WIDTH = 6 + MAX_HAND  # [event, hand, seat, a, b, c, cards...]

# ----- meld variants: how runs wrap and what cards are worth -------------------------------------
# A *meld variant* ``mv`` is a row of the lane tables: the run rule (ace low only, G-MELD-3, or
# round the corner, G-V-TED) and the card values (G-CARD-1; the unmelded ace 15 of G-V-TED; the
# Mahjong values of G-V-MJ with 10-K worth 10 or 5); 0 is the standard game. Declared here, not in
# melds.py, so that rules.py needs no solver (melds.py reads rules.py: no import circle).
VALUE_SCHEMES = {
    "standard": (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),  # G-CARD-1
    "ace15": (15, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10),  # G-V-TED: an unmelded ace counts 15
    "mahjong": (15, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10),  # G-V-MJ (10-K: 10, the Decision)
    "mahjong5": (15, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5),  # G-V-MJ with mj_face=5
}
# (corner runs?, value scheme) of each meld variant, in table-row order.
MELD_VARIANTS = (
    (False, "standard"),
    (False, "ace15"),
    (True, "standard"),
    (True, "ace15"),
    (False, "mahjong"),
    (False, "mahjong5"),
)
N_MV = len(MELD_VARIANTS)


def meld_variant(corner: bool, scheme: str) -> int:
    """The table row of a run rule and value scheme."""
    return MELD_VARIANTS.index((bool(corner), scheme))
