"""The command line of Black Prince: ``play`` (a person against a bot) and ``simulate``.

The shared ``ordonnance`` command wires these in as ``ordonnance play --game
black-prince`` and ``ordonnance simulate --game black-prince``; here they are
plain functions over an :class:`argparse.Namespace` and text streams, and
:func:`main` runs them on their own (``python -m ordonnance.black_prince.cli``).

>>> import io
>>> from ordonnance.black_prince.cli import main
>>> out = io.StringIO()
>>> main(["simulate", "--games", "200", "--seed", "3"], stdout=out)
0
>>> print(out.getvalue().splitlines()[0])
black prince simulate: 200 games, seed 3, English (random) vs French (random)
"""

from __future__ import annotations

import argparse
import secrets
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from ordonnance.black_prince.actions import Action, Fight
from ordonnance.black_prince.bots import Bot, Greedy, MonteCarlo, Random
from ordonnance.black_prince.cards import ARMIES
from ordonnance.black_prince.game import Game
from ordonnance.black_prince.render import board
from ordonnance.black_prince.rules import Rules
from ordonnance.errors import OrdonnanceError

__all__ = ["add_play_arguments", "add_simulate_arguments", "run_play", "run_simulate", "build_parser", "main"]

BOT_KINDS = ("random", "greedy", "montecarlo")
_HELP = """\
Black Prince in brief (the docs' Black Prince rules page has everything):
 * each turn: place a troop card in your front row (opposite an enemy unit or
   beside your own; the first card anywhere), or place a line-infantry card
   behind a front unit of its type, or move a front unit one column; then you
   draw up to 6; then a battle if the front line holds 6 cards, or if you play
   a Battle card.
 * in a battle you are the attacker: ride your mounted units one column, then
   fight: each unit attacks once, frontally (must) or diagonally (may). Totals
   are strength +1 advantage, +1 double line, +1 per free archer beside, +1 flank.
   The higher total routs the other unit; equal totals change nothing.
 * units that never met an enemy break through: a random card of the enemy hand.
 * the first to rout 6 enemy troops wins.
Rows: 0 and 1 are player 1's back and front rows, 2 and 3 player 0's front and back.
Type a move number, 'board', 'help' or 'quit'."""


def _army(text: str) -> str:
    name = text.strip().capitalize()
    if name not in ARMIES:
        raise argparse.ArgumentTypeError(f"unknown army {text!r}; the armies are {', '.join(ARMIES)}")
    return name


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a seed is an integer 0..2**64-1, got {text!r}") from None
    if not 0 <= value < 1 << 64:
        raise argparse.ArgumentTypeError(f"a seed is an integer 0..2**64-1, got {text!r}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not 0 <= value <= 100_000_000:
        raise argparse.ArgumentTypeError(f"expected a whole number 0..100000000, got {text!r}")
    return value


def _add_rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--armies", nargs=2, type=_army, default=["English", "French"], metavar=("SEAT0", "SEAT1"),
                        help=f"the two armies, each one of {', '.join(ARMIES)} (default English French)")  # fmt: skip
    parser.add_argument("--first", choices=("seat0", "coin"), default="seat0", help="who starts (default seat0)")


def _rules(args: argparse.Namespace) -> Rules:
    return Rules(armies=tuple(args.armies), first=args.first)


def _make_bot(kind: str, seed: int, rollouts: int | None = None) -> Bot:
    if kind == "random":
        return Random(seed=seed)
    if kind == "greedy":
        return Greedy(seed=seed)
    return MonteCarlo(seed=seed) if rollouts is None else MonteCarlo(seed=seed, rollouts=rollouts)


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``play``: armies, who starts, the bot, seed, seat, save file."""
    _add_rules(parser)
    parser.add_argument("--bot", choices=BOT_KINDS, default="greedy", help="the opponent (default greedy)")
    parser.add_argument("--seed", type=_seed, default=None, help="the game's seed (default: random, and printed)")
    parser.add_argument("--seat", type=int, choices=(0, 1), default=0, help="your seat (default 0)")
    parser.add_argument("--save", metavar="FILE", default=None, help="save the game as JSON when it ends or you quit")


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``simulate``: armies, who starts, games, seed, the bots of both seats."""
    _add_rules(parser)
    parser.add_argument("--games", type=_count, default=10_000, help="games to play (default 10000)")
    parser.add_argument("--seed", type=_seed, default=1, help="the seed of the deals (default 1)")
    parser.add_argument("--bots", nargs="+", choices=BOT_KINDS, default=["random"],
                        help="one bot for both seats, or one per seat (default random)")  # fmt: skip
    parser.add_argument("--rollouts", type=_count, default=None, help="rollouts per decision of montecarlo bots")


def describe(game: Game, action: Action) -> str:
    """``action`` in words; a fight with its totals and their parts, from the fight calculator."""
    if isinstance(action, Fight):
        return f"{action}: {game.fight_preview(action)}"
    return str(action)


class _Quit(Exception):
    pass


class _Table:
    """One person against a bot, over text streams."""

    def __init__(self, game: Game, you: int, bot: Bot, name: str, stdin: TextIO, stdout: TextIO) -> None:
        self.game, self.you, self.bot, self.name = game, you, bot, name
        self.stdin, self.stdout = stdin, stdout

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout)

    def show(self) -> None:
        view = self.game.view(self.you)
        self.say()
        self.say(board(view))
        self.say(f"your hand: {', '.join(map(str, view.hand)) or '-'}")

    def person(self) -> Action:
        self.show()
        actions = self.game.legal_actions()
        self.say("your moves:")
        for number, action in enumerate(actions, 1):
            self.say(f"  {number:>2} {describe(self.game, action)}")
        while True:
            print(f"your move (1-{len(actions)}, board, help, quit)> ", end="", file=self.stdout, flush=True)
            line = self.stdin.readline()
            if not line:
                raise _Quit
            word = line.strip().lower()
            if word in ("quit", "q", "exit"):
                raise _Quit
            if word in ("help", "h", "?"):
                self.say(_HELP)
            elif word in ("board", "b"):
                self.show()
            elif word.isdigit() and 1 <= int(word) <= len(actions):
                return actions[int(word) - 1]
            else:
                self.say(f"type a move number from 1 to {len(actions)}, board, help or quit")

    def play(self) -> None:
        game = self.game
        while not game.is_over:
            seat = game.current_player
            action = self.person() if seat == self.you else self.bot.choose(game.view(seat))
            text = describe(game, action)
            preview = game.fight_preview(action) if isinstance(action, Fight) else None
            before = len(game.discard(1 - seat))
            game.apply(action)
            self.say(f"{'you' if seat == self.you else self.name}: {text}")
            taken = game.discard(1 - seat)[before:]
            if preview is not None and preview.winner == "attacker":
                taken = taken[len(preview.losses) :]
            if taken:
                self.say(f"  breakthrough: {', '.join(map(str, taken))} taken from the reserves")
        self.show()
        winner = game.winner
        result = "a draw" if winner is None else "you win!" if winner == self.you else f"{self.name} wins"
        self.say(f"game over after {game.turn} turns, routed {game.routed[0]} to {game.routed[1]}: {result}")


def run_play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """Play one game against a bot on the given streams; returns the exit status."""
    try:
        rules = _rules(args)
    except OrdonnanceError as error:
        print(f"black prince play: {error}", file=sys.stderr)
        return 2
    seed = secrets.randbits(32) if args.seed is None else args.seed
    game = Game.new(rules, seed=seed)
    bot = _make_bot(args.bot, (seed + 1) & ((1 << 64) - 1))
    name = f"{args.bot} bot"
    print(f"Black Prince, seed {seed}: you are player {args.seat} ({rules.armies[args.seat]}), "
          f"against the {name} ({rules.armies[1 - args.seat]}).", file=stdout)  # fmt: skip
    print("Type the number of a move, 'help' for the rules in brief, 'quit' to leave.", file=stdout)
    status = 0
    try:
        _Table(game, args.seat, bot, name, stdin, stdout).play()
    except _Quit:
        print("bye", file=stdout)
    except KeyboardInterrupt:
        print("\ninterrupted, bye", file=stdout)
        status = 130
    if args.save is not None:
        try:
            with open(args.save, "w", encoding="utf-8") as file:
                file.write(game.to_json())
        except OSError as error:
            print(f"black prince play: cannot save the game to {args.save!r}: {error.strerror or error}", file=sys.stderr)
            return 1
        print(f"game saved to {args.save}", file=stdout)
    return status


def run_simulate(args: argparse.Namespace, stdout: TextIO) -> int:
    """Simulate games between bots and print the summary; returns the exit status."""
    from ordonnance.black_prince.simulation import simulate

    try:
        rules = _rules(args)
    except OrdonnanceError as error:
        print(f"black prince simulate: {error}", file=sys.stderr)
        return 2
    kinds = list(args.bots) * 2 if len(args.bots) == 1 else list(args.bots)
    if len(kinds) != 2:
        print(f"black prince simulate: --bots names 1 bot or 2 (one per seat), got {len(kinds)}", file=sys.stderr)
        return 2
    players = [_make_bot(kind, seat, args.rollouts) for seat, kind in enumerate(kinds)]
    print(f"black prince simulate: {args.games:,} games, seed {args.seed}, "
          f"{rules.armies[0]} ({kinds[0]}) vs {rules.armies[1]} ({kinds[1]})", file=stdout)  # fmt: skip
    start = time.perf_counter()
    result = simulate(rules, games=args.games, seed=args.seed, players=players)
    seconds = time.perf_counter() - start
    print(result.summary(), file=stdout)
    print(f"{seconds:.2f} s, {args.games / max(seconds, 1e-9):,.0f} games/s", file=stdout)
    return 0


def build_parser(prog: str = "python -m ordonnance.black_prince.cli") -> argparse.ArgumentParser:
    """A parser with the ``play`` and ``simulate`` commands (``prog`` names the program in messages)."""
    parser = argparse.ArgumentParser(prog=prog, description="Black Prince, the card game of the Hundred Years' War")
    commands = parser.add_subparsers(dest="command", required=True)
    add_play_arguments(commands.add_parser("play", help="play a game against a bot"))
    add_simulate_arguments(commands.add_parser("simulate", help="simulate games between bots"))
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    prog: str = "python -m ordonnance.black_prince.cli",
) -> int:
    """Run ``play`` or ``simulate`` from ``argv`` (the command first, then its options).

    The shared ``ordonnance`` command can hand over the rest of its command line:
    ``main(["play", *options], prog="ordonnance")``.
    """
    args = build_parser(prog).parse_args(argv)
    out = sys.stdout if stdout is None else stdout
    if args.command == "play":
        return run_play(args, sys.stdin if stdin is None else stdin, out)
    return run_simulate(args, out)


if __name__ == "__main__":
    raise SystemExit(main())
