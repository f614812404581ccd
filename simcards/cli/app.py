"""The ``simcards`` command line: thin commands over the API.

Results go to stdout, progress and errors to stderr. Bad input ends with one line
``error: ...`` and exit code 2, never a traceback.
"""

from __future__ import annotations

import gc
import sys
import threading
from pathlib import Path
from typing import Annotated, Any, Optional

import typer
from rich.table import Table

from simcards.cli import common, study, table
from simcards.cli.common import GameArg, OutsideCodeOpt, PlayersOpt, RuleOpt, SeedOpt, VariantOpt
from simcards.errors import SimcardsError


def _usage_errors() -> tuple[Any, ...]:
    """The exceptions typer raises for bad command lines, through public names only: recent typer
    (which carries its own click) derives them from ``typer.TyperException``; older typer from
    click's ``ClickException``."""
    found = [getattr(typer, "TyperException", None)]
    try:
        import click

        found.append(click.ClickException)
    except ImportError:
        pass
    return tuple(t for t in found if t is not None)


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
    "  simcards variants yaniv        (presets and rule options; strategies GAME lists strategies)\n\n"
    "Results go to stdout, messages (progress, 'wrote ...', errors) to stderr.",
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        from simcards.version import __version__

        print(f"simcards {__version__}")
        raise typer.Exit(0)


@app.callback()
def _options(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="print the version and exit")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bars or messages on stderr, only results and errors")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="also say where time went (compile, games, threads)")] = False,
) -> None:
    """Monte Carlo strategy simulator for Yaniv, Two Hundred and Gin Rummy."""
    if quiet and verbose:
        raise SimcardsError("give --quiet or --verbose, not both")
    common.VERBOSITY["level"] = -1 if quiet else 1 if verbose else 0


StrategyOpt = Annotated[
    Optional[list[str]],
    typer.Option("--strategy", help="a spec for every seat, or one per seat (repeat the option or give a comma "
                 "list), e.g. threshold:call=5, random, a preset such as cautious (`simcards strategies GAME`), "
                 "my.toml or my.py:name"),
]
InvalidOpt = Annotated[str, typer.Option("--invalid-option", help="a user policy returning an option out of range: "
                                         "error (stop, one line) or first (play option 0 and count it)")]


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
    fmt: Annotated[str, typer.Option("--format", help="table files written with --out: parquet or csv")] = "parquet",
    force: Annotated[bool, typer.Option("--force", help="with --out: replace the run (finished or not) the directory holds")] = False,
    invalid_option: InvalidOpt = "error",
    allow_outside_code: OutsideCodeOpt = False,
) -> None:
    """Play many games and summarise them (every rate with a 95% confidence interval)."""
    from simcards.api import simulate as run
    from simcards.games import canonical, get_game

    common.trust_code(allow_outside_code)
    if fmt not in ("parquet", "csv"):
        raise SimcardsError(f"--format {fmt}: allowed parquet or csv")
    common.announce_compile(canonical(game))
    gdef = get_game(game)
    sim = run(game, variant=variant, players=players, games=games, seed=seed, strategies=common.split_specs(strategy),
              rules=common.rule_overrides(rule), threads=threads, out=out_dir,
              progress=common.show_progress(progress) and not json_out, backend=backend, scheduler=scheduler,
              workers=workers, resume=resume, summary_only=summary_only, keep_games=out_dir is None and resume is None,
              force=force, invalid_option=invalid_option)
    if sim.interrupted:
        where = (f"; the finished games are kept in {sim.out} (continue with the same command and --resume "
                 f"{sim.out})") if sim.out else " (use --out DIR to keep partial results on disk)"
        common.err.print(f"interrupted after {sim.meta['games_completed']:,} of {games:,} games{where}",
                         markup=False, highlight=False, soft_wrap=True)
    if sim.out is not None and not sim.interrupted and fmt == "csv":
        _to_csv(sim.out, ["games", gdef.detail_table])
    if json_out:
        print(sim.to_json())
    else:
        _print_summary(gdef, sim)
    if sim.out is not None and not sim.interrupted:
        tables = [] if sim.meta.get("summary_only") else ["games", gdef.detail_table]
        common.note("wrote " + ", ".join(f"{sim.out}/{f}" for f in [f"{t}.{fmt}" for t in tables] + ["summary.json"]
                                         if (sim.out / f).exists()))
    meta = sim.meta
    common.detail(f"{meta.get('games_completed', 0):,} games in {meta.get('elapsed_seconds', 0):.2f} s on "
                  f"{meta.get('threads')} threads ({meta.get('backend', 'local')}); compile / load "
                  f"{meta.get('compile_seconds', 0):.1f} s")
    if sim.interrupted:
        raise common.interrupted_exit()


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
            seat = getattr(label, "seat", None)  # a row about one seat (games.base.SeatLabel)
            if mixed and seat is not None and seat < len(specs):
                label = f"{label} ({specs[seat]})"
            table.add_row(label, text)
    table.add_row("games/s", f"{meta['games_per_second']:,.0f}  ({meta['threads']} threads)" if meta["games_per_second"] else "-")
    if unit_rate:
        table.add_row(f"{gdef.unit}s/s", f"{unit_rate:,.0f}")
    table.add_row("compile / load time", f"{meta['compile_seconds']:.1f} s")
    common.out.print(table)


def _to_csv(folder: Path, tables: list[str]) -> None:
    """--format csv: turn the run's Parquet tables into CSV files, one row group (chunk) at a time
    so memory stays bounded, and remove the Parquet copies."""
    import pyarrow.csv as pcsv
    import pyarrow.parquet as pq

    for name in tables:
        src = folder / f"{name}.parquet"
        if not src.exists():
            continue
        pf = pq.ParquetFile(src)
        with pcsv.CSVWriter(folder / f"{name}.csv", pf.schema_arrow) as writer:
            for i in range(pf.num_row_groups):
                writer.write_table(pf.read_row_group(i))
        src.unlink()


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
    file: Annotated[Optional[Path], typer.Option("--file", help="a game saved by simcards play: played again (every "
                    "move checked) and shown (a game left unfinished: what the table saw of it)")] = None,
    allow_outside_code: OutsideCodeOpt = False,
) -> None:
    """Print one game move by move, as the reference engine plays it."""
    from simcards.api import MAX_GAMES
    from simcards.spec import RunSpec, check_seed

    common.trust_code(allow_outside_code)
    if file is not None:
        _replay_saved(game, file, seed=seed, game_index=game_index, variant=variant, players=players,
                      strategy=strategy, rule=rule)
        return
    if not 0 <= game_index < MAX_GAMES:  # the games simulate can play: 0 .. MAX_GAMES - 1
        raise SimcardsError(f"--game {game_index}: give a game index from 0 to {MAX_GAMES - 1:,}")
    check_seed(seed, f"--seed {seed}")  # (spelled as typed; RunSpec.resolve checks the same)
    from simcards import kernelcall
    from simcards.games import canonical

    common.announce_compile(canonical(game), replay=True)
    spec = RunSpec.resolve(game, variant=variant, players=players, strategies=common.split_specs(strategy),
                           rules=common.rule_overrides(rule), seed=seed, invalid_option=invalid_option)
    # in a worker thread, so that Ctrl-C stops a user policy that does not return
    print(kernelcall.call(spec.gdef.replay, spec.rules, spec.players, list(spec.strategies), spec.seed, game_index,
                          spec.invalid_option,
                          what=lambda: kernelcall.games_text(spec.game, game_index, 1, spec.strategies)))


def _replay_saved(game: str, file: Path, **given: Any) -> None:
    """``simcards replay GAME --file FILE``: a saved game played again and printed (its rules, seed
    and strategies are the file's: the options that would set them are refused)."""
    from simcards.table.step import load

    named = {"seed": "--seed", "game_index": "--game", "variant": "--variant", "players": "--players",
             "strategy": "--strategy", "rule": "--rule"}
    for key, value in given.items():
        if value not in (None, 0, []):
            raise SimcardsError(f"{named[key]}: a saved game brings its own {named[key].lstrip('-')} (--file)")
    t = load(file, game)
    try:
        if t.done:
            print(t.replay())
        else:
            head = f"{t.adapter.title} ({t.spec.rules.name}), seed {t.seed}, game {t.game_index} (left unfinished)"
            print("\n".join([head] + [f"  {text}" for _, text in t.log()]
                            + [f"(the game was left here, at seat {t.player}'s {t.kind} decision)"]))
    finally:
        t.close()


@app.command()
def play(
    game: GameArg,
    variant: VariantOpt = None,
    seed: SeedOpt = 0,
    game_index: Annotated[int, typer.Option("--game", "-g", help="index of the game (the deal replay shows)")] = 0,
    against: Annotated[Optional[list[str]], typer.Option("--against", help="the other seats' strategy: one spec "
                       "for all, or one per seat (repeat or comma list), e.g. random, informed, mc")] = None,
    seat: Annotated[int, typer.Option("--seat", help="the seat you play")] = 0,
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    hint: Annotated[str, typer.Option("--hint", help="the strategy h asks (its choice; a stochastic one: votes)")] = "informed",
    save: Annotated[Optional[Path], typer.Option("--save", help="save the game to this file at the end (default: "
                    "a new file under ~/.local/share/simcards/games, or $XDG_DATA_HOME/simcards/games); "
                    "simcards analyze GAME --file FILE annotates it")] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help="do not save the game")] = False,
    resume: Annotated[Optional[Path], typer.Option("--resume", help="play on a game saved unfinished (its rules, seed, "
                      "strategies and seat come with it; saved back to the same file unless --save)")] = None,
    allow_outside_code: OutsideCodeOpt = False,
) -> None:
    """Play one game against strategies in the terminal (h hint, u undo, q quit). The game is saved
    at the end (finished or left), and the end screen says where: simcards analyze GAME --file FILE
    annotates your decisions, simcards replay GAME --file FILE shows it again, simcards play GAME
    --resume FILE plays on a game left unfinished."""
    from simcards.table.play import command

    common.trust_code(allow_outside_code)
    if save is not None and no_save:
        raise SimcardsError("--save and --no-save: give one")
    if resume is not None:
        for name, value in (("--variant", variant), ("--seed", seed or None), ("--game", game_index or None),
                            ("--against", against), ("--seat", seat or None), ("--players", players), ("--rule", rule)):
            if value is not None:
                raise SimcardsError(f"{name}: a saved game brings its own {name.lstrip('-')} (--resume)")
    code = command(game, variant=variant, seed=seed, game_index=game_index, against=common.split_specs(against),
                   seat=seat, players=players, rules=common.rule_overrides(rule), hint=hint, save=save,
                   keep=not no_save, resume=resume)
    if code:
        raise typer.Exit(code)


@app.command()
def variants(game: GameArg) -> None:
    """List a game's presets and every rule option with its default and allowed values."""
    from simcards.games import get_game

    gdef = get_game(game)
    table = Table(title=f"{gdef.title} presets (--variant)", title_justify="left")
    table.add_column("preset", no_wrap=True)  # typed as shown: never cut
    table.add_column("what it sets")
    for name, (_, desc) in gdef.presets().items():
        table.add_row(name + (" (default)" if name == gdef.default_variant else ""), desc)
    common.out.print(table)
    rows = [(o.name, str(o.default), o.allowed, o.rule, o.help) for o in gdef.rule_options()]
    # what a user types (names, values, rule IDs) may wrap between words but is never cut: each
    # column is at least as wide as its longest word; when that leaves too little room for the
    # meaning, the options are listed one block each instead of as a table
    longest = [max((len(w) for r in rows for w in r[i].split()), default=0) for i in range(4)]
    if sum(w + 3 for w in longest) + 1 + 30 > common.out.width:
        common.out.print(f"{gdef.title} rule options (--rule key=value)", style="italic", highlight=False)
        for name, default, allowed, rule, meaning in rows:
            common.out.print(f"{name} = {default}  ({rule})\n    allowed: {allowed}\n    {meaning}", markup=False,
                             highlight=False)
        return
    opts = Table(title=f"{gdef.title} rule options (--rule key=value)", title_justify="left")
    for i, col in enumerate(("option", "default", "allowed", "rule", "meaning")):
        opts.add_column(col, no_wrap=col == "option", min_width=longest[i] if i < 4 else None, overflow="fold")
    for row in rows:
        opts.add_row(*row)
    common.out.print(opts)


@app.command()
def strategies(
    game: GameArg,
    show_all: Annotated[bool, typer.Option("--all", help="repeat under every family the parameters it shares with "
                                           "another (by default: shown once, under the family they come from)")] = False,
) -> None:
    """List a game's strategy families with their parameters, and its presets."""
    from simcards.games import get_game
    from simcards.strategy import custom_families

    gdef = get_game(game)
    builtin = gdef.families()
    families = {**builtin, **custom_families(gdef.name)}
    width = max(common.out.width, 40)
    lines = [f"{gdef.title} strategies (--strategy family:param=value,...)", ""]
    rows = [(p.name, f"{p.default:g}", f"{p.low:g}..{p.high:g}") for f in families.values() for p in f.params]
    cols = [max([len(r[i]) for r in rows] + [len(h)]) for i, h in enumerate(("parameter", "default", "range"))]
    lines += _wrap(f"  {'parameter':<{cols[0]}}  {'default':<{cols[1]}}  {'range':<{cols[2]}}  meaning", width)
    for fam in families.values():
        lines.append("")
        lines.append(fam.name)
        lines += _wrap(fam.description, width, "    ")
        base = None if show_all or fam.name not in builtin else _inherits_from(fam, builtin)
        shown = fam.params
        if base is not None:
            changed = [f"{p.name}={p.default:g}" for p in fam.params
                       if any(p.name == q.name and p.default != q.default for q in base.params)]
            names = {q.name for q in base.params}
            shown = tuple(p for p in fam.params if p.name not in names)
            lines += _wrap(f"every parameter of {base.name}" + (f" (defaults here: {', '.join(changed)})" if changed else "")
                           + (", and:" if shown else ""), width, "  ", "    ")
        elif not fam.params:
            lines.append("  no parameters")
        for p in shown:
            head = f"  {p.name:<{cols[0]}}  {f'{p.default:g}':<{cols[1]}}  {f'{p.low:g}..{p.high:g}':<{cols[2]}}  "
            lines += _wrap(p.help, width, head, " " * len(head)) if width - len(head) >= 24 else \
                [head.rstrip(), *_wrap(p.help, width, "      ")]
    common.out.print("\n".join(lines), markup=False, highlight=False, soft_wrap=True)
    _print_presets(gdef, width)
    _print_panel(gdef, width)


def _inherits_from(fam, families: dict) -> Any:
    """The family of ``families`` whose every parameter (name, range, meaning) ``fam`` also has,
    the largest such (informed has every parameter of knock), or None."""
    best = None
    for other in families.values():
        if other is fam or not other.params or len(other.params) >= len(fam.params):
            continue
        own = {(p.name, p.low, p.high, p.help, p.integer) for p in fam.params}
        if all((q.name, q.low, q.high, q.help, q.integer) in own for q in other.params):
            if best is None or len(other.params) > len(best.params):
                best = other
    return best


def _wrap(text: str, width: int, first: str = "", rest: str | None = None) -> list[str]:
    """``text`` wrapped to ``width`` between words (a word longer than a line is never cut)."""
    import textwrap

    return textwrap.wrap(text, width=width, initial_indent=first, subsequent_indent=first if rest is None else rest,
                         break_long_words=False, break_on_hyphens=False) or [first.rstrip()]


def _print_presets(gdef, width: int) -> None:
    from simcards.presets import describe, strategy_presets
    from simcards.strategy import parse_spec

    presets = strategy_presets(gdef.name)
    if not presets:
        return
    lines = ["", f"{gdef.title} strategy presets (--strategy NAME or NAME:param=value)"]
    for name, path in presets.items():
        lines += ["", *_wrap(f"{name}  = {parse_spec(name, gdef.name, gdef.families()).spec}", width, "", "    "),
                  *_wrap(describe(path), width, "    ")]
    common.out.print("\n".join(lines), markup=False, highlight=False, soft_wrap=True)


def _print_panel(gdef, width: int) -> None:
    """The game's opponent panel (simcards.panel): the styles strength is measured against."""
    from simcards.panel import PANELS

    if gdef.name not in PANELS:
        return
    lines = ["", *_wrap(f"{gdef.title} opponent panel (measured against: benchmarks/strength.py)", width)]
    for m in PANELS[gdef.name]:
        lines += _wrap(f"{m.spec}  {m.style}", width, "  ", "      ")
    common.out.print("\n".join(lines), markup=False, highlight=False, soft_wrap=True)


study.register(app)  # compare, tune, tournament, report
table.register(app)  # advise, analyze


GC_PAUSE = 2.0  # seconds of start-up without the cycle collector (``main``)


def main(argv: list[str] | None = None, prog_name: str | None = None) -> int:
    """Entry point: run the app and turn every input error into one line on stderr. As the program
    (``argv`` None: the command line's own), a process whose Ctrl-C left a kernel running (a user
    policy that does not return: numba cannot stop it) ends at once with ``os._exit``, once its
    messages are out and its run directory unlocked.

    The program's start-up (numba, pandas, the cached engines) makes about a million objects that
    live until it exits, and Python's cycle collector would walk them again and again, and once
    more at exit: that was a third of a short run's time. As the program, the collector waits
    for the first :data:`GC_PAUSE` seconds (a bounded amount of garbage), then collects the young
    generation every 10,000 new objects instead of 700; what is left is frozen before exiting
    (``gc.freeze``: nothing more to walk)."""
    if argv is None:
        gc.set_threshold(10_000, 10, 10)
        gc.disable()
        resume = threading.Timer(GC_PAUSE, gc.enable)
        resume.daemon = True
        resume.start()
    code = _main(argv, prog_name)
    if argv is None:
        gc.freeze()
        from simcards import kernelcall

        if kernelcall.left_running():
            import os

            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):  # a closed pipe: nothing more to say
                    pass
            os._exit(code or 130)
    return code


def _main(argv: list[str] | None, prog_name: str | None) -> int:
    from simcards import compiling

    common.INTERRUPT["reported"] = False
    common.VERBOSITY["level"] = 0
    try:
        return _run(argv, prog_name)
    finally:
        compiling.reset()  # a compile the command left open (an error before its engine) says no more


def _run(argv: list[str] | None, prog_name: str | None) -> int:
    try:
        code = app(args=argv, prog_name=prog_name or "simcards", standalone_mode=False)
        if code == 130 and not common.INTERRUPT["reported"]:  # typer turns a Ctrl-C no command caught into Exit(130)
            common.err.print("interrupted before any result was finished: nothing to show", markup=False, highlight=False)
        if isinstance(code, int) and not isinstance(code, bool):  # typer.Exit(n) is returned, not raised
            return code
    except SimcardsError as exc:
        common.err.print(f"error: {exc}", markup=False, highlight=False, soft_wrap=True)
        return 2
    except _usage_errors() as exc:
        if type(exc).__name__ == "NoArgsIsHelpError":  # bare `simcards`: the help, as --help shows it
            print(exc.format_message())
            return 0
        ctx = getattr(exc, "ctx", None)
        hint = f" (see simcards {ctx.info_name} --help)" if ctx is not None and ctx.info_name != "simcards" else ""
        common.err.print(f"error: {exc.format_message()}{hint}", markup=False, highlight=False, soft_wrap=True)
        return getattr(exc, "exit_code", 2)
    except typer.Exit as exc:
        return exc.exit_code
    except SystemExit as exc:  # --show-completion and --install-completion exit by themselves
        return exc.code if isinstance(exc.code, int) else 0
    except (typer.Abort, KeyboardInterrupt):
        common.err.print("aborted")
        return 130
    except MemoryError as exc:  # anywhere: one line, not a traceback
        common.err.print(f"error: out of memory{f' ({exc})' if str(exc) else ''}", markup=False, highlight=False,
                         soft_wrap=True)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
