import sys

from simcards.cli import main

sys.exit(main())
