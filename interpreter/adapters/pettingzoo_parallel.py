"""The Parallel API environment behind ``pettingzoo.parallel_env`` (imports PettingZoo: the
``[pettingzoo]`` extra).

Every step takes one action per agent. Each seat enters its own move in progress (its prefix);
the moves completed in a step are played in the order of the session's clock, each checked again
just before it is played (an earlier one may have taken what it needed).
"""
from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from ..engine.actions import Choices
from .action_session import ActionSession, Setup

# What a step's info tells an agent of its own action, all false unless it happened.
INFO_KEYS = ("illegal", "played", "lost_race", "cleared")


class RulesParallelEnv(ParallelEnv):
    """A game of the rules engine as a Parallel API environment, with a wait action."""

    metadata = {"render_modes": ["ansi", "human"], "name": "rules_parallel_v0"}     # noqa: RUF012 - PettingZoo's

    def __init__(self, setup: Setup, render_mode: str | None = None):
        self.setup = setup
        self.render_mode = render_mode
        self.wait = setup.actions.size        # the last action: waiting
        self.possible_agents = [f"player_{i}" for i in range(setup.players)]
        self.agents: list[str] = []
        size = setup.observation_size
        self.observation_spaces = {
            a: spaces.Dict({"observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
                            "action_mask": spaces.Box(0, 1, (self.wait + 1,), np.int8)})
            for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.wait + 1) for a in self.possible_agents}
        self.session: ActionSession | None = None       # made by reset
        self.prefixes: list[tuple[int, ...]] = []       # each seat's move in progress
        self.np_random = np.random.default_rng()
        # The legal moves of the world they were listed in: the seats that may act, each seat's tree.
        self._listed: tuple[Any, set[int], dict[int, Choices]] = (None, set(), {})

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict, dict]:
        if seed is not None:
            self.np_random = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.session = self.setup.new_session()
        self.prefixes = [()] * self.setup.players
        self._draw_chance()
        return self._observations(), {a: dict.fromkeys(INFO_KEYS, False) for a in self.agents}

    def step(self, actions: dict[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        if not self.agents:
            return {}, {}, {}, {}, {}
        infos = {a: dict.fromkeys(INFO_KEYS, False) for a in self.agents}
        complete = self._extend_prefixes(actions, infos)
        for seat in self._session().clock_order(complete):
            self._play_if_still_legal(seat, complete[seat], infos[self.possible_agents[seat]])
        self._clear_dead_prefixes(infos)
        return self._outcome(infos)

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return self._session().observation_string(None)

    def close(self) -> None:
        pass

    # -- inside ----------------------------------------------------------------------------------
    def _session(self) -> ActionSession:
        if self.session is None:
            raise RuntimeError("call reset() before step()")
        return self.session

    def _draw_chance(self) -> None:
        self._session().draw_chance(lambda count: int(self.np_random.integers(count)))

    def _choices(self, seat: int) -> Choices | None:
        """The seat's legal moves now as a tree of actions; None when it may not act now."""
        session = self._session()
        world, acting, trees = self._listed
        if world is not session.world:
            acting = set() if session.is_terminal() else set(self.setup.states.acting(session.world))
            trees = {}
            self._listed = (session.world, acting, trees)
        if seat not in acting:
            return None
        if seat not in trees:
            trees[seat] = self.setup.actions.tree(self.setup.states.moves(session.world, seat))
        return trees[seat]

    def _extend_prefixes(self, actions: dict[str, Any], infos: dict[str, dict]) -> dict[int, tuple[int, ...]]:
        """Each agent's action added to its move in progress; the moves completed, by seat. An
        agent without an action waits; an illegal action counts as waiting."""
        complete = {}
        for agent in self.agents:
            seat, sent = self.possible_agents.index(agent), actions.get(agent)
            action = self.wait if sent is None else int(sent)
            if action == self.wait:
                continue
            choices, prefix = self._choices(seat), self.prefixes[seat]
            if choices is None or action not in choices.next_actions(prefix):
                infos[agent]["illegal"] = True
                continue
            prefix += (action,)
            if choices.complete(prefix) is None:
                self.prefixes[seat] = prefix
            else:
                complete[seat], self.prefixes[seat] = prefix, ()
        return complete

    def _play_if_still_legal(self, seat: int, actions: tuple[int, ...], info: dict) -> None:
        choices = self._choices(seat)
        if choices is None or choices.complete(actions) is None:
            info["lost_race"] = True
            return
        self._session().play_for(seat, actions, choices)
        self._draw_chance()
        info["played"] = True

    def _clear_dead_prefixes(self, infos: dict[str, dict]) -> None:
        """A move in progress that no legal move begins with any more starts again."""
        for seat, prefix in enumerate(self.prefixes):
            if prefix and not self._goes_on(seat, prefix):
                self.prefixes[seat] = ()
                infos[self.possible_agents[seat]]["cleared"] = True

    def _goes_on(self, seat: int, prefix: tuple[int, ...]) -> bool:
        choices = self._choices(seat)
        return choices is not None and bool(choices.next_actions(prefix))

    def _outcome(self, infos: dict[str, dict]) -> tuple[dict, dict, dict, dict, dict]:
        session = self._session()
        observations = self._observations()
        over = session.is_terminal()
        values = session.returns()        # zeros until the game is over
        rewards = {a: float(values[self.possible_agents.index(a)]) for a in self.agents}
        terminations = {a: over and not session.stopped for a in self.agents}
        truncations = {a: over and session.stopped for a in self.agents}
        if over:
            self.agents = []
        if self.render_mode == "human":
            print(self.render())
        return observations, rewards, terminations, truncations, infos

    def _observations(self) -> dict[str, dict]:
        return {agent: self._observe(self.possible_agents.index(agent)) for agent in self.agents}

    def _observe(self, seat: int) -> dict:
        """The seat's tensor as the session makes it, with the seat's own move in progress (the
        session holds none between steps), and its mask."""
        observation = np.asarray(self._session().observation_tensor(seat), dtype=np.float32)
        prefix = self.prefixes[seat]
        observation[self.setup.layout.size + np.asarray(prefix, dtype=np.int64)] = 1.0
        mask = np.zeros(self.wait + 1, np.int8)
        mask[self.wait] = 1
        choices = self._choices(seat)
        if choices is not None:
            mask[choices.next_actions(prefix)] = 1
        return {"observation": observation, "action_mask": mask}
