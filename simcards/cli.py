"""The ``simcards`` command line: thin commands over the API.

Results go to stdout, progress and errors to stderr. Bad input ends with one line
``error: ...`` and exit code 2, never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console
from rich.table import Table

from simcards.errors import SimcardsError

try:  # recent typer vendors its own click
    from typer._click import exceptions as _cx
except ImportError:  # pragma: no cover - older typer on plain click
    import click.exceptions as _cx

app = typer.Typer(
    name="simcards",
    help="Monte Carlo strategy simulator for Yaniv, Two Hundred and Gin Rummy.\n\n"
    "Examples:\n\n"
    "  simcards simulate yaniv --players 4 --games 1000000 --strategy threshold:call=5\n\n"
    "  simcards simulate yaniv --variant nepali --rule out_over=150 --out results/\n\n"
    "  simcards simulate gin --strategy knock:max=6 --strategy simple\n\n"
    "  simcards simulate two-hundred --strategy heuristic:aggr=1.0 --strategy heuristic\n\n"
    "  simcards replay gin --seed 1 --game 0\n\n"
    "  simcards compare yaniv --variants israeli,nepali,kluft,adrian\n\n"
    "  simcards variants yaniv        (presets and rule options; strategies GAME lists strategies)",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
out = Console()
err = Console(stderr=True)

def _variant_name(value: str | None) -> str | None:
    """An empty ``--variant ''`` is a mistake, not the default preset."""
    if value is not None and not value.strip():
        raise typer.BadParameter("give a preset name; `simcards variants GAME` lists them")
    return value


GameArg = Annotated[str, typer.Argument(help="yaniv, gin or two-hundred", show_default=False)]
VariantOpt = Annotated[Optional[str], typer.Option("--variant", "-v", help="a preset; `simcards variants GAME` lists them",
                                                   callback=_variant_name)]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", help="players at the table (default: the game's usual)")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="run seed: game i of seed s is always the same game")]
StrategyOpt = Annotated[
    Optional[list[str]],
    typer.Option("--strategy", help="a spec for every seat, or one per seat, e.g. threshold:call=5, "
                 "random, strategies/yaniv/cautious.toml or my.py:name; repeat per seat"),
]
InvalidOpt = Annotated[str, typer.Option("--invalid-option", help="a user policy returning an option out of range: "
                                         "error (stop, one line) or first (play option 0 and count it)")]
RuleOpt = Annotated[Optional[list[str]], typer.Option("--rule", "-r", help="one rule option key=value on top of the variant (repeatable)")]


def _rule_overrides(items: list[str] | None) -> dict[str, str]:
    overrides = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise SimcardsError(f"--rule {item!r}: write key=value, e.g. --rule call_limit=7")
        overrides[key.strip()] = value.strip()
    return overrides


@app.command()
def simulate(
    game: GameArg,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    games: Annotated[int, typer.Option("--games", "-n", help="number of games to play")] = 100_000,
    seed: SeedOpt = 0,
    strategy: StrategyOpt = None,
    rule: RuleOpt = None,
    out_dir: Annotated[Optional[Path], typer.Option("--out", "-o", help="write games/rounds Parquet files and summary.json here")] = None,
    json_out: Annotated[bool, typer.Option("--json", help="print the summary as JSON instead of a table")] = False,
    threads: Annotated[Optional[int], typer.Option("--threads", "-t", help="numba threads (default: all cores)")] = None,
    progress: Annotated[bool, typer.Option("--progress/--no-progress", help="progress bar on runs longer than a second")] = True,
    backend: Annotated[str, typer.Option("--backend", help="local (numba threads here) or dask (Dask distributed workers)")] = "local",
    scheduler: Annotated[Optional[str], typer.Option("--scheduler", help="address of a running Dask scheduler (default: start a local cluster)")] = None,
    workers: Annotated[Optional[int], typer.Option("--workers", help="worker processes of the local Dask cluster (default: one per core)")] = None,
    resume: Annotated[Optional[Path], typer.Option("--resume", help="continue the interrupted run in this directory (same command, same results)")] = None,
    summary_only: Annotated[bool, typer.Option("--summary-only", help="no tables: aggregate on the fly in bounded memory (for 100M-game runs)")] = False,
    invalid_option: InvalidOpt = "error",
) -> None:
    """Play many games and summarise them (every rate with a 95% confidence interval)."""
    from simcards.api import simulate as run
    from simcards.games import get_game

    gdef = get_game(game)
    sim = run(game, variant=variant, players=players, games=games, seed=seed, strategies=strategy,
              rules=_rule_overrides(rule), threads=threads, out=out_dir, progress=progress and not json_out,
              backend=backend, scheduler=scheduler, workers=workers, resume=resume, summary_only=summary_only,
              keep_games=out_dir is None and resume is None, invalid_option=invalid_option)
    if sim.interrupted:
        where = (f"; the finished games are kept in {sim.out} (continue with the same command and --resume "
                 f"{sim.out})") if sim.out else " (use --out DIR to keep partial results on disk)"
        err.print(f"interrupted after {sim.meta['games_completed']:,} of {games:,} games{where}", markup=False,
                  highlight=False, soft_wrap=True)
    if json_out:
        print(sim.to_json())
    else:
        _print_summary(gdef, sim)
    if sim.interrupted:
        raise typer.Exit(130)


def _print_summary(gdef, sim) -> None:
    meta = sim.meta
    title = f"{gdef.title} — {meta['variant']}, {meta['players']} players, seed {meta['seed']}"
    table = Table(title=title, show_header=True, header_style="bold", title_justify="left")
    table.add_column("measure")
    table.add_column("value (95% CI)", justify="right", no_wrap=True)
    unit_rate = meta.get(f"{gdef.unit}s_per_second")
    specs = meta["strategies"]
    mixed = len(set(specs)) > 1
    table.add_row("strategy", "per seat (below)" if mixed else specs[0])
    if sim.summary:
        for label, text in gdef.summary_rows(sim.summary):
            seat = _seat_of(label)
            if mixed and seat is not None and seat < len(specs):
                label = f"{label} ({specs[seat]})"
            table.add_row(label, text)
    table.add_row("games/s", f"{meta['games_per_second']:,.0f}  ({meta['threads']} threads)" if meta["games_per_second"] else "-")
    if unit_rate:
        table.add_row(f"{gdef.unit}s/s", f"{unit_rate:,.0f}")
    table.add_row("compile / load time", f"{meta['compile_seconds']:.1f} s")
    out.print(table)
    if sim.out is not None and not sim.interrupted:
        files = ["summary.json"] if meta.get("summary_only") else ["games.parquet", f"{gdef.detail_table}.parquet", "summary.json"]
        out.print("wrote " + ", ".join(f"{sim.out}/{f}" for f in files))


def _seat_of(label: str) -> int | None:
    """``'seat 2 wins'`` → 2."""
    parts = label.split()
    if len(parts) >= 2 and parts[0] == "seat" and parts[1].isdigit():
        return int(parts[1])
    return None


@app.command()
def replay(
    game: GameArg,
    seed: SeedOpt = 0,
    game_index: Annotated[int, typer.Option("--game", "-g", help="index of the game in the run")] = 0,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    strategy: StrategyOpt = None,
    rule: RuleOpt = None,
    invalid_option: InvalidOpt = "error",
) -> None:
    """Print one game move by move, as the reference engine plays it."""
    from simcards.games import get_game

    from simcards.api import MAX_GAMES
    from simcards.rng import MAX_SEED

    gdef = get_game(game)
    if not 0 <= game_index < MAX_GAMES:  # the games simulate can play: 0 .. MAX_GAMES - 1
        raise SimcardsError(f"--game {game_index}: give a game index from 0 to {MAX_GAMES - 1:,}")
    if not 0 <= seed <= MAX_SEED:
        raise SimcardsError(f"--seed {seed}: give a whole number from 0 to 2**63-1")
    rules = gdef.build_rules(variant, _rule_overrides(rule))
    n = gdef.players_for(rules) if players is None else players
    gdef.check_players(rules, n)
    strats = gdef.strategies(strategy, n)
    from simcards.policy import check_mode

    print(gdef.replay(rules, n, strats, seed, game_index, on_invalid=check_mode(invalid_option)))


@app.command()
def variants(game: GameArg) -> None:
    """List a game's presets and every rule option with its default and allowed values."""
    from simcards.games import get_game

    gdef = get_game(game)
    table = Table(title=f"{gdef.title} presets (--variant)", title_justify="left")
    table.add_column("preset")
    table.add_column("what it sets")
    for name, (_, desc) in gdef.presets().items():
        table.add_row(name + (" (default)" if name == gdef.default_variant else ""), desc)
    out.print(table)
    opts = Table(title=f"{gdef.title} rule options (--rule key=value)", title_justify="left")
    for col in ("option", "default", "allowed", "rule", "meaning"):
        opts.add_column(col, no_wrap=col == "option")  # an option name is typed as shown: never cut it
    for o in gdef.options():
        opts.add_row(o.name, str(o.default), o.allowed, o.rule, o.help)
    out.print(opts)


@app.command()
def strategies(game: GameArg) -> None:
    """List a game's strategy families and their parameters."""
    from simcards.games import get_game
    from simcards.strategy import custom_families

    gdef = get_game(game)
    table = Table(title=f"{gdef.title} strategies (--strategy family:param=value,...)", title_justify="left")
    for col in ("family", "parameter", "default", "range", "meaning"):
        table.add_column(col)
    for fam in {**gdef.families(), **custom_families(gdef.name)}.values():
        table.add_row(fam.name, "", "", "", fam.description)
        for p in fam.params:
            table.add_row("", p.name, f"{p.default:g}", f"{p.low:g}..{p.high:g}", p.help)
    out.print(table)


def _register_extra_commands() -> None:
    """Study commands (compare, tune, tournament, report) live in ``simcards.cli_study``."""
    import importlib
    import importlib.util

    if importlib.util.find_spec("simcards.cli_study") is not None:
        importlib.import_module("simcards.cli_study").register(app)


_register_extra_commands()


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the app and turn every input error into one line on stderr."""
    try:
        code = app(args=argv, standalone_mode=False)
        if isinstance(code, int) and not isinstance(code, bool):  # typer.Exit(n) is returned, not raised
            return code
    except SimcardsError as exc:
        err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        return 2
    except getattr(_cx, "NoArgsIsHelpError", ()) as _:
        return 0
    except _cx.UsageError as exc:
        hint = f" (see simcards {exc.ctx.info_name} --help)" if exc.ctx and exc.ctx.info_name != "simcards" else ""
        err.print(f"error: {exc.format_message()}{hint}", markup=False, highlight=False, soft_wrap=True)
        return 2
    except (typer.Exit, getattr(_cx, "Exit", typer.Exit)) as exc:
        return exc.exit_code
    except (typer.Abort, KeyboardInterrupt):
        err.print("aborted")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
