"""What the games' ``view_twins`` hooks share (the contract's no-peeking check, docs/contract.md).

A twin check asks every decision of a reference game once more, from the same random state, in a
state where every card hidden from the decider has been dealt again. A game's reference engine
builds a view from its state and later asks a decision with it; :class:`ViewMemory` keeps the
arguments each live view was built with, so that the same view can be built again from the
redealt state.
"""

from __future__ import annotations

import numpy as np

LIVE_VIEWS = 8  # views remembered at once: a decision is asked soon after its view is built


class ViewMemory:
    """Mixin for a reference game that asks each decision twice: ``remember`` the arguments of
    every view built, ``built_with`` gives them back at the decision. ``redeal`` deals the hidden
    cards again; ``pairs`` collects (option chosen, option chosen in the twin state). Placed
    before the reference game among the bases, it takes ``redeal`` and passes the rest on
    (``class TwinGame(ViewMemory, ReferenceGame)``)."""

    def __init__(self, *args, redeal: np.random.Generator, **kwargs):
        super().__init__(*args, **kwargs)
        self.init_twins(redeal)

    def init_twins(self, redeal: np.random.Generator) -> None:
        self.redeal = redeal
        self.pairs: list[tuple[int, int]] = []
        self._built: dict[int, tuple[np.ndarray, tuple]] = {}

    def remember(self, view: np.ndarray, args: tuple) -> np.ndarray:
        if len(self._built) > LIVE_VIEWS:
            self._built.pop(next(iter(self._built)))
        self._built[id(view)] = (view, args)
        return view

    def built_with(self, view: np.ndarray) -> tuple:
        built, args = self._built[id(view)]
        assert built is view, "a decision asked with a view the engine did not build"
        return args
