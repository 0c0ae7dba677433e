"""Command line: ``python -m ordonnance demo`` plays a seeded game between two bots."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ordonnance.actions import Claim, Pass, Play
from ordonnance.army import describe
from ordonnance.bots import Greedy, Random
from ordonnance.game import Game
from ordonnance.rules import Rules
from ordonnance.territory import Territory


def _army_text(game: Game, territory: Territory, seat: int) -> str:
    cards = " ".join(str(c) for c in game.army(territory, seat))
    return f"{cards} = {describe(game.army_key(territory, seat))}"


def demo(seed: int = 7, players: int = 2) -> None:
    """Play one seeded game, Greedy (seat 0) against Random bots, and narrate it."""
    rules = Rules(players=players)
    game = Game.new(rules, seed=seed)
    bots = [Greedy(seed=seed)] + [Random(seed=seed + p) for p in range(1, players)]
    names = ["Greedy"] + ["Random"] * (players - 1)
    print(f"Ordonnance, {players} players, seed {seed}: " + ", ".join(
        f"player {p} = {names[p]}" for p in range(players)))  # fmt: skip
    print()
    turn = 0
    while not game.is_over:
        seat = game.current_player
        before = [game.territory_owner(t) for t in Territory]
        action = bots[seat].choose(game.view(seat))
        game.apply(action)
        if isinstance(action, Play):
            turn += 1
            army = " ".join(str(c) for c in game.army(action.territory, seat))
            print(f"{turn:>3}. player {seat} plays {str(action.card):<5} to {action.territory.label:<9} [{army}]")
        elif isinstance(action, Claim):
            print(f"     player {seat} CLAIMS {action.territory.label}: "
                  f"{_army_text(game, action.territory, seat)} cannot be beaten any more")  # fmt: skip
        elif isinstance(action, Pass):
            print(f"     player {seat} passes")
        for t in Territory:
            owner = game.territory_owner(t)
            if before[t] is None and owner is not None and not isinstance(action, Claim):
                print(f"     {t.label} is decided: player {owner} wins with "
                      f"{_army_text(game, t, owner)} (marker {game.marker(t)})")  # fmt: skip
    print()
    print(game)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = argparse.ArgumentParser(prog="ordonnance", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    demo_parser = commands.add_parser("demo", help="play and narrate a seeded game between two bots")
    demo_parser.add_argument("--seed", type=int, default=7, help="the shuffle's seed (default 7)")
    demo_parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="2, 3 or 4")
    args = parser.parse_args(argv)
    if args.command == "demo":
        demo(seed=args.seed, players=args.players)
    return 0


if __name__ == "__main__":
    sys.exit(main())
