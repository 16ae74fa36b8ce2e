"""The lean engine's face: a game's lean module with the engine's operations, conversions to and
from the reference's states, and exact errors.

A lean state remembers where it came from (a seed, or a reference state) and the actions played
since. When anything fails inside the lean module (a step, a listing, a count of the scores), the
game is played again in the reference engine to that point, which raises the error the
reference raises, at its place, byte for byte. Where only the lean count of an evaluation's work
ran out (``budget.Budget``: it counts more than the reference), the reference does what failed
and the lean engine goes on: a step's state becomes the reference's, the rest is done again
without counting.
"""
from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, cast

from ..engine import core
from ..engine.moves import Move, notation
from ..engine.state import State
from ..engine.values import ZoneRef, to_json
from ..errors import RulesError
from .flow_code import SEATS
from .interrupts_code import from_ref as from_ref_interrupts, to_ref as to_ref_interrupts
from .listing_code import free_play
from .ltypes import LType, ListT, MapT, Unsupported, holds, holds_objects
from .program import Program
from .budget import OverBudget
from .ref_values import from_ref, to_ref
from .shape import PILE_BITS, PILE_MASK


KNOWN_ACTIONS = 1 << 16      # the actions whose moves are remembered; past it, they are made afresh


class Diverged(RulesError):
    """The lean engine failed where the reference does not: a fault of the lean engine."""


class LeanGame:
    """A compiled game (a ``Game``, or a ``LoadedGame``) run by its lean module. Raises
    ``Unsupported`` (with the reason) for a game the lean engine does not generate."""

    def __init__(self, game: Any):
        self.game = getattr(game, "game", game)
        self.program = Program(self.game)
        self.counted = self.program.module.counted_texts     # expressions counting their work as they run
        self.cards = self.program.cards
        self.decode = self.program.actions.decode
        self.move_names = list(self.game.moves)
        self._zone_names = list(self.program.module.shape.zones)
        self.free_play = free_play(self.game)
        self._legal, self._step, self._clone = self.program.legal, self.program.step, self.program.clone
        self._any_legal = self.program.any_legal if self.free_play else None
        self._plans: dict[str, list] = {}
        self._names: dict[int, tuple] = {}
        self._guard_calls()

    def _guard_calls(self) -> None:
        """``step`` and (but in free play, where no seat is to play) ``legal`` as the module's own
        guarded functions: the same work and the same errors as the methods below, without a
        call between (program.GUARDED)."""
        namespace = self.program.namespace
        namespace["_failed_step"] = self._failed_step
        namespace["_failed_legal"] = self._failed_legal
        self.step = namespace["guarded_step"]       # type: ignore[method-assign]
        if not self.free_play:
            self.legal = namespace["guarded_legal"]     # type: ignore[method-assign]

    # -- playing ---------------------------------------------------------------------------------
    def new_state(self, players: int | None = None, seed: int = 0) -> Any:
        players = self.game.default_players if players is None else players
        core.check_players(self.game, players)
        try:
            state = self.program.new_state(players, seed)
        except Exception:       # noqa: BLE001  (the reference says what failed)
            made: list[State] = []
            state = self._redone(lambda: made.append(core.new_state(self.game, players, seed)),
                                 lambda: self.from_state(made[0]), "to set up a game the reference sets up")
            state.hist = None
        state.origin = (players, seed)
        return state

    def legal(self, state: Any, seat: int | None = None) -> list[int]:
        """The actions of ``seat`` (default: the seat to act; in free play, the first seat that
        may move), in the reference's order."""
        try:
            if seat is None and state.current is None and not state.over:
                seats = self.acting_seats(state)
                return self._legal(state, seats[0]) if seats else []
            return self._legal(state, seat)
        except Exception:       # noqa: BLE001
            return self._failed_legal(state, seat)

    def _failed_legal(self, state: Any, seat: int | None) -> list[int]:
        return self._redone(lambda: core.legal_moves(self.game, self.to_state(state), seat),
                            lambda: self.program.legal(state, seat), "to list moves the reference lists")

    def _redone(self, reference: Callable[[], Any], run: Callable[[], Any], what: str) -> Any:
        """Where something failed in the lean module (called while its exception is handled):
        the ``reference`` does the same, raising its own error; when it does not, ``run`` again
        without counting work where the lean count ran out (it counts more than the reference
        does: ``budget.Budget``), else the lean engine is at fault."""
        over = _over_budget()
        reference()
        if not over:
            raise Diverged(f"the lean engine failed {what}") from None
        with self.program.budget.unlimited():
            return run()

    def acting_seats(self, state: Any) -> list[int]:
        """The seats that may move now: the seat whose turn it is, or every seat with a move in
        free play."""
        if state.over:
            return []
        if state.current is not None:
            return [state.current]
        return self.free_seats(state)

    def free_seats(self, state: Any) -> list[int]:
        """In free play, every seat that has a move (each listing stops at the first found, as
        the reference's does)."""
        any_legal = cast("Callable[[Any, int], bool]", self._any_legal)     # set in free play
        try:
            return [seat for seat in range(state.players) if any_legal(state, seat)]
        except Exception:       # noqa: BLE001
            return self._redone(lambda: core.acting_seats(self.game, self.to_state(state)),
                                lambda: [seat for seat in range(state.players) if any_legal(state, seat)],
                                "to list moves the reference lists")

    def step(self, state: Any, action: int, seat: int | None = None) -> None:
        """Play ``action`` for ``seat`` (default: the seat to act; named in free play)."""
        try:
            self._step(state, action, seat)
        except Exception:       # noqa: BLE001
            self._failed_step(state, action, seat)

    def step_over_budget(self, state: Any, action: int, seat: int | None) -> None:
        """After the module's bare ``step`` ran out of its count of work (the bots call it): the
        reference plays the move, raising its error where it runs out too."""
        self._failed_step(state, action, seat)

    def _failed_step(self, state: Any, action: int, seat: int | None) -> None:
        over = _over_budget()
        ref = self._replay(state)
        if not over:
            raise Diverged("the lean engine failed at a move the reference plays") from None
        self._take_over(state, ref)

    def _take_over(self, state: Any, ref: State) -> None:
        """``state`` becomes the reference's ``ref`` (where the step failed on the lean count of
        work alone, and the reference played it), keeping where it came from and its actions."""
        origin, hist = state.origin, state.hist
        played = self.from_state(ref)
        for slot in type(state).__slots__:
            setattr(state, slot, getattr(played, slot))
        state.origin, state.hist = origin, hist

    def clone(self, state: Any) -> Any:
        return self._clone(state)

    def scores(self, state: Any) -> list:
        try:
            return self.program.scores(state)
        except Exception:       # noqa: BLE001
            return self._redone(lambda: core.scores(self.game, self.to_state(state)),
                                lambda: self.program.scores(state), "to count scores the reference counts")

    def results(self, state: Any) -> list:
        points = self.scores(state)
        try:
            return self.program.results(state, points)
        except Exception:       # noqa: BLE001
            return self._redone(lambda: core.results(self.game, self.to_state(state)),
                                lambda: self.program.results(state, points), "to count results the reference counts")

    def hint(self, state: Any, seat: int) -> Any:
        try:
            return self.program.hint(state, seat)
        except Exception:       # noqa: BLE001
            return self._redone(lambda: core.evaluate_hint(self.game, self.to_state(state), seat),
                                lambda: self.program.hint(state, seat), "to weigh a position the reference weighs")

    # -- moves as people read them ---------------------------------------------------------------
    def move(self, state: Any, action: int) -> Move:
        """The reference's ``Move`` of an action of the seat to play."""
        return Move(state.current, *self._named(action))

    def _named(self, action: int) -> tuple:
        """An action's move name, argument values and text (the same whoever plays it: made once)."""
        named = self._names.get(action)
        if named is None:
            if len(self._names) >= KNOWN_ACTIONS:
                self._names.clear()
            index, args = self.decode(action)
            name = self.move_names[index]
            values = tuple(self._ref_arg(name, k, value) for k, value in enumerate(args))
            named = self._names[action] = (name, values, notation(name, values))
        return named

    def ranking(self, state: Any, points: list | None = None) -> list[int]:
        """Each seat's place, as ``engine.core.ranking`` gives it."""
        points = self.scores(state) if points is None else points
        sign = 1 if self.game.score_order == "high" else -1

        def keys_of() -> list[tuple]:
            return [(sign * points[seat], *(sign * b for b in self.program.tiebreaks(state, seat)))
                    for seat in range(state.players)]
        try:
            keys = keys_of()
        except Exception:       # noqa: BLE001
            keys = self._redone(lambda: core.ranking(self.game, self.to_state(state), points), keys_of,
                                "to rank seats the reference ranks")
        return [1 + sum(1 for other in keys if other > key) for key in keys]

    def action_text(self, action: int) -> str:
        """An action's text (what its move shows, whoever plays it)."""
        return self._named(action)[2]

    def move_name(self, action: int) -> str:
        return self.move_names[action % len(self.move_names)]

    def text(self, state: Any, action: int) -> str:
        return self.move(state, action).text

    def _ref_arg(self, move: str, k: int, value: Any) -> Any:
        from .listing_code import param_types
        kind = self.program.module.param_type_cache[move][k] if move in self.program.module.param_type_cache \
            else param_types(self.program.module, move)[k]
        return to_ref(value, kind, self.cards, self._zone_ref)

    def _zone_ref(self, zone: str | None, pile: int) -> ZoneRef:
        """The reference's zone of a pile of ``zone`` (of any zone when None: then its place)."""
        shape = self.program.module.shape
        if zone is None:
            zone, pile = self._zone_names[pile >> PILE_BITS], pile & PILE_MASK
        kept = shape.zones[zone]
        if kept.piles is None:
            return ZoneRef(zone, None if kept.per == "game" else pile)
        if kept.per == "game":
            return ZoneRef(zone, None, pile, numbered=True)
        each = shape.piles_each(zone)
        return ZoneRef(zone, pile // each, pile % each, numbered=True)

    def _zone_pile(self, ref: ZoneRef, any_zone: bool = False) -> int:
        """``_zone_ref`` backwards: a pile's number in its zone, or its place."""
        shape = self.program.module.shape
        kept = shape.zones[ref.name]
        if kept.piles is None or kept.per == "game":
            pile = ref.index if kept.piles is not None else (ref.owner or 0)
        else:
            pile = cast(int, ref.owner) * shape.piles_each(ref.name) + ref.index     # a zone per owner
        return kept.index << PILE_BITS | pile if any_zone else pile

    # -- the reference's states ------------------------------------------------------------------
    def _variables(self, level: str) -> list[tuple]:
        """The variables of a level as ``to_state`` reads them: (name, slot, type, how: ``None``
        for a value kept as it is, ``copy`` for a list or map of such values, else ``ref``)."""
        found = self._plans.get(level)
        if found is None:
            m = self.program.module
            found = self._plans[level] = [
                (name, m.var_slot(lv, name), kind,
                 "ref" if holds_objects(kind) else "copy" if holds(kind, lambda t: isinstance(t, (ListT, MapT))) else None)
                for (lv, name), kind in m.var_types.items() if lv == level]
        return found

    def _value(self, value: Any, kind: Any, how: str | None) -> Any:
        if how is None:
            return value
        if how == "copy":
            return _plain_copy(value)
        return to_ref(value, kind, self.cards, self._zone_ref)

    def to_state(self, state: Any) -> State:
        """The reference state equal to a lean state."""
        m = self.program.module
        ref = State(players=state.players, rng=state.rng)
        value = self._value
        game_vars = {name: value(getattr(state, slot), kind, how) for name, slot, kind, how in self._variables("game")}
        if state.teams is not None:
            game_vars["$teams"] = list(state.teams)
        if state.played_round is not None:
            game_vars["$played"] = self._played(state)
        interrupts = to_ref_interrupts(m, getattr(state, "intr", None))
        if interrupts is not None:
            game_vars["$interrupts"] = interrupts
        ref.vars = game_vars
        ref.seat_vars = self._holders(state, "seat", state.players)
        ref.team_vars = self._holders(state, "team", state.nteams)
        ref.zones = {zone.name: [list(p) for p in getattr(state, zone.slot)] for zone in m.shape.zones.values()}
        ref.face_up = {card for card, up in enumerate(state.up) if up}
        ref.dice = self._dice_copy(state.dice)
        ref.dice_shown = list(state.dice_shown)
        ref.round, ref.phase, ref.current, ref.turns = state.round, state.phase, state.current, state.turns
        ref.moves, ref.over, ref.stop_reason = state.moves, state.over, state.stop_reason
        return ref

    def _dice_copy(self, dice: list) -> list:
        """A copy of the dice: the table's, or with dice per seat each cup."""
        return [list(cup) for cup in dice] if self.game.dice_per == "seat" else list(dice)

    def _holders(self, state: Any, level: str, count: int) -> list[dict]:
        plan, value = self._variables(level), self._value
        slots = [getattr(state, slot) for _, slot, _, _ in plan]
        return [{name: value(held[i], kind, how) for (name, _, kind, how), held in zip(plan, slots)}
                for i in range(count)]

    def _played(self, state: Any) -> dict:
        suit = self.program.module.trick_info.suit_type if self.program.module.trick_info else None
        return {"round": state.played_round, "by": {str(c): seat for c, seat in state.played_by.items()},
                "off": {str(seat): [to_json(to_ref(s, cast(LType, suit), self.cards)) for s in suits]
                        for seat, suits in state.voids.items()}}

    def from_state(self, ref: State) -> Any:
        """The lean state equal to a reference state (without its presets: chance fixed in
        advance stays with the reference)."""
        if ref.presets is not None:
            raise Unsupported("a state with chance fixed in advance")
        m, p = self.program.module, self.program
        state = p.State()
        state.players, state.rng, state.round, state.phase = ref.players, ref.rng, ref.round, ref.phase
        state.current, state.turns, state.moves, state.over = ref.current, ref.turns, ref.moves, ref.over
        state.stop_reason, state.hist, state.origin = ref.stop_reason, None, ref.clone()
        for zone in m.shape.zones.values():
            setattr(state, zone.slot, [list(pile) for pile in ref.zones[zone.name]])
        state.zones = [getattr(state, zone.slot) for zone in m.shape.zones.values()]
        state.up = bytearray(m.shape.cards)
        for card in ref.face_up:
            state.up[card] = 1
        state.dice = self._dice_copy(ref.dice)
        state.dice_shown = list(ref.dice_shown)
        state.teams = list(ref.vars["$teams"]) if "$teams" in ref.vars else None
        state.nteams = len(ref.team_vars)
        for (level, name), kind in m.var_types.items():
            slot = m.var_slot(level, name)
            if level == "game":
                setattr(state, slot, from_ref(ref.vars[name], kind, self._zone_pile))
            else:
                holders = ref.seat_vars if level == "seat" else ref.team_vars
                setattr(state, slot, [from_ref(h[name], kind, self._zone_pile) for h in holders])
        played = ref.vars.get("$played")
        state.played_round = played["round"] if played else None
        state.played_by = {int(c): seat for c, seat in played["by"].items()} if played else {}
        state.voids = {int(seat): list(suits) for seat, suits in played.get("off", {}).items()} if played else {}
        if m.interrupts:
            state.intr = from_ref_interrupts(m, ref.vars.get("$interrupts"))
        return state

    def _replay(self, state: Any) -> State:
        """The game played again in the reference from where the lean state came from, through
        its actions (the last of which failed in the lean module): the reference raises there."""
        return self._replayed(state.origin, state.hist)

    def _replayed(self, origin: Any, hist: Any) -> State:
        """The reference state reached from ``origin`` (a seed, a reference state, or a bot's
        guess of another state) through the actions of ``hist``."""
        actions = []
        node = hist
        while node is not None:
            node, action = node
            actions.append(action)
        actions.reverse()
        if isinstance(origin, State):
            ref = origin.clone()
        elif origin[0] == "guess":      # (guess, the guessed state's origin and actions, seat, seed, how)
            _, parent, parent_hist, seat, seed, guess = origin
            ref = guess(self.game, self._replayed(parent, parent_hist), seat, seed)
        else:
            ref = core.new_state(self.game, origin[0], origin[1])
        for action in actions:
            # Not in free play, the seat to play (a move was played: there is one).
            action, seat = divmod(action, SEATS) if self.free_play else (action, cast(int, ref.current))
            lean_move = self._move_in(action, seat)
            core.apply_move(self.game, ref, lean_move, seat)
        return ref

    def _move_in(self, action: int, seat: int) -> Move:
        return Move(seat, *self._named(action))


def _over_budget() -> bool:
    """Whether the exception being handled is the lean count of work running out."""
    return isinstance(sys.exc_info()[1], OverBudget)


def _plain_copy(value: Any) -> Any:
    """A value of no cards, seats or zones as the reference keeps it: lists (a move's list
    argument is a tuple in the lean state) and maps copied."""
    if isinstance(value, (list, tuple)):
        return [_plain_copy(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain_copy(v) for k, v in value.items()}
    return value
