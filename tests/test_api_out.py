"""Output written chunk by chunk must read back as one table (regression: a categorical column
whose categories differed between chunks broke the Parquet schema of a 1M-game run)."""

import pandas as pd

import simcards


def test_many_chunks_write_one_readable_table(tmp_path):
    sim = simcards.simulate("yaniv", games=2400, seed=12, out=tmp_path / "o", chunk=300, keep_detail=True)
    rounds = pd.read_parquet(tmp_path / "o" / "rounds.parquet")
    games = pd.read_parquet(tmp_path / "o" / "games.parquet")
    assert len(games) == 2400 and len(rounds) == sim.games["rounds"].sum()
    assert (rounds["eliminated"] != "").sum() == (sim.rounds["eliminated"] != "").sum() > 0
