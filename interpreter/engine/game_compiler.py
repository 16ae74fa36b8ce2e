"""The compilation of a spec into a ``Game``: every expression, effect, move, phase and scoring
rule compiled once, with the semantic checks (names, types, references between sections); every
problem is collected and raised at once as an ``ErrorList``."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Callable

from ..errors import ErrorList, EvalError, RulesError, SpecError, did_you_mean
from ..expr import (
    BOOL,
    ListOf,
    Scope,
    Type,
    UserFunction,
    check_uses,
    compile_defined,
    compile_expression,
    parse_expression,
)
from ..expr.compile import item_type
from ..expr.nodes import BoolOp, names_in
from ..expr.ops import show
from ..limits import DEFAULT_MAX_ROUNDS
from ..load.spec import Spec, param_kind
from . import game_checks as checks, templates
from . import game_types as N
from . import tricks as T
from .effects import EffectCompiler
from .game_parts import MoveDef, Param, PhaseDef, define_head, deck_cards
from .values import Seat

if TYPE_CHECKING:
    from collections.abc import Iterable

    from .context import Ctx

TEMPLATE_PART = re.compile(r"\{([^{}]+)\}")


class GameCompiler:
    """Compiles one spec into the given game, collecting every error before raising."""

    def __init__(self, game: Any, spec: Spec):
        self.game = game
        self.spec = spec
        self.doc = spec.doc
        self.errors: list[RulesError] = []
        self.effects = EffectCompiler(self)

    # -- helpers used by the effect compiler -------------------------------------------------------
    def doc_value(self, path: tuple) -> Any:
        node: Any = self.doc.data
        for part in path:
            if isinstance(node, dict) and part in node or isinstance(node, list) and isinstance(part, int) and part < len(node):
                node = node[part]
            else:
                return None
        return node

    def expr(self, path: tuple, locals_: dict | None = None, expect_bool: bool = False) -> Callable:
        value = self.doc_value(path)
        text = str(value).lower() if isinstance(value, bool) else str(value)
        return self._compile(text, lambda off, w: self.doc.locate(path, off, w), locals_, expect_bool)

    def expr_text(self, text: str, path: tuple, locals_: dict | None, offset: int) -> Callable:
        return self._compile(text, lambda off, w: self.doc.locate(path, off + offset, w), locals_, False)

    def expr_in_key(self, text: str, path: tuple, locals_: dict | None, offset: int) -> Callable:
        """An expression written inside a mapping key (``"sheet[row]": ...``)."""
        key = self.doc.key_pos(path)
        line = key.source.line(key.line) or ""
        quoted = line[key.col - 1:key.col] in ("'", '"')
        start = key.col + offset + quoted
        return self._compile(text, lambda off, w: key.shifted(col=start + off, width=w), locals_, False)

    def _compile(self, text, locate, locals_, expect_bool) -> Callable:
        # A local's value in ``locals_`` is its type when known (a card, a list of cards...), else anything.
        typed = {k: v if isinstance(v, Type) else N.ANY for k, v in (locals_ or {}).items()}
        scope = self.scope.child(locals=typed) if locals_ else self.scope
        try:
            compiled = compile_expression(text, scope, locate, expect=BOOL if expect_bool else None)
        except RulesError as error:
            self.errors.append(error)
            return _broken
        return compiled

    def template(self, path: tuple, locals_: dict) -> Callable:
        text = self.doc_value(path)
        parts: list[str | Callable] = []
        last = 0
        for m in TEMPLATE_PART.finditer(text):
            parts.append(m.string[last:m.start()])
            parts.append(self.expr_text(m.group(1), path, locals_, m.start(1)))
            last = m.end()
        parts.append(text[last:])

        return templates.renderer(parts, self.doc.pos(path))

    def variable_store(self, name: str, path: tuple, has_of: bool) -> Callable:
        """Where ``set`` writes ``name``: the game's, a seat's or a team's variables."""
        variables = self.game.variables
        if name in variables.get("game", {}):
            return lambda ctx, seat: ctx.state.vars
        level = "seat" if name in variables.get("seat", {}) else "team" if name in variables.get("team", {}) else None
        if level and not has_of and self.scope.seatless:
            what = "the acting seat's variable" if level == "seat" else "the acting seat's team's variable"
            self.errors.append(SpecError(f"'{name}' is {what}, but no seat acts {self.scope.seatless}",
                                         self.doc.key_pos(path),
                                         hint="name the seat: 'of: players[0]', or 'of: p' with 'for: p in players'"))
        if name in variables.get("seat", {}):
            return lambda ctx, seat: ctx.state.seat_vars[_seat_index(seat, ctx)]
        if name in variables.get("team", {}):
            return lambda ctx, seat: ctx.state.team_vars[_team_index(seat, ctx, self.game)]
        known = [n for level in variables.values() for n in level]
        self.errors.append(SpecError(f"'{name}' is not a variable", self.doc.key_pos(path),
                                     hint=did_you_mean(name, known) or "declare it under variables:"))
        return lambda ctx, seat: {}

    def check_zone_name(self, name: str, path: tuple, per: str) -> None:
        zone = self.game.zones.get(name)
        if zone is None:
            self.errors.append(SpecError(f"unknown zone '{name}'", self.doc.pos(path),
                                         hint=did_you_mean(name, self.game.zones) or _choices_hint(
                                             "the zones are", self.game.zones)))
        elif zone.per != per:
            self.errors.append(SpecError(f"zone '{name}' must be one per {per}", self.doc.pos(path),
                                         hint=f"declare it with 'per: {per}' under zones:"))

    # -- the compilation ---------------------------------------------------------------------------
    def compile(self) -> None:
        game, data = self.game, self.spec.data
        self.scope = self._base_scope().child(functions=self._definitions())
        try:
            compile_defined(self.scope)
        except RulesError as error:
            self.errors.append(error)
        self.errors += checks.check_dice(self.doc, data.get("dice"))
        game.pile_counts = {name: self.expr(("zones", name, "piles"))
                            for name, zone in game.zones.items() if zone.piles is not None}
        game.setup = self._seatless("in setup", ("setup",))
        game.teams = self.expr(("teams", "of"), {"seat": None}) if "teams" in data else None
        game.tricks = T.compile_rules(self, data["tricks"]) if "tricks" in data else None
        flow = data["flow"]
        game.rounds = self.expr(("flow", "rounds")) if "rounds" in flow else None
        self.errors += checks.check_rounds(game.rounds)
        game.match_until = self.expr(("flow", "until"), expect_bool=True) if "until" in flow else None
        # A number, or an expression of the options (a variant's cap); 1000 when not given.
        game.max_rounds = self.expr(("flow", "max_rounds")) if "max_rounds" in flow else _default_max_rounds
        game.round_start = self._seatless("at a round's start", ("flow", "round_start"))
        game.round_end = self.effects.block(("flow", "round_end"))
        game.moves = {name: self._move(name, i) for i, name in enumerate(data.get("moves", {}))}
        game.phases = [self._phase(i, p) for i, p in enumerate(flow["phases"])]
        game.triggers = [(self.expr(("triggers", i, "when"), expect_bool=True), self.effects.block(("triggers", i, "do")))
                         for i in range(len(data.get("triggers", [])))]
        self._scoring(data.get("scoring"))
        self._showdown(data.get("showdown"))
        game.hint = self.expr(("bot", "hint")) if "hint" in data.get("bot", {}) else None
        game.bot_priority = self._move_names(("bot", "priority"))
        game.bot_horizon = data.get("bot", {}).get("horizon")     # moves or "hand"; None: the search bot's own
        game.bot_phase_horizons = self._phase_horizons(("bot", "phase_horizons"))
        view = data.get("view", {})
        game.shown = {level: {label: self.expr(("view", level, label)) for label in view.get(level, {})}
                      for level in ("game", "seat")}
        for level, shown in game.shown.items():
            for label, compiled in shown.items():
                self.errors += checks.check_view(self.doc, ("view", level, label), compiled, game.zones,
                                                 checks.cups_hidden(game))
        game.seat_marks = {mark: self.expr(("view", "seat_marks", mark), expect_bool=True)
                           for mark in view.get("seat_marks", {})}
        for mark, compiled in game.seat_marks.items():
            self.errors += checks.check_view(self.doc, ("view", "seat_marks", mark), compiled, game.zones,
                                             checks.cups_hidden(game))
        game.layout = self._layout(data.get("layout", {}))
        # Every call is known now: each defined function checked with the types it is called with.
        self.errors += check_uses(self.scope)
        if self.errors:
            raise ErrorList(self.errors)

    def _seatless(self, where: str, path: tuple) -> Callable:
        """Effects where no seat acts (nobody's turn yet): a seat is named there, never implied."""
        seated, self.scope = self.scope, self.scope.child()
        self.scope.seatless = where
        try:
            return self.effects.block(path)
        finally:
            self.scope = seated

    def _base_scope(self) -> Scope:
        game = self.game
        attrs: dict[str, Any] = {}
        for deck in game._decks.values():
            for card in deck_cards(deck):
                for k, v in card.items():
                    attrs.setdefault(k, v)
        types = N.game_types(game, game.variables, game.zones, attrs)
        game.types = types
        with_tricks = "tricks" in self.spec.data
        names = T.bindings(types.seat, types.card) if with_tricks else {}     # the game's own names hide these
        names.update({k: N.Binding(N.type_of(v), N.constant_getter(v), "an option") for k, v in game.options.items()})
        names.update(N.variable_bindings(game, game.variables))
        names.update(N.zone_bindings(game, game.zones, types.zone))
        names.update(N.flow_bindings(game, types.seat))
        if game.dice_count:
            names["dice"] = N.dice_binding(game)
        return Scope(names=names, registry=T.registry() if with_tricks else None)

    def _definitions(self) -> dict[str, UserFunction]:
        defs = {}
        for key, body in self.spec.data.get("define", {}).items():
            name, params = define_head(key)
            path = ("define", key)
            text = str(body).lower() if isinstance(body, bool) else str(body)
            defs[name] = UserFunction(name, params, text, (lambda p: lambda off, w: self.doc.locate(p, off, w))(path))
        return defs

    def _move(self, name: str, index: int) -> MoveDef:
        path = ("moves", name)
        spec = self.spec.data["moves"][name]
        params: list[Param] = []
        locals_: dict[str, Type | None] = {}
        private = self._private_params(path, spec)
        for pname, pdef in spec.get("params", {}).items():
            kind = param_kind(pdef)
            domain = self.expr(path + ("params", pname, kind), dict(locals_))
            params.append(Param(pname, kind, domain, pname in private))
            item = item_type(domain)
            locals_[pname] = item if kind == "from" or item is None else ListOf(item)    # subset_of: a list
        # The whole condition is compiled once to check it (a bool, known names); it runs as stages.
        checked = "when" in spec and self.expr(path + ("when",), locals_, expect_bool=True) is not _broken
        stages = (self._stages(path + ("when",), [p.name for p in params], locals_) if checked
                  else [[] for _ in range(len(params) + 1)])
        self.errors += checks.check_params(name, params, stages)
        self.errors += checks.check_own_hidden_cards(self.doc, path, params, self.game.zones)
        return MoveDef(name, index, params, self.effects.block(path + ("do",), locals_), stages,
                       self.doc.key_pos(path))

    def _layout(self, hints: dict) -> dict:
        """The screen hints, each a list of zone names (checked): order, hide, fan."""
        for key, names in hints.items():
            for i, name in enumerate(names):
                if name not in self.game.zones:
                    self.errors.append(SpecError(
                        f"unknown zone '{name}'", self.doc.pos(("layout", key, i)),
                        hint=did_you_mean(name, self.game.zones) or _choices_hint("the zones are", self.game.zones)))
        return {key: list(hints.get(key, [])) for key in ("order", "hide", "fan")}

    def _private_params(self, path: tuple, spec: dict) -> set[str]:
        """The parameters only the mover sees: ``private: true`` (all of them) or a list of names."""
        given = spec.get("private", False)
        declared = list(spec.get("params", {}))
        if given is True:
            return set(declared)
        if given is False:
            return set()
        for i, name in enumerate(given):
            if name not in declared:
                self.errors.append(SpecError(
                    f"'{name}' is not a parameter of move '{path[-1]}'", self.doc.pos(path + ("private", i)),
                    hint=did_you_mean(name, declared) or _choices_hint("its parameters are", declared)))
        return set(given)

    def _stages(self, path: tuple, params: list[str], locals_: dict) -> list[list[Callable]]:
        """Split ``when`` at its top-level ``and``s; each clause waits for the parameters it names
        and for every clause before it (so short-circuit order is kept). The parameters keep the
        types of their lists (``locals_``)."""
        value = self.doc_value(path)
        text = str(value).lower() if isinstance(value, bool) else str(value)
        node = parse_expression(text, lambda off, w: self.doc.locate(path, off, w))
        clauses = node.operands if isinstance(node, BoolOp) and node.op == "and" else (node,)
        stages: list[list[Callable]] = [[] for _ in range(len(params) + 1)]
        stage = 0
        for clause in clauses:
            used = names_in(clause)
            stage = max([stage] + [i + 1 for i, p in enumerate(params) if p in used])
            stages[stage].append(self.expr_text(text[clause.start:clause.end], path, dict(locals_), clause.start))
        return stages

    def _phase(self, index: int, spec: dict) -> PhaseDef:
        path = ("flow", "phases", index)
        for i, move in enumerate(spec["moves"]):
            if move not in self.game.moves:
                self.errors.append(SpecError(f"unknown move '{move}' in phase '{spec['name']}'",
                                             self.doc.pos(path + ("moves", i)),
                                             hint=did_you_mean(move, self.game.moves) or _choices_hint(
                                                 "the moves are", self.game.moves)))
        turns = spec.get("turns")
        block = self.effects.block
        return PhaseDef(
            name=spec["name"], moves=spec["moves"], turns=turns,
            first=self.expr(path + ("turns", "from")) if turns and "from" in turns else None,
            next=self.expr(path + ("turns", "next")) if turns and "next" in turns else None,
            until=self.expr(path + ("until",), expect_bool=True) if "until" in spec else None,
            start=block(path + ("start",)), end=block(path + ("end",)),
            turn_start=block(path + ("turn_start",)), turn_end=block(path + ("turn_end",)),
            pos=self.doc.pos(path + ("name",)),
        )

    def _phase_horizons(self, path: tuple) -> dict[int, Any]:
        """``bot.phase_horizons`` by phase index, its phase names checked."""
        indexes = {phase.name: i for i, phase in enumerate(self.game.phases)}
        horizons = {}
        for name, horizon in (self.doc_value(path) or {}).items():
            if name in indexes:
                horizons[indexes[name]] = horizon
            else:
                self.errors.append(SpecError(f"unknown phase '{name}'", self.doc.key_pos(path + (name,)),
                                             hint=did_you_mean(name, indexes) or _choices_hint("the phases are", indexes)))
        return horizons

    def _move_names(self, path: tuple) -> list[str]:
        names = self.doc_value(path) or []
        for i, name in enumerate(names):
            if name not in self.game.moves:
                self.errors.append(SpecError(f"unknown move '{name}'", self.doc.pos(path + (i,)),
                                             hint=did_you_mean(name, self.game.moves) or _choices_hint(
                                                 "the moves are", self.game.moves)))
        return names

    def _scoring(self, scoring: dict | None) -> None:
        game = self.game
        scoring = scoring or {}
        game.score = self.expr(("scoring", "score")) if "score" in scoring else None
        game.score_order = scoring.get("order", "high")
        game.tiebreaks = [self.expr(("scoring", "tiebreak", i)) for i in range(len(scoring.get("tiebreak", [])))]
        game.result = self.expr(("scoring", "result"), {"score": None, "scores": None}) if "result" in scoring else None
        self.errors += checks.check_number("scoring.score", game.score)
        for i, tiebreak in enumerate(game.tiebreaks):
            self.errors += checks.check_number(f"scoring.tiebreak[{i}]", tiebreak)
        self.errors += checks.check_number("scoring.result", game.result)
        # A hand's breakdown for the tables, each part worked out for each seat where the hand ended.
        game.score_parts = {name: self.expr(("scoring", "parts", name)) for name in scoring.get("parts", {})}

    def _showdown(self, showdown: dict | None) -> None:
        """What everyone sees once a hand is over: the zones (checked), and when (None: always)."""
        game = self.game
        showdown = showdown or {}
        game.showdown_zones = list(showdown.get("zones", []))
        for i, name in enumerate(game.showdown_zones):
            if name not in game.zones:
                self.errors.append(SpecError(
                    f"unknown zone '{name}'", self.doc.pos(("showdown", "zones", i)),
                    hint=did_you_mean(name, game.zones) or _choices_hint("the zones are", game.zones)))
        game.showdown_when = self.expr(("showdown", "when"), expect_bool=True) if "when" in showdown else None


def _seat_index(seat: Any, ctx: Ctx) -> int:
    if seat is None:
        return ctx.seat()
    if isinstance(seat, Seat):
        return seat.index
    raise EvalError(f"'of' must name a seat, not {show(seat)}")


def _team_index(seat: Any, ctx: Ctx, game: Any) -> int:
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    return game.team_of(ctx.state, _seat_index(seat, ctx))


def _choices_hint(words: str, names: Iterable[str]) -> str:
    names = list(names)
    return f"{words}: {', '.join(names)}" if names else "there are none yet"


def _broken(ctx, env=None):
    raise RulesError("this expression did not compile")


def _show(value: Any) -> str:
    if isinstance(value, list):
        return " ".join(_show(v) for v in value)
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _default_max_rounds(ctx: Ctx, env: dict) -> int:
    return DEFAULT_MAX_ROUNDS
