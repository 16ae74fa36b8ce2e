"""The Python API in one place: load a game, start a state, play it, and the tools around it.

    from interpreter.api import load_game
    game = load_game("games/some_game.yaml", {"some_option": "true"})
    state = game.new_state(players=3, seed=7)
    while not state.over:
        seat = game.acting_seats(state)[0]
        game.apply(state, game.legal_moves(state, seat)[0])
    print(game.scores(state), game.ranking(state))

Everything ``docs/api.md`` shows is imported from here; the modules behind it may move.
"""
from __future__ import annotations

from .bots.agents import make_bot, parse_kind
from .bots.determinize import sample_state
from .bots.search import SearchBot
from .engine.loaded import LoadedGame, load_game
from .engine.moves import Move
from .engine.state import State
from .lean import LeanGame, lean_game, lean_reason
from .play.records import read_record, replay
from .tools.scenario_run import run_scenarios
from .tools.simulate import simulate
from .tools.simulate_report import GameOutcome, Report, plot_scores, render_text

__all__ = [
    "GameOutcome", "LeanGame", "LoadedGame", "Move", "Report", "SearchBot", "State", "lean_game", "lean_reason",
    "load_game", "make_bot", "parse_kind", "plot_scores", "read_record", "render_text", "replay", "run_scenarios",
    "sample_state", "simulate",
]
