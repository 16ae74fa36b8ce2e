"""Text of the grid zones of a view: each owner's grid drawn in rows and columns, side by side."""
from __future__ import annotations

HIDDEN = "##"       # a card lying face down (or that this seat may not see)
EMPTY = ".."        # an empty slot
GAP = "    "


def grid_lines(name: str, piles: list[list], titles: list[str], rows: int, cols: int) -> list[str]:
    """``name:`` and a header of titles, then the grids' rows side by side."""
    grids = [_cells(pile, rows * cols) for pile in piles]
    width = max([len(c) for g in grids for c in g] + [2])
    block = cols * (width + 1) - 1
    header = GAP.join(title.ljust(block) for title in titles)
    lines = [f"{name}:", "  " + header.rstrip()]
    for r in range(rows):
        parts = [" ".join(c.rjust(width) for c in g[r * cols:(r + 1) * cols]) for g in grids]
        lines.append("  " + GAP.join(p.ljust(block) for p in parts).rstrip())
    return lines


def _cells(pile: list, size: int) -> list[str]:
    slots = list(pile) + [""] * (size - len(pile))
    return [HIDDEN if c is None else EMPTY if c == "" else c for c in slots]
