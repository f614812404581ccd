"""Helpers for the Yaniv tests: run one game through both engines and get their transcripts."""

from __future__ import annotations

import copy

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


class Stop(Exception):
    pass


class Script:
    """A scripted player for every seat of a reference game: answers come from ``answers``
    (``{kind: [choice, ...]}``, used in order; a callable ``(kind, seat, options, view)`` also
    works), defaulting to option 0 — never call, the first legal group, the stock, no request,
    refuse, no slam, reveal. Every decision asked is recorded in ``asked``."""

    def __init__(self, answers=None, default=None, stop=None):
        self.answers = {k: list(v) for k, v in (answers or {}).items()}
        self.default = default or {}
        self.asked = []
        self.stop = stop  # stop the round (raise Stop) when asked this many decisions

    def __call__(self, kind, sid, params, hand, n, opts, n_opts, view, rules, rng):
        if self.stop is not None and len(self.asked) >= self.stop:
            raise Stop
        options = [tuple(int(c) for c in opts[i, 1 : 1 + opts[i, 0]]) for i in range(n_opts)]
        seat = int(view[L.V_SEAT])
        self.asked.append((int(kind), seat, options, [int(c) for c in hand[:n]], view.copy()))
        queue = self.answers.get(int(kind))
        if queue:
            choice = queue.pop(0)
            return choice(options) if callable(choice) else choice
        return self.default.get(int(kind), 0)

    def kinds(self):
        return [(k, s) for k, s, *_ in self.asked]


def stacked_round(rules: YanivRules, hands_text: list[str], upcard: str, stock_text: str, script: Script,
                  starter: int = 0, scores=None):
    """Play round 1 of a reference game from a stacked deck: the given hands, the face-up card,
    then the stock from its top (``stock_text``, first card drawn first), the rest of the deck
    below. Returns the game and ``(caller, turns, to_move, totals, hands)``."""
    from simcards.games.yaniv import reference as refmod

    players = len(hands_text)
    hands = [parse_cards(h) for h in hands_text]
    up = parse_cards(upcard)
    top = parse_cards(stock_text)
    used = sorted(sum(hands, []) + up + top)
    rest = list(refmod.deck(rules))
    for c in used:
        rest.remove(c)
    pops = []  # cards in the order the reference pops them
    for i in range(5):
        for p in range(players):
            pops.append(hands[p][i])
    pops += up + top + rest
    order = list(reversed(pops))
    game = ReferenceGame(rules, players, [0] * players, np.zeros((players, 16)), 0, 0, script)
    if scores is not None:
        game.scores = list(scores)
    original = refmod.shuffle
    calls = []

    def rigged(state, arr, n):
        if not calls:  # the deal: the stacked order; later reshuffles are real
            arr[:n] = order
            calls.append(1)
            return
        original(state, arr, n)

    refmod.shuffle = rigged
    states = []
    game.check = lambda event, state: states.append((event, copy.deepcopy(state)))
    try:
        result = game.play_round(1, starter)
    except Stop:
        result = None
    finally:
        refmod.shuffle = original
    game.states = states
    return game, result
