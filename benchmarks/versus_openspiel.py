"""Our search bot against OpenSpiel's ISMCTS bot, at an equal time per decision, through the
OpenSpiel adapter (needs: pip install 'tablerules[openspiel]').

    python benchmarks/versus_openspiel.py games/last_card.yaml --games 100 --seconds 0.1

Game ``i`` is dealt from seed ``i``; in even games our bot is seat 1, in odd ones seat 2, so both
directions are played on the same number of games. In a game of partnerships (Euchre) our bot plays
every seat of that seat's team, OpenSpiel's every other seat, and a game is won by the team with
the higher return. Our bot is given ``--seconds`` per decision;
OpenSpiel's is given a number of simulations, set after each game so that its mean time per
decision follows ours (``--simulations`` fixes it instead). The report gives, for each direction, the
wins (a tie counts half) with their Wilson 95% interval, the mean return and the mean seconds
each bot took per decision.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

from interpreter.adapters.openspiel import load_game, resampler
from interpreter.bots.search import SearchBot
from interpreter.engine import legal_moves, new_state
from interpreter.tools.simulate_report import wilson


def their_bot(game, simulations: int, seed: int):
    evaluator = mcts.RandomRolloutEvaluator(1, random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations,
                           random_state=np.random.RandomState(seed))
    bot.set_resampler(resampler(seed))
    return bot


def play(game, seconds: float, simulations: int, ours_at: int, seed: int, timings: dict) -> list[float]:
    """One game, our bot at seat ``ours_at`` and its partners; the returns (the adapter's ranking,
    in [-1, 1])."""
    setup = game.setup
    state = game.new_initial_state()
    ours = {seat: SearchBot(setup.game, seat, seed, seconds=seconds) for seat in partners(setup.game, game.num_players(), ours_at)}
    theirs = their_bot(game, simulations, seed)
    chance = np.random.RandomState(seed)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(chance.choice(outcomes, p=probabilities)))
        elif state.current_player() in ours:
            session, seat = state.session, state.current_player()
            started = time.perf_counter()
            moves = legal_moves(setup.game, session.state, seat)
            move = ours[seat].choose(session.state, moves)
            if len(moves) > 1:
                timings["ours"].append(time.perf_counter() - started)
            for action in setup.actions.encode(move)[len(session.prefix):]:
                state.apply_action(action)
        else:
            started = time.perf_counter()
            several = len(state.legal_actions()) > 1
            state.apply_action(theirs.step(state))
            if several:
                timings["theirs"].append(time.perf_counter() - started)
    return state.returns()


def partners(game, players: int, seat: int) -> list[int]:
    """``seat`` and the seats of its team (teams are made from the seats alone, before any deal)."""
    start = new_state(game, players)
    return [s for s in range(players) if game.team_of(start, s) == game.team_of(start, seat)]


def follow(simulations: int, timings: dict) -> int:
    """The simulations that would have taken OpenSpiel's bot as long per decision as ours."""
    if not timings["ours"] or not timings["theirs"]:
        return simulations
    # At least two: the first simulation of a search only expands its root, which counts no visit.
    return max(2, round(simulations * statistics.mean(timings["ours"]) / statistics.mean(timings["theirs"])))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=0.1)
    parser.add_argument("--simulations", type=int, default=None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("-o", "--option", action="append", default=[], metavar="NAME=VALUE",
                        help="an option of the game, as rules -o (repeat it for more)")
    args = parser.parse_args()
    started = time.perf_counter()
    game = load_game(args.path, args.players, options=dict(option.split("=", 1) for option in args.option))
    simulations = args.simulations or 20
    directions, used = {}, []
    for ours_at in (0, 1):
        timings = {"ours": [], "theirs": []}
        won, total = 0.0, []
        seeds = [i for i in range(args.games) if i % 2 == ours_at]
        for seed in seeds:
            returns = play(game, args.seconds, simulations, ours_at, seed, timings)
            used.append(simulations)
            if args.simulations is None:
                simulations = follow(simulations, timings)
            team = partners(game.setup.game, args.players, ours_at)
            mine, best_other = returns[ours_at], max(r for s, r in enumerate(returns) if s not in team)
            won += 1.0 if mine > best_other else 0.5 if mine == best_other else 0.0
            total.append(returns[ours_at])
        directions[f"ours as seat {ours_at + 1}"] = {
            "games": len(seeds), "our_wins": won, "our_win_rate": won / len(seeds),
            "interval": wilson(won, len(seeds)), "our_mean_return": statistics.mean(total),
            "our_seconds": statistics.mean(timings["ours"]) if timings["ours"] else None,
            "their_seconds": statistics.mean(timings["theirs"]) if timings["theirs"] else None}
    print(json.dumps({"game": args.path, "players": args.players, "our_seconds_budget": args.seconds,
                      "their_simulations": {"first": used[0], "last": used[-1],
                                                            "median": statistics.median(used)}, "directions": directions,
                      "wall_seconds": round(time.perf_counter() - started)}, indent=2))


if __name__ == "__main__":
    main()
