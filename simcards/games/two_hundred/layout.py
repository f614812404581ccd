"""Card encoding, fixed sizes and array layouts shared by the Two Hundred kernel, reference
engine and policies.

Cards keep the shared face ids (``suit * 13 + rank``, rank 0 = Ace). Inside the kernel a hand is
one 64-bit mask with a 10-bit lane per suit: bit ``10 * suit + order`` where ``order`` runs over
the ranks from low to high, ``5 6 7 8 9 T J Q K A`` (T-CARD-1; the 6s exist only in the 40-card
deck of T-V-5P and T-V-KITTY, so in the 36-card deck order 1 is always empty). Within a lane a
higher bit is a higher card, so "beats" is an integer comparison and the highest card of a suit
is a table lookup.
"""

import numpy as np

N_PLAYERS = 4  # the standard table
MAX_SEATS = 6  # T-V-6P
N_SUITS = 4
NO_TRUMP = 4  # the "trump" of a no-trump deal (T-V-ROUGH): matches no suit
LANE = 10
LANE_FULL = (1 << LANE) - 1
DECK_SIZE = 36
MAX_DECK = 40
TRICKS = 9

# T-CARD-1: face ranks (0 = Ace ... 12 = King) from the lowest card to the highest.
RANK_ORDER = (4, 5, 6, 7, 8, 9, 10, 11, 12, 0)  # 5 6 7 8 9 T J Q K A
SIX_ORDER = 1  # the 6 (40-card deck only)
# T-CARD-2: card points by lane order: 5 → 5, 10 → 10, Ace → 10, all others 0.
ORDER_POINTS = np.array([5, 0, 0, 0, 0, 10, 0, 0, 0, 10], dtype=np.int64)

FACE_OF_BIT = np.array([s * 13 + RANK_ORDER[o] for s in range(N_SUITS) for o in range(LANE)], dtype=np.int64)
BIT_OF_FACE = np.full(54, -1, dtype=np.int64)
for _b, _f in enumerate(FACE_OF_BIT):
    BIT_OF_FACE[_f] = _b
_SIX_LANE = LANE_FULL & ~(1 << SIX_ORDER)
DECK_MASK_36 = sum(_SIX_LANE << (LANE * s) for s in range(N_SUITS))  # no 6s
DECK_MASK_40 = sum(LANE_FULL << (LANE * s) for s in range(N_SUITS))
DECK_MASK = DECK_MASK_36  # the standard deck
DECK_FACES = np.sort(np.array([FACE_OF_BIT[b] for b in range(LANE * N_SUITS) if DECK_MASK_36 >> b & 1], dtype=np.int64))
DECK_FACES_40 = np.sort(FACE_OF_BIT)
# Row 0: the 36-card deck (padded), row 1: the 40-card deck, in face id order: the deck before the shuffle.
DECKS = np.zeros((2, MAX_DECK), dtype=np.int64)
DECKS[0, :36] = DECK_FACES
DECKS[1, :40] = DECK_FACES_40

# Lane tables (index: a 10-bit lane). int8: small enough that all of them stay in the L1 cache.
LANE_COUNT = np.array([bin(m).count("1") for m in range(1 << LANE)], dtype=np.int8)
LANE_LOW = np.array([(m & -m).bit_length() - 1 for m in range(1 << LANE)], dtype=np.int8)  # -1 for 0
LANE_HIGH = np.array([m.bit_length() - 1 for m in range(1 << LANE)], dtype=np.int8)  # -1 for 0
LANE_POINTS = np.array([sum(int(ORDER_POINTS[o]) for o in range(LANE) if m >> o & 1) for m in range(1 << LANE)],
                       dtype=np.int8)  # at most 25

# Card-bit tables (index: a card's bit; past the deck, junk): its suit, order and points, looked up
# where a hot loop would divide by the lane's width.
SUIT_OF_BIT = np.array([b // LANE for b in range(64)], dtype=np.int8)
ORDER_OF_BIT = np.array([b % LANE for b in range(64)], dtype=np.int8)
POINTS_OF_BIT = np.array([ORDER_POINTS[b % LANE] for b in range(64)], dtype=np.int8)

# Decision kinds a policy is asked about, and their options.
K_BID, K_TRUMP, K_PLAY, K_DISCARD, K_CALL = range(5)
DECISION_NAMES = ("bid", "trump", "play", "discard", "call")
PASS = 0  # the bid option meaning "pass"
MAX_OPTIONS = 128

# The public view a policy receives (int64 array). Masks use the lane bits above. Per-seat and
# per-side arrays have MAX_SEATS entries; a side is a team, or a seat where everyone plays alone
# (T-V-5P, T-V-CUT). Side of seat s: view[V_SIDE + s].
V_SEAT = 0  # the seat the decision is for (in T-V-2P a dummy's seat when its owner plays for it)
V_DEALER = 1
V_DEAL = 2  # deal number in the game, from 1
V_BID = 3  # highest bid so far (the contract during play); 0 before any bid
V_BIDDER = 4  # seat holding the highest bid (the contractor during play); -1 before any bid
V_PASSED = 5  # mask of seats that have passed in this auction
V_TRUMP = 6  # trump suit, NO_TRUMP (4) for no trump; -1 during the auction
V_TRICK = 7  # trick number from 0 (0 during the auction)
V_LEADER = 8  # seat that led the current trick; -1 during the auction
V_N_IN = 9  # cards already played to the current trick
V_LEAD_SUIT = 10  # suit led to the current trick; -1 if none yet
V_WIN_SEAT = 11  # seat currently winning the trick; -1 if none yet
V_WIN_FACE = 12  # face currently winning the trick; -1 if none yet
V_TRICK_POINTS = 13  # card points in the current trick so far
V_PLAYED = 14  # mask of every card played this deal (current trick included)
V_ACTIVE = 15  # mask of the seats in play (T-V-6P: a team that left is out)
V_CALLED = 16  # T-V-5P: face of the called card; -1 before the call or without one
V_PARTNER = 17  # T-V-5P: the secret partner's seat once the called card is played; -1 before
V_OWN_SEEN = 18  # private to the decider: cards only it sees, not in ``hand`` and held by no opponent:
#                  its buried kitty (T-V-KITTY); in T-V-2P its dummy's face-up cards (own decisions)
#                  or its own hand (when playing for the dummy)
V_N_ACTIVE = 19  # number of seats in play
V_TRICK_FACES = 20  # faces of the current trick in the order played (-1 = not yet)
V_BIDS = V_TRICK_FACES + MAX_SEATS  # highest bid each seat made in this auction (0 = none)
V_TAKEN = V_BIDS + MAX_SEATS  # card points each side took in the completed tricks of this deal
V_SCORES = V_TAKEN + MAX_SEATS  # each side's cumulative score before this deal
V_VOIDS = V_SCORES + MAX_SEATS  # per seat: mask of suits (bit s) it did not follow this deal
V_UP = V_VOIDS + MAX_SEATS  # per seat: its face-up cards (T-V-2P dummies; 0 otherwise)
V_SIDE = V_UP + MAX_SEATS  # per seat: its side (team, or the seat itself in individual play)
V_BAD = V_SIDE + MAX_SEATS  # see G_BAD
VIEW_SIZE = V_BAD + 5

# Caps: every loop that could run long has one, and its hits are counted.
DEAL_CAP = 1000  # deals per game; at the cap the higher score wins (counted as capped)

# Per-game result columns (int64).
(G_WINNER, G_DEALS, G_THROWINS, G_FIRST_DEALER, G_MADE, G_FAILED, G_CAPPED, G_HOLE, G_INVALID, G_OUT_SIDE,
 G_OUT_DEAL, G_NT_DEALS) = range(12)
G_SCORES = 12  # one per side
# A user policy's bad option indices (simcards.policy.BAD_WIDTH slots: count, strategy id, kind,
# index, options): recorded in the view by the policy's dispatcher, copied to the game's row.
G_BAD = G_SCORES + MAX_SEATS  # (the count is G_INVALID too)
G_WIDTH = G_BAD + 5

# Per-deal result columns (int32).
(D_DEAL, D_DEALER, D_BIDDER, D_BID, D_TRUMP, D_MADE, D_KITTY_POINTS, D_CALLED, D_PARTNER, D_OUT) = range(10)
D_TAKEN = 10  # per side: card points taken in tricks
D_DSCORE = D_TAKEN + MAX_SEATS  # per side: deal score
D_SCORE = D_DSCORE + MAX_SEATS  # per side: cumulative score after the deal
D_WIDTH = D_SCORE + MAX_SEATS

# ----- the transcript: one row per event, the same from both engines ----------------------------------
# (differential tests compare these arrays move for move)
(EV_HAND, EV_BID, EV_TRUMP, EV_PLAY, EV_TRICK, EV_DEAL, EV_GAME, EV_KITTY, EV_DISCARD, EV_CALL, EV_REVEAL,
 EV_SCORE, EV_OUT) = range(13)
LOG_WIDTH = 5  # [event, deal, seat, a, b]
# EV_HAND    seat, a = hand mask (a dummy's nine cards), b = its face-up cards (T-V-2P)
# EV_BID     seat, a = bid (0 = pass)
# EV_KITTY   seat = bidder, a = the kitty as dealt (mask)
# EV_DISCARD seat = bidder, a = face buried in the new kitty
# EV_TRUMP   seat = bidder, a = trump suit (4 = no trump), b = bid
# EV_CALL    seat = bidder, a = called face, b = its holder, the secret partner (T-V-5P)
# EV_PLAY    seat, a = face, b = trick number
# EV_REVEAL  seat = dummy, a = face turned up, b = pile
# EV_TRICK   seat = winner, a = points in the trick, b = trick number
# EV_DEAL    seat = contract side (-1 thrown in), a = made (1/0, -1 thrown in), b = kitty points
# EV_SCORE   seat = side, a = its deal score, b = its total after the deal (one row per side)
# EV_OUT     seat = side that left (T-V-6P), a = its score
# EV_GAME    seat = winning side (-1 not over), a = 1 if won by the hole, b = 1 if stopped at the deal cap
