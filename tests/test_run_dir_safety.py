"""A run directory that cannot be turned against its user (issue 27, items 1, 3 and 4): nothing is
written, truncated or removed through a symbolic link (the lock, ``parts/``, temporary files, a
report's files); a dangling ``--out`` link is one clear line; ``--out`` never replaces a user's own
``games.parquet``; and a part must prove which run and which games it holds (a part of another
seed, or a tripled summary part, vouched for by an edited manifest, is played again at resume and
stops the join), so such a directory never gets stuck. Yaniv: the quickest kernel to compile."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import simcards
from simcards.cli import main
from simcards.errors import SimcardsError
from tests.test_run_dir import StopAfter

GAME = "yaniv"
RUN = dict(games=200, seed=5, chunk=50)
CLI = ["simulate", GAME, "--games", "200", "--seed", "5", "--no-progress"]
G = "parts/games-000000000050.parquet"
R = "parts/rounds-000000000050.parquet"
S = "parts/summary-000000000050.json"
PRECIOUS = "precious, not simcards'\n"


def files(d: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(d.iterdir()) if p.suffix == ".parquet"}


def summary_file(d: Path) -> dict:
    return json.loads((d / "summary.json").read_text())


def manifest(d: Path) -> dict:
    return json.loads((d / "manifest.json").read_text())


def last_line(err: str) -> str:
    """The error line (a first run may print a compile notice before it); never a traceback."""
    assert "Traceback" not in err, err
    return err.strip().splitlines()[-1]


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    d = tmp_path_factory.mktemp("ref") / "run"
    simcards.simulate(GAME, out=d, keep_games=False, **RUN)
    so = tmp_path_factory.mktemp("ref-so") / "run"
    simcards.simulate(GAME, out=so, summary_only=True, **RUN)
    return d, so


@pytest.fixture(scope="module")
def interrupted(tmp_path_factory):
    """Seeds 5 and 6 stopped after 2 chunks (games 0..99 on disk), with tables and summary-only."""
    runs = {}
    for seed in (5, 6):
        for mode, kw in (("tables", {}), ("summary", {"summary_only": True})):
            d = tmp_path_factory.mktemp(f"int-{seed}-{mode}") / "run"
            simcards.simulate(GAME, out=d, backend=StopAfter(2), **{**RUN, "seed": seed}, **kw)
            runs[seed, mode] = d
    return runs


@pytest.fixture
def fresh(interrupted, tmp_path):
    d = tmp_path / "run"
    shutil.copytree(interrupted[5, "tables"], d)
    return d


@pytest.fixture
def victim(tmp_path):
    v = tmp_path / "outside" / "victim.txt"
    v.parent.mkdir()
    v.write_text(PRECIOUS)
    return v


# --- item 1: symbolic links ---------------------------------------------------------------------------
@pytest.mark.parametrize("how", ["--out, new directory", "--resume"])
def test_a_lock_that_is_a_symlink_is_refused_and_its_target_untouched(how, fresh, victim, tmp_path, capsys):
    d = tmp_path / "new" if how.startswith("--out") else fresh
    d.mkdir(exist_ok=True)
    (d / ".simcards.lock").symlink_to(victim)
    code = main(CLI + (["--out", str(d)] if how.startswith("--out") else ["--resume", str(d)]))
    line = last_line(capsys.readouterr().err)
    assert code == 2 and line.startswith("error: ") and ".simcards.lock is a symbolic link" in line
    assert victim.read_text() == PRECIOUS


def test_a_lock_that_is_a_hard_link_is_refused_and_its_other_name_untouched(victim, tmp_path, capsys):
    d = tmp_path / "new"
    d.mkdir()
    os.link(victim, d / ".simcards.lock")
    code = main(CLI + ["--out", str(d)])
    line = last_line(capsys.readouterr().err)
    assert code == 2 and "hard link" in line and victim.read_text() == PRECIOUS


@pytest.mark.parametrize("how", ["--out, new directory", "--resume"])
def test_a_parts_folder_that_is_a_symlink_is_refused_and_the_outside_untouched(how, fresh, tmp_path, capsys):
    outside = tmp_path / "outside-parts"
    if how == "--resume":  # an interrupted run whose parts/ was moved away and linked back
        shutil.move(fresh / "parts", outside)
        d = fresh
    else:
        outside.mkdir()
        d = tmp_path / "new"
        d.mkdir()
    (outside / "mine.tmp").write_text(PRECIOUS)
    before = {p.name: p.read_bytes() for p in outside.iterdir()}
    (d / "parts").symlink_to(outside)
    code = main(CLI + (["--out", str(d)] if how.startswith("--out") else ["--resume", str(d)]))
    line = last_line(capsys.readouterr().err)
    assert code == 2 and "parts is a symbolic link" in line
    assert {p.name: p.read_bytes() for p in outside.iterdir()} == before


def test_a_result_file_that_is_a_symlink_in_an_unfinished_run_is_refused_at_resume(fresh, victim, capsys):
    """--format csv writes games.csv in place when the run ends: a link there is refused, not followed."""
    (fresh / "games.csv").symlink_to(victim)
    code = main(CLI + ["--resume", str(fresh), "--format", "csv"])
    line = last_line(capsys.readouterr().err)
    assert code == 2 and "games.csv is a symbolic link" in line and victim.read_text() == PRECIOUS


@pytest.mark.parametrize("name", ["manifest.json.tmp", "summary.json.tmp", "games.parquet.tmp"])
def test_a_symlink_named_like_a_temporary_file_is_replaced_not_written_through(name, victim, tmp_path, reference):
    d = tmp_path / "run"
    d.mkdir()
    (d / name).symlink_to(victim)
    simcards.simulate(GAME, out=d, keep_games=False, **RUN)
    assert victim.read_text() == PRECIOUS
    assert sorted(p.name for p in d.iterdir()) == ["games.parquet", "rounds.parquet", "summary.json"]
    assert not any(p.is_symlink() for p in d.iterdir()) and files(d) == files(reference[0])


def test_a_dangling_symlink_out_is_one_clear_line_and_a_linked_directory_is_used(tmp_path, capsys):
    link = tmp_path / "link"
    target = tmp_path / "elsewhere"
    link.symlink_to(target)
    code = main(CLI + ["--out", str(link)])
    line = last_line(capsys.readouterr().err)
    assert code == 2 and "is a symbolic link to" in line and "which does not exist" in line
    assert "File exists" not in line
    target.mkdir()  # a link to a real directory is the user's choice: it is used
    assert main(CLI + ["--out", str(link)]) == 0
    assert sorted(p.name for p in target.iterdir()) == ["games.parquet", "rounds.parquet", "summary.json"]


@pytest.fixture(scope="module")
def study():
    from simcards.studies import compare

    return compare(GAME, ["israeli"], games=30, seed=1, skill=False)


def test_a_report_writes_no_file_through_a_symlink(study, tmp_path):
    from simcards.report import write_report

    first = write_report([study], tmp_path / "first", title="t")
    names = ["report.md", "report.html", "meta.json",
             str(Path(first["tables"][0]).relative_to(tmp_path / "first")),
             str(Path(first["figures"][0]).relative_to(tmp_path / "first"))]
    out = tmp_path / "rep"
    victims = {}
    for i, name in enumerate(names):
        v = tmp_path / f"victim-{i}"
        v.write_text(PRECIOUS)
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).symlink_to(v)
        victims[name] = v
    paths = write_report([study], out, title="t")
    assert all(v.read_text() == PRECIOUS for v in victims.values())
    assert not any((out / name).is_symlink() for name in names) and paths["markdown"].read_text() != PRECIOUS


@pytest.mark.parametrize("sub", ["tables", "figures"])
def test_a_report_folder_that_is_a_symlink_is_refused(sub, study, tmp_path):
    from simcards.report import write_report

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "01-compare-yaniv-estimates.csv").write_text(PRECIOUS)  # a name a report would remove
    out = tmp_path / "rep"
    out.mkdir()
    (out / sub).symlink_to(outside)
    with pytest.raises(SimcardsError, match=rf"{sub} is a symbolic link"):
        write_report([study], out, title="t")
    assert [p.name for p in outside.iterdir()] == ["01-compare-yaniv-estimates.csv"]
    assert (outside / "01-compare-yaniv-estimates.csv").read_text() == PRECIOUS


# --- item 3: a user's own result files ------------------------------------------------------------------
@pytest.mark.parametrize("name,extra", [("games.parquet", []), ("rounds.parquet", []),
                                        ("games.csv", ["--format", "csv"])])
def test_out_does_not_replace_a_users_own_result_file(name, extra, tmp_path, capsys):
    d = tmp_path / "mine"
    d.mkdir()
    (d / name).write_text(PRECIOUS)
    code = main(CLI + ["--out", str(d)] + extra)
    line = last_line(capsys.readouterr().err)
    assert code == 2 and f"holds {name}, which this run would replace" in line and "--force" in line
    assert (d / name).read_text() == PRECIOUS and sorted(p.name for p in d.iterdir()) == [name]
    assert main(CLI + ["--out", str(d), "--force"] + extra) == 0  # --force replaces it
    assert (d / name).read_bytes() != PRECIOUS.encode()


# --- item 4: a part proves which run and which games it holds ---------------------------------------------
def forge(d: Path, name: str, data: bytes) -> None:
    """Replace a part and edit the manifest's record of it to match (rows and hash)."""
    (d / name).write_bytes(data)
    m = manifest(d)
    rows = pq.read_metadata(d / name).num_rows if name.endswith(".parquet") else m["parts"][Path(name).name][0]
    m["parts"][Path(name).name] = [rows, hashlib.sha256(data).hexdigest()]
    (d / "manifest.json").write_text(json.dumps(m))


def tripled(d: Path, name: str) -> bytes:
    """The summary part ``name`` with every count and sum tripled (in whatever form it is stored)."""
    from simcards.games import get_game
    from simcards.stats.aggregate import Aggregator

    data = json.loads((d / name).read_text())
    wrapped = isinstance(data, dict) and set(data) == {"partial", "probe"}
    agg = Aggregator(get_game(GAME), manifest(d)["config"]["players"])
    p = agg.load(data["partial"] if wrapped else data)
    three = agg.dump(agg.merge(agg.merge(p, p), p))
    return json.dumps({**data, "partial": three} if wrapped else three).encode()


@pytest.mark.parametrize("name", [G, R])
def test_a_part_of_another_seed_vouched_for_by_an_edited_manifest_is_played_again(name, fresh, interrupted, reference,
                                                                                   capsys):
    forge(fresh, name, (interrupted[6, "tables"] / name).read_bytes())
    simcards.simulate(GAME, resume=fresh, keep_games=False, **RUN)
    err = capsys.readouterr().err
    assert f"warning: {fresh / name} does not hold this run's games" in err
    assert "games 50..99 are played again" in err and len(err.strip().splitlines()) == 1
    assert files(fresh) == files(reference[0])
    assert summary_file(fresh)["games"] == 200 == summary_file(reference[0])["games"]


def test_a_tripled_summary_part_is_played_again(fresh, reference, capsys):
    forge(fresh, S, tripled(fresh, S))
    simcards.simulate(GAME, resume=fresh, keep_games=False, **RUN)
    err = capsys.readouterr().err
    assert f"warning: {fresh / S} does not hold the sums of its games" in err and "games 50..99 are played again" in err
    summary = summary_file(fresh)
    assert summary["games"] == 200 == len(pd_read(fresh / "games.parquet"))
    assert {k: v for k, v in summary.items() if k != "meta"} == {
        k: v for k, v in summary_file(reference[0]).items() if k != "meta"}
    assert files(fresh) == files(reference[0])


def pd_read(path: Path):
    import pandas as pd

    return pd.read_parquet(path)


@pytest.mark.parametrize("case", ["another seed", "tripled"])
def test_a_summary_only_part_of_another_seed_or_tripled_is_played_again(case, interrupted, reference, tmp_path, capsys):
    d = tmp_path / "run"
    shutil.copytree(interrupted[5, "summary"], d)
    forge(d, S, (interrupted[6, "summary"] / S).read_bytes() if case == "another seed" else tripled(d, S))
    sim = simcards.simulate(GAME, resume=d, summary_only=True, **RUN)
    err = capsys.readouterr().err
    assert f"warning: {d / S} " in err and "games 50..99 are played again" in err
    assert sim.summary["games"] == 200 and sim.meta["games_resumed"] == 50
    assert {k: v for k, v in summary_file(d).items() if k != "meta"} == {
        k: v for k, v in summary_file(reference[1]).items() if k != "meta"}


def test_a_part_changed_with_its_record_after_the_resume_check_stops_the_join_and_resume_recovers(
        fresh, interrupted, reference, monkeypatch):
    """The join checks the parts' content too (here a part and the run's own record of it changed
    while the run went on): one line, nothing joined or removed; --resume then plays it again."""
    from simcards.store import RunStore

    real = RunStore.join

    def swap_then_join(self, ranges):
        data = (interrupted[6, "tables"] / G).read_bytes()
        (self.out / G).write_bytes(data)
        self.files[Path(G).name] = [50, hashlib.sha256(data).hexdigest()]
        return real(self, ranges)

    monkeypatch.setattr(RunStore, "join", swap_then_join)
    with pytest.raises(SimcardsError) as info:
        simcards.simulate(GAME, resume=fresh, keep_games=False, **RUN)
    message = str(info.value)
    assert "games-000000000050.parquet does not hold this run's games" in message and "\n" not in message
    assert "nothing was joined or removed" in message and f"--resume {fresh}" in message
    assert not (fresh / "games.parquet").exists() and not (fresh / "summary.json").exists()
    assert not list(fresh.glob("*.tmp")) and (fresh / "manifest.json").exists()
    monkeypatch.undo()
    # the directory is not stuck: the run's record on disk still vouches for the swapped part (the
    # manifest is written after each chunk), so hash and content are both checked at resume
    forge(fresh, G, (fresh / G).read_bytes())
    simcards.simulate(GAME, resume=fresh, keep_games=False, **RUN)
    assert files(fresh) == files(reference[0])
