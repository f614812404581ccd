"""The contract hooks of Two Hundred (tests/contract): the card audit of a kernel transcript, and
the view twins — every decision of a reference game asked again after the cards hidden from the
decider have been dealt again.

A twin replays the decision's deal in the reference engine from a new deal that agrees with all
the decider knows: its own cards, every card played (by whom), the face-up cards of a T-V-2P
dummy, the kitty once the decider took it, the cards a seat has shown it lacks (voids; a bidder
does not hold the card it called). Every other card (the other hands, the kitty, a dummy's
face-down cards) is dealt again at random. The seats' earlier decisions of the deal are replayed
as they were (a buried card as the twin's card in its place); the decider is then asked with the
twin engine's hand, view and options and its random state at the decision. A strategy that sees
only its view chooses the same; an engine or strategy that peeks can differ.
"""

from __future__ import annotations

import numpy as np

from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.layout import (
    EV_CALL,
    EV_DISCARD,
    EV_HAND,
    EV_KITTY,
    EV_PLAY,
    EV_REVEAL,
    EV_TRICK,
)
from simcards.games.two_hundred.reference import ReferenceGame, deck, suit

_TRIES = 200  # random redeals tried before a decision's twin is given up (voids that leave little room)


def mask_cards(mask: int) -> list[int]:
    """The faces of a lane mask."""
    return sorted(int(L.FACE_OF_BIT[b]) for b in range(L.LANE * 4) if int(mask) >> b & 1)


class _Stop(Exception):
    """The twin reached the decision being checked."""


class _Original(ReferenceGame):
    """The reference game, recording each deal (hands as dealt, kitty, the state the deal starts
    from) and each decision (kind, seat, value, the seat's random state before it, the view)."""

    def __init__(self, *args, on_decision=None, **kw):
        super().__init__(*args, **kw)
        self.on_decision = on_decision
        self.deal_start: dict = {}
        self.script: list = []

    def play_deal(self, deal, dealer):
        self.deal_start = {"deal": deal, "dealer": dealer, "scores": list(self.scores),
                           "in_play": set(self.in_play), "playing": set(self.playing)}
        self.script = []
        return super().play_deal(deal, dealer)

    def deal_hands(self, dealer):
        hands, kitty = super().deal_hands(dealer)
        self.deal_start["hands"] = {p: list(h) for p, h in hands.items()}
        self.deal_start["kitty"] = list(kitty)
        return hands, kitty

    def ask(self, kind, seat, cards, options, view, seen=()):
        rng = self.seat_rng[seat].copy()
        shown = view.copy()
        value = super().ask(kind, seat, cards, options, view, seen)
        self.script.append((kind, seat, value))
        self.on_decision(self, kind, seat, value, rng, shown)
        return value


class _Twin(ReferenceGame):
    """A deal replayed from a twin deal: the first decisions as scripted, then the checked one."""

    def __init__(self, original: _Original, stacked: dict, script: list, rng: np.ndarray, translate: dict):
        super().__init__(original.rules, original.sids, original.params, 0, 0, original.decide, stacked=[stacked],
                         on_invalid=original.on_invalid)
        start = original.deal_start
        self.scores, self.in_play, self.playing = list(start["scores"]), set(start["in_play"]), set(start["playing"])
        self.script, self.translate, self.rng_at = script, translate, rng
        self.answer = -1

    def ask(self, kind, seat, cards, options, view, seen=()):
        if len(self.script) > 1:
            _, _, value = self.script.pop(0)
            value = self.translate.get((kind, value), value)
            if value not in options:
                raise AssertionError(f"twin deal does not fit the history: {value} not among {options}")
            return value
        self.seat_rng[seat][:] = self.rng_at
        self.answer = super().ask(kind, seat, cards, options, view, seen)
        raise _Stop


def _decider(game: ReferenceGame, seat: int) -> int:
    """The player who decides for ``seat`` (T-V-2P: a dummy's owner, the seat opposite)."""
    return (seat + 2) % 4 if game.is_dummy(seat) else seat


def _history(game: _Original):
    """What the deal's transcript so far shows: the cards each seat played, the kitty as taken
    (None before), the buried cards, the called card and its holder (None before the call)."""
    played: dict[int, list[int]] = {}
    kitty, buried, called = None, [], None
    start = len(game.record.log) - 1
    while start >= 0 and game.record.log[start][0] != EV_HAND:
        start -= 1
    while start > 0 and game.record.log[start - 1][0] == EV_HAND:
        start -= 1
    for event, _, seat, a, _b in game.record.log[start:]:
        if event == EV_PLAY:
            played.setdefault(seat, []).append(a)
        elif event == EV_KITTY:
            kitty = mask_cards(a)
        elif event == EV_DISCARD:
            buried.append(a)
        elif event == EV_CALL:
            called = a
    return played, kitty, buried, called


def _holders(game: _Original, me: int, view: np.ndarray):
    """The hidden holders from ``me``'s side: ``(name, cards it holds hidden from me, cards it may
    not get)`` for every other seat's hand, a dummy's face-down cards, the kitty or the buried cards."""
    start = game.deal_start
    hands, kitty0 = start["hands"], start["kitty"]
    played, kitty, buried, called = _history(game)
    bidder = int(view[L.V_BIDDER]) if kitty is not None or view[L.V_TRUMP] >= 0 else -1
    out: list[tuple[tuple[str, int], list[int], set[int]]] = []
    for p, dealt in hands.items():
        if p == me:
            continue
        now = [c for c in dealt if c not in played.get(p, [])]
        if p == bidder and kitty is not None:
            now = [c for c in now + kitty if c not in buried and c not in played.get(p, [])]
        if game.is_dummy(p):
            up = mask_cards(int(view[L.V_UP + p]))
            out.append((("dummy", p), [c for c in now if c not in up], set()))
        else:
            void = int(view[L.V_VOIDS + p])
            banned = {c for c in deck(game.rules.deck) if (void >> suit(c)) & 1}
            if called is not None and p == bidder:
                banned.add(called)
            out.append((("hand", p), now, banned))
    if kitty is None and kitty0:
        out.append((("kitty", -1), list(kitty0), set()))
    elif buried and bidder != me:
        out.append((("buried", -1), list(buried), set()))
    return out


def _redeal(holders, rng: np.random.Generator):
    """The holders' hidden cards dealt again at random, each its number and none it may not get
    (None when the tries run out)."""
    pool = [c for _, cards, _ in holders for c in cards]
    for _ in range(_TRIES):
        order = [int(c) for c in rng.permutation(pool)]
        order.sort(key=lambda c: -sum(c in banned for _, _, banned in holders))  # the constrained cards first
        room = [len(cards) for _, cards, _ in holders]
        got: list[list[int]] = [[] for _ in holders]
        ok = True
        for c in order:
            fits = [i for i, (_, _, banned) in enumerate(holders) if room[i] and c not in banned]
            if not fits:
                ok = False
                break
            i = fits[int(rng.integers(len(fits)))]
            got[i].append(c)
            room[i] -= 1
        if ok:
            return {name: g for (name, _, _), g in zip(holders, got)}
    return None


def _twin_deal(game: _Original, me: int, view: np.ndarray, rng: np.random.Generator):
    """A stacked deal for the twin and the map of buried cards (original -> twin), or None."""
    holders = _holders(game, me, view)
    new = _redeal(holders, rng)
    if new is None:
        return None
    start = game.deal_start
    swap: dict[int, int] = {}
    for name, cards, _ in holders:
        swap.update(zip(cards, new[name]))  # each hidden card -> the twin's card in its place
    hands = {p: [swap.get(c, c) for c in h] for p, h in start["hands"].items()}
    kitty = [swap.get(c, c) for c in start["kitty"]]
    buried = _history(game)[2]
    return {**hands, "kitty": kitty}, {(L.K_DISCARD, c): swap.get(c, c) for c in buried}


def view_twins(decide, seats: tuple, rules, players: int, seed: int, game: int) -> list[tuple[int, int]]:
    """``GameDef.view_twins`` for Two Hundred (see the module docstring): ``decide`` is the
    strategies' engine's decision function, ``seats`` their ids and parameter rows."""
    sids, params = seats
    redeal = np.random.default_rng([seed, game])
    pairs: list[tuple[int, int]] = []

    def check(original: _Original, kind, seat, value, rng, shown):
        made = _twin_deal(original, _decider(original, seat), shown, redeal)
        if made is None:
            return
        stacked, translate = made
        twin = _Twin(original, stacked, list(original.script), rng, translate)
        try:
            twin.play_deal(original.deal_start["deal"], original.deal_start["dealer"])
        except _Stop:
            pairs.append((value, twin.answer))

    _Original(rules, sids, params, seed, game, decide, on_decision=check).play()
    return pairs


def card_audit(rules, transcript: np.ndarray) -> list[str]:
    """``GameDef.card_audit`` for Two Hundred: every deal holds the deck once (the hands dealt and
    the kitty), a seat plays only cards it holds (a T-V-2P dummy: its nine cards, turned up from
    its piles) and each card once, the bidder buries cards it holds after taking the kitty, every
    trick has one card from each seat in play, and the deal ends with every hand played out."""
    problems: list[str] = []
    full = set(deck(rules.deck))
    state: dict = {"deal": None}
    for event, deal, seat, a, _b in transcript.tolist():
        if event == EV_HAND and deal != state["deal"]:
            _end_of_deal(state, rules, problems)
            state = {"deal": deal, "hands": {}, "seen": set(), "trick": [], "plays": 0}
        hands, seen = state.get("hands", {}), state.get("seen", set())
        if event == EV_HAND:
            cards = mask_cards(a)
            if seen & set(cards) or not set(cards) <= full:
                problems.append(f"deal {deal}: seat {seat} dealt a card twice or one not in the deck")
            seen |= set(cards)
            hands[seat] = cards
        elif event == EV_KITTY:
            kitty = mask_cards(a)
            if set(kitty) & seen or seen | set(kitty) != full or len(kitty) != rules.kitty:
                problems.append(f"deal {deal}: the kitty and the hands are not the deck")
            hands[seat] = hands.get(seat, []) + kitty
        elif event in (EV_DISCARD, EV_PLAY):
            if a not in hands.get(seat, []):
                problems.append(f"deal {deal}: seat {seat} gave {a}, not a card of its hand")
            else:
                hands[seat].remove(a)
            if event == EV_PLAY:
                state["trick"].append(seat)
                state["plays"] += 1
        elif event == EV_TRICK:
            trick = state["trick"]
            if len(trick) != len(set(trick)) or len(trick) != len(hands):
                problems.append(f"deal {deal}: a trick of {len(trick)} cards from {len(set(trick))} seats")
            state["trick"] = []
        elif event == EV_REVEAL and a not in hands.get(seat, []):
            problems.append(f"deal {deal}: dummy {seat} turned up {a}, not one of its cards")
    _end_of_deal(state, rules, problems)
    return problems


def _end_of_deal(state: dict, rules, problems: list[str]) -> None:
    """The hands dealt hold the deck but the kitty; a deal played to its end leaves no card in a
    hand (a thrown-in deal plays none)."""
    if state["deal"] is None:
        return
    if len(state["seen"]) != rules.deck - rules.kitty:
        problems.append(f"deal {state['deal']}: {len(state['seen'])} cards dealt to the hands")
    left = {p: h for p, h in state["hands"].items() if h}
    if state["plays"] and left:
        problems.append(f"deal {state['deal']}: cards left in hands at the end {left}")
