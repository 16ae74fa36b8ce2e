"""The player's commands: ``play`` a game against bots, ``replay`` a record, and ``join`` a
table that ``rules serve`` hosts."""
from __future__ import annotations

import json
import sys

import click

from .common import (
    FiniteFloat,
    check_bot_kind,
    fail,
    find_game,
    format_flags,
    need_extra,
    option_flag,
    parse_options,
    players_flag,
)


@click.command()
@click.argument("file", type=click.Path(dir_okay=False))
@players_flag
@click.option("--human", default="1", show_default=True, metavar="SEATS",
              help="Seats played by people, from 1, comma-separated; 'none' for bots only.")
@click.option("--bot", "bot_kind", default=None, metavar="KIND",
              callback=lambda ctx, param, value: check_bot_kind(value),
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
def play(file: str, players: int | None, human: str, bot_kind: str, bot_speed: float,
         fake_clock: float | None, seed: int | None, record_path: str | None, player_record_path: str | None,
         plain: bool, no_color: bool, options: tuple[str, ...]) -> None:
    """Play a game (a file, or a bundled game by name) against bots: a full-screen table on a
    terminal, else the line mode."""
    from interpreter.errors import RulesError
    from interpreter.play import front
    from interpreter.play.terminal import parse_seats

    if record_path and player_record_path:
        raise click.UsageError("give --record or --player-record, not both")
    try:
        code = front.play(file, parse_options(options), players, seed, bot_kind, record_path or player_record_path,
                          lambda count: parse_seats(human, count), bot_speed, fake_clock, plain, no_color,
                          full_record=not player_record_path)
    except RulesError as error:
        fail(error)
    sys.exit(code)


@click.command()
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
        if find_game(path) != path:
            path, how = find_game(path), "the bundled game of that name"
        loaded = load_game(path, rec.options)
        state = run_replay(loaded.game, rec, loaded.digest())
    except RulesError as error:
        fail(error)
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


@click.command("join")
@click.argument("url")
@click.option("--name", help="Your name at the table (at most 24 characters).")
@click.option("--no-color", is_flag=True, help="No colours (NO_COLOR in the environment does the same).")
def join_command(url: str, name: str | None, no_color: bool) -> None:
    """Play a seat of a table served by rules serve, in this terminal (the seat's link as URL)."""
    from interpreter.errors import RulesError

    need_extra("join", ("websockets",))
    from interpreter.play.front import wants_color
    from interpreter.play.serve.join import join

    try:
        code = join(url, color=wants_color(no_color), name=name)
    except RulesError as error:
        fail(error)
    sys.exit(code)
