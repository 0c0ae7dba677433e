"""The command line: ``python -m ordonnance COMMAND`` (also installed as ``ordonnance``).

Commands: ``play`` (you against bots), ``demo`` (bots, narrated), ``simulate``,
``tournament``, ``ladder``, ``bench`` for every game (``--game ordonnance``, the
default, ``shinobi`` or ``black-prince``), ``odds`` (of a saved Ordonnance
game), ``warm-up`` (compile the kernels ahead of their first use), ``lab``
(balance studies of a variant: :mod:`ordonnance.lab.cli`) and ``serve`` (the play
server: :mod:`ordonnance.server.cli`).
``ordonnance COMMAND --help`` describes each, ``ordonnance COMMAND --game
NAME --help`` with that game's options. Every mistake gets one line on standard
error, never a traceback: bad arguments exit with status 2, a file that cannot
be read or is no valid game (or any other refused value) with status 1; Ctrl-C
exits with status 130. A long first compile shows on stderr as it runs
(:mod:`ordonnance.core.compile_bar`).

The commands are written once (:mod:`ordonnance.core.cli`); each game's ``cli``
module gives its hooks.
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ordonnance.cli import demo
from ordonnance.core import cli as core
from ordonnance.core import compiling, executor_cli
from ordonnance.core.compile_bar import CompileBar
from ordonnance.core import registry
from ordonnance.errors import OrdonnanceError
from ordonnance.core.checks import shown

__all__ = ["main", "demo", "build_parser"]

#: The commands, in the order ``--help`` lists them.
COMMANDS = ("play", "demo", "simulate", "tournament", "ladder", "odds", "bench", "warm-up", "lab", "serve")


class _Failure(Exception):
    """A one-line error for the user (exit status 1)."""


def _fail(command: str, message: str) -> int:
    print(f"ordonnance {command}: error: {message}", file=sys.stderr)
    return core.EXIT_ERROR


def _wrap(text: str) -> str:
    return textwrap.fill(text, width=min(shutil.get_terminal_size().columns - 2, 78))


# --------------------------------------------------------------------- tournament and ladder


def _add_tournament_arguments(parser: argparse.ArgumentParser, hooks: core.Hooks) -> None:
    from ordonnance.tournament import MAX_CHUNK_SIZE, MAX_GAMES

    core.add_bots(parser, hooks, "the bots, repeats allowed (default greedy,random, and random bots for the "
                                 f"other seats of a larger game): {core.bot_names(hooks)}")  # fmt: skip
    core.add_games(parser, MAX_GAMES, 10_000, "games in all, shared by the seatings (default 10,000)")
    core.add_seed(parser, 1, "the tournament's seed (default 1)")
    executor_cli.add_executor_arguments(parser)
    parser.add_argument(
        "--chunk-size", type=core.at_most(MAX_CHUNK_SIZE), default=None, help="games per task (default: automatic)"
    )
    core.add_time_limit(
        parser, "seconds a bot may think a decision: search bots think up to it (unless their names give a "
        "budget or a time), and a bot over it loses that game (default: no limit)",
    )  # fmt: skip
    core.add_rollouts(parser)
    parser.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="show a progress bar on standard error (default: on long runs, in a terminal)",
    )  # fmt: skip
    hooks.add_rules(parser)


def _run_tournament(hooks: core.Hooks, args: argparse.Namespace, parser: argparse.ArgumentParser,
                    ladder: bool = False) -> int:  # fmt: skip
    from ordonnance.ladder import rate
    from ordonnance.tournament import tournament

    rules = core.rules_of(hooks, args, parser)
    seats = max(rules.players, 2)
    specs = args.bots
    if specs is None:
        specs = [core.parse_bot(name, hooks) for name in ["greedy", "random"] + ["random"] * (seats - 2)]
    if len(specs) < seats:
        parser.error(f"--bots must name at least {seats} bots for {rules.players}-player games")
    executor_cli.check_executor_arguments(args, parser)
    names = [str(spec) for spec in specs]
    players = {
        name if names.count(name) == 1 else f"{name}-{i}": core.make_bot(
            hooks, spec, i, rollouts=args.rollouts, time_limit=args.time_limit
        )
        for i, (name, spec) in enumerate(zip(names, specs))
    }
    if ladder and args.anchor is not None and args.anchor not in players:
        parser.error(f"--anchor {args.anchor!r} is not one of the bots: {', '.join(players)}")
    print(f"rules: {hooks.title}, {rules.players} players, {hooks.rules_text(rules)}", flush=True)
    start = time.perf_counter()
    try:
        with executor_cli.executor_of(args, "process") as executor:
            result = tournament(
                players, args.games, rules, seed=args.seed, executor=executor, workers=args.workers,
                chunk_size=args.chunk_size, progress=args.progress, time_limit=args.time_limit,
            )  # fmt: skip
    except executor_cli.ExecutorFailure as failure:
        return _fail("tournament", str(failure))
    elapsed = time.perf_counter() - start
    print(rate(result, args.anchor) if ladder else result)
    print(f"{elapsed:.2f} s, {result.games / max(elapsed, 1e-9):,.0f} games/s, {result.chunks:,} chunks")
    return 0


# --------------------------------------------------------------------- odds (Ordonnance's saves)


def _read_game(path: str) -> Any:
    from ordonnance.game import Game
    from ordonnance.serialization import MAX_TEXT_SIZE

    try:
        if path == "-":
            text = sys.stdin.read(MAX_TEXT_SIZE + 1)
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read(MAX_TEXT_SIZE + 1)  # a longer file is refused without reading it all
    except OSError as error:
        raise _Failure(f"cannot read {shown(path)}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise _Failure(f"{shown(path)} is not a text file (expected a game saved as JSON)") from None
    try:
        return Game.from_json(text)
    except (ValueError, TypeError) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise _Failure(f"{shown(path)} is not a valid saved game: {first}") from None


def _run_odds(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from ordonnance.odds import territory_odds
    from ordonnance.territory import Territory

    try:
        game = _read_game(args.file)
    except _Failure as failure:
        return _fail("odds", str(failure))
    if args.player is not None and not 0 <= args.player < game.players:
        parser.error(f"--player must be 0..{game.players - 1} for this {game.players}-player game, got {args.player}")
    print(game)
    print()
    seen = "public information" if args.player is None else f"what player {args.player} can see"
    print(f"odds of each territory if the missing cards fall at random ({seen}):")
    for t in Territory:
        print(f"  {territory_odds(game, t, player=args.player, samples=args.samples, seed=args.seed)}")
    return 0


# --------------------------------------------------------------------- warm-up


def _run_warm_up(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from tqdm import tqdm

    from ordonnance.core import warmup

    uses = warmup.first_uses(args.game)
    jobs = args.jobs or warmup.default_jobs()
    which = "every game" if args.game is None else registry.info(args.game).title
    print(f"compiling the kernels of {which}: {len(uses)} first uses in {min(jobs, len(uses))} processes "
          "(minutes on a first run, seconds once cached)", file=sys.stderr)  # fmt: skip
    start = time.perf_counter()
    with tqdm(total=len(uses), unit="use", file=sys.stderr, disable=args.quiet) as bar:

        def advance(outcome: warmup.Outcome) -> None:
            bar.set_postfix_str(outcome.use.name, refresh=False)
            bar.update()

        outcomes = warmup.warm_up(args.game, jobs=jobs, progress=advance)
    failed = 0
    for outcome in outcomes:
        if outcome.skipped:
            state = f"skipped (needs the {outcome.use.extra} extra)"
        elif outcome.error is not None:
            state, failed = f"FAILED: {outcome.error.splitlines()[0]}", failed + 1
        else:
            state = f"{outcome.seconds:6.1f} s"
        print(f"  {outcome.use.name:<48} {state}")
    locations = warmup.cache_locations()
    print(f"done in {time.perf_counter() - start:.1f} s; the compiled kernels are cached in "
          f"{warmup.common_folder(locations) or 'no folder (numba caching is off)'}"
          f"{f' ({len(locations)} folders below it)' if len(locations) > 1 else ''}")  # fmt: skip
    return core.EXIT_ERROR if failed else 0


# --------------------------------------------------------------------- the parser

_EXAMPLES = {
    "play": ["ordonnance play", "ordonnance play --bot montecarlo --seed 7", "ordonnance play --bot ismcts",
             "ordonnance play --players 3 --seat 1 --save game.json", "ordonnance play --game shinobi --bot greedy",
             "ordonnance play --game black-prince --armies Scottish French"],
    "demo": ["ordonnance demo --seed 3", "ordonnance demo --game shinobi --players 5"],
    "simulate": ["ordonnance simulate --games 100000", "ordonnance simulate --bots greedy,random --auto-claim",
                 "ordonnance simulate --players 4 --scoring points --tie-break lowest-marker-sum",
                 "ordonnance simulate --game black-prince --bots greedy,random"],
    "tournament": ["ordonnance tournament --games 100000",
                   "ordonnance tournament --bots greedy,random,montecarlo --games 600 --rollouts 200",
                   "ordonnance tournament --players 3 --bots greedy,greedy,random,random --serial",
                   "ordonnance tournament --game shinobi --games 100",
                   "ordonnance tournament --dask tcp://scheduler:8786 --games 10000000"],
    "ladder": ["ordonnance ladder --bots random,greedy,montecarlo:100,ismcts:1000 --games 2000",
               "ordonnance ladder --bots greedy,random --games 100000 --anchor greedy",
               "ordonnance ladder --game black-prince --bots random,greedy,montecarlo:64 --games 200"],
    "odds": ["ordonnance odds game.json", "ordonnance odds game.json --player 0",
             "python -c 'import ordonnance as od; print(od.Game.new(seed=1).to_json())' | ordonnance odds -"],
    "bench": ["ordonnance bench --quick", "ordonnance bench --game shinobi"],
    "warm-up": ["ordonnance warm-up", "ordonnance warm-up --game shinobi --jobs 2",
                "NUMBA_CACHE_DIR=/tmp/kernels ordonnance warm-up"],
}  # fmt: skip


def _command(commands: Any, name: str, hooks: core.Hooks, summary: str, description: str) -> argparse.ArgumentParser:
    parser: core.Parser = commands.add_parser(
        name, help=summary, formatter_class=core.Formatter, description=_wrap(description),
        epilog="Examples:\n" + "\n".join(f"  {line}" for line in _EXAMPLES[name]),
    )  # fmt: skip
    if name != "odds" and hooks.name != registry.names()[0]:
        parser.prog += f" --game {hooks.name}"  # its errors and usage name the game
    return parser


def build_parser(game: str = "ordonnance") -> argparse.ArgumentParser:
    """The argument parser of ``python -m ordonnance``, its commands' options those of ``game``."""
    hooks = core.hooks_of(game)
    title = hooks.title
    parser = core.Parser(
        prog="ordonnance",
        formatter_class=core.Formatter,
        description=_wrap(
            "Three card games, Ordonnance, Shinobi and Black Prince: play them, simulate them, run bot "
            "tournaments. Every command but odds takes --game (default ordonnance)."
        ),
        epilog=(
            "Run 'ordonnance COMMAND --help' for a command's options. Examples:\n"
            "  ordonnance play --bot greedy\n"
            "  ordonnance simulate --games 100000 --bots greedy,random\n"
            "  ordonnance tournament --game shinobi --games 2000"
        ),
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")  # each a core.Parser

    def runner(run: Callable[..., int], *streams: str) -> Callable[[argparse.Namespace, argparse.ArgumentParser], int]:
        def go(args: argparse.Namespace, sub: argparse.ArgumentParser) -> int:
            return run(hooks, args, sub, *[getattr(sys, stream) for stream in streams])

        return go

    play = _command(commands, "play", hooks, "play a game against bots in the terminal",
                    f"Play {title} against bots in the terminal. Each turn shows the table, your hand and your "
                    "legal moves, numbered: type a number or the move as listed (a unique beginning will do), "
                    "'board' for the table in full, 'help' for the rules in brief, 'quit' (or Ctrl-D) to leave.")  # fmt: skip
    core.add_game(play, hooks, "play")
    core.add_play_arguments(play, hooks)
    play.set_defaults(run=runner(core.run_play, "stdin", "stdout"), parser=play)

    demo_parser = _command(commands, "demo", hooks, "play and narrate a seeded game between bots",
                           f"Play one seeded game of {title}, Greedy (player 0) against Random bots, and narrate it.")
    core.add_game(demo_parser, hooks, "demo")
    core.add_demo_arguments(demo_parser, hooks)
    demo_parser.set_defaults(run=runner(core.run_demo, "stdout"), parser=demo_parser)

    sim = _command(commands, "simulate", hooks, "simulate many games and print win rates",
                   f"Play many whole games of {title} with the game's simulate() and print the summary: win "
                   "rates with 95% intervals, the first-player advantage and the game's own figures. Random and "
                   "Greedy bots run in the numba kernel (thousands of games a second); search bots think for "
                   "each decision (milliseconds to tens of milliseconds).")  # fmt: skip
    core.add_game(sim, hooks, "simulate")
    core.add_simulate_arguments(sim, hooks)
    sim.set_defaults(run=runner(core.run_simulate, "stdout"), parser=sim)

    tour = _command(commands, "tournament", hooks, "play bots against each other in every seat and rank them",
                    f"Run ordonnance.tournament() on {title}: every ordered choice of different bots, one per "
                    "seat, plays the same deals; prints each bot's win rate with its 95% interval and Elo rating, "
                    "the pairwise table and the wins by seat. Chunks of games run in parallel on local processes "
                    "(or a Dask cluster); the same seed gives the same table whatever runs it.")  # fmt: skip
    core.add_game(tour, hooks, "tournament")
    _add_tournament_arguments(tour, hooks)
    tour.set_defaults(run=functools.partial(_run_tournament, hooks), parser=tour)

    lad = _command(commands, "ladder", hooks, "rate bots: Bradley-Terry Elo with 95%% intervals, Random = 0",
                   f"Run ordonnance.ladder() on {title}: a tournament (every pair of bots meets on the same deals "
                   "in every seating), then Bradley-Terry Elo ratings counted from the anchor bot (random when it "
                   "plays, else the first bot) with 95% intervals, and the pairwise table. A bot given with a "
                   "budget (montecarlo:200) or a time (ismcts:50ms) thinks so; the names are as given.")  # fmt: skip
    core.add_game(lad, hooks, "ladder")
    _add_tournament_arguments(lad, hooks)
    lad.add_argument("--anchor", default=None, metavar="BOT", help="the bot rated 0 (default random, else the first)")
    lad.set_defaults(run=functools.partial(_run_tournament, hooks, ladder=True), parser=lad)

    odds = _command(commands, "odds", hooks, "each territory's odds in a saved Ordonnance game",
                    "Read an Ordonnance game saved as JSON (Game.to_json(), or 'play --save') and print the table "
                    "and, for each territory, each player's probability of winning it if the missing cards fall "
                    "at random: exact when few outcomes remain, else sampled, with standard errors.")  # fmt: skip
    _add_odds_arguments(odds)
    odds.set_defaults(run=_run_odds, parser=odds)

    bench = _command(commands, "bench", hooks, "measure the headline speeds on this machine",
                     f"Measure {title}'s headline speeds on one core of this machine, in a few seconds: the game's "
                     "own figures (Ordonnance: the army evaluator against a plain memory pass, the completion "
                     "search's worst case), the simulator with Random and Greedy bots, and decisions through the "
                     "Game API. The full benchmarks are in benchmarks/ (pytest-benchmark).")  # fmt: skip
    core.add_game(bench, hooks, "bench")
    core.add_bench_arguments(bench, hooks)
    bench.set_defaults(run=runner(core.run_bench, "stdout"), parser=bench)

    warm = _command(commands, "warm-up", hooks, "compile the kernels ahead of their first use",
                    "Compile the library's numba kernels now, in parallel processes, so that no later run "
                    "waits for them: every first use of every game (or of --game), small workloads that "
                    "reach each kernel. They are cached where numba keeps its cache (NUMBA_CACHE_DIR when "
                    "set, else beside the modules), which the last line names; a later run, or a reinstall "
                    "of the same version, loads them in a fraction of a second.")  # fmt: skip
    names = registry.names()
    warm.add_argument("--game", choices=names, default=None, help=f"only this game's kernels: {', '.join(names)} "
                      "(default: every game)")  # fmt: skip
    warm.add_argument("--jobs", type=core.at_most(256), default=None,
                      help="processes compiling at once (default: one per core this process may use)")
    warm.add_argument("--quiet", action="store_true", help="no progress bar")
    warm.set_defaults(run=_run_warm_up, parser=warm)

    from ordonnance.lab.cli import add_lab  # ordonnance lab metrics|compare ...: the designer's lab

    add_lab(commands, hooks, _wrap)
    from ordonnance.server.cli import add_serve  # ordonnance serve: the play server (web extra)

    add_serve(commands, _wrap)
    return parser


def _add_odds_arguments(odds: argparse.ArgumentParser) -> None:
    from ordonnance.odds import MAX_SAMPLES

    odds.add_argument("file", metavar="FILE", help="the saved game (JSON); '-' reads standard input")
    odds.add_argument("--player", type=core.whole, default=None, help="take this seat's view (it also knows its own hand)")
    odds.add_argument(
        "--samples", type=core.at_most(MAX_SAMPLES), default=20_000,
        help=f"random completions when not exact, at most {MAX_SAMPLES:,} (default 20,000)",
    )  # fmt: skip
    odds.add_argument("--seed", type=core.seed, default=0, help="the sampling seed (default 0)")


def _game_asked(argv: Sequence[str]) -> str:
    """The game a command line asks for (``--game NAME`` or ``--game=NAME`` after the command),
    else Ordonnance, whose parser also explains an unknown game."""
    for i, arg in enumerate(argv[1:], 1):
        if arg == "--":
            break
        name = argv[i + 1] if arg == "--game" and i + 1 < len(argv) else arg[7:] if arg.startswith("--game=") else None
        if name in registry.names():
            return name
    return registry.names()[0]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (argparse exits with 2 on bad arguments)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    args, unknown = build_parser(_game_asked(arguments)).parse_known_args(arguments)
    if unknown:  # told by the command's parser, which names the help that lists its options
        args.parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        # The kernels' SplitMix64 wraps around uint64 on purpose; without the JIT
        # (NUMBA_DISABLE_JIT=1) NumPy would report each wraparound as an overflow.
        with np.errstate(over="ignore"), compiling.watch(CompileBar(sys.stderr)):
            return int(args.run(args, args.parser))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return core.EXIT_INTERRUPTED
    except OrdonnanceError as error:  # a value the library refused: one line, as for a bad file
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        return _fail(args.command, first)
    except BrokenPipeError:
        # The reader went away (e.g. "| head"): silence the final flush, as Python's docs advise.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return core.EXIT_ERROR


if __name__ == "__main__":
    sys.exit(main())
