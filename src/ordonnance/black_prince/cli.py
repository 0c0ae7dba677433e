"""Black Prince's command-line hooks (``HOOKS``): what ``ordonnance COMMAND --game black-prince`` uses.

The commands are the shared ones (:mod:`ordonnance.core.cli`); Black Prince
gives its rules options (``--armies``, ``--first``), its bots, its battlefield
and hand, the fight calculator's totals beside every fight, and the
breakthroughs. A move at the table is typed as its number or its text
(``place Archers 2 in column 3``, ``end``).

:func:`main` runs ``play`` and ``simulate`` on their own (``python -m
ordonnance.black_prince.cli``), and the functions below keep the module's older
interface:

>>> import io
>>> from ordonnance.black_prince.cli import main
>>> out = io.StringIO()
>>> main(["simulate", "--games", "200", "--seed", "3"], stdout=out)
0
>>> print(out.getvalue().splitlines()[0])
Black Prince simulate: 200 games, 2 players, seed 3: player 0 = Random, player 1 = Random
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ordonnance.black_prince.actions import Action, Fight
from ordonnance.black_prince.bots import Greedy, MonteCarlo, Random
from ordonnance.black_prince._montecarlo import MAX_ROLLOUTS
from ordonnance.black_prince.cards import ARMIES
from ordonnance.black_prince.game import Game
from ordonnance.black_prince.render import board
from ordonnance.black_prince.rules import Rules
from ordonnance.core import cli as core
from ordonnance.core.terminal import fit

if TYPE_CHECKING:
    from ordonnance.core.warmup import FirstUse

__all__ = ["HOOKS", "BOT_KINDS", "add_play_arguments", "add_simulate_arguments", "run_play", "run_simulate",
           "build_parser", "main", "describe"]  # fmt: skip

#: The bots the command line offers.
BOT_KINDS = ("random", "greedy", "montecarlo")
_MASK64 = (1 << 64) - 1
_RULES_HELP = """\
Black Prince in brief (the docs' Black Prince rules page has everything):
 * each turn: place a troop card in your front row (opposite an enemy unit or
   beside your own; the first card anywhere), or place a line-infantry card
   behind a front unit of its type, or move a front unit one column; then you
   draw up to 6; then a battle if the front line holds 6 cards, or if you play
   a Battle card.
 * in a battle you are the attacker: ride your mounted units one column, then
   fight: each unit attacks once, frontally (must) or diagonally (may). Totals
   are strength +1 advantage, +1 double line, +1 per free archer beside,
   +1 flank. The higher total routs the other unit; equal totals change nothing.
 * units that never met an enemy break through: a random card of the enemy hand.
 * the first to rout 6 enemy troops wins.
Rows: 0 and 1 are player 1's back and front rows, 2 and 3 player 0's front and
back."""


def _army(text: str) -> str:
    name = text.strip().capitalize()
    if name not in ARMIES:
        raise argparse.ArgumentTypeError(f"unknown army {text!r}; the armies are {', '.join(ARMIES)}")
    return name


def describe(game: Game, action: Action) -> str:
    """``action`` in words; a fight with its totals and their parts, from the fight calculator."""
    if isinstance(action, Fight):
        return f"{action}: {game.fight_preview(action)}"
    return str(action)


class _BlackPrince(core.Hooks):
    """Black Prince's hooks."""

    name = "black-prince"
    title = "Black Prince"
    bots = {"random": Random, "greedy": Greedy, "montecarlo": MonteCarlo}
    budgets = {"montecarlo": core.Budget("rollouts", "rollouts", MAX_ROLLOUTS)}
    rules_help = _RULES_HELP
    bench_games = (20_000, 2_000, 20)

    def first_uses(self) -> Sequence[FirstUse]:
        """The batched games (``Batch``), beyond the first uses every game has."""
        from ordonnance.core.warmup import batch_first_use

        return (batch_first_use(self.name),)

    def add_rules(self, parser: argparse.ArgumentParser) -> None:
        """``--armies SEAT0 SEAT1`` and ``--first``."""
        group = parser.add_argument_group("black prince rules (the defaults are the standard game)")
        group.add_argument("--armies", nargs=2, type=_army, default=["English", "French"], metavar=("SEAT0", "SEAT1"),
                           help=f"the two armies, each one of {', '.join(ARMIES)} (default English French)")  # fmt: skip
        group.add_argument("--first", choices=("seat0", "coin"), default="seat0", help="who starts (default seat0)")

    def rules(self, args: argparse.Namespace) -> Rules:
        """The Rules of the options."""
        return Rules(armies=tuple(args.armies), first=args.first)

    def rules_text(self, rules: Any) -> str:
        """The armies and who starts."""
        return f"armies {rules.armies[0]} (player 0) and {rules.armies[1]} (player 1), first={rules.first}"

    def board(self, table: Any, width: int | None) -> str:
        """The battlefield; of a view, the seat's hand too."""
        text = board(table, width=width)
        hand = getattr(table, "hand", None)
        if isinstance(hand, tuple):
            text += "\n" + fit(f"your hand: {', '.join(map(str, hand)) or '-'}", width)
        return text

    def describe(self, game: Any, action: Any) -> str:
        """A fight with both totals and what it routs, in short (``board`` and the narration give
        their parts, :func:`describe`)."""
        if not isinstance(action, Fight):
            return str(action)
        result = game.fight_preview(action)
        routed = f"{', '.join(map(str, result.losses))} routed" if result.losses else "nothing happens"
        return f"{action}: {result.attacker.total} against {result.defender.total}, {routed}"

    def details(self, game: Any, you: int, width: int | None) -> str:
        """The board, then every fight there is to choose with its totals' parts (:func:`describe`)."""
        fights = [describe(game, a) for a in game.view(you).legal_actions if isinstance(a, Fight)]
        return "\n".join([self.board(game.view(you), width), *(fit(f"  {text}", width, 6) for text in fights)])

    def seat_note(self, game: Any, seat: int, you: int | None) -> str:
        """The seat's army."""
        return str(game.rules.armies[seat])

    def bot_seed(self, seed: int, seat: int) -> int:
        """The seed ``play`` has always given Black Prince's bot."""
        return (seed + 1) & _MASK64

    def before(self, game: Any, action: Any) -> tuple[str, Any, int]:
        """The move in words (a fight with its totals' parts), a fight's expected result, and the cards
        the enemy has lost so far."""
        preview = game.fight_preview(action) if isinstance(action, Fight) else None
        return describe(game, action), preview, len(game.discard(1 - game.current_player))

    def told(self, before: Any, after: Any, action: Any) -> str | None:
        """The narration beyond the move's name: a fight's totals and their parts, any breakthrough."""
        seat = before.current_player
        names = [f"seat {s}" for s in range(2)]
        first, *rest = self.narrate(after, seat, action, names, None, self.before(before, action))
        detail = "; ".join(part for part in (first.removeprefix(f"{names[seat]}: {action}").lstrip(" :"), *rest) if part)
        return detail or None

    def narrate(self, game: Any, seat: int, action: Any, names: Sequence[str], you: int | None, before: Any) -> list[str]:
        """The move (a fight with its totals), then any breakthrough."""
        text, preview, lost = before
        lines = [f"{names[seat]}: {text}"]
        taken = game.discard(1 - seat)[lost:]
        if preview is not None and preview.winner == "attacker":
            taken = taken[len(preview.losses) :]
        if taken:
            lines.append(f"breakthrough: {', '.join(map(str, taken))} taken from the reserves")
        return lines

    def outcome(self, game: Any, you: int, names: Sequence[str]) -> list[str]:
        """``game over after T turns, routed A to B: ...``."""
        winner = game.winner
        result = "a draw" if winner is None else "you win!" if winner == you else f"{names[winner]} wins"
        return [f"game over after {game.turn} turns, routed {game.routed[0]} to {game.routed[1]}: {result}"]


#: Black Prince's hooks, for :mod:`ordonnance.core.cli`.
HOOKS = _BlackPrince()


# --------------------------------------------------------------------- the older interface


def add_play_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``play``: armies, who starts, the bot, seed, seat, save file."""
    core.add_play_arguments(parser, HOOKS)


def add_simulate_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of ``simulate``: armies, who starts, games, seed, the bots of both seats."""
    core.add_simulate_arguments(parser, HOOKS)


def run_play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """Play one game against a bot on the given streams; returns the exit status (2: bad options)."""
    return core.run_quietly("play", core.run_play, HOOKS, args, stdin, stdout)


def run_simulate(args: argparse.Namespace, stdout: TextIO) -> int:
    """Simulate games between bots and print the summary; returns the exit status (2: bad options)."""
    return core.run_quietly("simulate", core.run_simulate, HOOKS, args, stdout)


def build_parser(prog: str = "python -m ordonnance.black_prince.cli") -> argparse.ArgumentParser:
    """A parser with the ``play`` and ``simulate`` commands (``prog`` names the program in messages)."""
    parser = core.Parser(prog=prog, description="Black Prince, the card game of the Hundred Years' War")
    commands = parser.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play a game against a bot")
    add_play_arguments(play)
    play.set_defaults(parser=play)
    simulate = commands.add_parser("simulate", help="simulate games between bots")
    add_simulate_arguments(simulate)
    simulate.set_defaults(parser=simulate)
    return parser


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    prog: str = "python -m ordonnance.black_prince.cli",
) -> int:
    """Run ``play`` or ``simulate`` from ``argv`` (the command first, then its options);
    bad options exit with status 2, as the ``ordonnance`` command's do."""
    args, unknown = build_parser(prog).parse_known_args(argv)
    if unknown:
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    out = sys.stdout if stdout is None else stdout
    if args.command == "play":
        return core.run_play(HOOKS, args, args.parser, sys.stdin if stdin is None else stdin, out)
    return core.run_simulate(HOOKS, args, args.parser, out)


if __name__ == "__main__":
    raise SystemExit(main())
