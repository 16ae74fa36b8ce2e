"""Any game as a single-agent Gymnasium environment: one seat played by the agent, the others by
the built-in bots (``pip install 'tablerules[pettingzoo]'``, which brings Gymnasium).

    from interpreter.adapters.single_agent import env, vector_env
    e = env("games/some_game.yaml", seat=0, opponents="greedy")
    observation, info = e.reset(seed=1)
    action = int(info["action_mask"].nonzero()[0][0])
    observation, reward, terminated, truncated, info = e.step(action)
    many = vector_env("games/some_game.yaml", 8)    # eight games side by side (SyncVectorEnv)

The actions are those of ``engine.actions`` (a move is one or more of them: its name, then its
parameters' values); the observation is the seat's tensor (``engine.observe``, then the actions
of the move being chosen); ``info["action_mask"]`` marks the legal actions. An illegal action
changes nothing: the agent gets ``illegal_reward`` (default -1), ``info["illegal"]`` is true, and
it acts again. The reward of a legal action is 0 until the game ends, then the seat's return (by
default its seats beaten minus seats beating it, over seats - 1). Chance and the bots draw from
the environment's generator, seeded by ``reset(seed=...)``. A game still running after
``max_moves`` moves, or after ``max_steps`` steps of the agent, is truncated.
"""
from __future__ import annotations

from typing import Any

from ..errors import OptionError
from .action_session import DEFAULT_MAX_MOVES, Setup


def env(path: str, players: int | None = None, *, seat: int = 0, opponents: str = "greedy",
        options: dict[str, str] | None = None, max_moves: int = DEFAULT_MAX_MOVES, returns: str = "ranking",
        actions: str = "auto", illegal_reward: float = -1.0, max_steps: int | None = None,
        render_mode: str | None = None) -> Any:
    """The game (a file, or a bundled game by name) as a Gymnasium environment for ``seat``;
    ``opponents``: a bot kind for every other seat, or one per seat, comma-separated."""
    try:
        from .single_agent_env import RulesSingleAgentEnv
    except ImportError as error:
        if error.name not in ("gymnasium", "numpy"):
            raise
        raise OptionError("the Gymnasium environment needs Gymnasium: pip install 'tablerules[pettingzoo]'") \
            from error
    setup = Setup.from_file(path, options, players, max_moves=max_moves, returns=returns, actions=actions,
                            information_state=False)
    if not 0 <= seat < setup.players:
        raise OptionError(f"seat must be 0 to {setup.players - 1}, not {seat}")
    kinds = opponents.split(",")
    return RulesSingleAgentEnv(setup, seat, [kinds[s % len(kinds)] for s in range(setup.players)], illegal_reward,
                               max_steps or 10 * max_moves, render_mode)


def vector_env(path: str, num_envs: int, **settings: Any) -> Any:
    """``num_envs`` environments of ``env(path, **settings)`` stepped together (Gymnasium's
    ``SyncVectorEnv``: each resets itself when its game ends)."""
    import gymnasium

    return gymnasium.vector.SyncVectorEnv([lambda: env(path, **settings) for _ in range(num_envs)])
