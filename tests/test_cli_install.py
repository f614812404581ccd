"""simcards installed from its wheel, as a user installs it (issue 16, item 12): a fresh virtual
environment (it may see the system's numba, pandas... but simcards itself comes from the wheel), run
from a directory that has nothing of the repository: strategy presets and report specs are found by
name, and a report is written under the current directory, never over a committed one."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _env() -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "NUMBA_CACHE_DIR")}
    return {**env, "NUMBA_NUM_THREADS": "1"}


def _run(args, cwd, timeout=900):
    res = subprocess.run(args, cwd=cwd, env=_env(), capture_output=True, text=True, timeout=timeout)
    assert res.returncode == 0, f"{args}: {res.stderr[-2000:]}"
    return res


def _see_our_packages(py: Path, cwd: Path) -> None:
    """``--system-site-packages`` shows the base interpreter's packages only: when the suite itself
    runs inside a virtual environment (the usual way), numba, pandas... live in that environment's
    site-packages, so the new one is pointed at them with a ``.pth`` line (after its own, so the
    wheel's simcards still comes first)."""
    if sys.prefix == sys.base_prefix:
        return
    ours = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    site = _run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], cwd).stdout.strip()
    (Path(site) / "_simcards_test_parent_env.pth").write_text("".join(f"{p}\n" for p in sorted(ours)))


@pytest.mark.slow
def test_installed_wheel_finds_presets_and_reports_by_name(tmp_path):
    # build from a copy of the sources (a build leaves build/ and *.egg-info behind)
    src = tmp_path / "src"
    shutil.copytree(ROOT / "simcards", src / "simcards", ignore=shutil.ignore_patterns("__pycache__", "*.nb[ic]"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "wheel"), str(src)], tmp_path)
    wheel = next((tmp_path / "wheel").glob("simcards-*.whl"))
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], tmp_path)
    py, exe = venv / "bin" / "python", venv / "bin" / "simcards"
    _see_our_packages(py, tmp_path)
    _run([py, "-m", "pip", "install", "-q", "--no-deps", "--no-index", "--force-reinstall", str(wheel)], tmp_path)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run([py, "-c", "import simcards; print(simcards.__file__)"], elsewhere).stdout.strip()
    assert where.startswith(str(venv)), where  # the package under test is the wheel's
    assert _run([exe, "--version"], elsewhere).stdout.strip() == "simcards 0.1.0"

    # a preset by name, a preset with a parameter changed, a TOML preset that loads a plug-in
    res = _run([exe, "simulate", "yaniv", "--games", "30", "--players", "3", "--json", "--strategy",
                "cautious,cautious:call=2,greedy"], elsewhere)
    assert json.loads(res.stdout)["meta"]["strategies"] == ["threshold:call=3,keep=0.8",
                                                             "threshold:call=2,keep=0.8", "greedy:take=3"]
    assert "compiling the yaniv kernel, once" in res.stderr  # a fresh install: a cold cache
    # the built-in kernel is compiled on its first run (the first used a policy's engine), then loaded
    for _ in range(2):
        res = _run([exe, "simulate", "yaniv", "--games", "30", "--json", "--strategy", "bold"], elsewhere)
    assert "compiling" not in res.stderr

    # a shipped report by name, scaled down from the command line, written under the current directory
    res = _run([exe, "report", "yaniv-variants", "--games", "small", "--no-progress"], elsewhere)
    out = elsewhere / "reports-out" / "yaniv-variants"
    assert (out / "report.html").exists() and (out / "report.md").exists() and "wrote" in res.stderr
    meta = json.loads((out / "meta.json").read_text())
    assert [s["games"] for s in meta["studies"]] == [400, 400, 400]  # every study scaled down, mc's too
    res = subprocess.run([exe, "report", "yaniv-variants", "--in-place"], cwd=elsewhere, env=_env(),
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 2 and "no committed reports" in res.stderr
