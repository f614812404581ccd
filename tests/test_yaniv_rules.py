"""Yaniv rule scenarios, one or more per rule ID of yaniv.md, with the hands written out.

Where a rule lives in a jitted helper and in the reference engine, both are checked on the same
scenario (``ENGINES``)."""

from __future__ import annotations

import numpy as np
import pytest

import simcards
from simcards.cards import card_code, parse_cards
from simcards.errors import SimcardsError
from simcards.games.yaniv import reference as ref
from simcards.games.yaniv.core import build_deck, next_seat, score_round, settle_round
from simcards.games.yaniv.game import GAME
from simcards.games.yaniv.rules import ISRAELI, PRESETS, YanivRules, build_rules, preset
from simcards.options import parse_option
from tests.yaniv_support import hand, kernel_available, kernel_groups

P = PRESETS


def codes(groups):
    return {" ".join(card_code(c) for c in g) for g in groups}


def both_groups(text, rules=ISRAELI):
    """Legal groups from both engines; they must agree exactly, order included."""
    h = hand(text)
    a = ref.legal_groups(h, rules)
    b = kernel_groups(h, rules)
    assert a == b
    return codes(a)


# ----- Section 1 -------------------------------------------------------------------------------------
def test_deck_has_54_cards_with_two_jokers_y_card_1():
    assert len(ref.deck(ISRAELI)) == 54
    assert ref.deck(ISRAELI).count(52) == 1 and ref.deck(ISRAELI).count(53) == 1
    arr = np.zeros(108, dtype=np.int64)
    assert build_deck(ISRAELI.encode(), arr) == 54


def test_card_values_y_card_2():
    # A=1, 7=7, J/Q/K=10, joker 0:  As 7d Jh Qc Ks Jk → 1 + 7 + 10 + 10 + 10 + 0 = 38
    cards = parse_cards("As 7d Jh Qc Ks Jk")
    assert [ref.value(c, ISRAELI) for c in cards] == [1, 7, 10, 10, 10, 0]
    assert ref.total(cards, ISRAELI) == 38
    vals = ISRAELI.encode()[32:86]
    assert [int(vals[c]) for c in cards] == [1, 7, 10, 10, 10, 0]


def test_two_decks_y_card_3():
    two = ISRAELI.replace(decks=2)
    assert len(ref.deck(two)) == 108
    arr = np.zeros(108, dtype=np.int64)
    assert build_deck(two.encode(), arr) == 108
    assert sorted(arr.tolist()) == sorted(ref.deck(two))


def test_player_count_limits_y_play_1():
    assert ISRAELI.max_players() == 10  # 54 - 5*10 = 4 left, 11 players would leave none
    assert ISRAELI.replace(decks=2).max_players() == 21
    assert preset("nepali").max_players() == 10  # 52 cards: 2 left for the stock
    for bad in (1, 11, 40):
        with pytest.raises(SimcardsError, match="allowed 2..10|needs 2..10"):
            ISRAELI.check_players(bad)
    ISRAELI.replace(decks=2).check_players(21)


def test_direction_of_play_y_play_2():
    alive = np.ones(5, dtype=np.bool_)
    alive[4] = False
    assert next_seat(3, alive, 5, False) == 0  # clockwise skips the eliminated seat 4
    assert next_seat(0, alive, 5, True) == 3  # counter-clockwise (Nepali) too
    game = ref.ReferenceGame(preset("nepali"), 5, [1] * 5, np.zeros((5, 8)), 0, 0, None)
    game.alive = list(alive)
    assert game.next_seat(0) == 3


# ----- Section 3 -------------------------------------------------------------------------------------
def test_singles_sets_and_runs_y_dis_1():
    # 5♠ 5♥ 9♦ 10♦ J♦: five singles, the pair of fives, the run 9-10-J of diamonds
    groups = both_groups("5s 5h 9d Td Jd")
    assert groups == {"5s", "5h", "9d", "Td", "Jd", "5s 5h", "9d Td Jd"}


def test_aces_are_low_only_y_dis_2():
    assert "As 2s 3s" in both_groups("As 2s 3s 9h 9c")
    assert not any(len(g.split()) == 3 for g in both_groups("Qs Ks As 4h 9c"))


def test_jokers_in_runs_y_dis_3():
    # 8♣ 9♣ Jk: the joker may be the 7 or the 10 — two runs, the discarder chooses (Y-DIS-5)
    groups = both_groups("8c 9c Jk 2h 5d")
    assert {"Jk 8c 9c", "8c 9c Jk"} <= groups
    # never below the Ace: A♠ 2♠ Jk can only be A-2-3
    groups = both_groups("As 2s Jk 9h 9d")
    assert "As 2s Jk" in groups and "Jk As 2s" not in groups
    # jokers never join a set of another rank; two jokers are a set of their own
    groups = both_groups("5s 5h Jk Jk 9c")
    assert "5s 5h Jk" not in groups and "Jk Jk" in groups
    assert "Jk Jk" not in both_groups("5s 5h Jk Jk 9c", ISRAELI.replace(joker_pair_set=False))
    # a run needs a natural card: one natural and two jokers is enough
    assert "5h Jk Jk" in both_groups("5h Jk Jk 9c Kd")


def test_one_group_per_turn_y_dis_4():
    groups = both_groups("5s 5h 5d 9c 9h")
    for g in groups:
        ranks = {c[0] for c in g.split()}
        assert len(ranks) == 1 or len(g.split()) >= 3  # never fives and nines together


def test_runs_are_laid_in_order_y_dis_5():
    for g in ref.legal_groups(hand("3h 4h 5h 6h Jk"), ISRAELI):
        if len(g) >= 3 and not ref.is_set(g):
            naturals = [(i, c % 13) for i, c in enumerate(g) if c < 52]
            start = naturals[0][1] - naturals[0][0]
            assert all(r == start + i for i, r in naturals)  # each card in its place, ascending


def test_set_layout_chooses_the_end_cards_y_dis_6():
    # 5♠ 5♥ 5♦: three ways to lay it (which five is protected in the middle) when only ends count
    layouts = [g for g in ref.legal_groups(hand("5s 5h 5d Kc 2c"), ISRAELI) if len(g) == 3]
    assert len(layouts) == 3
    assert {g[1] for g in layouts} == set(parse_cards("5s 5h 5d"))
    assert kernel_groups(hand("5s 5h 5d Kc 2c"), ISRAELI) == ref.legal_groups(hand("5s 5h 5d Kc 2c"), ISRAELI)
    # with any card of a set takeable (Y-V-PICK) one layout is enough
    anyset = preset("israeli-anyset")
    assert len([g for g in ref.legal_groups(hand("5s 5h 5d Kc 2c"), anyset) if len(g) == 3]) == 1


@pytest.mark.parametrize("available", [ref.available_cards, kernel_available], ids=["reference", "kernel"])
def test_available_cards_y_draw_2(available):
    rules = ISRAELI
    assert available(parse_cards("7c"), rules) == parse_cards("7c")
    assert available(parse_cards("4d 5d Jk 7d"), rules) == sorted(parse_cards("4d 7d"))
    assert available(parse_cards("Jk 8c 9c"), rules) == sorted(parse_cards("9c Jk"))
    # Y-V-PICK: any card of a set, but still only the ends of a run
    anyset = preset("israeli-anyset")
    assert available(parse_cards("5s 5h 5d"), anyset) == sorted(parse_cards("5s 5h 5d"))
    assert available(parse_cards("4d 5d 6d"), anyset) == sorted(parse_cards("4d 6d"))
    # Y-V-NEP: any card of the previous discard
    assert available(parse_cards("4d 5d 6d"), preset("nepali")) == sorted(parse_cards("4d 5d 6d"))


def test_draw_comes_from_previous_players_group_y_draw_1_y_draw_3():
    """Every turn discards first and then draws one card: the stock's top or an available card of
    the previous player's discard, never the player's own group."""
    events = []

    def check(event, state):
        events.append((event, state.get("seat")))
        if event == "draw" and state["face"] >= 0:
            assert state["card"] in state["available"]
            assert state["card"] not in state["extra"]  # one deck: the own group is never taken back

    from tests.yaniv_support import reference_game

    reference_game(ISRAELI, 3, ["threshold"], 5, 1, check)
    kinds = [e for e, _ in events if e in ("discard", "draw")]
    assert kinds[0::2] == ["discard"] * (len(kinds) // 2) and kinds[1::2] == ["draw"] * (len(kinds) // 2)


def test_reshuffle_keeps_last_discard_y_stock_1():
    """Two random players make long rounds: the stock runs out and the buried pile is reshuffled;
    the group just thrown stays face up, and every card is still accounted for."""
    from tests.yaniv_support import reference_game

    seen = []

    def check(event, state):
        if event == "reshuffle":
            seen.append(True)
            assert state["buried"] == []
            everything = sorted(sum(state["hands"].values(), []) + list(state["stock"]) + list(state["previous"]))
            assert everything == sorted(ref.deck(ISRAELI))
            assert len(state["previous"]) >= 1

    for game in range(10):
        reference_game(ISRAELI, 2, ["random"], 11, game, check)
        if seen:
            break
    assert seen, "no reshuffle happened in ten long random games"


# ----- Section 4 -------------------------------------------------------------------------------------
def _score(engine, totals, caller, rules):
    if engine == "reference":
        scored, asaf = ref.round_scores(totals, caller, rules)
        return [scored[p] for p in sorted(totals)], asaf
    players = len(totals)
    t = np.array([totals[p] for p in range(players)], dtype=np.int64)
    out = np.zeros(players, dtype=np.int64)
    asaf = score_round(caller, t, np.ones(players, dtype=np.bool_), players, rules.encode(), out)
    return out.tolist(), asaf


ENGINES = ["reference", "kernel"]


@pytest.mark.parametrize("engine", ENGINES)
def test_successful_call_y_sc_1(engine):
    # seat 0 calls with A♠ 2♦ (3); the others hold 7, 12 and 4: the caller scores 0
    assert _score(engine, {0: 3, 1: 7, 2: 12, 3: 4}, 0, ISRAELI) == ([0, 7, 12, 4], False)


@pytest.mark.parametrize("engine", ENGINES)
def test_asaf_y_sc_2(engine):
    # seat 3 calls with 5; seat 0 holds 3: Asaf — the caller adds 5 + 30, everyone else their hand
    assert _score(engine, {0: 3, 1: 7, 2: 12, 3: 5}, 3, ISRAELI) == ([3, 7, 12, 35], True)
    # an equal total is enough for Asaf
    assert _score(engine, {0: 5, 1: 9, 2: 5}, 0, ISRAELI) == ([35, 9, 5], True)
    # Nepali: failed call +25 and the others score nothing (Y-V-NEP)
    assert _score(engine, {0: 5, 1: 9, 2: 4}, 0, preset("nepali")) == ([30, 0, 0], True)


@pytest.mark.parametrize("engine", ENGINES)
def test_alternative_failed_call_scoring_y_v_altsc(engine):
    rules = ISRAELI.replace(failed_call_others="higher_only")
    # seat 1 calls with 5; seat 0 has 3 (lower: 0), seat 2 has 5 (equal: 0), seat 3 has 8 (adds 8)
    assert _score(engine, {0: 3, 1: 5, 2: 5, 3: 8}, 1, rules) == ([0, 35, 0, 8], True)


def _settle(engine, scores, scored, rules, playoff=False, zeros=None, alive=None):
    players = len(scores)
    alive = [True] * players if alive is None else list(alive)
    zeros = [0] * players if zeros is None else list(zeros)
    if engine == "reference":
        s = list(scores)
        playoff, eliminated, _ = ref.settle_round(s, {p: v for p, v in enumerate(scored) if alive[p]}, zeros, alive,
                                                  rules, playoff)
        return s, sorted(eliminated), playoff, zeros
    s = np.array(scores, dtype=np.int64)
    a = np.array(alive, dtype=np.bool_)
    z = np.array(zeros, dtype=np.int64)
    n_alive, playoff, mask = settle_round(s, np.array(scored, dtype=np.int64), a, z, players, int(a.sum()),
                                          playoff, rules.encode())
    return s.tolist(), [p for p in range(players) if mask >> p & 1], playoff, z.tolist()


@pytest.mark.parametrize("engine", ENGINES)
def test_scores_accumulate_y_sc_3(engine):
    assert _settle(engine, [10, 20, 30], [5, 0, 7], ISRAELI)[0] == [15, 20, 37]


@pytest.mark.parametrize("engine", ENGINES)
def test_elimination_strictly_over_the_limit_y_elim_1(engine):
    scores, out, playoff, _ = _settle(engine, [190, 195, 150], [11, 4, 20], ISRAELI)
    assert scores == [201, 199, 170] and out == [0] and not playoff
    # Nepali: out only over 100; exactly 100 stays (and no resets)
    scores, out, _, _ = _settle(engine, [90, 95, 10], [10, 6, 3], preset("nepali"))
    assert scores == [100, 101, 13] and out == [1]


@pytest.mark.parametrize("engine", ENGINES)
def test_resets_y_reset_1(engine):
    # 180 + 20 = 200 → 100; 80 + 20 = 100 → 50; only one reset: 150 + 50 = 200 → 100, not on to 50
    scores, out, _, _ = _settle(engine, [180, 80, 150], [20, 20, 50], ISRAELI)
    assert scores == [100, 50, 100] and out == []


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("scheme,expected", [
    ("standard", [100, 50, 150, 50]),   # (a) 200→100, 100→50
    ("200to150", [150, 50, 150, 50]),   # (b) 200→150, 100→50
    ("fifties", [50, 50, 50, 50]),      # (c) any multiple of 50 → 50
    ("halve", [100, 50, 75, 50]),       # (d) 100, 150, 200 halved
    ("none", [200, 100, 150, 50]),      # (e) none
])
def test_reset_schemes_y_v_reset(engine, scheme, expected):
    rules = ISRAELI.replace(resets=scheme)
    assert _settle(engine, [190, 90, 140, 40], [10, 10, 10, 10], rules)[0] == expected


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("scheme", ["standard", "200to150", "fifties", "halve"])
def test_no_reset_over_the_limit_y_v_reset_decision(engine, scheme):
    # Y-V-RESET's Decision: a score over out_over is never reset. Under fifties at the default limit
    # 200, 191 + 59 = 250 and 190 + 110 = 300 are out (not back to 50); 150 + 50 = 200 is at the
    # limit and resets under every scheme that has 200 in it.
    rules = ISRAELI.replace(resets=scheme)
    scores, out, _, _ = _settle(engine, [191, 190, 150, 0], [59, 110, 50, 3], rules)
    assert scores[:2] == [250, 300] and out == [0, 1]
    assert scores[2] == {"standard": 100, "200to150": 150, "fifties": 50, "halve": 100}[scheme]
    # with a higher limit, (c) covers every multiple of 50 up to it
    high = ISRAELI.replace(resets="fifties", out_over=300)
    assert _settle(engine, [191, 190, 0], [59, 160, 3], high)[0] == [50, 350, 3]


@pytest.mark.parametrize("engine", ENGINES)
def test_double_bust_y_elim_2(engine):
    # 198 and 168; the 168 player calls with 3 and the other also has 3: Asaf → 168+3+30 = 201 and
    # 198+3 = 201. Both are over together and tied: a play-off between them.
    scored, asaf = _score(engine, {0: 3, 1: 3}, 1, ISRAELI)
    assert asaf and scored == [3, 33]
    scores, out, playoff, _ = _settle(engine, [198, 168], scored, ISRAELI)
    assert scores == [201, 201] and out == [] and playoff
    # in the play-off the lower total wins (201 beats 202), with no resets or eliminations by score
    scores, out, playoff, _ = _settle(engine, [201, 201], [1, 0], ISRAELI, playoff=True)
    assert scores == [202, 201] and out == [0]
    # and a three-way bust with one lowest is decided at once
    scores, out, playoff, _ = _settle(engine, [195, 190, 199], [10, 12, 5], ISRAELI)
    assert scores == [205, 202, 204] and out == [0, 2]


def test_simultaneous_bust_round_is_not_a_play_off_round_y_elim_2():
    # Game 178: round 20 puts everyone still in over 200 at once and the lowest total wins at once;
    # no play-off round follows, so no round of that game is flagged.
    sim = simcards.simulate("yaniv", players=4, games=200, seed=1000, strategies=["threshold"])
    game = sim.rounds[sim.rounds["game"] == 178]
    last = game.iloc[-1]
    assert last["round"] == 20 and (last[[f"score_{p}" for p in range(4)]] > 200).sum() >= 2
    assert not game["playoff"].any() and sim.games.loc[178, "playoff_rounds"] == 0


PLAYOFF_CASES = [
    ("israeli", 2, ["threshold"], {}),
    ("israeli", 3, ["random", "threshold", "random"], {}),
    ("nepali", 3, ["threshold", "random", "threshold"], {}),
    ("kluft", 3, ["random"], {}),
    ("adrian", 3, ["random"], {}),
    ("adrian", 2, ["random", "threshold"], {}),
    ("adrian", 3, ["random"], {"out_over": 30}),  # short games: many busts together, some tied
]


def test_playoff_flags_only_the_play_off_rounds_y_elim_2():
    """Y-ELIM-2: a round is flagged ``playoff`` exactly when it is an extra round among tied
    players: as many flags as ``playoff_rounds`` in every game, the last rounds of their game, each
    play-off following a round that left everyone still in over the limit. Rounds that put everyone
    over at once but leave one lowest end the game unflagged."""
    playoffs = busts = 0
    for variant, players, strategies, rules in PLAYOFF_CASES:
        sim = simcards.simulate("yaniv", variant=variant, players=players, games=300, seed=31,
                                strategies=strategies, rules=rules or None)
        rounds, games = sim.rounds, sim.games.set_index("game")
        flagged = rounds.groupby("game")["playoff"].sum()
        assert (flagged == games["playoff_rounds"].reindex(flagged.index)).all(), (variant, strategies, rules)
        out_over = GAME.build_rules(variant, rules).out_over
        scores = rounds[[f"score_{p}" for p in range(players)]].to_numpy()
        for g, rows in rounds.groupby("game"):
            n = int(games.loc[g, "playoff_rounds"])
            bust = rows.index[-n - 1]  # the last round played by the usual rules
            before = scores[rows.index[-n - 2]] if len(rows) > n + 1 else np.zeros(players)
            still_in = [p for p in range(players) if before[p] <= out_over]
            together = len(still_in) > 1 and all(scores[bust][p] > out_over for p in still_in)
            assert not rows["playoff"].iloc[:len(rows) - n].any()
            if n:
                assert rows["playoff"].iloc[-n:].all() and together
            playoffs += n
            busts += together and n == 0
    assert playoffs > 0 and busts > 0  # both kinds of round occur in the sample


@pytest.mark.parametrize("engine", ENGINES)
def test_three_zero_rounds_bonus_y_v_three(engine):
    rules = ISRAELI.replace(three_zero_bonus=True)
    # seat 0 scores its third 0-round: 20 off (never below 0)
    scores, _, _, zeros = _settle(engine, [50, 15, 30], [0, 0, 4], rules, zeros=[2, 2, 0])
    assert scores == [30, 0, 34] and zeros == [3, 3, 0]
    # the sixth zero-round triggers again, unless three_zero_once
    assert _settle(engine, [50, 15, 30], [0, 9, 9], rules, zeros=[5, 0, 0])[0][0] == 30
    assert _settle(engine, [50, 15, 30], [0, 9, 9], rules.replace(three_zero_once=True), zeros=[5, 0, 0])[0][0] == 50
    # with two players left, zero-rounds neither count nor trigger
    scores, _, _, zeros = _settle(engine, [50, 15, 30], [0, 4, 0], rules, zeros=[2, 0, 0], alive=[True, True, False])
    assert scores[0] == 50 and zeros[0] == 2


def test_next_starter_y_start_2():
    # totals 7, 3, 3, 9 after seat 2 called with 3: seats 1 and 2 tie; counting from seat 3 the
    # first tied seat is 1 (the caller comes last)
    alive = [True] * 4
    assert ref.next_starter({0: 7, 1: 3, 2: 3, 3: 9}, alive, 2, ISRAELI) == 1
    # seat 1 called with 4 and seat 3 also holds 4: seat 3 starts
    assert ref.next_starter({0: 8, 1: 4, 2: 6, 3: 4}, alive, 1, ISRAELI) == 3
    # only players still in the game count
    assert ref.next_starter({0: 1, 1: 4, 2: 6, 3: 4}, [False, True, True, True], 1, ISRAELI) == 3


def test_call_limit_options_y_v_limit():
    assert build_rules("israeli", {"call_limit": 7}).call_limit == 7
    assert parse_option(YanivRules, "call_limit", "none") is None
    assert ISRAELI.replace(call_limit=None).full_turn_before_call  # on by default with no limit
    assert not ISRAELI.full_turn_before_call
    with pytest.raises(SimcardsError, match="call_limit"):
        build_rules("israeli", {"call_limit": -1})


def test_presets_y_v_nep_and_pick():
    nep = preset("nepali")
    assert (nep.jokers, nep.face_values, nep.pickup, nep.asaf_penalty, nep.failed_call_others, nep.out_over,
            nep.resets, nep.direction) == (False, (0, 10, 10), "any", 25, "zero", 100, "none", "counterclockwise")
    assert ref.value(parse_cards("Jh")[0], nep) == 0
    nj = preset("nepali-jokers")
    assert [ref.value(c, nj) for c in parse_cards("Jh Qh Kh Jk")] == [11, 12, 13, 0]
    assert preset("israeli-anyset").pickup == "any_set"
    assert preset("fast").call_limit == 7


@pytest.mark.parametrize("option,rule", [("overcall", "Y-V-OVERCALL"), ("requests", "Y-V-REQ"),
                                         ("slam", "Y-V-SLAM"), ("kluft", "Y-V-KLUFT")])
def test_section_5_options_are_implemented_y_v_overcall_y_v_req_y_v_slam_y_v_kluft(option, rule):
    """Every section-5 option builds and validates on its own (scenarios: test_yaniv_variants.py)."""
    rules = build_rules("israeli", {option: True})
    assert getattr(rules, option) is True, rule


def test_invalid_options_are_refused():
    for bad in ({"decks": 3}, {"pickup": "middle"}, {"resets": "sometimes"}, {"out_over": 0},
                {"three_zero_once": True}, {"face_values": (10, 10)}):
        with pytest.raises(SimcardsError):
            build_rules("israeli", bad)
    with pytest.raises(SimcardsError, match="unknown Yaniv rule option"):
        parse_option(YanivRules, "colour", "red")
    with pytest.raises(SimcardsError, match="unknown Yaniv variant"):
        preset("klaverjas")


def test_deal_five_each_and_one_face_up_y_deal_1_y_deal_2():
    """Five cards to every player, the next card face up as the previous discard, the rest stock."""
    from tests.yaniv_support import reference_game

    deals = []

    def check(event, state):
        if event == "deal":  # the state is live: keep a snapshot
            deals.append({"hands": {p: list(h) for p, h in state["hands"].items()},
                          "previous": list(state["previous"]), "buried": list(state["buried"]),
                          "stock": list(state["stock"])})

    reference_game(ISRAELI, 4, ["threshold"], 3, 0, check)
    first = deals[0]
    assert [len(h) for h in first["hands"].values()] == [5, 5, 5, 5]
    assert len(first["previous"]) == 1 and first["buried"] == []
    assert len(first["stock"]) == 54 - 4 * 5 - 1


def test_a_turn_is_a_call_or_a_discard_then_a_draw_y_turn_1_y_call_2():
    """In the kernel's transcript every turn is either a call (which ends the round at once) or one
    discard followed by one draw; a call decision only ever comes first in a turn."""
    from simcards.games.yaniv.kernel import EV_CALL, EV_DISCARD, EV_DRAW, EV_SCORE
    from tests.yaniv_support import kernel_game

    log = kernel_game(ISRAELI, 3, ["threshold", "random", "threshold:call=3"], 17, 2)[0]
    events = [(int(e[0]), int(e[2]), int(e[4])) for e in log]
    for i, (ev, seat, b) in enumerate(events):
        if ev == EV_CALL:
            nxt = events[i + 1]
            if b == 1:  # called: the round is scored next, nobody discards or draws
                assert nxt[0] == EV_SCORE
            else:  # declined: the same player discards
                assert nxt[:2] == (EV_DISCARD, seat)
        if ev == EV_DISCARD:
            assert events[i + 1][:2] == (EV_DRAW, seat)
            assert events[i - 1][0] != EV_DRAW or events[i - 1][1] != seat  # never call/discard after own draw
