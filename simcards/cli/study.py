"""The study commands: ``compare``, ``tune``, ``tournament`` and ``report``.

``simcards.cli`` calls :func:`register` to add them to the main app. Like ``simulate`` they are
thin: parse options, call :mod:`simcards.studies` / :mod:`simcards.report`, print tables to
stdout (progress to stderr) and, with ``--out``, write the report, tables and figures.
"""

from __future__ import annotations

import functools
import inspect
import json
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.table import Table

from simcards.cli import common
from simcards.cli.common import GameArg, OutsideCodeOpt, PlayersOpt, RuleOpt, VariantOpt
from simcards.errors import SimcardsError

GamesOpt = Annotated[int, typer.Option("--games", "-n", help="games (deals) per variant, value or pair; each is played once per seat rotation")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="run seed: game i of seed s is always the same deal (common random numbers)")]
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


def _progress(flag: bool, json_out: bool = False) -> bool:
    return common.show_progress(flag) and not json_out


def _announce(*games: str) -> None:
    """The first-run compile notice (``announce_compile``) for each game a study plays; of several
    (a report), each timed from its own first compile, not from the command's start."""
    from simcards.games import canonical

    names = list(dict.fromkeys(canonical(g) for g in games))
    for game in names:
        common.announce_compile(game, wait=len(names) > 1)


def _print(result, json_out: bool, out_dir: Path | None) -> None:
    """The answer first (the report's words, ``answer_lines``), then the title, the tables and the
    notes; with ``json_out`` all of them as one JSON object (``answer``: the same sentences)."""
    from simcards.report import display_tables, write_report
    from simcards.report.build import answer_lines

    answer = answer_lines(result)
    if json_out:
        payload = {"title": result.title, "answer": answer, "summary": result.summary, "notes": result.notes,
                   "tables": {k: json.loads(v.to_json(orient="records")) for k, v in result.tables.items() if k != "games"},
                   "meta": result.meta}
        print(json.dumps(payload, indent=2, default=str))
    else:
        for line in answer:
            common.out.print(line, markup=False, highlight=False)
        common.out.print("")
        common.out.print(f"[bold]{result.title}[/bold]", highlight=False)
        for caption, df in display_tables(result):
            keys = _key_columns(df)
            flag = next((c for c in df.columns if str(c).startswith("significant")), None)
            if flag is not None and keys < df.shape[1] - 1:  # the flag beside the value it judges
                cols = [c for c in df.columns if c != flag]
                df = df[cols[:keys + 1] + [flag] + cols[keys + 1:]]
            for k, cols in enumerate(_column_groups(df, common.out.width, keys)):
                part = df.iloc[:, list(range(keys)) + cols]
                table = Table(title=caption if k == 0 else f"{caption} (continued)", title_justify="left",
                              header_style="bold")
                for i, col in enumerate(part.columns):
                    table.add_column(str(col), justify="left" if i < keys else "right")
                for row in part.itertuples(index=False):
                    table.add_row(*[str(v) for v in row])
                common.out.print(table)
        for line in result.notes:
            common.out.print(line, markup=False, highlight=False)
    seconds = result.meta.get("elapsed_seconds")
    common.detail(f"{result.meta.get('study', 'study')}: {result.meta.get('games_played', '?')} games played"
           + (f" in {seconds:.1f} s" if seconds is not None else ""))
    if out_dir is not None:
        paths = write_report([result], out_dir, title=result.title)
        common.note(f"wrote {paths['html']}, {paths['markdown']}, {len(paths['tables'])} table files and "
              f"{len(paths['figures'])} figures (PNG + SVG)")


LABEL_WIDTH = 30  # the first column (measure names) wraps beyond this


def _key_columns(df) -> int:
    """How many leading columns name a row: 1 for a table of measures (one row each), 2 for a
    long table such as the differences (variant, measure). Every part of a table cut to fit the
    terminal repeats them, so a value and its flags ("significant") stay beside their measure."""
    for k in range(1, df.shape[1]):
        if not df.iloc[:, :k].duplicated().any():
            return k
    return 1


def _column_groups(df, width: int, keys: int = 1) -> list[list[int]]:
    """The data columns of ``df`` (all but the ``keys`` first) cut into groups whose cells fit
    ``width`` characters beside the key columns, so that a compare of many variants prints as
    several readable tables instead of one whose every cell is wrapped or cut."""
    def need(i: int) -> int:
        cells = [str(df.columns[i])] + [str(v) for v in df.iloc[:, i]]
        return max(len(c) for c in cells) + 3  # borders and padding

    room = width - sum(min(need(i), LABEL_WIDTH + 3) for i in range(keys)) - 1
    groups: list[list[int]] = [[]]
    used = 0
    for i in range(keys, df.shape[1]):
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
        from simcards.report import check_writable

        check_writable(out_dir)


def _split(values: list[str] | None) -> list[str]:
    return common.split_specs(values) or []


def _study(run, game: str, *, out_dir: Path | None, json_out: bool, threads: int | None, progress: bool,
           backend: str | None, scheduler: str | None, allow_outside_code: bool, **args):
    """What every study command does around its study: trust the code it names (or not), refuse an
    unwritable --out first, say what compiles, play ``run(game, **args)`` on the chosen backend and
    print the result (and write its report); returns the result."""
    common.trust_code(allow_outside_code)
    _check_out(out_dir)
    _announce(game)
    with _backend(backend, scheduler):
        res = run(game, progress=_progress(progress, json_out), threads=threads, **args)
    _print(res, json_out, out_dir)
    return res


# The options every study command ends with, declared once (``_study_command`` adds them).
_SHARED = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
           for name, annotation, default in [
               ("out_dir", OutOpt, None), ("json_out", JsonOpt, False), ("threads", ThreadsOpt, None),
               ("progress", ProgressOpt, True), ("backend", BackendOpt, None), ("scheduler", SchedulerOpt, None),
               ("allow_outside_code", OutsideCodeOpt, False)]]


def _study_command(fn):
    """A study command: ``fn``'s own options, then the ones every study command shares
    (``_SHARED``: --out, --json, --threads, --progress, --backend, --scheduler,
    --allow-outside-code). ``fn`` receives ``study``, which plays a study with them
    (``study(run, game, **args)``: :func:`_study`), instead of those options."""
    own = [p for p in inspect.signature(fn, eval_str=True).parameters.values() if p.name != "study"]

    @functools.wraps(fn)
    def command(**kwargs):
        shared = {p.name: kwargs.pop(p.name) for p in _SHARED}
        return fn(**kwargs, study=functools.partial(_study, **shared))

    params = own + _SHARED
    command.__signature__ = inspect.Signature(params, return_annotation=None)
    command.__annotations__ = {p.name: p.annotation for p in params}
    return command


@_study_command
def compare(
    game: GameArg,
    variants: Annotated[list[str], typer.Option("--variants", "--variant", help="presets to compare (the first is the baseline): repeat the option or give a comma list, or all")],
    players: PlayersOpt = None,
    strategy: Annotated[Optional[list[str]], typer.Option("--strategy", help="self-play strategy for every seat (or one per seat: repeat the option or give a comma list)")] = None,
    strong: Annotated[Optional[str], typer.Option("--strong", help="stronger strategy for skill expression (default: the game's default)")] = None,
    weak: Annotated[Optional[str], typer.Option("--weak", help="weaker strategy for skill expression (default: a weaker setting of the game's default, see docs/analysis.md)")] = None,
    skill: Annotated[bool, typer.Option("--skill/--no-skill", help="measure skill expression (strong vs weak, seat-rotated)")] = True,
    games: GamesOpt = 2000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    summary_only: Annotated[bool, typer.Option("--summary-only", help="no per-game table: estimates from running sums, in bounded memory (for 100M-game studies)")] = False,
    *,
    study,
) -> None:
    """Compare variants: speed, fairness, skill expression and outcome rates with 95% intervals,
    and each variant's difference from the first (paired on the same deals when decks match).
    Ctrl-C stops after the block in flight and prints the estimates over the games finished."""
    from simcards.studies import compare as run

    res = study(run, game, variants=",".join(variants), players=players, strategies=_split(strategy) or None,
                games=games, seed=seed, rules=common.rule_overrides(rule), strong=strong, weak=weak, skill=skill,
                summary_only=summary_only)
    if res.meta.get("interrupted"):
        raise common.interrupted_exit()


@_study_command
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
    confirm: Annotated[Optional[int], typer.Option("--confirm", help="replay the best value on this many fresh deals (default: --games; 0: a selection-adjusted interval instead)")] = None,
    *,
    study,
) -> None:
    """Sweep one or two strategy parameters: win rate and score margin per value with 95%
    intervals, the best value and whether it beats the runner-up significantly."""
    from simcards.studies import tune as run

    if batch is not None and batch < 1:  # refused with --flat too: a typo should not pass silently
        raise SimcardsError(f"--batch {batch}: give a whole number of deals, 1 or more")
    study(run, game, strategy=strategy, params=param, against=against, variant=variant, players=players, games=games,
          seed=seed, rules=common.rule_overrides(rule), adaptive=adaptive, batch=batch, confirm=confirm)


@_study_command
def tournament(
    game: GameArg,
    strategies: Annotated[list[str], typer.Option("--strategy", "--strategies", help="the strategies to play: repeat the option or give a comma list, e.g. random,threshold,threshold:call=3")],
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    games: GamesOpt = 1000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    cost: Annotated[Optional[str], typer.Option("--cost", help="one of the strategies: measure every strategy's games/s and decisions/s in its matchup against it (a cost table)")] = None,
    *,
    study,
) -> None:
    """Round robin with seat rotation: a win-rate matrix with 95% intervals and Bradley–Terry
    ratings (Elo scale)."""
    from simcards.studies import tournament as run

    study(run, game, strategies=_split(strategies), variant=variant, players=players, games=games, seed=seed,
          rules=common.rule_overrides(rule), cost=cost)


@_study_command
def equilibrium(
    game: GameArg,
    strategies: Annotated[Optional[list[str]], typer.Option("--strategy", "--strategies", help="the population: repeat the option or give a comma list, e.g. threshold:call=0,threshold:call=3,threshold")] = None,
    family: Annotated[Optional[str], typer.Option("--family", help="or a family swept over --param values, e.g. --family threshold --param call=0..7")] = None,
    param: Annotated[Optional[list[str]], typer.Option("--param", help="NAME=VALUES for --family: 0..7, 0..1:0.25 or 1,3,5 (repeat for a grid)")] = None,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="at most this many deals per profile (each in every seat rotation)")] = 2000,
    seed: SeedOpt = 0,
    rule: RuleOpt = None,
    flat: Annotated[bool, typer.Option("--flat", help="play every profile --games deals instead of spending them where they decide the answer")] = False,
    bootstrap: Annotated[int, typer.Option("--bootstrap", help="resamples of the deals for the mixture's and the regrets' intervals (each solved for its own equilibrium)")] = 400,
    *,
    study,
) -> None:
    """The strategy a whole table should play when everyone adapts: every profile of a population
    of strategies is played (seat rotation, common deals), and the payoff table (each cell with its
    95% interval over deals) gives a symmetric Nash mixture with each strategy's regret; their
    intervals come from bootstrap resamples of the deals, each solved for its own equilibrium.

    Example: simcards equilibrium yaniv --players 2 --family threshold --param call=0..7"""
    from simcards.studies import equilibrium as run

    study(run, game, strategies=_split(strategies) or None, family=family, params=param, variant=variant,
          players=players, games=games, seed=seed, rules=common.rule_overrides(rule), adaptive=not flat, bootstrap=bootstrap)


SMALL_GAMES = 400  # `--games small`: a quick preview of any report (seconds, wide intervals)


def report(
    spec: Annotated[Optional[str], typer.Argument(help="a shipped report by name (run without it to list them) or a "
                                                  "spec file (TOML)", show_default=False)] = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out", "-o", help="output directory (default: reports-out/NAME here)")] = None,
    in_place: Annotated[bool, typer.Option("--in-place", help="write over the committed report: reports/NAME of a "
                                           "source checkout, or the directory beside a spec file")] = False,
    games: Annotated[Optional[str], typer.Option("--games", "-n", help="games for every study instead of the spec's "
                                                 f"(N, or small = {SMALL_GAMES}); racing batches follow")] = None,
    threads: ThreadsOpt = None,
    progress: ProgressOpt = True,
    backend: BackendOpt = None,
    scheduler: SchedulerOpt = None,
    allow_outside_code: OutsideCodeOpt = False,
) -> None:
    """Run the studies a report spec declares and write an offline HTML report, a Markdown version,
    the raw tables (CSV/Parquet) and the figures (PNG/SVG)."""
    from simcards.errors import SimcardsError
    from simcards.presets import describe, report_specs
    from simcards.report import build_report, load_spec

    common.trust_code(allow_outside_code)
    if spec is None:
        for name, path in report_specs().items():
            print(f"{name:22s} {describe(path)}")
        return
    path, shipped = _spec_path(spec)
    if in_place and out_dir is not None:
        raise SimcardsError("give either --out DIR or --in-place, not both")
    target = out_dir if out_dir is not None else _in_place(path, shipped) if in_place else Path("reports-out") / path.stem
    loaded = load_spec(path)
    _announce(*(st["game"] for st in loaded["study"]))
    count = _games(games) if games is not None else None
    scaled = count is not None
    if count is not None:
        loaded = _scaled(loaded, count)
    with _backend(backend, scheduler):
        paths = build_report(loaded if scaled else path, target, threads=threads, progress=_progress(progress))
    if scaled:  # the spec as run: the shipped one with every study's games replaced
        (target / "spec.toml").write_text(f"# run with --games {games}: every study plays {count} games\n"
                                          + path.read_text())
    common.note(f"wrote {paths['html']} and {paths['markdown']} ({len(paths['tables'])} table files, "
          f"{len(paths['figures'])} figures)")


def _spec_path(spec: str) -> tuple[Path, bool]:
    """A spec file as given, or a shipped spec by name; (path, shipped?)."""
    from simcards.errors import SimcardsError
    from simcards.presets import report_specs

    shipped = report_specs()
    if spec in shipped and not Path(spec).is_file():
        return shipped[spec], True
    if spec.endswith(".toml") or Path(spec).exists():
        return Path(spec), False
    raise SimcardsError(f"unknown report {spec!r}; shipped: {', '.join(shipped)} (or give a spec file, NAME.toml)")


def _in_place(path: Path, shipped: bool) -> Path:
    """Where the committed report of ``path`` lives: ``reports/NAME`` in a source checkout."""
    from simcards.errors import SimcardsError
    from simcards.presets import DATA

    if not shipped:
        return path.with_suffix("")
    committed = DATA.parents[1] / "reports"
    if not (committed.is_dir() and (DATA.parents[1] / "pyproject.toml").is_file()):
        raise SimcardsError("--in-place: this installation has no committed reports (not a source checkout); "
                            "use --out DIR")
    return committed / path.stem


def _games(text: str) -> int:
    from simcards.errors import SimcardsError

    if text.strip().lower() == "small":
        return SMALL_GAMES
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise SimcardsError(f"--games {text}: give a number of games (1 or more) or small")
    return n


def _scaled(spec: dict, games: int) -> dict:
    """Every study with ``games`` games; an adaptive race's batch goes back to its default
    (games/8), so that it still races in rounds."""
    studies = [{**{k: v for k, v in st.items() if k != "batch"}, "games": games} for st in spec["study"]]
    return {**spec, "study": studies}


def register(app: typer.Typer) -> None:
    """Add the study commands to the main ``simcards`` app."""
    app.command("compare")(compare)
    app.command("tune")(tune)
    app.command("tournament")(tournament)
    app.command("equilibrium")(equilibrium)
    app.command("report")(report)
