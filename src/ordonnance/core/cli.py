"""The command line's framework, written once for every game.

The ``ordonnance`` program (:mod:`ordonnance.__main__`) runs ``play``, ``demo``,
``simulate``, ``tournament``, ``ladder`` and ``bench`` for any game of the
registry (``--game``). What differs between games comes from that game's
``cli`` module, which exports ``HOOKS``: an instance of a :class:`Hooks`
subclass giving the game's rules options, its bots, its board and how to
narrate its moves. Everything else is here: the argument types (whole numbers
with commas, seeds, seconds), one-line errors (:class:`Parser`), bots by name
(``greedy``, ``montecarlo:400``, ``ismcts:50ms``; :func:`parse_bot`,
:func:`make_bot`), the options every game's commands share, and the commands
``play`` (the interactive table of :mod:`ordonnance.core.table`), ``demo``,
``simulate`` and ``bench``.

>>> from ordonnance.core.cli import hooks_of, parse_bot
>>> hooks = hooks_of("ordonnance")
>>> parse_bot("MonteCarlo:1,000", hooks)
BotSpec(kind='montecarlo', budget=1000, seconds=None)
>>> str(parse_bot("ismcts:50ms", hooks)), hooks.bot_title(parse_bot("ismcts:50ms", hooks))
('ismcts:0.05s', 'ISMCTS (0.05 s)')
"""

from __future__ import annotations

import argparse
import importlib
import inspect
import math
import os
import re
import secrets
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

import attrs

from ordonnance.core import registry
from ordonnance.core.table import Quit, Table
from ordonnance.core.terminal import WIDTH, fit
from ordonnance.errors import OrdonnanceError
from ordonnance.core.checks import shown

if TYPE_CHECKING:
    from ordonnance.core.warmup import FirstUse

__all__ = [
    "Parser", "Formatter", "Hooks", "Budget", "BotSpec", "hooks_of", "whole", "at_most", "seconds", "seed", "choice",
    "parse_bot", "make_bot", "bot_names", "add_game", "add_bots", "add_seed", "add_games", "add_time_limit", "add_rollouts",
    "add_play_arguments", "add_demo_arguments", "add_simulate_arguments", "add_bench_arguments", "rules_of",
    "run_play", "run_demo", "demo_game", "run_simulate", "run_bench", "run_quietly", "best_rate", "MAX_BUDGET", "EXIT_ERROR", "EXIT_INTERRUPTED",
]  # fmt: skip

#: The exit status of a refused value or an unreadable file (bad arguments exit with 2).
EXIT_ERROR = 1
#: The exit status after Ctrl-C.
EXIT_INTERRUPTED = 130
#: The largest budget (rollouts, iterations) a bot name or ``--rollouts`` takes unless its game says otherwise.
MAX_BUDGET = 1_000_000
_MASK64 = (1 << 64) - 1
# ASCII digits, at most a few dozen: plain, in groups of three by commas (100,000), or with
# single underscores between digits as in Python (100_000)
_WHOLE = re.compile(r"\+?(?=[0-9,_]{1,41}$)(?:[0-9]{1,3}(?:,[0-9]{3})+|[0-9](?:_?[0-9])*)")
_TIME = re.compile(r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(ms|s)")


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: the message and where to find help.

    Abbreviated options are refused (``--game`` is never read as ``--games``).
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        """Exit with status 2 and one line on standard error."""
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Help as written (examples keep their lines); ``--bots`` shown as the one list it is meant to be."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30)

    def _format_args(self, action: argparse.Action, default_metavar: str) -> str:
        if isinstance(action, _Bots):  # it still takes the bots separated by spaces, deprecated
            return str(action.metavar)
        return super()._format_args(action, default_metavar)


# --------------------------------------------------------------------- argument types


def whole(text: str) -> int:
    """A whole number written in ASCII digits (commas allowed: ``100,000``); a
    leading minus sign gives a negative number, for the range checks to report."""
    digits = text.strip()
    negative = digits.startswith("-") and not digits.startswith("--")
    if negative:
        digits = digits[1:]
    if not _WHOLE.fullmatch(digits):
        raise argparse.ArgumentTypeError(f"not a whole number: {shown(text):.60}")
    value = int(digits.replace(",", "").replace("_", ""))
    return -value if negative else value


def _positive(text: str, most: int | None = None) -> int:
    value = whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    if most is not None and value > most:
        raise argparse.ArgumentTypeError(f"must be at most {most:,}, got {value:,}")
    return value


def at_most(most: int) -> Callable[[str], int]:
    """An argparse type: a whole number from 1 to ``most``."""

    def convert(text: str) -> int:
        return _positive(text, most)

    convert.__name__ = "number"
    return convert


def seconds(text: str) -> float:
    """An argparse type: a positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {shown(text):.60}") from None
    if not 0 < value < math.inf:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {shown(text):.60}")
    return value


def seed(text: str) -> int:
    """An argparse type: a seed in 0..2**64-1, in decimal (commas allowed) or hexadecimal (``0x...``)."""
    stripped = text.strip().lower()
    if stripped.startswith("0x") and re.fullmatch(r"0x[0-9a-f]{1,16}", stripped):
        value = int(stripped, 16)
    else:
        value = whole(text)
    if not 0 <= value < 1 << 64:
        raise argparse.ArgumentTypeError(f"a seed is in 0..2**64-1, got {value}")
    return value


def choice(*allowed: str) -> Callable[[str], str]:
    """An argparse type: one of ``allowed``, any case, hyphens read as underscores (``latest-capture``)."""

    def convert(text: str) -> str:
        value = text.strip().lower().replace("-", "_")
        if value not in allowed:
            raise argparse.ArgumentTypeError(f"invalid choice: {shown(text)} (choose from {', '.join(allowed)})")
        return value

    convert.__name__ = "choice"
    return convert


# --------------------------------------------------------------------- bots by name


@attrs.frozen
class Budget:
    """What the ``N`` of a bot named ``kind:N`` sets."""

    keyword: str
    """The bot's argument it sets (``"rollouts"``, ``"iterations"``, ``"work"``)."""
    unit: str
    """What it counts, in titles and messages."""
    most: int = MAX_BUDGET
    """The largest ``N`` accepted."""


@attrs.frozen
class BotSpec:
    """A bot as the command line names it: its kind, and a fixed budget or a time limit a decision."""

    kind: str
    """``"random"``, ``"greedy"``, ``"montecarlo"``, ``"ismcts"``."""
    budget: int | None = None
    """The ``N`` of ``kind:N``, or None."""
    seconds: float | None = None
    """The time limit of ``kind:50ms`` or ``kind:0.05s``, or None."""

    def __str__(self) -> str:
        if self.budget is not None:
            return f"{self.kind}:{self.budget}"
        if self.seconds is not None:
            return f"{self.kind}:{self.seconds:g}s"
        return self.kind


def parse_bot(text: str, hooks: Hooks) -> BotSpec:
    """A bot's name for ``hooks``'s game, checked: ``kind``, ``kind:N`` (its budget, for search
    bots) or ``kind:50ms`` / ``kind:0.05s`` (its time limit a decision); argparse's error otherwise."""
    raw = text.strip()
    kind, colon, rest = raw.lower().partition(":")
    kind, rest = kind.strip(), rest.strip()
    if kind not in hooks.bots:
        raise argparse.ArgumentTypeError(f"unknown bot {shown(kind)} (choose from {', '.join(hooks.bots)})")
    if not colon:
        return BotSpec(kind)
    budget = hooks.budgets.get(kind)
    if budget is None:
        raise argparse.ArgumentTypeError(f"the {kind} bot takes no budget, got {shown(raw)}")
    timed = _TIME.fullmatch(rest)
    if timed:
        value = float(timed.group(1)) / (1000 if timed.group(2) == "ms" else 1)
        if not 0 < value < math.inf:
            raise argparse.ArgumentTypeError(f"the time limit of {shown(raw)} must be a positive number of seconds")
        return BotSpec(kind, seconds=value)
    try:
        return BotSpec(kind, budget=_positive(rest, budget.most))
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"the budget of {shown(raw)} ({budget.unit}) {error}") from None


def make_bot(hooks: Hooks, spec: BotSpec, seed: int, *, rollouts: int | None = None,
             time_limit: float | None = None) -> Any:  # fmt: skip
    """The bot ``spec`` names, seeded ``seed``. ``rollouts`` (``--rollouts``) is the budget of a
    ``montecarlo`` bot named without one; ``time_limit`` (``--time-limit``) the seconds every
    search bot may think a decision unless its name gives its own."""
    cls = hooks.bots[spec.kind]
    options: dict[str, Any] = {}
    budget = hooks.budgets.get(spec.kind)
    if budget is not None:
        if spec.budget is not None:
            options[budget.keyword] = spec.budget
        if spec.kind == "montecarlo" and rollouts is not None:
            options.setdefault("rollouts", rollouts)
        limit = spec.seconds if spec.seconds is not None else time_limit
        if limit is not None:
            if "time_limit" not in inspect.signature(cls).parameters:
                raise OrdonnanceError(f"the {hooks.title} {spec.kind} bot takes no time limit")
            options["time_limit"] = limit
    return cls(seed=seed, **options)


# --------------------------------------------------------------------- a game's hooks


class Hooks:
    """What a game gives the command line; its ``cli`` module exports an instance as ``HOOKS``.

    Override the class attributes and whichever methods the defaults do not
    serve. The game's package (:mod:`ordonnance.core.spec`) supplies ``Rules``,
    ``Game`` and ``simulate``.
    """

    #: The game's name in the registry (``--game``).
    name = ""
    #: The game's short title, for people.
    title = ""
    #: The bots by name (``random`` and ``greedy`` first), each a class taking ``seed=``.
    bots: Mapping[str, type] = {}
    #: The bots whose name may carry a budget (``montecarlo:400``), and what it sets.
    budgets: Mapping[str, Budget] = {}
    #: What the person's choices are called at the prompt (Shinobi gives orders).
    move_word = "move"
    #: The rules in brief, for ``help`` at the table.
    rules_help = ""
    #: Words the table understands besides the moves, with a line of help each.
    table_words: Mapping[str, str] = {}
    #: Games ``bench`` plays: with Random bots, with Greedy bots, and through the Game API.
    bench_games = (100_000, 20_000, 20)

    @property
    def package(self) -> Any:
        """The game's package (``Rules``, ``Game``, ``simulate``)."""
        return registry.package(self.name)

    def add_rules(self, parser: argparse.ArgumentParser) -> None:
        """Add the game's rules options to ``parser`` (the defaults: the standard game)."""

    def rules(self, args: argparse.Namespace) -> Any:
        """The ``Rules`` the parsed options describe (the library's error for a refused combination)."""
        return self.package.Rules()

    def rules_text(self, rules: Any) -> str:
        """The rules apart from the number of players, in one line."""
        return "standard rules"

    def board(self, table: Any, width: int | None) -> str:
        """A Game or one seat's PlayerView as text, lines within ``width`` columns."""
        return str(importlib.import_module(self.package.__name__ + ".render").board(table, width=width))

    def details(self, game: Any, you: int, width: int | None) -> str:
        """What ``board`` at the table shows seat ``you``: by default the board of its view."""
        return self.board(game.view(you), width)

    def describe(self, game: Any, action: Any) -> str:
        """``action`` as the list of moves shows it (it must start with ``str(action)``)."""
        return str(action)

    def seat_note(self, game: Any, seat: int, you: int | None) -> str:
        """What ``you`` may be told about ``seat`` when the game starts (an army, a clan), or ``""``."""
        return ""

    def bot_seed(self, seed: int, seat: int) -> int:
        """The seed of the bot of ``seat`` in a game of ``play`` dealt with ``seed``."""
        return (seed + seat) & _MASK64

    def before(self, game: Any, action: Any) -> Any:
        """What :meth:`narrate` needs of the position before ``action`` is applied."""
        return self.describe(game, action)

    def narrate(self, game: Any, seat: int, action: Any, names: Sequence[str], you: int | None, before: Any) -> list[str]:
        """The lines telling that ``names[seat]`` took ``action`` (applied already); the first
        names the move, the others its consequences. ``you`` is the person's seat, or None."""
        return [f"{names[seat]}: {before}"]

    def told(self, before: Any, after: Any, action: Any) -> str | None:
        """What anyone at the table sees ``action`` do beyond the action itself, from the position
        ``before`` it to ``after`` (a Black Prince fight's totals and their parts), or None: the
        play server sends it with the move. None by default."""
        return None

    def outcome(self, game: Any, you: int, names: Sequence[str]) -> list[str]:
        """The lines that end a game of ``play`` (``names[you]`` is ``"you"``)."""
        winner = game.winner
        if winner is None:
            return ["game over: nobody wins"]
        return ["game over: you win!" if winner == you else f"game over: {names[winner]} wins"]

    def parse_move(self, text: str, actions: Sequence[Any]) -> Any | str | None:
        """A move typed in the game's own words: the action, why it is none, or None if not understood."""
        return None

    def table_word(self, word: str, game: Any, you: int) -> str:
        """The answer to one of :attr:`table_words`."""
        raise NotImplementedError(word)

    def bench(self, quick: bool, row: Callable[[str, float, str], None]) -> None:
        """Measure the game's own headline figures (before the simulator's): call ``row(name, value, unit)``."""

    def first_uses(self) -> Sequence[FirstUse]:
        """The game's own first uses for ``warm-up`` (:mod:`ordonnance.core.warmup`), beyond the
        ones every game has (``simulate``, a MonteCarlo move): none by default."""
        return ()

    def bot_title(self, spec: BotSpec) -> str:
        """A bot's name for people: ``Greedy``, ``MonteCarlo (400 rollouts)``, ``ISMCTS (0.05 s)``."""
        title = self.bots[spec.kind].__name__
        if spec.budget is not None:
            return f"{title} ({spec.budget:,} {self.budgets[spec.kind].unit})"
        if spec.seconds is not None:
            return f"{title} ({spec.seconds:g} s)"
        return title


def hooks_of(name: str) -> Hooks:
    """The command-line hooks of the game called ``name`` (its ``cli`` module's ``HOOKS``)."""
    module = importlib.import_module(registry.info(name).package + ".cli")
    hooks: Hooks = module.HOOKS
    return hooks


# --------------------------------------------------------------------- options every game's commands share


def add_game(parser: argparse.ArgumentParser, hooks: Hooks, command: str) -> None:
    """``--game``: which game the command is about (``hooks``'s game, being parsed)."""
    names = registry.names()
    parser.add_argument(
        "--game", choices=names, default=names[0],
        help=f"the game: {', '.join(names[1:-1])} or {names[-1]}, or {names[0]} (the default); each takes "
        f"its own rules options (see 'ordonnance {command} --game NAME --help')",
    )  # fmt: skip


class _Bots(argparse.Action):
    """``--bots a,b,c``: the bots, comma-separated; ``--bots a b c`` still works, with a note."""

    def __init__(self, *args: Any, hooks: Hooks, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hooks = hooks

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:  # fmt: skip
        words = [values] if isinstance(values, str) else list(values)
        if len(words) > 1:
            print(f"{parser.prog}: note: --bots takes one comma-separated list, as in --bots {','.join(words)}; "
                  "the bots separated by spaces are deprecated", file=sys.stderr)  # fmt: skip
        parts = [part for word in words for part in word.split(",") if part.strip()]
        if not parts:
            raise argparse.ArgumentError(self, "give at least one bot, e.g. greedy,random")
        try:
            specs = [parse_bot(part, self.hooks) for part in parts]
        except argparse.ArgumentTypeError as error:
            raise argparse.ArgumentError(self, str(error)) from None
        setattr(namespace, self.dest, specs)


def add_bots(parser: argparse.ArgumentParser, hooks: Hooks, help: str, default: Sequence[str] | None = None) -> None:
    """``--bots BOT[,BOT...]``: a list of :class:`BotSpec` (``default`` names, or None)."""
    parser.add_argument(
        "--bots", action=_Bots, hooks=hooks, nargs="+", metavar="BOT[,BOT...]", help=help,
        default=None if default is None else [parse_bot(name, hooks) for name in default],
    )  # fmt: skip


def add_seed(parser: argparse.ArgumentParser, default: int | None, help: str) -> None:
    """``--seed SEED``."""
    parser.add_argument("--seed", type=seed, default=default, help=help)


def add_games(parser: argparse.ArgumentParser, most: int, default: int, help: str) -> None:
    """``--games N`` (1 to ``most``)."""
    parser.add_argument("--games", type=at_most(most), default=default, help=help)


def add_time_limit(parser: argparse.ArgumentParser, help: str) -> None:
    """``--time-limit SECONDS``."""
    parser.add_argument("--time-limit", type=seconds, default=None, metavar="SECONDS", help=help)


def add_rollouts(parser: argparse.ArgumentParser) -> None:
    """``--rollouts N``: the budget of ``montecarlo`` bots named without one."""
    parser.add_argument(
        "--rollouts", type=at_most(MAX_BUDGET), default=None, help="rollouts per decision of montecarlo bots"
    )


def bot_names(hooks: Hooks) -> str:
    """The bots of ``hooks``'s game by name, and how a search bot's name takes a budget or a time, for help texts."""
    budgeted = ", ".join(f"{kind}:N ({budget.unit} a decision)" for kind, budget in hooks.budgets.items())
    timed = " or a time a decision (montecarlo:50ms, montecarlo:0.05s)" if hooks.budgets else ""
    return f"{', '.join(hooks.bots)}" + (f"; {budgeted}{timed}" if budgeted else "")


_THINK = "seconds a search bot thinks a decision, unless its name gives a budget or a time (default: its own budget)"


def add_play_arguments(parser: argparse.ArgumentParser, hooks: Hooks) -> None:
    """The options of ``play`` for ``hooks``'s game (``--game`` apart)."""
    parser.add_argument(
        "--bot", type=lambda text: parse_bot(text, hooks), default=parse_bot("greedy", hooks),
        metavar="{" + ",".join(hooks.bots) + "}[:N]", help=f"the opponents (default greedy): {bot_names(hooks)}",
    )  # fmt: skip
    add_seed(parser, None, "the deal's seed (default: random, and printed)")
    parser.add_argument("--seat", type=whole, default=0, help="your seat, 0 to players-1 (default 0: you start)")
    parser.add_argument("--save", metavar="FILE", default=None, help="save the game as JSON when it ends or you quit")
    parser.add_argument("--wide", action="store_true", help="boards as wide as they come (default: 80 columns)")
    add_time_limit(parser, _THINK)
    hooks.add_rules(parser)


def add_demo_arguments(parser: argparse.ArgumentParser, hooks: Hooks) -> None:
    """The options of ``demo`` (``--game`` apart)."""
    add_seed(parser, 7, "the deal's seed, 0..2**64-1 (default 7)")
    parser.add_argument("--wide", action="store_true", help="boards as wide as they come (default: 80 columns)")
    hooks.add_rules(parser)


def add_simulate_arguments(parser: argparse.ArgumentParser, hooks: Hooks) -> None:
    """The options of ``simulate`` (``--game`` apart)."""
    most = int(getattr(importlib.import_module(hooks.package.__name__ + ".simulation"), "MAX_GAMES", 100_000_000))
    add_games(parser, most, 10_000, f"games to play, at most {most:,} (default 10,000)")
    add_seed(parser, 1, "the seed of the deals (default 1)")
    add_bots(parser, hooks, f"the bot of each seat, e.g. greedy,random, or one for every seat (default random): "
                            f"{bot_names(hooks)}")  # fmt: skip
    add_rollouts(parser)
    add_time_limit(parser, _THINK)
    hooks.add_rules(parser)


def add_bench_arguments(parser: argparse.ArgumentParser, hooks: Hooks) -> None:
    """The options of ``bench`` (``--game`` apart)."""
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test, not a measurement")


def rules_of(hooks: Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser) -> Any:
    """The rules the options describe; a combination the rules refuse is a bad argument (exit 2)."""
    try:
        return hooks.rules(args)
    except OrdonnanceError as error:
        parser.error(str(error))


# --------------------------------------------------------------------- play, demo, simulate, bench


def _width(args: argparse.Namespace) -> int | None:
    return None if getattr(args, "wide", False) else WIDTH


def run_play(hooks: Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser,
             stdin: TextIO, stdout: TextIO) -> int:  # fmt: skip
    """``play``: one person against bots, on ``stdin`` and ``stdout``; returns the exit status."""
    rules = rules_of(hooks, args, parser)
    players = rules.players
    if not 0 <= args.seat < players:
        parser.error(f"--seat must be 0..{players - 1} for {players} players, got {args.seat}")
    deal = secrets.randbits(32) if args.seed is None else args.seed
    game = hooks.package.Game.new(rules, seed=deal)
    title = hooks.bot_title(args.bot)
    bots = {p: make_bot(hooks, args.bot, hooks.bot_seed(deal, p), time_limit=args.time_limit)
            for p in range(players) if p != args.seat}  # fmt: skip
    you = f"player {args.seat}" + (f" ({note})" if (note := hooks.seat_note(game, args.seat, args.seat)) else "")
    opponents = ", ".join(f"{title} (player {p}" + (f", {note}" if (note := hooks.seat_note(game, p, args.seat)) else "") + ")"
                          for p in sorted(bots))  # fmt: skip
    width = _width(args)
    print(fit(f"{hooks.title}, {players} players, seed {deal}: you are {you}, against {opponents}.", width), file=stdout)
    print(fit(f'Type {hooks.move_word}s by number or as listed, "help" to learn the game, "quit" to leave.', width),
          file=stdout)  # fmt: skip
    reconfigure = getattr(stdin, "reconfigure", None)
    if callable(reconfigure):  # bytes that are not the encoding's become U+FFFD: "not understood", not a traceback
        reconfigure(errors="replace")
    table = Table(hooks, game, args.seat, bots, {p: title for p in bots}, stdin, stdout, width)
    status = 0
    try:
        table.play()
    except Quit:
        print("bye", file=stdout)
    except KeyboardInterrupt:
        print("\ninterrupted, bye", file=stdout)
        status = EXIT_INTERRUPTED
    if args.save is not None:
        try:
            with open(args.save, "w", encoding="utf-8") as file:
                file.write(game.to_json())
        except OSError as error:
            print(f"{parser.prog}: error: cannot save the game to {args.save!r}: {error.strerror or error}", file=sys.stderr)
            return EXIT_ERROR
        print(f"game saved to {args.save}" + (" (see: ordonnance odds FILE)" if hooks.name == "ordonnance" else ""),
              file=stdout)  # fmt: skip
    return status


def run_demo(hooks: Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser, stdout: TextIO) -> int:
    """``demo``: :func:`demo_game` with the rules and seed of the options."""
    demo_game(hooks, rules_of(hooks, args, parser), args.seed, stdout, _width(args))
    return 0


def demo_game(hooks: Hooks, rules: Any, seed: int, stdout: TextIO, width: int | None = WIDTH) -> None:
    """Play one game dealt with ``seed``, Greedy (player 0) against Random bots, narrating every move."""
    players = rules.players
    game = hooks.package.Game.new(rules, seed=seed)
    bots = [hooks.bots["greedy"](seed=seed)] + [hooks.bots["random"](seed=(seed + p) & _MASK64) for p in range(1, players)]
    names = [f"player {p}" for p in range(players)]
    print(f"{hooks.title}, {players} players, seed {seed}: "
          + ", ".join(f"player {p} = {type(bot).__name__}" for p, bot in enumerate(bots)), file=stdout)  # fmt: skip
    print(file=stdout)
    number = 0
    while not game.is_over:
        seat = game.current_player
        action = bots[seat].choose(game.view(seat))
        before = hooks.before(game, action)
        game.apply(action)
        number += 1
        first, *rest = hooks.narrate(game, seat, action, names, None, before)
        print(fit(f"{number:>3}. {first}", width, 5), file=stdout)
        for line in rest:
            print(fit(f"     {line}", width, 7), file=stdout)
    print(file=stdout)
    print(hooks.board(game, width), file=stdout)


def run_simulate(hooks: Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser, stdout: TextIO) -> int:
    """``simulate``: many games between bots with the game's ``simulate``, then its summary."""
    rules = rules_of(hooks, args, parser)
    players = rules.players
    specs = args.bots or [BotSpec("random")]
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        parser.error(f"--bots must name 1 bot or {players} (one per seat), got {len(specs)}")
    bots = [make_bot(hooks, spec, seat, rollouts=args.rollouts, time_limit=args.time_limit)
            for seat, spec in enumerate(specs)]  # fmt: skip
    names = ", ".join(f"player {p} = {hooks.bot_title(spec)}" for p, spec in enumerate(specs))
    print(f"{hooks.title} simulate: {args.games:,} games, {players} players, seed {args.seed}: {names}", file=stdout)
    print(f"rules: {hooks.rules_text(rules)}", file=stdout)
    start = time.perf_counter()
    result = hooks.package.simulate(rules, games=args.games, seed=args.seed, players=bots)
    elapsed = time.perf_counter() - start
    print(result.summary(), file=stdout)
    print(f"{elapsed:.2f} s, {args.games / max(elapsed, 1e-9):,.0f} games/s", file=stdout)
    return 0


def best_rate(function: Callable[[], object], items: int, repeats: int) -> float:
    """Items a second of ``function`` (which handles ``items``), at its fastest of ``repeats`` runs."""
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return items / max(best, 1e-12)


def run_bench(hooks: Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser, stdout: TextIO) -> int:
    """``bench``: the game's own figures, then its simulator and its Game API, on one core."""
    import random

    quick = args.quick
    games, greedy_games, api_games = (500, 200, 2) if quick else hooks.bench_games
    repeats = 2 if quick else 3
    jit = os.environ.get("NUMBA_DISABLE_JIT") != "1"
    print(f"{hooks.name} bench{' --quick' if quick else ''}: one core, best of {repeats}; "
          f"numba JIT {'on' if jit else 'OFF (NUMBA_DISABLE_JIT=1): pure-Python speeds'}", file=stdout)  # fmt: skip

    def row(name: str, value: float, unit: str) -> None:
        figure = f"{value:,.0f}" if value >= 100 else f"{value:,.2f}"
        print(f"  {name:<46} {figure:>16}  {unit}", file=stdout, flush=True)

    hooks.bench(quick, row)
    package = hooks.package
    rules = package.Rules()
    n = rules.players
    package.simulate(rules, games=10, seed=1)
    who = "{} vs {}" if n == 2 else "{} x" + str(n)
    random_rate = best_rate(lambda: package.simulate(rules, games=games, seed=1), games, repeats)
    row(f"simulate, {n}p " + who.format("Random", "Random"), random_rate, "games/s")
    greedy = [hooks.bots["greedy"](seed=p + 1) for p in range(n)]
    package.simulate(rules, games=2, seed=1, players=greedy)
    row(
        f"simulate, {n}p " + who.format("Greedy", "Greedy"),
        best_rate(lambda: package.simulate(rules, games=greedy_games, seed=1, players=greedy), greedy_games, repeats),
        "games/s",
    )
    decisions = 0

    def api_games_run() -> None:
        nonlocal decisions
        decisions = 0
        rng = random.Random(0)
        for deal in range(api_games):
            game = package.Game.new(rules, seed=deal)
            while not game.is_over:
                game.apply(rng.choice(list(game.legal_actions())))
                decisions += 1

    api_games_run()
    row("Game API: legal_actions + apply, random play", best_rate(api_games_run, decisions, repeats), "decisions/s")
    return 0


# --------------------------------------------------------------------- options parsed elsewhere


class _Refused(Exception):
    """A bad option, reported as a line rather than by exiting."""


class _Quiet(Parser):
    def error(self, message: str) -> NoReturn:
        raise _Refused(message)


def _completed(hooks: Hooks, command: str, args: argparse.Namespace) -> argparse.Namespace:
    """``args`` with the defaults of ``command``'s options it lacks, and bots named by strings parsed."""
    fresh = _Quiet(prog=command)
    {"play": add_play_arguments, "simulate": add_simulate_arguments}[command](fresh, hooks)
    options = {**vars(fresh.parse_args([])), **vars(args)}
    try:
        if isinstance(options.get("bot"), str):
            options["bot"] = parse_bot(options["bot"], hooks)
        bots = options.get("bots")
        if isinstance(bots, str) or (isinstance(bots, (list, tuple)) and any(isinstance(b, str) for b in bots)):
            words = bots.split(",") if isinstance(bots, str) else [w for b in bots for w in str(b).split(",")]
            options["bots"] = [parse_bot(word, hooks) for word in words if word.strip()]
    except argparse.ArgumentTypeError as error:
        raise _Refused(str(error)) from None
    return argparse.Namespace(**options)


def run_quietly(command: str, run: Callable[..., int], hooks: Hooks, args: argparse.Namespace, *streams: TextIO) -> int:
    """Run ``play`` or ``simulate`` (``run``: :func:`run_play` or :func:`run_simulate`) on options
    parsed by a program of its own: a bad option or a refused value is a line on the last
    stream, ``COMMAND: message``, and status 2 (the older game modules' interface)."""
    try:
        return run(hooks, _completed(hooks, command, args), _Quiet(prog=command), *streams)
    except (_Refused, OrdonnanceError) as error:
        print(f"{command}: {error}", file=streams[-1])
        return 2
