"""Effects: what a move, a trigger or the flow does to the state, compiled once to closures.

Each effect in a game file becomes a function ``run(ctx, env)`` that changes ``ctx.state``.
Flow effects (``end_turn`` ...) only raise a signal that the flow handles after the move.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from ..errors import EvalError, LimitError, SpecError, did_you_mean
from ..expr.compile import item_type
from ..expr.ops import show
from ..expr.runtime import STEPS, fault
from ..limits import MAX_COLLECTION, MAX_EVAL_STEPS, MAX_LOOP_ITERATIONS, MAX_VALUE_DEPTH
from . import interrupts, rng, tricks
from .dice_effects import DiceEffects, seat_number
from .values import Card, Seat, ZoneRef, stored_copy, zone_ref

if TYPE_CHECKING:
    from ..errors import Position
    from .context import Ctx

Run = Callable[[Any, dict], None]

FLOW_SIGNALS = ("end_turn", "end_phase", "end_round", "end_game")
LOOP_ITEMS = "_loop_items"      # in env: a one-item list, the turns the 'for' effects running may still take
TARGET = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)(?:\[(.+)\])?$")


class EffectCompiler(DiceEffects):
    """Turns effect lists into closures, using the game compiler for names and expressions."""

    def __init__(self, compiler: Any):
        self.c = compiler
        # While a loop's body is compiled: how many turns the loops around it take together, when
        # their lists are known at load and no 'if' stands between them (else None).
        self.turns: int | None = 1

    def block(self, path: tuple, locals_: dict | None = None) -> Run:
        """The closure of a block."""
        items = self.c.doc_value(path) or []
        runs = [self.effect(path + (i,), item, locals_ or {}) for i, item in enumerate(items)]
        if not runs:
            return nothing      # the flow skips an empty block, and the context it would get
        places = [self._place(path + (i,), item) for i, item in enumerate(items)]
        if len(runs) == 1:
            (run_one,), (place,) = runs, places

            def run_single(ctx, env):
                try:
                    run_one(ctx, env)
                except Exception as error:
                    raise fault(error, place) from None
            return run_single

        def run_block(ctx, env):
            try:
                for run in runs:
                    run(ctx, env)
            except Exception as error:
                # An error without a place of its own (the effect's, not an expression's) is
                # placed at the effect that failed: ``run`` is still the one running.
                raise fault(error, places[runs.index(run)]) from None
        return run_block

    def _place(self, path: tuple, item: Any) -> Position:
        """Where an effect is written: its kind's key (``move:``), or the word (``end_turn``)."""
        if isinstance(item, dict):
            kind = next((k for k in item if k in _KINDS), None)
            if kind is not None:
                return self.c.doc.key_pos(path + (kind,))
        return self.c.doc.pos(path)

    def effect(self, path: tuple, item: Any, locals_: dict) -> Run:
        if isinstance(item, str):
            return _signal(item)
        kind = next(k for k in item if k in _KINDS)
        return getattr(self, "_" + kind)(path, item, locals_)

    # -- variables -------------------------------------------------------------------------------
    def _set(self, path, item, locals_, add=False):
        key = "add" if add else "set"
        of = self.c.expr(path + ("of",), locals_) if "of" in item else None
        writers = [self._writer(path + (key, target), target, value, locals_, add, of is not None)
                   for target, value in item[key].items()]

        def run_set(ctx, env):
            seat = of(ctx, env) if of else None
            for write in writers:
                write(ctx, env, seat)
        return run_set

    def _add(self, path, item, locals_):
        return self._set(path, item, locals_, add=True)

    def _writer(self, path, target, value_text, locals_, add, has_of):
        name, key_text = TARGET.match(target).groups()
        value = self.c.expr(path, locals_)
        key = self.c.expr_in_key(key_text, path, locals_, key_offset(target)) if key_text else None
        store = self.c.variable_store(name, path, has_of)
        place = self.c.doc.key_pos(path)

        def write(ctx, env, seat):
            holder = store(ctx, seat)
            new = value(ctx, env)
            if key is None:
                store_value(holder, name, new, add, target, place)
                return
            try:
                container = holder[name]
                index = key(ctx, env)
                if isinstance(container, dict):
                    old = container.get(index) if add else None
                    if index not in container and len(container) >= MAX_COLLECTION:
                        raise LimitError(f"cannot set {target}: {name} already holds {MAX_COLLECTION} keys")
                elif isinstance(container, list) and isinstance(index, int) and -len(container) <= index < len(container):
                    old = container[index]
                else:
                    raise EvalError(f"cannot set {target}: {name} has no place {show(index)}", place)
                container[index] = _combine(old, new, add, target, place, MAX_VALUE_DEPTH - 1)
            except LimitError as error:     # the value would be too large: the place it was to go
                error.pos = error.pos or place
                raise
        return write

    def _choose_random(self, path, item, locals_):
        writers = []
        for target, value_text in item["choose_random"].items():
            options = self.c.expr(path + ("choose_random", target), locals_)
            store = self.c.variable_store(target, path + ("choose_random", target), False)
            writers.append((target, options, store))
            self.c.game.choice_targets.add(target)

        def run_choose(ctx, env):
            for target, options, store in writers:
                chosen = options(ctx, env)
                if not isinstance(chosen, (list, tuple)):
                    raise EvalError(f"choose_random: {target} must be chosen from a list, not {show(chosen)}",
                                    options.pos)
                values = list(chosen)
                if not values:
                    raise EvalError(f"choose_random: nothing to choose for {target}: the list is empty", options.pos)
                presets = ctx.state.presets
                index = presets.next_choice(target, values) if presets is not None else None
                if index is None:
                    index, ctx.state.rng = rng.below(ctx.state.rng, len(values))
                store(ctx, None)[target] = stored_copy(values[index], target)
        return run_choose

    # -- cards and zones -------------------------------------------------------------------------
    def _shuffle(self, path, item, locals_):
        zone = self.c.expr(path + ("shuffle",), locals_)

        def run_shuffle(ctx, env):
            ref = _zone(zone(ctx, env), "shuffle", zone)
            pile = ctx.game.pile(ctx.state, ref)
            pile[:], ctx.state.rng = rng.shuffled(ctx.state.rng, pile)
            if ctx.state.presets is not None:
                ctx.state.presets.stack_on_top(ref, pile, ctx.game.card_table(ctx.state.players))
        return run_shuffle

    def _move(self, path, item, locals_):
        if "slot" in item:
            return self._move_to_slot(path, item, locals_)
        if "displace_to" in item:
            self.c.errors.append(SpecError("'displace_to' goes with 'slot': only a card put at a slot displaces one",
                                           self.c.doc.key_pos(path + ("displace_to",)),
                                           hint="add 'slot:', or remove 'displace_to:'"))
        cards = self.c.expr(path + ("move",), locals_)
        to = self.c.expr(path + ("to",), locals_)
        face, at_bottom = item.get("face"), item.get("at") == "bottom"

        def run_move(ctx, env):
            value = cards(ctx, env)
            moving = value if isinstance(value, list) else [value]
            target = _zone(to(ctx, env), "move", to)
            for card in moving:
                if not isinstance(card, Card):
                    raise not_a_card("move", card, cards)
                ctx.game.place(ctx.state, card.id, target, face, at_bottom)
        return run_move

    def _move_to_slot(self, path, item, locals_):
        """``move: card, to: grid, slot: s, displace_to: zone``: the card at slot s goes to the zone."""
        card_of = self.c.expr(path + ("move",), locals_)
        to = self.c.expr(path + ("to",), locals_)
        slot = self.c.expr(path + ("slot",), locals_)
        displace_to = self.c.expr(path + ("displace_to",), locals_) if "displace_to" in item else None
        face = item.get("face")

        def run_move_to_slot(ctx, env):
            card, target, at = card_of(ctx, env), _zone(to(ctx, env), "move", to), slot(ctx, env)
            if not isinstance(card, Card):
                raise EvalError(f"move: a card put at a slot must be one card, not {show(card)}", card_of.pos)
            try:
                displaced = ctx.game.place(ctx.state, card.id, target, face, False, slot=at)
            except EvalError as error:      # no such slot in this zone: the slot's expression
                raise fault(error, slot.pos) from None
            if displaced is None:
                return
            if displace_to is None:
                raise EvalError(f"move: slot {at} of {target} held a card; say where it goes with 'displace_to'")
            ctx.game.place(ctx.state, displaced, _zone(displace_to(ctx, env), "move", displace_to), None, False)
        return run_move_to_slot

    def _interrupt(self, path, item, locals_):
        """Seats that each make one move of the listed ones before play goes on (interrupts.py)."""
        seats = self.c.expr(path + ("interrupt",), locals_)
        moves = item["moves"]
        known = self.c.spec.data.get("moves", {})
        for i, name in enumerate(moves):
            if name not in known:
                self.c.errors.append(SpecError(f"unknown move '{name}' in interrupt", self.c.doc.pos(path + ("moves", i)),
                                               hint=did_you_mean(name, known) or "declare it under moves:"))

        def run_interrupt(ctx, env):
            interrupts.push(ctx.state, seats(ctx, env), moves)
        return run_interrupt

    def _deal(self, path, item, locals_):
        count = self.c.expr(path + ("deal",), locals_)
        source = self.c.expr(path + ("from",), locals_) if "from" in item else None
        first = self.c.expr(path + ("first",), locals_) if "first" in item else None
        to_name, face = item["to"], item.get("face")
        self.c.check_zone_name(to_name, path + ("to",), per="seat")

        def run_deal(ctx, env):
            n = count(ctx, env)
            ref = _zone(source(ctx, env), "deal", source) if source else ctx.game.deck_zone()
            pile = ctx.game.pile(ctx.state, ref)
            players = ctx.state.players
            start = seat_number(first(ctx, env), players, first) if first else 0
            targets = [zone_ref(to_name, (start + k) % players) for k in range(players)]
            ctx.game.deal(ctx.state, pile, targets, n, face, lambda: EvalError(f"deal: {ref} ran out of cards"))
        return run_deal

    def _flip(self, path, item, locals_):
        cards = self.c.expr(path + ("flip",), locals_)
        face = item.get("face")

        def run_flip(ctx, env):
            value = cards(ctx, env)
            for card in (value if isinstance(value, list) else [value]):
                if not isinstance(card, Card):
                    raise not_a_card("flip", card, cards)
                up = card.id not in ctx.state.face_up if face is None else face == "up"
                (ctx.state.face_up.add if up else ctx.state.face_up.discard)(card.id)
        return run_flip

    # -- control ---------------------------------------------------------------------------------
    def _if(self, path, item, locals_):
        test = self.c.expr(path + ("if",), locals_, expect_bool=True)
        outer, self.turns = self.turns, None      # a branch may not run: the loops in it are not counted
        then = self.block(path + ("then",), locals_)
        other = self.block(path + ("else",), locals_) if "else" in item else None
        self.turns = outer

        def run_if(ctx, env):
            if test(ctx, env):
                then(ctx, env)
            elif other is not None:
                other(ctx, env)
        return run_if

    def _for(self, path, item, locals_):
        name, _, rest = item["for"].strip().partition(" ")
        collection_text = rest.strip()[2:].strip()
        offset = item["for"].index(collection_text)
        items = self.c.expr_text(collection_text, path + ("for",), locals_, offset)
        where = self.c.doc.pos(path + ("for",))
        outer = self.turns
        known = outer is not None and getattr(items, "constant", False) and isinstance(items.value, list)
        self.turns = outer * len(items.value) if known else None
        if self.turns is not None and self.turns > MAX_LOOP_ITERATIONS:
            self.c.errors.append(LimitError(f"these loops take more than {MAX_LOOP_ITERATIONS} turns", where,
                                            hint="loop over fewer items, or nest fewer loops"))
            self.turns = None       # reported once, at the loop that passes the limit
        body = self.block(path + ("do",), {**locals_, name: item_type(items)})
        self.turns = outer

        def run_for(ctx, env):
            values, steps, left = loop_start(items(ctx, env), items, env, where)
            for value in values:
                body(ctx, {**env, name: value, STEPS: steps, LOOP_ITEMS: left})
        return run_for

    def _play_to_trick(self, path, item, locals_):
        card = self.c.expr(path + ("play_to_trick",), locals_)
        by = self.c.expr(path + ("by",), locals_) if "by" in item else None

        def run_play(ctx, env):
            if by is None:
                tricks.play_to_trick(ctx, card(ctx, env))
            else:
                tricks.play_to_trick_for(ctx, card(ctx, env), by(ctx, env))
        return run_play

    def _log(self, path, item, locals_):
        template = self.c.template(path + ("log",), locals_)

        def run_log(ctx, env):
            ctx.game.log(ctx, template(ctx, env))
        return run_log


_KINDS = ("set", "add", "choose_random", "roll", "reveal_dice", "shuffle", "move", "deal", "flip", "if", "for", "log", "play_to_trick",
          "interrupt")


def nothing(ctx: Ctx, env: dict) -> None:
    """An empty block of effects."""


def key_offset(target: str) -> int:
    return target.index("[") + 1


def _signal(word: str) -> Run:
    def run_signal(ctx, env):
        ctx.signals.append(word)
    return run_signal


def loop_start(values: Any, items: Any, env: dict, where: Position) -> tuple[list, list, list]:
    """What a ``for`` effect does before its first turn: the items it runs over (``values``, the
    value of the expression ``items``) as a list, then the work budget and the count of turns
    its body shares. The outermost loop sets both up; the loops inside it share its count of
    turns, and every expression they evaluate its work budget (nested loops would multiply their
    work otherwise)."""
    if not isinstance(values, (list, tuple, dict, str)):
        raise EvalError(f"for: cannot loop over {show(values)}", items.pos)
    values = list(values)
    steps = env.get(STEPS) or [MAX_EVAL_STEPS]
    left = env.get(LOOP_ITEMS) or [MAX_LOOP_ITERATIONS]
    left[0] -= len(values)
    if left[0] < 0:
        raise LimitError(f"these loops take more than {MAX_LOOP_ITERATIONS} turns", where,
                         hint="loop over fewer items, or nest fewer loops")
    return values, steps, left


def store_value(holder: dict, name: str, new: Any, add: bool, target: str, place: Position) -> None:
    """``set`` or ``add`` of a whole variable (no ``[key]``)."""
    try:
        holder[name] = _combine(holder[name], new, add, target, place)
    except LimitError as error:     # the value would be too large: the place it was to go
        error.pos = error.pos or place
        raise


def _combine(old: Any, new: Any, add: bool, target: str, place: Position, levels: int = MAX_VALUE_DEPTH) -> Any:
    """The value ``set`` or ``add`` stores: a copy, within the limits of a variable's size and
    depth (``levels``: one less at a key of a variable, which holds it)."""
    if not add or old is None:
        return stored_copy(new, target, levels)
    if isinstance(old, list):
        return stored_copy(old + (new if isinstance(new, list) else [new]), target, levels)
    if isinstance(old, bool) or not isinstance(old, (int, float)) or isinstance(new, bool):
        raise EvalError(f"add: cannot add {show(new)} to {target} ({show(old)})", place)
    return old + new


def _zone(value: Any, effect: str, expr: Any) -> ZoneRef:
    if not isinstance(value, ZoneRef):
        raise EvalError(f"{effect}: {show(value)} is not a zone", expr.pos)
    return value


def not_a_card(effect: str, value: Any, expr: Any) -> EvalError:
    return EvalError(f"{effect}: {show(value)} is not a card", expr.pos)


__all__ = ["EffectCompiler", "FLOW_SIGNALS", "Seat"]
