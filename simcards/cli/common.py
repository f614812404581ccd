"""What every command shares: the consoles, the verbosity (--quiet / --verbose), messages on
stderr, the compile notice (``simcards.compiling``), and the options spelled the same in every command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer
from rich.console import Console

from simcards.errors import SimcardsError
from simcards.games import GAMES

out = Console()
err = Console(stderr=True)
INTERRUPT = {"reported": False}  # a command said what an interruption kept (see app.main)
VERBOSITY = {"level": 0}  # -1 with --quiet, 1 with --verbose (set by the app's callback)


def note(text: str) -> None:
    """A message for the user on stderr (what was written, what is happening); --quiet drops it."""
    if VERBOSITY["level"] >= 0:
        err.print(text, markup=False, highlight=False, soft_wrap=True)


def detail(text: str) -> None:
    """A message shown only with --verbose."""
    if VERBOSITY["level"] > 0:
        err.print(text, markup=False, highlight=False, soft_wrap=True)


def show_progress(flag: bool) -> bool:
    return flag and VERBOSITY["level"] >= 0


def variant_name(value: str | None) -> str | None:
    """An empty ``--variant ''`` is a mistake, not the default preset."""
    if value is not None and not value.strip():
        raise typer.BadParameter("give a preset name; `simcards variants GAME` lists them")
    return value


_NAMES = list(GAMES)  # the registry: a new game shows up in every command's help
GameArg = Annotated[str, typer.Argument(help=f"{', '.join(_NAMES[:-1])} or {_NAMES[-1]}", show_default=False)]
VariantOpt = Annotated[Optional[str], typer.Option("--variant", help="a preset; `simcards variants GAME` lists them",
                                                   callback=variant_name)]
PlayersOpt = Annotated[Optional[int], typer.Option("--players", "-p", help="players at the table (default: the game's usual)")]
RuleOpt = Annotated[Optional[list[str]], typer.Option("--rule", "-r", help="one rule option key=value on top of the variant (repeatable)")]
SeedOpt = Annotated[int, typer.Option("--seed", "-s", help="run seed: game i of seed s is always the same game")]
OutsideCodeOpt = Annotated[bool, typer.Option(
    "--allow-outside-code", help="let a preset's plugin or a report spec run a Python file outside the preset's or "
    "spec's own directory (presets and specs are code: trust them like a Makefile)")]


def trust_code(allow_outside: bool) -> None:
    """What a command lets presets and report specs run (``--allow-outside-code``), and where the
    notice 'running code from FILE' goes: stderr, dropped by --quiet like every message."""
    from simcards import strategy

    strategy.allow_outside_code(allow_outside)
    strategy.set_code_notice(note)


def rule_overrides(items: list[str] | None) -> dict[str, str]:
    overrides = {}
    for item in items or []:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise SimcardsError(f"--rule {item!r}: write key=value, e.g. --rule call_limit=7")
        overrides[key.strip()] = value.strip()
    return overrides


def split_specs(values: list[str] | None) -> list[str] | None:
    """Repeated options and comma lists alike: ``--strategy a --strategy b`` = ``--strategy a,b``
    (commas inside a spec's parameters, ``threshold:call=5,keep=0.5``, stay with their spec)."""
    if not values:
        return None
    from simcards.strategy import split_specs as split_one  # (it brings numpy: not for --help)

    return [part for v in values for part in split_one(v)]


def announce_compile(game: str, replay: bool = False, wait: bool = False) -> None:
    """Show what compiles while this command waits for numba (``simcards.compiling``: what, with a
    live elapsed time and an estimate measured before), --quiet aside. The plain kernel (with
    ``replay``: the strategies the reference engine plays) is expected now, before the game is
    imported (importing a kernel may compile already), when its cache is empty; the engine found
    when the run starts (search players, user policies) says what it really is. ``wait``: one of
    several games a study plays in turn, timed from its own first compile (``compiling.Compile``)."""
    from simcards import compiling

    if VERBOSITY["level"] < 0:
        compiling.show_on(None)
        return
    compiling.show_on(err)
    import click

    ctx = click.get_current_context(silent=True)
    if ctx is not None:  # shown while this command runs, not after (a test invoking the app goes on)
        ctx.find_root().call_on_close(compiling.reset)
    import importlib.util

    from simcards.games import GAMES, canonical
    from simcards.nbutil import cache_is_cold

    # Locate the kernel without importing the game: importing a kernel may already compile it.
    name = canonical(game)
    spec = importlib.util.find_spec(GAMES[name])
    if spec is None or spec.origin is None:
        return
    kernel = Path(spec.origin).with_name("kernel.py")  # games/<name>/kernel.py
    if kernel.exists() and cache_is_cold(kernel):
        if replay:
            compiling.expect(name, "replay", f"the {name} strategies for the reference engine", cold=True, wait=wait)
        else:
            compiling.expect(name, "kernel", f"the {name} kernel", cold=True, wait=wait)


def interrupted_exit() -> typer.Exit:
    """Exit 130 for a command that has said what an interruption kept (see ``app.main``)."""
    INTERRUPT["reported"] = True
    return typer.Exit(130)
