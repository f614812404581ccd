"""The registry of games. Each game package has a ``game`` module exposing ``GAME``, an instance
of :class:`simcards.games.base.GameDef`; modules are imported only when a game is used."""

from __future__ import annotations

import importlib
import importlib.util

from simcards.errors import SimcardsError
from simcards.names import unknown

GAMES = {
    "yaniv": "simcards.games.yaniv.game",
    "gin": "simcards.games.gin.game",
    "two-hundred": "simcards.games.two_hundred.game",
}
ALIASES = {"gin-rummy": "gin", "gin_rummy": "gin", "two_hundred": "two-hundred", "200": "two-hundred"}


def canonical(name: str) -> str:
    """The registry name of ``name`` (case-insensitive, aliases allowed: ``Gin-Rummy`` is ``gin``)."""
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    if key not in GAMES:
        raise unknown("game", name, [*available(), *ALIASES], listed=", ".join(available()))
    return key


def available() -> list[str]:
    """Games whose package is installed in this version."""
    out = []
    for name, module in GAMES.items():
        if importlib.util.find_spec(module.rsplit(".", 1)[0]) is not None:
            out.append(name)
    return out


def get_game(name: str):
    key = canonical(name)
    try:
        module = importlib.import_module(GAMES[key])
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("simcards.games"):
            raise SimcardsError(f"the game {key!r} is not available in this version; available: {', '.join(available())}") from None
        raise
    return module.GAME
