"""Blocks of effects written as Python statements over the lean state, in the order the
reference runs them, with the same checks where Python would not fail by itself.

A block's statements see ``s`` (the state), ``me`` (the acting seat, or None) and ``sig`` (the
flow signals the block raises, handled after it, as the reference's ``ctx.signals``).
"""
from __future__ import annotations

import re
from typing import Any, cast

from ..limits import MAX_COLLECTION
from .work import ANY_LIST
from .code import Code, Env
from .ltypes import (BOOL, CARD, INT, NONE, NUM, SEAT, STR, LType, ListT, MapT, Unsupported, Zone, element,
                     holds, holds_objects, is_object, join, strip)

TARGET = re.compile(r"^([A-Za-z][A-Za-z0-9_]*)(?:\[(.+)\])?$")
SIGNALS = ("end_turn", "end_phase", "end_round", "end_game")
KINDS = ("set", "add", "choose_random", "roll", "reveal_dice", "shuffle", "move", "deal", "flip", "if", "for",
         "log", "play_to_trick", "interrupt")
TEMPLATE_PART = re.compile(r"\{([^{}]+)\}")
PLACE = "a place"           # a target that may be a grid's pile or not
NOWHERE = "nowhere"         # the origin of a card in no pile (one a slot held): nothing to take it out of


class EffectWriter:
    def __init__(self, module: Any):
        self.m = module
        self.w = module.writer

    def expr(self, text: Any, env: Env) -> Code:
        return self.w.write(self.m.top(text, env), env)

    def block(self, items: list | None, env: Env, indent: str) -> list[str]:
        """The statements of a block (``pass`` for an empty one)."""
        lines: list[str] = []
        for item in items or []:
            lines += self.effect(item, env, indent)
        return lines or [indent + "pass"]

    def effect(self, item: Any, env: Env, indent: str) -> list[str]:
        """An effect's statements; one that cannot be written yet is put off (``Module.defer``)."""
        try:
            return self._effect(item, env, indent)
        except Unsupported as reason:
            self.m.defer(reason)
            return [f"{indent}raise NotImplementedError"]

    def _effect(self, item: Any, env: Env, indent: str) -> list[str]:
        if isinstance(item, str):
            if item not in SIGNALS:
                raise Unsupported(f"the effect '{item}'")
            return [f"{indent}sig.append({item!r})"]      # one of SIGNALS: the engine's own word
        kind = next(k for k in item if k in KINDS)
        return getattr(self, "_" + kind)(item, env, indent)

    # -- variables -------------------------------------------------------------------------------
    def _set(self, item: dict, env: Env, indent: str, add: bool = False) -> list[str]:
        key = "add" if add else "set"
        lines = []
        of = None
        if "of" in item:
            of = self.m.temp("of")
            code = self.expr(item["of"], env)
            lines.append(f"{indent}{of} = {code.text}")
            of = (of, strip(code.type))
        for target, value in item[key].items():
            lines += self._write(target, value, of, add, env, indent)
        return lines

    def _add(self, item: dict, env: Env, indent: str) -> list[str]:
        return self._set(item, env, indent, add=True)

    def _holder(self, name: str, of: tuple | None, env: Env) -> tuple[str, str, str]:
        """Where a variable is kept: (the level, its slot's text, the index within it or "")."""
        level = self.m.level_of(name)
        slot = f"s.{self.m.var_slot(level, name)}"
        if level == "game":
            return level, slot, ""
        if of is None:
            seat = self.w.names.me(env)
        elif of[1] in (SEAT, NONE):     # none (a seat not chosen yet): the write fails as the reference's does
            seat = of[0]
        elif of[1] == INT and level == "team":
            return level, slot, of[0]
        else:
            raise Unsupported(f"'of' given {of[1]}")
        return level, slot, seat if level == "seat" else self.w.names.team_of(seat)

    def _write(self, target: str, value_text: Any, of: tuple | None, add: bool, env: Env, indent: str) -> list[str]:
        name, key_text = cast("re.Match[str]", TARGET.match(target)).groups()     # a target the checker took
        level, slot, index = self._holder(name, of, env)
        value = self.expr(value_text, env)
        place = f"{slot}[{index}]" if index else slot
        if key_text is None:
            held = self.m.var_type(level, name)
            self.m.note_var(level, name, self._stored_type(held, value.type, add))
            self.m.note_size(level, name, ANY_LIST if add and isinstance(strip(held), ListT)
                             else self.m.budget.size(self.m.parse(value_text), {}) if _container(value.type) else 0)
            if not add and not _container(value.type):
                return [f"{indent}{place} = {value.text}"]
            if add and held in (INT, NUM) and value.type in (INT, NUM):
                return [f"{indent}{place} += {value.text}"]      # two numbers (neither none): their sum
            verb = "_add_to" if add else "_stored"
            return [f"{indent}{place} = {verb}({place}, {value.text})" if add
                    else f"{indent}{place} = {verb}({value.text})"]
        key = self.w.write(self.m.top(key_text, env), env)
        held = self.m.var_type(level, name)
        self.m.note_size(level, name, ANY_LIST)     # a place of it set: a map may gain keys, a list lists
        self._note_item(level, name, held, key.type, value.type, add)
        return [f"{indent}_set_at({place}, {key.text}, {value.text}, {add})"]

    def _stored_type(self, held: LType, value: LType, add: bool) -> LType:
        if add and isinstance(strip(held), ListT) and not isinstance(strip(value), ListT):
            value = ListT(value)
        kind = join(held, value)
        if kind is None:
            raise Unsupported(f"a variable holds {held} and then {value}")
        return kind

    def _note_item(self, level: str, name: str, held: LType, key: LType, value: LType, add: bool) -> None:
        inner = strip(held)
        kind: LType
        if isinstance(inner, MapT):
            kind = MapT(join(inner.key, key) or inner.key, join(inner.value, value) or inner.value)
        elif isinstance(inner, ListT):
            kind = ListT(join(inner.elem, value) or inner.elem)
        else:
            raise Unsupported(f"a place of {held}")
        if holds_objects(kind) and kind != inner:
            raise Unsupported(f"'{name}' holds cards or seats of several kinds")
        self.m.note_var(level, name, kind)

    def _choose_random(self, item: dict, env: Env, indent: str) -> list[str]:
        lines = []
        for target, text in item["choose_random"].items():
            level, slot, index = self._holder(target, None, env)
            options = self.expr(text, env)
            self.m.note_var(level, target, self._stored_type(self.m.var_type(level, target), element(options.type), False))
            self.m.note_size(level, target, ANY_LIST if _container(element(options.type)) else 0)
            values = self.m.temp("options")
            place = f"{slot}[{index}]" if index else slot
            lines += [f"{indent}{values} = _choices({options.text})",
                      f"{indent}_i, s.rng = _below(s.rng, len({values}))",
                      f"{indent}{place} = _stored({values}[_i])"]
        return lines

    # -- dice, cards and zones -------------------------------------------------------------------
    def _roll(self, item: dict, env: Env, indent: str) -> list[str]:
        which = self.expr(item["roll"], env)
        if holds_objects(which.type):       # a card's id or a seat's index could pass for a die's value
            raise Unsupported(f"a roll of {which.type}")
        game = self.m.game
        if game.dice_per != "seat":
            return [f"{indent}_roll(s, {which.text}, {game.dice_faces}, {game.dice_sorted})"]
        owner = self._seat_code(self.expr(item["of"], env)) if "of" in item else self.w.names.me(env)
        return [f"{indent}_roll_cup(s, {owner}, {which.text}, {game.dice_faces}, {game.dice_sorted})"]

    def _seat_code(self, seat: Code) -> str:
        """A seat's index from an expression that gives a seat (none fails) or a number (taken
        round the table), as ``dice_effects.seat_number`` takes it."""
        if strip(seat.type) != SEAT:
            if holds_objects(seat.type):        # a card's id or a pile's number would pass for a number
                raise Unsupported(f"a cup of {seat.type}")
            return f"_seat_number({seat.text}, s.players)"
        return seat.text if seat.type == SEAT else f"_seat({seat.text})"

    def _reveal_dice(self, item: dict, env: Env, indent: str) -> list[str]:
        """The cups of a seat or a list of seats shown; seats given as numbers are taken round
        the table (a list of values holds seats or no seat at all)."""
        whose = self.expr(item["reveal_dice"], env)
        if holds(whose.type, lambda kind: is_object(kind) and kind != SEAT):
            raise Unsupported(f"reveal_dice of {whose.type}")
        numbers = not holds(whose.type, lambda kind: kind == SEAT)
        return [f"{indent}_reveal_dice(s, {whose.text}, {numbers})"]

    def _shuffle(self, item: dict, env: Env, indent: str) -> list[str]:
        pile = self._pile(self.expr(item["shuffle"], env))
        held = self.m.temp("pile")
        return [f"{indent}{held} = {pile}", f"{indent}{held}[:], s.rng = _shuffled(s.rng, {held})"]

    def _pile(self, zone: Code) -> str:
        kind = strip(zone.type)
        if not isinstance(kind, Zone):
            raise Unsupported(f"a zone given as {zone.type}")
        if kind.name is None:
            return f"s.zones[({zone.text}) >> 14][({zone.text}) & 16383]"
        return f"s.{self.m.shape.zones[kind.name].slot}[{zone.text}]"

    def _zone_code(self, zone: Code) -> tuple[str, str]:
        """A target zone: (its pile's place as ``place`` takes it, its face)."""
        kind = strip(zone.type)
        if not isinstance(kind, Zone):
            raise Unsupported(f"a zone given as {zone.type}")
        if kind.name is None:
            return zone.text, f"_FACE_UP[({zone.text}) >> 14]"     # a place: zone << 14 | pile
        shape = self.m.shape.zones[kind.name]
        return f"({shape.index} << 14 | {zone.text})", "1" if shape.face_up else "0"

    def _face(self, item: dict, default: str) -> str:
        face = item.get("face")
        return default if face is None else ("1" if face == "up" else "0")

    def _grid_of(self, zone: Code) -> Any:
        """The (rows, cols) of a target zone that is a grid, None for one that is not, ``PLACE``
        for a place (a pile of any zone) in a game with grids."""
        kind = strip(zone.type)
        if isinstance(kind, Zone) and kind.name is not None:
            return self.m.shape.zones[kind.name].grid
        return PLACE if self.m.shape.grids else None

    def _move(self, item: dict, env: Env, indent: str) -> list[str]:
        if "slot" in item:
            return self._move_to_slot(item, env, indent)
        cards = self.expr(item["move"], env)
        place, face = self._zone_code(self.expr(item["to"], env))
        face = self._face(item, face)
        bottom = item.get("at") == "bottom"
        kind = strip(cards.type)
        target = self.expr(item["to"], env)
        if kind == CARD:
            return self._place_one(cards.text, cards.origin, target, face, bottom, indent)
        if isinstance(kind, ListT) and strip(kind.elem) == CARD and self._grid_of(target) is None:
            if cards.origin == cards.text:
                return self._move_piles(f"{cards.text}[:]", [cards.text], target, face, bottom, indent)
            if cards.piles:
                return self._move_piles(cards.text, [pile for _, pile in cards.piles], target, face, bottom, indent)
        if isinstance(kind, ListT) and strip(kind.elem) == CARD:
            listed = f"list({cards.text})" if cards.live else cards.text
            c = self.m.temp("card")
            return [f"{indent}for {c} in {listed}:"] + self._place_one(c, cards.origin, target, face, bottom,
                                                                       indent + "    ")
        raise Unsupported(f"moving {cards.type}")

    def _move_piles(self, listed: str, sources: list[str], zone: Code, face: str, bottom: bool,
                    indent: str) -> list[str]:
        """Every card of some piles (``listed``: a new list of their cards, pile after pile), in
        order, onto the target (the piles emptied: each card came from one), as the cards moved
        one by one would lie: a source that is the target too ends with its cards moved after it."""
        cards, c, pile = self.m.temp("cards"), self.m.temp("card"), self.m.temp("onto")
        put = f"{pile}[0:0] = {cards}[::-1]" if bottom else f"{pile}.extend({cards})"
        # The target is found before the cards leave (``to: trick_winner.won`` reads the trick).
        return ([f"{indent}{pile} = {self._pile(zone)}", f"{indent}{cards} = {listed}"]
                + [f"{indent}{source}.clear()" for source in sources]
                + [f"{indent}{put}", f"{indent}for {c} in {cards}:", f"{indent}    s.up[{c}] = {face}"])

    def _place_one(self, card: str, origin: str | None, zone: Code, face: str, bottom: bool,
                   indent: str) -> list[str]:
        """``Game.place`` of one card, written out: out of its pile (the one it was read from,
        when it is still there, else found), onto the target's top (or bottom), face up or down."""
        c = card if card.isidentifier() else self.m.temp("card")
        pile = self._pile(zone)
        grid = self._grid_of(zone)
        if grid == PLACE:           # a grid's pile, or not: known when played
            put = f"_put_in_place(s, {zone.text}, {c}, {bottom})"
        elif grid is not None:      # the first empty slot, at the top or the bottom alike
            put = f"_grid_put({pile}, {c}, {grid[0] * grid[1]})"
        else:
            put = f"{pile}.insert(0, {c})" if bottom else f"{pile}.append({c})"
        lines = [] if c == card else [f"{indent}{c} = {card}"]
        if origin == NOWHERE:
            pass
        elif origin is None:
            lines.append(f"{indent}_lift(s, {c})")
        else:
            lines += [f"{indent}try:", f"{indent}    {origin}.remove({c})",
                      f"{indent}except ValueError:", f"{indent}    _lift(s, {c})"]
        return lines + [f"{indent}{put}", f"{indent}s.up[{c}] = {face}"]

    def _move_to_slot(self, item: dict, env: Env, indent: str) -> list[str]:
        """``move: card, to: grid, slot: s, displace_to: zone``: the card put at the slot, the card
        that was there (out of every zone) onto ``displace_to``."""
        card = self.expr(item["move"], env)
        target = self.expr(item["to"], env)
        grid = self._grid_of(target)
        if strip(card.type) != CARD or grid is None or grid == PLACE:
            raise Unsupported("a card put at a slot of a zone that is not a grid")
        at = self.expr(item["slot"], env)
        c, out = self.m.temp("card"), self.m.temp("displaced")
        face = self._face(item, "1" if self.m.shape.zones[cast(Zone, strip(target.type)).name].face_up else "0")
        lines = [f"{indent}{c} = {card.text}", f"{indent}if type({c}) is not int: _fail()"]
        lines += [f"{indent}_lift(s, {c})",
                  f"{indent}{out} = _grid_put_at({self._pile(target)}, {at.text}, {c}, {grid[0] * grid[1]})",
                  f"{indent}s.up[{c}] = {face}",
                  f"{indent}if {out} is not None:"]
        if "displace_to" not in item:
            return lines + [f"{indent}    _fail()"]
        to = self.expr(item["displace_to"], env)
        return lines + self._place_one(out, NOWHERE, to, self._zone_code(to)[1], False, indent + "    ")

    def _deal(self, item: dict, env: Env, indent: str) -> list[str]:
        count = self.expr(item["deal"], env)
        if "from" in item:
            source = self._pile(self.expr(item["from"], env))
        else:
            source = f"s.{self.m.shape.zones[self.m.deck_zone()].slot}[0]"
        first = "0"
        if "first" in item:
            code = self.expr(item["first"], env)
            first = code.text if strip(code.type) == SEAT else f"_seat_of({code.text}, s.players)"
        target = self.m.shape.zones[item["to"]]
        face = self._face(item, "1" if target.face_up else "0")
        per_owner = self.m.pile_count(target.name)
        if "from" in item and self._grid_of(self.expr(item["from"], env)) is not None:     # a grid, or maybe one
            raise Unsupported("a deal from a grid")
        if target.grid is not None:
            size = target.grid[0] * target.grid[1]
            return [f"{indent}_deal(s, {source}, {target.index}, {per_owner}, {first}, {count.text}, {face}, {size})"]
        return [f"{indent}_deal(s, {source}, {target.index}, {per_owner}, {first}, {count.text}, {face})"]

    def _flip(self, item: dict, env: Env, indent: str) -> list[str]:
        cards = self.expr(item["flip"], env)
        face = {None: "None", "up": "1", "down": "0"}[item.get("face")]
        kind = strip(cards.type)
        listed = f"[{cards.text}]" if kind == CARD else cards.text
        if kind != CARD and not (isinstance(kind, ListT) and strip(kind.elem) == CARD):
            raise Unsupported(f"flipping {cards.type}")
        return [f"{indent}_flip(s, {listed}, {face})"]

    # -- control ---------------------------------------------------------------------------------
    def _if(self, item: dict, env: Env, indent: str) -> list[str]:
        test = self.w.condition(self.m.top(item["if"], env), env)
        lines = [f"{indent}if {test}:"] + self.block(item.get("then"), env, indent + "    ")
        if "else" in item:
            lines += [f"{indent}else:"] + self.block(item["else"], env, indent + "    ")
        return lines

    def _for(self, item: dict, env: Env, indent: str) -> list[str]:
        name, _, rest = item["for"].strip().partition(" ")
        items = self.expr(rest.strip()[2:].strip(), env)
        kind = strip(items.type)
        if not isinstance(kind, (ListT, MapT)):
            raise Unsupported(f"a 'for' over {kind}")
        values, var = self.m.temp("items"), self.m.temp(name)
        inner = env.bind(name, Code(var, element(kind)))
        outer = self.m.loop_turns
        listed = self.m.parse(rest.strip()[2:].strip())
        self.m.loop_turns = {p: turns * self.m.budgets[p].size(listed, {}) for p, turns in outer.items()}
        self.m.loop_depth += 1
        try:
            body = self.block(item.get("do"), inner, indent + "    ")
        finally:
            self.m.loop_turns = outer
            self.m.loop_depth -= 1
        return [f"{indent}{values} = list({items.text})",
                f"{indent}_turns[0] -= len({values})",
                f"{indent}if _turns[0] < 0: _fail()",
                f"{indent}for {var} in {values}:"] + body

    def _log(self, item: dict, env: Env, indent: str) -> list[str]:
        """A log line: its values worked out (they may fail) and its length checked; the text is
        only for the tables, which play on the reference engine."""
        text = item["log"]
        codes = [self.w.write(self.m.top(match.group(1), env), env) for match in TEMPLATE_PART.finditer(text)]
        fixed = len(TEMPLATE_PART.sub("", text))
        longest = [self._longest_text(code.type) for code in codes]
        if None not in longest and fixed + sum(cast("list[int]", longest)) <= MAX_COLLECTION:
            return [f"{indent}({''.join(code.text + ', ' for code in codes)})"] if codes else []
        if any(n is None and strip(code.type) != STR for n, code in zip(longest, codes)):
            return [f"{indent}_log_length({fixed}, {self._shown(codes)})"]
        # Texts of any length: the line is measured only when they could make it too long.
        names = [self.m.temp("shown") for _ in codes]
        bound = fixed + sum(4 if n is None else n for n in longest)    # 'none', for a text that is none
        texts = " + ".join(f"len({name} or '')" for name, n in zip(names, longest) if n is None)
        named = [Code(name, code.type) for name, code in zip(names, codes)]
        return [f"{indent}{', '.join(names)}, = ({''.join(code.text + ', ' for code in codes)})",
                f"{indent}if {bound} + {texts} > {MAX_COLLECTION}:",
                f"{indent}    _log_length({fixed}, {self._shown(named)})"]

    def _shown(self, codes: list[Code]) -> str:
        """The values of a log line as the reference shows them (cards and seats as objects)."""
        parts = [f"_ref({code.text}, {self.m.const(code.type)})" if holds_objects(code.type) else code.text
                 for code in codes]
        return f"[{', '.join(parts)}]"

    def _longest_text(self, kind: LType) -> int | None:
        """The most characters a value of ``kind`` shows as in a log line, when bounded."""
        inner = strip(kind)
        if inner == CARD:
            return max((len(label) for label in self.m.shape.labels), default=4)
        lengths = {SEAT: 3, BOOL: 5, NONE: 4, INT: 20}
        return max(lengths[inner], 4) if inner in lengths else None

    def _play_to_trick(self, item: dict, env: Env, indent: str) -> list[str]:
        self.m.tricks()
        card = self.expr(item["play_to_trick"], env)
        if strip(card.type) != CARD:
            raise Unsupported(f"play_to_trick of {card.type}")
        if "by" not in item:
            return [f"{indent}t_play(s, {self.w.names.me(env)}, {card.text})"]
        by = self.expr(item["by"], env)
        kind = strip(by.type)
        if kind == NONE:        # none so far (a later pass may learn more): it fails as the reference's does
            seat = "_fail()"
        elif kind == SEAT:      # a seat that may be none: + fails on none, as the reference does
            seat = by.text if by.type == SEAT else f"(+{by.text})"
        else:
            raise Unsupported(f"play_to_trick by {by.type}")
        return [f"{indent}t_play(s, {seat}, {card.text})"]

    def _interrupt(self, item: dict, env: Env, indent: str) -> list[str]:
        """``interrupts.push``: the seats named, in order, each to make one of the listed moves."""
        seats = self.expr(item["interrupt"], env)
        kind = strip(seats.type)
        if kind == SEAT:        # a seat that may be none: + fails on none, as the reference does
            order = f"[{seats.text}]" if seats.type == kind else f"[+{seats.text}]"
        elif isinstance(kind, ListT) and kind.elem == SEAT:
            order = f"list({seats.text})" if seats.live else seats.text
        else:
            raise Unsupported(f"an interrupt of {seats.type}")
        moves = self.m.interrupts.index(tuple(item["moves"]))
        return [f"{indent}if s.intr is None:", f"{indent}    s.intr = []",
                f"{indent}s.intr.append([{order}, {moves}, s.current, [], False])"]


def _container(kind: LType) -> bool:
    return isinstance(strip(kind), (ListT, MapT))
