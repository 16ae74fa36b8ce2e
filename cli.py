"""The ``rules`` command: a thin click layer over the interpreter's API.

Each command parses its arguments, calls the API, and maps errors to exit codes: 0 success,
1 an error in a game file, record or move, 2 a usage error (click's own). Heavy modules are
imported inside the commands so that ``rules --help`` stays fast.
"""
from __future__ import annotations

import json
import sys
import click

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130


def _fail(error: Exception) -> None:
    click.echo(error.render() if hasattr(error, "render") else str(error), err=True)
    sys.exit(EXIT_ERROR)


def _parse_options(pairs: tuple[str, ...]) -> dict[str, str]:
    options = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise click.BadParameter(f"'{pair}' is not name=value", param_hint="--option")
        options[name.strip()] = value.strip()
    return options


option_flag = click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
                           help="Set a game option (repeatable).")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rules")
def main() -> None:
    """rules: write card and dice games as YAML, check them, and play them."""


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="How to report: for people, or JSON for editors and CI.")
@option_flag
def validate(files: tuple[str, ...], fmt: str, options: tuple[str, ...]) -> None:
    """Check game files and report every error as file:line:col."""
    from interpreter.api import load_game
    from interpreter.errors import RulesError, flatten

    given = _parse_options(options)
    report, failed = [], False
    for path in files:
        try:
            load_game(path, given)
            report.append({"file": path, "ok": True, "errors": []})
        except RulesError as error:
            failed = True
            report.append({"file": path, "ok": False, "errors": flatten([error])})
    if fmt == "json":
        click.echo(json.dumps([{**r, "errors": [e.to_dict() for e in r["errors"]]} for r in report], indent=2))
    else:
        for entry in report:
            if entry["ok"]:
                click.echo(f"{entry['file']}: ok")
            for error in entry["errors"]:
                click.echo(error.render(), err=True)
        count = sum(len(r["errors"]) for r in report)
        if failed:
            click.echo(f"{count} error{'s' if count != 1 else ''} in "
                       f"{sum(1 for r in report if not r['ok'])} of {len(report)} files", err=True)
    sys.exit(EXIT_ERROR if failed else 0)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--players", "-n", type=click.IntRange(1, 64), help="Number of players (default: the game's).")
@click.option("--human", default="1", show_default=True, metavar="SEATS",
              help="Seats played by people, from 1, comma-separated; 'none' for bots only.")
@click.option("--bot", "bot_kind", type=click.Choice(["random", "greedy"]), default="greedy", show_default=True,
              help="The kind of bot for the other seats.")
@click.option("--seed", type=int, default=None, help="Random seed (default: a new one, shown at the start).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), help="Write the game record here.")
@option_flag
def play(file: str, players: int | None, human: str, bot_kind: str, seed: int | None,
         record_path: str | None, options: tuple[str, ...]) -> None:
    """Play a game in the terminal against bots."""
    from interpreter.errors import RulesError
    from interpreter.terminal import TerminalGame, parse_seats

    try:
        session = TerminalGame.open(file, _parse_options(options), players, seed, bot_kind, record_path)
        session.humans = parse_seats(human, session.players)
    except RulesError as error:
        _fail(error)
    sys.exit(session.run())


@main.command()
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--game", "game_file", type=click.Path(dir_okay=False),
              help="The game file (default: the one named in the record).")
@click.option("--verbose", "-v", is_flag=True, help="Print every move.")
def replay(record: str, game_file: str | None, verbose: bool) -> None:
    """Replay a game record move by move and print the result."""
    from interpreter.api import load_game
    from interpreter.errors import RulesError
    from interpreter.records import read_record, replay as run_replay
    from interpreter.terminal import final_table

    try:
        rec = read_record(record)
        loaded = load_game(game_file or rec.file, rec.options)
        state = run_replay(loaded.game, rec, loaded.digest())
    except RulesError as error:
        _fail(error)
    if verbose:
        for move in rec.moves:
            click.echo(f"P{move['seat'] + 1}: {move['move']}")
    click.echo(f"{rec.game}: {len(rec.moves)} moves replayed, seed {rec.seed}")
    click.echo(final_table(loaded, state))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--resolved", is_flag=True, help="Print the whole spec as YAML, with `extends` applied.")
@option_flag
def show(file: str, resolved: bool, options: tuple[str, ...]) -> None:
    """Describe a game: players, options, phases and moves."""
    from interpreter.describe import resolved_yaml, summary
    from interpreter.errors import RulesError
    from interpreter.spec import read_spec

    try:
        spec = read_spec(file, _parse_options(options))
    except RulesError as error:
        _fail(error)
    click.echo(resolved_yaml(spec) if resolved else summary(spec))


if __name__ == "__main__":  # pragma: no cover
    main()

