"""The ``rules`` command: a thin click layer over the interpreter's API.

Each command parses its arguments, calls the API, and maps errors to exit codes: 0 success,
1 an error in a game file, record or move, 2 a usage error (click's own). Heavy modules are
imported inside the commands so that ``rules --help`` stays fast.

The group ``main`` is here; its commands live one module per group: ``authoring`` (validate,
show, games, schema, test, lsp), ``playing`` (play, replay, join), ``simulating`` (simulate,
bench), ``serving`` (serve), with what they share in ``common``. The commands import the
interpreter's stages; nothing in the interpreter imports the commands.
"""
from __future__ import annotations

import click

from .authoring import (
    games_command,
    lsp_command,
    run_tests,
    schema_command,
    show,
    validate,
)
from .playing import join_command, play, replay
from .serving import serve_command
from .simulating import bench_command, simulate


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablerules", prog_name="rules")
def main() -> None:
    """rules: write card and dice games as YAML, check them, and play them."""


# In the order the commands were written; `rules --help` lists them by name.
for command in (validate, play, replay, show, games_command, schema_command, simulate, run_tests, bench_command,
                serve_command, lsp_command, join_command):
    main.add_command(command)
del command

__all__ = ["main"]
