"""Any game as an OpenSpiel game (``pip install 'tablerules[openspiel]'``).

    from interpreter.adapters.openspiel import load_game
    game = load_game("games/some_game.yaml", players=2)         # a pyspiel.Game
    state = game.new_initial_state()                              # a chance node: the setup

Every game is registered once under the short name ``rules`` with the parameters ``path``,
``players`` (0: the game's default), ``options`` (``name:value`` pairs joined by ``;``),
``max_moves`` (a game still running after that many moves ends, ranked as it stands),
``returns`` (``ranking``: each seat's seats beaten minus seats beating it, over seats - 1, in
[-1, 1] and zero-sum; ``results``: the game's own results, with ``min_utility``,
``max_utility`` and ``zero_sum`` saying their bounds), ``sampled_outcomes`` and ``history`` (the
events an information-state tensor holds, the last ones: the seat's observation tensor after
each and its own actions in it, then its choices in progress; default 32, perfect recall up to
that many events). So
``pyspiel.load_game("rules(path=games/some_game.yaml,players=2)")`` works too; a game pickles as its
parameters and a state as its session's data (``ActionSession.to_json``). ``str(state)`` is the whole
state, for debugging; what a seat may see is in its observation and information state.
"""
from __future__ import annotations

from typing import Any

from ..errors import OptionError


def _implementation() -> Any:
    try:
        from . import openspiel_game
    except ImportError as error:
        if error.name not in ("pyspiel", "numpy"):
            raise
        raise OptionError("the OpenSpiel adapter needs OpenSpiel: pip install 'tablerules[openspiel]'") from error
    return openspiel_game


def resampler(seed: int = 0) -> Any:
    """For OpenSpiel's ISMCTS bot (``bot.set_resampler(resampler())``): states in which the cards
    the seat to act cannot see are dealt again, from a seeded generator."""
    return _implementation().resampler(seed)


def load_game(path: str, players: int | None = None, **params: Any) -> Any:
    """The game file at ``path`` as a ``pyspiel.Game``; ``params`` as in the module's text, and
    ``options`` may be a dict of option texts."""
    impl = _implementation()
    options = params.pop("options", "")
    if isinstance(options, dict):
        options = ";".join(f"{k}:{v}" for k, v in options.items())
    unknown = sorted(set(params) - set(impl.PARAMETERS))
    if unknown:
        raise OptionError(f"unknown parameter {unknown[0]}: the parameters are {', '.join(impl.PARAMETERS)}")
    typed = {k: type(impl.PARAMETERS[k])(v) for k, v in params.items()}      # 2 for a float parameter is 2.0
    return impl.pyspiel.load_game(impl.SHORT_NAME, {"path": str(path), "players": players or 0, "options": options,
                                                    **typed})
