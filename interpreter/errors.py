"""One error hierarchy for the whole pipeline.

Every error a user can cause is a ``RulesError``. It carries a message, an optional source
position and an optional hint, and renders the way a compiler does::

    games/x.yaml:12:9: error: unknown name 'thorws'
       12 |     when: thorws < 3
          |           ^^^^^^
    hint: did you mean 'throws'?

Each stage of the pipeline has its own subclass, so callers can tell where a problem arose,
and ``ErrorList`` carries every error found in one pass (we report all, not the first).
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, replace
from typing import Iterable, Self, Sequence


@dataclass(frozen=True)
class Source:
    """The text of one file, shared by every position that points into it."""

    name: str
    lines: tuple[str, ...] = ()

    @classmethod
    def from_text(cls, name: str, text: str) -> "Source":
        return cls(name, tuple(text.splitlines()))

    def line(self, number: int) -> str | None:
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return None


@dataclass(frozen=True)
class Position:
    """A place in a source file: 1-based line and column, and how many columns it spans."""

    source: Source
    line: int
    col: int
    width: int = 1

    @property
    def file(self) -> str:
        return self.source.name

    def __str__(self) -> str:
        return f"{self.source.name}:{self.line}:{self.col}"

    def shifted(self, line_offset: int = 0, col: int | None = None, width: int | None = None) -> "Position":
        return replace(
            self,
            line=self.line + line_offset,
            col=self.col if col is None else col,
            width=self.width if width is None else width,
        )


class RulesError(Exception):
    """Root of every error the product reports to a user.

    An error raised while a game runs also says where in the game it happened: ``context``
    holds lines such as "while P2 played 'bid 3' (move 4; round 1, phase 'auction')", innermost
    first, added by the engine at its boundaries (``within``) and shown after the caret."""

    kind = "error"
    context: tuple[str, ...] = ()

    def __init__(self, message: str, pos: Position | None = None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.pos = pos
        self.hint = hint

    def __str__(self) -> str:
        return self.headline()

    def headline(self) -> str:
        where = f"{self.pos}: " if self.pos else ""
        return f"{where}{self.kind}: {self.message}"

    def within(self, line: str) -> Self:
        """This error, with one more line saying where in the game it happened."""
        self.context = self.context + (line,)
        return self

    def render(self) -> str:
        """The headline, the offending line with a caret under the place, where in the game it
        happened, and the hint. Every front end reports an error with this one function."""
        parts = [self.headline()]
        if self.pos is not None:
            text = self.pos.source.line(self.pos.line)
            if text is not None:
                gutter = f"{self.pos.line:>5} | "
                col = max(self.pos.col, 1)
                width = max(1, min(self.pos.width, max(1, len(text) - col + 1)))
                shown, col, width = excerpt(text.rstrip("\n"), col, width)
                parts.append(gutter + shown)
                pad = " " * (len(gutter) - 2) + "| "
                parts.append(pad + " " * (col - 1) + "^" * width)
        parts.extend(self.context)
        if self.hint:
            parts.append(f"hint: {self.hint}")
        return "\n".join(parts)

    def to_dict(self) -> dict:
        """A JSON-ready form for editors and CI (``--format json``)."""
        out: dict = {"kind": self.kind, "message": self.message, "stage": type(self).__name__}
        if self.pos is not None:
            out.update(file=self.pos.file, line=self.pos.line, col=self.pos.col, width=self.pos.width)
        if self.hint:
            out["hint"] = self.hint
        if self.context:
            out["context"] = list(self.context)
        return out


SHOWN_CHARS = 100     # of a longer line, the characters shown around the place of an error
CUT = "..."


def excerpt(text: str, col: int, width: int) -> tuple[str, int, int]:
    """``text`` cut to about ``SHOWN_CHARS`` characters around column ``col`` (``...`` where it
    was cut), with the column and width of the caret in what is shown."""
    if len(text) <= SHOWN_CHARS:
        return text, col, width
    start = min(max(0, col - 1 - SHOWN_CHARS // 2), max(0, len(text) - SHOWN_CHARS))
    end = start + SHOWN_CHARS
    before = CUT if start > 0 else ""
    after = CUT if end < len(text) else ""
    width = max(1, min(width, end - (col - 1)))
    return before + text[start:end] + after, col - start + len(before), width


class YamlError(RulesError):
    """The file is not safe, well-formed YAML within our limits."""


class SchemaError(RulesError):
    """The YAML is well-formed but does not have the shape of a game file."""


class ExprError(RulesError):
    """An expression does not parse or does not check."""


class ExprSyntaxError(ExprError):
    """An expression does not parse."""


class ExprCheckError(ExprError):
    """An expression parses but names something unknown or mixes types."""


class SpecError(RulesError):
    """The game file is well-formed but its parts do not fit together."""


class LimitError(RulesError):
    """A size, depth, magnitude or step limit was exceeded."""


class EvalError(RulesError):
    """An expression failed while the game was running (division by zero, bad index...)."""


class PresetError(EvalError):
    """An outcome a test fixed in advance (stacked cards, a fixed roll) that does not fit the
    game where it is used: the test's fault, reported at the test's place."""


class StalledGame(RulesError):
    """A game that is not over but in which no seat can ever move again (or end its turn)."""


class IllegalMove(RulesError):
    """A move that may not be played now; the state is left unchanged."""


class RecordError(RulesError):
    """A game record is corrupt or does not match its game."""


class OptionError(RulesError):
    """A ``--option name=value`` that the game does not accept."""


class ErrorList(RulesError):
    """Several errors found in one pass, reported together in source order."""

    def __init__(self, errors: Sequence[RulesError]):
        self.errors = sorted(errors, key=_error_order)
        first = self.errors[0] if self.errors else None
        super().__init__(
            first.message if first else "no errors",
            first.pos if first else None,
            first.hint if first else None,
        )

    def headline(self) -> str:
        return "\n".join(e.headline() for e in self.errors)

    def render(self) -> str:
        return "\n".join(e.render() for e in self.errors)


def _error_order(error: RulesError) -> tuple:
    if error.pos is None:
        return ("", 0, 0)
    return (error.pos.file, error.pos.line, error.pos.col)


def flatten(errors: Iterable[RulesError]) -> list[RulesError]:
    """Expand nested ``ErrorList``s into one flat list."""
    out: list[RulesError] = []
    for error in errors:
        if isinstance(error, ErrorList):
            out.extend(flatten(error.errors))
        else:
            out.append(error)
    return out


def did_you_mean(name: str, candidates: Iterable[str]) -> str | None:
    """A hint naming the closest candidate(s), or None when nothing is close."""
    names = sorted(set(candidates))
    close = difflib.get_close_matches(name, names, n=3, cutoff=0.6)
    if not close:
        lowered = {c.lower(): c for c in names}
        if name.lower() in lowered:
            close = [lowered[name.lower()]]
    if not close:
        return None
    if len(close) == 1:
        return f"did you mean '{close[0]}'?"
    quoted = ", ".join(f"'{c}'" for c in close[:-1])
    return f"did you mean {quoted} or '{close[-1]}'?"
