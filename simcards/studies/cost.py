"""The cost of a strategy: how fast games are played with it, and how many decisions it takes a second.

A strategy's cost is measured on its matchup against a reference strategy (seat rotation, the
study's deals, the study's threads): games per second, and the strategy's own decisions (the
decisions its seats took, counted by the game's ``GameMetrics.seat_decisions`` from the per-unit
table the engine writes anyway) per second of that play. The clock runs only while games are
played; each lineup's engine is compiled (and its first game played) before the clock starts.
Both the wall-clock time and the process's CPU time (every thread's) are kept: on a machine
shared with other work the wall clock is slower than the machine, the CPU time much less so.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simcards.play import play_range
from simcards.strategy import Strategy
from simcards.studies.common import Arena, Matchup, play_matchup


def clocks() -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process over all its threads)."""
    return time.perf_counter(), time.process_time()


@dataclass
class Cost:
    """What playing one strategy cost: games, its decisions (None: the game does not count them
    under these rules), wall and CPU seconds."""

    strategy: str
    against: str
    games: int = 0
    decisions: int | None = 0
    wall: float = 0.0
    cpu: float = 0.0

    def row(self, unit: str, threads: int) -> dict:
        per = lambda n, s: n / s if n is not None and s > 0 else float("nan")  # noqa: E731
        dec = self.decisions
        return {"strategy": self.strategy, "against": self.against, "games": self.games,
                "decisions": np.nan if dec is None else dec, "decision_unit": unit,
                "decisions_per_game": per(dec, self.games), "wall_seconds": self.wall, "cpu_seconds": self.cpu,
                "games_per_s": per(self.games, self.wall), "decisions_per_s": per(dec, self.wall),
                "games_per_cpu_s": per(self.games, self.cpu), "decisions_per_cpu_s": per(dec, self.cpu),
                "threads": threads}


class TimedArena(Arena):
    """An arena (a copy of ``base``'s state) that clocks every play and counts the decisions of
    the seats playing ``who``; games it plays are added to ``base``'s count and progress."""

    def __init__(self, base: Arena, who: Strategy, against: Strategy):  # noqa: D107 (no Arena.__init__: a copy)
        self.__dict__.update(base.__dict__)
        self.base = base
        self.who = who
        self.cost = Cost(who.spec, against.spec, decisions=0 if self.m.seat_decisions is not None else None)

    def play(self, seat_strats: list[Strategy], seed: int, first: int, count: int, detail: bool = False):
        spec = self.spec.with_seats(seat_strats).replace(seed=seed, detail=True)
        play_range(spec, first, 1)  # compiles the engine (and warms it) off the clock
        w0, c0 = clocks()
        games, units = play_range(spec, first, count, on_chunk=self.base._advance)
        w1, c1 = clocks()
        c = self.cost
        c.games += len(games)
        c.wall += w1 - w0
        c.cpu += c1 - c0
        if c.decisions is not None and self.m.seat_decisions is not None:
            mine = [s for s, st in enumerate(seat_strats) if st is self.who]
            c.decisions += int(self.m.seat_decisions(games, units, self.players)[:, mine].sum())
        return (games, units) if detail else games


def timed_matchup(t: Arena, s0: Strategy, s1: Strategy, lineups: list[tuple[int, ...]], seed: int, first: int,
                  count: int, who: Strategy) -> tuple[Matchup, Cost]:
    """``play_matchup`` of ``s0`` against ``s1``, and the cost of ``who`` (one of them) in it."""
    other = s1 if who is s0 else s0
    timed = TimedArena(t, who, other)
    return play_matchup(timed, s0, s1, lineups, seed, first, count), timed.cost


def self_play_cost(t: Arena, s: Strategy, seed: int, first: int, count: int) -> Cost:
    """The cost of ``s`` against itself (the reference's own row): ``count`` games with ``s`` at
    every seat, every seat's decisions counted."""
    timed = TimedArena(t, s, s)
    timed.play([s] * t.players, seed, first, count)
    return timed.cost


def cost_table(costs: list[Cost], unit: str, threads: int) -> pd.DataFrame:
    return pd.DataFrame([c.row(unit, threads) for c in costs])


def load_average() -> float | None:
    """The 1-minute load average when the clock ran (None where the system has none)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (OSError, AttributeError):
        return None


__all__ = ["Cost", "TimedArena", "clocks", "cost_table", "load_average", "self_play_cost", "timed_matchup"]
