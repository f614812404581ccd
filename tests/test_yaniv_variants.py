"""Yaniv section-5 variants, one or more scenarios per rule ID of yaniv.md, with the hands written
out and exact expected scores. Helpers that exist in both engines are checked in both
(``ENGINES``); whole-turn scenarios run the reference engine from a stacked deck with scripted
players (tests/yaniv_support.py), and the differential tests prove the kernel plays the same."""

from __future__ import annotations

import numpy as np
import pytest

import simcards
from simcards.cards import parse_cards
from simcards.errors import SimcardsError
from simcards.games.yaniv import layout as L
from simcards.games.yaniv import reference as ref
from simcards.games.yaniv.core import score_kluft, score_round, settle_round
from simcards.games.yaniv.game import GAME, seat_arrays
from simcards.games.yaniv.groups import slam_position
from simcards.games.yaniv.kernel import Seats, Table, kluft_challenges
from simcards.games.yaniv.policies import builtin_decide, kernel_decide
from simcards.games.yaniv.rules import ISRAELI, YanivRules, build_rules, preset
from simcards.options import parse_option
from tests.yaniv_support import Script, hand, kernel_available, kernel_groups, reference_game, stacked_round

ENGINES = ["reference", "kernel"]
ADRIAN = preset("adrian")
KLUFT = preset("kluft")
K = L  # decision kinds live in layout


def c(text):
    return parse_cards(text)


def one(text):
    return parse_cards(text)[0]


# ----- scoring helpers in both engines ------------------------------------------------------------
def _score(engine, totals, caller, rules):
    if engine == "reference":
        scored, asaf = ref.round_scores(totals, caller, rules)
        return [scored[p] for p in sorted(totals)], asaf
    players = len(totals)
    t = np.array([totals[p] for p in range(players)], dtype=np.int64)
    out = np.zeros(players, dtype=np.int64)
    asaf = score_round(caller, t, np.ones(players, dtype=np.bool_), players, rules.encode(), out)
    return out.tolist(), asaf


def _settle(engine, scores, scored, rules):
    players = len(scores)
    if engine == "reference":
        s = list(scores)
        alive = [True] * players
        _, eliminated, _ = ref.settle_round(s, dict(enumerate(scored)), [0] * players, alive, rules, False)
        return s, sorted(eliminated)
    s = np.array(scores, dtype=np.int64)
    alive = np.ones(players, dtype=np.bool_)
    _, _, mask = settle_round(s, np.array(scored, dtype=np.int64), alive, np.zeros(players, dtype=np.int64),
                              players, players, False, rules.encode())
    return s.tolist(), [p for p in range(players) if mask >> p & 1]


def _kluft(engine, totals, claims, rules=KLUFT):
    players = len(totals)
    if engine == "reference":
        scored, winner = ref.kluft_scores(dict(enumerate(totals)), list(claims), rules)
        return [scored[p] for p in range(players)], winner
    out = np.zeros(players, dtype=np.int64)
    cl = np.array(claims + [0] * (players - len(claims)), dtype=np.int64)
    winner = score_kluft(cl, len(claims), np.array(totals, dtype=np.int64), np.ones(players, dtype=np.bool_),
                         players, rules.encode(), out)
    return out.tolist(), winner


# ----- Y-V-OVERCALL ----------------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
def test_overcall_63_plus_37_lands_on_100_then_50_y_v_overcall(engine):
    # Seat 0 is at 63 and holds 7♣ (7, above the limit 5): it overcalls. Seat 1 holds A♠ 2♠ (3),
    # seat 2 holds K♦ 2♥ (12). The overcaller adds 7 + 30 = 37 → 100 → reset to 50 (Y-RESET-1).
    scored, asaf = _score(engine, {0: 7, 1: 3, 2: 12}, 0, ADRIAN)
    assert (scored, asaf) == ([37, 3, 12], True)
    assert _settle(engine, [63, 40, 80], scored, ADRIAN) == ([50, 43, 92], [])


@pytest.mark.parametrize("engine", ENGINES)
def test_overcall_always_costs_hand_plus_30_y_v_overcall(engine):
    # whatever the others hold (here all higher than the caller's 7), and whatever
    # failed_call_others says: the others add their hands
    assert _score(engine, {0: 7, 1: 20, 2: 30}, 0, ADRIAN) == ([37, 20, 30], True)
    zero = ADRIAN.replace(failed_call_others="zero")
    assert _score(engine, {0: 7, 1: 20, 2: 30}, 0, zero) == ([37, 20, 30], True)
    # a call within the limit is still an ordinary Yaniv call (Y-SC-1)
    assert _score(engine, {0: 4, 1: 20, 2: 30}, 0, ADRIAN) == ([0, 20, 30], False)


def test_overcall_is_offered_only_above_the_limit_y_v_overcall_y_call_1():
    # Seat 0: 8♠ 9♥ Q♥ K♦ K♣ = 47, far above the limit: the first decision is an overcall.
    hands = ["8s 9h Qh Kd Kc", "2c 3c 4c Ts Js", "5h 6h Jd Jh Qs"]
    script = Script({K.K_OVERCALL: [1]})
    game, (caller, turns, _, totals, _) = stacked_round(ADRIAN, hands, "3s", "8h 7d", script)
    assert script.kinds()[0] == (K.K_OVERCALL, 0) and caller == 0 and turns == 0
    assert totals == {0: 47, 1: 29, 2: 41}
    # without the option nobody above the limit is asked to call: the first decision is a discard
    script = Script(stop=1)
    stacked_round(ISRAELI, hands, "3s", "8h 7d", script)
    assert script.kinds()[0] == (K.K_DISCARD, 0)


@pytest.mark.parametrize("kind,score,total,expected", [
    (K.K_OVERCALL, 63, 7, 1),  # 63 + 7 + 30 = 100 → 50: worth a deliberate overcall
    (K.K_OVERCALL, 64, 7, 0),  # 101: no reset, no overcall
    (K.K_OVERCALL, 164, 6, 1),  # 164 + 6 + 30 = 200 → 100
    (K.K_CALL, 166, 4, 1),  # Y-RESET-1's example: at 166, call with 4 (even with call=0)
])
def test_threshold_calls_deliberately_onto_a_reset_y_v_overcall_y_reset_1(kind, score, total, expected):
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_TOTAL] = total
    view[L.V_SCORES] = score
    opts = np.zeros((L.MAX_OPTIONS, L.ROW), dtype=np.int64)
    h = np.zeros(L.MAX_HAND, dtype=np.int64)
    for spec, want in (("threshold:call=0", expected), ("threshold:call=0,reset_aim=0", 0)):
        sids, params = seat_arrays(GAME.strategies([spec], 1))
        got = builtin_decide(kind, sids[0], params[0], h, 1, opts, 2, view, ADRIAN.encode(), np.zeros(1, np.uint64))
        assert got == want, spec


# ----- Y-V-REQ -------------------------------------------------------------------------------------
HANDS3 = ["8s 9h Qh Kd Kc", "2c 3c 4c Ts Js", "5h 6h Jd Jh Qs"]  # 47, 29, 41
REQ = ISRAELI.replace(requests=True)  # requests alone (adrian would also ask about overcalls)


def test_request_refused_on_the_first_turn_y_v_req():
    # Turn 1: the face-up 3♠ is the only card seat 0 could take; seats 1 and 2 may ask for it.
    # Seat 1 does not ask, seat 2 asks; seat 0 refuses and must take 3♠ itself (not its draw):
    # 8♠ 9♥ Q♥ K♦ K♣ + 3♠ = 50, six cards. 3♠ is gone, so seat 0 can only draw from the stock.
    script = Script({K.K_REQUEST: [0, 1], K.K_GRANT: [0]}, stop=4)
    game, _ = stacked_round(REQ, HANDS3, "3s", "8h 7d", script)
    kinds = script.kinds()
    assert kinds[:4] == [(K.K_REQUEST, 1), (K.K_REQUEST, 2), (K.K_GRANT, 0), (K.K_DISCARD, 0)]
    assert script.asked[1][2] == [(-1,), (one("3s"),)]  # ask for nothing, or for 3♠
    discard_hand = script.asked[3][3]
    assert sorted(discard_hand) == sorted(c("8s 9h Qh Kd Kc 3s"))
    assert ref.total(discard_hand, REQ) == 50
    assert game.record.counts[1:3] == [1, 0]


def test_request_granted_y_v_req():
    # Same deal; seat 1 asks at once and seat 0 agrees: seat 1 holds 2♣ 3♣ 4♣ T♠ J♠ 3♠ = 32.
    script = Script({K.K_REQUEST: [1], K.K_GRANT: [1]}, stop=40)
    game, _ = stacked_round(REQ, HANDS3, "3s", "8h 7d", script)
    assert script.kinds()[:3] == [(K.K_REQUEST, 1), (K.K_GRANT, 0), (K.K_DISCARD, 0)]
    draw = next(a for a in script.asked if a[0] == K.K_DRAW)
    assert draw[2] == [(-1,)]  # the requested card is no longer available
    seat1 = next(a for a in script.asked if a[0] == K.K_DISCARD and a[1] == 1)
    assert sorted(seat1[3]) == sorted(c("2c 3c 4c Ts Js 3s")) and ref.total(seat1[3], REQ) == 32
    assert game.record.counts[1:3] == [1, 1]


def test_request_never_from_the_previous_player_y_v_req():
    # After turn 1 the previous discarder is never polled: turn 2 (seat 1 to move) asks only
    # seat 2; turn 3 (seat 2) only seat 0.
    script = Script(stop=14)
    stacked_round(REQ, HANDS3, "3s", "8h 7d", script)
    polled = [(k, s) for k, s in script.kinds() if k == K.K_REQUEST]
    assert polled[:4] == [(K.K_REQUEST, 1), (K.K_REQUEST, 2), (K.K_REQUEST, 2), (K.K_REQUEST, 0)]


def test_two_players_request_only_the_face_up_card_y_v_req():
    script = Script(stop=60)
    stacked_round(REQ, HANDS3[:2], "3s", "8h 7d 6d 5d", script)
    polled = [i for i, (k, _) in enumerate(script.kinds()) if k == K.K_REQUEST]
    assert polled == [0]  # seat 1 on the first turn only


def test_request_comes_after_declining_to_call_y_v_req():
    # Seat 0 holds A♠ A♥ A♣ 2♣ Jk = 5: asked to call first; it calls, so nobody is polled.
    hands = ["As Ah Ac 2c Jk", "2h 3c 4c Ts Js", "5h 6h Jd Jh Qs"]
    script = Script({K.K_CALL: [1]})
    _, (caller, turns, _, _, _) = stacked_round(REQ, hands, "3s", "8h", script)
    assert script.kinds() == [(K.K_CALL, 0)] and caller == 0 and turns == 0


def test_request_hand_guard_y_v_req():
    # Seat 1 asks for every card it may, the mover always refuses: hands grow one card a turn
    # until the guard (10 cards) stops the requests; no hand ever holds more.
    script = Script(default={K.K_REQUEST: 1, K.K_GRANT: 0}, stop=400)
    game, _ = stacked_round(REQ, HANDS3, "3s", "8h 7d", script)
    sizes = [len(h) for _, st in game.states if "hands" in st for h in st["hands"].values()]
    assert max(sizes) == L.REQUEST_HAND_LIMIT
    assert game.record.counts[3] > 0  # polls skipped by the guard are counted


# ----- Y-V-SLAM ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
def test_slam_positions_y_v_slam(engine):
    def pos(group, card):
        g = c(group)
        if engine == "reference":
            return ref.slam_position(g, one(card))
        arr = np.zeros(L.MAX_HAND, dtype=np.int64)
        arr[: len(g)] = g
        return slam_position(arr, len(g), one(card))

    assert pos("8s", "8h") == 1  # a single takes its rank
    assert pos("8s", "9s") == -1  # but never starts a run
    assert pos("5s 5h", "5d") == 2  # a set takes its rank, at the end
    assert pos("4d 5d 6d", "3d") == 0 and pos("4d 5d 6d", "7d") == 3  # a run: either end, its suit
    assert pos("4d 5d 6d", "8d") == -1 and pos("4d 5d 6d", "7h") == -1
    assert pos("Jk 8c 9c", "6c") == 0 and pos("Jk 8c 9c", "Tc") == 3  # the joker is the 7
    assert pos("Jd Qd Kd", "Ad") == -1 and pos("Jd Qd Kd", "Td") == 0  # aces low only (Y-DIS-2)
    assert pos("As 2s 3s", "Ks") == -1
    assert pos("8s", "Jk") == -1 and pos("Jk Jk", "Jk") == -1  # a joker is never slammed (Decision)


def test_slam_from_the_stock_and_from_the_previous_discard_y_v_slam():
    # Seat 0 throws 8♠ and draws 8♥ from the stock: it slams it (47 → 31: 9♥ Q♥ K♦ K♣ = 39,
    # four cards). Seat 1 throws 8♦, takes 8♥ from seat 0's group and slams it too.
    hands = ["8s 9h Qh Kd Kc", "8d 3c 4c Ts Js", "5h 6h Jd Jh Qs"]

    def throw(card):
        return lambda options: options.index((one(card),))

    def take(card):
        return lambda options: options.index((one(card),))

    script = Script({K.K_DISCARD: [throw("8s"), throw("8d")], K.K_DRAW: [0, take("8h")], K.K_SLAM: [1, 1]},
                    stop=9)
    game, _ = stacked_round(preset("israeli").replace(slam=True), hands, "3s", "8h 7d", script)
    slams = [a for a in script.asked if a[0] == K.K_SLAM]
    assert slams[0][2] == [(0,), (one("8h"),)] and slams[0][1] == 0
    assert sorted(slams[0][3]) == sorted(c("8h 9h Qh Kd Kc"))  # the hand when asked: with the drawn card
    seat1_draw = next(a for a in script.asked if a[0] == K.K_DRAW and a[1] == 1)
    assert seat1_draw[2] == [(-1,), (one("8s"),), (one("8h"),)]  # the slammed group's cards are available
    assert slams[1][1] == 1
    seat2_draw = next(a for a in script.asked if a[0] == K.K_DRAW and a[1] == 2)
    assert seat2_draw[2] == [(-1,), (one("8h"),), (one("8d"),)]  # by face id
    after = [st for ev, st in game.states if ev == "slam"]
    assert sorted(after[0]["hands"][0]) == sorted(c("9h Qh Kd Kc")) and ref.total(after[0]["hands"][0], ISRAELI) == 39
    assert after[1]["group"] == c("8d 8h")
    assert game.record.counts[4] == 2


@pytest.mark.parametrize("pickup", ["any", "ends"])
def test_joker_runs_offered_in_every_placement_when_slams_are_on_y_dis_5_y_v_slam(pickup):
    # Y-DIS-5: 8♥ 9♥ Jk may be laid 8-9-10 or 7-8-9, the discarder chooses. With any card
    # takeable (Y-V-NEP's pickup=any) the placement is irrelevant to the next player, but not to a
    # slam (Y-V-SLAM): both placements are offered, in the same order by both engines.
    rules = ISRAELI.replace(pickup=pickup, slam=True)
    h = hand("8h 9h Jk 2c Ks")
    groups = ref.legal_groups(h, rules)
    assert kernel_groups(h, rules) == groups
    assert tuple(c("8h 9h Jk")) in groups and tuple(c("Jk 8h 9h")) in groups
    if pickup == "any":  # without slams one placement stands for both, as before
        plain = ref.legal_groups(h, rules.replace(slam=False))
        assert kernel_groups(h, rules.replace(slam=False)) == plain
        assert [g for g in plain if len(g) == 3] == [tuple(c("Jk 8h 9h"))]


def test_slam_onto_a_joker_run_laid_8_9_10_with_pickup_any_y_dis_5_y_v_slam():
    # Seat 0 lays 8♥ 9♥ Jk as 8-9-10, draws 7♥ from the stock and slams it: 7♥ 8♥ 9♥ Jk, and its
    # hand is down to 2♣ K♠. Laid 7-8-9 the 7♥ could not have joined.
    rules = preset("nepali-jokers").replace(slam=True)
    hands = ["8h 9h Jk 2c Ks", "3c 4d 6s Ts Js"]
    script = Script({K.K_DISCARD: [lambda options: options.index(tuple(c("8h 9h Jk")))], K.K_DRAW: [0],
                     K.K_SLAM: [1]}, stop=3)
    game, _ = stacked_round(rules, hands, "3s", "7h", script)
    assert [k for k, _ in script.kinds()] == [K.K_DISCARD, K.K_DRAW, K.K_SLAM]
    assert script.asked[2][2] == [(0,), (one("7h"),)]
    slam = next(st for ev, st in game.states if ev == "slam")
    assert slam["group"] == c("7h 8h 9h Jk") and sorted(slam["hands"][0]) == hand("2c Ks")


# ----- Y-V-KLUFT ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
def test_kluft_unchallenged_y_v_kluft(engine):
    # Seat 2 calls Kluft with 4; nobody calls onderkluft. Seat 0 held 3 — lower, but no penalty:
    # the caller scores 0 and everyone else adds their hand.
    assert _kluft(engine, [3, 8, 4, 10], [2]) == ([3, 8, 0, 10], 2)


@pytest.mark.parametrize("engine", ENGINES)
def test_onderkluft_tie_goes_to_the_earlier_caller_y_v_kluft(engine):
    # Seat 1 calls Kluft with 3; seat 2 calls onderkluft also holding 3: the Kluft caller, earlier,
    # wins (0); seat 2 adds 3 + 15 = 18; seats 3 and 0 revealed and add their hands.
    assert _kluft(engine, [9, 3, 3, 7], [1, 2]) == ([9, 0, 18, 7], 1)
    # two onderkluft callers tied at 2 beat a caller with 5: the earlier of them (seat 3) wins
    assert _kluft(engine, [6, 5, 11, 2, 2], [1, 3, 4]) == ([6, 20, 11, 0, 17], 3)


@pytest.mark.parametrize("engine", ENGINES)
def test_revealed_player_never_wins_y_v_kluft(engine):
    # Seat 0 calls with 4, seat 1 reveals 1 (lowest of all), seat 2 calls onderkluft with 3:
    # seat 2 wins; the caller adds 4 + 15 = 19; seat 1 adds its 1.
    assert _kluft(engine, [4, 1, 3], [0, 2]) == ([19, 1, 0], 2)


@pytest.mark.parametrize("engine", ["reference", "kernel"])
def test_onderkluft_order_and_limit_y_v_kluft(engine):
    """Caller seat 1 (5). Decisions clockwise from seat 2: seat 2 (3) calls; seat 3 (4) would need
    ≤ 3 - 1 = 2 and reveals; seat 0 (2) calls. Seat 0 wins with 2: scores 0, 20, 18, 4."""
    rules = KLUFT
    hands = {0: c("As Ac"), 1: c("2s 3d"), 2: c("2h Ah"), 3: c("4h")}
    claims = _challenges(engine, rules, hands, 1, "threshold:onder=3,onder_history=0")
    assert claims == [1, 2, 0]
    totals = [ref.total(hands[p], rules) for p in range(4)]
    assert _kluft(engine, totals, claims) == ([0, 20, 18, 4], 0)
    # only below the call limit: seat 3 at 5 (= the limit) reveals even with onder=60 ...
    hands[3] = c("5h")
    assert _challenges(engine, rules, hands, 1, "threshold:onder=60,onder_history=0") == [1, 2, 0]
    # ... unless onderkluft_any
    anyrules = rules.replace(onderkluft_any=True)
    assert _challenges(engine, anyrules, hands, 1, "threshold:onder=60,onder_history=0") == [1, 2, 3, 0]


def _challenges(engine, rules, hands, caller, spec):
    players = len(hands)
    strategies = GAME.strategies([spec], players)
    sids, params = seat_arrays(strategies)
    if engine == "reference":
        game = ref.ReferenceGame(rules, players, sids, params, 0, 0, builtin_decide)
        return game.kluft_challenges(caller, {p: list(h) for p, h in hands.items()}, 5, [1, 2, 3], 1, 0)
    hand_all = np.zeros((L.MAX_PLAYERS, L.MAX_HAND), dtype=np.int64)
    hand_n = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    totals = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    for p, h in hands.items():
        hand_all[p, : len(h)] = h
        hand_n[p] = len(h)
        totals[p] = ref.total(h, rules)
    alive = np.zeros(L.MAX_PLAYERS, dtype=np.bool_)
    alive[:players] = True
    view = np.zeros(L.VIEW_SIZE, dtype=np.int64)
    view[L.V_REVEALED:L.V_REVEALED + L.MAX_PLAYERS] = -1
    claims = np.zeros(L.MAX_PLAYERS, dtype=np.int64)
    log = np.zeros((0, 18), dtype=np.int64)
    z = np.zeros(L.MAX_PLAYERS, np.int64)
    table = Table(hand_all, hand_n, z, z, z, z, np.zeros((L.MAX_OPTIONS, L.ROW), np.int64), view, totals, z.copy(), z,
                  z, z, claims, z.copy(), z.copy(), z, z)  # the round's record (kernel.Table): what the Kluft reads
    seats = Seats(sids, params, np.zeros(1 + L.MAX_PLAYERS, np.uint64), alive, kernel_decide)  # the kernel's decide
    n, _ = kluft_challenges(caller, seats, table, players, players, 5, 3, 1, 0, rules.encode(), log, 0)
    return claims[:n].tolist()


def test_onderkluft_sees_revealed_hands_and_the_callers_history_y_v_kluft():
    script = Script()
    game = ref.ReferenceGame(KLUFT, 4, [0] * 4, np.zeros((4, 16)), 0, 0, script)
    game.kluft_calls[1], game.kluft_beaten[1] = 5, 2
    hands = {0: c("As Ac"), 1: c("2s 3d"), 2: c("Kh"), 3: c("2h")}
    game.kluft_challenges(1, hands, 3, [], 1, 0)
    # seat 2 (10) cannot call (not below 5): it reveals; seats 3 and 0 are asked
    assert [(k, s) for k, s in script.kinds()] == [(K.K_ONDER, 3), (K.K_ONDER, 0)]
    view = script.asked[1][4]
    assert view[L.V_CALLER] == 1 and view[L.V_CALLER_CALLS] == 5 and view[L.V_CALLER_BEATEN] == 2
    assert view[L.V_REVEALED + 2] == 10 and view[L.V_REVEALED + 3] == 2 and view[L.V_REVEALED + 1] == -1


@pytest.mark.parametrize("available", [ref.available_cards, kernel_available], ids=ENGINES)
def test_kluft_top_card_only_y_v_kluft(available):
    assert available(c("5s 5h 5d"), KLUFT) == c("5d")  # the last card laid is on top
    assert available(c("6h 5h 4h"), KLUFT) == c("4h")


def test_kluft_discarder_chooses_the_top_card_and_jokers_are_not_wild_y_v_kluft():
    groups = ref.legal_groups(hand("5s 5h 8c 9c Jk"), KLUFT)
    assert groups == kernel_groups(hand("5s 5h 8c 9c Jk"), KLUFT)
    assert (one("5s"), one("5h")) in groups and (one("5h"), one("5s")) in groups  # either five on top
    assert not any(len(g) == 3 for g in groups)  # 8♣ 9♣ Jk is no run: jokers are not wild
    runs = [g for g in ref.legal_groups(hand("3h 4h 5h 9c"), KLUFT) if len(g) == 3]
    assert runs == [tuple(c("3h 4h 5h")), tuple(c("5h 4h 3h"))]  # ascending or descending


@pytest.mark.parametrize("engine", ENGINES)
def test_kluft_out_over_100_and_100_to_50_y_v_kluft(engine):
    # 90 + 10 = 100 → 50; 85 + 16 = 101: out
    assert _settle(engine, [90, 85, 20], [10, 16, 0], KLUFT) == ([50, 101, 20], [1])


def test_kluft_winner_starts_the_next_round_y_start_2_y_v_kluft():
    record = reference_game(KLUFT, 4, ["threshold:onder=4"], 3, 1)
    checked = 0
    for r, nxt in zip(record.rounds, record.rounds[1:]):
        if r.caller >= 0 and not r.asaf and not r.eliminated:
            assert nxt.starter == r.caller
            checked += 1
        elif r.caller >= 0 and r.asaf and not r.eliminated:
            assert nxt.starter != r.caller  # an onderkluft caller won and starts
    assert checked > 0


# ----- presets, options, refusals ----------------------------------------------------------------------
def test_presets_kluft_and_adrian_y_v_kluft_y_v_overcall_y_v_req_y_v_slam():
    k = preset("kluft").validate()
    assert (k.pickup, k.jokers_wild, k.kluft, k.kluft_penalty, k.out_over, k.reset_table()[100]) == \
        ("top", False, True, 15, 100, 50)
    a = preset("adrian").validate()
    assert (a.overcall, a.requests, a.slam, a.call_limit, a.asaf_penalty) == (True, True, True, 5, 30)


@pytest.mark.parametrize("changes,match", [
    ({"kluft": "true", "overcall": "true"}, "cannot be combined"),
    ({"overcall": "true", "call_limit": "none"}, "needs a call limit"),
    ({"slam": "true", "pickup": "top", "kluft": "true"}, "not supported"),
    ({"onderkluft_any": "true"}, "needs kluft=true"),
    ({"kluft_penalty": "20"}, "needs kluft=true"),
    ({"pickup": "top"}, "set kluft=true"),
    ({"jokers": "false", "call_limit": "0"}, "can never be reached"),
])
def test_contradictory_combinations_are_refused(changes, match):
    with pytest.raises(SimcardsError, match=match):
        GAME.build_rules("israeli", changes)


def test_a_call_limit_no_hand_can_reach_is_refused_y_call_1_y_v_limit():
    # Without jokers a hand (at least one card) totals at least 1, unless a face is worth 0 (Y-V-NEP's
    # jack): call_limit=0 could never be called, and every round would end at the turn cap.
    assert GAME.build_rules("nepali", {"call_limit": "0"}).call_limit == 0  # J = 0
    assert GAME.build_rules("israeli", {"call_limit": "0"}).call_limit == 0  # a lone joker
    assert GAME.build_rules("israeli", {"jokers": "false", "call_limit": "0", "overcall": "true"}).overcall
    with pytest.raises(SimcardsError, match="at least 1"):
        GAME.build_rules("nepali", {"call_limit": "0", "face_values": "10,10,10"})


def test_every_option_is_settable_and_listed():
    values = {"overcall": "true", "requests": "yes", "slam": "on"}
    rules = GAME.build_rules("israeli", values)
    assert (rules.overcall, rules.requests, rules.slam) == (True, True, True)
    rules = GAME.build_rules("israeli", {"kluft": "true", "onderkluft_any": "true", "kluft_penalty": "20"})
    assert (rules.kluft, rules.onderkluft_any, rules.kluft_penalty) == (True, True, 20)
    assert parse_option(YanivRules, "kluft_penalty", "15") == 15
    options = {o.name: o for o in GAME.rule_options()}
    assert not any("not implemented" in o.help for o in options.values())
    assert {"overcall", "requests", "slam", "kluft", "kluft_penalty", "onderkluft_any"} <= set(options)
    assert set(GAME.presets()) == {"israeli", "israeli-anyset", "nepali", "nepali-jokers", "kluft", "adrian", "fast"}


@pytest.mark.parametrize("variant,column", [("kluft", "onderklufts"), ("adrian", "slams")])
def test_every_preset_simulates(variant, column):
    sim = simcards.simulate("yaniv", variant=variant, players=4, games=300, seed=5)
    assert sim.summary["capped_games"] == 0 and sim.summary["capped_rounds"] == 0
    assert column in sim.games.columns and sim.games[column].sum() > 0
    assert "overcalls" not in sim.games.columns or variant == "adrian"


def test_full_option_table_keeps_the_first_256_groups():
    """Requests can grow a hand to 10 cards; with two decks a hand may then have more legal groups
    than the option table holds. Both engines keep the first MAX_OPTIONS in the table order."""
    rules = ISRAELI.replace(decks=2)
    big = hand("5s 5s 5h 5h 5d 5d 5c 5c 6s 7s")
    full = ref.legal_groups(big, rules)
    assert len(full) > L.MAX_OPTIONS
    assert kernel_groups(big, rules) == full[: L.MAX_OPTIONS]


def test_build_rules_accepts_strings_for_new_options():
    assert build_rules("kluft", {"onderkluft_any": True}).onderkluft_any


def test_no_call_before_everyone_has_played_y_v_limit():
    # call_limit=none: nobody may call before every player has had a turn (on by default with none).
    # Seat 0 holds 47 and could call at once under no limit; it is first asked on turn 4 (its second).
    rules = ISRAELI.replace(call_limit=None)
    script = Script({K.K_CALL: [1]})
    _, (caller, turns, _, _, _) = stacked_round(rules, HANDS3, "3s", "8h 7d 6d 5d", script)
    assert [k for k, _ in script.kinds()] == [K.K_DISCARD, K.K_DRAW] * 3 + [K.K_CALL]
    assert (caller, turns) == (0, 3)
    # switched off: seat 0 may call on the very first turn (Y-CALL-1 with no limit)
    script = Script({K.K_CALL: [1]})
    _, (caller, turns, _, _, _) = stacked_round(rules.replace(no_call_before_full_turn=False), HANDS3, "3s", "8h",
                                                script)
    assert script.kinds() == [(K.K_CALL, 0)] and (caller, turns) == (0, 0)
