"""Text rendering of a view for the terminal: flow, dice, variables as tables, zones, moves."""
from __future__ import annotations

from typing import Any, Callable

from ..engine.views import dice_cups
from .card_text import card_text, hand_text, team_lines, trick_lines
from .grid_text import grid_lines
from .words import Names

HIDDEN = "##"
HIDDEN_DIE = "?"    # a die under a cup the viewer may not see
DRAWN_DEPTH = 8     # lists nested deeper than this in a drawn value are drawn as CUT
VIEW_DEPTH = DRAWN_DEPTH + 3    # and anything deeper than this in the view (a seat's value lies in
                                # the list of seats and a seat's map of values): drawing stays bounded
CUT = "…"


def render_view(view: dict, names: list[str] | None = None, color: bool = False, words: Names | None = None) -> str:
    """The view as text; ``color`` adds ANSI colours (red suits); with the game's ``words``, its
    variables, zones and phase under their words and its bookkeeping variables left out."""
    names = names or [f"P{i + 1}" for i in range(view["players"])]
    named = words.values if words is not None else (lambda variables: variables)
    view = _cards_named(view)
    lines = [_title(view, names, words)]
    if view["dice"]:
        lines.append("Dice: " + dice_text(view["dice"], names))
    lines += _game_vars({**named(_plain(view["vars"])), **{k: _plain(v) for k, v in view["shown"]["game"].items()}})
    lines += _seat_tables([named(_plain(v)) for v in _plain(view["seat_vars"])], names, view["shown"]["seat"])
    if view.get("teams") is not None:
        lines += team_lines([{k: _cell(v) for k, v in named(_plain(t)).items()} for t in view["team_vars"]],
                            view["teams"], names)
    if view.get("tricks") is not None:
        lines += trick_lines(view["tricks"], names, color)
    lines += _zones(view, names, color, words.zone if words is not None else str)
    return "\n".join(lines)


def render_moves(moves: list[str]) -> str:
    width = len(str(len(moves)))
    return "\n".join(f"  {i + 1:>{width}}. {text}" for i, text in enumerate(moves))


def _title(view: dict, names: list[str], words: Names | None) -> str:
    if view["over"]:
        return f"== {view['game']}: game over =="
    who = f", {names[view['current']]} to play" if view["current"] is not None else ""
    phase = words.phase(view["phase"]) if words is not None else view["phase"]
    return f"== {view['game']}: round {view['round']}, {phase}{who} =="


def die_text(value: int | None) -> str:
    """A die's value, or ``?`` for a die the viewer may not see."""
    return HIDDEN_DIE if value is None else str(value)


def dice_text(dice: list, names: list[str]) -> str:
    """A view's dice: ``3 4 6`` for the table's; with a cup per seat ``P1 3 4 6 · P2 ? ? ?``."""
    if dice_cups(dice) is None:
        return " ".join(str(d) for d in dice)
    return " · ".join(" ".join([name] + [die_text(d) for d in cup]) for name, cup in zip(names, dice))


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
    rows, long = split_long_rows(rows)
    return (_table([""] + names, rows) if rows else []) + [long_row_text(row, names) for row in long]


LONG_CELL = 8       # a seat's value longer than this is shown on a line of its own, not in the table


def split_long_rows(rows: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
    """A table's rows whose values are short, and those with a long value (a list grown over the
    game): one long value in a column would widen the whole table past the screen."""
    short = [row for row in rows if all(len(cell) <= LONG_CELL for cell in row[1:])]
    return short, [row for row in rows if row not in short]


def long_row_text(row: list[str], names: list[str]) -> str:
    """``crossed  P1 two_pairs, three  P2 -``."""
    return "  ".join([row[0]] + [f"{name} {cell}" for name, cell in zip(names, row[1:])])


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header] + rows) for i in range(len(header))]
    fmt = lambda r: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
    return [fmt(header)] + [fmt(r) for r in rows]


def _zones(view: dict, names: list[str], color: bool, zone_words: Callable[[str], str]) -> list[str]:
    lines = []
    mine = f"P{view['seat'] + 1}" if view["seat"] is not None else None
    for zone, piles in view["zones"].items():
        name = zone_words(zone)
        if zone in view.get("grids", {}):
            lines += _grids(name, piles, view["pile_names"][zone], view["grids"][zone], names, mine)
            continue
        empty: list[str] = []      # a run of empty numbered piles of one owner, shown as one line
        for pile, label in zip(piles, view["pile_names"][zone]):
            if empty and (pile or label.split("#")[0] != empty[0].split("#")[0]):
                lines.append(_empty_run(name, empty, names, mine))
                empty = []
            if not pile and "#" in label:
                empty.append(label)
                continue
            text = _pile_text(view, zone, label, mine, pile, color)
            lines.append(f"{name} {_owner_title(label, names, mine)}: {text}" if label else f"{name}: {text}")
        if empty:
            lines.append(_empty_run(name, empty, names, mine))
    return lines


def _empty_run(name: str, labels: list[str], names: list[str], mine: str | None) -> str:
    """``foundations #3-#24: (empty)`` rather than twenty-two lines."""
    first = _owner_title(labels[0], names, mine)
    if len(labels) == 1:
        return f"{name} {first}: (empty)"
    last = labels[-1].split("#")[1]
    return f"{name} {first.replace(' (you)', '')}-#{last}{' (you)' if first.endswith('(you)') else ''}: (empty)"


def _owner_title(label: str, names: list[str], mine: str | None) -> str:
    """A pile's label (P2, P2#3, T1) with the player's name, and (you) for the viewer's own."""
    owner = label.split("#")[0]
    shown = label.replace(owner, names[int(owner[1:]) - 1], 1) if owner.startswith("P") else label
    return shown + (" (you)" if mine is not None and owner == mine else "")


def _grids(name: str, piles: list, labels: list[str], shape: list[int], names: list[str], mine: str | None) -> list[str]:
    """Grids side by side (cards without colour, so that the columns line up)."""
    shown = [[card_text(c) if c else c for c in pile] for pile in piles]
    return grid_lines(name, shown, [_owner_title(label, names, mine) for label in labels], *shape)


def _pile_text(view: dict, zone: str, label: str, mine: str | None, pile: list, color: bool) -> str:
    """The viewer's hand in a trick-taking game is sorted by suit with the trump marked."""
    tricks = view.get("tricks")
    if tricks is not None and zone == tricks["hand"] and label == mine:
        return hand_text(pile, tricks, color)
    return _pile(pile, color)


def _pile(pile: list, color: bool = False) -> str:
    if not pile:
        return "(empty)"
    hidden = sum(1 for c in pile if c is None)
    if hidden == len(pile):
        return f"{hidden} face down"
    if hidden == len(pile) - 1 and hidden > 1 and pile[-1] is not None:   # only the top may be seen
        return f"{card_text(pile[-1], color)} (on {hidden} more)"
    text = " ".join(card_text(c, color) if c is not None else HIDDEN for c in pile)
    return text


def _cards_named(view: dict) -> dict:
    """The view with each card held in a variable or a view line written as the card (``J♠``)."""
    labels = view.get("card_labels") or {}
    if not labels:
        return view
    deepest = VIEW_DEPTH + 3        # as deep as ``_plain`` draws, below "shown", "seat" and the seats

    def named(value: Any, depth: int) -> Any:
        if depth > deepest:
            return value
        if isinstance(value, list):
            return [named(v, depth + 1) for v in value]
        if isinstance(value, dict):
            if "$card" in value:
                return card_text(labels[str(value["$card"])])
            inner = value["$map"] if "$map" in value else value
            named_inner = {k: named(v, depth + 1) for k, v in inner.items()}
            return {"$map": named_inner} if "$map" in value else named_inner
        return value
    return {**view, **{key: named(view[key], 0) for key in ("vars", "seat_vars", "team_vars", "shown")}}


def _plain(value: Any, depth: int = 0) -> Any:
    """Undo the tagging of stored values for display. Lists and maps more than ``VIEW_DEPTH``
    deep (counted from ``value``) are drawn as ``CUT``: drawing stays bounded however deep a
    value is."""
    if isinstance(value, dict) and "$seat" in value:
        return f"P{value['$seat'] + 1}"
    if isinstance(value, dict) and "$card" in value:
        return f"card {value['$card']}"
    if isinstance(value, (list, dict)) and depth >= VIEW_DEPTH:
        return CUT
    if isinstance(value, dict) and "$map" in value:
        return {k: _plain(v, depth + 1) for k, v in value["$map"].items()}
    if isinstance(value, list):
        return [_plain(v, depth + 1) for v in value]
    return value


def cell_text(value: Any) -> str:
    """A stored value (as a view holds it) as one cell of a table."""
    return _cell(_plain(value))


def _cell(value: Any, depth: int = 0) -> str:
    """A value as one cell: a list's items side by side, those nested more than ``DRAWN_DEPTH``
    deep as ``CUT``."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        if depth >= DRAWN_DEPTH:
            return CUT
        return " ".join(_cell(v, depth + 1) for v in value) if value else "-"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)
