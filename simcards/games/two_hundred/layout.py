"""Card encoding, fixed sizes and array layouts shared by the Two Hundred kernel, reference
engine and policies.

Cards keep the shared face ids (``suit * 13 + rank``, rank 0 = Ace). Inside the kernel a hand is
one 64-bit mask with a 9-bit lane per suit: bit ``9 * suit + order`` where ``order`` runs over the
ranks from low to high, ``5 7 8 9 T J Q K A`` (T-CARD-1). Within a lane a higher bit is a higher
card, so "beats" is an integer comparison and the highest card of a suit is a table lookup.
"""

import numpy as np

N_PLAYERS = 4
N_SUITS = 4
LANE = 9
LANE_FULL = (1 << LANE) - 1
DECK_SIZE = 36
DECK_MASK = (1 << DECK_SIZE) - 1
TRICKS = 9

# T-CARD-1: face ranks (0 = Ace ... 12 = King) from the lowest card to the highest.
RANK_ORDER = (4, 6, 7, 8, 9, 10, 11, 12, 0)  # 5 7 8 9 T J Q K A
# T-CARD-2: card points by lane order: 5 → 5, 10 → 10, Ace → 10, all others 0.
ORDER_POINTS = np.array([5, 0, 0, 0, 10, 0, 0, 0, 10], dtype=np.int64)

FACE_OF_BIT = np.array([s * 13 + RANK_ORDER[o] for s in range(N_SUITS) for o in range(LANE)], dtype=np.int64)
BIT_OF_FACE = np.full(54, -1, dtype=np.int64)
for _b, _f in enumerate(FACE_OF_BIT):
    BIT_OF_FACE[_f] = _b
DECK_FACES = np.sort(FACE_OF_BIT)  # the 36 faces in id order: the deck before the shuffle

# Lane tables (index: a 9-bit lane).
LANE_COUNT = np.array([bin(m).count("1") for m in range(1 << LANE)], dtype=np.int64)
LANE_LOW = np.array([(m & -m).bit_length() - 1 for m in range(1 << LANE)], dtype=np.int64)  # -1 for 0
LANE_HIGH = np.array([m.bit_length() - 1 for m in range(1 << LANE)], dtype=np.int64)  # -1 for 0
LANE_POINTS = np.array([sum(int(ORDER_POINTS[o]) for o in range(LANE) if m >> o & 1) for m in range(1 << LANE)],
                       dtype=np.int64)

# Decision kinds a policy is asked about, and their options.
K_BID, K_TRUMP, K_PLAY = 0, 1, 2
DECISION_NAMES = ("bid", "trump", "play")
PASS = 0  # the bid option meaning "pass"
MAX_OPTIONS = 128

# The public view a policy receives (int64 array). Masks use the lane bits above.
V_SEAT = 0  # the deciding player's seat
V_DEALER = 1
V_DEAL = 2  # deal number in the game, from 1
V_BID = 3  # highest bid so far (the contract during play); 0 before any bid
V_BIDDER = 4  # seat holding the highest bid (the contractor during play); -1 before any bid
V_PASSED = 5  # mask of seats that have passed in this auction
V_TRUMP = 6  # trump suit; -1 during the auction
V_TRICK = 7  # trick number 0..8 (0 during the auction)
V_LEADER = 8  # seat that led the current trick; -1 during the auction
V_N_IN = 9  # cards already played to the current trick
V_LEAD_SUIT = 10  # suit led to the current trick; -1 if none yet
V_WIN_SEAT = 11  # seat currently winning the trick; -1 if none yet
V_WIN_FACE = 12  # face currently winning the trick; -1 if none yet
V_TRICK_POINTS = 13  # card points in the current trick so far
V_PLAYED = 14  # mask of every card played this deal (current trick included)
V_TRICK_FACES = 16  # faces of the current trick in the order played (-1 = not yet)
V_BIDS = 20  # highest bid each seat made in this auction (0 = none)
V_TAKEN = 24  # card points each team took in the completed tricks of this deal
V_SCORES = 26  # each team's cumulative score before this deal
V_VOIDS = 28  # per seat: mask of suits (bit s) the seat has shown out of this deal
VIEW_SIZE = 32

# Caps: every loop that could run long has one, and its hits are counted.
DEAL_CAP = 1000  # deals per game; at the cap the higher score wins (counted as capped)

# Per-game result columns (int64).
G_WINNER, G_DEALS, G_THROWINS, G_FIRST_DEALER, G_MADE, G_FAILED, G_CAPPED, G_HOLE = range(8)
G_SCORES = 8  # one per team
G_INVALID = 10  # decisions a policy returned out of range (replaced by option 0)
G_WIDTH = 11

# Per-deal result columns (int32).
(D_DEAL, D_DEALER, D_BIDDER, D_BID, D_TRUMP, D_TAKEN0, D_TAKEN1, D_MADE, D_DSCORE0, D_DSCORE1,
 D_SCORE0, D_SCORE1) = range(12)
D_WIDTH = 12
