"""Binding a game's kernel to the strategies of a run, once for every game.

A kernel is written once, at module level, around a decision function (the built-in strategies),
so numba caches it on disk. A run with user policies (``simcards.strategy.register``) gets a copy
of the kernel rebuilt around a dispatcher that sends each policy's strategy id to the policy
(``simcards.policy.chain``) and every other id to the built-ins; ``nbutil.rebind`` rebuilds it and
caches it on disk under ``policy.engine_key`` (a digest of the policies' files and of simcards).
Every game describes its kernel with a :class:`KernelBinding`; ``KernelBinding.engine`` does the
rest, the same way for all.
"""

from __future__ import annotations

import inspect
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, NamedTuple, Sequence

import numpy as np
from numba import njit, types

from simcards import compiling, policy
from simcards.strategy import Family, Strategy

_I64 = types.int64
_I64_1D = types.Array(types.int64, 1, "C")
_F64_1D = types.Array(types.float64, 1, "C")
_U64_1D = types.Array(types.uint64, 1, "C")


CARD_ARRAY = _I64_1D  # a hand as a sorted card array (Yaniv, Gin)
CARD_MASK = _I64  # a hand as a 64-bit card mask (Two Hundred)
OPTION_ROWS = types.Array(types.int64, 2, "C")  # one row per option (Yaniv's groups, Gin's choices)
OPTION_VALUES = _I64_1D  # one value per option (Two Hundred's bids, suits, cards)


def policy_signature(hand, opts) -> tuple:
    """The numba types of a user policy's arguments, the same in every game:
    ``decide(kind, params, hand, n, opts, n_opts, view, rules, rng)``; ``hand`` and ``opts`` are
    how the game hands a policy its cards and its options."""
    return (_I64, _F64_1D, hand, _I64, opts, _I64, _I64_1D, _I64_1D, _U64_1D)


class Engine(NamedTuple):
    """What a run plays with: the reference engine's decision function and the kernel's
    ``play_game`` (one game, with a transcript) and ``play_batch`` (games in parallel)."""

    decide: Callable
    play_game: Callable
    play_batch: Callable


@dataclass(eq=False)
class KernelBinding:
    """How one game's kernel is bound to the strategies of a run.

    ``build(decide, cache_key)`` returns ``(play_game, play_batch)`` of the kernel playing every
    decision through ``decide`` (``None``: the built-in engine, cached on disk). ``reference`` and
    ``in_kernel`` are the built-in decision functions of the reference engine and of the kernel (they
    differ where the kernel inlines a built-in strategy itself). ``view_slot`` is where the kernel's
    checked dispatcher records a bad index (``layout.V_BAD``); ``seat_slot``, for a kernel that hands
    its decision function the whole parameter table, the view slot of the deciding seat
    (``policy.chain``). ``attached``: the game's own families that attach the way a user policy
    does (``Family.decide``: the search players), so a run without them never compiles their code;
    they share one engine, compiled once whichever of them a run plays."""

    game: str
    signature: tuple
    reference: Callable
    in_kernel: Callable
    build: Callable[[Callable | None, str | None], tuple[Callable, Callable]]
    view_slot: int
    seat_slot: int | None = None
    jit: Callable = njit
    attached: tuple[Family, ...] = ()
    _engines: dict[tuple, Engine] = field(default_factory=dict, repr=False)

    def engine(self, strategies: Sequence[Strategy]) -> Engine:
        """The engine for these strategies: built-ins share the cached kernel; the game's attached
        families share one engine of their own; user policies are compiled alone first (a policy
        that does not fit is refused in one line), then get a kernel of their own, once per
        process and cached on disk."""
        played = {s.family for s in strategies if s.family.decide is not None}
        if played & set(self.attached):
            played |= set(self.attached)
        custom = sorted(played, key=lambda f: f.sid)
        key = tuple((f.sid, id(f.decide)) for f in custom)
        if key not in self._engines:
            self._engines[key] = self._compiled(custom)
        return self._engines[key]

    def _bind(self, custom: list[Family]) -> Engine:
        if not custom:
            return Engine(self.reference, *self.build(None, None))
        for fam in custom:
            policy.compile_policy(fam, self.signature)
        decide, checked = self.reference, self.in_kernel
        for fam in custom:
            decide = policy.chain(decide, fam.sid, fam.decide, self.view_slot, jit=self.jit, seat_slot=self.seat_slot)
            checked = policy.chain(checked, fam.sid, fam.decide, self.view_slot, checked=True, jit=self.jit,
                                   seat_slot=self.seat_slot)
        return Engine(decide, *self.build(checked, policy.engine_key(self.game, custom)))

    # --- saying what compiles (simcards.compiling) -------------------------------------------------
    def _compiled(self, custom: list[Family]) -> Engine:
        """The engine bound inside its compile (the families are compiled alone there), whose first
        calls continue it: when numba compiles, it says what, with a live elapsed time, and records
        how long it took (``simcards.compiling``; the cache check, on disk, tells whether to expect it)."""
        search = [f.name for f in custom if f in self.attached]
        users = [f for f in custom if f not in self.attached]
        engine = "+".join(n for n, fams in (("search", search), ("policy", users)) if fams) or "kernel"
        parts = ([f"{self.game}'s search players ({', '.join(search)})"] if search else []) + \
                ([f"{_policies(users)} into a {self.game} kernel"] if users else [])
        label = " and ".join(parts) or f"the {self.game} kernel"
        key = policy.engine_key(self.game, custom) if custom else None
        cached = not custom or key is not None

        def kernel_cold() -> bool:
            return not cached or self._cold(key)

        # what the command expects (the kernel, a replay) goes on; the first call says which it is
        now = compiling.compile_for(self.game, engine, label, kernel_cold(), cached, relabel=False).begin()
        try:
            bound = self._bind(custom)
        except BaseException:
            now.end(keep=False)
            raise
        compiling.hold(now)  # not over: the first call compiles the kernel (or the replay's strategies)

        def make(entry: str, what: str, cold: Callable[[], bool]) -> Callable[[], compiling.Compile]:
            name = {"batch": engine, "decide": "replay" if engine == "kernel" else f"{engine}:replay"}.get(
                entry, f"{engine}:{entry}")
            return lambda: compiling.compile_for(self.game, name, what, cold(), cached)

        replay = (f"the {self.game} strategies" if not custom else label) + " for the reference engine"
        return Engine(compiling.FirstCall(bound.decide, make("decide", replay, lambda: _decide_cold(bound.decide))),
                      compiling.FirstCall(bound.play_game, make("game", label, kernel_cold)),
                      compiling.FirstCall(bound.play_batch, make("batch", label, kernel_cold)))

    def _cold(self, key: str | None) -> bool:
        """Will the kernel compile (``key``: the one rebuilt under that engine key)? Read on disk."""
        from simcards.nbutil import cache_is_cold

        return cache_is_cold(kernel_file(self.build), key)


def kernel_file(build: Callable) -> Path:
    """The kernel module beside the module defining a binding's ``build`` (games/<name>/kernel.py)."""
    module = sys.modules.get(getattr(build, "__module__", ""), None)
    where = Path(getattr(module, "__file__", None) or inspect.getfile(build))
    return where.with_name("kernel.py")


def _policies(users: list[Family]) -> str:
    names = ", ".join(f"'{f.name}'" for f in users)
    return f"policy {names}" if len(users) == 1 else f"policies {names}"


def _decide_cold(decide) -> bool:
    """Will the reference engine's decision function compile? A jitted one cached on disk: when
    its cache has no index yet; otherwise (in memory, or a plain function) only numba's own
    compile events will tell (``compiling.DELAY``)."""
    from simcards.nbutil import dispatcher_is_cold

    return dispatcher_is_cold(decide)


def seat_arrays(strategies: Sequence[Strategy], width: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Strategy ids and parameter rows, one per seat, zero-padded to at least ``width`` (a game
    whose families have more parameters than ``strategy.N_PARAMS`` asks for more)."""
    sids = np.array([s.family.sid for s in strategies], dtype=np.int64)
    width = max(width, *(len(s.vector()) for s in strategies)) if strategies else width
    params = np.stack([s.vector(width) for s in strategies]).astype(np.float64)
    return sids, params

