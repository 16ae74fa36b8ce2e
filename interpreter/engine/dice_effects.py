"""The effects of dice: ``roll`` (the table's dice, or a seat's cup with ``of:``) and
``reveal_dice`` (cups shown to everyone until thrown again), a part of ``EffectCompiler``."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..errors import EvalError, SpecError
from ..expr.ops import show
from . import rng
from .values import Seat

if TYPE_CHECKING:
    from .state import State


class DiceEffects:
    """The dice effects of ``EffectCompiler`` (a mixin: ``c`` is its game compiler)."""

    c: Any

    def _roll(self, path, item, locals_):
        which = self.c.expr(path + ("roll",), locals_)
        of = self._cup_owner(path, item, locals_, "roll")
        faces = self.c.game.dice_faces
        keep_sorted = self.c.game.dice_sorted

        def run_roll(ctx, env):
            state = ctx.state
            chosen = which(ctx, env)
            if of is None:
                state.dice = thrown(state, state.dice, chosen, faces, keep_sorted, which)
                return
            owner = ctx.seat() if of is True else seat_number(of(ctx, env), state.players, of, "roll: 'of'")
            # A cup is replaced, never changed in place: clones and cached listings share the old one.
            cups = list(state.dice)
            cups[owner] = thrown(state, cups[owner], chosen, faces, keep_sorted, which)
            state.dice = cups
            if owner in state.dice_shown:
                state.dice_shown = [s for s in state.dice_shown if s != owner]
        return run_roll

    def _cup_owner(self, path, item, locals_, effect):
        """Whose cup a dice effect acts on: None for the table's dice, True for the acting seat's,
        else the compiled ``of:``. A seat named where none acts, or ``of:`` without cups, is an error."""
        per_seat = self.c.game.dice_per == "seat"
        if "of" in item:
            if not per_seat:
                self.c.errors.append(SpecError(f"{effect}: 'of' names a seat's cup, but the dice are the table's",
                                               self.c.doc.key_pos(path + ("of",)),
                                               hint="give each seat its cup: dice: {..., per: seat}"))
            return self.c.expr(path + ("of",), locals_)
        if not per_seat:
            return None
        if self.c.scope.seatless:
            self.c.errors.append(SpecError(f"{effect}: whose dice? no seat acts {self.c.scope.seatless}",
                                           self.c.doc.key_pos(path + (effect,)),
                                           hint="name the seat: 'of: p' with 'for: p in players'"))
        return True

    def _reveal_dice(self, path, item, locals_):
        whose = self.c.expr(path + ("reveal_dice",), locals_)
        if self.c.game.dice_per != "seat":
            self.c.errors.append(SpecError("reveal_dice: the dice are the table's, seen by everyone",
                                           self.c.doc.key_pos(path + ("reveal_dice",)),
                                           hint="give each seat a cup seen by its owner: dice: {..., per: seat, visible_to: owner}"))

        def run_reveal(ctx, env):
            value = whose(ctx, env)
            state = ctx.state
            shown = {seat_number(s, state.players, whose, "reveal_dice")
                     for s in (value if isinstance(value, list) else [value])}
            state.dice_shown = sorted(shown.union(state.dice_shown))
        return run_reveal


def seat_number(value: Any, players: int, expr: Any, what: str = "deal: 'first'") -> int:
    """A seat given as a seat or a number (taken round the table)."""
    if isinstance(value, Seat):
        return value.index
    if isinstance(value, int) and not isinstance(value, bool):
        return value % players
    raise EvalError(f"{what} must be a seat, not {show(value)}", expr.pos)


def thrown(state: State, dice: list[int], chosen: Any, faces: int, keep_sorted: bool, which: Any) -> list[int]:
    """``dice`` with the dice showing the ``chosen`` values thrown again (a fixed roll first)."""
    kept = list(dice)
    for value in (chosen if isinstance(chosen, list) else [chosen]):
        if value not in kept:
            raise EvalError(f"roll: no die shows {show(value)}", which.pos)
        kept.remove(value)
    thrown = len(dice) - len(kept)
    fixed = state.presets.next_roll(thrown) if state.presets is not None else None
    for _ in range(thrown if fixed is None else 0):
        face, state.rng = rng.below(state.rng, faces)
        kept.append(face + 1)
    kept += fixed or []
    return sorted(kept) if keep_sorted else kept
