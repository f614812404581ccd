"""``simcards advise two-hundred``: positions by hand (the compact text, JSON), built as the engine
builds the view it hands a strategy, and impossible ones refused in one line; the auction, the
bury and the trump valued by rollouts that complete the deal (T-BID-1..5, T-V-KITTY, T-TRUMP-1),
scored as the rules score a deal (T-SC-1/2, T-CARD-2), without reading a hidden card; a planted
overbid marked a blunder."""

from __future__ import annotations

import json

import numpy as np
import pytest

from simcards.cards import card_code
from simcards.cli.app import main
from simcards.games.two_hundred import layout as L
from simcards.games.two_hundred.position import position_args
from simcards.games.two_hundred.reference import ReferenceGame, deck
from simcards.rng import new_state
from simcards.spec import RunSpec
from simcards.table import start
from simcards.table.advise import advise, evaluate, game_advice, mc_params
from simcards.table.analyze import analyze
from simcards.table.games import adapter as adapter_of

HAND = "s:AQ h:A9 d:A85 c:J9"  # seat 0's hand in deal 1 of seed 1 (simcards replay two-hundred --seed 1)


def rules_of(variant: str = "standard"):
    return RunSpec.resolve("two-hundred", variant=variant).rules


def position_from_table(t, seat: int = 0) -> dict:
    """The pending decision's position as a player would type it from what the table showed it
    (``Table.log``: every move of this deal as the others saw it, its own buried cards): its
    hand, the auction, the trump, the cards it buried, the tricks, the scores."""
    rules, view = t.spec.rules, t.view
    auction: list[str] = []
    tricks: list[list[str]] = []
    buried: list[str] = []
    trump = ""
    for move, _ in t.log():
        if move is None:  # a deal's end (the table's public line): the next deal starts
            auction, tricks, buried, trump = [], [], [], ""
            continue
        word, _, rest = move.label.partition(" ")
        if move.kind == "bid":
            auction.append(f"seat {move.seat} {move.label.removeprefix('bid ')}")
        elif move.kind == "trump":
            trump = move.label
        elif move.kind == "bury" and move.seat == seat:
            buried.append(rest)
        elif move.kind == "play":
            if not tricks or len(tricks[-1]) == rules.seats:
                tricks.append([])
            tricks[-1].append(rest)
    mine = rules.side_of(seat)
    scores = [view["scores"][mine]] + [view["scores"][x] for x in range(rules.sides) if x != mine]
    pos = {"hand": " ".join(card_code(c) for c in view["hand"]), "seat": str(seat), "dealer": str(view["dealer"]),
           "auction": ", ".join(auction), "score": " ".join(map(str, scores))}
    if trump:
        pos["trump"] = trump
    if buried:
        pos["buried"] = " ".join(buried)
    if tricks:
        pos["tricks"] = " | ".join(" ".join(x) for x in tricks)
    return pos


@pytest.mark.parametrize("variant,seed", [("standard", 1), ("kitty", 2), ("le-rough", 2), ("cutthroat", 1)])
def test_a_position_by_hand_is_the_view_the_engine_hands_the_seat(variant, seed):
    """T-BID-1..4 (the auction in turn from the dealer's left), T-V-KITTY / T-V-ROUGH (the kitty
    taken and buried card by card, no trump), T-LEAD-1 and T-PLAY-1..3 (who leads each trick, the
    voids shown, the points taken): at every decision of seat 0 in a whole game, the position typed
    from what the seat saw gives the engine's own arguments — the view array slot for slot, the
    hand, the options and their labels."""
    t = start("two-hundred", variant=variant, seed=seed, against="heuristic", seats=0)
    kinds = set()
    try:
        while not t.done:
            args = t.decision.args
            mine, labels = position_args(position_from_table(t), t.spec.rules, t.spec.players)
            theirs, ours = np.array(args[6]), mine[6].copy()
            theirs[L.V_DEAL] = ours[L.V_DEAL] = 0  # the deal's number is not part of a position
            assert int(args[0]) == mine[0] and int(args[3]) == int(mine[3]), t.kind
            assert list(np.asarray(args[4])[: int(args[5])]) == list(mine[4][: mine[5]])
            assert np.array_equal(theirs, ours), (t.kind, np.nonzero(theirs != ours))
            assert labels == [o.label for o in t.options]
            kinds.add(t.kind)
            t.apply(t.choose("heuristic"))
    finally:
        t.close()
    assert {"bid", "trump", "play"} <= kinds and ("bury" in kinds) == (variant != "standard" and variant != "cutthroat")


@pytest.mark.parametrize("position,words", [
    (f"hand {HAND} Ah", "Ah is given twice"),
    ("hand s:AQ2 h:A9 d:A85 c:J9", "2s is not in the 36-card deck (T-CARD-1)"),
    ("hand s:AQ h:A9 d:A85 c:J", "hand: 8 cards; in the auction you hold 9"),
    (f"hand {HAND}; auction 55", "seat 1 bids next, not you (seat 0)"),  # the dealer is seat 3: seat 0 first
    (f"hand {HAND}; dealer 2; auction 45", "the legal bids are 50 to 100 by 5 (T-BID-2)"),
    (f"hand {HAND}; dealer 2; auction 50 55 pass 60 pass seat 1 65", "seat 0 speaks next, not seat 1"),  # T-BID-3
    (f"hand {HAND}; dealer 2; auction 50 pass pass pass pass", "nothing more is bid"),  # T-BID-4
    (f"hand {HAND}; dealer 0; auction pass pass pass pass", "thrown in (T-BID-5)"),
    (f"hand {HAND}; dealer 1; auction pass", "seat 3 bids next, not you"),
    (f"hand {HAND}; trump d", "named after the auction"),
    (f"hand {HAND}; dealer 1; auction 50 pass pass pass", "seat 2 holds the contract"),
    ("hand s:Q h:A9 d:85 c:J; auction 50 pass pass pass; trump d; tricks Ad 7d 9d Kd | As 8c Ts Ks | 9c 5s",
     "seat 1 plays 5s in trick 3 but showed it held no spades in trick 2 (T-PLAY-1)"),
    ("hand s:AQ h:A9 d:A8 c:J; auction 50 pass pass pass; trump d; tricks 5d 7d Kd Td | 7h 8h 9c",
     "you played 9c to a hearts lead in trick 2 while holding hearts (T-PLAY-1)"),
    ("hand s:Q h:A9 d:85 c:J; auction 50 pass pass pass; trump d; tricks Ad 7d 9d Kd | As 7s Ts Ks",
     "hand: 6 cards; at this trick you hold 7"),
    (f"hand {HAND}; auction 50 pass pass pass; trump d; tricks Ad", "Ad is given twice (hand and tricks)"),
    (f"hand {HAND}; buried 6s", "6s is not in the 36-card deck"),
    (f"hand {HAND}; score 200-0", "below the target 200 (T-END-1/2)"),
    (f"hand {HAND}; decision play", "this position is at a bid decision"),
    (f"hand {HAND}; colour red", "not a position key"),
])
def test_an_impossible_position_is_refused_in_one_line(position, words, capsys):
    assert main(["advise", "two-hundred", position, "--samples", "5"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error:") and words in err, err


def test_the_kitty_positions_bury_then_trump_then_play():
    """T-V-KITTY: the contractor holds its nine cards and the kitty's four, buries four (one
    decision each), then names trump; in the play its buried cards are its own knowledge (the
    view's own-seen cards), and without them the position is refused."""
    rules = rules_of("kitty")
    hand = "s:AKQ6 h:AT9 d:K c:A8 s:5 h:6 c:7"  # 13 cards: 9 dealt and the kitty's 4
    args, labels = position_args({"hand": hand, "auction": "60 pass pass pass"}, rules, 4)
    assert args[0] == L.K_DISCARD and len(labels) == 13 and labels[0].startswith("bury ")
    args, labels = position_args({"hand": hand.replace(" c:7", ""), "auction": "60 pass pass pass",
                                  "buried": "7c"}, rules, 4)
    assert args[0] == L.K_DISCARD and len(labels) == 12 and int(args[6][L.V_OWN_SEEN]) != 0
    nine = "s:AKQ6 h:AT9 d:K c:A"
    args, labels = position_args({"hand": nine, "auction": "60 pass pass pass", "buried": "8c 5s 6h 7c"}, rules, 4)
    assert args[0] == L.K_TRUMP and labels == ["spades trump", "hearts trump", "diamonds trump", "clubs trump"]
    from simcards.errors import SimcardsError

    with pytest.raises(SimcardsError, match="give them all"):
        position_args({"hand": nine, "auction": "60 pass pass pass", "trump": "s"}, rules, 4)


def _values(position: dict, variant: str = "standard", samples: int = 300):
    rules = rules_of(variant)
    args, _ = position_args(position, rules, 4)
    return args, game_advice("two-hundred").values(args, mc_params("two-hundred", rules), samples, new_state(7, 1))


@pytest.mark.parametrize("variant,position", [
    ("standard", {"hand": HAND}),
    ("standard", {"hand": HAND, "dealer": "1", "auction": "50 55"}),
    ("standard", {"hand": HAND, "auction": "50 pass pass pass"}),
    ("kitty", {"hand": "s:AKQ6 h:AT9 d:K c:A8 s:5 h:6 c:7", "auction": "60 pass pass pass"}),
    ("cutthroat", {"hand": HAND}),
])
def test_every_sampled_deal_is_scored_as_the_rules_score_it(variant, position):
    """T-SC-1/2 and T-CARD-2 on every sampled deal of a bid, bury or trump decision: nobody scores
    in a deal thrown in (T-BID-5); otherwise a made contract scores the points taken, the other
    side the rest of the 100 (the kitty's points to the defenders, T-V-KITTY), and a failed one
    minus the bid, a bid it did not reach; the margin is the two sides' difference (two sides)."""
    rules = rules_of(variant)
    _, vals = _values(position, variant)
    assert vals is not None and vals.deal is not None
    deal, pts = vals.deal, vals.points
    for s in range(deal.shape[0]):
        for a in range(deal.shape[1]):
            mine, theirs, contract = (int(x) for x in deal[s, a, :3])
            # every side's deal score and the contract side (columns 3..: the score process's)
            side, every = int(deal[s, a, 3]), deal[s, a, 4:4 + rules.sides]
            assert every[0] == mine and (side == 0) == (contract == 1)  # seat 0 is side 0
            if contract < 0:
                assert mine == theirs == 0 and pts[s, a] == 0.0 and side == -1 and not every.any()
                continue
            if every[side] > 0:  # made: the sides share the deck's 100 points (T-CARD-2)
                assert every.sum() == 100, every
            c, d = (mine, theirs) if contract == 1 else (theirs, mine)
            if rules.sides == 2:
                made = c >= rules.min_bid and c + d == 100
                failed = -c >= rules.min_bid and -c % rules.bid_step == 0 and 100 - d < -c
                assert made or failed, (c, d)
                assert pts[s, a] == mine - theirs
    if "auction" not in position and variant == "standard":  # passing first: some deals are thrown in
        assert (deal[:, 0, 2] == -1).any() and (deal[:, 0, 2] >= 0).any()


def test_the_evaluation_reads_no_hidden_card():
    """No peeking: two deals in which seat 0 holds the same cards (and takes the same kitty) but
    the other seats' hands differ give the seat the same view, and the advice on its bid, its
    bury, its trump and its first card is the same, number for number."""
    rng = np.random.default_rng(5)
    for variant in ("standard", "kitty"):
        rules = rules_of(variant)
        cards = deck(rules.deck)
        rng.shuffle(cards)
        each = (rules.deck - rules.kitty) // 4
        mine, kitty, rest = cards[:each], cards[each: each + rules.kitty], cards[each + rules.kitty:]
        other = list(rest)
        rng.shuffle(other)
        seen: list[dict] = []
        for others in (rest, other):
            deal = {0: mine, **{p: others[(p - 1) * each: p * each] for p in (1, 2, 3)}}
            if rules.kitty:
                deal["kitty"] = kitty
            captured: dict[int, tuple] = {}

            def decide(kind, sid, table, hand, opts, n_opts, view, rules_arr, stream, captured=captured):
                seat = int(view[L.V_SEAT])
                if seat == 0 and kind not in captured:
                    captured[kind] = tuple(np.array(x, copy=True) if isinstance(x, np.ndarray) else x
                                           for x in (kind, sid, table, hand, opts, n_opts, view, rules_arr, stream))
                if kind == L.K_BID:
                    return 1 if seat == 0 and int(view[L.V_BID]) == 0 else 0  # seat 0 bids the minimum, all pass
                return 0

            game = ReferenceGame(rules, np.zeros(4, dtype=np.int64), np.zeros((4, 8)), 0, 0, decide,
                                 stacked=[deal], first_dealer=3, max_deals=1)
            game.play()
            seen.append(captured)
        a, b = seen
        assert a.keys() == b.keys() and {L.K_BID, L.K_TRUMP, L.K_PLAY} <= set(a)
        adapter = adapter_of("two-hundred")(rules, 4)
        for kind, args in a.items():
            assert np.array_equal(args[6], b[kind][6]) and int(args[3]) == int(b[kind][3])
            labels = [adapter.label(kind, (int(x),), args) for x in args[4][: int(args[5])]]
            one = evaluate("two-hundred", rules, args, labels, samples=200, seed=3).as_dict()
            two = evaluate("two-hundred", rules, b[kind], labels, samples=200, seed=3).as_dict()
            assert one == two, (variant, kind)


def test_the_bid_advice_is_reproducible_and_its_seed_matters():
    one = advise("two-hundred", f"hand {HAND}; dealer 3", samples=200, seed=1)
    two = advise("two-hundred", {"hand": HAND, "dealer": "3"}, samples=200, seed=1)
    other = advise("two-hundred", f"hand {HAND}; dealer 3", samples=200, seed=2)
    assert one.as_dict() == two.as_dict() and one.as_dict() != other.as_dict()
    assert one.kind == "bid" and [o.label for o in one.options][:3] == ["pass", "bid 50", "bid 55"]
    assert one.ranked()[-1].label == "bid 100" and one.wins is not None


def test_a_dealer_barred_from_bidding_has_only_the_pass(capsys):
    """T-V-ROUGH: when the first three pass, the dealer may not bid: its only option is the pass,
    and the deal is thrown in (T-BID-5) in every sampled deal: nothing scored, the margin 0."""
    rules = rules_of("le-rough")
    args, labels = position_args({"hand": "s:AKQJ h:AK d:A c:A", "dealer": "0", "auction": "pass pass pass"},
                                 rules, 4)
    assert labels == ["pass"]
    adv = advise("two-hundred", "hand s:AKQJ h:AK d:A c:A; dealer 0; auction pass pass pass",
                 variant="le-rough", samples=50)
    assert adv.options[0].points == 0.0 and adv.options[0].points_ci == (0.0, 0.0)


def test_a_planted_overbid_is_marked_a_blunder():
    """T-SC-2: bidding 100 on a hand worth about 50 fails and scores minus the bid: in game 0 of
    seed 1, seat 0's first decision (its opening bid of 50) played as 100 gives away more than 8
    points of win chance, a blunder (??); the heuristic's own 50 is not marked."""
    played = analyze("two-hundred", seed=1, game_index=0, samples=200)
    planted = analyze("two-hundred", seed=1, game_index=0, samples=200, plays={1: "bid 100"})
    own, bad = played.decisions[0], planted.decisions[0]
    assert own.kind == bad.kind == "bid" and own.played_label == "bid 50" and bad.played_label == "bid 100"
    assert bad.advice is not None and bad.advice.wins is not None
    assert bad.mark == "??" and bad.win_lost >= 0.08 and bad.win_lost_ci[0] > 0, (bad.win_lost, bad.win_lost_ci)
    assert own.mark == ""
    assert planted.costliest(1)[0].number == 1


def test_the_command_reads_text_and_json(tmp_path, capsys):
    pos = {"hand": ["As", "Qs", "Ah", "9h", "Ad", "8d", "5d", "Jc", "9c"], "dealer": 3, "auction": "50 pass pass pass",
           "score": "-40-15"}
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos))
    assert main(["advise", "two-hundred", "--json", str(f), "--samples", "100", "--json-out"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decision"] == "trump" and data["scores"] == [-40, 15] and len(data["options"]) == 4
    assert main(["advise", "two-hundred", "hand s:AQ h:A9 d:A85 c:J9; auction 50 pass pass pass; trump diamonds; "
                 "tricks Ad 7d 9d Kd | As 7s Ts Ks", "--samples", "100"]) == 2  # the Ad and As were played
    capsys.readouterr()
    assert main(["advise", "two-hundred", "hand s:Q h:A9 d:85 c:J9; auction 50 pass pass pass; trump diamonds; "
                 "tricks Ad 7d 9d Kd | As 7s Ts Ks", "--samples", "100"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("play decision of seat 0; score 0-0") and "play 8d" in text and "win game" in text


def test_the_auction_so_far_weighs_the_sampled_hands():
    """T-BID-1..4 read off the view: the auction in turn from the dealer's left (each seat's one
    bid at its first turn; a seat that raised twice reads two ways and leaves the hands
    unweighed), and a sampled deal fits it when the rollout policy holding those hands would
    have bid and passed as the other seats did: a partner who opened 50 holds a strong hand, an
    opponent who passed a weak one."""
    from simcards.cards import parse_cards
    from simcards.games.two_hundred.advice import _misfits, auction_history
    from simcards.games.two_hundred.reference import hand_mask

    rules = rules_of()
    enc = rules.encode()
    view_of = lambda **pos: position_args({"hand": HAND, **pos}, rules, 4)[0][6]  # noqa: E731
    assert auction_history(view_of(), enc) == []
    assert auction_history(view_of(auction="50 pass pass pass"), enc) == [(0, 50), (1, 0), (2, 0), (3, 0)]
    assert auction_history(view_of(dealer="0", auction="pass 50 pass 55 pass"), enc) == \
        [(1, 0), (2, 50), (3, 0), (0, 55), (2, 0)]
    assert auction_history(view_of(auction="50 55 pass pass 60 pass"), enc) is None  # seat 0 raised twice

    view = view_of(dealer="1", auction="50 pass")  # the partner (seat 2) opened 50, seat 3 passed
    history = np.array(auction_history(view, enc), dtype=np.int64)
    table = np.tile(mc_params("two-hundred", rules), (L.MAX_SEATS, 1))
    strong, weak = "Ks Js Ts 9s 8s 7s 5s Ac Tc", "7h 8h Jh 7d 9d Jd 7c 8c Qc"
    middle = "Kh Qh Th 9h 8h Kd Qd Td Kc"
    mine = "As Qs Ah 9h Ad 8d 5d Jc 9c"  # HAND

    def hands(two: str, three: str) -> np.ndarray:
        return np.array([hand_mask(parse_cards(h)) for h in (mine, middle, two, three)] + [0, 0], dtype=np.int64)

    sim, opts = np.empty_like(view), np.zeros(L.MAX_OPTIONS, dtype=np.int64)
    assert _misfits(table, hands(strong, weak), view, enc, 0, history, sim, opts) == 0
    assert _misfits(table, hands(weak, strong), view, enc, 0, history, sim, opts) == 2
