"""Every seeded table of a fixed set of runs and studies is byte-identical to the recorded digests.

A change that must not alter any game's logic (a refactor, a new strategy family, a faster kernel)
keeps these digests; a change that alters results on purpose regenerates them
(``python tools/digests.py > tests/data/digests.json``) and says why in its commit message.
"""

import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location("digests", ROOT / "tools" / "digests.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EXPECTED = json.loads((ROOT / "tests" / "data" / "digests.json").read_text())


def test_seeded_runs_match_the_recorded_digests():
    assert _tool().run_digests() == EXPECTED["runs"]


def test_studies_match_the_recorded_digests():
    assert _tool().study_digests() == EXPECTED["studies"]
