"""The table commands ``advise`` and ``analyze`` (``simcards.table.advise`` / ``.analyze``).

``simcards.cli`` calls :func:`register` to add them to the main app. Like the other commands they
are thin: parse options, call the Python API, print text (or JSON) to stdout.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Optional

import typer

from simcards.cli.common import (
    GameArg,
    OutsideCodeOpt,
    PlayersOpt,
    RuleOpt,
    SeedOpt,
    VariantOpt,
    announce_compile,
    rule_overrides,
    split_specs,
    trust_code,
)
from simcards.games import canonical

SamplesOpt = Annotated[Optional[int], typer.Option("--samples", "-k", help="sampled deals per decision (more: "
                                                   "narrower intervals, longer; default 1000)")]
JsonOutOpt = Annotated[bool, typer.Option("--json-out", help="print the result as JSON")]


def advise(
    game: GameArg,
    position: Annotated[Optional[str], typer.Argument(
        help="the position: 'hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 3h; took -; discarded Kd; score 20-35; "
             "dealer me' (Gin's keys: hand, top, pile, took, discarded, passed, score, stock, dealer, decision, "
             "turn, limit; Yaniv's and Two Hundred's, e.g. 'hand s:AQ h:A9 d:A85 c:J9; auction 50 pass pass pass': "
             "see docs/advice.md)", show_default=False)] = None,
    json_file: Annotated[Optional[Path], typer.Option("--json", help="read the position from this JSON file "
                                                                     "(an object with the same keys)")] = None,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    samples: SamplesOpt = None,
    seed: SeedOpt = 0,
    json_out: JsonOutOpt = False,
) -> None:
    """The ranked options of one decision: each option's chance of winning the game and expected
    points this hand, with 95% intervals (a Gin, Yaniv or Two Hundred position by hand; docs/advice.md)."""
    from simcards.table.advise import advise as run

    announce_compile(canonical(game))
    _quiet_numba()
    res = run(game, position, variant=variant, players=players, rules=rule_overrides(rule), samples=samples,
              seed=seed, json_file=json_file)
    print(json.dumps(res.as_dict(), indent=2) if json_out else res.text())


def analyze(
    game: GameArg,
    seed: Annotated[Optional[int], typer.Option("--seed", "-s", help="the game's run seed (default 0; with "
                    "--positions: the sampling seed, as advise's --seed)")] = None,
    game_index: Annotated[Optional[int], typer.Option("--game", "-g", help="index of the game (the deal replay "
                          "shows; default 0)")] = None,
    seat: Annotated[Optional[int], typer.Option("--seat", help="the seat whose decisions are annotated (default 0; "
                    "a saved game: the seat you played)")] = None,
    samples: SamplesOpt = None,
    strategies: Annotated[Optional[list[str]], typer.Option("--strategy", "--strategies", help="one spec for every seat, "
                          "or one per seat (repeat or comma list); default: the game's")] = None,
    variant: VariantOpt = None,
    players: PlayersOpt = None,
    rule: RuleOpt = None,
    play: Annotated[Optional[list[str]], typer.Option("--play", help="N=OPTION: at the seat's decision N (from 1) "
                    "play this option (its index from 0, or its label) instead of the strategy's (repeatable)")] = None,
    file: Annotated[Optional[Path], typer.Option("--file", help="a saved game (simcards play saves one at the end; "
                    "its rules, seed and strategies come with it): played again, every move checked, and --seat "
                    "annotated")] = None,
    positions: Annotated[Optional[str], typer.Option("--positions", help="a game you played at a real table, typed: "
                         "one decision a line, the position as advise reads it plus the option chosen, e.g. "
                         "'hand As Ah 7h 5d 7d Ac 3c 4c 7c Jc; top 3h; score 20-35; played take 3h' (- for stdin; "
                         "--variant, --players, --rule set the table)")] = None,
    json_out: JsonOutOpt = False,
    allow_outside_code: OutsideCodeOpt = False,
) -> None:
    """The replay of one game with every decision of a seat annotated: each option's chance of
    winning the game and expected points (95% intervals), what the choice cost, marks ?! ? ??
    (by the chance of winning the game in Gin, two-player Yaniv and Two Hundred's two-side presets;
    elsewhere by points: docs/advice.md). The game: game N of a seed (--seed, --game); a game
    saved by simcards play (--file FILE; its rules, seed and strategies come with it); or a game
    you played at a real table, typed one decision a line as advise reads a position, plus the
    option you chose: 'hand ...; top 3h; score 20-35; played take 3h' (--positions FILE).

    Examples:

      simcards analyze gin --seed 1 --game 2 --play "26=discard 4d"

      simcards analyze gin --file game.json

      simcards analyze gin --positions club.txt
    """
    from simcards.errors import SimcardsError
    from simcards.table.analyze import analyze as run

    trust_code(allow_outside_code)
    plays: dict[int, int | str] = {}
    for item in play or []:
        n, sep, opt = item.partition("=")
        if not sep or not n.strip().isdigit():
            raise SimcardsError(f"--play {item!r}: give N=OPTION, e.g. --play 4=0 or --play '4=discard 7d'")
        plays[int(n)] = int(opt) if opt.strip().isdigit() else opt.strip()
    if file is not None and positions is not None:
        raise SimcardsError("--file and --positions: give one game (a saved one, or typed positions)")
    if file is not None or positions is not None:
        given = [name for name, v in (("--play", play), ("--strategy", strategies), ("--game", game_index))
                 if v is not None] + ([name for name, v in (("--variant", variant), ("--players", players),
                                                            ("--rule", rule), ("--seed", seed)) if v is not None]
                                      if file is not None else []) + (["--seat"] if positions and seat else [])
        if given:
            what = "a saved game brings its own" if file is not None else "typed positions take no"
            raise SimcardsError(f"{given[0]}: {what} {given[0].lstrip('-')} "
                                f"({'--file' if file is not None else '--positions'})")
    specs = split_specs(strategies)
    spec = specs[0] if specs and len(specs) == 1 else specs
    announce_compile(canonical(game))
    _quiet_numba()
    res = run(game, seed=seed or 0, game_index=game_index or 0, seat=seat, samples=samples, variant=variant,
              rules=rule_overrides(rule), strategies=spec, players=players, plays=plays, file=file,
              positions=positions)
    print(json.dumps(res.as_dict(), indent=2) if json_out else res.text())


def _quiet_numba() -> None:
    """numba's notice that first-class functions are experimental (the engines' decision
    functions) is no message for a user: a refused position stays one line."""
    import warnings

    from numba.core.errors import NumbaExperimentalFeatureWarning

    warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)


def register(app: typer.Typer) -> None:
    """Add the table commands to the main ``simcards`` app."""
    app.command("advise")(advise)
    app.command("analyze")(analyze)
