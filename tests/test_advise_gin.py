"""``simcards advise`` on Gin: the evaluator against a brute-force enumeration, reproducibility,
and positions given by hand (the compact text and JSON; impossible ones refused in one line).

The brute force here is independent of the kernels: melds, arrangements and lay-offs are found by
trying every combination (G-MELD-1..3, G-LAY-1), scored by G-SC-1..3 (knock: the difference;
undercut: the difference plus the bonus, ties too under the standard preset).
"""

from __future__ import annotations

import itertools
import json

import pytest

from simcards.cards import parse_card
from simcards.cli.app import main
from simcards.spec import RunSpec
from simcards.table.advise import advise, table_for

VALUE = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]  # G-CARD-1 (rank 0 = ace)


def value(c: int) -> int:
    return VALUE[c % 13]


def melds_of(cards: frozenset[int]) -> list[frozenset[int]]:
    """Every meld within ``cards``: 3 or 4 of a rank (G-MELD-1), 3+ in sequence of a suit, ace low
    (G-MELD-2, G-MELD-3)."""
    out = []
    for r in range(13):
        same = [c for c in cards if c % 13 == r]
        for n in (3, 4):
            out += [frozenset(x) for x in itertools.combinations(same, n)]
    for s in range(4):
        for lo in range(13):
            for hi in range(lo + 2, 13):
                run = frozenset(s * 13 + r for r in range(lo, hi + 1))
                if run <= cards:
                    out.append(run)
    return out


def arrangements(cards: frozenset[int]):
    """Every set of disjoint melds (as a list of melds) of ``cards``."""
    ms = melds_of(cards)

    def rec(i, used, chosen):
        yield list(chosen)
        for j in range(i, len(ms)):
            if not ms[j] & used:
                yield from rec(j + 1, used | ms[j], chosen + [ms[j]])

    yield from rec(0, frozenset(), [])


def deadwood(cards: frozenset[int]) -> int:
    return min(sum(value(c) for c in cards - frozenset().union(*a)) for a in arrangements(cards))


def fits(card: int, meld: frozenset[int]) -> bool:
    """Whether ``card`` lays off on ``meld`` (G-LAY-1): a set's fourth, a run's next end card."""
    ranks = {c % 13 for c in meld}
    if len(ranks) == 1:
        return card % 13 in ranks and len(meld) == 3
    suit = next(iter(meld)) // 13
    lo, hi = min(ranks), max(ranks)
    return card // 13 == suit and card % 13 in (lo - 1, hi + 1)


def defender_deadwood(defender: frozenset[int], knocker_melds: list[frozenset[int]]) -> int:
    """The defender's least deadwood: any arrangement of its own melds, then every sequence of
    lay-offs onto the knocker's melds (tried exhaustively)."""
    best = 10**9

    def lay(left: frozenset[int], melds: list[frozenset[int]]) -> int:
        low = sum(value(c) for c in left)
        for c in left:
            for i, m in enumerate(melds):
                if fits(c, m):
                    low = min(low, lay(left - {c}, melds[:i] + [m | {c}] + melds[i + 1:]))
        return low

    for a in arrangements(defender):
        left = defender - frozenset().union(*a)
        best = min(best, lay(left, list(knocker_melds)))
    return best


def knock_points(knocker: frozenset[int], defender: frozenset[int], rules) -> int:
    """G-SC-1..3 with the knocker's least-deadwood arrangement (unique in these positions)."""
    arrs = list(arrangements(knocker))
    kdw = min(sum(value(c) for c in knocker - frozenset().union(*a)) for a in arrs)
    best = [a for a in arrs if sum(value(c) for c in knocker - frozenset().union(*a)) == kdw]
    if kdw == 0:
        return deadwood(defender) + rules.gin_bonus
    ddw = defender_deadwood(defender, best[0])
    if ddw < kdw or (ddw == kdw and rules.undercut_on_tie):
        return -(kdw - ddw + rules.undercut_bonus)
    return ddw - kdw


def cards(text: str) -> frozenset[int]:
    return frozenset(parse_card(c) for c in text.split())


MINE = "As 2s 3s 4h 4d 4c 7c 8c 9c 2d"  # melds As-2s-3s, 4h-4d-4c, 7c-8c-9c; deadwood 2d = 2
OPP = "4s Kh Kd Kc 5d 6d 7d Qs Jh 9h"


def test_knock_against_a_known_hand_is_the_enumerated_score():
    """G-KNOCK-1, G-LAY-1, G-SC-1: the opponent's whole hand is known (it took all ten from the
    pile), so knocking has one continuation: every sampled deal scores exactly the brute force's
    points, and the win chance is the value table's at the resulting scores."""
    rules = RunSpec.resolve("gin").rules
    exact = knock_points(cards(MINE), cards(OPP), rules)
    assert exact == 27  # 4s lays off; Qs Jh 9h = 29, minus 2
    adv = advise("gin", f"hand {MINE}; decision knock; took {OPP}; score 40-10; dealer me", samples=64)
    knock = next(o for o in adv.options if o.label.startswith("knock"))
    assert adv.points[:, knock.index].min() == adv.points[:, knock.index].max() == exact
    table = table_for("gin", rules)
    assert knock.win == pytest.approx(table.after_hand(40, 10, exact, 0, True))
    assert knock.points_ci == (exact, exact)


def test_knock_with_one_unknown_card_matches_the_enumeration():
    """G-DEAL-1, G-INFO-1: nine of the opponent's cards are known; its tenth is any unseen card,
    equally likely (no discard or pass to weigh it). The sampled deals score exactly the values
    the brute force finds over all 33 possible cards, and the evaluator's mean knock points lie
    within two half-widths of its 95% interval (about 4 standard errors) of their average."""
    rules = RunSpec.resolve("gin").rules
    known = cards(OPP) - cards("9h")
    unseen = [c for c in range(52) if c not in cards(MINE) and c not in known]
    assert len(unseen) == 33
    scores = [knock_points(cards(MINE), known | {c}, rules) for c in unseen]
    exact = sum(scores) / len(scores)
    adv = advise("gin", f"hand {MINE}; decision knock; took {' '.join(OPP.split()[:-1])}", samples=4000, seed=3)
    knock = next(o for o in adv.options if o.label.startswith("knock"))
    lo, hi = knock.points_ci
    assert set(adv.points[:, knock.index].tolist()) == set(scores)
    assert abs(knock.points - exact) <= hi - lo, (exact, knock)
    assert hi - lo < 2.0  # the interval is informative at this sample size


def test_the_advice_is_reproducible_and_the_seed_matters():
    pos = "hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 3h; discarded Kd Qs; score 20-35"
    a, b = advise("gin", pos, samples=200, seed=1), advise("gin", pos, samples=200, seed=1)
    c = advise("gin", pos, samples=200, seed=2)
    assert [o.as_dict() for o in a.options] == [o.as_dict() for o in b.options]
    assert [o.points for o in a.options] != [o.points for o in c.options]
    assert a.kind == "draw" and len(a.options) == 2


def test_a_discard_that_breaks_a_set_is_ranked_low():
    """G-MELD-1: throwing a card of the 7s set costs more than throwing the lone jack."""
    adv = advise("gin", "hand As Ah 3h 7h 5d 7d Ac 3c 4c 7c Jc", samples=400)
    rank = {o.label.split()[1]: i for i, o in enumerate(adv.ranked())}
    assert rank["Jc"] < rank["7h"] and rank["5d"] < rank["7d"]
    assert adv.best.win is not None and 0 < adv.best.win < 1


@pytest.mark.parametrize("position,words", [
    ("hand As Ah 7h 5d 7d Ac 3c 4c 7c As; top 3h", "As is given twice"),
    ("hand As Ah 7h 5d 7d Ac 3c 4c 7c; top 3h", "9 cards"),
    ("hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 7h", "both in your hand and in the discard pile"),
    ("hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc", "needs the discard pile's top card"),
    ("hand As Ah 7h 5d 7d Ac 3c 4c 7c Zz; top 3h", "hand:"),
    ("hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 3h; colour red", "not a position key"),
    ("hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 3h; score 120-0", "below the game target"),
    ("hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 3h; stock 40", "stock: 40 cards"),
])
def test_an_impossible_position_is_refused_in_one_line(position, words, capsys):
    assert main(["advise", "gin", position]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error:") and words in err, err


def test_the_command_prints_the_ranked_options_and_reads_json(tmp_path, capsys):
    pos = {"hand": "As Ah 7h 5d 7d Ac 3c 4c 7c Jc", "top": "3h", "discarded": ["Kd"], "score": "20-35"}
    f = tmp_path / "pos.json"
    f.write_text(json.dumps(pos))
    assert main(["advise", "gin", "--json", str(f), "--samples", "200", "--json-out"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["decision"] == "draw" and len(data["options"]) == 2 and data["samples"] == 200
    assert data["options"][0]["win"] >= data["options"][1]["win"]
    assert main(["advise", "gin", "hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 3h; discarded Kd; score 20-35",
                 "--samples", "200"]) == 0
    text = capsys.readouterr().out
    assert "take 3h" in text and "draw from the stock" in text and "win game" in text
    (tmp_path / "bad.json").write_text('{"hand": "As", "colour": 1}')
    assert main(["advise", "gin", "--json", str(tmp_path / "bad.json")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_presets_without_advice_say_so(capsys):
    assert main(["advise", "gin", "--variant", "mahjong", "hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 3h"]) == 2
    assert "Mahjong" in capsys.readouterr().err


def test_h_in_play_shows_the_advice():
    """``simcards play``: h gives the hint strategy's choice, then every option's values."""
    from simcards.table import start
    from simcards.table.play import Loop

    t = start("gin", seed=3, against="simple")
    out: list[str] = []
    answers = iter(["h", "q"])
    try:
        Loop(t, read=lambda _: next(answers), write=out.append, hint="knock", samples=100).run()
    finally:
        t.close()
    text = "\n".join(out)
    assert "hint (knock)" in text and "advice (100 sampled deals" in text
    advice = text.split("advice (")[1].splitlines()[1:3]
    assert {line.split()[1] for line in advice} == {"decline", "take"}
    assert all(len(line) <= 80 for line in out)


def test_the_python_api_is_exported_beside_simulate():
    import simcards
    from simcards.table.analyze import analyze

    assert simcards.advise is advise and simcards.analyze is analyze
