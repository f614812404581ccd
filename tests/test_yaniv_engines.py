"""Two engines, one truth: the reference engine and the numba kernel play the same games move for
move, and every game keeps the invariants of yaniv.md section 7 (checked with hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from simcards.errors import SimcardsError
from simcards.games.yaniv import layout as L
from simcards.games.yaniv import reference as ref
from simcards.games.yaniv.rules import ISRAELI, PRESETS, YanivRules, preset
from tests.yaniv_support import kernel_game, kernel_groups, reference_game

# (variant, players, decks, strategies, games): every preset, ~1,300 whole games (~14,000 rounds)
# over the grid. The Python reference plays ~12 games/s on this machine, which sets the size.
GRID = [
    ("israeli", 4, 1, ["threshold"], 150),
    ("israeli", 2, 1, ["random"], 50),
    ("israeli", 3, 1, ["threshold", "random", "threshold:call=3,keep=0"], 100),
    ("israeli", 6, 2, ["threshold"], 50),
    ("israeli", 10, 1, ["threshold:call=7"], 30),
    ("israeli-anyset", 5, 1, ["threshold"], 60),
    ("nepali", 3, 1, ["threshold"], 80),
    ("nepali-jokers", 4, 1, ["threshold:keep=1"], 60),
    ("fast", 4, 2, ["threshold", "random", "threshold", "random"], 50),
    ("israeli", 2, 2, ["threshold"], 60),
    ("kluft", 4, 1, ["threshold"], 150),
    ("kluft", 3, 1, ["threshold:onder=6,onder_history=10,top=5", "random", "threshold"], 80),
    ("kluft", 2, 1, ["threshold", "random"], 40),
    ("adrian", 4, 1, ["threshold"], 100),
    ("adrian", 3, 1, ["threshold:request=6,refuse=4,slam=2", "random", "threshold:group=0,slam=0"], 80),
    ("adrian", 2, 1, ["random", "threshold:request=13"], 40),
    ("adrian", 5, 2, ["threshold:request=3,group=8", "random", "threshold", "random", "threshold"], 40),
]
PRESETS_COVERED = {v for v, *_ in GRID}


def _compare(rules: YanivRules, players: int, specs, seed: int, game: int):
    klog, out, rounds = kernel_game(rules, players, specs, seed, game)
    record = reference_game(rules, players, specs, seed, game)
    rlog = record.log_array()
    if klog.shape != rlog.shape or not np.array_equal(klog, rlog):
        m = min(len(klog), len(rlog))
        diff = np.flatnonzero((klog[:m] != rlog[:m]).any(axis=1))
        at = int(diff[0]) if len(diff) else m
        pytest.fail(f"{rules.name} P={players} {specs} seed={seed} game={game}: engines differ at event {at}: "
                    f"kernel {klog[at].tolist() if at < len(klog) else None} "
                    f"reference {rlog[at].tolist() if at < len(rlog) else None}")
    assert out[L.G_WINNER] == record.winner
    assert out[L.G_OVERCALLS:L.G_OVERCALLS + 8].tolist() == record.counts  # section-5 counters
    assert out[L.G_ROUNDS] == len(record.rounds)
    assert out[L.G_SCORES:L.G_SCORES + players].tolist() == record.scores
    for row, rec in zip(rounds, record.rounds):
        assert row[L.RD_CALLER] == rec.caller and row[L.RD_TURNS] == rec.turns
        assert row[L.RD_PLAYOFF] == rec.playoff  # Y-ELIM-2
    return record


def test_the_grid_covers_every_preset():
    assert PRESETS_COVERED == set(PRESETS)


@pytest.mark.parametrize("variant,players,decks,specs,games", GRID)
def test_reference_and_kernel_play_the_same_games(variant, players, decks, specs, games):
    """Differential test over ~1,300 seeded games: identical transcripts, event for event
    (Y-V-OVERCALL, Y-V-REQ, Y-V-SLAM, Y-V-KLUFT included through the kluft and adrian presets)."""
    rules = preset(variant).replace(decks=decks) if decks != preset(variant).decks else preset(variant)
    for game in range(games):
        _compare(rules, players, specs if len(specs) in (1, players) else specs[:1], 20261129, game)


def test_engines_agree_with_pickup_any_and_slams_y_dis_5_y_v_slam():
    """Under pickup=any with slams on, runs with a joker at an end are offered in every placement
    (Y-DIS-5): both engines offer the same table and play the same games."""
    rules = preset("nepali-jokers").replace(slam=True)
    for game in range(30):
        _compare(rules, 3, ["random", "threshold:slam=2", "threshold"], 15, game)


# ----- hypothesis: random option combinations, seeds and strategies -----------------------------------
options = st.fixed_dictionaries({
    "decks": st.sampled_from([1, 2]),
    "jokers": st.booleans(),
    "face_values": st.sampled_from([(10, 10, 10), (0, 10, 10), (11, 12, 13)]),
    "direction": st.sampled_from(["clockwise", "counterclockwise"]),
    "joker_pair_set": st.booleans(),
    "jokers_wild": st.booleans(),
    "pickup": st.sampled_from(["ends", "any_set", "any", "top"]),
    "call_limit": st.sampled_from([None, 0, 5, 6, 7, 10, 11, 13]),
    "asaf_penalty": st.sampled_from([0, 25, 30]),
    "failed_call_others": st.sampled_from(["hand", "zero", "higher_only"]),
    "out_over": st.sampled_from([50, 100, 200]),
    "resets": st.sampled_from(["standard", "200to150", "fifties", "halve", "none"]),
    "three_zero_bonus": st.booleans(),
    "overcall": st.booleans(),
    "requests": st.booleans(),
    "slam": st.booleans(),
    "kluft": st.booleans(),
    "onderkluft_any": st.booleans(),
    "kluft_penalty": st.sampled_from([15, 0, 40]),
})
specs = st.sampled_from([["threshold"], ["random"], ["threshold:call=0,keep=1,stock=3"], ["threshold:joker_end=0"],
                         ["threshold:request=8,refuse=8,slam=2,onder=8,top=4"], ["threshold", "random"]])


def legal_combination(opts: dict) -> YanivRules | None:
    """Section-5 options drawn at random; contradictory ones are refused by validate()."""
    try:
        return ISRAELI.replace(**opts).validate()
    except SimcardsError:
        return None


class Auditor:
    """Checks yaniv.md section 7 after every action of a reference game."""

    def __init__(self, rules: YanivRules):
        self.rules = rules
        self.deck = sorted(ref.deck(rules))

    def __call__(self, event, s):
        if "stock" in s:  # cards are conserved: hands + stock + discard pile = deck
            cards = sorted(sum(s["hands"].values(), []) + list(s["stock"]) + list(s["previous"]) + list(s["buried"])
                           + list(s.get("extra", [])))
            if event == "slam":  # the slammed card moved from the hand into the group
                cards = sorted(sum(s["hands"].values(), []) + list(s["stock"]) + list(s["previous"])
                               + list(s["buried"]) + list(s["extra"]))
            if event == "draw":  # the drawn card is already in the hand
                cards = sorted(sum(s["hands"].values(), []) + list(s["stock"]) + list(s["previous"])
                               + list(s["buried"]) + list(s["extra"]))
            assert cards == self.deck, f"cards not conserved after {event}"
        if event == "discard":  # every discarded group is legal and came from the hand
            group = tuple(s["group"])
            assert is_legal_group(group, self.rules), group
            for c in group:
                assert s["hand_before"].count(c) >= group.count(c)
        if event == "draw" and s["face"] >= 0:  # every drawn card was available
            assert s["card"] in s["available"]
        if event == "call":  # Y-CALL-1: within the limit at the start of the turn (unless Y-V-OVERCALL)
            within = self.rules.call_limit is None or s["total"] <= self.rules.call_limit
            assert within or (self.rules.overcall and s["overcall"])
        if "hands" in s:  # the Y-V-REQ hand guard: no hand ever passes the limit
            assert all(len(h) <= L.REQUEST_HAND_LIMIT for h in s["hands"].values())
        if event == "slam":  # Y-V-SLAM: the group with the slammed card is still legal; a hand keeps a card
            assert is_legal_group(tuple(s["group"]), self.rules), s["group"]
            assert len(s["hands"][s["seat"]]) >= 1


def is_legal_group(group: tuple[int, ...], rules: YanivRules) -> bool:
    """An independent legality check (not the enumeration): Y-DIS-1..3."""
    if len(group) == 1:
        return True
    naturals = [c for c in group if c < 52]
    jokers = len(group) - len(naturals)
    if not naturals:
        return rules.joker_pair_set and len(group) >= 2
    if jokers == 0 and len({c % 13 for c in naturals}) == 1:
        return True  # a set
    if len(group) < 3 or len({c // 13 for c in naturals}) != 1:
        return False
    if jokers and not rules.jokers_wild:
        return False
    ascending = group if group[0] >= 52 or group[-1] >= 52 or group[0] % 13 < group[-1] % 13 else group[::-1]
    first = next(i for i, c in enumerate(ascending) if c < 52)
    start = ascending[first] % 13 - first
    if start < 0 or start + len(group) > 13:
        return False
    return all(c >= 52 or c % 13 == start + i for i, c in enumerate(ascending))


@settings(max_examples=20, deadline=None)
@given(opts=options, players=st.integers(2, 5), spec=specs, seed=st.integers(0, 2**40), game=st.integers(0, 10**6))
def test_invariants_and_agreement_on_random_options(opts, players, spec, seed, game):
    """Any legal combination of the options: the engines agree and section 7 holds."""
    rules = legal_combination(opts)
    assume(rules is not None)
    players = min(players, rules.max_players())
    spec = spec if len(spec) == 1 else (spec * players)[:players]
    record = reference_game(rules, players, spec, seed, game, check=Auditor(rules))
    # a game ends with exactly one winner, who is still in the game
    assert 0 <= record.winner < players
    final = record.rounds[-1]
    assert record.winner not in final.eliminated
    # round scores follow Y-SC-1/2 exactly
    previous = [0] * players
    for r in record.rounds:
        if r.caller >= 0 and not r.playoff and not rules.kluft:
            scored, asaf = ref.round_scores(r.totals, r.caller, rules)
            assert asaf == r.asaf
        previous = [r.scores[p] for p in range(players)]
    assert previous == record.scores
    _compare(rules, players, spec, seed, game)


@settings(max_examples=60)
@given(cards=st.lists(st.integers(0, 53), min_size=1, max_size=8),
       pickup=st.sampled_from(["ends", "any_set", "any", "top"]),
       wild=st.booleans(), pair=st.booleans())
def test_group_enumeration_matches_reference(cards, pickup, wild, pair):
    """The kernel's enumeration equals the reference's on arbitrary hands (two decks allowed), and
    every group it offers passes the independent legality check."""
    rules = ISRAELI.replace(decks=2, pickup=pickup, jokers_wild=wild, joker_pair_set=pair, kluft=pickup == "top")
    hand = sorted(cards)
    groups = kernel_groups(hand, rules)
    assert groups == ref.legal_groups(hand, rules)
    assert all(is_legal_group(g, rules) for g in groups)


def test_the_threshold_only_round_plays_the_same_games_as_the_full_one():
    """kernel.play_round_threshold (the same source compiled without the branches for other
    strategies and the section-5 options) is used exactly when no seat needs them, and plays the
    games the full play_round plays, event for event."""
    from simcards.games.yaniv import kernel
    from simcards.games.yaniv.game import GAME, seat_arrays

    assert kernel.threshold_only(ISRAELI.encode(), [1, 1, 1, 1])
    assert not kernel.threshold_only(ISRAELI.encode(), [1, 0, 1, 1])
    for name in ("adrian", "kluft"):
        assert not kernel.threshold_only(preset(name).encode(), [1, 1, 1, 1])
    for name in ("israeli", "nepali-jokers", "fast"):
        rules = preset(name).replace(decks=2)
        sids, params = seat_arrays(GAME.strategies(["threshold:keep=0.3"], 5))
        for game in range(40):
            logs = []
            for round_fn in (kernel.play_round, kernel.play_round_threshold):
                log = np.zeros((200_000, kernel.LOG_WIDTH), dtype=np.int64)
                out = np.zeros(L.G_WIDTH, dtype=np.int64)
                rows = np.zeros((L.ROUND_CAP, L.round_width(5)), dtype=np.int32)
                n = kernel.play_game(game, 99, rules.encode(), 5, sids, params, out, rows, L.ROUND_CAP, log, round_fn,
                                     kernel.no_decide)
                logs.append((log[:n].copy(), out.copy()))
            assert np.array_equal(logs[0][0], logs[1][0]) and np.array_equal(logs[0][1], logs[1][1])


@pytest.mark.parametrize("variant,players,specs", [
    ("israeli", 4, ["threshold"]),
    ("israeli", 2, ["threshold:call=3,keep=0"]),
    ("israeli-anyset", 5, ["threshold:keep=1,joker_end=0"]),
    ("nepali", 3, ["threshold"]),
    ("nepali-jokers", 4, ["threshold:keep=0.3,stock=4"]),
    ("fast", 6, ["threshold", "threshold:call=7", "threshold:keep=0.8", "threshold", "threshold:stock=9", "threshold"]),
])
def test_a_batch_plays_the_logged_games_on_masks(variant, players, specs):
    """A batch of threshold players with one deck (no transcript: kernel.masks_only) keeps each hand
    as a bit set (kernel.play_round_masks); a logged game plays the sorted hand arrays of
    play_round_threshold, the round checked event for event above. Every game's row and every
    round's row must be the same."""
    from simcards.games.yaniv import kernel
    from simcards.games.yaniv.game import GAME, seat_arrays

    rules = preset(variant)
    strategies = GAME.strategies(specs, players)
    sids, _ = seat_arrays(strategies)
    assert kernel.masks_only(rules.encode(), sids)
    assert not kernel.masks_only(rules.replace(decks=2).encode(), sids)  # a face twice: the arrays
    assert not kernel.masks_only(rules.encode(), [0] + list(sids[1:]))
    run = GAME.new_run(rules, players, strategies)
    n, cap = 12, L.ROUND_CAP
    games, rows = run.raw(23, 0, n, cap)
    for g in range(n):
        _, out, rounds = kernel_game(rules, players, specs, 23, g)
        assert (games[g] == out).all(), (variant, g)
        assert (rows[g * cap:g * cap + len(rounds)] == rounds).all(), (variant, g)
