"""Fixed sizes and array layouts shared by the Yaniv kernel, reference engine and policies.

A *group row* is ``[length, card_1, ..., card_length]`` with cards in the order laid (Y-DIS-5/6).
Options offered to a policy are rows of one table, sorted by (length, laid cards) so that both
engines present them identically. A draw option row is ``[1, face]`` with face -1 for the stock.
"""

MAX_HAND = 12  # Israeli hands never exceed 5; room for variants that grow a hand
# Y-V-REQ guard (strategy-independent): a request is made only when the asker and the player whose
# turn it is both hold fewer than this many cards, so no hand ever exceeds it (< MAX_HAND). Polls
# skipped by the guard are counted (games column ``requests_blocked``).
REQUEST_HAND_LIMIT = 10
ROW = MAX_HAND + 1
MAX_OPTIONS = 256
DECK_MAX = 108
MAX_PLAYERS = 21

TURN_CAP = 1000  # discards per round before the round is abandoned (counted, see README)
ROUND_CAP = 2000  # rounds per game before the game is stopped (counted, see README)

# Decision kinds a policy is asked about.
K_CALL, K_DISCARD, K_DRAW = 0, 1, 2
# Section-5 decisions. Options are two rows ``[1, 0]`` (no) and ``[1, 1]`` (yes), except K_REQUEST:
# row 0 ``[1, -1]`` asks for nothing, rows 1.. ``[1, face]`` ask for that available face.
K_OVERCALL = 3  # Y-V-OVERCALL: call although the hand is above the limit
K_REQUEST = 4  # Y-V-REQ: the asker (view V_SEAT) may ask for one of the cards the mover could take
K_GRANT = 5  # Y-V-REQ: the mover agrees (1: the asker takes V_REQ_FACE) or refuses (0: keeps it)
K_SLAM = 6  # Y-V-SLAM: lay the card just drawn (opts[1, 1]) on the group just thrown
K_ONDER = 7  # Y-V-KLUFT: call onderkluft (1) or reveal (0)
DECISION_NAMES = ("call", "discard", "draw", "overcall", "request", "grant", "slam", "onderkluft")

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
V_REQ_FACE = 10  # K_GRANT: the face asked for
V_REQ_SEAT = 11  # K_GRANT: who asked
V_CALLER = 12  # K_ONDER: the Kluft caller
V_ONDER_N = 13  # K_ONDER: onderkluft calls already made this round
V_CALLER_CALLS = 14  # K_ONDER: Kluft calls the caller made earlier in this game
V_CALLER_BEATEN = 15  # K_ONDER: how many of those were beaten by an onderkluft
V_SCORES = 16  # cumulative scores, one per seat
V_SIZES = V_SCORES + MAX_PLAYERS  # hand sizes, one per seat
V_ALIVE = V_SIZES + MAX_PLAYERS  # 1 if the seat is still in the game
V_AVAIL = V_ALIVE + MAX_PLAYERS  # the faces that may be taken from the previous discard
V_THROWN = V_AVAIL + MAX_HAND  # the group just thrown, as laid (draw decisions)
V_REVEALED = V_THROWN + MAX_HAND  # K_ONDER: hand totals already revealed (-1: not revealed)
V_BAD = V_REVEALED + MAX_PLAYERS
# Public memory of the round, kept by both engines for every seat (the informed and mc players read
# it): copies of each face lying in the discard pile (the buried cards and the previous discard;
# reset to the previous discard at a reshuffle) and, per seat, the faces known to be in its hand
# (taken from a discard or by a request; cleared when thrown). All of it was seen by every player.
N_FACES = 54
V_SEEN = V_BAD + 5
V_KNOWN = V_SEEN + N_FACES  # one bit mask of faces per seat
VIEW_SIZE = V_KNOWN + MAX_PLAYERS

# Per-game result columns (int64).
G_WINNER, G_ROUNDS, G_TURNS, G_STARTER, G_CALLS, G_ASAFS, G_CAPPED_ROUNDS, G_CAPPED = range(8)
G_PLAYOFF_ROUNDS = 8
# Section-5 counters (zero unless the option is on).
G_OVERCALLS, G_REQUESTS, G_GRANTED, G_REQ_BLOCKED, G_SLAMS, G_ONDER, G_ONDER_WINS = range(9, 16)
G_FULL_TABLES = 16  # discards offered from a full option table (MAX_OPTIONS groups; the longest dropped)
G_SCORES = 17
# A user policy's bad option indices (simcards.policy.BAD_WIDTH slots: count, strategy id, kind,
# index, options): recorded in the view by the policy's dispatcher, copied to the game's row.
G_BAD = G_SCORES + MAX_PLAYERS
G_WIDTH = G_BAD + 5

# Per-round result columns (int32); hands and scores follow, one per seat.
RD_ROUND, RD_STARTER, RD_CALLER, RD_TURNS, RD_ASAF, RD_ELIMINATED, RD_PLAYOFF, RD_CAPPED = range(8)
RD_HANDS = 8


def round_width(players: int) -> int:
    return RD_HANDS + 2 * players

# ----- the transcript: one row per event, the same from both engines ----------------------------------
# (differential tests compare these arrays move for move)
EV_HAND, EV_UPCARD, EV_CALL, EV_DISCARD, EV_DRAW, EV_RESHUFFLE, EV_SCORE, EV_ROUND = range(8)
EV_REQUEST, EV_GRANT, EV_SLAM, EV_ONDER = range(8, 12)
LOG_WIDTH = 5 + ROW  # [event, round, seat, a, b, cards...]
