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


def _load_for_players(file: str, options: tuple[str, ...], players: int | None) -> tuple:
    """The game with its options, and the number of players checked against it (default: the game's)."""
    from interpreter.engine.loaded import load_game
    from interpreter.errors import OptionError, RulesError
    from interpreter.tools.simulate import check_players

    try:
        loaded = load_game(file, _parse_options(options))
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
    from interpreter.engine.loaded import load_game
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
        click.echo(json.dumps([{**r, "errors": [{"file": r["file"], **e.to_dict()} for e in r["errors"]]}
                               for r in report], indent=2))
    else:
        for entry in report:
            if entry["ok"]:
                click.echo(f"{entry['file']}: ok")
            for error in entry["errors"]:
                # An error with no place in the file (a bad option) is prefixed with the file's name.
                named = error.pos is not None or entry["file"] in error.message
                click.echo(error.render() if named else f"{entry['file']}: {error.render()}", err=True)
        if failed:
            click.echo(_error_summary(report), err=True)
    sys.exit(EXIT_ERROR if failed else 0)


def _error_summary(report: list[dict]) -> str:
    count = sum(len(r["errors"]) for r in report)
    bad = sum(1 for r in report if not r["ok"])
    files = "1 file" if len(report) == 1 else f"{bad} of {len(report)} files"
    return f"{count} error{'s' if count != 1 else ''} in {files}"


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
@click.option("--players", "-n", type=click.IntRange(1, 64), help="Number of players (default: the game's).")
@click.option("--human", default="1", show_default=True, metavar="SEATS",
              help="Seats played by people, from 1, comma-separated; 'none' for bots only.")
@click.option("--bot", "bot_kind", default=None, metavar="KIND", callback=lambda ctx, param, value: _bot_kind(value),
              help="The kind of bot for the other seats: random, greedy, priority or search[:BUDGET] "
                   "(default: priority when the game lists a bot priority, else greedy).")
@click.option("--bot-speed", type=click.FloatRange(min=0.01), default=2.0, show_default=True, metavar="SECONDS",
              help="In free play (no turns): how long a bot takes for one action, on average.")
@click.option("--fake-clock", type=click.FloatRange(min=0.0), metavar="SECONDS",
              help="Free play on a fake clock: each entry (a line typed, a move chosen) takes SECONDS "
                   "(reproducible games).")
@click.option("--seed", type=int, default=None, help="Random seed (default: a new one, shown at the start).")
@click.option("--record", "record_path", type=click.Path(dir_okay=False), help="Write the game record here.")
@click.option("--plain", is_flag=True, help="Line mode even on a terminal: the board printed, one entry per line.")
@click.option("--no-color", is_flag=True, help="No colours (NO_COLOR in the environment does the same).")
@option_flag
def play(file: str, players: int | None, human: str, bot_kind: str, bot_speed: float, fake_clock: float | None,
         seed: int | None, record_path: str | None, plain: bool, no_color: bool, options: tuple[str, ...]) -> None:
    """Play a game against bots: a full-screen table on a terminal, else the line mode."""
    from interpreter.errors import RulesError
    from interpreter.play import front
    from interpreter.play.terminal import parse_seats

    try:
        code = front.play(file, _parse_options(options), players, seed, bot_kind, record_path,
                          lambda count: parse_seats(human, count), bot_speed, fake_clock, plain, no_color)
    except RulesError as error:
        _fail(error)
    sys.exit(code)


@main.command()
@click.argument("record", type=click.Path(dir_okay=False))
@click.option("--game", "game_file", type=click.Path(dir_okay=False),
              help="The game file (default: the one named in the record).")
@click.option("--verbose", "-v", is_flag=True, help="Print every move.")
def replay(record: str, game_file: str | None, verbose: bool) -> None:
    """Replay a game record move by move and print the result."""
    from interpreter.engine.loaded import load_game
    from interpreter.errors import RulesError
    from interpreter.play.records import read_record
    from interpreter.play.records import replay as run_replay
    from interpreter.play.terminal import final_table

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
    from interpreter.errors import RulesError
    from interpreter.load.spec import read_spec
    from interpreter.tools.describe import resolved_yaml, summary

    try:
        spec = read_spec(file, _parse_options(options))
    except RulesError as error:
        _fail(error)
    click.echo(resolved_yaml(spec) if resolved else summary(spec))


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--games", "-n", type=click.IntRange(min=1), default=100, show_default=True,
              help="How many games to play.")
@click.option("--players", type=click.IntRange(1, 64), help="Number of players (default: the game's).")
@click.option("--bot", "bot", multiple=True, metavar="KIND",
              help="A bot kind (random, greedy, priority, search[:BUDGET]): once for every seat, or "
                   "repeated once per seat.")
@click.option("--bots", "bots", metavar="KIND,...", help="Bot kinds, comma-separated: one for every seat or one per seat.")
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
@click.option("--json", "as_json", is_flag=True, help="Print the full report as JSON, and nothing else.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), metavar="FILE.png",
              help="Also draw a histogram of each seat's scores (needs: pip install 'rules[plot]').")
def simulate(file: str, games: int, players: int | None, bot: tuple[str, ...], bots: str | None,
             seed: int, jobs: int, backend: str, address: str | None, max_moves: int, options: tuple[str, ...],
             as_json: bool, plot_path: str | None) -> None:
    """Play many games between bots and report wins, places, scores and game lengths.

    Exits with 1 when a game raised an error (the run still goes on and reports it)."""
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
    loaded, players = _load_for_players(file, options, players)
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
    show_bar = sys.stdout.isatty() and not as_json
    try:
        with click.progressbar(length=games, label="simulating") if show_bar else nullcontext() as bar:
            report = run_games(loaded, games, players, kinds, seed, jobs, max_moves,
                               on_game=(lambda: bar.update(1)) if bar else None, backend=backend, address=address)
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
def run_tests(game: str, scenario_files: tuple[str, ...], keyword: str | None, options: tuple[str, ...]) -> None:
    """Run a game's scenario tests: those in the game file and in the given files."""
    from interpreter.tools.scenario_run import Outcome, run_scenarios

    run = run_scenarios(game, list(scenario_files), _parse_options(options), keyword)
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
@click.option("--players", type=click.IntRange(1, 64), help="Number of players (default: the game's).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed + i.")
@click.option("--baseline", metavar="NAME", help="Also measure a hand-written baseline: a name in "
              "benchmarks/baselines/ or a .py file.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON, and nothing else.")
@option_flag
def bench_command(file: str, games: int, runs: int, players: int | None, seed: int, baseline: str | None,
                  as_json: bool, options: tuple[str, ...]) -> None:
    """Measure random playouts: playouts per second, microseconds per move, peak memory."""
    from interpreter.errors import OptionError, RulesError
    from interpreter.tools.bench import (
        bench,
        check_baseline_players,
        find_baseline,
        load_baseline,
        render_text,
    )

    loaded, players = _load_for_players(file, options, players)
    try:
        module = load_baseline(find_baseline(baseline, file)) if baseline else None
        if module is not None:
            check_baseline_players(module, players)
    except OptionError as error:
        hint = f"; {error.hint}" if error.hint else ""
        raise click.BadParameter(error.message + hint, param_hint="'--baseline'") from None
    try:
        report = bench(loaded, games, runs, players, seed, module)
    except RulesError as error:
        _fail(error)
    click.echo(json.dumps(report.to_json(), indent=2) if as_json else render_text(report))

SERVE_EXTRA = "pip install 'rules[serve]'"


def _need_serve_extra(command: str, modules: tuple[str, ...]) -> None:
    """The server's packages are an optional extra: say how to get them instead of a traceback."""
    import importlib.util

    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        click.echo(f"error: rules {command} needs {', '.join(missing)}: {SERVE_EXTRA}", err=True)
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
              help="The kind of bot at those seats (default: priority when the game lists one, else greedy).")
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
            table = tables.resume(resume_path)
        else:
            table_id = new_table_id()
            table = tables.create(file, _parse_options(options), seats, _seat_list(bot_seats), bot_kind, bot_speed,
                                  seed, record_path=record_path or f"rules-table-{table_id}.jsonl", table_id=table_id)
    except RulesError as error:
        _fail(error)
    base = f"http://{host}:{port}/t/{table.id}"
    click.echo(f"{table.loaded.name}: {table.session.players} seats; the record is {table.session.record.stream.name}")
    for seat in table.people:
        click.echo(f"  P{seat + 1}: {base}#token={table.tokens.token(seat)}")
    click.echo(f"  spectators: {base}")
    if host in ("0.0.0.0", "::"):
        click.echo("  (in the links, put this machine's address on your network in place of the host)")
    serve(tables, host, port)


@main.command("join")
@click.argument("url")
@click.option("--no-color", is_flag=True, help="No colours (NO_COLOR in the environment does the same).")
def join_command(url: str, no_color: bool) -> None:
    """Play a seat of a table served by rules serve, in this terminal (the seat's link as URL)."""
    from interpreter.errors import RulesError

    _need_serve_extra("join", ("websockets",))
    from interpreter.play.front import wants_color
    from interpreter.play.serve.join import join

    try:
        code = join(url, color=wants_color(no_color))
    except RulesError as error:
        _fail(error)
    sys.exit(code)


if __name__ == "__main__":  # pragma: no cover
    main()

