"""Rule options given as text (``--rule key=value``): one parser for every game."""

from __future__ import annotations

from simcards.errors import SimcardsError

TRUE = {"true", "yes", "on", "1"}
FALSE = {"false", "no", "off", "0"}


def parse_value(key: str, text: str, default):
    """``text`` as a value of the type of ``default`` (bool, int, float or str)."""
    low = text.strip().lower()
    if isinstance(default, bool):
        if low in TRUE:
            return True
        if low in FALSE:
            return False
        raise SimcardsError(f"rule {key}={text!r}: expected true or false")
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise SimcardsError(f"rule {key}={text!r}: expected a whole number") from None
    if isinstance(default, float):
        try:
            return float(text)
        except ValueError:
            raise SimcardsError(f"rule {key}={text!r}: expected a number") from None
    return text.strip()
