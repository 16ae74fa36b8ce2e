"""Games run in several threads at once play as they play alone: what an evaluation reads (the
state being evaluated, the listing cache's mode) belongs to the thread or context doing it."""
from __future__ import annotations

import random
import sys
import threading

from interpreter.api import load_game
from interpreter.engine import listing_cache

GAMES = {"schmier": 7, "crazy_eights": 8, "euchre": 9, "gnoming_a_round": 3}    # with their seeds


def _played(name: str, seed: int, games: int = 3) -> list[str]:
    """The moves of a few seeded games with random choices, as texts, then each game's scores."""
    loaded = load_game(name)
    chooser = random.Random(seed)
    out: list[str] = []
    for k in range(games):
        state = loaded.new_state(None, seed + k)
        while not state.over:
            move = chooser.choice(loaded.legal_moves(state))
            loaded.apply(state, move)
            out.append(f"P{move.seat + 1} {move.text}")
        out.append(str(loaded.scores(state)))
    return out


def test_games_played_in_threads_at_once_play_as_each_alone():
    alone = {name: _played(name, seed) for name, seed in GAMES.items()}
    together: dict[str, list[str]] = {}
    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)      # switch threads as often as possible: evaluations interleave
    try:
        threads = [threading.Thread(target=lambda n=name, s=seed: together.__setitem__(n, _played(n, s)))
                   for name, seed in GAMES.items()]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(switch)
    assert together == alone


def test_the_listing_caches_mode_is_set_for_a_block_of_one_context():
    seen: list[str] = []
    with listing_cache.mode("off"):
        worker = threading.Thread(target=lambda: seen.append(listing_cache.MODE.get()))
        worker.start()
        worker.join()
        assert listing_cache.MODE.get() == "off"
    assert seen == ["free"] and listing_cache.MODE.get() == "free"


def test_draws_decided_in_one_thread_leave_the_others_to_their_generator():
    from interpreter.engine import rng
    inside, done = threading.Event(), threading.Event()

    def explicit() -> None:
        with rng.draws_from(lambda n: 0):
            inside.set()
            done.wait(10)

    holder = threading.Thread(target=explicit)
    holder.start()
    inside.wait(10)
    try:
        drawn = rng.shuffled(rng.seed_state(3), list(range(10)))
    finally:
        done.set()
        holder.join()
    assert drawn == rng.shuffled(rng.seed_state(3), list(range(10)))
    assert drawn[0] != list(range(10))
