"""Helpers for the Yaniv tests: run one game through both engines and get their transcripts."""

from __future__ import annotations

import numpy as np

from simcards.cards import parse_cards
from simcards.games.yaniv import layout as L
from simcards.games.yaniv.game import GAME, engine_for, seat_arrays
from simcards.games.yaniv.groups import SCRATCH, available_faces, legal_groups
from simcards.games.yaniv.kernel import LOG_WIDTH
from simcards.games.yaniv.reference import ReferenceGame
from simcards.games.yaniv.rules import YanivRules


def hand(text: str) -> list[int]:
    return sorted(parse_cards(text))


def kernel_groups(cards: list[int], rules: YanivRules) -> list[tuple[int, ...]]:
    h = np.zeros(L.MAX_HAND, dtype=np.int64)
    h[: len(cards)] = sorted(cards)
    out = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
    keys = np.zeros(L.MAX_OPTIONS, dtype=np.int64)
    n = legal_groups(h, len(cards), rules.encode(), out, keys, np.zeros(SCRATCH, dtype=np.int64))
    return [tuple(int(c) for c in out[i, 1 : 1 + out[i, 0]]) for i in range(n)]


def kernel_available(group: list[int], rules: YanivRules) -> list[int]:
    g = np.zeros(L.MAX_HAND, dtype=np.int64)
    g[: len(group)] = group
    out = np.zeros(L.MAX_HAND, dtype=np.int64)
    n = available_faces(g, len(group), rules.encode()[5], out)
    return [int(c) for c in out[:n]]


def kernel_game(rules: YanivRules, players: int, specs, seed: int, game: int, log_rows: int = 400_000):
    strategies = GAME.strategies(specs, players)
    _, play_game, _ = engine_for(strategies)
    sids, params = seat_arrays(strategies)
    log = np.zeros((log_rows, LOG_WIDTH), dtype=np.int64)
    out = np.zeros(L.G_WIDTH, dtype=np.int64)
    rounds = np.zeros((L.ROUND_CAP, L.round_width(players)), dtype=np.int32)
    n = play_game(game, seed, rules.encode(), players, sids, params, out, rounds, L.ROUND_CAP, log)
    return log[:n], out, rounds[: out[L.G_ROUNDS]]


def reference_game(rules: YanivRules, players: int, specs, seed: int, game: int, check=None):
    strategies = GAME.strategies(specs, players)
    decide, _, _ = engine_for(strategies)
    sids, params = seat_arrays(strategies)
    ref = ReferenceGame(rules, players, sids, params, seed, game, decide)
    if check is not None:
        ref.check = check
    return ref.play()
