"""The report of a run of simulated games: its statistics as JSON-ready data, as text for
people, and as a histogram of the scores.

Statistics of seats, lengths and the first move are over the *finished* games: those that
ended by the game's own rules, without an error and without a limit stopping them.

A seat *wins* a game when it has the first place, alone or shared: a tie for first is a win of
every seat in it (``ties`` counts those). Its *win share* counts a tie of ``k`` seats as ``1/k``
of a win, so the shares of a game's seats add up to one game. Each rate comes with its Wilson 95%
score interval (``wilson``), so that "stronger" is read from the report: two seats are clearly
apart when their intervals do not overlap.
"""
from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass

from ..errors import RulesError

ERRORS_SHOWN = 3
Z_95 = 1.959963984540054        # the two-sided 95% quantile of the standard normal distribution


def wilson(successes: float, trials: int, z: float = Z_95) -> list[float] | None:
    """The Wilson score interval [low, high] of a rate of ``successes`` in ``trials`` (which may
    count a tied win as a fraction); None without a trial."""
    if trials <= 0:
        return None
    rate = successes / trials
    z2 = z * z
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = z * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    # At a rate of 0 or 1 the interval reaches 0 or 1 exactly (rounding would leave it short).
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return [low, high]


@dataclass(frozen=True)
class GameOutcome:
    """One game of a run: its seed, final scores and places, length, and how it ended."""

    index: int
    seed: int
    scores: list | None           # per seat; None after an error
    places: list[int] | None      # per seat, from 1; seats that tie share a place
    moves: int
    rounds: int
    first_seat: int | None        # the seat that made the game's first move
    stop: str | None              # why a limit stopped the game
    error: str | None             # the message of the error that ended the game
    players: int | None = None    # how many played (set where runs of several counts are told apart)

    @classmethod
    def failed(cls, index: int, seed: int, message: str) -> "GameOutcome":
        return cls(index, seed, None, None, 0, 0, None, None, message)

    @property
    def finished(self) -> bool:
        return self.error is None and self.stop is None

    @property
    def final_scores(self) -> list:
        """The scores of a game that ended without an error."""
        assert self.scores is not None
        return self.scores

    @property
    def final_places(self) -> list[int]:
        """The places of a game that ended without an error."""
        assert self.places is not None
        return self.places


@dataclass
class Report:
    """A run: its settings, every game in game order, and how long it took."""

    game: str
    players: int
    bots: list[str]
    seed: int
    max_moves: int
    outcomes: list[GameOutcome]
    seconds: float
    jobs: int

    def finished(self) -> list[GameOutcome]:
        return [o for o in self.outcomes if o.finished]

    def seat_scores(self, seat: int) -> list:
        """The final scores of ``seat`` in the finished games."""
        return [o.final_scores[seat] for o in self.finished()]

    def summary(self) -> dict:
        """Every figure of the report as JSON-ready data (rates are fractions; None: no game)."""
        done = self.finished()
        stopped = [o for o in self.outcomes if o.stop is not None]
        errors = [o for o in self.outcomes if o.error is not None]
        return {
            "game": self.game, "players": self.players, "bots": self.bots,
            "seeds": [self.seed, self.seed + len(self.outcomes) - 1], "max_moves": self.max_moves,
            "games": {"played": len(self.outcomes), "finished": len(done), "stopped": len(stopped),
                      "errors": len(errors)},
            "seats": [self._seat(seat, done) for seat in range(self.players)],
            "length": {"moves": _spread([o.moves for o in done]), "rounds": _spread([o.rounds for o in done])},
            "first_move": self._first_move(done) if self.players > 1 else None,
            "stop_reasons": dict(Counter(o.stop for o in stopped)),
            "first_errors": [{"seed": o.seed, "message": o.error} for o in errors[:ERRORS_SHOWN]],
            "timing": {"seconds": self.seconds, "games_per_second": len(self.outcomes) / max(self.seconds, 1e-9),
                       "jobs": self.jobs},
        }

    def _seat(self, seat: int, done: list[GameOutcome]) -> dict:
        if self.players == 1:       # a game played alone: nobody to win against, its score is all
            return {"seat": 1, "bot": self.bots[0], "score": _solo_scores([o.final_scores[0] for o in done])}
        places = [o.final_places[seat] for o in done]
        wins = places.count(1)
        ties = sum(1 for o in done if o.final_places[seat] == 1 and o.final_places.count(1) > 1)
        share = sum(1 / o.final_places.count(1) for o in done if o.final_places[seat] == 1)
        scores = [o.final_scores[seat] for o in done]
        score = _spread(scores)
        if score is not None:
            score["stdev"] = statistics.pstdev(scores)
        return {"seat": seat + 1, "bot": self.bots[seat], "wins": wins, "win_rate": _rate(wins, len(done)),
                "win_interval": wilson(wins, len(done)), "ties": ties, "win_share": _rate(share, len(done)),
                "share_interval": wilson(share, len(done)), "average_place": _mean(places), "score": score}

    def _first_move(self, done: list[GameOutcome]) -> dict:
        first_won = sum(1 for o in done if o.first_seat is not None and o.final_places[o.first_seat] == 1)
        p1_won = sum(1 for o in done if o.final_places[0] == 1)
        return {"seat_win_rate": _rate(first_won, len(done)), "fair_share": 1 / self.players,
                "p1_win_rate": _rate(p1_won, len(done))}


def _solo_scores(scores: list) -> dict | None:
    score = _spread(scores)
    if score is not None:
        score.update(median=statistics.median(scores), stdev=statistics.pstdev(scores))
    return score


def _mean(values: list) -> float | None:
    return sum(values) / len(values) if values else None


def _rate(count: float, total: int) -> float | None:
    return count / total if total else None


def _spread(values: list) -> dict | None:
    if not values:
        return None
    return {"mean": _mean(values), "min": min(values), "max": max(values)}


# -- text ------------------------------------------------------------------------------------------

def render_text(report: Report) -> str:
    """The report for people: a headline, a table of seats, then lengths, first move, limits,
    errors and timing."""
    data = report.summary()
    games, last = data["games"], data["seeds"][1]
    lines = [f"{report.game}: {games['played']} games, {_count(report.players, 'player')}, seeds {report.seed} to {last}",
             f"games: {games['played']} played, {games['finished']} finished, "
             f"{games['stopped']} stopped by a limit, {_count(games['errors'], 'error')}", ""]
    lines += _solo_table(data["seats"][0]) if report.players == 1 else _seat_table(data["seats"])
    lines += ["", _length_line(data["length"])]
    lines += [_first_move_line(data["first_move"])] if data["first_move"] else []
    lines += _stops(data["stop_reasons"]) + _errors(data["first_errors"], games["errors"])
    timing = data["timing"]
    lines.append(f"time: {timing['seconds']:.2f} s, {timing['games_per_second']:.1f} games/s, "
                 f"{_count(timing['jobs'], 'job')}")
    return "\n".join(lines)


SEAT_HEADERS = ("seat", "bot", "wins", "win rate", "95% interval", "ties", "win share", "avg place", "mean score",
                "min", "max", "std dev")
LEFT_COLUMNS = 2     # seat and bot are text; the other columns are numbers, aligned right


SOLO_HEADERS = ("seat", "bot", "mean score", "median", "min", "max", "std dev")


def _seat_table(seats: list[dict]) -> list[str]:
    return _aligned([SEAT_HEADERS] + [_seat_row(seat) for seat in seats])


def _solo_table(seat: dict) -> list[str]:
    """One seat alone: its scores."""
    score = seat["score"] or {}
    return _aligned([SOLO_HEADERS, (f"P{seat['seat']}", seat["bot"], _decimal(score.get("mean")),
                                    _number(score.get("median")), _number(score.get("min")),
                                    _number(score.get("max")), _decimal(score.get("stdev")))])


def _aligned(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if i < LEFT_COLUMNS else cell.rjust(w)
                      for i, (cell, w) in enumerate(zip(row, widths))).rstrip() for row in rows]


def _seat_row(seat: dict) -> tuple[str, ...]:
    score = seat["score"] or {}
    return (f"P{seat['seat']}", seat["bot"], str(seat["wins"]), _percent(seat["win_rate"]),
            _interval(seat["win_interval"]), str(seat["ties"]), _percent(seat["win_share"]),
            _decimal(seat["average_place"]), _decimal(score.get("mean")), _number(score.get("min")),
            _number(score.get("max")), _decimal(score.get("stdev")))


def _length_line(length: dict) -> str:
    moves, rounds = length["moves"], length["rounds"]
    if moves is None:
        return "game length: no finished game"
    return (f"game length: {_decimal(moves['mean'])} moves (min {moves['min']}, max {moves['max']}), "
            f"{_decimal(rounds['mean'])} rounds (min {rounds['min']}, max {rounds['max']})")


def _first_move_line(first: dict) -> str:
    return (f"first move: its seat won {_percent(first['seat_win_rate'])} "
            f"(fair share {_percent(first['fair_share'])}); P1 won {_percent(first['p1_win_rate'])}")


def _stops(reasons: dict) -> list[str]:
    return [f"stopped: {count} x {reason}" for reason, count in reasons.items()]


def _errors(first: list[dict], count: int) -> list[str]:
    if not count:
        return []
    shown = f" (the first {len(first)} shown)" if count > len(first) else ""
    lines = [f"errors: {count}{shown}"]
    for error in first:
        message = error["message"].replace("\n", "\n    ")
        lines.append(f"  seed {error['seed']}: {message}")
    return lines


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _percent(rate: float | None) -> str:
    return "-" if rate is None else f"{100 * rate:.1f}%"


def _interval(bounds: list[float] | None) -> str:
    return "-" if bounds is None else f"{100 * bounds[0]:.1f}-{100 * bounds[1]:.1f}%"


def _decimal(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _number(value: int | float | None) -> str:
    return "-" if value is None else f"{value:g}"


# -- plot ------------------------------------------------------------------------------------------

PLOT_EXTRA = "pip install 'tablerules[plot]'"
HISTOGRAM_BINS = 30


def load_pyplot():
    """matplotlib's pyplot drawing to files only, or a clear error naming the extra to install."""
    try:
        import matplotlib
    except ImportError:
        raise RulesError("drawing a plot needs matplotlib, which is not installed",
                         hint=f"install it with: {PLOT_EXTRA}") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot
    return pyplot


def plot_scores(report: Report, path: str) -> None:
    """A histogram of each seat's final scores in the finished games, written to ``path``."""
    pyplot = load_pyplot()
    figure, axes = pyplot.subplots(figsize=(8, 5))
    try:
        every = [s for seat in range(report.players) for s in report.seat_scores(seat)]
        if every:
            low, high = min(every), max(every)
            bins = max(1, min(HISTOGRAM_BINS, int(high - low) + 1))
            span = (low, high) if high > low else (low - 0.5, high + 0.5)
            for seat, kind in enumerate(report.bots):
                axes.hist(report.seat_scores(seat), bins=bins, range=span, alpha=0.5, label=f"P{seat + 1} ({kind})")
            axes.legend()
        axes.set_title(f"{report.game}: final scores in {len(report.finished())} finished games")
        axes.set_xlabel("score")
        axes.set_ylabel("games")
        figure.savefig(path)
    except OSError as error:
        raise RulesError(f"cannot write the plot {path}: {error.strerror}") from None
    except ValueError as error:   # matplotlib's answer to a file type it cannot write
        raise RulesError(f"cannot write the plot {path}: {error}") from None
    finally:
        pyplot.close(figure)
