"""Any game as a PettingZoo environment with action masks (``pip install 'tablerules[pettingzoo]'``):
an AEC environment (``env``), or a Parallel API one (``parallel_env``).

    from interpreter.adapters.pettingzoo import env, parallel_env
    e = env("games/some_game.yaml", players=2)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        mask = obs["action_mask"]
        e.step(None if termination or truncation else int(mask.nonzero()[0][0]))

    p = parallel_env("games/some_game.yaml", players=2, max_moves=200)
    observations, infos = p.reset(seed=1)
    while p.agents:
        actions = {a: int(observations[a]["action_mask"].nonzero()[0][0]) for a in p.agents}
        observations, rewards, terminations, truncations, infos = p.step(actions)

The agents are ``player_0``... in seat order; the actions those of ``engine.actions``; each
observation is ``{"observation": the seat's tensor, "action_mask": its legal actions}``. Chance
(the setup, rolls, shuffles) is drawn inside the environment from its generator, seeded by
``reset(seed=...)``. The rewards come at the end: by default each seat's seats beaten minus seats
beating it, over seats - 1 (``returns="results"``: the game's own results). A game still running
after ``max_moves`` moves is truncated.

In the AEC environment the seats act one at a time, in free play (a phase without turns) in the
order of the session's clock, and the mask is all zeros for an agent not to act. In the parallel
environment every agent sends an action at each step, and the action space has one more action
at its end, ``wait`` (always legal, and the only legal action of an agent that may not act now).
Each seat enters its own move in progress; the moves completed in a step are played in the
clock's order, each checked again first: one no longer legal is not played (``info["lost_race"]``:
the seat starts a new move). An illegal action counts as waiting (``info["illegal"]``);
``info["played"]`` says the agent's move was played, ``info["cleared"]`` that its move in
progress began no legal move any more and was dropped.
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import OptionError
from .action_session import DEFAULT_MAX_MOVES, Setup


def env(path: str, players: int | None = None, *, options: dict[str, str] | None = None,
        max_moves: int = DEFAULT_MAX_MOVES, returns: str = "ranking", actions: str = "auto",
        render_mode: str | None = None) -> Any:
    """The game file at ``path`` (with ``options`` as texts) as an AEC environment."""
    with _pettingzoo_needed():
        from .pettingzoo_env import RulesEnv
    return RulesEnv(_setup(path, players, options, max_moves, returns, actions), render_mode=render_mode)


def parallel_env(path: str, players: int | None = None, *, options: dict[str, str] | None = None,
                 max_moves: int = DEFAULT_MAX_MOVES, returns: str = "ranking", actions: str = "auto",
                 render_mode: str | None = None) -> Any:
    """The game file at ``path`` (with ``options`` as texts) as a Parallel API environment."""
    with _pettingzoo_needed():
        from .pettingzoo_parallel import RulesParallelEnv
    return RulesParallelEnv(_setup(path, players, options, max_moves, returns, actions), render_mode=render_mode)


@contextmanager
def _pettingzoo_needed() -> Iterator[None]:
    """An import that fails for want of PettingZoo (or what it needs) says what to install."""
    try:
        yield
    except ImportError as error:
        if error.name not in ("pettingzoo", "gymnasium", "numpy"):
            raise
        raise OptionError("the PettingZoo adapter needs PettingZoo: pip install 'tablerules[pettingzoo]'") from error


def _setup(path: str, players: int | None, options: dict[str, str] | None, max_moves: int, returns: str,
           actions: str) -> Setup:
    return Setup.from_file(path, options, players, max_moves=max_moves, returns=returns, actions=actions,
                           information_state=False)
