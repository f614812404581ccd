"""Strategy specs shared by every game: families with typed parameters, specs, TOML files and
user plugins.

A *family* is a parameterised policy (``threshold``, ``knock``…) that a game's kernel knows by an
integer id. A *strategy* is a family with parameter values, written as a short spec::

    random
    threshold:call=5,keep=0.5
    cautious                          (a preset shipped in simcards/data/strategies/<game>/)
    my_preset.toml
    my_policies.py:lowball            (a user policy registered by that file)

A preset's ``plugin`` and a ``file.py`` spec run Python code: presets and report specs are code one
must trust, like a Makefile. Before a file's code runs, a notice says so on stderr (``running code
from FILE (named by ...)``); a preset's plugin, and a file a report spec names, must lie inside the
preset's or spec's own directory (links followed) unless :func:`allow_outside_code` (the CLI's
``--allow-outside-code``) says otherwise. The files shipped inside simcards run without a notice.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import importlib.util
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

import numpy as np

from simcards.errors import SimcardsError
from simcards.names import did_you_mean, find, unknown

N_PARAMS = 8  # the usual width of a seat's float64 parameter vector (wider when a family needs it)
MAX_PARAMS = 16
FIRST_CUSTOM_SID = 100


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    low: float
    high: float
    help: str
    integer: bool = False


@dataclass(frozen=True)
class Family:
    """A strategy family: a kernel id, its parameters (in vector order) and a description; with
    ``decide``, the policy function it attaches with (the same way for user policies and a game's
    search players)."""

    name: str
    sid: int
    description: str
    params: tuple[Param, ...] = ()
    stochastic: bool = False
    # an attached family: a user policy, or a game's search player (compiled into an engine of
    # its own, so a run that does not play it never compiles it: games.engine.KernelBinding)
    decide: Callable | None = field(default=None, compare=False)

    def param(self, name: str) -> Param:
        """The parameter ``name`` names, case-insensitively (``CALL`` is ``call``); else one line
        with the nearest parameter's name and the list."""
        found = find(name, [p.name for p in self.params])
        for p in self.params:
            if p.name == found:
                return p
        known = ", ".join(p.name for p in self.params) or "none"
        raise SimcardsError(f"strategy {self.name!r} has no parameter {name!r}"
                            f"{did_you_mean(name, [p.name for p in self.params])}its parameters: {known}")


@dataclass(frozen=True)
class Strategy:
    family: Family
    values: tuple[tuple[str, float], ...]

    @property
    def spec(self) -> str:
        changed = [f"{k}={_fmt(v)}" for k, v in self.values if v != self.family.param(k).default]
        return self.family.name + (":" + ",".join(changed) if changed else "")

    def vector(self, width: int | None = None) -> np.ndarray:
        """Parameter values in declaration order, zero-padded to ``width`` (default: at least
        ``N_PARAMS``)."""
        vec = np.zeros(width or max(N_PARAMS, len(self.values)), dtype=np.float64)
        for i, (_, v) in enumerate(self.values):
            vec[i] = v
        return vec

    def as_dict(self) -> dict:
        return {"family": self.family.name, "params": dict(self.values)}


def _fmt(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


# ----- registry of user policies, per game --------------------------------------------------
_CUSTOM: dict[str, dict[str, Family]] = {}


def register(game: str, name: str, decide: Callable, params: dict[str, float] | None = None,
             description: str = "a user policy", stochastic: bool = False) -> Family:
    """Register a user policy for ``game`` under ``name``. ``decide`` must be a numba ``@njit``
    function with the game's policy signature (see the game's ``policies`` module). ``params``
    maps parameter names to defaults (at most 16; any value is accepted)."""
    table = _CUSTOM.setdefault(game, {})
    if name in table and table[name].decide is decide:
        return table[name]
    plist = tuple(Param(k, float(v), -1e12, 1e12, "user parameter") for k, v in (params or {}).items())
    if len(plist) > MAX_PARAMS:
        raise SimcardsError(f"policy {name!r} declares {len(plist)} parameters; at most {MAX_PARAMS}")
    fam = Family(name, FIRST_CUSTOM_SID + len(table), description, plist, stochastic, decide)
    table[name] = fam
    return fam


def custom_families(game: str) -> dict[str, Family]:
    return dict(_CUSTOM.get(game, {}))


# ----- code named by presets and report specs ------------------------------------------------------
_TRUST = {"outside": False}  # --allow-outside-code
_CHECKED: contextvars.ContextVar[bool] = contextvars.ContextVar("simcards_code_checked", default=False)
_ORIGINS: dict[Path, str] = {}  # a file a report spec named → "report spec PATH" (for the notice)


def _to_stderr(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


_NOTICE: dict[str, Callable[[str], None]] = {"say": _to_stderr}


def allow_outside_code(allow: bool = True) -> None:
    """Let a preset's ``plugin`` and the files a report spec names lie outside the preset's or
    spec's own directory (the CLI's ``--allow-outside-code``). Off by default."""
    _TRUST["outside"] = bool(allow)


def set_code_notice(say: Callable[[str], None]) -> None:
    """Where the notice ``running code from FILE (named by ...)`` goes (default: stderr; the CLI
    sends it through its messages, which ``--quiet`` drops)."""
    _NOTICE["say"] = say


@contextlib.contextmanager
def checked_elsewhere() -> Iterator[None]:
    """Specs the client process has already resolved (a Dask worker rebuilding a job's engine from
    absolute paths): no second directory check and no second notice there."""
    token = _CHECKED.set(True)
    try:
        yield
    finally:
        _CHECKED.reset(token)


def confine(target: str | Path, home: str | Path, named_by: str) -> Path:
    """``target`` (relative to ``home``, or absolute) resolved with its links followed; refused in
    one line when it lies outside ``home`` and outside code is not allowed."""
    base = Path(home).resolve()
    real = (base / Path(target).expanduser()).resolve()
    if real.is_relative_to(base) or _TRUST["outside"] or _CHECKED.get():
        return real
    raise SimcardsError(f"{named_by} names {real}, outside its directory {base}; presets and report specs run "
                        "the code they name: pass --allow-outside-code to run it")


def name_origin(path: str | Path, origin: str) -> None:
    """Remember what named a code file (``report spec PATH``): the notice says so when it runs."""
    _ORIGINS[Path(path).resolve()] = origin


def _shipped(real: Path) -> bool:
    from simcards.presets import DATA

    return real.is_relative_to(DATA)


def load_plugin(path: str | Path, named_by: str | None = None) -> None:
    """Import a user's Python file; its ``register(...)`` calls add policies. Says so on stderr
    first (``running code from FILE (named by ...)``), unless it ships with simcards."""
    path = Path(path)
    if not path.is_file():
        raise SimcardsError(f"strategy file {str(path)!r} does not exist")
    real = path.resolve()
    # one module per file: two files of the same name in two directories are two plug-ins
    name = "simcards_user_" + path.stem.replace("-", "_") + "_" + hashlib.sha1(str(real).encode()).hexdigest()[:12]
    if name in sys.modules:
        return
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise SimcardsError(f"strategy file {str(path)!r} cannot be loaded as a Python module")
    if not _CHECKED.get() and not _shipped(real):
        _NOTICE["say"](f"running code from {real} (named by {named_by or _ORIGINS.get(real) or f'the file {path}'})")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SimcardsError:
        raise
    except Exception as exc:  # a user's file: report it in one line
        del sys.modules[name]
        raise SimcardsError(f"could not load policy file {str(path)!r}: {type(exc).__name__}: {exc}") from None


# ----- parsing --------------------------------------------------------------------------------
def _convert(fam: Family, key: str, raw: Any) -> float:
    p = fam.param(key)
    if isinstance(raw, (bool, np.bool_)):  # a TOML true/false: float(True) would play it as 1
        raise SimcardsError(f"strategy {fam.name}: {key}={str(bool(raw)).lower()} is not a number")
    try:
        value = float(raw)
    except (TypeError, ValueError):
        raise SimcardsError(f"strategy {fam.name}: {key}={raw!r} is not a number") from None
    if not p.low <= value <= p.high:
        raise SimcardsError(f"strategy {fam.name}: {key}={_fmt(value)} is out of range {_fmt(p.low)}..{_fmt(p.high)}")
    if p.integer and not value.is_integer():
        raise SimcardsError(f"strategy {fam.name}: {key}={raw} must be a whole number")
    return value


def _by_name(fam: Family, given: dict[str, Any]) -> dict[str, Any]:
    """``given`` with each key the parameter it names (case-insensitive; ``call`` and ``CALL``
    together are refused)."""
    out: dict[str, Any] = {}
    typed: dict[str, str] = {}
    for k, v in given.items():
        name = fam.param(k).name
        if name in out:
            raise SimcardsError(f"strategy {fam.name}: parameter {name} is given twice ({typed[name]!r} and {k!r}: "
                                "names ignore case)")
        out[name], typed[name] = v, k
    return out


def make_strategy(fam: Family, given: dict[str, Any]) -> Strategy:
    """``fam`` with the parameters ``given`` (names ignore case; of two keys naming one parameter
    the later wins, as in a dict update: what a user typed twice is refused before, by ``_by_name``)."""
    values = {p.name: p.default for p in fam.params}
    for k, v in given.items():
        name = fam.param(k).name
        values[name] = _convert(fam, name, v)
    return Strategy(fam, tuple((p.name, values[p.name]) for p in fam.params))


def _load_toml(path: Path, game: str, families: dict[str, Family]) -> Strategy:
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise SimcardsError(f"malformed strategy file {str(path)!r}: {exc}") from None
    if "game" in data and data["game"] != game:
        raise SimcardsError(f"strategy file {str(path)!r} is for {data['game']!r}, not {game!r}")
    family = data.get("family")
    if not isinstance(family, str):
        raise SimcardsError(f"malformed strategy file {str(path)!r}: it needs a line family = \"...\"")
    if "plugin" in data:
        if not isinstance(data["plugin"], str):
            raise SimcardsError(f"malformed strategy file {str(path)!r}: plugin = \"file.py\" (beside the preset)")
        named_by = f"preset {path}"
        load_plugin(confine(data["plugin"], path.parent, named_by), named_by)
        families = {**families, **custom_families(game)}
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise SimcardsError(f"malformed strategy file {str(path)!r}: [params] must be a table")
    fam = _family(family, families, game)
    return make_strategy(fam, _by_name(fam, params))


def _family(name: str, families: dict[str, Family], game: str) -> Family:
    """The family ``name`` names, case-insensitively; else one line with the nearest family or
    preset."""
    all_fams = {**families, **custom_families(game)}
    found = find(name, all_fams)
    if found is None:
        from simcards.presets import strategy_presets

        presets = list(strategy_presets(game))
        raise unknown(f"{game} strategy", name, [*all_fams, *presets],
                      listed=f"{', '.join(all_fams)}; presets: {', '.join(presets) or 'none'}",
                      tail=" (or a .toml file, or file.py:name)")
    return all_fams[found]


def parse_spec(spec: str, game: str, families: dict[str, Family]) -> Strategy:
    """``random`` · ``threshold:call=5,keep=0.5`` · ``path.toml`` · ``file.py:name[:k=v,...]``."""
    text = spec.strip()
    if not text:
        raise SimcardsError("empty strategy spec")
    if text.endswith(".toml"):
        path = Path(text)
        if not path.is_file():
            raise SimcardsError(f"strategy file {text!r} does not exist")
        return _load_toml(path, game, families)
    head, _, rest = text.partition(":")
    if head.endswith(".py"):  # named by the user (or a report spec, which checked its directory)
        load_plugin(head, _ORIGINS.get(Path(head).resolve()) or f"the strategy spec {text!r}")
        head, _, rest = rest.partition(":")
    elif find(head, {**families, **custom_families(game)}) is None:  # a shipped preset, by name: cautious:call=4
        from simcards.presets import strategy_preset

        preset = strategy_preset(game, head)
        if preset is not None:
            base = _load_toml(preset, game, families)
            return make_strategy(base.family, {**dict(base.values), **_by_name(base.family, _given(text, rest))})
    fam = _family(head, families, game)
    return make_strategy(fam, _by_name(fam, _given(text, rest)))


def _given(text: str, rest: str) -> dict[str, str]:
    """``call=5,keep=0.5`` → ``{"call": "5", "keep": "0.5"}``."""
    given: dict[str, str] = {}
    if rest:
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not key.strip():
                raise SimcardsError(f"strategy {text!r}: parameters are written key=value, separated by commas")
            if key.strip() in given:
                raise SimcardsError(f"strategy {text!r}: parameter {key.strip()} is given twice")
            given[key.strip()] = value.strip()
    return given


def seat_strategies(specs: list[str | Strategy] | tuple[str | Strategy, ...] | None, players: int, game: str,
                    families: dict[str, Family], default: str) -> list[Strategy]:
    """One spec for every seat, or exactly one per seat."""
    specs = list(specs or [default])
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise SimcardsError(f"give one --strategy for all seats or exactly {players} (one per seat); got {len(specs)}")
    cache: dict[str, Strategy] = {}
    out: list[Strategy] = []
    for s in specs:
        if isinstance(s, Strategy):
            out.append(s)
            continue
        if s not in cache:
            cache[s] = parse_spec(s, game, families)
        out.append(cache[s])
    return out


def split_specs(text: str) -> list[str]:
    """Split ``a,b:x=1,y=2,c`` on the commas that start a new strategy (not inside parameters).
    An empty spec or an empty item (``''``, ``a,,b``, ``threshold:call=3,``) is refused: dropping
    it would play the default or another strategy than the one typed."""
    if not text.strip():
        raise SimcardsError("empty strategy spec: give one, e.g. random (or leave the option out for the default)")
    out: list[str] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise SimcardsError(f"strategy {text!r} has an empty item (two commas in a row, or one at an end)")
        if out and "=" in part and ":" not in part.split("=")[0] and not part.endswith(".toml"):
            out[-1] += "," + part
        else:
            out.append(part)
    return out
