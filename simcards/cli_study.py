"""The study commands: ``compare``, ``tune``, ``tournament`` and ``report``.

``simcards.cli`` calls :func:`register` to add them to the main app. Like ``simulate`` they are
thin: parse options, call :mod:`simcards.analysis` / :mod:`simcards.report`, print tables to
stdout (progress to stderr) and, with ``--out``, write the report, tables and figures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from simcards.errors import SimcardsError


def _variant_name(value: Optional[str]) -> Optional[str]:
    from simcards.cli import _variant_name as check  # late: simcards.cli imports this module

    return check(value)


out = Console()
err = Console(stderr=True)

GameArg = Annotated[str, typer.Argument(help="yaniv, gin or two-hundred", show_default=False)]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", help="players at the table (default: the game's usual)")]
GamesOpt = Annotated[int, typer.Option("--games", "-n", help="games (deals) per variant, value or pair; each is played once per seat rotation")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="run seed: game i of seed s is always the same deal (common random numbers)")]
RuleOpt = Annotated[Optional[list[str]], typer.Option("--rule", "-r", help="one rule option key=value on top of the variant (repeatable)")]
VariantOpt = Annotated[Optional[str], typer.Option("--variant", "-v", help="a preset; `simcards variants GAME` lists them",
                                                   callback=_variant_name)]
OutOpt = Annotated[Optional[Path], typer.Option("--out", "-o", help="write report.html, report.md, tables (CSV/Parquet) and figures (PNG/SVG) here")]
JsonOpt = Annotated[bool, typer.Option("--json", help="print the result tables as JSON instead of text tables")]
ThreadsOpt = Annotated[Optional[int], typer.Option("--threads", "-t", help="numba threads (default: all cores)")]
ProgressOpt = Annotated[bool, typer.Option("--progress/--no-progress", help="progress bar on studies longer than a second")]
BackendOpt = Annotated[Optional[str], typer.Option("--backend", help="where games are played: local (numba threads) or dask")]
SchedulerOpt = Annotated[Optional[str], typer.Option("--scheduler", help="Dask scheduler address (with --backend dask; default: a local cluster)")]


def _backend(name: str | None, scheduler: str | None):
    """Every game of the study on one backend (one Dask cluster for the whole study)."""
    import contextlib

    if name is None and scheduler is None:
        return contextlib.nullcontext()
    from simcards.backends import using

    return using(name or "dask", scheduler=scheduler)


def _rules(items):
    from simcards.cli import _rule_overrides

    return _rule_overrides(items)


def _print(result, json_out: bool, out_dir: Path | None) -> None:
    from simcards.report import display_tables, write_report

    if json_out:
        payload = {"title": result.title, "summary": result.summary, "notes": result.notes,
                   "tables": {k: json.loads(v.to_json(orient="records")) for k, v in result.tables.items() if k != "games"},
                   "meta": result.meta}
        print(json.dumps(payload, indent=2, default=str))
    else:
        out.print(f"[bold]{result.title}[/bold]", highlight=False)
        for caption, df in display_tables(result):
            for k, cols in enumerate(_column_groups(df, out.width)):
                part = df.iloc[:, [0] + cols]
                table = Table(title=caption if k == 0 else f"{caption} (continued)", title_justify="left",
                              header_style="bold")
                for i, col in enumerate(part.columns):
                    table.add_column(str(col), justify="left" if i == 0 else "right")
                for row in part.itertuples(index=False):
                    table.add_row(*[str(v) for v in row])
                out.print(table)
        for note in result.notes:
            out.print(note, markup=False, highlight=False)
    if out_dir is not None:
        paths = write_report([result], out_dir, title=result.title)
        err.print(f"wrote {paths['html']}, {paths['markdown']}, {len(paths['tables'])} table files and "
                  f"{len(paths['figures'])} figures (PNG + SVG)", markup=False, highlight=False)


LABEL_WIDTH = 30  # the first column (measure names) wraps beyond this


def _column_groups(df, width: int) -> list[list[int]]:
    """The data columns of ``df`` (all but the first) cut into groups whose cells fit ``width``
    characters beside the first column, so that a compare of many variants prints as several
    readable tables instead of one whose every cell is wrapped or cut."""
    def need(i: int) -> int:
        cells = [str(df.columns[i])] + [str(v) for v in df.iloc[:, i]]
        return max(len(c) for c in cells) + 3  # borders and padding

    room = width - min(need(0), LABEL_WIDTH + 3) - 1
    groups: list[list[int]] = [[]]
    used = 0
    for i in range(1, df.shape[1]):
        w = need(i)
        if groups[-1] and used + w > room:
            groups.append([])
            used = 0
        groups[-1].append(i)
        used += w
    return groups if groups[0] else [[]]


def _check_out(out_dir: Path | None) -> None:
    """Refuse an unwritable --out before the study runs, not after."""
    if out_dir is not None:
        from simcards.report import _writable

        _writable(out_dir)


def _split(values: list[str] | None) -> list[str]:
    from simcards.analysis.study import _split_specs

    outv: list[str] = []
    for v in values or []:
        outv += _split_specs(v)
    return outv


def compare(
    game: GameArg,
    variants: Annotated[str, typer.Option("--variants", help="comma-separated presets to compare (the first is the baseline), or all")],
    players: PlayersOpt = None,
    strategy: Annotated[Optional[list[str]], typer.Option("--strategy", help="self-play strategy for every seat (or one per seat; repeat)")] = None,
    strong: Annotated[Optional[str], typer.Option("--strong", help="stronger strategy for skill expression (default: the game's default)")] = None,
    weak: Annotated[str, typer.Option("--weak", help="weaker strategy for skill expression")] = "random",
    skill: Annotated[bool, typer.Option("--skill/--no-skill", help="measure skill expression (strong vs weak, seat-rotated)")] = True,
    games: GamesOpt = 2000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    out_dir: OutOpt = None,
    json_out: JsonOpt = False,
    threads: ThreadsOpt = None,
    progress: ProgressOpt = True,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
    summary_only: Annotated[bool, typer.Option("--summary-only", help="no per-game table: estimates from running sums, in bounded memory (for 100M-game studies)")] = False,
) -> None:
    """Compare variants: speed, fairness, skill expression and outcome rates with 95% intervals,
    and each variant's difference from the first (paired on the same deals when decks match).
    Ctrl-C stops after the block in flight and prints the estimates over the games finished."""
    from simcards.analysis import compare as run

    _check_out(out_dir)
    with _backend(backend, scheduler):
        res = run(game, variants, players=players, strategies=strategy, games=games, seed=seed, rules=_rules(rule),
                  strong=strong, weak=weak, skill=skill, threads=threads, progress=progress and not json_out,
                  summary_only=summary_only)
    _print(res, json_out, out_dir)
    if res.meta.get("interrupted"):
        raise typer.Exit(130)


def tune(
    game: GameArg,
    strategy: Annotated[str, typer.Option("--strategy", help="the family to tune, optionally with fixed parameters, e.g. threshold or threshold:keep=0.3")],
    param: Annotated[list[str], typer.Option("--param", help="NAME=VALUES to sweep: a range 0..10, 0..1:0.25 or a list 1,3,5 (one or two --param)")],
    against: Annotated[Optional[str], typer.Option("--against", help="opponents' strategy (default: the family's defaults, or the game's default strategy)")] = None,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    games: GamesOpt = 1000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    adaptive: Annotated[bool, typer.Option("--adaptive/--flat", help="race the values: spend games only where the answer is still open")] = False,
    batch: Annotated[Optional[int], typer.Option("--batch", help="deals per racing round (default: games/8, at least 50)")] = None,
    out_dir: OutOpt = None,
    json_out: JsonOpt = False,
    threads: ThreadsOpt = None,
    progress: ProgressOpt = True,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Sweep one or two strategy parameters: win rate and score margin per value with 95%
    intervals, the best value and whether it beats the runner-up significantly."""
    from simcards.analysis import tune as run

    _check_out(out_dir)
    if batch is not None and batch < 1:  # refused with --flat too: a typo should not pass silently
        raise SimcardsError(f"--batch {batch}: give a whole number of deals, 1 or more")
    with _backend(backend, scheduler):
        res = run(game, strategy, param, against=against, variant=variant, players=players, games=games, seed=seed,
                  rules=_rules(rule), adaptive=adaptive, batch=batch, threads=threads,
                  progress=progress and not json_out)
    _print(res, json_out, out_dir)


def tournament(
    game: GameArg,
    strategies: Annotated[list[str], typer.Option("--strategies", help="comma-separated specs (or repeat the option), e.g. random,threshold,threshold:call=3")],
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    games: GamesOpt = 1000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    out_dir: OutOpt = None,
    json_out: JsonOpt = False,
    threads: ThreadsOpt = None,
    progress: ProgressOpt = True,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Round robin with seat rotation: a win-rate matrix with 95% intervals and Bradley–Terry
    ratings (Elo scale)."""
    from simcards.analysis import tournament as run

    _check_out(out_dir)
    with _backend(backend, scheduler):
        res = run(game, _split(strategies), variant=variant, players=players, games=games, seed=seed,
                  rules=_rules(rule), threads=threads, progress=progress and not json_out)
    _print(res, json_out, out_dir)


def report(
    spec: Annotated[Path, typer.Argument(help="a report spec (TOML), e.g. reports/yaniv-variants.toml", show_default=False)],
    out_dir: Annotated[Optional[Path], typer.Option("--out", "-o", help="output directory (default: beside the spec, named after it)")] = None,
    threads: ThreadsOpt = None,
    progress: ProgressOpt = True,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
) -> None:
    """Run the studies a TOML spec declares and write an offline HTML report, a Markdown version,
    the raw tables (CSV/Parquet) and the figures (PNG/SVG)."""
    from simcards.report import build_report

    target = out_dir if out_dir is not None else spec.with_suffix("")
    with _backend(backend, scheduler):
        paths = build_report(spec, target, threads=threads, progress=progress)
    out.print(f"wrote {paths['html']} and {paths['markdown']} ({len(paths['tables'])} table files, "
              f"{len(paths['figures'])} figures)", markup=False, highlight=False)


def register(app: typer.Typer) -> None:
    """Add the study commands to the main ``simcards`` app."""
    app.command("compare")(compare)
    app.command("tune")(tune)
    app.command("tournament")(tournament)
    app.command("report")(report)
