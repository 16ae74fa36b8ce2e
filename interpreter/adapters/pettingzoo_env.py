"""The AEC environment behind ``pettingzoo.env`` (imports PettingZoo: the ``[pettingzoo]`` extra)."""
from __future__ import annotations

from typing import Any, cast

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from .action_session import ActionSession, Setup


class RulesEnv(AECEnv):
    """A game of the rules engine as an AEC environment."""

    metadata = {"render_modes": ["ansi", "human"], "name": "rules_v0", "is_parallelizable": False}

    def __init__(self, setup: Setup, render_mode: str | None = None):
        super().__init__()
        self.setup = setup
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(setup.players)]
        size = setup.observation_size
        actions = setup.actions.size
        self.observation_spaces = {
            a: spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                            "action_mask": spaces.Box(0, 1, (actions,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.session: ActionSession | None = None       # made by reset
        self.np_random = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self.session = self.setup.new_session()
        self._settle()

    def _settle(self) -> None:
        """Draw chance until a seat must act or the game is over."""
        session = cast(ActionSession, self.session)       # made by reset
        session.draw_chance(lambda count: int(self.np_random.integers(count)))
        if session.is_terminal():
            for agent, value in zip(self.possible_agents, session.returns()):
                self.rewards[agent] = float(value)
                if session.stopped:
                    self.truncations[agent] = True
                else:
                    self.terminations[agent] = True
            return
        self.agent_selection = self.possible_agents[session.current_player()]

    def observe(self, agent: str) -> dict:
        seat = self.possible_agents.index(agent)
        session = cast(ActionSession, self.session)       # made by reset
        observation = np.asarray(session.observation_tensor(seat), dtype=np.float32)
        mask = np.zeros(self.setup.actions.size, np.int8)
        if not session.is_terminal() and session.current_player() == seat:
            mask[session.legal_actions()] = 1
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        for a in self.agents:
            self.rewards[a] = 0.0
        cast(ActionSession, self.session).apply(int(action))      # made by reset
        self._settle()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        session = cast(ActionSession, self.session)       # made by reset
        seat = session.current_player() if not session.is_terminal() else None
        return session.observation_string(seat if seat is not None and seat >= 0 else None)

    def close(self) -> None:
        pass
