"""Melds, exact minimum deadwood and optimal lay-offs (G-MELD-1..4, G-LAY-0, G-LAY-1), as small
jitted helpers over bitmask hands.

A hand is one ``int64`` with bit ``suit * 13 + rank`` set for each card it holds (the face ids of
``simcards.cards``), so each suit is a 13-bit *lane*. Two facts make the exact minimum fast:

* Runs live inside one suit, and with runs alone a card of a suit can be melded exactly when it
  sits in a maximal block of 3+ consecutive ranks (the whole block is one run; aces are low only,
  G-MELD-3). So a lane's runs-only deadwood and its melded cards are two 8,192-entry tables.
* A rank can hold at most one set (G-MELD-2), and only ranks with 3+ cards can hold one. The
  solver branches on those ranks only (no set, the 4-set, each 3-of-4) and scores every lane with
  one table lookup.

The lane tables have one row per meld variant (``mv``, below) and are int16, so the row in use
(16 KB) stays in the L1 cache; the standard game is ~10% faster than with the old int64 table. The
table lookups are inlined by numba (``inline="always"``); ``removal_deadwoods`` and ``deadwood`` are
compiled once and called (issue 26: inlined by numba at every call site they made most of the
kernel's cold compile, and the game measured no slower called).

**Tie-break (G-LAY-0 Decision).** When several arrangements reach the minimum, the one laid out
is the first in this order: ranks with 3+ cards from ace to king, each trying *no set*, then the
4-set, then the 3-sets leaving out the spade, the heart, the diamond, the club; the rest of every
suit is laid as maximal runs. (So runs are preferred to sets on ties.) That is the default; a
knocker's strategy may lay out any other minimum arrangement (``min_arrangements``, in the same
order: the decision ``layout.K_ARRANGE``).

**Lay-offs (G-LAY-1 Decision).** The defender may lay off chains of cards extending each of the
knocker's runs downwards and upwards, and the fourth card of each knocker 3-set. Every
combination of chain lengths is tried and the remainder is solved exactly; the defender keeps the
combination with the lowest final deadwood, then the most cards laid off, then the lowest mask.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import overload

from simcards.games.gin.jit import internal
from simcards.games.gin.layout import MELD_VARIANTS, N_MV, VALUE_SCHEMES

LANE = 0x1FFF
N_LANE = 1 << 13

# Option order for the suits of a rank with 3+ cards: suit masks removed as a set.
# For 4 cards: none, all four, then the 3-sets without spades/hearts/diamonds/clubs.
_FOUR_OPTIONS = (0, 15, 14, 13, 11, 7)

# ----- meld variants: rows of the lane tables (declared in layout.py, which rules.py reads) -------
# Every solver below takes ``mv``; 0 is the standard game.


def card_value(card: int, mv: int = 0) -> int:
    """G-CARD-1 (ace 1, 2..10 face value, J/Q/K 10), or the values of meld variant ``mv``."""
    return VALUE_SCHEMES[MELD_VARIANTS[mv][1]][card % 13]


def _rot(x: np.ndarray, k: int) -> np.ndarray:
    """13-bit rotation towards lower ranks by ``k`` (rank r+k moves to r; k may be negative)."""
    k %= 13
    return ((x >> k) | (x << (13 - k))) & LANE


def _lane_tables(corner: bool, values) -> tuple[np.ndarray, np.ndarray]:
    """Runs-only deadwood and melded cards of every 13-bit lane. A card is melded exactly when it
    sits in a maximal block of 3+ consecutive ranks (cyclically when runs turn the corner)."""
    x = np.arange(N_LANE, dtype=np.int64)
    if corner:
        starts = x & _rot(x, 1) & _rot(x, 2)  # bit r: ranks r, r+1, r+2 (mod 13) all present
        melded = starts | _rot(starts, -1) | _rot(starts, -2)
    else:
        starts = x & (x >> 1) & (x >> 2)
        melded = (starts | starts << 1 | starts << 2) & LANE
    dw = np.zeros(N_LANE, dtype=np.int64)
    for r in range(13):
        dw += ((x & ~melded) >> r & 1) * values[r]
    return dw.astype(np.int16), melded.astype(np.int16)


LANE_DW = np.zeros((N_MV, N_LANE), dtype=np.int16)
LANE_MELDED = np.zeros((N_MV, N_LANE), dtype=np.int16)
VALUES_MV = np.zeros((N_MV, 52), dtype=np.int64)  # VALUES_MV[mv, card]
CORNER = np.zeros(N_MV, dtype=np.int64)
for _mv, (_corner, _scheme) in enumerate(MELD_VARIANTS):
    LANE_DW[_mv], LANE_MELDED[_mv] = _lane_tables(_corner, VALUE_SCHEMES[_scheme])
    VALUES_MV[_mv] = [VALUE_SCHEMES[_scheme][c % 13] for c in range(52)]
    CORNER[_mv] = _corner
VALUES = VALUES_MV[0].copy()  # G-CARD-1, the standard values

# SET_OPTS[suit_mask, k]: the k-th suit mask a rank holding ``suit_mask`` may give to a set.
SET_OPTS = np.zeros((16, 6), dtype=np.int64)
SET_NOPTS = np.ones(16, dtype=np.int64)
for _sm in range(16):
    _n = bin(_sm).count("1")
    if _n == 4:
        SET_OPTS[_sm, :6] = _FOUR_OPTIONS
        SET_NOPTS[_sm] = 6
    elif _n == 3:
        SET_OPTS[_sm, 1] = _sm
        SET_NOPTS[_sm] = 2
# SUIT_BITS[rank, suit_mask]: the hand bits of those suits at that rank.
SUIT_BITS = np.zeros((13, 16), dtype=np.int64)
for _r in range(13):
    for _sm in range(16):
        SUIT_BITS[_r, _sm] = sum(1 << (s * 13 + _r) for s in range(4) if _sm >> s & 1)
# LOW_BIT_INDEX for 13-bit values (index of the lowest set bit).
LOW_RANK = np.array([((x & -x).bit_length() - 1) if x else -1 for x in range(N_LANE)], dtype=np.int64)


@internal
def mask_of(cards, n):
    m = np.int64(0)
    for i in range(n):
        m |= np.int64(1) << cards[i]
    return m


@internal
def popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 & -1) >> 56 & 0xFF


@internal
def low_card(m):
    """(the lowest card of the mask ``m``, ``m`` without it): ``c, m = low_card(m)`` in a
    ``while m != 0`` loop visits a hand's cards in id order."""
    low = m & -m
    return popcount(low - 1), m ^ low


@njit(cache=True, inline="always")
def lane_dw(mv, lane):
    return np.int64(LANE_DW[mv, lane])


@njit(cache=True, inline="always")
def lanes_deadwood(mask, mv=0):
    """Deadwood of ``mask`` with runs only: four table lookups."""
    return (lane_dw(mv, mask & LANE) + lane_dw(mv, (mask >> 13) & LANE) + lane_dw(mv, (mask >> 26) & LANE)
            + lane_dw(mv, (mask >> 39) & LANE))


@internal
def lanes_melded(mask, mv=0):
    """Cards of ``mask`` that maximal runs meld (sets ignored)."""
    m = np.int64(0)
    for s in range(4):
        m |= np.int64(LANE_MELDED[mv, (mask >> (13 * s)) & LANE]) << (13 * s)
    return m


@internal
def triple_ranks(mask):
    """13-bit mask of the ranks holding 3 or 4 cards."""
    a = mask & LANE
    b = (mask >> 13) & LANE
    c = (mask >> 26) & LANE
    d = (mask >> 39) & LANE
    return (a & b & c) | (a & b & d) | (a & c & d) | (b & c & d)


@internal
def suits_at(mask, r):
    return (((mask >> r) & 1) | ((mask >> (13 + r)) & 1) << 1 | ((mask >> (26 + r)) & 1) << 2
            | ((mask >> (39 + r)) & 1) << 3)


@internal(inline="always")
def set_ranks(mask, m3):
    """The first four ranks of ``m3`` (ranks with 3+ cards of ``mask``), each with its suits:
    (r0, s0, ..., r3, s3); a missing rank is rank 0 with no suits (the one choice "no set")."""
    r0 = r1 = r2 = r3 = 0
    s0 = s1 = s2 = s3 = 0
    k = 0
    while m3 != 0 and k < 4:
        r = LOW_RANK[m3]
        m3 &= m3 - 1
        sm = suits_at(mask, r)
        if k == 0:
            r0, s0 = r, sm
        elif k == 1:
            r1, s1 = r, sm
        elif k == 2:
            r2, s2 = r, sm
        else:
            r3, s3 = r, sm
        k += 1
    return r0, s0, r1, s1, r2, s2, r3, s3


@internal
def set_scan(mask, m3, best, out, most, mv):
    """The set choices of ``mask`` (``m3``: its ranks with 3+ cards) in the documented tie-break
    order, each scored with the rest in maximal runs. ``out`` None: the first choice of the lowest
    deadwood below ``best``, as (deadwood, its set bits, 0) (numba compiles this case apart, with
    the other branch pruned). Otherwise the choices of deadwood ``best`` into ``out[i, 0]``, at
    most ``most`` rows, as (best, 0, count)."""
    r0, s0, r1, s1, r2, s2, r3, s3 = set_ranks(mask, m3)
    best_sets = np.int64(0)
    n = 0
    for i0 in range(SET_NOPTS[s0]):
        m0 = SUIT_BITS[r0, SET_OPTS[s0, i0]]
        for i1 in range(SET_NOPTS[s1]):
            m1 = m0 | SUIT_BITS[r1, SET_OPTS[s1, i1]]
            for i2 in range(SET_NOPTS[s2]):
                m2 = m1 | SUIT_BITS[r2, SET_OPTS[s2, i2]]
                for i3 in range(SET_NOPTS[s3]):
                    sets = m2 | SUIT_BITS[r3, SET_OPTS[s3, i3]]
                    dw = lanes_deadwood(mask & ~sets, mv)
                    if out is None:
                        if dw < best:
                            best = dw
                            best_sets = sets
                    elif n < most and dw == best:
                        out[n, 0] = sets
                        n += 1
    return best, best_sets, n


@internal
def best_arrangement(mask, mv=0):
    """(minimum deadwood, bits of the cards laid in sets) of the first minimum arrangement in the
    documented tie-break order. Handles up to four ranks with 3+ cards (any hand of <= 15 cards)."""
    m3 = triple_ranks(mask)
    if m3 == 0:
        return lanes_deadwood(mask, mv), np.int64(0)
    best, best_sets, _ = set_scan(mask, m3, np.int64(1) << 40, None, 0, mv)
    return best, best_sets


@internal
def min_arrangements(mask, best, out, most, mv=0):
    """G-LAY-0: every arrangement of ``mask`` with the minimum deadwood ``best``, in the documented
    tie-break order (the first is ``best_arrangement``'s): ``out[i, 0]`` = the bits laid in sets
    (the rest of the melded cards are the maximal runs). At most ``most`` rows; returns the count."""
    return set_scan(mask, triple_ranks(mask), best, out, most, mv)[2]


@internal
def layoff_exposure(k_mask, sets, mv=0):
    """The cards that would lay off directly on the knocker's arrangement (``sets``, the rest in
    maximal runs) and are not the knocker's: the card beyond each end of each run (round the
    corner when runs may turn it, G-V-TED) and the missing card of each 3-set."""
    runs = lanes_melded(k_mask & ~sets, mv)
    out = np.int64(0)
    for s in range(4):
        lane = (runs >> (13 * s)) & LANE
        if CORNER[mv] != 0:
            nb = ((lane << 1) | (lane >> 12) | (lane >> 1) | (lane << 12)) & LANE
        else:
            nb = ((lane << 1) | (lane >> 1)) & LANE
        out |= (nb & ~lane) << (13 * s)
    m = triple_ranks(sets)
    while m != 0:
        r = LOW_RANK[m]
        m &= m - 1
        sm = suits_at(sets, r)
        if sm != 15:
            out |= SUIT_BITS[r, 15 ^ sm]
    return out & ~k_mask


# ----- ``simple``'s discard on a mask, by lane keys (the kernel's simple-against-simple hands and
# the search's rollouts; the same card as ``removal_deadwoods`` and ``simple_discard``)
def _lane_keys(lane_dw_row: np.ndarray) -> np.ndarray:
    """For every 13-bit lane: ``simple``'s best card to throw from it as a key, the lowest first:
    16 x (the lane's runs-only deadwood after throwing it minus before) + 12 - its rank (a higher
    rank first among equal deadwoods); ``NO_KEY`` for an empty lane."""
    x = np.arange(N_LANE, dtype=np.int64)
    best = np.full(N_LANE, NO_KEY, dtype=np.int64)
    for r in range(13):
        key = (lane_dw_row[x ^ (1 << r)] - lane_dw_row) * 16 + 12 - r
        best = np.where((x >> r) & 1 == 1, np.minimum(best, key), best)
    return best.astype(np.int16)


FULL = (np.int64(1) << 52) - 1  # every card (``simple_choice``: every card may be thrown)
NO_KEY = 16000  # no card (an empty lane; above every key: a key is at most 16 x 60 + 12)
NO_CARD = 4 * NO_KEY  # lanes_key: at or above it, no card is allowed
# LANE_KEY[mv, lane]: ``_lane_keys`` of each meld variant's lane table
LANE_KEY = np.stack([_lane_keys(LANE_DW[mv].astype(np.int64)) for mv in range(LANE_DW.shape[0])])


def ctz(x):
    """The index of the lowest set bit of ``x`` (> 0): one instruction in jitted code (``_ctz_jit``),
    this in plain Python (``NUMBA_DISABLE_JIT``)."""
    return np.int64((int(x) & -int(x)).bit_length() - 1)


@overload(ctz, inline="always")
def _ctz_jit(x):
    return lambda x: np.int64(trailing_zeros(x))


@njit(cache=True, inline="always")
def lanes_key(m, allowed, mv):
    """(runs-only deadwood of ``m``, ``simple``'s discard among ``m & allowed`` as a key, the lowest
    best): 64 x the deadwood after + 4 x (12 - rank) + suit (the lowest deadwood after, then the
    higher rank, then the lower id); ``NO_CARD`` or more when no card is allowed (each lane's keys
    are ``_lane_keys``' change of the lane's deadwood, the hand's deadwood added at the end). A lane
    whose best card is allowed is one table lookup (``LANE_KEY``; an empty lane's key is above every
    card's), the others a loop over their allowed cards."""
    full = np.int64(0)
    best = np.int64(NO_CARD + 4)
    for s in range(4):
        lane = (m >> (13 * s)) & LANE
        here = lane_dw(mv, lane)
        full += here
        ok = (allowed >> (13 * s)) & lane
        k = np.int64(LANE_KEY[mv, lane])
        if ok == lane or (ok >> (12 - (k & 15))) & 1:  # the lane's best card is allowed
            best = min(best, k * 4 + s)
        else:
            while ok != 0:
                low = ok & -ok
                ok ^= low
                best = min(best, ((lane_dw(mv, lane ^ low) - here) * 16 + 12 - ctz(low)) * 4 + s)
    return full, best + 64 * full if best < NO_CARD else np.int64(NO_CARD)


@njit(cache=True, inline="always")
def rank_suits(m, m3):
    """The lowest rank of ``m3`` (0 if none) and the suits ``m`` holds of it (0 if none), and ``m3``
    without it."""
    if m3 == 0:
        return 0, 0, m3
    r = ctz(m3)
    return r, ((m >> r) & 1) | ((m >> (12 + r)) & 2) | ((m >> (24 + r)) & 4) | ((m >> (36 + r)) & 8), m3 & (m3 - 1)


@internal
def simple_choice(m11, allowed, mv):
    """(deadwood of ``m11``, ``simple``'s discard among ``m11 & allowed``, the deadwood after; the
    same choice as ``melds.removal_deadwoods`` and ``simple_discard``: the lowest deadwood after,
    then the higher rank, then the lower id; -1 and 2**40 when no card is allowed). A card's removal
    deadwood is the lowest, over the set choices of ``m11`` that do not use it, of the rest's
    runs-only deadwood without it: so the choice is the lowest ``lanes_key`` over the set choices
    (the ranks with 3+ cards, at most four: no set, the 4-set, each 3-set)."""
    m3 = triple_ranks(m11)
    if m3 == 0:
        full, key = lanes_key(m11, allowed, mv)
    else:
        r0, s0, m3 = rank_suits(m11, m3)
        r1, s1, m3 = rank_suits(m11, m3)
        r2, s2, m3 = rank_suits(m11, m3)
        r3, s3, m3 = rank_suits(m11, m3)
        full = np.int64(1) << 40
        key = np.int64(NO_CARD)
        i0 = i1 = i2 = i3 = 0
        while i3 < SET_NOPTS[s3]:  # every set choice: i0 fastest
            sets = (SUIT_BITS[r0, SET_OPTS[s0, i0]] | SUIT_BITS[r1, SET_OPTS[s1, i1]] | SUIT_BITS[r2, SET_OPTS[s2, i2]]
                    | SUIT_BITS[r3, SET_OPTS[s3, i3]])
            dw, k = lanes_key(m11 & ~sets, allowed, mv)
            full = min(full, dw)
            key = min(key, k)
            i0 += 1
            if i0 == SET_NOPTS[s0]:
                i0 = 0
                i1 += 1
                if i1 == SET_NOPTS[s1]:
                    i1 = 0
                    i2 += 1
                    if i2 == SET_NOPTS[s2]:
                        i2 = 0
                        i3 += 1
    if key >= NO_CARD:
        return full, -1, np.int64(1) << 40
    return full, 13 * (key & 3) + 12 - ((key >> 2) & 15), key >> 6


COMBO_MAX = 96  # set choices: at most 6 * 6 * 2 for an 11-card hand (6**3 * 2 would need 14 cards)
SCRATCH_SIZE = 64 + COMBO_MAX * 5


@internal
def removal_deadwoods(mask, scratch, mv=0):
    """``deadwood(mask)``, and ``scratch[c] = deadwood(mask minus card c)`` for every card c of
    ``mask`` — in one pass (``scratch`` holds >= SCRATCH_SIZE int64).

    Removing a card creates no new set choice: a set choice of ``mask - c`` is a choice of
    ``mask`` that does not use ``c``. So each removal is the best, over the set choices of
    ``mask`` avoiding ``c``, of that choice's lane total with one lane looked up again. Without a
    rank of 3+ cards (most hands) there is one choice, no set: each removal is one lookup."""
    if popcount(mask) > 11:  # G-V-DEAL11's 12 cards before the discard: the pass below holds to 11
        y = mask
        while y != 0:
            low = y & -y
            y ^= low
            scratch[popcount(low - 1)] = deadwood(mask ^ low, mv)
        return deadwood(mask, mv)
    m3 = triple_ranks(mask)
    if m3 == 0:
        full = lanes_deadwood(mask, mv)
        for s in range(4):
            lane = (mask >> (13 * s)) & LANE
            rest = full - lane_dw(mv, lane)
            y = lane
            while y != 0:
                low = y & -y
                y ^= low
                scratch[13 * s + popcount(low - 1)] = rest + lane_dw(mv, lane ^ low)
        return full
    base = 64
    k = 0
    r0, s0, r1, s1, r2, s2, _, _ = set_ranks(mask, m3)  # an 11-card hand has at most three
    for i0 in range(SET_NOPTS[s0]):
        m0 = SUIT_BITS[r0, SET_OPTS[s0, i0]]
        for i1 in range(SET_NOPTS[s1]):
            m1 = m0 | SUIT_BITS[r1, SET_OPTS[s1, i1]]
            for i2 in range(SET_NOPTS[s2]):
                if k < COMBO_MAX:
                    scratch[base + 5 * k] = m1 | SUIT_BITS[r2, SET_OPTS[s2, i2]]
                    k += 1
    full = np.int64(1) << 40
    for j in range(k):
        rest = mask & ~scratch[base + 5 * j]
        tot = 0
        for s in range(4):
            d = lane_dw(mv, (rest >> (13 * s)) & LANE)
            scratch[base + 5 * j + 1 + s] = d
            tot += d
        if tot < full:
            full = tot
    m = mask
    while m != 0:
        low = m & -m
        m ^= low
        c = popcount(low - 1)
        s = c // 13
        best = np.int64(1) << 40
        for j in range(k):
            sets = scratch[base + 5 * j]
            if sets & low:
                continue
            row = base + 5 * j
            lane = ((mask & ~sets & ~low) >> (13 * s)) & LANE
            tot = (scratch[row + 1] + scratch[row + 2] + scratch[row + 3] + scratch[row + 4]
                   - scratch[row + 1 + s] + lane_dw(mv, lane))
            if tot < best:
                best = tot
        scratch[c] = best
    return full


@internal
def simple_discard(m11, taken, scratch, mv):
    """The ``simple`` discard from the 11 cards ``m11`` whose removal deadwoods are in
    ``scratch``: the lowest deadwood after, then the higher rank, then the lower id; never the
    card just taken (G-TURN-2). Returns (card, deadwood after)."""
    best = -1
    best_dw = np.int64(1) << 40
    m = m11
    while m != 0:
        c, m = low_card(m)
        if c == taken:
            continue
        d = scratch[c]
        if d < best_dw or (d == best_dw and c % 13 > best % 13):
            best = c
            best_dw = d
    return best, best_dw


@internal
def deadwood(mask, mv=0):
    """G-MELD-4: the minimum deadwood count of the hand ``mask``."""
    m3 = triple_ranks(mask)
    if m3 == 0:
        return lanes_deadwood(mask, mv)
    return best_arrangement(mask, mv)[0]


@internal
def melded_cards(mask, sets, mv=0):
    """All melded cards of the arrangement whose sets are ``sets``."""
    return sets | lanes_melded(mask & ~sets, mv)


@internal
def value_of_mask(mask, mv=0):
    total = 0
    m = mask
    while m != 0:
        c, m = low_card(m)
        total += VALUES_MV[mv, c]
    return total


@internal
def layoff_targets(k_mask, k_sets, def_mask, ends, mv=0):
    """Fill ``ends[e, 0..13]`` with the cumulative masks of each lay-off chain (``ends[e, 0]`` is
    the chain length L, ``ends[e, 1 + j]`` the bits of its first j+1 cards). Returns the number
    of chains. A chain extends a knocker run down or up through cards the defender holds (round
    the corner when the meld variant allows it, G-V-TED); a knocker 3-set gives a one-card chain
    (its missing suit)."""
    n = 0
    corner = CORNER[mv] != 0
    runs = lanes_melded(k_mask & ~k_sets, mv)
    for s in range(4):
        lane = (runs >> (13 * s)) & LANE
        if lane == 0:
            continue
        dl = (def_mask >> (13 * s)) & LANE
        # Scan the 13 ranks from just after a gap, so that no block (a run) straddles the scan's
        # ends; without corner runs the scan simply starts at the ace.
        base = 0
        if corner:
            base = (LOW_RANK[LANE & ~lane] + 1) % 13
        i = 0
        while i < 13:
            if not (lane >> ((base + i) % 13)) & 1:
                i += 1
                continue
            first = i
            while i < 13 and (lane >> ((base + i) % 13)) & 1:
                i += 1
            room = 13 - (i - first)  # ranks outside this run
            for step in (-1, 1):
                q = (base + first - 1) if step < 0 else (base + i)
                length = 0
                cum = np.int64(0)
                while length < room:
                    if corner:
                        q %= 13
                    elif q < 0 or q > 12:
                        break
                    if not (dl >> q) & 1:
                        break
                    cum |= np.int64(1) << (13 * s + q)
                    ends[n, 1 + length] = cum
                    length += 1
                    q += step
                if length > 0:
                    ends[n, 0] = length
                    n += 1
    m = triple_ranks(k_sets)  # ranks holding a knocker set (3 or 4 cards)
    while m != 0:
        r = LOW_RANK[m]
        m &= m - 1
        sm = suits_at(k_sets, r)
        if sm != 15:
            missing = 15 ^ sm
            bit = SUIT_BITS[r, missing]
            if def_mask & bit:
                ends[n, 0] = 1
                ends[n, 1] = bit
                n += 1
    return n


@internal
def best_layoff(def_mask, k_mask, k_sets, ends, idx, mv=0):
    """G-LAY-1: the defender's lowest deadwood after laying off onto the knocker's melds.
    Returns (deadwood, bits laid off). ``ends`` (>= 16 x 14) and ``idx`` (>= 16) are scratch."""
    n = layoff_targets(k_mask, k_sets, def_mask, ends, mv)
    best = deadwood(def_mask, mv)
    best_laid = np.int64(0)
    if n == 0:
        return best, best_laid
    best_cnt = 0
    for e in range(n):
        idx[e] = 0
    while True:
        # advance the mixed-radix counter (end 0 fastest); the all-zero start is already scored
        e = 0
        while e < n:
            idx[e] += 1
            if idx[e] <= ends[e, 0]:
                break
            idx[e] = 0
            e += 1
        if e == n:
            break
        laid = np.int64(0)
        for j in range(n):
            if idx[j] > 0:
                laid |= ends[j, idx[j]]
        dw = deadwood(def_mask & ~laid, mv)
        cnt = popcount(laid)
        if dw < best or (dw == best and (cnt > best_cnt or (cnt == best_cnt and laid < best_laid))):
            best = dw
            best_laid = laid
            best_cnt = cnt
    return best, best_laid


# ----- the public API (plain Python over the kernels) ---------------------------------------------
def _hand_mask(cards, sizes=(10, 11)) -> tuple[int, list[int]]:
    from simcards.cards import parse_cards
    from simcards.errors import SimcardsError

    ids = parse_cards(cards)
    if any(c >= 52 for c in ids):
        raise SimcardsError("gin is played without jokers; remove the joker(s) from the hand")
    if len(set(ids)) != len(ids):
        dup = sorted({c for c in ids if ids.count(c) > 1})
        from simcards.cards import format_cards

        raise SimcardsError(f"duplicate card(s) {format_cards(dup)}: a gin hand comes from one 52-card deck")
    if len(ids) not in sizes:
        raise SimcardsError(f"a gin hand has 10 or 11 cards (10 after a discard, 11 after a draw); got {len(ids)}")
    mask = 0
    for c in ids:
        mask |= 1 << c
    return mask, ids


def _variant_of(rules) -> int:
    """The meld variant of ``rules``: None (standard), a preset name ("tedesco") or a GinRules."""
    if rules is None:
        return 0
    if isinstance(rules, str):
        from simcards.games.gin.rules import preset

        rules = preset(rules)
    return rules.meld_variant


def min_deadwood(cards, rules=None) -> int:
    """The minimum deadwood count of a 10- or 11-card hand (G-MELD-4).

    ``cards`` is a string such as ``"As 2s 3s 7h 7d 7c Kd Qd Jd 9c"`` or a list of codes or face
    ids; ``rules`` a preset name or ``GinRules`` whose melds and values to use (``"tedesco"``:
    round-the-corner runs, an unmelded ace 15). Raises ``SimcardsError`` for duplicates, jokers,
    unknown codes or another hand size."""
    mask, _ = _hand_mask(cards)
    return int(deadwood(np.int64(mask), _variant_of(rules)))


class Arrangement:
    """A best meld arrangement: ``melds`` (lists of card codes; sets, then runs by suit),
    ``deadwood_cards`` (codes) and ``deadwood`` (their count)."""

    def __init__(self, melds: list[list[str]], deadwood_cards: list[str], deadwood: int):
        self.melds = melds
        self.deadwood_cards = deadwood_cards
        self.deadwood = deadwood

    def __repr__(self) -> str:
        shown = " | ".join(" ".join(m) for m in self.melds) or "no melds"
        return f"Arrangement({shown}; deadwood {' '.join(self.deadwood_cards) or '-'} = {self.deadwood})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Arrangement) and (self.melds, self.deadwood_cards, self.deadwood) == (
            other.melds, other.deadwood_cards, other.deadwood)


def melds_of(mask: int, sets: int, mv: int = 0) -> list[list[int]]:
    """The melds (face ids) of the arrangement of ``mask`` whose set cards are ``sets``; a run that
    turns the corner (G-V-TED) is listed from its lowest card up to the king, then on from the ace."""
    out: list[list[int]] = []
    for r in range(13):
        cards = [s * 13 + r for s in range(4) if sets >> (s * 13 + r) & 1]
        if cards:
            out.append(cards)
    runs = int(lanes_melded(np.int64(mask & ~sets), mv))
    for s in range(4):
        lane = runs >> (13 * s) & LANE
        if lane == LANE:
            out.append([s * 13 + q for q in range(13)])
            continue
        start = (int(LOW_RANK[LANE & ~lane]) + 1) % 13 if CORNER[mv] else 0  # just after a gap
        i = 0
        while i < 13:
            if lane >> ((start + i) % 13) & 1:
                first = i
                while i < 13 and lane >> ((start + i) % 13) & 1:
                    i += 1
                out.append([s * 13 + (start + q) % 13 for q in range(first, i)])
            else:
                i += 1
    return out


def best_melds(cards, rules=None) -> Arrangement:
    """A minimum-deadwood arrangement of a 10- or 11-card hand (G-MELD-1..4, G-LAY-0 tie-break;
    ``rules`` as for ``min_deadwood``)."""
    from simcards.cards import card_code

    mv = _variant_of(rules)
    mask, _ = _hand_mask(cards)
    dw, sets = best_arrangement(np.int64(mask), mv)
    melds = melds_of(mask, int(sets), mv)
    melded = 0
    for m in melds:
        for c in m:
            melded |= 1 << c
    dead = [c for c in range(52) if mask >> c & 1 and not melded >> c & 1]
    dead.sort(key=lambda c: (c % 13, c // 13))
    return Arrangement([[card_code(c) for c in m] for m in melds], [card_code(c) for c in dead], int(dw))
