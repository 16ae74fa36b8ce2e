"""Any game as a PettingZoo AEC environment with action masks (``pip install 'tablerules[pettingzoo]'``).

    from interpreter.adapters.pettingzoo import env
    e = env("games/some_game.yaml", players=2)
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        mask = obs["action_mask"]
        e.step(None if termination or truncation else int(mask.nonzero()[0][0]))

The agents are ``player_0``... in seat order; the actions those of ``engine.actions``; each
observation is ``{"observation": the seat's tensor, "action_mask": its legal actions}`` (the
mask is all zeros for an agent not to act). Chance (the setup, rolls, shuffles) is drawn inside
the environment from its generator, seeded by ``reset(seed=...)``. The rewards come at the end:
by default each seat's seats beaten minus seats beating it, over seats - 1 (``returns="results"``:
the game's own results). A game still running after ``max_moves`` moves is truncated.
"""
from __future__ import annotations

from typing import Any

from ..errors import OptionError
from .session import DEFAULT_MAX_MOVES, Setup


def env(path: str, players: int | None = None, *, options: dict[str, str] | None = None,
        max_moves: int = DEFAULT_MAX_MOVES, returns: str = "ranking", render_mode: str | None = None) -> Any:
    """The game file at ``path`` (with ``options`` as texts) as an AEC environment."""
    try:
        from .pettingzoo_env import RulesEnv
    except ImportError as error:
        if error.name not in ("pettingzoo", "gymnasium", "numpy"):
            raise
        raise OptionError("the PettingZoo adapter needs PettingZoo: pip install 'tablerules[pettingzoo]'") from error
    setup = Setup.from_file(path, options, players, max_moves=max_moves, returns=returns, information_state=False)
    return RulesEnv(setup, render_mode=render_mode)
