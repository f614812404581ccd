"""The ranges a batch is played in on threads (``games.batch.guided_cuts``): they cover the batch
once, in order, and shrink as it runs out, so the threads finish together; the calls stay few
(each costs tens of microseconds). That the games do not depend on the cuts is tested per game
(``test_same_results_any_threads_and_chunks``)."""

from __future__ import annotations

from simcards.games.batch import RANGES, guided_cuts


def test_cuts_cover_the_batch_once_and_shrink_to_a_small_last_range():
    for count in (1, 2, 3, 7, 64, 65, 200, 1000, 50_000, 123_457):
        for threads in (2, 3, 4, 8):
            cuts = guided_cuts(count, threads)
            sizes = [b - a for a, b in zip(cuts, cuts[1:])]
            assert cuts[0] == 0 and cuts[-1] == count and min(sizes) >= 1, (count, threads)
            assert sizes[:-1] == sorted(sizes[:-1], reverse=True), (count, threads)  # never growing
            smallest = -(-count // RANGES)
            assert sizes[-1] <= smallest and max(sizes) <= max(smallest, count // (2 * threads)), (count, threads)
            assert len(sizes) <= RANGES, (count, threads)  # few calls


def test_a_large_batch_starts_with_a_share_of_it_per_thread():
    cuts = guided_cuts(50_000, 2)
    assert cuts[1] == 12_500 and len(cuts) - 1 < 20
