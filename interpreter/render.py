"""Text rendering of a view for the terminal: flow, dice, variables as tables, zones, moves."""
from __future__ import annotations

from typing import Any

HIDDEN = "##"


def render_view(view: dict, names: list[str] | None = None) -> str:
    names = names or [f"P{i + 1}" for i in range(view["players"])]
    lines = [_title(view, names)]
    if view["dice"]:
        lines.append("Dice: " + " ".join(str(d) for d in view["dice"]))
    lines += _game_vars({**view["vars"], **view["shown"]["game"]})
    lines += _seat_tables(view["seat_vars"], names, view["shown"]["seat"])
    lines += _zones(view, names)
    return "\n".join(lines)


def render_moves(moves: list[str]) -> str:
    width = len(str(len(moves)))
    return "\n".join(f"  {i + 1:>{width}}. {text}" for i, text in enumerate(moves))


def _title(view: dict, names: list[str]) -> str:
    if view["over"]:
        return f"== {view['game']}: game over =="
    who = f", {names[view['current']]} to play" if view["current"] is not None else ""
    return f"== {view['game']}: round {view['round']}, {view['phase']}{who} =="


def _game_vars(variables: dict) -> list[str]:
    shown = [f"{k}: {_cell(v)}" for k, v in _plain(variables).items()]
    return ["  ".join(shown)] if shown else []


def _seat_tables(seat_vars: list, names: list[str], extra: dict) -> list[str]:
    seats = [_plain(v) for v in _plain(seat_vars)]
    scalars = [k for k, v in seats[0].items() if not isinstance(v, dict)] if seats else []
    rows: list[list[str]] = []
    for key, value in (seats[0].items() if seats else ()):
        if isinstance(value, dict):
            rows += [[sub] + [_cell(s[key].get(sub)) for s in seats] for sub in value]
    rows += [[key] + [_cell(s[key]) for s in seats] for key in scalars]
    rows += [[label] + [_cell(_plain(v)) for v in values] for label, values in extra.items()]
    return _table([""] + names, rows) if rows else []


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    fmt = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    return [fmt(header)] + [fmt(r) for r in rows]


def _zones(view: dict, names: list[str]) -> list[str]:
    lines = []
    mine = f"P{view['seat'] + 1}" if view["seat"] is not None else None
    for name, piles in view["zones"].items():
        for pile, label in zip(piles, view["pile_names"][name]):
            owner = label.split("#")[0]
            shown = label.replace(owner, names[int(owner[1:]) - 1], 1) if owner.startswith("P") else label
            you = " (you)" if mine is not None and owner == mine else ""
            lines.append(f"{name} {shown}{you}: {_pile(pile)}" if label else f"{name}: {_pile(pile)}")
    return lines


def _pile(pile: list) -> str:
    if not pile:
        return "(empty)"
    hidden = sum(1 for c in pile if c is None)
    shown = [c for c in pile if c is not None]
    if hidden == len(pile):
        return f"{hidden} face down"
    text = " ".join(c if c is not None else HIDDEN for c in pile)
    return text


def _plain(value: Any) -> Any:
    """Undo the tagging of stored values for display."""
    if isinstance(value, dict) and "$map" in value:
        return {k: _plain(v) for k, v in value["$map"].items()}
    if isinstance(value, dict) and "$seat" in value:
        return f"P{value['$seat'] + 1}"
    if isinstance(value, dict) and "$card" in value:
        return f"card {value['$card']}"
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(_cell(v) for v in value) if value else "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
