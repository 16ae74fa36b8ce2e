"""The researcher's commands: ``simulate`` many games between bots and report on them, and
``bench`` the engines' random playouts."""
from __future__ import annotations

import json
import sys

import click

from .common import (
    EXIT_ERROR,
    EXIT_INTERRUPTED,
    engine_flag,
    fail,
    format_flags,
    load_for_players,
    option_flag,
    players_flag,
)


@click.command()
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
                   "many run at once (needs: pip install 'tablerules[ray]'). The results do not depend on it.")
@click.option("--address", metavar="ADDRESS",
              help="With --backend ray: the cluster to use (default: Ray's choice: $RAY_ADDRESS, a Ray "
                   "already running here, or a new local one).")
@click.option("--max-moves", type=click.IntRange(min=1), default=100_000, show_default=True,
              help="Stop a game still running after this many moves (counted as stopped by a limit).")
@option_flag
@format_flags
@engine_flag
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), metavar="FILE.png",
              help="Also draw a histogram of each seat's scores (needs: pip install 'tablerules[plot]').")
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
    loaded, players = load_for_players(file, options, players)
    if plot_path:
        try:
            load_pyplot()       # before the run, not after it
        except RulesError as error:
            fail(error)
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
        fail(error)
    except KeyboardInterrupt:
        click.echo("\ninterrupted; no report.", err=True)
        sys.exit(EXIT_INTERRUPTED)
    click.echo(json.dumps(report.summary(), indent=2) if as_json else render_text(report))
    if plot_path:
        try:
            plot_scores(report, plot_path)
        except RulesError as error:
            fail(error)
    sys.exit(EXIT_ERROR if any(game.error for game in report.outcomes) else 0)


@click.command("bench")
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

    loaded, players = load_for_players(file, options, players)
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
        fail(error)
    click.echo(json.dumps(report.to_json(), indent=2) if as_json else render_text(report))
