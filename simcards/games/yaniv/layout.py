"""Fixed sizes and array layouts shared by the Yaniv kernel, reference engine and policies.

A *group row* is ``[length, card_1, ..., card_length]`` with cards in the order laid (Y-DIS-5/6).
Options offered to a policy are rows of one table, sorted by (length, laid cards) so that both
engines present them identically. A draw option row is ``[1, face]`` with face -1 for the stock.
"""

MAX_HAND = 12  # Israeli hands never exceed 5; room for variants that grow a hand
ROW = MAX_HAND + 1
MAX_OPTIONS = 256
DECK_MAX = 108
MAX_PLAYERS = 21

TURN_CAP = 1000  # discards per round before the round is abandoned (counted, see README)
ROUND_CAP = 2000  # rounds per game before the game is stopped (counted, see README)

# Decision kinds a policy is asked about.
K_CALL, K_DISCARD, K_DRAW = 0, 1, 2
DECISION_NAMES = ("call", "discard", "draw")

# The public view a policy receives (int64 array).
V_SEAT = 0  # the deciding player's seat
V_PLAYERS = 1  # seats at the table
V_ALIVE_N = 2  # players still in the game
V_TURN = 3  # discards already made this round
V_STOCK = 4  # cards left in the stock
V_ROUND = 5  # round number, from 1
V_TOTAL = 6  # the deciding player's hand total
V_AVAIL_N = 7  # how many distinct faces of the previous discard may be taken
V_THROWN_N = 8  # cards just thrown (draw decisions)
V_STARTER = 9  # who started this round
V_SCORES = 16  # cumulative scores, one per seat
V_SIZES = V_SCORES + MAX_PLAYERS  # hand sizes, one per seat
V_ALIVE = V_SIZES + MAX_PLAYERS  # 1 if the seat is still in the game
V_AVAIL = V_ALIVE + MAX_PLAYERS  # the faces that may be taken from the previous discard
V_THROWN = V_AVAIL + MAX_HAND  # the group just thrown, as laid (draw decisions)
VIEW_SIZE = V_THROWN + MAX_HAND

# Per-game result columns (int64).
G_WINNER, G_ROUNDS, G_TURNS, G_STARTER, G_CALLS, G_ASAFS, G_CAPPED_ROUNDS, G_CAPPED = range(8)
G_PLAYOFF_ROUNDS = 8
G_SCORES = 9
G_WIDTH = G_SCORES + MAX_PLAYERS

# Per-round result columns (int32); hands and scores follow, one per seat.
RD_ROUND, RD_STARTER, RD_CALLER, RD_TURNS, RD_ASAF, RD_ELIMINATED, RD_PLAYOFF, RD_CAPPED = range(8)
RD_HANDS = 8


def round_width(players: int) -> int:
    return RD_HANDS + 2 * players
