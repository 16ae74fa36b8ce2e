"""The table drawn from one seat's view, as Rich text: the shared zones, the seat's own zones in
full, the other seats compact (counts for what is hidden), and the values (the game's ``view:``,
the seats' and teams' variables). Made from the view alone, so it shows nothing the seat may not
see; used by the full-screen table and by its tests (``plain`` gives the same without styles).

Every card, pile, seat and die drawn is a place that may be picked (``spots``, in drawing
order; each piece of text carries its number as the style's ``meta``, from which the table
learns where each one lies, then takes the marks out):
``("card", zone, pile, position)``, ``("pile", zone, pile)`` (an empty pile, or one whose cards
are all hidden), ``("seat", seat)``, ``("die", position)`` (the table's dice) and
``("die", position, seat)`` (a die of the viewer's own cup, where each seat has one: the others'
cups are drawn, never picked). The cursor, the places the move being built may use next
(``targets``) and those already chosen are marked.
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from rich.style import Style
from rich.text import Text

from ...engine.views import dice_cups
from ..card_text import TRUMP_MARK, card_text, suit_text
from ..grid_text import grid_lines
from ..hand_events import hand_owners
from ..render import _cards_named, _cell, _plain, cell_text, die_text, long_row_text, split_long_rows
from ..words import Words

RED_SUITS = ("♥", "♦")
EMPTY = "—"
HIDDEN = "▒"
CHANGED = "reverse"       # the style of a pile that has just changed
CURSOR = "reverse underline"
TO_ACT = "◀"               # beside the seat whose turn it is
CHOSEN_MARK = "✓"          # after a place chosen for the move being built, without colour
MANY_PILES = 6            # more piles than this in a zone: only those with cards are drawn


class Board:
    """Draws views of one seat; ``color`` False draws without any colour (NO_COLOR)."""

    def __init__(self, seat: int | None, color: bool = True, layout: dict | None = None, words: Words | None = None):
        self.seat = seat
        self.words = words
        self.color = color
        self.me = f"P{seat + 1}" if seat is not None else None
        # The game's hints (``layout:``): zones first in this order, zones not drawn, fanned zones.
        self.layout = layout or {}
        self.spots: list[tuple] = []      # the places drawn, in order (see the module's text)
        self._cursor: tuple | None = None
        self._targets: frozenset = frozenset()
        self._chosen: frozenset = frozenset()

    def _spot(self, text: Text, place: tuple) -> Text:
        """``text`` as the drawing of a place that may be picked, marked as it should be."""
        pile = ("pile",) + place[1:3] if place[0] == "card" else place
        if place in self._chosen or pile in self._chosen:
            text.stylize("bold yellow" if self.color else "bold underline")
            if not self.color:          # marked in the text too: a terminal may show no style at all
                text.append(CHOSEN_MARK)
        elif place in self._targets or pile in self._targets:
            text.stylize("underline green" if self.color else "underline")
        if place == self._cursor:
            text.stylize(CURSOR)
        text.stylize(_spot_style(len(self.spots)))
        self.spots.append(place)
        return text

    def _zones_in_order(self, view: dict) -> list[str]:
        order = self.layout.get("order", [])
        hidden = set(self.layout.get("hide", []))
        names = [z for z in order if z in view["zones"]] + [z for z in view["zones"] if z not in order]
        return [z for z in names if z not in hidden]

    # -- the regions -------------------------------------------------------------------------------
    def table(self, view: dict, changed: frozenset = frozenset(), cursor: tuple | None = None,
              targets: frozenset = frozenset(), chosen: frozenset = frozenset(), last_trick: dict | None = None) -> Text:
        """The zones: shared first, then the seat's own, then every other seat's, one line each;
        ``cursor`` the place under the cursor, ``targets`` and ``chosen`` places to mark;
        ``last_trick`` the trick last taken (``Session.last_trick``), shown under the trick."""
        self.spots, self._cursor, self._targets, self._chosen = [], cursor, targets, chosen
        out = Text()
        mine_team = self._my_team(view)
        others: dict[str, list[tuple[str, list[int]]]]      # each other owner's piles: (zone, indexes)
        shared, mine, others = [], [], {}
        for zone in self._zones_in_order(view):
            labels = view["pile_names"][zone]
            owners: dict[str, list[int]] = {}
            for i, label in enumerate(labels):
                owners.setdefault(label.split("#")[0], []).append(i)
            for owner, indexes in owners.items():
                if owner == "":
                    shared.append((zone, indexes))
                elif owner in (self.me, mine_team):
                    mine.append((zone, indexes))
                else:
                    others.setdefault(owner, []).append((zone, indexes))
        cups = dice_cups(view["dice"])
        if cups is not None:        # each seat's cup is drawn with the seat, every seat listed
            for cup_owner in range(len(cups)):
                if cup_owner != self.seat:
                    others.setdefault(f"P{cup_owner + 1}", [])
        elif view["dice"]:
            out.append("dice ", style="dim")
            for k, die in enumerate(view["dice"]):
                out.append(" " if k else "")
                out.append_text(self._spot(Text(f"[{die}]", style="bold"), ("die", k)))
            out.append("\n")
        if view.get("tricks") is not None:
            self._trick(out, view)
            if last_trick is not None:
                self._last_trick(out, last_trick)
        self._section(out, "Table", [self._zone_line(view, z, ix, changed, full=True) for z, ix in shared])
        if self.me is not None:
            assert self.seat is not None        # ``me`` names the seat
            own_cup = [self._cup(cups, self.seat)] if cups is not None else []
            self._section(out, f"You ({self.me}){self._marks(view, self.seat)}",
                          own_cup + [self._zone_line(view, z, ix, changed, full=True) for z, ix in mine])
        for owner in sorted(others, key=lambda o: self._place_at_table(o, view)):
            zones = others[owner]
            name = self._owner_text(owner, view)
            cup = [self._cup(cups, int(owner[1:]) - 1)] if cups is not None and owner.startswith("P") else []
            parts = cup + [self._zone_line(view, z, ix, changed, full=z in self.layout.get("fan", ())) for z, ix in zones
                           if any(view["zones"][z][i] not in ([], [""] * len(view["zones"][z][i])) for i in ix)]
            parts = parts or [Text(EMPTY, style="dim")]
            self._section(out, None, [name + Text("  ") + Text("  ").join(parts)])
        return out

    def values(self, view: dict) -> Text:
        """The game's values, then a table of the seats' (and teams') variables."""
        view = _cards_named(view)       # a card held in a variable drawn as the card, as in the line mode
        out = Text()
        shown_game = view["shown"]["game"]
        # The game's own `view:` values; without them its variables, those that hold something.
        game_values = ({k: _plain(v) for k, v in shown_game.items()} if shown_game
                       else {k: v for k, v in self._named(_plain(view["vars"])).items() if v not in (None, [], {}, "")})
        for n, (key, value) in enumerate(game_values.items()):
            out.append(("  " if n else "") + f"{key} ", style="dim")
            out.append(_cell(value))
        if game_values:
            out.append("\n")
        names = [f"P{i + 1}" for i in range(view["players"])]
        rows, long = split_long_rows(_seat_rows(view, self._named))
        if rows:
            widths = [max(len(r[i]) for r in [[""] + names] + rows) for i in range(len(names) + 1)]
            head = [""] + names
            out.append(" ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(head, widths))) + "\n",
                       style="bold")
            for row in rows:
                out.append(" ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))) + "\n")
        for row in long:
            out.append(long_row_text(row, names) + "\n")
        if view.get("teams") is not None:
            for number, values in enumerate(view["team_vars"]):
                members = " ".join(names[s] for s, t in enumerate(view["teams"]) if t == number)
                shown = "  ".join(f"{k} {_cell(v)}" for k, v in self._named(_plain(values)).items())
                out.append(f"T{number + 1} ({members}) {shown}\n")
        return out

    def breakdown(self, parts: dict, view: dict, hand: int) -> Text:
        """The named parts of the hand just ended: a row per part, a column per seat (per team)."""
        teams = view.get("teams")
        owners = hand_owners(view["players"], teams)
        out = Text(f"\nHand {hand}\n", style="bold")
        head = [""] + [name for name, _ in owners]
        rows = [[label] + [cell_text(values[seat]) for _, seat in owners] for label, values in parts.items()]
        widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
        for n, row in enumerate([head] + rows):
            out.append(" ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))) + "\n",
                       style="bold" if n == 0 else "")
        return out

    # -- pieces ------------------------------------------------------------------------------------
    def _named(self, variables: dict) -> dict:
        """Variables as drawn: bookkeeping ones left out, the others under their words."""
        return self.words.values(variables) if self.words is not None else variables

    def _zone_name(self, zone: str) -> str:
        return self.words.zone(zone) if self.words is not None else zone

    def _owner_text(self, owner: str, view: dict) -> Text:
        """Another seat's name, where it sits from yours, whether it is your partner, its marks
        (``dealer``) and ``◀`` on the seat to act; a team's name."""
        if not owner.startswith("P"):
            return Text(owner, style="bold")
        seat = int(owner[1:]) - 1
        text = self._spot(Text(owner, style="bold"), ("seat", seat))
        where = seat_position(seat, self.seat, view["players"])
        teams = view.get("teams")
        partner = teams is not None and self.seat is not None and teams[seat] == teams[self.seat]
        words = [w for w in (where, "partner" if partner else "") if w]
        if words:
            text.append(f" ({', '.join(words)})", style="dim")
        text.append(self._marks(view, seat))
        return text

    def _marks(self, view: dict, seat: int | None) -> str:
        if seat is None:
            return ""
        marks = list((view.get("marks") or [[]] * view["players"])[seat])
        if view.get("current") == seat and not view["over"]:
            marks.append(TO_ACT)
        return (" " + " ".join(marks)) if marks else ""

    def _place_at_table(self, owner: str, view: dict) -> tuple:
        """Seats in the order of play from yours (the one on your left first), then teams."""
        if not owner.startswith("P"):
            return (1, owner)
        seat = int(owner[1:]) - 1
        return (0, (seat - (self.seat or 0)) % view["players"])

    def _section(self, out: Text, title: str | None, lines: list[Text]) -> None:
        if not lines:
            return
        if title:
            out.append(title + "\n", style="bold underline")
        for line in lines:
            out.append_text(line)
            out.append("\n")

    def _cup(self, cups: list[list], owner: int) -> Text:
        """``dice [3] [4] [6]``: a seat's cup, a die not seen as ``[?]``; the viewer's own dice
        are places to pick (a move that chooses some dice chooses among the seat's own)."""
        line = Text("dice ", style="dim")
        for k, die in enumerate(cups[owner]):
            line.append(" " if k else "")
            text = Text(f"[{die_text(die)}]", style="bold" if die is not None else "dim")
            line.append_text(self._spot(text, ("die", k, owner)) if owner == self.seat and die is not None else text)
        return line

    def _trick(self, out: Text, view: dict) -> None:
        tricks = view["tricks"]
        trump = "none" if tricks["trump"] is None else suit_text(tricks["trump"])
        out.append("trump ", style="dim")
        out.append_text(self._suits(trump))
        if tricks["led"] is not None:
            out.append("  led ", style="dim")
            out.append_text(self._suits(suit_text(tricks["led"])))
        out.append("  trick ", style="dim")
        plays = [(f"P{seat + 1}" if seat is not None else "?", label) for seat, label in tricks["plays"]]
        if not plays:
            out.append(EMPTY)
        for who, label in plays:
            out.append(who + " ", style="dim")
            out.append_text(self._card(label))
            out.append(" ")
        out.append("\n")

    def _last_trick(self, out: Text, last: dict) -> None:
        """``last trick P2 9♥ P3 K♥ ... P3 took it``: the trick stays in sight until the next is
        taken."""
        out.append("last trick ", style="dim")
        for seat, label in last["plays"]:
            out.append(("?" if seat is None else f"P{seat + 1}") + " ", style="dim")
            out.append_text(self._card(label))
            out.append(" ")
        if last["winner"] is not None:
            out.append(f"· P{last['winner'] + 1} took it", style="bold")
        out.append("\n")

    def _zone_line(self, view: dict, zone: str, indexes: list[int], changed: frozenset, full: bool) -> Text:
        piles = [view["zones"][zone][i] for i in indexes]
        line = Text(self._zone_name(zone) + " ", style="dim")
        if zone in view.get("grids", {}):
            return self._grid(view, zone, indexes, full)
        tricks = view.get("tricks")
        empties = 0
        many = len(piles) > MANY_PILES
        if many:      # many piles (foundations): those with cards, and a count
            empties = sum(1 for p in piles if not p)
            indexes = [i for i, p in zip(indexes, piles) if p]
            piles = [p for p in piles if p]
        for n, (i, pile) in enumerate(zip(indexes, piles)):
            if n:
                line.append(" | " if full else " ", style="dim")
            if full and tricks is not None and zone == tricks["hand"]:
                text = self._hand(pile, tricks, zone, i)
            else:
                text = self._pile(pile, full and not many, zone, i)
            if (zone, i) in changed:
                text.stylize(CHANGED)
            line.append_text(text)
        if empties:
            line.append(f"{'  ' if piles else ''}({empties} empty)", style="dim")
        if len(piles) > 1 and not full and all(not p for p in piles):
            return Text(self._zone_name(zone) + " ", style="dim") + Text(EMPTY)
        return line

    def _grid(self, view: dict, zone: str, indexes: list[int], full: bool) -> Text:
        rows, cols = view["grids"][zone]
        piles = [[card_text(c) if c else c for c in view["zones"][zone][i]] for i in indexes]
        lines = grid_lines(zone, piles, [""] * len(piles), rows, cols)[2:]
        text = Text(self._zone_name(zone) + (":\n" if full else " "), style="dim")
        if full:
            text.append_text(self._suits("\n".join(lines)))
        else:
            text.append(" / ".join(line.strip() for line in lines))
        return text

    def _pile(self, pile: list, full: bool, zone: str, i: int) -> Text:
        if not pile:
            return self._spot(Text(EMPTY, style="dim"), ("pile", zone, i))
        hidden = sum(1 for c in pile if c is None)
        if hidden == len(pile):
            return self._spot(Text(f"{hidden}{HIDDEN}"), ("pile", zone, i))
        if not full or (hidden == len(pile) - 1 and pile[-1] is not None and hidden > 1):
            if pile[-1] is None:
                top = self._spot(Text(HIDDEN), ("pile", zone, i))
            else:
                top = self._spot(self._card(pile[-1]), ("card", zone, i, len(pile) - 1))
            return top + Text(f"+{len(pile) - 1}", style="dim") if len(pile) > 1 else top
        out = Text()
        for n, card in enumerate(pile):
            if n:
                out.append(" ")
            shown = self._card(card)
            out.append_text(self._spot(shown, ("card", zone, i, n)) if card is not None else shown)
        return out

    def _hand(self, pile: list, tricks: dict, zone: str, i: int) -> Text:
        """The seat's hand by effective suit, trumps first and marked, high cards first."""
        cards = tricks["cards"]
        known = [c for c in pile if c is not None]
        suits: list = []
        for label in known:
            suit = cards.get(label, [None])[0]
            if suit not in suits:
                suits.append(suit)
        suits.sort(key=lambda s: (s != tricks["trump"], str(s)))
        out = Text()
        for n, suit in enumerate(suits):
            if n:
                out.append("  ")
            members = sorted((c for c in known if cards.get(c, [None])[0] == suit),
                             key=lambda c: -_number(cards.get(c, [None, 0])[1]))
            if suit == tricks["trump"] and suit is not None:
                out.append(TRUMP_MARK, style="bold")
            out.append_text(Text(" ").join(self._spot(self._card(c), ("card", zone, i, pile.index(c)))
                                           for c in members))
        if len(known) < len(pile):
            out.append(f" {len(pile) - len(known)}{HIDDEN}")
        return out if known or pile else self._spot(Text(EMPTY, style="dim"), ("pile", zone, i))

    def _card(self, label: str | None) -> Text:
        if label is None:
            return Text(HIDDEN)
        return self._suits(card_text(label))

    def _suits(self, text: str) -> Text:
        """Red suits in red (bold black for the others), when colour is on."""
        out = Text(text)
        if self.color:
            for n, char in enumerate(text):
                if char in RED_SUITS:
                    start = n
                    while start > 0 and text[start - 1] not in " \n|":
                        start -= 1
                    out.stylize("bold red", start, n + 1)
        return out

    def _my_team(self, view: dict) -> str | None:
        if self.seat is None or view.get("teams") is None:
            return None
        return f"T{view['teams'][self.seat] + 1}"


def seat_position(seat: int, me: int | None, players: int) -> str:
    """Where ``seat`` sits from ``me`` at a round table, play going to the left: ``left``,
    ``across`` (with an even number of seats), ``right``; "" for the seats between or no viewer."""
    if me is None or players < 3:
        return "across" if me is not None and players == 2 else ""
    offset = (seat - me) % players
    if offset == 1:
        return "left"
    if offset == players - 1:
        return "right"
    return "across" if players % 2 == 0 and offset == players // 2 else ""


@functools.lru_cache(maxsize=4096)
def _spot_style(number: int) -> Style:
    """The style that tells a click which place it hit (made once per number: they are redrawn often)."""
    return Style(meta={"spot": number})


def _seat_rows(view: dict, named: Callable[[Any], dict]) -> list[list[str]]:
    """A row per seat variable (a score sheet: a row per cell) and per ``view: seat`` value;
    ``named`` gives the variables as drawn."""
    seats = [named(_plain(v)) for v in _plain(view["seat_vars"])]
    rows: list[list[str]] = []
    if seats:
        for key, value in seats[0].items():
            if isinstance(value, dict):
                rows += [[sub] + [_cell(s[key].get(sub)) for s in seats] for sub in value]
            else:
                rows.append([key] + [_cell(s[key]) for s in seats])
    rows += [[label] + [_cell(_plain(v)) for v in values] for label, values in view["shown"]["seat"].items()]
    return rows


def _number(value: Any) -> float:
    return value if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


def changed_piles(before: dict | None, after: dict) -> frozenset:
    """The piles (zone, index) whose visible contents differ between two views of one seat."""
    if before is None:
        return frozenset()
    return frozenset((zone, i) for zone, piles in after["zones"].items()
                     for i, pile in enumerate(piles)
                     if zone in before["zones"] and i < len(before["zones"][zone]) and before["zones"][zone][i] != pile)
