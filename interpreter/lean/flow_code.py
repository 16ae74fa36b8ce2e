"""The flow written for one game: rounds, phases, turns and the settling after a move, as
``engine/flow.py`` runs them; the moves' effects; ``step``; the scores and the bot's hint.

Each block of effects is a function ``(s, me, sig)``: ``me`` the acting seat as the reference's
context has it there (the mover, the seat whose turn starts or ends, or none), ``sig`` the flow
signals raised, handled by ``settle`` (strongest first: end_game, end_round, end_phase, end_turn).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..limits import MAX_MOVES_PER_GAME, MAX_PLAYERS, MAX_ROUNDS, MAX_TRIGGER_CASCADE
from .actions import decode_lines
from .code import Code, Env
from .effects import SIGNALS
from .interrupts_code import write_advance
from .listing_code import free_play, param_code, param_name, param_types
from .ltypes import INT, SEAT, ListT, Opt

SEATS = MAX_PLAYERS        # in free play the history keeps each action with its seat: action * SEATS + seat
_CODE, _SIG = re.compile(r"\bcode\b"), re.compile(r"\bsig\b")
NO_SEAT = Env(me="me", me_sure=False)       # a block where the acting seat may be none
A_SEAT = Env(me="me", me_sure=True)


def write_flow(m: Any) -> list[str]:
    game = m.game
    flow = game.spec.data["flow"]
    lines = ["def start_round(s, me, sig):", "    s.round += 1"]
    lines += _run(m, flow.get("round_start"), NO_SEAT, "me") + ["    START[0](s, me, sig)", ""]
    for i, phase in enumerate(game.phases):
        lines += _phase(m, i, flow["phases"][i])
    count = len(game.phases)
    lines += [f"START = ({', '.join(f'start_{i}' for i in range(count))},)",
              f"END = ({', '.join(f'end_{i}' for i in range(count))},)", ""]
    lines += _end_phase(count) + _end_round(m) + _finish() + _settle(m) + write_advance(m)
    return lines


def _run(m: Any, items: list | None, env: Env, me: str, indent: str = "    ") -> list[str]:
    """A block of effects written in place, with ``me`` the acting seat (kept in ``env.me``)."""
    if not items:
        return []
    seat = [f"{indent}{env.me} = {me}"] if me != env.me else []
    return seat + counted(m.effects.block(items, env, indent), indent)


def counted(body: list[str], indent: str = "    ") -> list[str]:
    """A block's lines, after the count of the turns its 'for' effects may take, when it has one."""
    return ([f"{indent}_turns = [100000]"] if any("_turns[0]" in line for line in body) else []) + body


def seat_value(code: Code) -> str:
    """A flow step's seat: a seat as it is, a number taken round the table (``flow._seat_value``)."""
    if code.type == SEAT or code.text == "0":
        return code.text
    if code.type == Opt(SEAT):      # a seat, or none: then Python's TypeError sends the step to the reference
        return f"({code.text}) % s.players"
    return f"_seat_of({code.text}, s.players)"


def _block(m: Any, name: str, items: list | None, env: Env) -> list[str]:
    return [f"def {name}(s, me, sig):"] + counted(m.effects.block(items, env, "    ")) + [""]


def _phase(m: Any, i: int, spec: dict) -> list[str]:
    turns = spec.get("turns")
    if turns is None:           # free play: no seat to act, no turn starts
        lines = [f"def start_{i}(s, me, sig):", f"    s.phase, s.turns, s.current = {i}, 0, None"]
        lines += _run(m, spec.get("start"), NO_SEAT, "me") + [""]
        return lines + [f"def end_{i}(s, me, sig):"] + (_run(m, spec.get("end"), NO_SEAT, "me") or ["    pass"]) + [""]
    first = "0"
    if "from" in turns:
        code = m.expr(turns["from"], NO_SEAT)
        first = seat_value(code)
    lines = [f"def start_{i}(s, me, sig):", f"    s.phase, s.turns, s.current = {i}, 0, None"]
    lines += _run(m, spec.get("start"), NO_SEAT, "me")
    lines += [f"    s.current = {first}"]
    lines += _run(m, spec.get("turn_start"), A_SEAT, "s.current") + [""]
    lines += [f"def end_{i}(s, me, sig):"] + (_run(m, spec.get("end"), NO_SEAT, "me") or ["    pass"]) + [""]
    return lines


TURN_SEAT = Env(me="tm", me_sure=True)      # the seat whose turn ends, then the seat whose turn starts


def end_turn_lines(m: Any, i: int, spec: dict, indent: str) -> list[str]:
    """``flow._end_turn`` of phase ``i``, written in place (in ``settle``)."""
    turns = spec.get("turns")
    if turns is None:           # free play: no turn to end
        return [f"{indent}pass"]
    lines = _run(m, spec.get("turn_end"), TURN_SEAT, "s.current", indent) + [f"{indent}s.turns += 1"]
    if turns.get("each") == "once":
        lines += [f"{indent}if s.turns >= s.players:", f"{indent}    sig.append('end_phase')", f"{indent}else:"]
        indent += "    "
    if "next" in turns:
        code = m.expr(turns["next"], Env({}, me="s.current", me_sure=True))
        lines.append(f"{indent}s.current = {seat_value(code)}")
    else:
        step = "- 1" if turns.get("order") == "counterclockwise" else "+ 1"
        lines.append(f"{indent}s.current = (s.current {step}) % s.players")
    return lines + _run(m, spec.get("turn_start"), TURN_SEAT, "s.current", indent)


def _end_phase(count: int) -> list[str]:
    return ["def end_phase(s, me, sig):",
            "    END[s.phase](s, me, sig)",
            "    sig[:] = [x for x in sig if x != 'end_turn']",
            f"    if s.phase + 1 < {count}:",
            "        START[s.phase + 1](s, me, sig)",
            "    else:",
            "        end_round(s, me, sig)", ""]


def _end_round(m: Any) -> list[str]:
    game, flow = m.game, m.game.spec.data["flow"]
    lines = ["def end_round(s, me, sig):"] + _run(m, flow.get("round_end"), NO_SEAT, "me")
    lines += ["    sig.clear()", "    if s.over:", "        return"]
    branch = "if"
    if "rounds" in flow:
        rounds = m.expr(flow["rounds"], NO_SEAT).text
        rounds = rounds if rounds.isdigit() else f"_count_of({rounds})"
        lines += [f"    {branch} s.round >= {rounds}:", "        finish(s, None, sig)"]
        branch = "elif"
    if "until" in flow:
        until = m.writer.condition(m.top(flow["until"]), NO_SEAT)
        lines += [f"    {branch} {until}:", "        finish(s, None, sig)"]
        branch = "elif"
    cap = m.expr(flow["max_rounds"], NO_SEAT).text if "max_rounds" in flow else repr(game.max_rounds(None, {}))
    cap = cap if cap.isdigit() and 1 <= int(cap) <= MAX_ROUNDS else f"_rounds_cap({cap})"
    lines += [f"    {branch} s.round >= (cap := {cap}):",
              "        finish(s, f\"stopped after {cap} round{'s' if cap != 1 else ''} (the game's max_rounds)\", sig)",
              "    else:", "        start_round(s, me, sig)", ""]
    return lines


def _finish() -> list[str]:
    return ["def finish(s, reason, sig):",
            "    s.over, s.current, s.stop_reason = True, None, reason",
            "    sig.clear()", ""]


@dataclass
class Settling:
    """What one turn of settling checks, written: each trigger's test, whether interrupts go on,
    the passing of the turn (at its depth in the turn), each phase's ``until`` (with the phase's
    test where there are several) and how many phases there are."""

    triggers: list[str]
    interrupts: bool
    end_turn: list[str]
    untils: list[str]
    phases: int


def _settle(m: Any) -> list[str]:
    """``flow.settle``: triggers, then the strongest signal, then the phase's ``until``."""
    data = m.game.spec.data
    current = Env({}, me="s.current", me_sure=False)
    triggers = [m.writer.condition(m.top(trigger["when"]), current) for trigger in data.get("triggers", [])]
    phases = data["flow"]["phases"]
    end_turn = []
    if len(phases) == 1:
        end_turn += end_turn_lines(m, 0, phases[0], "                ")
    else:       # phases that pass the turn alike share a branch
        passing: dict[tuple, list[int]] = {}
        for i, spec in enumerate(phases):
            passing.setdefault(tuple(end_turn_lines(m, i, spec, "                    ")), []).append(i)
        for k, (passed, which) in enumerate(passing.items()):
            test = f"ph == {which[0]}" if len(which) == 1 else f"ph in {tuple(which)}"
            end_turn += [f"                {'if' if k == 0 else 'elif'} {test}:", *passed]
    untils = []
    for i, spec in enumerate(phases):
        if "until" in spec:
            test = m.writer.condition(m.top(spec["until"]), Env({}, me="s.current", me_sure=True))
            untils.append(f"ph == {i} and {test}" if len(phases) > 1 else test)     # one phase: always the one
    m.settling = Settling(triggers, bool(m.interrupts), end_turn, untils, len(phases))
    m.end_turn = [line[12:] for line in end_turn]
    lines = ["def settle(s, me, sig):", f"    for _ in range({MAX_TRIGGER_CASCADE}):",
             *settling_turn(m.settling, "continue", True), "    _fail()", ""]
    for j, trigger in enumerate(data.get("triggers", [])):
        lines += _block(m, f"e_trigger_{j}", trigger.get("do"), current)
    return lines


def settling_turn(parts: Settling, again: str, signals: bool) -> list[str]:
    """One turn of settling, the body of its loop: ``again`` ends a turn that did something
    (``continue`` in the loop, ``break`` in the first turn written before it), ``return`` ends
    the settling. Without ``signals`` (none raised by the move) no signal is read, and the list
    of them is made in the branch that needs one."""
    made = [] if signals else ["            sig = []"]
    lines = ["        if s.over:", "            return"]
    for j, test in enumerate(parts.triggers):
        lines += [f"        if {test}:", *made, f"            e_trigger_{j}(s, s.current, sig)", f"            {again}"]
    if parts.interrupts:
        lines += ["        if s.intr:", *made, "            if intr_advance(s, sig):", "                return",
                  f"            {again}"]
    lines += ["        ph = s.phase"] if parts.phases > 1 else []
    if signals:
        lines += ["        if sig:",
                  "            word = sig[0] if len(sig) == 1 else _strongest(sig)",
                  "            sig.clear()",
                  "            if word == 'end_turn':", *parts.end_turn,
                  "            elif word == 'end_phase':", "                end_phase(s, me, sig)",
                  "            elif word == 'end_round':", "                end_round(s, me, sig)",
                  "            else:", "                finish(s, None, sig)",
                  f"            {again}"]
    for test in parts.untils:
        lines += [f"        if {test}:", *made, "            end_phase(s, me, sig)", f"            {again}"]
    return lines + ["        return"]


def write_moves(m: Any) -> list[str]:
    """Each move's effects as ``m_NAME(s, me, sig, *args)``, and ``step``."""
    lines = []
    passing = _passing_moves(m)
    passed = set()      # those whose effects the passing of the turn was written after
    for i, (name, move) in enumerate(m.game.moves.items()):
        params = list(move.param_names)
        env = A_SEAT
        for k, (p, kind) in enumerate(zip(params, param_types(m, name))):
            env = env.bind(p, param_code(p, k, kind, m.param_origins[name][k], m.param_sizes[name][k]))
        spec = m.game.spec.data["moves"][name]
        names = [param_name(p, k) for k, p in enumerate(params)]
        codecs = m.actions.codecs.get(i, [])
        body = decode_lines(codecs, names, param_types(m, name), "    ")
        body += counted(m.effects.block(spec.get("do"), env, "    "))
        if i in passing and body[-1] == "    sig.append('end_turn')":
            reads_phase = any(" ph " in line for line in m.end_turn)
            body = body[:-1] + ["    ph = s.phase"] * reads_phase + m.end_turn
            passed.add(i)
        lines += [f"def m_{i}(s, me, sig, code):"] + body + [""]
    lines += [f"MOVES = ({''.join(f'm_{i}, ' for i in range(len(m.game.moves)))})", ""]
    # The turn passed in the move counts as the first turn of the settling loop, and the loop's
    # own first turn is written before it (``settling_turn``): one turn fewer is left to the loop.
    turns = [MAX_TRIGGER_CASCADE - (i in passed) - 1 for i in range(len(m.game.moves))]
    if len(set(turns)) > 1:
        lines += [f"CASCADE = {tuple(turns)}", ""]
    loop = f"    for _ in range({turns[0] if len(set(turns)) == 1 else 'CASCADE[move]'}):"
    # A game of one move whose effects raise no signal has none to settle: the list of signals
    # is made only where the settling goes on.
    signals = len(m.game.moves) > 1 or any(_SIG.search(line) for line in body)
    settle = ["    while True:", *settling_turn(m.settling, "break", signals),
              loop, *settling_turn(m.settling, "continue", True), "    _fail()"]
    lines += ["def step(s, a, me=None):",     # ``me``: the seat that moves, in free play
              f"    if s.moves >= {MAX_MOVES_PER_GAME}:", "        _fail()",
              "    if me is None:", "        me = s.current",
              # what the reference replays from where the state came from (the seat too in free play)
              f"    s.hist = (s.hist, a * {SEATS} + me)" if free_play(m.game) else "    s.hist = (s.hist, a)"]
    lines += ["    sig = []"] * signals
    if len(m.game.moves) == 1:      # a game of one move makes it in ``step`` itself: a call fewer
        whole = body and body[0].endswith(" = code") and not any(_CODE.search(line) for line in body[1:])
        lines += [body[0][:-len("code")] + "a", *body[1:]] if whole else ["    code = a", *body]
    else:
        lines += [f"    code, move = divmod(a, {len(m.game.moves)})", "    MOVES[move](s, me, sig, code)"]
    lines += ["    s.moves += 1"] + settle + [""]
    return lines


def _passing_moves(m: Any) -> set[int]:
    """The moves that pass the turn in the move itself: those whose effects end with
    ``end_turn`` and signal nothing else, in a game without triggers or interrupts. Settling
    would take that signal first, before anything else could happen, and do the same."""
    if m.game.spec.data.get("triggers") or m.interrupts:
        return set()
    found = set()
    for i, spec in enumerate(m.game.spec.data["moves"].values()):
        effects = spec.get("do") or []
        if effects and effects[-1] == "end_turn" and not _signals(effects[:-1]):
            found.add(i)
    return found


def _signals(value: Any) -> bool:
    """Whether a signal's word is anywhere in the effects (or a text that reads as one)."""
    if isinstance(value, str):
        return value in SIGNALS
    if isinstance(value, dict):
        return any(_signals(item) for item in value.values())
    return isinstance(value, list) and any(_signals(item) for item in value)


def write_scoring(m: Any) -> list[str]:
    data = m.game.spec.data
    scoring = data.get("scoring") or {}
    lines = []
    seat = Env({}, me="me", me_sure=True)
    score = m.expr(scoring["score"], seat) if "score" in scoring else Code("0", INT)
    lines += ["def scores(s):", f"    return [_score_of({score.text}) for me in range(s.players)]", ""]
    result = "points[me]"
    if "result" in scoring:
        env = seat.bind("score", Code("points[me]", score.type)).bind("scores", Code("points", ListT(score.type)))
        result = m.expr(scoring["result"], env).text
    lines += ["def results(s, points):", f"    return [{result} for me in range(s.players)]", ""]
    breaks = [m.expr(t, seat).text for t in scoring.get("tiebreak", [])]
    lines += ["def tiebreaks(s, me):", f"    return [{', '.join(f'_score_of({b})' for b in breaks)}]", ""]
    hint = data.get("bot", {}).get("hint")
    # Nothing changes while a seat's hint is worked out: a call of a definition with the same
    # arguments gives the same value, worked out the first time (as in a listing).
    m.memo = {}
    try:
        value = m.expr(hint, seat).text if hint is not None else "None"
        for call, key in m.memo.items():        # a call made once is made as it is
            remembered_call = f"(_memo[{key}] if {key} in _memo else _memo.setdefault({key}, {call}))"
            if value.count(remembered_call) == 1:
                value = value.replace(remembered_call, call)
        remembered = ["    _memo = {}"] if "_memo[" in value else []
    finally:
        m.memo = None
    lines += ["def hint(s, me):", *remembered, f"    return {value}", ""]
    return lines

