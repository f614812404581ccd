"""What every study kind's report text is made of: a reader's table (:class:`Table`, cut to fit a
page by :func:`split_columns`), an estimate with its interval in as many decimals as it warrants
(:func:`human`), rule values, lists and flags in words."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

ALPHA = 0.05


@dataclass
class Table:
    """A table as a reader sees it: text cells; ``bold`` cells (row, column) are significant."""

    caption: str
    header: list[str]
    rows: list[list[str]]
    bold: set = field(default_factory=set)
    note: str = ""  # Markdown under the table

    @classmethod
    def of(cls, caption: str, df: pd.DataFrame, note: str = "") -> "Table":
        """From a table of text cells; a column with nothing in it (every cell "-") is left out."""
        rows = [["-" if v is None or (isinstance(v, float) and math.isnan(v)) else str(v) for v in r]
                for r in df.itertuples(index=False)]
        keep = [j for j in range(len(df.columns)) if j == 0 or any(r[j] not in ("", "-") for r in rows)]
        return cls(caption, [str(df.columns[j]) for j in keep], [[r[j] for j in keep] for r in rows], note=note)


MAX_VALUE_COLUMNS = 5  # wider tables are cut into parts that fit a page, the label column repeated


def split_columns(t: Table, most: int = MAX_VALUE_COLUMNS) -> list[Table]:
    """``t`` as parts of at most ``most`` value columns each (balanced), every part repeating the
    first column; a row with nothing but "-" in a part is left out of that part."""
    n = len(t.header) - 1
    if n <= most:
        return [t]
    k = math.ceil(n / most)
    size = math.ceil(n / k)
    parts = []
    for p, start in enumerate(range(1, n + 1, size)):
        cols = [0] + list(range(start, min(n + 1, start + size)))
        rows: list[list[str]] = []
        bold: set[tuple[int, int]] = set()
        for i, row in enumerate(t.rows):
            if all(row[c] == "-" for c in cols[1:]):
                continue
            bold |= {(len(rows), j) for j, c in enumerate(cols) if (i, c) in t.bold}
            rows.append([row[c] for c in cols])
        caption = f"{t.caption} ({p + 1} of {k})" if t.caption else ""
        parts.append(Table(caption, [t.header[c] for c in cols], rows, bold, t.note if p == k - 1 else ""))
    return parts


def human(value: float, low: float, high: float, kind: str, signed: bool = False, decimals: int | None = None) -> str:
    """``value [low, high]`` with as many decimals as the interval's half-width warrants (one
    significant digit of it, at most three decimals): ``494.5 [493.8, 495.3]``, ``70.2% [69.9, 70.4]``;
    ``decimals`` fixes them (one count for a whole table row)."""
    if value is None or not math.isfinite(value):
        return "-"
    scale = 100.0 if kind == "pct" else 1.0
    v, lo, hi = value * scale, low * scale, high * scale
    unit = "%" if kind == "pct" else ""
    if not (math.isfinite(lo) and math.isfinite(hi)):
        return fixed(v, 1 if decimals is None else decimals, signed) + unit
    d = digits_for(low, high, kind) if decimals is None else decimals
    if decimals is None and d > 1 and fixed(v, d) == fixed(lo, d) == fixed(hi, d):
        d = 1  # the extra decimals show nothing: 100.0% [100.0, 100.0], not 100.000% [100.000, 100.000]
    return f"{fixed(v, d, signed)}{unit} [{fixed(lo, d)}, {fixed(hi, d)}]"


def digits_for(low: float, high: float, kind: str) -> int:
    """Decimals that show one significant digit of an interval's half-width, two when it starts
    with a 1 (0 to 3)."""
    hw = (high - low) / 2 * (100.0 if kind == "pct" else 1.0)
    if not math.isfinite(hw) or hw <= 1e-9:  # a point (float noise is no precision: not 100.000% [100.000, ...])
        return 1
    e = math.floor(math.log10(hw))
    lead_one = hw / 10 ** e < 2  # 1.x: one digit would round 9.5 [8.5, 10.5] to 10 [8, 10]
    return min(3, max(0, -e + lead_one))


def fixed(x: float, d: int, signed: bool = False) -> str:
    text = f"{x:+,.{d}f}" if signed else f"{x:,.{d}f}"
    if float(text.replace(",", "")) == 0:  # no "-0.0" and no "+0.0"
        text = text.lstrip("+-")
    return text.replace("-", "−")


def human_value(v) -> str:
    """A rule's value for people: yes/no, off (None), 10/10/10, 10,000."""
    if v is None:
        return "off"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, (list, tuple)):
        return "/".join(human_value(x) for x in v)
    if isinstance(v, float) and v.is_integer():
        v = int(v)
    if isinstance(v, int):
        return f"{v:,}" if abs(v) >= 10_000 else str(v)
    return str(v)


def human_key(k: str) -> str:
    return k.replace("_", " ")


def lineups_text(lu) -> str:
    """Seat rotations as reader text: ``0101, 1010``."""
    return ", ".join("".join(str(x) for x in one) for one in lu)


def rules_line(rules: dict) -> str:
    return ", ".join(f"{human_key(k)} {human_value(v)}" for k, v in rules.items())


def in_pts(text: str) -> str:
    """A difference of two shares (an edge: win rate − fair share) in percentage points."""
    return text.replace("%", " pts", 1)


def in_points(metric: str, text: str) -> str:
    """An estimate's text, in percentage points when it is an edge or a deviation from a fair share."""
    return in_pts(text) if metric.endswith(("edge", "_deviation")) and "%" in text else text


def number_text(v) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def is_yes(flag) -> bool:
    """A flag cell: True (Python or NumPy); missing (None, NaN) is no."""
    return flag is not None and not (isinstance(flag, float) and math.isnan(flag)) and bool(flag)


def joined(items: list[str]) -> str:
    items = list(items)
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def plain(text: str) -> str:
    """Markdown emphasis and code marks off: the answer as the terminal and --json show it."""
    return text.replace("**", "").replace("`", "")


def lower_first(text: str) -> str:
    return text[:1].lower() + text[1:]


def markdown_table(df: pd.DataFrame) -> str:
    cols = [str(c) for c in df.columns]
    esc = lambda x: str(x).replace("|", "\\|").replace("\n", " ")
    lines = ["| " + " | ".join(esc(c) for c in cols) + " |", "|" + "|".join("---" for _ in cols) + "|"]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(esc(v) for v in row) + " |")
    return "\n".join(lines)
