"""High card: a tiny test-only game (docs/contract.md). It registers with one line
(``GAMES["high-card"] = "tests.toygame.game"``) and passes the contract suite in tests/contract/,
which shows what a fourth game must provide and that it needs nothing else."""
