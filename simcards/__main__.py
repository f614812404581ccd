"""``python -m simcards``: the same command line as ``simcards``."""

import sys

from simcards.cli import main

sys.exit(main(prog_name="simcards"))
