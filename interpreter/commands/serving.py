"""``rules serve``: host a table that people join from a browser or with ``rules join``."""
from __future__ import annotations

import click

from .common import check_bot_kind, fail, need_extra, option_flag, parse_options


def _seat_list(text: str | None) -> set[int]:
    """``"2,3"`` -> {1, 2}; seats are checked against the table when it is made."""
    if not text or text.strip().lower() == "none":
        return set()
    try:
        return {int(part) - 1 for part in text.split(",")}
    except ValueError:
        raise click.BadParameter(f"seat numbers like 2,3, not '{text}'", param_hint="'--bots'") from None


@click.command("serve")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every network of this machine; see docs/serve.md).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--seats", type=click.IntRange(1, 64), help="Number of seats (default: the game's).")
@click.option("--bots", "bot_seats", metavar="SEATS", help="Seats played by bots, from 1, comma-separated.")
@click.option("--bot", "bot_kind", default=None, metavar="KIND",
              callback=lambda ctx, param, value: check_bot_kind(value),
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
    need_extra("serve", ("starlette", "uvicorn", "websockets"))
    from interpreter.play.serve.registry import Tables, new_table_id
    from interpreter.play.serve.runner import serve

    tables = Tables()
    try:
        if resume_path:
            table = tables.resume(resume_path, warn=lambda text: click.echo(f"warning: {text}", err=True))
        else:
            assert file is not None     # a game file, or --resume
            table_id = new_table_id()
            table = tables.create(file, parse_options(options), seats, _seat_list(bot_seats), bot_kind, bot_speed,
                                  seed, record_path=record_path or f"rules-table-{table_id}.jsonl", table_id=table_id)
    except RulesError as error:
        fail(error)
    base = f"http://{host}:{port}/t/{table.id}"
    assert table.session.record is not None     # a served table always records
    click.echo(f"{table.loaded.name}: {table.session.players} seats; the record is {table.session.record.path}")
    for seat in table.people:
        click.echo(f"  P{seat + 1}: {base}#token={table.tokens.token(seat)}")
    click.echo(f"  spectators: {base}")
    if host in ("0.0.0.0", "::"):
        click.echo("  (in the links, put this machine's address on your network in place of the host)")
    serve(tables, host, port)
