"""Any game as a sequence of integer actions with explicit chance: what both adapters share.

A ``Session`` is one game in progress seen the way OpenSpiel and PettingZoo see games: at each
point either chance acts (the setup, or a move whose effects draw: see ``engine.chance``), or one
seat picks one action (``engine.actions``: a move's name, then each parameter's value), or the
game is over. In free play (a phase without turns, where every seat may move at any moment) the
seats act on one virtual clock at the same speed: in seat order, from the seat after the last
to move, skipping seats that have no move. That is the order the engine's own table gives bots of
equal speed (``play.realtime``), and it keeps the game sequential, so every algorithm for
sequential games applies; a simultaneous-move game would need a rule for two seats taking the same
card, which the engine resolves by the clock and the game does not state.

Observations come from the seats' views only: the observation is the view's canonical text, and
the information state adds a digest of everything the seat has observed and chosen so far.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from ..engine import acting_seats, apply_move, legal_moves, new_state, ranking, results
from ..engine.actions import ActionSpace, Choices
from ..engine.chance import MAX_EXPLICIT, SAMPLED, ChanceStep, bounds_of
from ..engine.observe import TEXT_FORMAT, TensorLayout, observation_view
from ..errors import OptionError

CHANCE = -1
TERMINAL = -4
DEFAULT_MAX_MOVES = 10_000
RETURNS = ("ranking", "results")


class Setup:
    """How a game is played as actions: seats, the cap on moves, what the returns are."""

    def __init__(self, loaded: Any, players: int | None = None, *, max_moves: int = DEFAULT_MAX_MOVES,
                 returns: str = "ranking", sampled_outcomes: int = SAMPLED, information_state: bool = True):
        if returns not in RETURNS:
            raise OptionError(f"returns must be one of {', '.join(RETURNS)}, not '{returns}'")
        if max_moves < 1:
            raise OptionError(f"max_moves must be at least 1, not {max_moves}")
        self.loaded = loaded
        self.game = loaded.game
        self.players = self.game.default_players if players is None else players
        self.max_moves = max_moves
        self.returns = returns
        self.sampled_outcomes = sampled_outcomes
        self.information_state = information_state
        first = new_state(self.game, self.players, 0)
        self.actions = ActionSpace(self.game, first)
        self.layout = TensorLayout(self.game, first, self.actions.texts)
        self.max_chance_outcomes = max(MAX_EXPLICIT, sampled_outcomes)
        table = len(self.game.card_table(self.players))
        most_params = max([len(m.params) for m in self.game.moves.values()] + [0])
        # A move's name, then per parameter at most every card (or die) and `end`; one chance step each.
        self.max_actions_per_move = 2 + most_params * (max(table, self.game.dice_count) + 1)
        self.max_game_length = 1 + max_moves * self.max_actions_per_move

    def new_session(self) -> "Session":
        return Session(self)


class Session:
    """One game in progress as actions; ``apply`` changes it in place, ``clone`` copies it."""

    def __init__(self, setup: Setup, *, _empty: bool = False):
        self.setup = setup
        if _empty:
            return
        self.state = None             # the engine's state, None before the setup is drawn
        self.pending = None           # the move waiting for chance, or "setup"
        self.step = None              # that chance step
        self.prefix: tuple[int, ...] = ()
        self.seat: int | None = None  # the seat entering a move
        self.last_mover: int | None = None
        self.moves = 0
        self.stopped = False          # the cap on moves was reached
        self.history: list[tuple[int, int]] = []
        self.chains = [""] * setup.players
        self._choices: Choices | None = None
        self._start_chance("setup", lambda seed: new_state(setup.game, setup.players, 0 if seed is None else seed), 0)

    # -- who acts ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.pending is not None:
            return CHANCE
        if self.is_terminal():
            return TERMINAL
        return self.seat

    def is_chance(self) -> bool:
        return self.pending is not None

    def is_terminal(self) -> bool:
        return self.pending is None and (self.state.over or self.stopped)

    # -- chance ------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        p = self.step.probability()
        return [(o, p) for o in range(self.step.count)]

    def _start_chance(self, pending: Any, run: Any, base: int) -> None:
        bounds, result = bounds_of(run)
        if not bounds:
            self._settled(result)
            return
        self.pending, self._run, self._base = pending, run, base
        self.step = ChanceStep(bounds, self.setup.sampled_outcomes)

    # -- choices -----------------------------------------------------------------------------
    def choices(self) -> Choices:
        if self._choices is None:
            self._choices = self.setup.actions.tree(legal_moves(self.setup.game, self.state, self.seat))
        return self._choices

    def legal_actions(self) -> list[int]:
        if self.pending is not None:
            return [o for o, _ in self.chance_outcomes()]
        if self.is_terminal():
            return []
        return self.choices().next_actions(self.prefix)

    def apply(self, action: int) -> None:
        player = self.current_player()
        if player == TERMINAL:
            raise ValueError("the game is over")
        self.history.append((player, action))
        if player == CHANCE:
            result = self.step.run(self._run, self._base, action)
            self.pending = self.step = None
            self._settled(result)
            return
        if action not in self.legal_actions():
            raise ValueError(f"action {action} ({self.setup.actions.text(action)}) is not legal now")
        self.prefix += (action,)
        move = self.choices().complete(self.prefix)
        if move is not None:
            self._play(move)

    def _play(self, move: Any) -> None:
        if self.setup.information_state:
            self._chain(self.seat, json.dumps(self.prefix))
        self.prefix, self.last_mover = (), move.seat
        self.moves += 1
        game, state = self.setup.game, self.state

        def run(seed: int | None) -> Any:
            after = state.clone()
            if seed is not None:
                after.rng = seed
            apply_move(game, after, move, move.seat, checked=False)
            return after
        self._start_chance(move, run, state.rng)

    def _settled(self, state: Any) -> None:
        """A new engine state: who acts next, and what each seat observed."""
        self.state = state
        self._choices = None
        self.seat = None
        if self.moves >= self.setup.max_moves and not state.over:
            self.stopped = True
        if not (state.over or self.stopped):
            self.seat = self._next_seat()
        if self.setup.information_state:
            for s in range(self.setup.players):
                self._chain(s, self.observation_string(s))

    def _next_seat(self) -> int | None:
        state = self.state
        if state.current is not None:
            return state.current
        ready = acting_seats(self.setup.game, state)
        if not ready:
            self.stopped = True
            return None
        start = 0 if self.last_mover is None else self.last_mover + 1
        return min(ready, key=lambda s: (s - start) % self.setup.players)

    def _chain(self, seat: int, text: str) -> None:
        self.chains[seat] = hashlib.sha256((self.chains[seat] + "\n" + text).encode()).hexdigest()

    # -- what a seat sees --------------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        seen = observation_view(self.setup.game, self.state, seat)
        if seat is not None and seat == self.seat and self.prefix:
            seen["choosing"] = [self.setup.actions.text(a) for a in self.prefix]
        return seen

    def observation_string(self, seat: int) -> str:
        if self.state is None:
            return json.dumps({"setup": "to be drawn"}, **TEXT_FORMAT)
        return json.dumps(self.view(seat), **TEXT_FORMAT)

    def information_state_string(self, seat: int) -> str:
        mine = [self.setup.actions.text(a) for a in self.prefix] if seat == self.seat else []
        return f"{self.chains[seat]} {json.dumps(mine, **TEXT_FORMAT)}"

    def observation_tensor(self, seat: int) -> list[float]:
        layout = self.setup.layout
        if self.state is None:
            return [0.0] * (layout.size + self.setup.actions.size)
        out = layout.encode(observation_view(self.setup.game, self.state, seat), seat)
        choosing = [0.0] * self.setup.actions.size
        if seat == self.seat:
            for a in self.prefix:
                choosing[a] = 1.0
        return out + choosing

    # -- results -----------------------------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.setup.players
        if not self.is_terminal():
            return [0.0] * n
        if self.setup.returns == "results":
            return [float(r) for r in results(self.setup.game, self.state)]
        places = ranking(self.setup.game, self.state)
        if n == 1:
            return [0.0]
        return [(sum(p > places[s] for p in places) - sum(p < places[s] for p in places)) / (n - 1)
                for s in range(n)]

    def action_text(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"chance {action}"
        return self.setup.actions.text(action)

    def clone(self) -> "Session":
        other = Session(self.setup, _empty=True)
        other.__dict__.update(self.__dict__)
        other.state = None if self.state is None else self.state.clone()
        other.history = list(self.history)
        other.chains = list(self.chains)
        return other

    def __str__(self) -> str:
        data = {"state": None if self.state is None else self.state.to_json(), "choosing": list(self.prefix),
                "seat": self.seat, "chance": None if self.pending is None else self.step.count,
                "moves": self.moves, "stopped": self.stopped}
        return json.dumps(data, **TEXT_FORMAT)
