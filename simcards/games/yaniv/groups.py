"""Jitted rule helpers: legal discard groups (Y-DIS) and available draws (Y-DRAW-2).

Both are written for speed; the reference engine enumerates the same things its own readable way
and the differential test demands the same sorted tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simcards.games.yaniv.layout import MAX_HAND, MAX_OPTIONS

TAKE_TOP, TAKE_ALL, TAKE_ENDS = 0, 1, 2
ROW = MAX_HAND + 1
SCRATCH = 3 * ROW + MAX_OPTIONS
from simcards.games.yaniv.rules import (
    PICK_ANY,
    PICK_ANY_SET,
    PICK_TOP,
    R_JOKER_PAIR,
    R_PICKUP,
    R_VALUES,
    R_WILD,
)


@njit(cache=True)
def hand_total(hand, n, rules):
    total = 0
    for i in range(n):
        total += rules[R_VALUES + hand[i]]
    return total


@njit(cache=True)
def _row_key(buf, length):
    """Order key: length first, then the first nine laid cards (6 bits each)."""
    key = np.int64(length)
    for i in range(9):
        key = key * 64 + (buf[i] if i < length else 0)
    return key


@njit(cache=True)
def _push(raw, keys, count, buf, length):
    """Append the group in ``buf`` unless an identical one is already there."""
    key = _row_key(buf, length)
    for i in range(count):
        if keys[i] == key:
            same = True
            for j in range(9, length):
                if raw[i, 1 + j] != buf[j]:
                    same = False
                    break
            if same:
                return count
    if count >= MAX_OPTIONS:
        return count
    raw[count, 0] = length
    for j in range(length):
        raw[count, 1 + j] = buf[j]
    keys[count] = key
    return count + 1


@njit(cache=True)
def _sorted_copy(raw, keys, count, out, order):
    """Insertion-sort the rows by key into ``out``."""
    for i in range(count):
        j = i
        while j > 0 and keys[order[j - 1]] > keys[i]:
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    for i in range(count):
        src = order[i]
        length = raw[src, 0]
        for j in range(length + 1):
            out[i, j] = raw[src, j]
    return count


@njit(cache=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True)
def _add_sets(hand, n, pickup, raw, keys, count, buf, members, m, sub_buf):
    """All sets (2+ cards) drawn from ``members`` (hand indices of one rank, or the jokers)."""
    for mask in range(1, 1 << m):
        k = _popcount(mask)
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
                count = _push(raw, keys, count, buf, k)
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
                    count = _push(raw, keys, count, buf, k)
        else:
            for b in range(k):
                buf[b] = sub_buf[b]
            count = _push(raw, keys, count, buf, k)
    return count


@njit(cache=True)
def legal_groups(hand, n, rules, raw, keys, out, scratch):
    """Every legal discard group of the sorted hand ``hand[:n]`` (Y-DIS-1..6), as rows of ``out``
    sorted by (length, laid cards). Returns the number of rows. ``scratch`` is an int64 work
    array of at least ``SCRATCH`` entries (no allocation on the hot path)."""
    pickup = rules[R_PICKUP]
    wild = rules[R_WILD] != 0
    buf = scratch[0:ROW]
    members = scratch[ROW:2 * ROW]
    sub_buf = scratch[2 * ROW:3 * ROW]
    order = scratch[3 * ROW:3 * ROW + MAX_OPTIONS]
    # Singles come first in the order and the hand is sorted: write them straight out.
    singles = 0
    for i in range(n):
        if i == 0 or hand[i] != hand[i - 1]:
            out[singles, 0] = 1
            out[singles, 1] = hand[i]
            singles += 1
    # One pass for what multi-card groups need; most hands have none and stop here.
    rank_seen = 0
    rank_twice = 0
    suit_counts = 0  # 4 bits per suit
    n_jokers = 0
    for i in range(n):
        c = hand[i]
        if c >= 52:
            n_jokers += 1
        else:
            bit = 1 << (c % 13)
            rank_twice |= rank_seen & bit
            rank_seen |= bit
            suit_counts += 1 << (4 * (c // 13))
    usable_jokers = n_jokers if wild else 0
    run_possible = False
    for suit in range(4):
        if (suit_counts >> (4 * suit) & 15) + usable_jokers >= 3 and suit_counts >> (4 * suit) & 15:
            run_possible = True
    pair_jokers = rules[R_JOKER_PAIR] != 0 and n_jokers >= 2
    if rank_twice == 0 and not run_possible and not pair_jokers:
        return singles
    count = 0
    # Sets of equal rank (Y-DIS-1); jokers never join them (Y-DIS-3 Decision).
    for rank in range(13):
        if not (rank_twice >> rank & 1):
            continue
        m = 0
        for i in range(n):
            if hand[i] < 52 and hand[i] % 13 == rank:
                members[m] = i
                m += 1
        count = _add_sets(hand, n, pickup, raw, keys, count, buf, members, m, sub_buf)
    # Two (or more) jokers form a set of their own (option joker_pair_set).
    if pair_jokers:
        m = 0
        for i in range(n):
            if hand[i] >= 52:
                members[m] = i
                m += 1
        count = _add_sets(hand, n, pickup, raw, keys, count, buf, members, m, sub_buf)
    # Runs of 3+ in one suit, aces low (Y-DIS-2), jokers filling any position (Y-DIS-3).
    first_joker = n - n_jokers  # jokers sit at the end of the sorted hand
    for suit in range(4):
        if not run_possible:
            break
        present = 0
        for i in range(n):
            c = hand[i]
            if c < 52 and c // 13 == suit:
                present |= 1 << (c % 13)
        if _popcount(present) + usable_jokers < 3 or present == 0:
            continue
        sub = present
        while sub:
            lo = 0
            while not (sub >> lo & 1):
                lo += 1
            hi = 12
            while not (sub >> hi & 1):
                hi -= 1
            k = _popcount(sub)
            span = hi - lo + 1
            if span - k <= usable_jokers:
                for length in range(max(3, span), min(13, k + usable_jokers) + 1):
                    first_start = max(0, hi - length + 1)
                    last_start = min(lo, 13 - length)
                    if pickup == PICK_ANY:
                        last_start = first_start  # positions of jokers change nothing
                    for start in range(first_start, last_start + 1):
                        j = first_joker
                        for q in range(length):
                            rank = start + q
                            if sub >> rank & 1:
                                buf[q] = suit * 13 + rank
                            else:
                                buf[q] = hand[j]
                                j += 1
                        count = _push(raw, keys, count, buf, length)
                        if pickup == PICK_TOP:  # Kluft: laid high to low puts the low card on top
                            for q in range(length // 2):
                                tmp = buf[q]
                                buf[q] = buf[length - 1 - q]
                                buf[length - 1 - q] = tmp
                            count = _push(raw, keys, count, buf, length)
            sub = (sub - 1) & present
    return singles + _sorted_copy(raw, keys, count, out[singles:], order)


@njit(cache=True)
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


@njit(cache=True)
def pickup_mode(group, length, pickup):
    """Which positions of the previous discard may be taken (Y-DRAW-2, Y-V-PICK, Y-V-NEP,
    Y-V-KLUFT): ``TAKE_TOP`` the last laid, ``TAKE_ALL`` any, ``TAKE_ENDS`` first and last."""
    if pickup == PICK_TOP:
        return TAKE_TOP
    if pickup == PICK_ANY or length <= 2 or (pickup == PICK_ANY_SET and is_set_group(group, length)):
        return TAKE_ALL
    return TAKE_ENDS


@njit(cache=True)
def _position_open(p, length, mode):
    if mode == TAKE_ALL:
        return True
    if mode == TAKE_TOP:
        return p == length - 1
    return p == 0 or p == length - 1


@njit(cache=True)
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


@njit(cache=True)
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
