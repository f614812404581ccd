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
    """The preset ``name`` names, case-insensitively (``Cautious`` is ``cautious``), or None."""
    from simcards.names import find

    presets = strategy_presets(game)
    found = find(name, presets)
    return presets[found] if found is not None else None


def report_specs() -> dict[str, Path]:
    """``{name: path}`` of the shipped report specs."""
    return {p.stem: p for p in sorted((DATA / "reports").glob("*.toml"))}


def describe(path: Path) -> str:
    """What a shipped file is for: its leading comment block, joined into one paragraph (up to a
    line ``#`` alone, after which a file may say how to use it), or a TOML file's ``title``."""
    lines: list[str] = []
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("#"):
            text = line.lstrip("#").strip()
            if not text:
                if lines:
                    break
                continue
            lines.append(text)
            continue
        if lines:
            break
        if line.startswith("title"):
            return line.partition("=")[2].strip().strip('"')
        if line:
            break
    return " ".join(lines)
