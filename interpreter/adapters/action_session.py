"""Any game as a sequence of integer actions with explicit chance: what both adapters share.

An ``ActionSession`` is one game in progress seen the way OpenSpiel and PettingZoo see games: at each
point either chance acts (the setup, or a move whose effects draw: see ``engine.chance``), or one
seat picks one action (``engine.actions``: a move's name, then each parameter's value), or the
game is over. In free play (a phase without turns, where every seat may move at any moment) the
seats act on one virtual clock at the same speed: in seat order, from the seat after the last
to move, skipping seats that have no move. That is the order the engine's own table gives bots of
equal speed (``play.realtime``), and it keeps the game sequential, so every algorithm for
sequential games applies (the Parallel API environment, ``pettingzoo_parallel``, lets every seat
act at once and settles their races by the same clock).

Observations come from the seats' views only: the observation is the view's canonical text, and
the information state adds a digest of everything the seat has observed and chosen so far; the
information-state tensor holds the seat's observation tensor after each of its last ``history``
events and its own actions in them.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Callable, cast

from ..engine import new_state
from ..engine.actions import KINDS as ACTION_KINDS, ActionSpace, Choices
from ..engine.loaded import load_game
from ..engine.moves import Move
from ..engine.state import State
from ..engine.values import from_json, to_json
from ..engine.chance import MAX_EXPLICIT, SAMPLED, ChanceStep, bounds_of
from ..engine.observe import TEXT_FORMAT, TensorLayout
from ..errors import OptionError, RulesError
from .seat_views import SeatViews
from .states import states_for

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ..engine.loaded import LoadedGame

CHANCE = -1
TERMINAL = -4
DEFAULT_MAX_MOVES = 10_000
DEFAULT_HISTORY = 32      # the events an information-state tensor holds
RETURNS = ("ranking", "results")


class Setup:
    """How a game is played as actions: seats, the cap on moves, what the returns are."""

    def __init__(self, loaded: LoadedGame, players: int | None = None, *, max_moves: int = DEFAULT_MAX_MOVES,
                 returns: str = "ranking", sampled_outcomes: int = SAMPLED, information_state: bool = True,
                 history: int = DEFAULT_HISTORY, actions: str = "auto"):
        if returns not in RETURNS:
            raise OptionError(f"returns must be one of {', '.join(RETURNS)}, not '{returns}'")
        if max_moves < 1:
            raise OptionError(f"max_moves must be at least 1, not {max_moves}")
        if history < 1:
            raise OptionError(f"history must be at least 1, not {history}")
        if actions not in ACTION_KINDS:
            raise OptionError(f"actions must be one of {', '.join(ACTION_KINDS)}, not '{actions}'")
        self.loaded = loaded
        self.game = loaded.game
        self.players = self.game.default_players if players is None else players
        self.max_moves = max_moves
        self.returns = returns
        self.sampled_outcomes = sampled_outcomes
        self.information_state = information_state
        self.history_events = history       # the events an information-state tensor holds, the last ones
        self.states = states_for(self.game, self.players)     # the lean engine's where it runs the game
        first = new_state(self.game, self.players, 0)
        self.actions = ActionSpace(self.game, first, actions)
        self.layout = TensorLayout(self.game, first, self.actions.choice_texts)
        # The observation tensor's last section: the seat's choices of the move in progress
        # (none in a flat space, where a move is one action).
        self.choosing_size = 0 if self.actions.flat else self.actions.size
        self.observation_size = self.layout.size + self.choosing_size
        # An information-state tensor's row of one event: the seat's view, then its actions.
        self.event_size = self.layout.size + self.actions.size
        self.information_state_size = history * self.event_size + self.choosing_size
        self.max_chance_outcomes = max(MAX_EXPLICIT, sampled_outcomes)
        table = len(self.game.card_table(self.players))
        most_params = max([len(m.params) for m in self.game.moves.values()] + [0])
        # A move's name, then per parameter at most every card (or die) and `end`; one chance step each.
        self.max_actions_per_move = 2 + most_params * (max(table, self.game.dice_count) + 1)
        self.max_game_length = 1 + max_moves * self.max_actions_per_move
        # Each seat's digest by the history that led to it: the history decides every state and
        # every choice, so the same history is the same digest (not in a resampled game).
        self.known_digests: dict[tuple, str] = {}

    source: tuple | None = None       # how ``from_file`` made it: what a pickle of it holds
    first_step: tuple | None = None   # the setup's draws, and its state when it draws nothing

    @classmethod
    def from_file(cls, path: str, options: dict[str, str] | None = None, players: int | None = None,
                  **settings: Any) -> "Setup":
        """The setup of a game file with these options, made once per process."""
        key = (str(path), tuple(sorted((options or {}).items())), players, tuple(sorted(settings.items())))
        if key not in _SETUPS:
            setup = cls(load_game(path, options), players, **settings)
            setup.source = key
            _SETUPS[key] = setup
        return _SETUPS[key]

    def new_session(self) -> "ActionSession":
        return ActionSession(self)

    def __reduce__(self):
        if self.source is None:
            raise TypeError("only a setup made by Setup.from_file can be pickled")
        path, options, players, settings = self.source
        return (_setup_from, (path, dict(options), players, dict(settings)))


_SETUPS: dict[tuple, Setup] = {}


def _setup_from(path: str, options: dict, players: int | None, settings: dict) -> Setup:
    return Setup.from_file(path, options, players, **settings)


def _sparse(tensor: tuple[float, ...]) -> list[list]:
    """A tensor as its nonzero entries, ``[index, value]`` each."""
    return [[i, x] for i, x in enumerate(tensor) if x]


def _dense(entries: list[list], size: int) -> tuple[float, ...]:
    tensor = [0.0] * size
    for i, x in entries:
        tensor[i] = float(x)
    return tuple(tensor)


def _restored(setup: Setup, data: dict) -> "ActionSession":
    return ActionSession.from_json(setup, data)


class ActionSession(SeatViews):
    """One game in progress as actions; ``apply`` changes it in place, ``clone`` copies it."""

    def __init__(self, setup: Setup, *, _empty: bool = False):
        self.setup = setup
        if _empty:
            return
        self.world: Any = None        # the engine's state (see ``states``), None before the setup is drawn
        self.pending: Move | str | None = None      # the move waiting for chance, or "setup"
        self.before: Any = None       # the state before that move
        self.step: ChanceStep | None = None         # that chance step
        self.prefix: tuple[int, ...] = ()
        self.seat: int | None = None  # the seat entering a move
        self.last_mover: int | None = None
        self.moves = 0
        self.stopped = False          # the cap on moves was reached
        self.history: list[tuple[int, int]] = []
        self.resampled_at: int | None = None    # the history's length when the hidden cards were dealt again
        # What each seat has observed and chosen, folded into one digest per seat when asked:
        # the events (``trail``) since, and how many of them each seat's digest holds. Each event
        # keeps the digests made up to it, by seat: the copies of a session share their trail's
        # events, and a digest up to an event is the same in every copy that holds it. A state's
        # event also keeps each seat's tensor of its view, made when first asked, the same way.
        self.chains = [""] * setup.players
        self.folded = [0] * setup.players
        self.trail: list[tuple] = []
        # Each seat's tensors of its last views from before the trail (a session read from JSON).
        self.recalled: list[tuple[tuple[float, ...], ...]] = [()] * setup.players
        self._choices: Choices | None = None
        if setup.first_step is None:        # the setup's draws are the same in every game: found once
            setup.first_step = bounds_of(self._setup_runner())
        self._start_chance("setup", self._setup_runner(), 0, setup.first_step)

    def _setup_runner(self) -> Callable[[int | None], Any]:
        setup = self.setup
        return lambda seed: setup.states.new(setup.players, 0 if seed is None else seed)

    def _move_runner(self, before: Any, move: Move) -> Callable[[int | None], Any]:
        states = self.setup.states
        return lambda seed: states.after(before, move, seed)

    @property
    def state(self) -> State | None:
        """The game as the reference engine keeps it (what views and tests read)."""
        return None if self.world is None else self.setup.states.reference(self.world)

    @state.setter
    def state(self, state: State) -> None:
        """Another state in this session's place (a new one: states are never changed in place)."""
        self.world = self.setup.states.from_reference(state)
        self._choices = None

    # -- who acts ----------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.pending is not None:
            return CHANCE
        if self.is_terminal():
            return TERMINAL
        return cast(int, self.seat)       # set while the game goes on and chance waits for nothing

    def is_chance(self) -> bool:
        return self.pending is not None

    def is_terminal(self) -> bool:
        return self.pending is None and (self.world.over or self.stopped)

    # -- chance ------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(cast(ChanceStep, self.step).outcomes())      # set while chance acts

    def draw_chance(self, pick: Callable[[int], int]) -> None:
        """While chance acts, its outcome ``pick(count)`` of the step's ``count`` (an environment
        drawing from its own generator)."""
        while self.is_chance():
            self.apply(pick(cast(ChanceStep, self.step).count))

    def _start_chance(self, pending: Move | str, run: Callable[[int | None], Any], base: int,
                      found: tuple | None = None) -> None:
        bounds, result = found or bounds_of(run)
        if not bounds:
            self._settled(result)
            return
        self.pending, self._run, self._base = pending, run, base
        self.step = ChanceStep(bounds, self.setup.sampled_outcomes)

    # -- choices -----------------------------------------------------------------------------
    def choices(self) -> Choices:
        if self._choices is None:
            # Asked of the seat to act (set: chance waits for nothing and the game goes on).
            self._choices = self.setup.actions.tree(self.setup.states.moves(self.world, cast(int, self.seat)))
        return self._choices

    def legal_actions(self) -> list[int]:
        if self.pending is not None:
            return list(range(cast(ChanceStep, self.step).count))     # set while chance acts
        if self.is_terminal():
            return []
        return self.choices().next_actions(self.prefix)

    def apply(self, action: int) -> None:
        player = self.current_player()
        if player == TERMINAL:
            raise ValueError("the game is over")
        self.history.append((player, action))
        if player == CHANCE:
            result = cast(ChanceStep, self.step).run(self._run, self._base, action)     # set while chance acts
            self.pending = self.step = None
            self.setup.states.chance_done(result)
            self._settled(result)
            return
        if not 0 <= action < self.setup.actions.size:
            raise ValueError(f"action {action} is not an action of this game (0 to {self.setup.actions.size - 1})")
        if action not in self.legal_actions():
            raise ValueError(f"action {action} ({self.setup.actions.text(action)}) is not legal now")
        self.prefix += (action,)
        move = self.choices().complete(self.prefix)
        if move is not None:
            self._play(move)

    def play_for(self, seat: int, actions: tuple[int, ...], choices: Choices | None = None) -> None:
        """``seat``'s complete move of ``actions``, whoever the clock would ask next (a parallel
        environment plays the moves its agents completed in one step); ``choices``: the seat's
        legal moves now, when the caller has them."""
        self.seat, self.prefix, self._choices = seat, (), choices
        for action in actions:
            self.apply(action)

    def _play(self, move: Move) -> None:
        if self.setup.information_state:
            self.trail.append(("chose", self.seat, self.prefix, {}))
        self.prefix, self.last_mover = (), move.seat
        self.moves += 1
        self.before = self.world
        self._start_chance(move, self._move_runner(self.world, move), self.world.rng)

    def _settled(self, state: Any) -> None:
        """A new engine state: who acts next, and what each seat observed."""
        self.world = state
        self._choices = None
        self.seat = None
        if self.moves >= self.setup.max_moves and not state.over:
            self.stopped = True
        if not (state.over or self.stopped):
            self.seat = self._next_seat()
        if self.setup.information_state:
            self.trail.append(("seen", state, {}, {}))       # the state, its tensors and digests by seat

    def _next_seat(self) -> int | None:
        state = self.world
        if state.current is not None:
            return state.current
        ready = self.setup.states.acting(state)
        if not ready:
            self.stopped = True
            return None
        return self.clock_order(ready)[0]

    def clock_order(self, seats: Iterable[int]) -> list[int]:
        """``seats`` in the order of the clock: from the seat after the last to move, in seat order."""
        start = 0 if self.last_mover is None else self.last_mover + 1
        return sorted(seats, key=lambda s: (s - start) % self.setup.players)

    # -- results -----------------------------------------------------------------------------
    def returns(self) -> list[float]:
        n = self.setup.players
        if not self.is_terminal():
            return [0.0] * n
        if self.setup.returns == "results":
            return [float(r) for r in self.setup.states.results(self.world)]
        places = self.setup.states.ranking(self.world)
        if n == 1:
            return [0.0]
        return [(sum(p > places[s] for p in places) - sum(p < places[s] for p in places)) / (n - 1)
                for s in range(n)]

    def action_text(self, player: int, action: int) -> str:
        if player == CHANCE:
            return f"chance {action}"
        return self.setup.actions.text(action)

    def resampled(self, seat: int, seed: int) -> "ActionSession":
        """A copy in which the cards ``seat`` cannot see are dealt again at random (what an
        information-set search needs): the seat's observations, choices and legal actions are
        those of this session. Only where ``seat`` is to act."""
        if self.current_player() != seat:
            raise ValueError(f"a game is resampled for the seat to act, not P{seat + 1}")
        other = self.clone()
        other.world = self.setup.states.sample(self.world, seat, seed)
        other.resampled_at = len(self.history)
        other._choices = None
        if other.legal_actions() != self.legal_actions():
            raise RulesError(f"resampling: P{seat + 1}'s legal moves depend on cards it cannot see")
        return other

    def __reduce__(self):
        return (_restored, (self.setup, self.to_json()))

    def __deepcopy__(self, memo: dict) -> "ActionSession":
        return self.clone()

    def to_json(self) -> dict:
        """Everything the session holds, as JSON-ready data (``ActionSession.from_json`` reads it)."""
        for s in range(self.setup.players):
            self._fold(s)
        pending = self.pending
        move = cast(Move, pending)      # read only where it is a move (not None, not "setup")
        return {
            "state": None if self.state is None else self.state.to_json(),
            "pending": pending if pending is None or pending == "setup" else
            {"seat": move.seat, "name": move.name, "args": to_json(list(move.args)), "text": move.text},
            "before": self.setup.states.reference(self.before).to_json() if isinstance(pending, Move) else None,
            "bounds": None if self.step is None else self.step.bounds,
            "prefix": list(self.prefix), "seat": self.seat, "last_mover": self.last_mover, "moves": self.moves,
            "stopped": self.stopped, "history": [list(h) for h in self.history], "chains": list(self.chains),
            "resampled_at": self.resampled_at,
            "recalled": [[_sparse(row) for row in self._recent_rows(s)] for s in range(self.setup.players)],
            "chosen": self._chosen_before_chance(),
        }

    def _chosen_before_chance(self) -> list | None:
        """The seat and actions of the move whose chance step is to come (its event's row holds
        them), or None."""
        last = self.trail[-1] if self.trail else None
        return [last[1], list(last[2])] if last is not None and last[0] == "chose" else None

    @classmethod
    def from_json(cls, setup: Setup, data: dict) -> "ActionSession":
        session = cls(setup, _empty=True)
        table = setup.game.card_table(setup.players)
        read = (lambda d: None if d is None else setup.states.from_json(d))
        session.world, session.prefix, session.seat = read(data["state"]), tuple(data["prefix"]), data["seat"]
        session.last_mover, session.moves, session.stopped = data["last_mover"], data["moves"], data["stopped"]
        session.history = [tuple(h) for h in data["history"]]
        session.resampled_at = data.get("resampled_at")
        session.recalled = [tuple(_dense(row, setup.event_size) for row in rows)
                            for rows in data.get("recalled", [[]] * setup.players)]
        session.chains, session.folded, session.trail = list(data["chains"]), [0] * setup.players, []
        chosen = data.get("chosen")
        if chosen is not None:          # already in the digests: the trail starts after it
            session.trail, session.folded = [("chose", chosen[0], tuple(chosen[1]), {})], [1] * setup.players
        session._choices, session.step, session.pending, session.before = None, None, None, None
        pending = data["pending"]
        if pending is not None:
            if pending == "setup":
                session.pending, session._run, session._base = "setup", session._setup_runner(), 0
            else:
                move = Move(pending["seat"], pending["name"], tuple(from_json(pending["args"], table)), pending["text"])
                session.before = read(data["before"])
                session.pending, session._run = move, session._move_runner(session.before, move)
                session._base = session.before.rng
            session.step = ChanceStep(data["bounds"], setup.sampled_outcomes)
        return session

    def clone(self) -> "ActionSession":
        other = ActionSession(self.setup, _empty=True)
        other.__dict__.update(self.__dict__)      # engine states are shared: a session replaces its state, never changes it
        other.history = list(self.history)
        other.chains = list(self.chains)
        other.folded = list(self.folded)
        other.trail = list(self.trail)
        return other

    def __str__(self) -> str:
        data = {"state": None if self.state is None else self.state.to_json(), "choosing": list(self.prefix),
                "seat": self.seat, "chance": None if self.pending is None else cast(ChanceStep, self.step).count,
                "moves": self.moves, "stopped": self.stopped}
        return json.dumps(data, **TEXT_FORMAT)
