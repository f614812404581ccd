"""Jitted rule helpers: legal discard groups (Y-DIS) and available draws (Y-DRAW-2).

Both are written for speed; the reference engine enumerates the same things its own readable way
and the differential test demands the same sorted tables.
"""

from __future__ import annotations

import numpy as np

from simcards.games.yaniv.layout import MAX_HAND, MAX_OPTIONS
from simcards.games.yaniv.rules import (
    PICK_ANY,
    PICK_ANY_SET,
    PICK_TOP,
    R_JOKER_PAIR,
    R_PICKUP,
    R_SLAM,
    R_VALUES,
    R_WILD,
)
from simcards.nbutil import njit_by_type

TAKE_TOP, TAKE_ALL, TAKE_ENDS = 0, 1, 2
ROW = MAX_HAND + 1
SCRATCH = 3 * ROW


@njit_by_type(cache=True, _nrt=False, inline="always")
def hand_total(hand, n, rules):
    total = 0
    for i in range(n):
        total += rules[R_VALUES + hand[i]]
    return total


# Bit tricks over 13-bit rank lanes, as lookup tables (module arrays are constants in numba).
POPCOUNT13 = np.array([bin(m).count("1") for m in range(1 << 13)], dtype=np.int64)
LOWBIT13 = np.array([(m & -m).bit_length() - 1 if m else -1 for m in range(1 << 13)], dtype=np.int64)
HIGHBIT13 = np.array([m.bit_length() - 1 for m in range(1 << 13)], dtype=np.int64)


# Faces as ranks, and the bits where a 3-card run may start within a rank lane (rank <= 10).
RANK = np.array([f % 13 for f in range(52)] + [13, 13], dtype=np.int64)
RUN_STARTS = sum(((1 << 11) - 1) << (13 * suit) for suit in range(4))
ONE = np.int64(1)


@njit_by_type(cache=True, _nrt=False, inline="always")
def _row_key(buf, length):
    """Order key: length first, then the first nine laid cards (6 bits each)."""
    m = min(length, 9)
    key = np.int64(length)
    for i in range(m):
        key = (key << 6) | buf[i]
    return key << (6 * (9 - m))


@njit_by_type(cache=True, _nrt=False)
def _push(out, keys, first, count, buf, length, dedupe):
    """Insert the group in ``buf`` into rows ``out[first:first+count]``, kept sorted by key;
    with ``dedupe`` (hands holding two copies of a face) an identical group is skipped."""
    key = _row_key(buf, length)
    if dedupe:
        for i in range(first, first + count):
            if keys[i] == key and out[i, 0] == length:
                same = True
                for j in range(9, length):
                    if out[i, 1 + j] != buf[j]:
                        same = False
                        break
                if same:
                    return count
    if first + count >= MAX_OPTIONS:
        # The table is full (possible only with hands grown by Y-V-REQ): keep the MAX_OPTIONS
        # smallest in the table order, as the reference engine does, by dropping the last row.
        if key >= keys[MAX_OPTIONS - 1]:
            return count
        count -= 1
    pos = first + count
    while pos > first and keys[pos - 1] > key:
        src = pos - 1
        for j in range(out[src, 0] + 1):
            out[pos, j] = out[src, j]
        keys[pos] = keys[src]
        pos -= 1
    out[pos, 0] = length
    for j in range(length):
        out[pos, 1 + j] = buf[j]
    keys[pos] = key
    return count + 1


@njit_by_type(cache=True, _nrt=False)
def _add_sets(hand, pickup, out, keys, first, count, buf, members, m, sub_buf, dedupe):
    """All sets (2+ cards) drawn from ``members`` (hand indices of one rank, or the jokers)."""
    if m == 2 and pickup != PICK_TOP:  # the common case: one pair, one way to lay it
        buf[0] = hand[members[0]]
        buf[1] = hand[members[1]]
        return _push(out, keys, first, count, buf, 2, dedupe)
    for mask in range(3, 1 << m):
        k = POPCOUNT13[mask]
        if k < 2:
            continue
        t = 0
        for b in range(m):
            if mask >> b & 1:
                sub_buf[t] = hand[members[b]]  # hand is sorted, so sub_buf is ascending
                t += 1
        if pickup == PICK_TOP:
            for top in range(k):  # Kluft: the discarder chooses the top (last laid) card
                t = 0
                for b in range(k):
                    if b != top:
                        buf[t] = sub_buf[b]
                        t += 1
                buf[k - 1] = sub_buf[top]
                count = _push(out, keys, first, count, buf, k, dedupe)
        elif k >= 3 and pickup != PICK_ANY and pickup != PICK_ANY_SET:
            for e1 in range(k):  # Y-DIS-6: the discarder chooses the two end cards
                for e2 in range(e1 + 1, k):
                    buf[0] = sub_buf[e1]
                    t = 1
                    for b in range(k):
                        if b != e1 and b != e2:
                            buf[t] = sub_buf[b]
                            t += 1
                    buf[k - 1] = sub_buf[e2]
                    count = _push(out, keys, first, count, buf, k, dedupe)
        else:
            for b in range(k):
                buf[b] = sub_buf[b]
            count = _push(out, keys, first, count, buf, k, dedupe)
    return count


@njit_by_type(cache=True, _nrt=False)
def _add_run(hand, suit, sub, length, start, first_joker, pickup, table, first, count, buf, dedupe):
    """Lay ranks ``start..start+length-1`` of ``suit``: naturals where ``sub`` has the rank,
    the hand's jokers (in id order) elsewhere; pushed into ``table`` (``out``, ``keys``)."""
    out, keys = table
    j = first_joker
    for q in range(length):
        rank = start + q
        if sub >> rank & 1:
            buf[q] = suit * 13 + rank
        else:
            buf[q] = hand[j]
            j += 1
    count = _push(out, keys, first, count, buf, length, dedupe)
    if pickup == PICK_TOP:  # Kluft: laid high to low puts the low card on top
        for q in range(length // 2):
            tmp = buf[q]
            buf[q] = buf[length - 1 - q]
            buf[length - 1 - q] = tmp
        count = _push(out, keys, first, count, buf, length, dedupe)
    return count


@njit_by_type(cache=True, _nrt=False)
def legal_groups(hand, n, rules, out, keys, scratch):
    """Every legal discard group of the sorted hand ``hand[:n]`` (Y-DIS-1..6), as rows of ``out``
    sorted by (length, laid cards). Returns the number of rows. ``keys`` (MAX_OPTIONS) and
    ``scratch`` (``SCRATCH``) are work arrays, so nothing is allocated on the hot path."""
    singles = lay_singles(hand, n, out)
    return singles + multi_groups(hand, n, rules, out, keys, scratch, singles)


@njit_by_type(cache=True, _nrt=False, inline="always")
def lay_singles(hand, n, out):
    """The singles of the sorted ``hand[:n]`` as the first rows of ``out``, one a face in face order
    (singles come first in the table's order and the hand is sorted: written straight out).
    Returns how many."""
    singles = 0
    last = -1
    for i in range(n):
        c = hand[i]
        if c != last:
            out[singles, 0] = 1
            out[singles, 1] = c
            singles += 1
            last = c
    return singles


@njit_by_type(cache=True, _nrt=False)
def multi_groups(hand, n, rules, out, keys, scratch, first):
    """The legal groups of two or more cards of the sorted hand ``hand[:n]``, written sorted from
    row ``first`` on (after the ``first`` singles, as ``legal_groups`` lays the table out; the
    table keeps at most MAX_OPTIONS rows in all). Returns how many were written."""
    dedupe = False  # two copies of a face (two decks): groups may repeat
    rank_seen = 0
    rank_twice = 0
    lanes = 0  # bit suit*13+rank: the naturals present (= their face ids)
    n_jokers = 0
    last = -1
    for i in range(n):
        c = hand[i]
        if c == last:
            dedupe = True
        last = c
        if c >= 52:
            n_jokers += 1
        else:
            bit = ONE << RANK[c]
            rank_twice |= rank_seen & bit
            rank_seen |= bit
            lanes |= ONE << c
    wild_jokers = n_jokers if rules[R_WILD] != 0 else 0
    pair_jokers = n_jokers >= 2 and rules[R_JOKER_PAIR] != 0
    plain_runs = lanes & (lanes >> 1) & (lanes >> 2) & RUN_STARTS  # starts of 3 naturals in a row
    joker_runs = wild_jokers > 0 and lanes != 0 and n >= 3
    if rank_twice == 0 and plain_runs == 0 and not pair_jokers and not joker_runs:
        return 0  # most hands: singles only
    pickup = rules[R_PICKUP]
    buf = scratch[0:ROW]
    members = scratch[ROW:2 * ROW]
    sub_buf = scratch[2 * ROW:3 * ROW]
    count = 0
    # Sets of equal rank (Y-DIS-1); jokers never join them (Y-DIS-3 Decision).
    while rank_twice:
        rank = LOWBIT13[rank_twice & 0x1FFF]
        rank_twice &= rank_twice - 1
        m = 0
        for i in range(n):
            if hand[i] < 52 and RANK[hand[i]] == rank:
                members[m] = i
                m += 1
        count = _add_sets(hand, pickup, out, keys, first, count, buf, members, m, sub_buf, dedupe)
    # Two (or more) jokers form a set of their own (option joker_pair_set).
    if pair_jokers:
        for t in range(n_jokers):
            members[t] = n - n_jokers + t
        count = _add_sets(hand, pickup, out, keys, first, count, buf, members, n_jokers, sub_buf, dedupe)
    # Runs of 3+ in one suit, aces low (Y-DIS-2), jokers filling any position (Y-DIS-3).
    first_joker = n - n_jokers  # jokers sit at the end of the sorted hand
    if not joker_runs:
        while plain_runs:  # every stretch of 3+ consecutive naturals, from each start
            face = 0
            while not (plain_runs >> face & 1):
                face += 1
            plain_runs &= plain_runs - 1
            suit = face // 13
            lo = face - 13 * suit
            length = 3
            while True:
                count = _add_run(hand, suit, lanes >> (13 * suit), length, lo, first_joker, pickup,
                                 (out, keys), first, count, buf, dedupe)
                if lo + length > 12 or not (lanes >> (face + length) & 1):
                    break
                length += 1
        return count
    for suit in range(4):
        lane = lanes >> (13 * suit) & 0x1FFF
        if lane == 0 or POPCOUNT13[lane] + wild_jokers < 3:
            continue
        sub = lane
        while sub:
            lo = LOWBIT13[sub]
            hi = HIGHBIT13[sub]
            k = POPCOUNT13[sub]
            span = hi - lo + 1
            if span - k <= wild_jokers:
                for length in range(max(3, span), min(13, k + wild_jokers) + 1):
                    first_start = max(0, hi - length + 1)
                    last_start = min(lo, 13 - length)
                    if pickup == PICK_ANY and rules[R_SLAM] == 0:
                        last_start = first_start  # any card takeable: joker positions matter only to a slam
                    for start in range(first_start, last_start + 1):
                        count = _add_run(hand, suit, sub, length, start, first_joker, pickup,
                                         (out, keys), first, count, buf, dedupe)
            sub = (sub - 1) & lane
    return count


@njit_by_type(cache=True, _nrt=False, inline="always")
def is_set_group(group, length):
    """A laid group of 2+ cards is a set when it holds no natural of a second rank and does not
    mix jokers with naturals (jokers never join sets, so such a group is a run)."""
    if length < 2:
        return False
    rank = -1
    jokers = 0
    for i in range(length):
        c = group[i]
        if c >= 52:
            jokers += 1
        elif rank == -1:
            rank = c % 13
        elif c % 13 != rank:
            return False
    return jokers == 0 or jokers == length


@njit_by_type(cache=True, _nrt=False, inline="always")
def pickup_mode(group, length, pickup):
    """Which positions of the previous discard may be taken (Y-DRAW-2, Y-V-PICK, Y-V-NEP,
    Y-V-KLUFT): ``TAKE_TOP`` the last laid, ``TAKE_ALL`` any, ``TAKE_ENDS`` first and last."""
    if pickup == PICK_TOP:
        return TAKE_TOP
    if pickup == PICK_ANY or length <= 2 or (pickup == PICK_ANY_SET and is_set_group(group, length)):
        return TAKE_ALL
    return TAKE_ENDS


@njit_by_type(cache=True, _nrt=False, inline="always")
def _position_open(p, length, mode):
    if mode == TAKE_ALL:
        return True
    if mode == TAKE_TOP:
        return p == length - 1
    return p == 0 or p == length - 1


@njit_by_type(cache=True, _nrt=False, inline="always")
def available_faces(group, length, pickup, out):
    """Distinct faces that may be taken from the previous discard, ascending."""
    mode = pickup_mode(group, length, pickup)
    count = 0
    for p in range(length):
        if not _position_open(p, length, mode):
            continue
        face = group[p]
        dup = False
        for t in range(count):
            if out[t] == face:
                dup = True
                break
        if dup:
            continue
        j = count
        while j > 0 and out[j - 1] > face:
            out[j] = out[j - 1]
            j -= 1
        out[j] = face
        count += 1
    return count


@njit_by_type(cache=True, _nrt=False)
def take_from_group(group, length, pickup, face):
    """Remove ``face`` from the previous discard at its first available position; the remaining
    cards keep their laid order. Returns the new length (``length`` if the face was not there)."""
    mode = pickup_mode(group, length, pickup)
    for p in range(length):
        if group[p] == face and _position_open(p, length, mode):
            for q in range(p, length - 1):
                group[q] = group[q + 1]
            return length - 1
    return length


@njit_by_type(cache=True, _nrt=False, inline="always")
def slam_position(group, length, card):
    """Y-V-SLAM: where ``card`` joins the group just thrown (``group[:length]`` as laid):
    ``length`` (appended at the end), ``0`` (put before the first card) or ``-1`` (it cannot join).
    A joker is never slammed (Decision); a single or a set takes a natural of its rank, appended;
    a run (laid ascending: slam is refused with Kluft's top-card layouts) takes the next card of
    its suit at either end, never below the Ace or above the King."""
    if card >= 52:
        return -1
    first = -1
    for i in range(length):
        if group[i] < 52:
            first = i
            break
    if first < 0:
        return -1  # a joker, or a pair of jokers
    if length == 1 or is_set_group(group, length):
        return length if RANK[card] == RANK[group[first]] else -1
    if card // 13 != group[first] // 13:
        return -1
    start = RANK[group[first]] - first  # the rank of position 0
    r = RANK[card]
    if r == start - 1:
        return 0
    if r == start + length:
        return length
    return -1
