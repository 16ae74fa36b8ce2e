"""The OpenSpiel game behind ``openspiel.load_game`` (imports pyspiel: the ``[openspiel]`` extra)."""
from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from ..engine.chance import SAMPLED
from .action_session import (
    CHANCE,
    DEFAULT_HISTORY,
    DEFAULT_MAX_MOVES,
    TERMINAL,
    ActionSession,
    Setup,
)

SHORT_NAME = "rules"
MAX_PLAYERS = 16
PARAMETERS = {"path": "", "players": 0, "options": "", "max_moves": DEFAULT_MAX_MOVES, "returns": "ranking",
              "min_utility": -1.0, "max_utility": 1.0, "zero_sum": False, "sampled_outcomes": SAMPLED,
              "history": DEFAULT_HISTORY, "actions": "auto"}


def _game_type(min_players: int, max_players: int, zero_sum: bool) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME, long_name="A game of the rules engine",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max_players, min_num_players=min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=PARAMETERS)


def parse_options(text: str) -> dict[str, str]:
    """``name:value;name:value`` as a dict of option texts."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"options: '{part}' is not name:value")
        out[name.strip()] = value.strip()
    return out


def _setup(params: dict) -> Setup:
    return Setup.from_file(params["path"], parse_options(params["options"]), params["players"] or None,
                           max_moves=params["max_moves"], returns=params["returns"],
                           sampled_outcomes=params["sampled_outcomes"], history=params["history"],
                           actions=params["actions"])


class RulesGame(pyspiel.Game):
    """One game file with its options and number of seats, as a ``pyspiel.Game``."""

    def __init__(self, params: dict | None = None):
        params = {**PARAMETERS, **(params or {})}
        if not params["path"]:
            raise ValueError("the rules game needs a path: rules(path=games/some_game.yaml)")
        setup = _setup(params)
        self.setup = setup
        self.params = params
        ranking = setup.returns == "ranking"
        zero_sum = ranking or bool(params["zero_sum"])
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.actions.size,
            max_chance_outcomes=setup.max_chance_outcomes,
            num_players=setup.players,
            min_utility=-1.0 if ranking else float(params["min_utility"]),
            max_utility=1.0 if ranking else float(params["max_utility"]),
            utility_sum=0.0 if zero_sum else None,
            max_game_length=setup.max_game_length)
        game_type = _game_type(setup.game.min_players, setup.game.max_players, zero_sum)
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> "RulesState":
        return RulesState(self)

    def __reduce__(self):
        # Pickled as its parameters: the compiled game is made again (once per process).
        return (RulesGame, (self.params,))

    def make_py_observer(self, iig_obs_type=None, params=None) -> "RulesObserver":
        return RulesObserver(self.setup, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class RulesState(pyspiel.State):
    """A game in progress: an ``ActionSession`` behind OpenSpiel's state interface."""

    def __init__(self, game: RulesGame, session: ActionSession | None = None):
        super().__init__(game)
        self.session = session if session is not None else game.setup.new_session()

    def current_player(self) -> int:
        player = self.session.current_player()
        if player == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if player == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return player

    def _legal_actions(self, player: int) -> list[int]:
        return self.session.legal_actions() if player == self.session.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.session.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.session.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self.session.action_text(CHANCE if player == pyspiel.PlayerId.CHANCE else player, action)

    def is_terminal(self) -> bool:
        return self.session.is_terminal()

    def returns(self) -> list[float]:
        return self.session.returns()

    def __str__(self) -> str:
        return str(self.session)

    def __deepcopy__(self, memo: dict) -> "RulesState":
        return RulesState(self.get_game(), self.session.clone())


def resampler(seed: int = 0):
    """A resampler for OpenSpiel's ISMCTS bot (``bot.set_resampler(resampler())``): the state
    with the cards the seat to act cannot see dealt again, from a seeded generator."""
    draws = iter(range(seed * 1_000_003, (seed + 1) * 1_000_003))

    def resample(state: RulesState, player: int) -> RulesState:
        return RulesState(state.get_game(), state.session.resampled(player, next(draws)))
    return resample


class RulesObserver:
    """Observations from the seats' views: the view's text and tensor, or (perfect recall) the
    information state: its string, and its tensor of the seat's views after its last ``history``
    events and its actions in them, then its choices in progress (``ActionSession.information_state_tensor``). ``private_info``
    none gives what every seat sees (the spectator view); perfect recall is always the seat's own."""

    def __init__(self, setup: Setup, iig_obs_type: Any, params: Any):
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        self.setup = setup
        self.perfect_recall = iig_obs_type.perfect_recall
        self.public_only = iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE
        if self.perfect_recall:
            self.tensor = np.zeros(setup.information_state_size, np.float32)
            self.dict = self._information_state_pieces()
        else:
            self.tensor = np.zeros(setup.observation_size, np.float32)
            self.dict = {"observation": self.tensor}

    def _information_state_pieces(self) -> dict[str, np.ndarray]:
        """Views of the tensor: the events, one row each, and the choices in progress."""
        events = self.setup.history_events * self.setup.event_size
        return {"events": self.tensor[:events].reshape(self.setup.history_events, self.setup.event_size),
                "choosing": self.tensor[events:]}

    def _seat(self, player: int) -> int | None:
        return None if self.public_only else player

    def set_from(self, state: RulesState, player: int) -> None:
        if self.perfect_recall:
            self.tensor[:] = state.session.information_state_tensor(player)
        else:
            self.tensor[:] = state.session.observation_tensor(self._seat(player))

    def string_from(self, state: RulesState, player: int) -> str:
        if self.perfect_recall:
            return state.session.information_state_string(player)
        return state.session.observation_string(self._seat(player))


pyspiel.register_game(_game_type(1, MAX_PLAYERS, False), RulesGame)


__all__ = ["PARAMETERS", "SHORT_NAME", "RulesGame", "RulesState", "RulesObserver", "parse_options", "resampler"]
