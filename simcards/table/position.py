"""A position given by hand, generic part: the compact text form and the JSON file, and the small
field readers every game's position parser uses (``simcards/games/<g>/position.py``).

The text form is ``key value`` fields separated by ``;`` or new lines (``key: value`` too), cards
in the replay's notation (``As Td 10c``; ``-`` for none). Which keys a game reads, and what makes
a position impossible, is the game's parser's business: this module names no game.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from simcards.errors import SimcardsError


def parse_position(text: str, keys: tuple[str, ...]) -> dict:
    """The compact text form as a dict of ``key -> value text`` (``keys``: the game's keys; an
    unknown key or one given twice is refused in one line)."""
    out: dict[str, Any] = {}
    for part in text.replace("\n", ";").split(";"):
        part = part.strip()
        if not part:
            continue
        key, _, value = part.partition(" ")
        if ":" in key:
            key, _, rest = part.partition(":")
            value = rest
        key = key.strip().lower()
        if key not in keys:
            raise SimcardsError(f"{key!r} is not a position key (keys: {', '.join(keys)})")
        if key in out:
            raise SimcardsError(f"{key!r} is given twice")
        out[key] = value.strip()
    return out


def load_position(text: str | None, json_file: str | Path | None, keys: tuple[str, ...], example: str) -> dict:
    """A position from the compact text or a JSON file (an object with the same keys; card lists
    as strings or lists). ``example``: a position of the game, for the message when none is given."""
    if json_file is not None:
        try:
            data = json.loads(Path(json_file).read_text())
        except OSError as exc:
            raise SimcardsError(f"{json_file}: {exc.strerror}") from None
        except json.JSONDecodeError as exc:
            raise SimcardsError(f"{json_file}: not JSON ({exc.msg}, line {exc.lineno})") from None
        if not isinstance(data, dict):
            raise SimcardsError(f"{json_file}: give a JSON object with the position's keys")
        bad = [k for k in data if k not in keys]
        if bad:
            raise SimcardsError(f"{bad[0]!r} is not a position key (keys: {', '.join(keys)})")
        return data
    if not text:
        raise SimcardsError(f"give a position (e.g. '{example}') or --json FILE")
    return parse_position(text, keys)


def cards(value: Any, what: str) -> list[int]:
    """A list of distinct cards (face ids) from text (``As Td``, ``-`` for none) or a list."""
    from simcards.cards import card_code, parse_cards

    if value is None:
        return []
    if isinstance(value, str):
        value = value.replace(",", " ").split()
        if value in ([], ["-"], ["—"]):
            return []
    try:
        out = [int(c) for c in parse_cards(list(value))]
    except (SimcardsError, ValueError) as exc:
        raise SimcardsError(f"{what}: {exc}") from None
    seen: set[int] = set()
    for c in out:
        if c in seen:
            raise SimcardsError(f"{what}: {card_code(c)} is given twice")
        seen.add(c)
    return out


def whole(value: Any, what: str, default: int) -> int:
    """A whole number (``default`` when not given)."""
    if value is None or value == "":
        return default
    try:
        return int(value)
    except (TypeError, ValueError):
        raise SimcardsError(f"{what}: {value!r} is not a whole number") from None
