"""Command-line support for Shinobi: what ``ordonnance play --game shinobi`` and
``ordonnance simulate --game shinobi`` run.

The shared :mod:`ordonnance.cli` adds these arguments to its parsers and calls
:func:`run_play` / :func:`run_simulate`; the functions take their streams as
arguments, so they also run (and are tested) on their own::

    parser = argparse.ArgumentParser()
    add_simulate_arguments(parser)
    run_simulate(parser.parse_args(["--games", "1000"]), sys.stdout)

With ``common=False`` only the Shinobi-specific options are added (``--attack``,
``--samurai``, ``--ninjas`` and, for play, ``--shinobi-players``), for a parser
that already has ``--seed``, ``--seat``, ``--bot``/``--bots``, ``--games``,
``--rollouts`` and ``--save``; :func:`rules_from_args` then reads the number of
players from ``--shinobi-players`` if given, else ``--players``.
"""

from __future__ import annotations

import argparse
import secrets
import time
from typing import Any, TextIO

from ordonnance.errors import OrdonnanceError
from ordonnance.shinobi import bots as shinobi_bots
from ordonnance.shinobi._montecarlo import DEFAULT_ROLLOUTS, DEFAULT_WORK, MAX_WORK
from ordonnance.shinobi.actions import Action
from ordonnance.shinobi.cards import CLAN_NAMES
from ordonnance.shinobi.game import Game
from ordonnance.shinobi.render import board
from ordonnance.shinobi.rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ordonnance.shinobi.simulation import simulate

__all__ = ["BOT_KINDS", "add_play_arguments", "add_simulate_arguments", "rules_from_args", "bot_spec", "make_bot",
           "run_play", "run_simulate"]  # fmt: skip

#: The bots the command line offers.
BOT_KINDS = ("random", "greedy", "montecarlo")
_MASK64 = (1 << 64) - 1
_BUDGET_HELP = (f"montecarlo:WORK bounds the work of each decision (rollout decisions and actions valued; "
                f"default {DEFAULT_WORK:,}, which is about 30 ms)")  # fmt: skip
_HELP = """Each turn gives three orders, in this order (an order without a legal choice is skipped):
  1. deploy a samurai from your hand into another player's province, or play a ninja
     to remove one card from an army in another player's province;
  2. reinforce your own province with a samurai from hand, or move one card from
     another player's province to any other province;
  3. attack: an army in your province removes one card from an army of another clan
     in another province that is at least one card smaller and did not change this turn.
The clan with the most cards on the table at the end wins; you know only your own clan."""


def _rules_arguments(parser: argparse.ArgumentParser, *, players: bool) -> None:
    group = parser.add_argument_group("shinobi rules (the defaults are the standard game)")
    if players:
        group.add_argument("--players", type=int, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), default=4,
                           help="3, 4 or 5 (default 4)")  # fmt: skip
    group.add_argument("--attack", choices=("mandatory", "optional"), default="mandatory",
                       help="whether a legal attack must be made (default mandatory)")  # fmt: skip
    group.add_argument("--samurai", type=int, default=11, help="samurai cards of each clan (default 11)")
    group.add_argument("--ninjas", type=int, default=3, help="ninja cards, 0..3 (default 3)")


def add_play_arguments(parser: argparse.ArgumentParser, *, common: bool = True) -> None:
    """Add ``play``'s options (``common=False``: only the Shinobi-specific ones)."""
    if common:
        parser.add_argument("--bot", default="greedy", metavar="{random,greedy,montecarlo}[:WORK]",
                            help=f"the opponents (default greedy); {_BUDGET_HELP}")  # fmt: skip
        parser.add_argument("--seed", type=int, default=None, help="the deal's seed (default: random, and printed)")
        parser.add_argument("--seat", type=int, default=0, help="your seat (default 0: you start)")
        parser.add_argument("--save", metavar="FILE", default=None, help="save the game as JSON when it ends or you quit")
    else:
        parser.add_argument("--shinobi-players", type=int, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), default=None,
                            help="players of a shinobi game, 3..5 (default: --players, or 4)")  # fmt: skip
    _rules_arguments(parser, players=common)


def add_simulate_arguments(parser: argparse.ArgumentParser, *, common: bool = True) -> None:
    """Add ``simulate``'s options (``common=False``: only the Shinobi-specific ones)."""
    if common:
        parser.add_argument("--games", type=int, default=10_000, help="games to play (default 10,000)")
        parser.add_argument("--seed", type=int, default=1, help="the seed of the deals (default 1)")
        parser.add_argument("--bots", default=None, metavar="BOT[,BOT...]",
                            help=f"the bot of each seat, or one for every seat: random (default), greedy, montecarlo; "
                                 f"{_BUDGET_HELP}")  # fmt: skip
        parser.add_argument("--rollouts", type=int, default=None, help="rollouts per decision of montecarlo bots")
    else:
        parser.add_argument("--shinobi-players", type=int, choices=range(MIN_PLAYERS, MAX_PLAYERS + 1), default=None,
                            help="players of a shinobi game, 3..5 (default: --players, or 4)")  # fmt: skip
    _rules_arguments(parser, players=common)


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The :class:`~ordonnance.shinobi.Rules` the parsed options describe."""
    players = getattr(args, "shinobi_players", None) or getattr(args, "players", None) or 4
    return Rules(players=players, samurai=args.samurai, ninjas=args.ninjas, attack=args.attack)


def bot_spec(text: str) -> tuple[str, int | None]:
    """A bot's command-line name, ``kind`` or ``montecarlo:WORK``, checked: ``(kind, work or None)``."""
    kind, colon, budget = text.strip().lower().partition(":")
    kind = kind.strip()
    if kind not in BOT_KINDS:
        raise OrdonnanceError(f"unknown bot {kind!r}; the bots are {', '.join(BOT_KINDS)}")
    if not colon:
        return kind, None
    if kind != "montecarlo":
        raise OrdonnanceError(f"the {kind} bot takes no budget, got {text.strip()!r}")
    work = budget.strip()
    if not work.isdigit() or not 1 <= int(work) <= MAX_WORK:
        raise OrdonnanceError(f"the budget of {text.strip()!r} (work a decision) must be an int in 1..{MAX_WORK:,}, got {work!r}")
    return kind, int(work)


def make_bot(kind: str, seed: int, rollouts: int | None = None) -> Any:
    """A bot by its command-line name (``kind``, or ``montecarlo:WORK``; see :func:`bot_spec`)."""
    kind, work = bot_spec(kind)
    if kind == "random":
        return shinobi_bots.Random(seed=seed)
    if kind == "greedy":
        return shinobi_bots.Greedy(seed=seed)
    return shinobi_bots.MonteCarlo(seed=seed, rollouts=DEFAULT_ROLLOUTS if rollouts is None else rollouts,
                                   work=DEFAULT_WORK if work is None else work)  # fmt: skip


def _ask(game: Game, seat: int, stdin: TextIO, stdout: TextIO) -> Action | None:
    """The human's action, or None to quit (also at the end of the input)."""
    actions = game.legal_actions()
    print(board(game.view(seat)), file=stdout)
    for number, action in enumerate(actions, 1):
        print(f"  {number:>3}. {action}", file=stdout)
    while True:
        print("your order (a number, 'help' or 'quit'): ", end="", file=stdout, flush=True)
        line = stdin.readline()
        if not line or line.strip().lower() in ("quit", "q", "exit"):
            return None
        text = line.strip().lower()
        if text in ("help", "h", "?"):
            print(_HELP, file=stdout)
        elif text.isdigit() and 1 <= int(text) <= len(actions):
            return actions[int(text) - 1]
        else:
            print(f"{line.strip()!r} is not one of 1..{len(actions)}", file=stdout)


def run_play(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> int:
    """Play one game against bots on a text terminal; 0 when it ends or the player quits,
    2 for bad options."""
    try:
        rules = rules_from_args(args)
        if not 0 <= args.seat < rules.players:
            raise OrdonnanceError(f"--seat must be 0..{rules.players - 1} for {rules.players} players, got {args.seat!r}")
        seed = secrets.randbits(32) if args.seed is None else args.seed
        game = Game.new(rules, seed=seed)
        players = {p: make_bot(args.bot, (seed * 7 + p) & _MASK64) for p in range(rules.players) if p != args.seat}
    except (OrdonnanceError, ValueError, TypeError) as error:
        print(f"play: {error}", file=stdout)
        return 2
    print(f"Shinobi, {rules.players} players, seed {seed}: you are player {args.seat} and serve "
          f"{CLAN_NAMES[game.clan(args.seat)]}, against {args.bot} bots.", file=stdout)  # fmt: skip
    while not game.is_over:
        seat = game.current_player
        if seat == args.seat:
            action = _ask(game, seat, stdin, stdout)
            if action is None:
                print("bye", file=stdout)
                break
        else:
            action = players[seat].choose(game.view(seat))
            print(f"player {seat} ({args.bot}): {action}", file=stdout)
        game.apply(action)
    if game.is_over:
        print(board(game.view(args.seat)), file=stdout)
        clans = ", ".join(f"player {p} {CLAN_NAMES[game.clan(p)]}" for p in range(rules.players))
        neutral = ", ".join(CLAN_NAMES[c] for c in game.neutral_clans) or "none"
        print(f"clans: {clans}; neutral: {neutral}; scores {game.scores}", file=stdout)
        print("you win!" if game.winners == (args.seat,) else
              ("you share the win" if args.seat in game.winners else "you lose"), file=stdout)  # fmt: skip
    if getattr(args, "save", None):
        try:
            with open(args.save, "w", encoding="utf-8") as file:
                file.write(game.to_json())
        except OSError as error:
            print(f"play: cannot save the game to {args.save!r}: {error.strerror or error}", file=stdout)
            return 1
        print(f"game saved to {args.save}", file=stdout)
    return 0


def run_simulate(args: argparse.Namespace, stdout: TextIO) -> int:
    """Simulate ``--games`` games and print the summary; 0, or 2 for bad options."""
    try:
        rules = rules_from_args(args)
        bots = args.bots if args.bots is not None else "random"
        kinds = [kind.strip() for kind in (bots.split(",") if isinstance(bots, str) else bots)]
        if len(kinds) == 1:
            kinds *= rules.players
        if len(kinds) != rules.players:
            raise OrdonnanceError(f"--bots must name 1 bot or {rules.players} (one per seat), got {len(kinds)}")
        players = [make_bot(kind, seat, getattr(args, "rollouts", None)) for seat, kind in enumerate(kinds)]
        start = time.perf_counter()
        result = simulate(rules, games=args.games, seed=args.seed, players=players)
    except (OrdonnanceError, ValueError, TypeError) as error:
        print(f"simulate: {error}", file=stdout)
        return 2
    seconds = time.perf_counter() - start
    names = ", ".join(f"player {p} = {kind}" for p, kind in enumerate(kinds))
    print(f"shinobi simulate: {args.games:,} games, {rules.players} players, seed {args.seed}: {names}", file=stdout)
    print(result.summary(), file=stdout)
    print(f"{seconds:.2f} s, {args.games / max(seconds, 1e-9):,.0f} games/s", file=stdout)
    return 0
