"""High card in plain Python, written from the rules (rules.py), not from the kernel. It shares
only the RNG (the deal's stream and one per seat for its strategy), the policies and the
transcript codes, so the two engines can be compared."""

from __future__ import annotations

import numpy as np

from simcards.cards import card_code
from simcards.policy import reference_choice
from simcards.rng import new_state, rand_below, seat_states, shuffle
from tests.toygame import kernel as K
from tests.toygame.rules import HighCardRules


class Record:
    def __init__(self) -> None:
        self.log: list[tuple[int, int, int, int, int]] = []
        self.lines: list[str] = []
        self.invalid = 0
        self.winner = -1

    def log_array(self) -> np.ndarray:
        return np.array(self.log, dtype=np.int64).reshape(-1, K.LOG_WIDTH)


def strength(card: int, rules: HighCardRules) -> tuple[int, int]:
    rank = card % 13  # 0 = ace
    return ((rank - 1) % 13 if rules.aces_high else rank), card // 13


def view_of(seat: int, rnd: int, hands: list[list[int]], played: list[int], wins: list[int]) -> np.ndarray:
    """What ``seat`` may see of the whole state: the round, the cards played before it, the round
    wins (H-PLAY-2); never a card in another hand."""
    players = len(hands)
    v = np.zeros(K.VIEW_SIZE, dtype=np.int64)
    v[K.V_SEAT], v[K.V_ROUND], v[K.V_PLAYERS], v[K.V_N_PLAYED] = seat, rnd, players, len(played)
    v[K.V_PLAYED:K.V_PLAYED + len(played)] = played
    v[K.V_WINS:K.V_WINS + players] = wins
    return v


def play_reference(rules: HighCardRules, players: int, sids, params, seed: int, game: int,
                   on_invalid: str = "error", ask=None) -> Record:
    """One game; ``ask(seat, rnd, hands, played, wins, rng)`` (tests) is shown the whole state
    before every decision, and the seat's strategy stream."""
    rec, rng, enc = Record(), new_state(seed, game), rules.encode()  # the deal's stream: the engine's
    seat_rng = seat_states(seed, game, players)  # each seat's strategy stream
    wins = [0] * players
    leader = int(rand_below(rng, players))
    deck = np.arange(52, dtype=np.int64)
    for rnd in range(1, K.ROUND_CAP + 1):
        shuffle(rng, deck, 52)
        hands = [sorted(deck[2 * p:2 * p + 2].tolist(), key=lambda c: strength(c, rules)) for p in range(players)]
        for p, (lo, hi) in enumerate(hands):
            rec.log.append((K.EV_DEAL, rnd, p, lo, hi))
        played: list[int] = []
        for i in range(players):
            seat = (leader + i) % players
            view = view_of(seat, rnd, hands, played, wins)
            if ask is not None:
                ask(seat, rnd, hands, list(played), list(wins), seat_rng[seat])
            c = int(K.decide(sids[seat], params[seat], np.array(hands[seat]), 2, view, enc, seat_rng[seat]))
            c = reference_choice(c, 2, 0, int(sids[seat]), on_invalid, rec)
            played.append(hands[seat][c])
            rec.log.append((K.EV_PLAY, rnd, seat, played[-1], c))
        best = max(range(players), key=lambda i: strength(played[i], rules))
        top = (leader + best) % players
        wins[top] += 1
        rec.log.append((K.EV_WIN, rnd, top, wins[top], 0))
        rec.lines.append(f"round {rnd}: " + ", ".join(f"seat {(leader + i) % players} plays {card_code(c)}"
                                                       for i, c in enumerate(played)) + f"; seat {top} wins")
        leader = top
        if wins[top] >= rules.target:
            rec.winner = top
            break
    return rec
