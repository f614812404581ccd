"""Two Hundred (200): auction, trump, nine tricks, contract scoring."""
