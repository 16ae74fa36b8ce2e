"""The author's commands: ``validate``, ``show``, ``games``, ``schema``, ``test`` and ``lsp``:
check a game file, describe it, list the bundled games, give the schema to editors, run a
game's scenarios, and serve an editor as a language server."""
from __future__ import annotations

import json
import sys
from typing import Any

import click

from .common import (
    EXIT_ERROR,
    MAX_PLAYERS,
    STDIN,
    STDIN_NAME,
    fail,
    find_game,
    format_flags,
    load,
    need_extra,
    option_flag,
    parse_options,
)


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False))
@format_flags
@option_flag
@click.option("--simulate", "games", type=click.IntRange(min=0), default=0, metavar="N",
              help="Also play N random games (seeds 0 to N-1) of each valid file, at every player count "
                   "it allows (or -p's): any error, stalled game or game that does not end fails the check.")
@click.option("--players", "-p", type=click.IntRange(1, MAX_PLAYERS),
              help="With --simulate: play at this number of players only.")
def validate(files: tuple[str, ...], fmt: str, as_json: bool, options: tuple[str, ...], games: int,
             players: int | None) -> None:
    """Check game files (or bundled games by name, or - for a game on the standard input) and
    report every error as file:line:col."""
    from interpreter.errors import RulesError, flatten

    fmt = "json" if as_json else fmt
    if players is not None and not games:
        raise click.UsageError("-p/--players goes with --simulate N")
    if games:       # the tools to play games are loaded only when asked for
        from interpreter.tools.simulate import (
            counts_text,
            failure_text,
            failures_report,
            player_counts,
            playing_failures,
        )
    given = parse_options(options)
    report: list[dict[str, Any]] = []
    failed = False
    for path in files:
        try:
            loaded = load(path, given)
            counts = player_counts(loaded, players) if games else []
            played = playing_failures(loaded, games, players) if games else []
            failed = failed or bool(played)
            report.append({"file": STDIN_NAME if path == STDIN else path, "ok": not played, "errors": [],
                           "games": played, "counts": counts})
        except RulesError as error:
            failed = True
            report.append({"file": STDIN_NAME if path == STDIN else path, "ok": False, "errors": flatten([error]),
                           "games": [], "counts": []})
    if fmt == "json":
        click.echo(json.dumps([{"file": r["file"], "ok": r["ok"],
                                "errors": [{"file": r["file"], **e.to_dict()} for e in r["errors"]],
                                **({"players": r["counts"],
                                    "games": [{"seed": o.seed, "players": o.players, "message": failure_text(o)}
                                              for o in r["games"]]} if games else {})}
                               for r in report], indent=2))
    else:
        for entry in report:
            if entry["ok"]:
                tried = f" ({games} random game{'s' if games != 1 else ''} with {counts_text(entry['counts'])})" \
                    if games else ""
                click.echo(f"{entry['file']}: ok{tried}")
            if entry["games"]:
                click.echo(failures_report(entry["file"], entry["games"], games, entry["counts"]), err=True)
            for problem in entry["errors"]:
                # An error with no place in the file (a bad option) is prefixed with the file's name.
                named = problem.pos is not None or entry["file"] in problem.message
                click.echo(problem.render() if named else f"{entry['file']}: {problem.render()}", err=True)
        if failed:
            click.echo(_error_summary(report), err=True)
    sys.exit(EXIT_ERROR if failed else 0)


def _error_summary(report: list[dict]) -> str:
    count = sum(len(r["errors"]) for r in report)
    games = sum(len(r["games"]) for r in report)
    bad = sum(1 for r in report if not r["ok"])
    files = "1 file" if len(report) == 1 else f"{bad} of {len(report)} files"
    found = [f"{count} error{'s' if count != 1 else ''}"] if count or not games else []
    found += [f"{games} failed random game{'s' if games != 1 else ''}"] if games else []
    return f"{' and '.join(found)} in {files}"


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--resolved", is_flag=True, help="Print the whole spec as YAML, with `extends` applied.")
@click.option("--generated", is_flag=True, help="Print the Python module the lean engine generates for the game "
              "(or why it runs on the reference engine).")
@option_flag
@format_flags
def show(file: str, resolved: bool, generated: bool, options: tuple[str, ...], fmt: str, as_json: bool) -> None:
    """Describe a game (a file, a bundled game by name, or - for the standard input): players,
    options, phases and moves, and the engine that runs it."""
    from interpreter.errors import RulesError
    from interpreter.lean import lean_game
    from interpreter.tools.describe import (
        engine_line,
        resolved_yaml,
        summary,
        summary_json,
    )

    if resolved and generated:
        raise click.UsageError("give --resolved or --generated, not both")
    as_json = as_json or fmt == "json"
    if as_json and (resolved or generated):
        raise click.UsageError("--format json describes the game: not with --resolved or --generated")
    try:
        loaded = load(file, parse_options(options))
    except RulesError as error:
        fail(error)
    if as_json:
        click.echo(json.dumps(summary_json(loaded), indent=2))
    elif resolved:
        click.echo(resolved_yaml(loaded.spec))
    elif generated:
        lean = lean_game(loaded)
        click.echo(lean.program.text() if lean else engine_line(loaded))
    else:
        click.echo(summary(loaded.spec) + "\n" + engine_line(loaded))


@click.command("games")
@format_flags
def games_command(fmt: str, as_json: bool) -> None:
    """List the bundled games: play, show or simulate them by name from any folder (rules play NAME)."""
    from interpreter.errors import RulesError
    from interpreter.load.bundled import bundled_games
    from interpreter.load.spec import read_spec
    from interpreter.tools.describe import games_json, games_listing

    try:
        specs = [(name, read_spec(path, {})) for name, path in bundled_games().items()]
    except RulesError as error:
        fail(error)
    if not specs:
        click.echo("no bundled games found (the package's rules_games data is missing)", err=True)
        sys.exit(EXIT_ERROR)
    click.echo(json.dumps(games_json(specs), indent=2) if as_json or fmt == "json" else games_listing(specs))


@click.command("schema")
@click.option("--scenario", is_flag=True, help="The schema of scenario files instead of game files.")
def schema_command(scenario: bool) -> None:
    """Print the JSON Schema of game files, for editors: save it and point a file to it with
    `# yaml-language-server: $schema=PATH`."""
    from importlib import resources

    name = "scenario.schema.json" if scenario else "game.schema.json"
    text = resources.files("interpreter.load.schema").joinpath(name).read_text(encoding="utf-8")
    click.echo(text.rstrip("\n"))


@click.command("test")
@click.argument("game", type=click.Path(dir_okay=False))
@click.argument("scenario_files", nargs=-1, type=click.Path(dir_okay=False))
@click.option("-k", "keyword", metavar="TEXT", help="Run only the scenarios whose name contains TEXT.")
@option_flag
@format_flags
@click.option("--junit-xml", "junit_path", type=click.Path(dir_okay=False), metavar="FILE",
              help="Also write a JUnit XML report to FILE, for CI.")
def run_tests(game: str, scenario_files: tuple[str, ...], keyword: str | None, options: tuple[str, ...],
              fmt: str, as_json: bool, junit_path: str | None) -> None:
    """Run a game's scenario tests: those in the game file and in the given files."""
    from interpreter.tools.scenario_report import junit_xml, run_json
    from interpreter.tools.scenario_run import Outcome, run_scenarios

    run = run_scenarios(find_game(game), list(scenario_files), parse_options(options), keyword)
    if junit_path:
        try:
            with open(junit_path, "w", encoding="utf-8") as stream:
                stream.write(junit_xml(run, game))
        except OSError as error:
            click.echo(f"error: cannot write {junit_path}: {error.strerror or error}", err=True)
            sys.exit(EXIT_ERROR)
    if as_json or fmt == "json":
        click.echo(json.dumps(run_json(run, game), indent=2))
        sys.exit(0 if run.ok else EXIT_ERROR)
    for result in run.results:
        click.echo(result.render(), err=not isinstance(result, Outcome))
    if not run.results:
        click.echo("no scenarios to run" + (f" matching '{keyword}'" if keyword else ""), err=True)
    click.echo(run.summary())
    sys.exit(0 if run.ok else EXIT_ERROR)


@click.command("lsp")
def lsp_command() -> None:
    """A language server for game files, on stdin and stdout: an editor shows every error as you
    type, what a name is, and the names that complete a word (docs/authoring.md, "In an editor")."""
    need_extra("lsp", ("pygls", "lsprotocol"), "pip install 'tablerules[lsp]'")
    from interpreter.tools.lsp import run

    run()
