"""What the commands share: exit codes, errors to messages, game files and options, and the
flags several commands take with the same meaning.

Nothing here imports more than click at module level: the interpreter's modules are imported
inside the functions, so that ``rules --help`` stays fast.
"""
from __future__ import annotations

import math
import sys

import click

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130
MAX_PLAYERS = 64     # the same as interpreter.limits.MAX_PLAYERS, not imported: `rules --help` stays fast
SERVE_EXTRA = "pip install 'tablerules[serve]'"


def fail(error: Exception) -> None:
    click.echo(error.render() if hasattr(error, "render") else str(error), err=True)
    sys.exit(EXIT_ERROR)


def parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"'{pair}' is not name=value", param_hint="--option")
        options[name.strip()] = value.strip()
    return options


def find_game(file: str) -> str:
    """A game file as given, or the bundled game of that name (``rules play NAME``)."""
    from interpreter.load.bundled import resolve_game

    return resolve_game(file)


STDIN, STDIN_NAME = "-", "<stdin>"      # a game read from the standard input, and its name in messages


def load(file: str, options: dict[str, str]):
    """A game file, a bundled game by name, or ``-``: the game's text read from the standard input."""
    from interpreter.engine.loaded import load_game
    from interpreter.limits import MAX_FILE_BYTES

    if file != STDIN:
        return load_game(find_game(file), options)
    meta = click.get_current_context().find_root().meta      # read once a command: validate - - is one game
    if "stdin" not in meta:
        meta["stdin"] = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    return load_game(STDIN_NAME, options, text=meta["stdin"])


def load_for_players(file: str, options: tuple[str, ...], players: int | None) -> tuple:
    """The game with its options, and the number of players checked against it (default: the game's)."""
    from interpreter.errors import OptionError, RulesError
    from interpreter.tools.simulate import check_players

    try:
        loaded = load(file, parse_options(options))
    except RulesError as error:
        fail(error)
    players = players or loaded.game.default_players
    try:
        check_players(loaded, players)
    except OptionError as error:
        raise click.BadParameter(error.message, param_hint="'--players'") from None
    return loaded, players


def check_bot_kind(kind: str | None) -> str | None:
    """A bot kind as written (``search:200``), checked; click shows the reason of a bad one."""
    from interpreter.bots.agents import parse_kind
    from interpreter.errors import OptionError

    if kind is not None:
        try:
            parse_kind(kind)
        except OptionError as error:
            raise click.BadParameter(error.message + (f"; {error.hint}" if error.hint else "")) from None
    return kind


def need_extra(command: str, modules: tuple[str, ...], extra: str = SERVE_EXTRA) -> None:
    """The server's packages are an optional extra: say how to get them instead of a traceback."""
    import importlib.util

    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        click.echo(f"error: rules {command} needs {', '.join(missing)}: {extra}", err=True)
        sys.exit(EXIT_ERROR)


class FiniteFloat(click.ParamType):
    """A number of seconds: finite (not nan, not inf) and at least ``min``."""

    name = "seconds"

    def __init__(self, minimum: float):
        self.minimum = minimum

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            return value
        try:
            number = float(value)
        except ValueError:
            self.fail(f"'{value}' is not a number", param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value} is not a finite number of seconds", param, ctx)
        if number < self.minimum:
            self.fail(f"{value} is below the smallest value, {self.minimum:g}", param, ctx)
        return number


def format_flags(command):
    """``--format text|json`` and its short form ``--json``, the same on every command."""
    command = click.option("--json", "as_json", is_flag=True, help="The same as --format json.")(command)
    return click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
                        help="How to report: for people, or JSON for editors, scripts and CI.")(command)


option_flag = click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
                           help="Set a game option (repeatable).")
players_flag = click.option("--players", "-p", type=click.IntRange(1, MAX_PLAYERS),
                            help="Number of players (default: the game's).")
engine_flag = click.option("--engine", type=click.Choice(["lean", "reference"]), default="lean",
                           show_default=True, help="lean: the game's own generated module where it covers the game "
                           "(rules show --generated says), else the reference; reference: the interpreter itself, "
                           "over the general state. The same games, the reference the slower.")
