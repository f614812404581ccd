"""``simcards analyze`` on Two Hundred: card-play decisions valued (T-PLAY: the deal played on to
its last trick in sampled deals of the unseen cards, mc's rollouts), the annotated game is the
replay's, and the tables the sampler cannot rebuild are refused in one line."""

from __future__ import annotations

from simcards.cli.app import main
from simcards.table import start
from simcards.table.advise import advise
from simcards.table.analyze import analyze


def test_the_annotated_game_is_the_replay_and_every_decision_is_valued(capsys):
    """T-BID-1..5, T-TRUMP-1, T-PLAY-1: the bids, the trump and the cards are all valued; each
    annotation follows its line of the replay (a card its trick, a bid the auction, the trump the
    contract)."""
    res = analyze("two-hundred", seed=1, game_index=0, samples=30)
    assert main(["replay", "two-hundred", "--seed", "1", "--game", "0"]) == 0
    replay = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert replay and [e for e in res.events if e.startswith("  ")] == replay
    valued = {d.kind for d in res.decisions if d.advice is not None}
    assert valued == {"bid", "trump", "play"} and all(d.advice is not None for d in res.decisions)
    lines = res.text().splitlines()
    for kind, before in (("play", "  trick "), ("bid", "  auction:"), ("trump", "  seat 0 (team 0) contracts for")):
        first = next(d for d in res.decisions if d.kind == kind)
        at = next(i for i, line in enumerate(lines) if line.startswith(f"    #{first.number} {kind}"))
        head = next(line for line in reversed(lines[:at]) if not line.startswith("    "))
        assert head.startswith(before), (kind, head)
    trick = next(d for d in res.decisions if d.kind == "play")
    at = next(i for i, line in enumerate(lines) if line.startswith(f"    #{trick.number} play"))
    assert lines[at - 1].startswith(f"  trick {trick.turn}:")  # right after its trick's line


def test_the_card_play_advice_is_reproducible_and_covers_every_legal_card():
    t = start("two-hundred", seed=3, against="heuristic")
    try:
        while t.kind != "play":
            t.apply(0)
        a = advise("two-hundred", t, samples=50, seed=4)
        b = advise("two-hundred", t, samples=50, seed=4)
        assert [o.as_dict() for o in a.options] == [o.as_dict() for o in b.options]
        assert [o.label for o in a.options] == [o.label for o in t.options]
        assert a.measure == "deal margin" and a.wins is not None  # standard: two teams, the value table (T-END-1/2)
        assert ((a.wins >= 0) & (a.wins <= 1)).all() and all(o.win is not None for o in a.options)
    finally:
        t.close()


def test_tables_the_sampler_cannot_rebuild_are_refused(capsys):
    for variant in ("two-player", "five-player"):
        assert main(["analyze", "two-hundred", "--variant", variant, "--samples", "5"]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "cannot sample" in err, err


def test_a_planted_blunder_is_marked_by_the_win_chance_it_lost():
    """T-END-1/2 through the value table: in game 0 of seed 1, seat 0's 17th decision (trick 6 of
    deal 2) leads the 9h; playing the Ad instead gives away more than 8 points of win chance, a
    blunder (??) on the win chance, not on the deal margin; the strategy's own card is not one."""
    played = analyze("two-hundred", seed=1, game_index=0, samples=200)
    planted = analyze("two-hundred", seed=1, game_index=0, samples=200, plays={17: "play Ad"})
    own, bad = played.decisions[16], planted.decisions[16]
    assert bad.played_label == "play Ad" and own.played_label != "play Ad"
    assert bad.advice is not None and bad.advice.wins is not None
    assert bad.mark == "??" and bad.win_lost >= 0.08 and bad.win_lost_ci[0] > 0.0, (bad.win_lost, bad.win_lost_ci)
    assert own.mark != "??"
    assert "win chance" in planted.text() and "?? blunder" in planted.text()
