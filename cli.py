"""The ``rules`` command: a thin click layer over the interpreter's API.

Each command parses its arguments, calls the API, and maps errors to exit codes: 0 success,
1 an error in a game file, record or move, 2 a usage error (click's own). Heavy modules are
imported inside the commands so that ``rules --help`` stays fast.
"""
from __future__ import annotations

import json
import math
import sys

import click

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130
MAX_PLAYERS = 64     # the same as interpreter.limits.MAX_PLAYERS, not imported: `rules --help` stays fast


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


def _game_file(file: str) -> str:
    """A game file as given, or the bundled game of that name (``rules play NAME``)."""
    from interpreter.load.bundled import resolve_game

    return resolve_game(file)


STDIN, STDIN_NAME = "-", "<stdin>"      # a game read from the standard input, and its name in messages


def _load(file: str, options: dict[str, str], engine: str = "compiled"):
    """A game file, a bundled game by name, or ``-``: the game's text read from the standard input."""
    from interpreter.engine.loaded import load_game
    from interpreter.limits import MAX_FILE_BYTES

    if file != STDIN:
        return load_game(_game_file(file), options, engine=engine)
    meta = click.get_current_context().find_root().meta      # read once a command: validate - - is one game
    if "stdin" not in meta:
        meta["stdin"] = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
    return load_game(STDIN_NAME, options, text=meta["stdin"], engine=engine)


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


def _load_for_players(file: str, options: tuple[str, ...], players: int | None, engine: str = "compiled") -> tuple:
    """The game with its options, and the number of players checked against it (default: the game's)."""
    from interpreter.errors import OptionError, RulesError
    from interpreter.tools.simulate import check_players

    try:
        loaded = _load(file, _parse_options(options), engine="compiled" if engine == "lean" else engine)
    except RulesError as error:
        _fail(error)
    players = players or loaded.game.default_players
    try:
        check_players(loaded, players)
    except OptionError as error:
        raise click.BadParameter(error.message, param_hint="'--players'") from None
    return loaded, players


option_flag = click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
                           help="Set a game option (repeatable).")
players_flag = click.option("--players", "-p", type=click.IntRange(1, MAX_PLAYERS),
                            help="Number of players (default: the game's).")
engine_flag = click.option("--engine", type=click.Choice(["lean", "compiled", "reference"]), default="lean",
                           show_default=True, help="lean: the game's own generated module where it covers the game "
                           "(rules show --generated says), else the compiled engine; compiled: expressions "
                           "generated over the general state; reference: the interpreter itself. The same games, "
                           "each slower than the one before.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rules")
def main() -> None:
    """rules: write card and dice games as YAML, check them, and play them."""


@main.command()
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
    given = _parse_options(options)
    report, failed = [], False
    for path in files:
        try:
            # Checking needs no generated code: the reference engine reports the very same errors.
            loaded = _load(path, given, engine="compiled" if games else "reference")
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
                played = f" ({games} random game{'s' if games != 1 else ''} with {counts_text(entry['counts'])})" \
                    if games else ""
                click.echo(f"{entry['file']}: ok{played}")
            if entry["games"]:
                click.echo(failures_report(entry["file"], entry["games"], games, entry["counts"]), err=True)
            for error in entry["errors"]:
                # An error with no place in the file (a bad option) is prefixed with the file's name.
                named = error.pos is not None or entry["file"] in error.message
                click.echo(error.render() if named else f"{entry['file']}: {error.render()}", err=True)
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


def _bot_kind(kind: str | None) -> str | None:
    """A bot kind as written (``search:200``), checked; click shows the reason of a bad one."""
    from interpreter.bots.agents import parse_kind
    from interpreter.errors import OptionError

    if kind is not None:
        try:
            parse_kind(kind)
        except OptionError as error:
            raise click.BadParameter(error.message + (f"; {error.hint}" if error.hint else "")) from None
    return kind


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@players_flag
@click.option("-n", "old_players", type=click.IntRange(1, MAX_PLAYERS), hidden=True,
              help="Deprecated: the number of players; use -p/--players.")
@click.option("--human", default="1", show_default=True, metavar="SEATS",
              help="Seats played by people, from 1, comma-separated; 'none' for bots only.")
@click.option("--bot", "bot_kind", default=None, metavar="KIND", callback=lambda ctx, param, value: _bot_kind(value),
              help="The kind of bot for the other seats: a level (easy, medium, hard), or random, greedy, priority "
                   "or search[:BUDGET] (default: priority when the game lists a bot priority, else greedy).")
@click.option("--bot-speed", type=FiniteFloat(0.01), default=2.0, show_default=True, metavar="SECONDS",
              help="In free play (no turns): how long a bot takes for one action, on average.")
@click.option("--fake-clock", type=FiniteFloat(0.0), metavar="SECONDS",
              help="Free play on a fake clock: each entry (a line typed, a move chosen) takes SECONDS "
                   "(reproducible games).")
@click.option("--seed", type=int, default=None,
              help="Random seed (default: a new one, shown at the end: it gives away the hidden cards).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False),
              help="Write a full record here, for replay: it holds the seed, written when the game ends. "
                   "Never over the game file or a file that is not a record.")
@click.option("--player-record", "player_record_path", type=click.Path(dir_okay=False),
              help="Write a player's record here instead: no seed, and the other seats' private moves in "
                   "their public form, so it shows no hidden card; it cannot be replayed.")
@click.option("--plain", is_flag=True, help="Line mode even on a terminal: the board printed, one entry per line.")
@click.option("--no-color", is_flag=True, help="No colours (NO_COLOR in the environment does the same).")
@option_flag
def play(file: str, players: int | None, old_players: int | None, human: str, bot_kind: str, bot_speed: float,
         fake_clock: float | None, seed: int | None, record_path: str | None, player_record_path: str | None,
         plain: bool, no_color: bool, options: tuple[str, ...]) -> None:
    """Play a game (a file, or a bundled game by name) against bots: a full-screen table on a
    terminal, else the line mode."""
    from interpreter.errors import RulesError
    from interpreter.play import front
    from interpreter.play.terminal import parse_seats

    if old_players is not None:
        if players is not None:
            raise click.UsageError("give the number of players once, with -p/--players")
        click.echo("warning: -n for the number of players is deprecated and will mean the number of games, "
                   "as in simulate; use -p/--players", err=True)
        players = old_players
    if record_path and player_record_path:
        raise click.UsageError("give --record or --player-record, not both")
    try:
        code = front.play(file, _parse_options(options), players, seed, bot_kind, record_path or player_record_path,
                          lambda count: parse_seats(human, count), bot_speed, fake_clock, plain, no_color,
                          full_record=not player_record_path)
    except RulesError as error:
        _fail(error)
    sys.exit(code)


@main.command()
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--game", "game_file", type=click.Path(dir_okay=False),
              help="The game file (default: the one named in the record).")
@click.option("--verbose", "-v", is_flag=True, help="Print every move.")
@format_flags
def replay(record: str, game_file: str | None, verbose: bool, fmt: str, as_json: bool) -> None:
    """Replay a game record move by move and print the result.

    Without --game, the game file is the one the record names: the absolute path it was made
    with, else its path as given, from the current folder, then from the record's folder, else the
    bundled game of that name; the command says which it used."""
    from interpreter.engine.loaded import load_game
    from interpreter.errors import RulesError
    from interpreter.play.records import game_file_of, read_record
    from interpreter.play.records import replay as run_replay
    from interpreter.play.terminal import final_table, unfinished_line

    try:
        rec = read_record(record)
        path, how = (game_file, "--game") if game_file else game_file_of(rec, record)
        if _game_file(path) != path:
            path, how = _game_file(path), "the bundled game of that name"
        loaded = load_game(path, rec.options)
        state = run_replay(loaded.game, rec, loaded.digest())
    except RulesError as error:
        _fail(error)
    if as_json or fmt == "json":
        click.echo(json.dumps(_replay_json(loaded, rec, state, path, how), indent=2))
        return
    click.echo(f"game file: {path} ({how})")
    if verbose:
        for move in rec.moves:
            click.echo(f"P{move['seat'] + 1}: {move['move']}")
    click.echo(f"{rec.game}: {len(rec.moves)} moves replayed, seed {rec.seed}")
    if not state.over:
        click.echo(unfinished_line(loaded, state))
    click.echo(final_table(loaded, state))


def _replay_json(loaded, rec, state, path: str, how: str) -> dict:
    """``rules replay --format json``: the game file used, every move, and the standings."""
    places = loaded.ranking(state)
    return {"game": rec.game, "file": path, "found_by": how, "seed": rec.seed, "players": state.players,
            "moves": [{"seat": move["seat"] + 1, "move": move["move"]} for move in rec.moves],
            "over": state.over, "stop_reason": state.stop_reason, "round": state.round,
            "standings": [{"seat": seat + 1, "place": places[seat], "score": loaded.scores(state)[seat],
                           "result": loaded.results(state)[seat]}
                          for seat in sorted(range(state.players), key=lambda s: places[s])]}


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--resolved", is_flag=True, help="Print the whole spec as YAML, with `extends` applied.")
@click.option("--generated", is_flag=True, help="Print the Python module the lean engine generates for the game "
              "(or why it runs on the compiled engine).")
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
        loaded = _load(file, _parse_options(options))
    except RulesError as error:
        _fail(error)
    if as_json:
        click.echo(json.dumps(summary_json(loaded), indent=2))
    elif resolved:
        click.echo(resolved_yaml(loaded.spec))
    elif generated:
        lean = lean_game(loaded)
        click.echo(lean.program.text() if lean else engine_line(loaded))
    else:
        click.echo(summary(loaded.spec) + "\n" + engine_line(loaded))


@main.command("games")
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
        _fail(error)
    if not specs:
        click.echo("no bundled games found (the package's rules_games data is missing)", err=True)
        sys.exit(EXIT_ERROR)
    click.echo(json.dumps(games_json(specs), indent=2) if as_json or fmt == "json" else games_listing(specs))


@main.command("schema")
@click.option("--scenario", is_flag=True, help="The schema of scenario files instead of game files.")
def schema_command(scenario: bool) -> None:
    """Print the JSON Schema of game files, for editors: save it and point a file to it with
    `# yaml-language-server: $schema=PATH`."""
    from importlib import resources

    name = "scenario.schema.json" if scenario else "game.schema.json"
    text = resources.files("interpreter.load.schema").joinpath(name).read_text(encoding="utf-8")
    click.echo(text.rstrip("\n"))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many games to play.")
@players_flag
@click.option("--bot", "bot", multiple=True, metavar="KIND",
              help="A bot kind (easy, medium, hard, random, greedy, priority, search[:BUDGET]), repeatable: seat 1 "
                   "gets the first, "
                   "seat 2 the second, ...; a list shorter than the seats starts again from its first.")
@click.option("--bots", "bots", metavar="KIND,...",
              help="Bot kinds, comma-separated, seat by seat; a list shorter than the seats repeats.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed + i.")
@click.option("--jobs", "-j", type=click.IntRange(min=0), default=1, show_default=True,
              help="Processes to play in; 0: one per CPU. The results do not depend on it.")
@click.option("--backend", type=click.Choice(["processes", "ray"]), default="processes", show_default=True,
              help="Play the games in local processes, or as tasks on a Ray cluster, which then decides how "
                   "many run at once (needs: pip install 'rules[ray]'). The results do not depend on it.")
@click.option("--address", metavar="ADDRESS",
              help="With --backend ray: the cluster to use (default: Ray's choice: $RAY_ADDRESS, a Ray "
                   "already running here, or a new local one).")
@click.option("--max-moves", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Stop a game still running after this many moves (counted as stopped by a limit).")
@option_flag
@format_flags
@engine_flag
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), metavar="FILE.png",
              help="Also draw a histogram of each seat's scores (needs: pip install 'rules[plot]').")
def simulate(file: str, games: int, players: int | None, bot: tuple[str, ...], bots: str | None,
             seed: int, jobs: int, backend: str, address: str | None, max_moves: int, options: tuple[str, ...],
             engine: str, fmt: str, as_json: bool, plot_path: str | None) -> None:
    """Play many games between bots and report wins, places, scores and game lengths (of a file,
    a bundled game by name, or - for a game on the standard input).

    Exits with 1 when a game raised an error (the run still goes on and reports it)."""
    as_json = as_json or fmt == "json"
    from contextlib import nullcontext

    from interpreter.errors import OptionError, RulesError
    from interpreter.tools.simulate import bot_kinds
    from interpreter.tools.simulate import simulate as run_games
    from interpreter.tools.simulate_report import load_pyplot, plot_scores, render_text

    if bot and bots:
        raise click.UsageError("give the bots with --bot or with --bots, not both")
    if address is not None and backend != "ray":
        raise click.UsageError("--address is for --backend ray")
    if jobs != 1 and backend == "ray":
        raise click.UsageError("--jobs is for --backend processes: with --backend ray, Ray decides how many "
                               "games run at once")
    loaded, players = _load_for_players(file, options, players, engine)
    if plot_path:
        try:
            load_pyplot()       # before the run, not after it
        except RulesError as error:
            _fail(error)
    kinds = [k.strip() for k in bots.split(",")] if bots else list(bot) or ["random"]
    try:
        kinds = bot_kinds(kinds, players)
    except OptionError as error:
        hint = f"; {error.hint}" if error.hint else ""
        raise click.BadParameter(error.message + hint, param_hint="'--bots'" if bots else "'--bot'") from None
    show_bar = sys.stderr.isatty() and not as_json      # on stderr: the report alone goes to stdout
    try:
        with click.progressbar(length=games, label="simulating", file=sys.stderr) if show_bar \
                else nullcontext() as bar:
            report = run_games(loaded, games, players, kinds, seed, jobs, max_moves,
                               on_game=(lambda: bar.update(1)) if bar else None, backend=backend, address=address,
                               lean=engine == "lean")
    except OptionError as error:
        raise click.UsageError(error.message + (f"; {error.hint}" if error.hint else "")) from None
    except RulesError as error:     # Ray out of reach, or lost during the run
        _fail(error)
    except KeyboardInterrupt:
        click.echo("\ninterrupted; no report.", err=True)
        sys.exit(EXIT_INTERRUPTED)
    click.echo(json.dumps(report.summary(), indent=2) if as_json else render_text(report))
    if plot_path:
        try:
            plot_scores(report, plot_path)
        except RulesError as error:
            _fail(error)
    sys.exit(EXIT_ERROR if any(game.error for game in report.outcomes) else 0)


@main.command("test")
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

    run = run_scenarios(_game_file(game), list(scenario_files), _parse_options(options), keyword)
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


@main.command("bench")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--games", "-n", type=click.IntRange(min=1), default=20, show_default=True,
              help="Random playouts in each timed run.")
@click.option("--runs", "-r", type=click.IntRange(min=1), default=5, show_default=True,
              help="Timed runs; the median is reported.")
@players_flag
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed + i.")
@click.option("--baseline", metavar="NAME", help="Also measure a hand-written baseline: a name in "
              "benchmarks/baselines/ or a .py file.")
@format_flags
@option_flag
@engine_flag
def bench_command(file: str, games: int, runs: int, players: int | None, seed: int, baseline: str | None,
                  fmt: str, as_json: bool, options: tuple[str, ...], engine: str) -> None:
    """Measure random playouts: playouts per second, microseconds per move, peak memory."""
    as_json = as_json or fmt == "json"
    from interpreter.errors import OptionError, RulesError
    from interpreter.tools.bench import (
        bench,
        check_baseline_players,
        find_baseline,
        load_baseline,
        render_text,
    )

    loaded, players = _load_for_players(file, options, players, engine)
    try:
        module = load_baseline(find_baseline(baseline, file)) if baseline else None
        if module is not None:
            check_baseline_players(module, players)
    except OptionError as error:
        hint = f"; {error.hint}" if error.hint else ""
        raise click.BadParameter(error.message + hint, param_hint="'--baseline'") from None
    try:
        report = bench(loaded, games, runs, players, seed, module, lean=engine == "lean")
    except RulesError as error:
        _fail(error)
    click.echo(json.dumps(report.to_json(), indent=2) if as_json else render_text(report))

SERVE_EXTRA = "pip install 'rules[serve]'"


def _need_serve_extra(command: str, modules: tuple[str, ...], extra: str = SERVE_EXTRA) -> None:
    """The server's packages are an optional extra: say how to get them instead of a traceback."""
    import importlib.util

    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        click.echo(f"error: rules {command} needs {', '.join(missing)}: {extra}", err=True)
        sys.exit(EXIT_ERROR)


def _seat_list(text: str | None) -> set[int]:
    """``"2,3"`` -> {1, 2}; seats are checked against the table when it is made."""
    if not text or text.strip().lower() == "none":
        return set()
    try:
        return {int(part) - 1 for part in text.split(",")}
    except ValueError:
        raise click.BadParameter(f"seat numbers like 2,3, not '{text}'", param_hint="'--bots'") from None


@main.command("serve")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every network of this machine; see docs/serve.md).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--seats", type=click.IntRange(1, 64), help="Number of seats (default: the game's).")
@click.option("--bots", "bot_seats", metavar="SEATS", help="Seats played by bots, from 1, comma-separated.")
@click.option("--bot", "bot_kind", default=None, metavar="KIND", callback=lambda ctx, param, value: _bot_kind(value),
              help="The kind of bot at those seats: a level (easy, medium, hard) or a kind as for play "
                   "(default: priority when the game lists one, else greedy).")
@click.option("--bot-speed", type=click.FloatRange(min=0.01), default=2.0, show_default=True, metavar="SECONDS",
              help="In free play: how long a bot takes for one action, on average.")
@click.option("--seed", type=int, default=None, help="Random seed (default: a new one, never shown to players).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False),
              help="The table's record (default: rules-table-ID.jsonl here).")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False),
              help="Restore the table of this record (and its .seats file) and go on recording there.")
@option_flag
def serve_command(file: str | None, host: str, port: int, seats: int | None, bot_seats: str | None,
                  bot_kind: str | None, bot_speed: float, seed: int | None, record_path: str | None,
                  resume_path: str | None, options: tuple[str, ...]) -> None:
    """Host a table: people join from a browser (or rules join) with their seat's link."""
    from interpreter.errors import RulesError

    if (file is None) == (resume_path is None):
        raise click.UsageError("give a game file, or --resume RECORD")
    _need_serve_extra("serve", ("starlette", "uvicorn", "websockets"))
    from interpreter.play.serve.registry import Tables, new_table_id
    from interpreter.play.serve.runner import serve

    tables = Tables()
    try:
        if resume_path:
            table = tables.resume(resume_path, warn=lambda text: click.echo(f"warning: {text}", err=True))
        else:
            table_id = new_table_id()
            table = tables.create(file, _parse_options(options), seats, _seat_list(bot_seats), bot_kind, bot_speed,
                                  seed, record_path=record_path or f"rules-table-{table_id}.jsonl", table_id=table_id)
    except RulesError as error:
        _fail(error)
    base = f"http://{host}:{port}/t/{table.id}"
    click.echo(f"{table.loaded.name}: {table.session.players} seats; the record is {table.session.record.path}")
    for seat in table.people:
        click.echo(f"  P{seat + 1}: {base}#token={table.tokens.token(seat)}")
    click.echo(f"  spectators: {base}")
    if host in ("0.0.0.0", "::"):
        click.echo("  (in the links, put this machine's address on your network in place of the host)")
    serve(tables, host, port)


@main.command("lsp")
def lsp_command() -> None:
    """A language server for game files, on stdin and stdout: an editor shows every error as you
    type, what a name is, and the names that complete a word (docs/authoring.md, "In an editor")."""
    _need_serve_extra("lsp", ("pygls", "lsprotocol"), "pip install 'rules[lsp]'")
    from interpreter.tools.lsp import run

    run()


@main.command("join")
@click.argument("url")
@click.option("--name", help="Your name at the table (at most 24 characters).")
@click.option("--no-color", is_flag=True, help="No colours (NO_COLOR in the environment does the same).")
def join_command(url: str, name: str | None, no_color: bool) -> None:
    """Play a seat of a table served by rules serve, in this terminal (the seat's link as URL)."""
    from interpreter.errors import RulesError

    _need_serve_extra("join", ("websockets",))
    from interpreter.play.front import wants_color
    from interpreter.play.serve.join import join

    try:
        code = join(url, color=wants_color(no_color), name=name)
    except RulesError as error:
        _fail(error)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()

