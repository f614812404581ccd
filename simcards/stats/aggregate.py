"""Summary-only streaming aggregation: every chunk of games becomes a few counts, sums and sums
of squares; chunks merge by addition; the merged totals give the same summary (every rate with its
95% confidence interval) as ``GameDef.summarize`` on the whole per-game table — without ever
holding that table.

How a game declares its metrics
-------------------------------
A game may implement the protocol itself::

    partial_summary(games_df, players) -> partial      # one chunk
    merge_summary(a, b) -> partial                     # associative
    finish_summary(partial, players) -> dict            # what summarize() returns

Otherwise (all three games today) the *generic* aggregator derives the metrics from the game's
own ``summarize``: it runs that function on each chunk with ``mean_ci``, ``ratio_ci``, ``wilson`` and ``proportion_ci``
replaced by recorders that return sufficient statistics (:class:`MeanPart`, :class:`RatioPart`,
:class:`CountPart`) instead of estimates. Integer leaves that are 0 on an empty table are sums
(``len(games)``, ``int(col.sum())``) and add up; any other leaf (``1 / players``) must be the same
in every chunk. Anything else (an estimate computed by another function, a float that depends on
the data) is refused with a clear message, never silently approximated. Integer metrics are summed
exactly (Python ints), so the result does not depend on how the games were cut into chunks.
"""

from __future__ import annotations

import math
import types
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from simcards.errors import SimcardsError
from simcards.stats import estimates as stats
from simcards.stats.estimates import Z95, Estimate


def _sums(x: np.ndarray, power: int = 1):
    """Exact Python int for integer/bool data, float otherwise."""
    if x.dtype.kind in "biu":
        v = x.astype(np.int64)
        return int((v**power).sum()) if power > 1 else int(v.sum())
    v = x.astype(np.float64)
    return float((v**power).sum())


def _as_array(values) -> np.ndarray:
    if isinstance(values, pd.Series):
        values = values.to_numpy()
    x = np.asarray(values)
    if x.dtype == object:
        x = x.astype(np.float64)
    return x


@dataclass(frozen=True)
class MeanPart:
    """Sufficient statistics of ``mean_ci``: n, Σx, Σx²."""

    n: int
    s1: Any
    s2: Any

    def __add__(self, o: "MeanPart") -> "MeanPart":
        return MeanPart(self.n + o.n, self.s1 + o.s1, self.s2 + o.s2)

    def estimate(self, z: float = Z95) -> Estimate:
        n = self.n
        if n == 0:
            return Estimate(math.nan, math.nan, math.nan, 0)
        m = float(_q(self.s1) / n)
        if n == 1:
            return Estimate(m, math.nan, math.nan, 1)
        var = (_q(self.s2) - _q(self.s1) ** 2 / n) / (n - 1)
        se = math.sqrt(max(float(var), 0.0)) / math.sqrt(n)
        return Estimate(m, m - z * se, m + z * se, n)


@dataclass(frozen=True)
class RatioPart:
    """Sufficient statistics of ``ratio_ci`` (delta method over games): n, Σa, Σb, Σa², Σb², Σab."""

    n: int
    sa: Any
    sb: Any
    saa: Any
    sbb: Any
    sab: Any
    lo: float = -math.inf  # stats.ratio_bounds of the units seen: the interval is cut to [lo, hi]
    hi: float = math.inf

    def __add__(self, o: "RatioPart") -> "RatioPart":
        return RatioPart(self.n + o.n, self.sa + o.sa, self.sb + o.sb, self.saa + o.saa, self.sbb + o.sbb,
                         self.sab + o.sab, min(self.lo, o.lo), max(self.hi, o.hi))

    def estimate(self, z: float = Z95) -> Estimate:
        n = self.n
        if n == 0 or self.sb == 0:
            return Estimate(math.nan, math.nan, math.nan, n)
        sa, sb = _q(self.sa), _q(self.sb)
        r_exact = sa / sb
        r = float(r_exact)
        if n == 1:
            est = Estimate(r, math.nan, math.nan, 1)
        else:
            # Σ(a - r b)² = Σa² - 2 r Σab + r² Σb²
            ssr = _q(self.saa) - 2 * r_exact * _q(self.sab) + r_exact**2 * _q(self.sbb)
            se = math.sqrt(max(float(ssr / (n * (n - 1))), 0.0)) / float(sb / n)
            q = stats.t_quantile(z, n - 1)  # as stats.ratio_ci: small-sample t over n units
            est = Estimate(r, r - q * se, r + q * se, n)
        if isinstance(self.sa, int) and isinstance(self.sb, int):  # whole counts: as stats.ratio_ci
            return stats.widen_for_counts(est, self.sa, self.sb, self.lo, self.hi, z)
        return stats.clamp(est, self.lo, self.hi) if n > 1 else est


@dataclass(frozen=True)
class CountPart:
    """Sufficient statistics of ``wilson`` and ``proportion_ci`` (``exact``): successes and trials."""

    k: Any
    n: int
    exact: bool = False

    def __add__(self, o: "CountPart") -> "CountPart":
        return CountPart(self.k + o.k, self.n + o.n, self.exact)

    def estimate(self, z: float = Z95) -> Estimate:
        return (stats.proportion_ci if self.exact else stats.wilson)(self.k, self.n, z)


@dataclass(frozen=True)
class Const:
    """A leaf that does not depend on the data (e.g. ``1 / players``): must agree across chunks."""

    value: Any

    def __add__(self, o: "Const") -> "Const":
        if not _same(self.value, o.value):
            raise SimcardsError(f"summary-only mode: a summary value differs between chunks ({self.value!r} vs "
                                f"{o.value!r}); this game's summary cannot be aggregated on the fly")
        return self


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def _q(v):
    """Exact rational for ints and fractions, float otherwise."""
    return Fraction(v) if isinstance(v, (int, Fraction)) else float(v)


def _rec_mean_ci(values, z: float = Z95) -> MeanPart:
    x = _as_array(values)
    return MeanPart(int(x.size), _sums(x), _sums(x, 2))


def _rec_ratio_ci(numer, denom, z: float = Z95) -> RatioPart:
    a, b = _as_array(numer), _as_array(denom)
    lo, hi = stats.ratio_bounds(a, b)
    if stats._whole(a) and stats._whole(b):  # whole floats count as counts too, as in stats.ratio_ci
        ai, bi = a.astype(np.int64), b.astype(np.int64)
        return RatioPart(int(a.size), int(ai.sum()), int(bi.sum()), int((ai * ai).sum()), int((bi * bi).sum()),
                         int((ai * bi).sum()), lo, hi)
    af, bf = a.astype(np.float64), b.astype(np.float64)
    return RatioPart(int(a.size), float(af.sum()), float(bf.sum()), float((af * af).sum()), float((bf * bf).sum()),
                     float((af * bf).sum()), lo, hi)


def _rec_wilson(successes, n, z: float = Z95) -> CountPart:
    k = int(successes) if float(successes).is_integer() else float(successes)
    return CountPart(k, int(n))


def _rec_proportion(successes, n, z: float = Z95) -> CountPart:
    return CountPart(_rec_wilson(successes, n).k, int(n), exact=True)


_RECORDERS = {stats.mean_ci: _rec_mean_ci, stats.ratio_ci: _rec_ratio_ci, stats.wilson: _rec_wilson,
              stats.proportion_ci: _rec_proportion}
PARTS = (MeanPart, RatioPart, CountPart, Const)


def _recording(func):
    """A copy of ``func`` whose module globals send the stats functions to the recorders."""
    func = getattr(func, "__func__", func)
    glb = dict(func.__globals__)
    for name, value in func.__globals__.items():
        for real, rec in _RECORDERS.items():
            if value is real:
                glb[name] = rec
    if glb.get("stats") is stats:  # ``stats.mean_ci(...)`` style
        glb["stats"] = types.SimpleNamespace(**{**vars(stats), "mean_ci": _rec_mean_ci,
                                                "ratio_ci": _rec_ratio_ci, "wilson": _rec_wilson,
                                                "proportion_ci": _rec_proportion})
    return types.FunctionType(func.__code__, glb, func.__name__, func.__defaults__, func.__closure__)


class Aggregator:
    """Streams per-chunk games tables into a summary equal to ``gdef.summarize`` of the whole table."""

    def __init__(self, gdef, players: int):
        self.gdef = gdef
        self.players = players
        self.native = all(hasattr(gdef, a) for a in ("partial_summary", "merge_summary", "finish_summary"))
        self._shape = None
        if not self.native:
            self._summarize = _recording(type(gdef).summarize)

    # --- one chunk --------------------------------------------------------------------------------
    def _raw(self, games: pd.DataFrame):
        return self._summarize(self.gdef, games, self.players)

    def partial(self, games: pd.DataFrame):
        """The partial aggregate of one chunk's per-game table (small, picklable, JSON-able)."""
        if self.native:
            return self.gdef.partial_summary(games, self.players)
        if self._shape is None:  # leaves that are 0 on an empty table add up; the rest are constants
            self._shape = self._raw(games.iloc[:0])
        return _classify(self._raw(games), self._shape, "summary")

    # --- merging and finishing -------------------------------------------------------------------
    def merge(self, a, b):
        if a is None:
            return b
        if b is None:
            return a
        if self.native:
            return self.gdef.merge_summary(a, b)
        return _merge(a, b)

    def dump(self, partial):
        """JSON-ready form of a partial (what workers send and what resume files hold)."""
        return partial if self.native else to_jsonable(partial)

    def load(self, data):
        return data if self.native else from_jsonable(data)

    def finish(self, total) -> dict:
        if total is None:
            return {}
        if self.native:
            return self.gdef.finish_summary(total, self.players)
        return _finish(total)


def _classify(raw, shape, path: str):
    if isinstance(raw, dict):
        if not isinstance(shape, dict) or set(raw) != set(shape):
            raise _unstreamable(path)
        return {k: _classify(raw[k], shape[k], f"{path}.{k}") for k in raw}
    if isinstance(raw, (list, tuple)):
        if not isinstance(shape, (list, tuple)) or len(raw) != len(shape):
            raise _unstreamable(path)
        return [_classify(r, s, f"{path}[{i}]") for i, (r, s) in enumerate(zip(raw, shape))]
    if isinstance(raw, (MeanPart, RatioPart, CountPart)):
        return raw
    if isinstance(raw, Estimate):
        raise _unstreamable(path)
    if isinstance(raw, (bool, np.bool_)):
        return Const(bool(raw))
    if isinstance(raw, (int, np.integer)) and isinstance(shape, (int, np.integer)) and int(shape) == 0:
        return int(raw)  # a sum over rows: adds up
    if isinstance(raw, np.generic):
        raw = raw.item()
    return Const(raw)


def _unstreamable(path: str) -> SimcardsError:
    return SimcardsError(f"summary-only mode: {path} is not built from counts, sums or the stats helpers "
                         "(mean_ci, ratio_ci, wilson), so it cannot be aggregated on the fly; run without "
                         "--summary-only or give the game a partial_summary/merge_summary/finish_summary")


def _merge(a, b):
    if isinstance(a, dict):
        return {k: _merge(a[k], b[k]) for k in a}
    if isinstance(a, list):
        return [_merge(x, y) for x, y in zip(a, b)]
    return a + b


def _finish(p):
    if isinstance(p, dict):
        return {k: _finish(v) for k, v in p.items()}
    if isinstance(p, list):
        return [_finish(v) for v in p]
    if isinstance(p, Const):
        return p.value
    if isinstance(p, (MeanPart, RatioPart, CountPart)):
        return p.estimate()
    return p


# --- JSON form, for the partial files of a resumable summary-only run ------------------------------
_TAGS = {"mean": MeanPart, "ratio": RatioPart, "count": CountPart, "const": Const}
_NAMES = {v: k for k, v in _TAGS.items()}


def to_jsonable(p):
    if isinstance(p, dict):
        return {"dict": {k: to_jsonable(v) for k, v in p.items()}}
    if isinstance(p, list):
        return {"list": [to_jsonable(v) for v in p]}
    if isinstance(p, PARTS):
        fields = {k: _num(v) for k, v in vars(p).items()}
        return {_NAMES[type(p)]: fields}
    return {"int": int(p)}


def _num(v):
    if isinstance(v, float):
        if math.isnan(v):
            return {"float": "nan"}
        return {"float": v.hex()}  # exact round trip
    return v


def _unnum(v):
    if isinstance(v, dict) and "float" in v:
        return math.nan if v["float"] == "nan" else float.fromhex(v["float"])
    return v


def from_jsonable(d):
    (tag, body), = d.items()
    if tag == "dict":
        return {k: from_jsonable(v) for k, v in body.items()}
    if tag == "list":
        return [from_jsonable(v) for v in body]
    if tag == "int":
        return int(body)
    return _TAGS[tag](**{k: _unnum(v) for k, v in body.items()})
