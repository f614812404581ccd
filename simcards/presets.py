"""Files shipped inside the package (``simcards/data``), found by name wherever simcards is
installed: strategy presets (``--strategy cautious``) and report specs
(``simcards report yaniv-variants``)."""

from __future__ import annotations

from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def strategy_presets(game: str) -> dict[str, Path]:
    """``{name: path}`` of the TOML presets shipped for ``game`` (a canonical game name)."""
    folder = DATA / "strategies" / game
    return {p.stem: p for p in sorted(folder.glob("*.toml"))} if folder.is_dir() else {}


def strategy_preset(game: str, name: str) -> Path | None:
    return strategy_presets(game).get(name)


def report_specs() -> dict[str, Path]:
    """``{name: path}`` of the shipped report specs."""
    return {p.stem: p for p in sorted((DATA / "reports").glob("*.toml"))}


def describe(path: Path) -> str:
    """The first comment line of a shipped file, or a TOML file's ``title``: what it is for."""
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("#"):
            return line.lstrip("# ").strip()
        if line.startswith("title"):
            return line.partition("=")[2].strip().strip('"')
    return ""
