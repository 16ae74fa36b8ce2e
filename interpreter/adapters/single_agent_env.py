"""The Gymnasium environment behind ``single_agent.env`` (imports Gymnasium: the
``[pettingzoo]`` extra brings it)."""
from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots.agents import make_bot
from ..bots.bot import Bot
from ..engine import legal_moves
from .action_session import ActionSession, Setup


class RulesSingleAgentEnv(gymnasium.Env):
    """One seat of a game played by the agent, every other seat by a built-in bot."""

    metadata = {"render_modes": ["ansi"]}     # noqa: RUF012 - Gymnasium's own attribute, read as it is

    def __init__(self, setup: Setup, seat: int, opponents: list[str], illegal_reward: float, max_steps: int,
                 render_mode: str | None = None):
        self.setup = setup
        self.seat = seat
        self.opponents = opponents          # a bot kind for each seat (the agent's is not used)
        self.illegal_reward = illegal_reward
        self.max_steps = max_steps
        self.render_mode = render_mode
        size = setup.observation_size
        self.observation_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self.action_space = spaces.Discrete(setup.actions.size)
        self.session: ActionSession | None = None
        self.bots: dict[int, Bot] = {}
        self.steps = 0

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        bot_seed = int(self.np_random.integers(1 << 31))
        self.bots = {s: make_bot(kind, self.setup.loaded, s, seed=bot_seed)
                     for s, kind in enumerate(self.opponents) if s != self.seat}
        self.session = self.setup.new_session()
        self.steps = 0
        self._others_play()
        return self._observation(), self._info(illegal=False)

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        session = self._session()
        self.steps += 1
        illegal = int(action) not in session.legal_actions()
        if illegal:
            reward = self.illegal_reward        # the game is as it was: the agent acts again
        else:
            session.apply(int(action))
            self._others_play()
            reward = session.returns()[self.seat] if session.is_terminal() else 0.0
        terminated = session.is_terminal() and not session.stopped
        truncated = session.stopped or (self.steps >= self.max_steps and not terminated)
        return self._observation(), float(reward), terminated, truncated, self._info(illegal)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self._session().observation_string(self.seat)

    # -- inside ----------------------------------------------------------------------------------
    def _session(self) -> ActionSession:
        if self.session is None:
            raise gymnasium.error.ResetNeeded("call reset() before step()")
        return self.session

    def _others_play(self) -> None:
        """Chance (from the environment's generator) and the bots, until the agent acts or the
        game is over."""
        session = self._session()
        while True:
            session.draw_chance(lambda count: int(self.np_random.integers(count)))
            if session.is_terminal():
                return
            seat = session.current_player()
            if seat == self.seat:
                return
            state = session.state
            assert state is not None            # a seat acts: the game has a state
            move = self.bots[seat].choose(state, legal_moves(self.setup.game, state, seat))
            for action in self.setup.actions.encode(move)[len(session.prefix):]:
                session.apply(action)

    def _observation(self) -> np.ndarray:
        return np.asarray(self._session().observation_tensor(self.seat), dtype=np.float32)

    def _info(self, illegal: bool) -> dict:
        session = self._session()
        mask = np.zeros(self.setup.actions.size, np.int8)
        if not session.is_terminal() and session.current_player() == self.seat:
            mask[session.legal_actions()] = 1
        return {"action_mask": mask, "illegal": illegal}
