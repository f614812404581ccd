"""Fixed sizes and array layouts shared by the Gin kernel, reference engine and policies.

Options offered to a policy are rows ``[a, b, c, d]`` of one table (unused columns are 0):

* ``K_UPCARD`` (G-FIRST-1), ``K_DRAW`` (G-TURN-1), ``K_LAST`` (G-WALL-2): row 0 ``[0, -1]`` =
  decline / draw from the stock / pass, row 1 ``[1, card, dw11, after]`` = take that discard-pile
  card (``dw11``: deadwood of the 11 cards with it; ``after``: the lowest deadwood after a legal
  discard, i.e. not that card unless the rules allow re-discarding it).
* ``K_DISCARD``: one row ``[card, deadwood after discarding it]`` per legal discard, by card id.
* ``K_KNOCK`` (G-KNOCK-1): ``[0, dw]`` play on, ``[1, dw]`` knock (gin when dw is 0).

A decision with a single legal option is not asked (both engines skip it the same way).
"""

MAX_HAND = 12
OPT_W = 4
MAX_OPTIONS = 12

TURN_CAP = 400  # discards per hand before the hand is stopped (scored as void, counted)
HAND_CAP = 5000  # hands per game before the game is stopped (counted)

K_UPCARD, K_DRAW, K_DISCARD, K_KNOCK, K_LAST = range(5)
DECISION_NAMES = ("upcard", "draw", "discard", "knock", "last_chance")

# The view a policy receives (int64). Masks are 52-bit card masks (bit = face id).
V_SEAT = 0  # the deciding player's seat
V_DEALER = 1
V_HAND = 2  # hand number in the game, from 1
V_TURN = 3  # discards already made this hand (both players)
V_MY_TURNS = 4  # discards this player already made this hand
V_STOCK = 5  # cards left in the stock
V_TOP = 6  # top card of the discard pile (-1 if none)
V_DW = 7  # the player's deadwood: 10 cards before a draw, best after-discard at discard/knock
V_LIMIT = 8  # knock limit (G-KNOCK-1)
V_MY_SCORE = 9
V_OPP_SCORE = 10
V_TARGET = 11  # game target (G-GAME-1)
V_MASK = 12  # the player's own hand
V_OPP_TOOK = 13  # cards the opponent took from the discard pile this hand (public, G-INFO-1)
V_OPP_DISCARDS = 14  # cards the opponent discarded this hand
V_PILE = 15  # cards in the discard pile
V_TAKEN = 16  # card taken from the discard pile this turn (-1: none)
V_TAKE_MUST_KNOCK = 17  # taking the top card obliges a knock this turn (G-TURN-3, G-WALL-2)
V_FIRST = 18  # 1 during the first-turn upcard protocol (G-FIRST-1)
V_OPP_PASSED = 19  # discard-pile cards the opponent declined (upcard or top cards left lying)
VIEW_SIZE = 24

# Hand outcomes.
O_KNOCK, O_GIN, O_UNDERCUT, O_WALL, O_TIE, O_CAPPED = range(6)
OUTCOMES = ("knock", "gin", "undercut", "wall", "tie", "capped")

# Per-game result columns (int64).
(G_WINNER, G_HANDS, G_SCORED, G_FIRST_DEALER, G_KNOCKS, G_GINS, G_UNDERCUTS, G_WALLS, G_TIES,
 G_CAPPED_HANDS, G_CAPPED, G_TURNS, G_SHUTOUT, G_MARGIN) = range(14)
G_SCORES = 14  # points without bonuses, one per seat
G_WON = 16  # hands won, one per seat
G_FINAL = 18  # final score with game bonus, shutout and boxes, one per seat
G_DEALER_WON = 20  # hands won by that hand's dealer
G_WIDTH = 21

# Per-hand result columns (int32).
(H_HAND, H_DEALER, H_KNOCKER, H_OUTCOME, H_WINNER, H_POINTS, H_TURNS, H_UPCARD_TAKER,
 H_LAID_N, H_LAID_PTS, H_STOCK) = range(11)
H_DW = 11  # final deadwood of each seat (the defender's after lay-offs)
H_SCORES = 13  # running totals after the hand
H_WIDTH = 15
