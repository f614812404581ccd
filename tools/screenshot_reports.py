"""Render report pages to PNG in headless Chromium, to look at them as a reader does.

    python tools/screenshot_reports.py                      # every reports/*/report.html
    python tools/screenshot_reports.py path/to/report.html --out shots --width 1280

Each page is shot in one tall window and the empty space below the page is cropped, so a PNG
shows the whole report. Needs ``chromium`` (or ``chromium-browser`` / ``google-chrome``) on PATH.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BROWSERS = ("chromium", "chromium-browser", "google-chrome")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--hide-scrollbars"]


def browser() -> str | None:
    return next((b for b in map(shutil.which, BROWSERS) if b), None)


def screenshot(page: Path, png: Path, width: int = 1366, height: int = 16000, timeout: float = 120) -> Path:
    """Shoot ``page`` into ``png`` (cropped below the content); returns ``png``."""
    exe = browser()
    if exe is None:
        raise RuntimeError("no chromium on PATH (apt-get install chromium)")
    png.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile:  # a fresh profile: no state shared between runs
        cmd = [exe, *FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}",
               f"--screenshot={png.resolve()}", page.resolve().as_uri()]
        subprocess.run(cmd, check=True, timeout=timeout, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    crop_blank_bottom(png)
    return png


def crop_blank_bottom(png: Path, margin: int = 24) -> None:
    """Cut the uniform background below the page's last content."""
    from PIL import Image, ImageChops

    img = Image.open(png).convert("RGB")
    bg = Image.new("RGB", img.size, img.getpixel((img.width - 1, img.height - 1)))
    box = ImageChops.difference(img, bg).getbbox()
    if box:
        img.crop((0, 0, img.width, min(img.height, box[3] + margin))).save(png)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="*", type=Path, help="report.html files (default: every reports/*/report.html)")
    ap.add_argument("--out", type=Path, default=Path(tempfile.gettempdir()) / "simcards-report-shots")
    ap.add_argument("--width", type=int, default=1366)
    args = ap.parse_args(argv)
    pages = args.pages or sorted((ROOT / "reports").glob("*/report.html"))
    if browser() is None:
        print("error: no chromium on PATH (apt-get install chromium)", file=sys.stderr)
        return 2
    for page in pages:
        if not page.is_file():
            print(f"error: {page} does not exist", file=sys.stderr)
            return 2
        png = screenshot(page, args.out / f"{page.parent.name}.png", args.width)
        print(png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
