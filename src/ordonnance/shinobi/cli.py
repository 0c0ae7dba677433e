"""Shinobi's command-line hooks (``HOOKS``): what ``ordonnance COMMAND --game shinobi`` uses.

The commands are the shared ones (:mod:`ordonnance.core.cli`); Shinobi gives its
rules options (``--players``, ``--attack``, ``--samurai``, ``--ninjas``), its bots
(``montecarlo:WORK`` bounds the work of a decision), its board and its clan
reveal at the end. A move at the table is typed as its number or its text
(``deploy Oda to province 2``).

The functions below keep the module's older interface, for programs that built
their own parsers on it::

    parser = argparse.ArgumentParser()
    add_simulate_arguments(parser)
    run_simulate(parser.parse_args(["--games", "1000"]), sys.stdout)

With ``common=False`` only the Shinobi-specific options are added (``--attack``,
``--samurai``, ``--ninjas`` and ``--shinobi-players``), for a parser that
already has the others; :func:`rules_from_args` then reads the number of
players from ``--shinobi-players`` if given, else ``--players``.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

from ordonnance.core import checks
from ordonnance.core import cli as core
from ordonnance.errors import OrdonnanceError
from ordonnance.shinobi import bots as shinobi_bots
from ordonnance.shinobi._montecarlo import MAX_WORK
from ordonnance.shinobi.cards import CLAN_NAMES
from ordonnance.shinobi.rules import MAX_PLAYERS, MIN_PLAYERS, Rules

if TYPE_CHECKING:
    from ordonnance.core.warmup import FirstUse

__all__ = ["HOOKS", "BOT_KINDS", "add_play_arguments", "add_simulate_arguments", "rules_from_args", "bot_spec",
           "make_bot", "run_play", "run_simulate"]  # fmt: skip

#: The bots the command line offers.
BOT_KINDS = ("random", "greedy", "montecarlo")
_MASK64 = (1 << 64) - 1
_RULES_HELP = """\
Each turn gives three orders, in this order (an order without a legal choice
is skipped):
  1. deploy a samurai from your hand into another player's province, or play
     a ninja to remove one card from an army in another player's province;
  2. reinforce your own province with a samurai from hand, or move one card
     from another player's province to any other province;
  3. attack: an army in your province removes one card from an army of another
     clan in another province that is at least one card smaller and did not
     change this turn.
The clan with the most cards on the table at the end wins; you know only your
own clan."""


def _rules_arguments(parser: argparse.ArgumentParser, *, players: bool) -> None:
    group = parser.add_argument_group("shinobi rules (the defaults are the standard game)")
    if players:
        group.add_argument("--players", type=int, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), default=4,
                           help="3, 4 or 5 (default 4)")  # fmt: skip
    group.add_argument("--attack", choices=("mandatory", "optional"), default="mandatory",
                       help="whether a legal attack must be made (default mandatory)")  # fmt: skip
    group.add_argument("--samurai", type=int, default=11, help="samurai cards of each clan (default 11)")
    group.add_argument("--ninjas", type=int, default=3, help="ninja cards, 0..3 (default 3)")


class _Shinobi(core.Hooks):
    """Shinobi's hooks."""

    name = "shinobi"
    title = "Shinobi"
    bots = {"random": shinobi_bots.Random, "greedy": shinobi_bots.Greedy, "montecarlo": shinobi_bots.MonteCarlo}
    budgets = {"montecarlo": core.Budget("work", "work", MAX_WORK)}
    move_word = "order"
    rules_help = _RULES_HELP
    bench_games = (20_000, 2_000, 20)

    def first_uses(self) -> Sequence[FirstUse]:
        """The batched games (``Batch``), beyond the first uses every game has."""
        from ordonnance.core.warmup import batch_first_use

        return (batch_first_use(self.name),)

    def add_rules(self, parser: argparse.ArgumentParser) -> None:
        """``--players``, ``--attack``, ``--samurai``, ``--ninjas``."""
        _rules_arguments(parser, players=True)

    def rules(self, args: argparse.Namespace) -> Rules:
        """The Rules of the options (``--shinobi-players`` first, for the older combined parsers)."""
        players = getattr(args, "shinobi_players", None) or getattr(args, "players", None) or 4
        return Rules(players=players, samurai=args.samurai, ninjas=args.ninjas, attack=args.attack)

    def rules_text(self, rules: Any) -> str:
        """``attack=..., samurai=..., ninjas=...``."""
        samurai = rules.samurai[0] if len(set(rules.samurai)) == 1 else ",".join(map(str, rules.samurai))
        return f"attack={rules.attack}, samurai={samurai}, ninjas={rules.ninjas}"

    def seat_note(self, game: Any, seat: int, you: int | None) -> str:
        """Your own clan (the others' stay hidden)."""
        return f"clan {CLAN_NAMES[game.clan(seat)]}" if seat == you else ""

    def bot_seed(self, seed: int, seat: int) -> int:
        """The seeds ``play`` has always given Shinobi's bots."""
        return (seed * 7 + seat) & _MASK64

    def outcome(self, game: Any, you: int, names: Sequence[str]) -> list[str]:
        """Every seat's clan, the neutral clans and the scores, then who won."""
        clans = ", ".join(f"{names[p]} {CLAN_NAMES[game.clan(p)]}" for p in range(game.players))
        neutral = ", ".join(CLAN_NAMES[c] for c in game.neutral_clans) or "none"
        winners = game.winners
        if winners == (you,):
            result = "you win!"
        elif you in winners:
            result = "you share the win with " + ", ".join(names[w] for w in winners if w != you)
        elif len(winners) == 1:
            result = f"{names[winners[0]]} wins"
        else:
            result = " and ".join(names[w] for w in winners) + " share the win"
        return [f"clans: {clans}; neutral: {neutral}; scores {', '.join(map(str, game.scores))}", f"game over: {result}"]


#: Shinobi's hooks, for :mod:`ordonnance.core.cli`.
HOOKS = _Shinobi()


# --------------------------------------------------------------------- the older interface


def add_play_arguments(parser: argparse.ArgumentParser, *, common: bool = True) -> None:
    """Add ``play``'s options (``common=False``: only the Shinobi-specific ones)."""
    if common:
        core.add_play_arguments(parser, HOOKS)
    else:
        _shinobi_players(parser)


def add_simulate_arguments(parser: argparse.ArgumentParser, *, common: bool = True) -> None:
    """Add ``simulate``'s options (``common=False``: only the Shinobi-specific ones)."""
    if common:
        core.add_simulate_arguments(parser, HOOKS)
    else:
        _shinobi_players(parser)


def _shinobi_players(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--shinobi-players", type=int, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), default=None,
                        help="players of a shinobi game, 3..5 (default: --players, or 4)")  # fmt: skip
    _rules_arguments(parser, players=False)


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The :class:`~ordonnance.shinobi.Rules` the parsed options describe."""
    return HOOKS.rules(args)


def bot_spec(text: str) -> tuple[str, int | None]:
    """A bot's command-line name, ``kind`` or ``montecarlo:WORK``, checked: ``(kind, work or None)``."""
    try:
        spec = core.parse_bot(checks.text(text, "a bot's name", printable=True), HOOKS)
    except argparse.ArgumentTypeError as error:
        raise OrdonnanceError(str(error)) from None
    return spec.kind, spec.budget


def make_bot(kind: str, seed: int, rollouts: int | None = None) -> Any:
    """A bot by its command-line name (``kind``, or ``montecarlo:WORK``; see :func:`bot_spec`)."""
    try:
        spec = core.parse_bot(checks.text(kind, "a bot's name", printable=True), HOOKS)
    except argparse.ArgumentTypeError as error:
        raise OrdonnanceError(str(error)) from None
    return core.make_bot(HOOKS, spec, seed, rollouts=rollouts)


def run_play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """Play one game against bots on a text terminal; 0 when it ends or the player quits,
    2 for bad options (explained on ``stdout``)."""
    return core.run_quietly("play", core.run_play, HOOKS, args, stdin, stdout)


def run_simulate(args: argparse.Namespace, stdout: TextIO) -> int:
    """Simulate ``--games`` games and print the summary; 0, or 2 for bad options (explained on ``stdout``)."""
    return core.run_quietly("simulate", core.run_simulate, HOOKS, args, stdout)
