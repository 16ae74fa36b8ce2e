"""Observations for researchers' tools, made from a seat's view (``views.view``) and nothing else,
so they hold no hidden information: a canonical text, and a tensor of fixed shape per game and
number of seats.

The tensor is a flat list of floats in sections, each named with its shape (``layout``):

- ``seat`` (players): one-hot, the observing seat; ``current`` (players + 1): one-hot, the seat
  whose turn it is, the last entry when none (free play); ``phase`` (phases): one-hot;
  ``round``, ``over`` (1 each).
- ``dice`` (dice x faces, or with dice per seat players x dice x faces): one-hot per die, all
  zeros for a die the seat does not see.
- ``zone:NAME`` per zone: for a grid, per pile and slot a one-hot over [empty, hidden, labels...];
  else per pile the count of each card label seen, the count of hidden cards, then a one-hot
  of its top card over [empty, hidden, labels...].
- ``vars`` (one per leaf): the game's, then each seat's, then each team's variables, then the
  ``view:`` values, as laid out in the game's first state: a number or yes/no as itself, none as
  0, a text as its 1-based code in ``words`` (0 when not there), a list as its length; a map
  with keys in the first state is laid out by those keys, an empty one as its size.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from .views import dice_cups, view

if TYPE_CHECKING:
    from .game import Game
    from .state import State

TEXT_FORMAT: dict[str, Any] = {"sort_keys": True, "ensure_ascii": False, "separators": (",", ":")}


def observation_view(game: Game, state: State, seat: int | None) -> dict:
    """The seat's view without its list of legal moves (those are the actions)."""
    return view(game, state, seat, with_moves=False)


def observation_text(game: Game, state: State, seat: int | None) -> str:
    """The seat's view as one canonical line of JSON (keys sorted)."""
    return json.dumps(observation_view(game, state, seat), **TEXT_FORMAT)


class TensorLayout:
    """Where each part of a view goes in the flat tensor; built once from a first state."""

    def __init__(self, game: Game, first_state: State, words: list[str]):
        self.game = game
        self.players = first_state.players
        self.codes: dict[str, int] = {}
        for i, word in enumerate(words):
            self.codes.setdefault(word, i + 1)
        first = observation_view(game, first_state, None)
        self.labels: list[str] = []
        for card in game.card_table(self.players):
            if card.label not in self.labels:
                self.labels.append(card.label)
        self.label_index = {label: i for i, label in enumerate(self.labels)}
        self.pile_counts = {name: len(piles) for name, piles in first["zones"].items()}
        self.grid_sizes = {name: rows * cols for name, (rows, cols) in first["grids"].items()}
        self.var_shape = _shape_of(_variables(first))
        self.sections = self._sections()
        self.size = sum(size for _, size in self.sections)

    def _sections(self) -> list[tuple[str, int]]:
        n, labels = self.players, len(self.labels)
        sections = [("seat", n), ("current", n + 1), ("phase", len(self.game.phase_names)), ("round", 1), ("over", 1),
                    ("dice", self.game.dice_count * self.game.dice_faces * (n if self.game.dice_per == "seat" else 1))]
        for name, piles in self.pile_counts.items():
            if name in self.grid_sizes:
                sections.append((f"zone:{name}", piles * self.grid_sizes[name] * (labels + 2)))
            else:
                sections.append((f"zone:{name}", piles * (2 * labels + 3)))
        sections.append(("vars", _leaf_count(self.var_shape)))
        return sections

    def encode(self, seen: dict, seat: int | None) -> list[float]:
        """The tensor of a view (``observation_view``) seen by ``seat``."""
        out: list[float] = []
        out += _one_hot(seat, self.players)
        out += _one_hot(self.players if seen["current"] is None else seen["current"], self.players + 1)
        out += _one_hot(self.game.phase_names.index(seen["phase"]), len(self.game.phase_names))
        out += [float(seen["round"]), float(seen["over"])]
        faces = self.game.dice_faces
        cups = dice_cups(seen["dice"])
        for value in seen["dice"] if cups is None else [die for cup in cups for die in cup]:
            out += [0.0] * faces if value is None else _one_hot(value - 1, faces)
        for name in self.pile_counts:
            for pile in seen["zones"][name]:
                out += self._grid(pile, name) if name in self.grid_sizes else self._pile(pile)
        _leaves(self.var_shape, _variables(seen), self.codes, out)
        return out

    def _pile(self, pile: list) -> list[float]:
        counts = [0.0] * (len(self.labels) + 1)
        for label in pile:
            counts[len(self.labels) if label is None else self.label_index[label]] += 1
        return counts + self._slot(pile[-1] if pile else "")

    def _grid(self, pile: list, name: str) -> list[float]:
        out: list[float] = []
        for k in range(self.grid_sizes[name]):
            out += self._slot(pile[k] if k < len(pile) else "")
        return out

    def _slot(self, label: str | None) -> list[float]:
        at = 0 if label == "" else 1 if label is None else 2 + self.label_index[label]
        return _one_hot(at, len(self.labels) + 2)


def _one_hot(index: int | None, size: int) -> list[float]:
    out = [0.0] * size
    if index is not None and 0 <= index < size:
        out[index] = 1.0
    return out


def _variables(seen: dict) -> list:
    shown = seen["shown"]
    per_seat = [{label: values[s] for label, values in shown["seat"].items()} for s in range(seen["players"])]
    return [seen["vars"], seen["seat_vars"], seen["team_vars"], shown["game"], per_seat]


def _shape_of(value: Any) -> Any:
    """The layout of a variable's value: a dict or list of layouts, or None for one leaf."""
    if isinstance(value, dict) and value:
        return {k: _shape_of(v) for k, v in value.items()}
    if isinstance(value, list) and value and isinstance(value[0], (dict, list)) and all(
            isinstance(v, (dict, list)) for v in value):
        return [_shape_of(v) for v in value]
    return None


def _leaf_count(shape: Any) -> int:
    if isinstance(shape, dict):
        return sum(_leaf_count(v) for v in shape.values())
    if isinstance(shape, list):
        return sum(_leaf_count(v) for v in shape)
    return 1


def _leaves(shape: Any, value: Any, codes: dict, out: list[float]) -> None:
    if isinstance(shape, dict):
        for k, sub in shape.items():
            _leaves(sub, value.get(k) if isinstance(value, dict) else None, codes, out)
    elif isinstance(shape, list):
        for i, sub in enumerate(shape):
            _leaves(sub, value[i] if isinstance(value, list) and i < len(value) else None, codes, out)
    else:
        out.append(_leaf(value, codes))


def _leaf(value: Any, codes: dict) -> float:
    if value is None:
        return 0.0
    if isinstance(value, (bool, int, float)):
        return float(value)
    if isinstance(value, str):
        return float(codes.get(value, 0))
    if isinstance(value, (list, dict)):
        return float(len(value))
    return 0.0
