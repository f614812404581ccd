"""``simcards play`` in a real terminal: the command runs in a pseudo-terminal of 80 columns (the
way a person meets it, as tmux would drive it), a person's keys are typed at its prompts — a move,
a hint with the advice (Gin, docs/advice.md), an undo — until the game ends, and the screen reads
as the docs promise: the board within 80 columns, the result and the replay, exit status 0; the
game is saved where the end screen says, and that file is the game played (``simcards analyze
--file`` plays it again, the bots' moves included).
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time

import pytest

PROMPT = "> "


class Terminal:
    """A child process on a pseudo-terminal: type lines, read the screen up to the next prompt."""

    def __init__(self, argv: list[str], columns: int = 80, rows: int = 24):
        main, child = pty.openpty()
        fcntl.ioctl(child, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        env = dict(os.environ, COLUMNS=str(columns), LINES=str(rows), TERM="xterm")
        self.proc = subprocess.Popen(argv, stdin=child, stdout=child, stderr=child, env=env, close_fds=True)
        os.close(child)
        self.fd = main
        self.screen = ""

    def read_until(self, *marks: str, timeout: float = 300.0) -> str:
        """What the program wrote until one of ``marks`` appears (or it exits)."""
        start, seen = len(self.screen), time.monotonic()
        while not any(m in self.screen[start:] for m in marks):
            if time.monotonic() - seen > timeout:
                raise TimeoutError(f"no {marks!r} after {timeout} s; screen ends: {self.screen[-400:]!r}")
            ready, _, _ = select.select([self.fd], [], [], 1.0)
            if not ready:
                if self.proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            self.screen += chunk.decode("utf-8", "replace").replace("\r\n", "\n")
        return self.screen[start:]

    def type(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())

    def close(self) -> int:
        try:
            self.read_until("\x00", timeout=60)  # drain to the end
        finally:
            os.close(self.fd)
        return self.proc.wait(timeout=60)


@pytest.mark.slow
def test_a_person_plays_gin_to_the_end_in_a_terminal_with_a_hint_and_an_undo(tmp_path):
    saved = tmp_path / "game.json"
    term = Terminal([sys.executable, "-m", "simcards", "play", "gin", "--seed", "3", "--against", "simple",
                     "--hint", "knock", "--rule", "game_target=10", "--save", str(saved)])
    first = term.read_until(PROMPT)
    assert "You play seat 0 of Gin Rummy" in first and "h hint" in first and "u undo" in first
    term.type("h")
    hint = term.read_until(PROMPT)
    assert "hint (knock):" in hint
    assert "advice (" in hint and "win game" in hint  # G-SC: each option's chance of winning and points
    assert re.search(r"\d+\.\d% \[\d+\.\d, \d+\.\d\]", hint)  # a rate with its 95% interval
    term.type("zz")
    echo, answer, prompt = term.read_until(PROMPT).split("\n")  # the terminal echoes what is typed
    assert echo == "zz" and answer.startswith("error:") and prompt == PROMPT  # one line, the question again
    moves = 0
    screen = ""
    while "Game over:" not in screen and moves < 400:
        term.type("1")
        moves += 1
        if moves == 2:
            screen = term.read_until(PROMPT, "Game over:")
            term.type("u")
            assert "(move taken back)" in term.read_until(PROMPT, "Game over:")
            continue
        screen = term.read_until(PROMPT, "Game over:")
    tail = term.read_until("\x00", timeout=120)
    status = term.close()
    assert "Game over:" in screen + tail and "Replay:" in screen + tail
    assert status == 0
    lines = [line for line in term.screen.splitlines() if str(saved) not in line]  # (a path is not wrapped)
    assert max(len(line) for line in lines) <= 80, max(lines, key=len)
    # the saved game: where the end screen says, and the game played (G-GAME-1: to 10 points)
    assert f"Game saved to {saved}" in term.screen and f"simcards analyze gin --file {saved}" in term.screen
    from simcards.table.analyze import analyze
    from simcards.table.step import load

    t = load(saved, "gin")
    assert t.done and f"Game over: seat {t.result['winner']} wins" in term.screen
    replay = t.replay().splitlines()
    assert all(line in lines for line in replay if len(line) <= 80)  # the replay shown at the end
    a = analyze("gin", file=saved, samples=30)
    assert a.events == replay[2:] and len(a.decisions) == len(t.actions)
    t.close()
