"""The command line: ``python -m ordonnance COMMAND`` (also installed as ``ordonnance``).

Commands: ``play`` (you against a bot), ``demo`` (two bots, narrated),
``simulate``, ``tournament``, ``odds`` (of a saved game) and ``bench``.
``ordonnance COMMAND --help`` describes each. Every mistake gets one line on
standard error, never a traceback: bad arguments exit with status 2, a file
that cannot be read or is no valid game (or any other refused value) with
status 1; Ctrl-C exits with status 130.
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import re
import secrets
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, NoReturn

import numpy as np

from ordonnance import bots as _bots
from ordonnance import games as _games
from ordonnance.actions import Action, Claim, Pass, Play
from ordonnance.army import describe
from ordonnance.bots import Bot, Greedy, Random
from ordonnance.cards import Card
from ordonnance.errors import OrdonnanceError
from ordonnance.game import Game
from ordonnance.rules import Rules
from ordonnance.odds import MAX_SAMPLES
from ordonnance.serialization import MAX_TEXT_SIZE
from ordonnance.simulation import MAX_GAMES as MAX_SIMULATE_GAMES
from ordonnance.territory import Territory
from ordonnance.tournament import MAX_CHUNK_SIZE, MAX_WORKERS
from ordonnance.tournament import MAX_GAMES as TOURNAMENT_MAX_GAMES

if TYPE_CHECKING:
    from ordonnance.tournament import TournamentResult

__all__ = ["main", "demo", "build_parser", "BOT_KINDS"]

#: The bots the command line can create, by name.
BOT_KINDS = ("random", "greedy", "montecarlo", "ismcts")

_EXIT_ERROR = 1
_EXIT_INTERRUPTED = 130
_MASK64 = (1 << 64) - 1
#: The most rollouts per decision ``--rollouts`` accepts.
MAX_ROLLOUTS = 1_000_000
_WHOLE = re.compile(r"\+?[0-9][0-9,_]{0,40}")  # ASCII digits, at most a few dozen


class _Parser(argparse.ArgumentParser):
    """An argument parser whose errors are one line: the message and where to find help."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")


class _Failure(Exception):
    """A one-line error for the user (exit status 1)."""


# --------------------------------------------------------------------- helpers


def _whole(text: str) -> int:
    """A whole number written in ASCII digits (commas allowed: ``100,000``); a
    leading minus sign gives a negative number, for the range checks to report."""
    digits = text.strip()
    negative = digits.startswith("-") and not digits.startswith("--")
    if negative:
        digits = digits[1:]
    if not _WHOLE.fullmatch(digits):
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r:.60}")
    value = int(digits.replace(",", "").replace("_", ""))
    return -value if negative else value


def _positive_int(text: str, most: int | None = None) -> int:
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    if most is not None and value > most:
        raise argparse.ArgumentTypeError(f"must be at most {most:,}, got {value:,}")
    return value


def _at_most(most: int) -> Callable[[str], int]:
    """An argparse type: a positive int of at most ``most``."""

    def convert(text: str) -> int:
        return _positive_int(text, most)

    convert.__name__ = "number"
    return convert


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r:.60}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text!r:.60}")
    return value


def _seed(text: str) -> int:
    stripped = text.strip().lower()
    if stripped.startswith("0x") and re.fullmatch(r"0x[0-9a-f]{1,16}", stripped):
        value = int(stripped, 16)
    else:
        value = _whole(text)
    if not 0 <= value < 1 << 64:
        raise argparse.ArgumentTypeError(f"a seed is in 0..2**64-1, got {value}")
    return value


def _choice(*allowed: str) -> Callable[[str], str]:
    """An argparse type that also accepts hyphens for underscores (``latest-capture``)."""

    def convert(text: str) -> str:
        value = text.strip().lower().replace("-", "_")
        if value not in allowed:
            raise argparse.ArgumentTypeError(f"invalid choice: {text!r} (choose from {', '.join(allowed)})")
        return value

    convert.__name__ = "choice"
    return convert


#: The bots that take a budget on the command line (``montecarlo:200``), and what it counts.
_BUDGETS = {"montecarlo": "rollouts", "ismcts": "iterations"}


def _bot_spec(part: str) -> str:
    """``kind`` or ``kind:budget``, checked and normalised."""
    kind, colon, budget = part.strip().lower().partition(":")
    kind = kind.strip()
    if kind not in BOT_KINDS:
        raise argparse.ArgumentTypeError(f"unknown bot {kind!r} (choose from {', '.join(BOT_KINDS)})")
    if not colon:
        return kind
    if kind not in _BUDGETS:
        raise argparse.ArgumentTypeError(f"the {kind} bot takes no budget, got {part.strip()!r}")
    try:
        value = _positive_int(budget.strip(), MAX_ROLLOUTS)
    except argparse.ArgumentTypeError as error:
        raise argparse.ArgumentTypeError(f"the budget of {part.strip()!r} ({_BUDGETS[kind]}) {error}") from None
    return f"{kind}:{value}"


def _bot_list(text: str) -> list[str]:
    kinds = [_bot_spec(part) for part in text.split(",") if part.strip()]
    if not kinds:
        raise argparse.ArgumentTypeError("give at least one bot, e.g. greedy,random")
    return kinds


def _add_rules(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rules (the defaults are the standard game)")
    group.add_argument(
        "--players", type=int, choices=(2, 3, 4), default=2, help="players per game: 2, 3 or 4 (default 2)"
    )
    group.add_argument(
        "--scoring", type=_choice("territories", "points"), default="territories", metavar="{territories,points}",
        help="most territories wins (the default), or points: 3/2/1 per territory",
    )  # fmt: skip
    group.add_argument(
        "--tie-break", type=_choice("latest_capture", "lowest_marker_sum"), default="latest_capture",
        metavar="{latest-capture,lowest-marker-sum}", help="who wins a tie (default latest-capture)",
    )  # fmt: skip
    group.add_argument(
        "--claim-proof", type=_choice("public", "private"), default="public", metavar="{public,private}",
        help="public (the default): a claim must hold against every card not face up; private: "
        "the claimant's own hand is left out",
    )  # fmt: skip
    group.add_argument(
        "--auto-claim", action="store_true", help="award every provable territory at once after each play"
    )


def _rules(args: argparse.Namespace, parser: argparse.ArgumentParser) -> Rules:
    try:
        return Rules(
            players=args.players,
            scoring=args.scoring,
            tie_break=args.tie_break,
            claim_proof=args.claim_proof,
            auto_claim=args.auto_claim,
        )
    except OrdonnanceError as error:
        parser.error(str(error))


def _make_bot(spec: str, seed: int, rollouts: int | None = None) -> Bot:
    """The bot of a ``--bots`` entry (``kind`` or ``kind:budget``); ``rollouts`` is the
    ``--rollouts`` default budget of Monte-Carlo bots given without one."""
    kind, _, budget = spec.partition(":")
    if kind == "random":
        return Random(seed=seed)
    if kind == "greedy":
        return Greedy(seed=seed)
    if kind == "ismcts":
        return _bots.ISMCTS(seed=seed, iterations=int(budget) if budget else None)
    if budget:
        rollouts = int(budget)
    return _bots.MonteCarlo(seed=seed) if rollouts is None else _bots.MonteCarlo(seed=seed, rollouts=rollouts)


def _bot_title(spec: str) -> str:
    kind, _, budget = spec.partition(":")
    title = {"random": "Random", "greedy": "Greedy", "montecarlo": "MonteCarlo", "ismcts": "ISMCTS"}[kind]
    return f"{title} ({budget} {_BUDGETS[kind]})" if budget else title


def _fail(command: str, message: str) -> int:
    print(f"ordonnance {command}: error: {message}", file=sys.stderr)
    return _EXIT_ERROR


# --------------------------------------------------------------------- demo


def _army_text(game: Game, territory: Territory, seat: int) -> str:
    cards = " ".join(str(c) for c in game.army(territory, seat))
    return f"{cards} = {describe(game.army_key(territory, seat))}"


def demo(seed: int = 7, players: int = 2) -> None:
    """Play one seeded game, Greedy (seat 0) against Random bots, and narrate it."""
    rules = Rules(players=players)
    game = Game.new(rules, seed=seed)
    bots = [Greedy(seed=seed)] + [Random(seed=(seed + p) & _MASK64) for p in range(1, players)]
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


def _run_demo(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    demo(seed=args.seed, players=args.players)
    return 0


# --------------------------------------------------------------------- play

_PLAY_HELP = """\
How to play. On your turn you draw a card (while you have a territory with
fewer than 4 of your cards), then play one card from your hand face up into one
of your open territories. When every player has 4 cards in a territory, the
strongest army wins it; the game ends when all five are won, and whoever holds
the most territories wins.

Army strength: count, for each symbol, the cards carrying it. 4 cards is a
regiment, 3 a battalion, 2 a company. More regiments win, then stronger ones,
then more battalions, stronger ones, then companies. Equal armies: the one
completed first wins. Symbols, weakest to strongest: L lance, B bow, S sword,
H helmet, F banner.

Early claim: once your army in a territory is complete, you may claim it on
your turn if no opponent can beat it any more with any cards not face up; it
then appears among your moves as "claim".

What you can type:
  3               the move with that number
  SH cyprus       play card SH to Cyprus (a territory's first letters will do)
  claim cyprus    claim Cyprus
  pass            pass (only when you cannot play)
  board           show the table again
  odds            each territory's odds, from what you can see
  help            this text
  quit            leave the game (Ctrl-D too)"""


class _Quit(Exception):
    """The person left the game."""


def _territory(text: str) -> Territory | None:
    text = text.strip().lower()
    if not text:
        return None
    found = [t for t in Territory if t.label.lower().startswith(text)]
    return found[0] if len(found) == 1 else None


def _parse_move(text: str, actions: Sequence[Action]) -> Action | str:
    """The action the person typed, or the reason it is not one."""
    words = text.split()
    count = len(actions)
    if len(words) == 1 and re.fullmatch(r"[+-]?[0-9]+", words[0]):  # ASCII digits, one sign at most
        if len(words[0]) <= 6 and 1 <= int(words[0]) <= count:
            return actions[int(words[0]) - 1]
        return f"there is no move {words[0]:.12}: choose a number from 1 to {count}"
    lowered = [w.lower() for w in words]
    if lowered == ["pass"]:
        if Pass() in actions:
            return Pass()
        return "you cannot pass while you can play a card"
    if len(words) == 2 and lowered[0] == "claim":
        t = _territory(words[1])
        if t is None:
            return f"no territory called {words[1]!r}"
        if Claim(t) in actions:
            return Claim(t)
        return f"you cannot claim {t.label} now (claimable territories appear among your moves)"
    if len(words) in (2, 3) and (len(words) == 2 or lowered[1] == "to"):
        try:
            card = Card.parse(words[0])
        except OrdonnanceError:
            card = None
        t = _territory(words[-1])
        if card is not None and t is not None:
            play = Play(card, t)
            if play in actions:
                return play
            if not any(isinstance(a, Play) and a.card == card for a in actions):
                return f"you have no {card} in your hand"
            return f"{t.label} is not open to you: play into a territory listed among your moves"
    return f"not understood: {text.strip()!r}; type a move number from 1 to {count}, help or quit"


class _Table:
    """The terminal game: one person against bots."""

    def __init__(self, game: Game, you: int, bots: dict[int, Bot], bot_names: dict[int, str]) -> None:
        self.game = game
        self.you = you
        self.bots = bots
        self.names = [("you" if p == you else f"{bot_names[p]} (p{p})") for p in range(game.players)]
        self.echo = not sys.stdin.isatty()

    def board(self) -> str:
        game = self.game
        n = game.players
        width = max(len(name) for name in self.names)
        lines = []
        for t in Territory:
            owner = game.territory_owner(t)
            done = [game.completed_at(t, p) for p in range(n)]
            first = min((d for d in done if d is not None), default=None)
            status = "open" if owner is None else f"won by {self.names[owner]}, marker {game.marker(t)}"
            lines.append(f"{t.label}: {status}")
            for p in range(n):
                cards = game.army(t, p)
                text = " ".join(str(c) for c in cards) or "-"
                size = "complete" if done[p] is not None else f"{len(cards)}/4"
                if done[p] is not None and done[p] == first and n > 1:
                    size += " (first)"
                strength = str(describe(game.army_key(t, p))) if cards else ""
                lines.append(f"    {self.names[p]:<{width}}  {text:<23}  {size:<16}  {strength}".rstrip())
        scores = ", ".join(f"{self.names[p]} {s}" for p, s in enumerate(game.scores))
        lines.append(f"deck: {game.deck_size} cards; scores: {scores}")
        return "\n".join(lines)

    def moves(self) -> tuple[list[Action], str]:
        actions = self.game.legal_actions()
        lines = [f"your hand: {'  '.join(str(c) for c in self.game.hand(self.you))}", "your moves:"]
        number = 0
        row: list[str] = []
        card: Card | None = None
        for action in actions:
            number += 1
            if isinstance(action, Play):
                if action.card != card:
                    if row:
                        lines.append("  ".join(row))
                    card = action.card
                    row = [f"  play {str(card):<5}"]
                row.append(f"{number:>2} {action.territory.label}")
            else:
                if row:
                    lines.append("  ".join(row))
                    row = []
                lines.append(f"  {number:>2} {action}")
        if row:
            lines.append("  ".join(row))
        return actions, "\n".join(lines)

    def ask(self, prompt: str) -> str:
        print(prompt, end="", flush=True)
        line = sys.stdin.readline()
        if not line:
            print()
            raise _Quit
        if self.echo:
            print(line.rstrip("\n"))
        return line

    def person_turn(self) -> Action:
        print()
        print(self.board())
        actions, listing = self.moves()
        print(listing)
        while True:
            text = self.ask(f"your move (1-{len(actions)}, help, quit)> ").strip()
            word = text.lower()
            if not word:
                print(f"type a move number from 1 to {len(actions)}, help or quit")
            elif word in ("quit", "exit", "q"):
                raise _Quit
            elif word in ("help", "h", "?"):
                print(_PLAY_HELP)
            elif word in ("board", "b"):
                print(self.board())
                print(listing)
            elif word == "odds":
                print(self.odds())
            else:
                move = _parse_move(text, actions)
                if isinstance(move, str):
                    print(move)
                else:
                    return move

    def odds(self) -> str:
        try:
            from ordonnance.odds import territory_odds
        except ImportError:
            return "odds are not available in this version of ordonnance"
        view = self.game.view(self.you)
        lines = ["odds of each territory if the missing cards fall at random (from what you can see):"]
        for t in Territory:
            lines.append("  " + str(territory_odds(view, t, samples=4_000, seed=0)))
        return "\n".join(lines)

    def narrate(self, seat: int, action: Action, before: list[int | None]) -> None:
        game = self.game
        who = "you" if seat == self.you else self.names[seat]
        if isinstance(action, Play):
            print(f"{who} {'play' if seat == self.you else 'plays'} {action.card} to {action.territory.label}")
        elif isinstance(action, Claim):
            print(f"{who} {'claim' if seat == self.you else 'claims'} {action.territory.label}: "
                  f"{_army_text(game, action.territory, seat)} cannot be beaten any more")  # fmt: skip
        else:
            print(f"{who} {'pass' if seat == self.you else 'passes'}")
        for t in Territory:
            owner = game.territory_owner(t)
            if before[t] is None and owner is not None and not isinstance(action, Claim):
                print(f"  {t.label} is decided: {self.names[owner]} {'win' if owner == self.you else 'wins'} "
                      f"with {_army_text(game, t, owner)} (marker {game.marker(t)})")  # fmt: skip

    def play(self) -> None:
        game = self.game
        while not game.is_over:
            seat = game.current_player
            before = [game.territory_owner(t) for t in Territory]
            if seat == self.you:
                action = self.person_turn()
            else:
                action = self.bots[seat].choose(game.view(seat))
            game.apply(action)
            self.narrate(seat, action, before)
        print()
        print(self.board())
        winner = game.winner
        if winner is None:
            print("game over: nobody wins")
        elif winner == self.you:
            print("game over: you win!")
        else:
            print(f"game over: {self.names[winner]} wins")


def _run_play(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    rules = _rules(args, parser)
    if not 0 <= args.seat < rules.players:
        parser.error(f"--seat must be 0..{rules.players - 1} for {rules.players} players, got {args.seat}")
    seed = secrets.randbits(32) if args.seed is None else args.seed
    bots: dict[int, Bot] = {}
    names: dict[int, str] = {}
    for seat in range(rules.players):
        if seat != args.seat:
            bots[seat] = _make_bot(args.bot, (seed + seat) & _MASK64)
            names[seat] = _bot_title(args.bot)
    game = Game.new(rules, seed=seed)
    table = _Table(game, args.seat, bots, names)
    opponents = ", ".join(f"{names[p]} (player {p})" for p in sorted(names))
    print(f"Ordonnance, {rules.players} players, seed {seed}: you are player {args.seat}, against {opponents}.")
    print('Type the number of a move, "help" to learn the game, "quit" to leave.')
    status = 0
    try:
        table.play()
    except _Quit:
        print("bye")
    except KeyboardInterrupt:
        print("\ninterrupted, bye")
        status = _EXIT_INTERRUPTED
    if args.save is not None:
        try:
            with open(args.save, "w", encoding="utf-8") as file:
                file.write(game.to_json())
        except OSError as error:
            return _fail("play", f"cannot save the game to {args.save!r}: {error.strerror or error}")
        print(f"game saved to {args.save} (see: ordonnance odds {args.save})")
    return status


# --------------------------------------------------------------------- simulate


def _run_simulate(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    from ordonnance.simulation import simulate

    rules = _rules(args, parser)
    kinds = args.bots or ["random"]
    if len(kinds) == 1:
        kinds = kinds * rules.players
    if len(kinds) != rules.players:
        parser.error(f"--bots must name 1 bot or {rules.players} (one per seat), got {len(kinds)}")
    players = [_make_bot(kind, seat, args.rollouts) for seat, kind in enumerate(kinds)]
    names = ", ".join(f"player {p} = {_bot_title(kind)}" for p, kind in enumerate(kinds))
    print(f"simulate: {args.games:,} games, {rules.players} players, seed {args.seed}: {names}")
    print(f"rules: {_rules_text(rules)}")
    start = time.perf_counter()
    result = simulate(rules, games=args.games, seed=args.seed, players=players)
    seconds = time.perf_counter() - start
    print(result.summary())
    print(f"{seconds:.2f} s, {args.games / max(seconds, 1e-9):,.0f} games/s")
    return 0


def _rules_text(rules: Rules) -> str:
    text = f"scoring={rules.scoring}, tie_break={rules.tie_break}"
    if rules.claims_allowed:
        text += f", claim_proof={rules.claim_proof}, auto_claim={rules.auto_claim}"
    return text


# --------------------------------------------------------------------- tournament


def _run_ladder(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    return _run_tournament(args, parser, ladder=True)


def _run_tournament(args: argparse.Namespace, parser: argparse.ArgumentParser, ladder: bool = False) -> int:
    from ordonnance.ladder import rate
    from ordonnance.tournament import tournament

    rules = _rules(args, parser)
    kinds = args.bots
    if len(kinds) < max(rules.players, 2):
        parser.error(f"--bots must name at least {max(rules.players, 2)} bots for {rules.players}-player games")
    if args.serial and (args.workers is not None or args.dask is not None):
        parser.error("--serial cannot be combined with --workers or --dask")
    counts = {kind: kinds.count(kind) for kind in kinds}
    players: dict[str, Bot] = {}
    for i, kind in enumerate(kinds):
        name = kind if counts[kind] == 1 else f"{kind}-{i}"
        players[name] = _make_bot(kind, i, args.rollouts)
    if ladder and args.anchor is not None and args.anchor not in players:
        parser.error(f"--anchor {args.anchor!r} is not one of the bots: {', '.join(players)}")
    progress = args.progress
    print(f"rules: {rules.players} players, {_rules_text(rules)}", flush=True)
    start = time.perf_counter()
    if args.dask is not None:
        result = _tournament_on_dask(args, rules, players)
        if isinstance(result, int):
            return result
    else:
        executor: Literal["serial", "process"] = "serial" if args.serial else "process"
        result = tournament(
            players, args.games, rules, seed=args.seed, executor=executor,
            workers=args.workers, chunk_size=args.chunk_size, progress=progress, time_limit=args.time_limit,
        )  # fmt: skip
    seconds = time.perf_counter() - start
    print(rate(result, args.anchor) if ladder else result)
    print(f"{seconds:.2f} s, {result.games / max(seconds, 1e-9):,.0f} games/s, {result.chunks:,} chunks")
    return 0


def _check_dask_address(address: str) -> None:
    """Refuse an address Dask cannot parse before a client is half built (whose
    clean-up would print tracebacks)."""
    comm: Any = importlib.import_module("distributed.comm")  # typed as Any: Dask is an optional extra
    backends = importlib.import_module("distributed.comm.registry").backends
    try:
        scheme, _location = comm.parse_address(address)
        if scheme not in backends:
            raise ValueError(f"unknown scheme {scheme!r} (known: {', '.join(sorted(backends))})")
        if scheme in ("tcp", "tls", "ws", "wss"):
            _host, port = comm.get_address_host_port(address)
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not in 1..65535")
    except ValueError as error:
        raise _Failure(f"--dask {address!r} is not a scheduler address such as tcp://host:8786 or 'local': {error}") from None


def _tournament_on_dask(args: argparse.Namespace, rules: Rules, players: dict[str, Bot]) -> TournamentResult | int:
    from ordonnance.tournament import tournament

    try:
        distributed: Any = importlib.import_module("distributed")  # typed as Any: Dask is an optional extra
    except ImportError:
        return _fail("tournament", "--dask needs Dask: pip install 'ordonnance[distributed]'")
    cluster: Any = None
    try:
        if args.dask == "local":
            workers = args.workers or os.cpu_count() or 1
            cluster = distributed.LocalCluster(
                n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
            )
            client = distributed.Client(cluster)
        else:
            _check_dask_address(args.dask)
            client = distributed.Client(args.dask)  # waits distributed.comm.timeouts.connect (30 s)
    except _Failure as failure:
        return _fail("tournament", str(failure))
    except (OSError, TimeoutError, ValueError) as error:
        if cluster is not None:
            cluster.close()
        return _fail("tournament", f"cannot reach the Dask scheduler {args.dask!r}: {error}")
    try:
        return tournament(
            players, args.games, rules, seed=args.seed, executor=client.get_executor(),
            chunk_size=args.chunk_size, progress=args.progress, time_limit=args.time_limit,
        )  # fmt: skip
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


# --------------------------------------------------------------------- odds


def _read_game(path: str) -> Game:
    try:
        if path == "-":
            text = sys.stdin.read(MAX_TEXT_SIZE + 1)
        else:
            with open(path, encoding="utf-8") as file:
                text = file.read(MAX_TEXT_SIZE + 1)  # a longer file is refused without reading it all
    except OSError as error:
        raise _Failure(f"cannot read {path!r}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise _Failure(f"{path!r} is not a text file (expected a game saved as JSON)") from None
    try:
        return Game.from_json(text)
    except (ValueError, TypeError) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise _Failure(f"{path!r} is not a valid saved game: {first}") from None


def _run_odds(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    try:
        from ordonnance.odds import territory_odds
    except ImportError:
        return _fail("odds", "territory odds are not available in this version of ordonnance")
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
        odds = territory_odds(game, t, player=args.player, samples=args.samples, seed=args.seed)
        print(f"  {odds}")
    return 0


# --------------------------------------------------------------------- bench


def _best_rate(function: Callable[[], object], items: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - start)
    return items / max(best, 1e-12)


def _run_bench(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    import random

    from ordonnance.army import army_keys, warm_up
    from ordonnance.cards import standard_deck
    from ordonnance.completion import best_completion_key
    from ordonnance.simulation import simulate

    quick = args.quick
    armies, calls, games, greedy_games, api_games = (
        (20_000, 50, 500, 200, 2) if quick else (10_000_000, 2_000, 100_000, 20_000, 20)
    )
    repeats = 2 if quick else 3
    jit = os.environ.get("NUMBA_DISABLE_JIT") != "1"
    print(f"ordonnance bench{' --quick' if quick else ''}: one core, best of {repeats}; "
          f"numba JIT {'on' if jit else 'OFF (NUMBA_DISABLE_JIT=1): pure-Python speeds'}")  # fmt: skip
    rows: list[tuple[str, str, str]] = []

    def row(name: str, value: float, unit: str) -> None:
        rows.append((name, f"{value:,.0f}" if value >= 100 else f"{value:,.2f}", unit))
        print(f"  {name:<46} {rows[-1][1]:>16}  {unit}", flush=True)

    warm_up()
    masks = np.random.default_rng(2026).integers(1, 32, size=(armies, 4), dtype=np.uint8)
    keys_rate = _best_rate(lambda: army_keys(masks), armies, repeats)
    row(f"army_keys, {armies:,} armies", keys_rate, "armies/s")
    memory_rate = _best_rate(
        lambda: np.bitwise_and(masks.view(np.uint32).reshape(-1), 0x1F1F1F1F), armies, repeats
    )
    row("memory pass (read 4 bytes, write 4 per army)", memory_rate, "armies/s")
    row("army_keys / memory pass", keys_rate / memory_rate, "x")
    for decks in (1, 2):
        pool = standard_deck(decks)
        best_completion_key([], pool)
        rate = _best_rate(lambda: [best_completion_key([], pool) for _ in range(calls)], calls, repeats)
        row(f"best_completion_key, empty army vs {len(pool)} cards", 1e6 / rate, "us/call")
    rules = Rules()
    simulate(rules, games=10, seed=1)
    random_rate = _best_rate(lambda: simulate(rules, games=games, seed=1), games, repeats)
    row("simulate, 2p Random vs Random", random_rate, "games/s")
    greedy: list[Bot] = [Greedy(seed=1), Greedy(seed=2)]
    row(
        "simulate, 2p Greedy vs Greedy",
        _best_rate(lambda: simulate(rules, games=greedy_games, seed=1, players=greedy), greedy_games, repeats),
        "games/s",
    )
    decisions = 0

    def api_games_run() -> None:
        nonlocal decisions
        decisions = 0
        rng = random.Random(0)
        for seed in range(api_games):
            game = Game.new(rules, seed=seed)
            while not game.is_over:
                game.apply(rng.choice(game.legal_actions()))
                decisions += 1

    api_games_run()
    made = decisions
    row("Game API: legal_actions + apply, random play", _best_rate(api_games_run, made, repeats), "decisions/s")
    return 0


# --------------------------------------------------------------------- the parser


class _Formatter(argparse.RawDescriptionHelpFormatter):
    """Keeps the examples' line breaks; descriptions are wrapped by :func:`_wrap`."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, max_help_position=30)


def _wrap(text: str) -> str:
    return textwrap.fill(text, width=min(shutil.get_terminal_size().columns - 2, 78))


def _add_tournament_arguments(tour: argparse.ArgumentParser) -> None:
    tour.add_argument(
        "--bots", type=_bot_list, default=["greedy", "random"], metavar="BOT[,BOT...]",
        help="the bots: random, greedy, montecarlo or ismcts (montecarlo:N and ismcts:N give the "
        "rollouts or iterations a decision), repeats allowed (default greedy,random)",
    )  # fmt: skip
    tour.add_argument(
        "--games", type=_at_most(TOURNAMENT_MAX_GAMES), default=10_000,
        help="games in all, shared by the seatings (default 10,000)",
    )  # fmt: skip
    tour.add_argument("--seed", type=_seed, default=1, help="the tournament's seed (default 1)")
    tour.add_argument(
        "--workers", type=_at_most(MAX_WORKERS), default=None, help="local worker processes (default: one per CPU)"
    )
    tour.add_argument("--serial", action="store_true", help="run in this process only")
    tour.add_argument(
        "--dask", metavar="ADDRESS", default=None,
        help="run on a Dask cluster: a scheduler address such as tcp://host:8786, or 'local' for a "
        "local cluster of --workers processes (needs the distributed extra)",
    )  # fmt: skip
    tour.add_argument(
        "--chunk-size", type=_at_most(MAX_CHUNK_SIZE), default=None, help="games per task (default: automatic)"
    )
    tour.add_argument(
        "--time-limit", type=_seconds, default=None, metavar="SECONDS",
        help="seconds a bot may think per decision; a bot over it loses that game (default: no limit)",
    )  # fmt: skip
    tour.add_argument("--rollouts", type=_at_most(MAX_ROLLOUTS), default=None, help="rollouts per decision of montecarlo bots")
    tour.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None,
        help="show a progress bar on standard error (default: on long runs, in a terminal)",
    )  # fmt: skip
    _add_rules(tour)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``python -m ordonnance``."""
    parser = _Parser(
        prog="ordonnance",
        formatter_class=_Formatter,
        description=_wrap(
            "Ordonnance, the card game of regiments, battalions and companies: "
            "play it, simulate it, run bot tournaments."
        ),
        epilog=(
            "Run 'ordonnance COMMAND --help' for a command's options. Examples:\n"
            "  ordonnance play --bot greedy\n"
            "  ordonnance simulate --games 100000 --bots greedy,random\n"
            "  ordonnance tournament --bots greedy,random,montecarlo --games 2000"
        ),
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    play = commands.add_parser(
        "play",
        help="play a game against a bot in the terminal",
        formatter_class=_Formatter,
        description=_wrap(
            "Play Ordonnance against bots in the terminal. Each turn shows the table, your hand and "
            "your legal moves, numbered: type a number (or e.g. 'SH cyprus'), 'help' for the rules "
            "in brief, 'quit' (or Ctrl-D) to leave."
        ),
        epilog=(
            "Examples:\n"
            "  ordonnance play\n"
            "  ordonnance play --bot montecarlo --seed 7\n"
            "  ordonnance play --bot ismcts\n"
            "  ordonnance play --players 3 --seat 1 --save game.json"
        ),
    )
    play.add_argument(
        "--bot", type=_bot_spec, default="greedy", metavar="{random,greedy,montecarlo,ismcts}[:N]",
        help="the opponents (default greedy; ismcts is the strongest; montecarlo:N and ismcts:N think "
        "with N rollouts or iterations a decision)",
    )  # fmt: skip
    play.add_argument("--seed", type=_seed, default=None, help="the shuffle's seed (default: random, and printed)")
    play.add_argument("--seat", type=_whole, default=0, help="your seat, 0 to players-1 (default 0: you start)")
    play.add_argument("--save", metavar="FILE", default=None, help="save the game as JSON when it ends or you quit")
    _add_game(play, "play")
    _add_rules(play)
    play.set_defaults(run=_run_play, parser=play)

    demo_parser = commands.add_parser(
        "demo",
        help="play and narrate a seeded game between two bots",
        formatter_class=_Formatter,
        description=_wrap("Play one seeded game, Greedy (player 0) against Random bots, and narrate it."),
    )
    demo_parser.add_argument("--seed", type=_seed, default=7, help="the shuffle's seed, 0..2**64-1 (default 7)")
    demo_parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2, help="2, 3 or 4")
    demo_parser.set_defaults(run=_run_demo, parser=demo_parser)

    sim = commands.add_parser(
        "simulate",
        help="simulate many games and print win rates",
        formatter_class=_Formatter,
        description=_wrap(
            "Play many whole games with ordonnance.simulate() and print the summary: win rates with "
            "95% intervals, the first-player advantage and how often each seat wins each territory. "
            "Random and Greedy bots run in the numba kernel (tens of thousands of games a second); "
            "montecarlo and ismcts bots think for each decision (milliseconds to tens of milliseconds)."
        ),
        epilog=(
            "Examples:\n"
            "  ordonnance simulate --games 100000\n"
            "  ordonnance simulate --bots greedy,random --auto-claim\n"
            "  ordonnance simulate --players 4 --scoring points --tie-break lowest-marker-sum"
        ),
    )
    sim.add_argument(
        "--games", type=_at_most(MAX_SIMULATE_GAMES), default=10_000,
        help=f"games to play, at most {MAX_SIMULATE_GAMES:,} (default 10,000)",
    )  # fmt: skip
    sim.add_argument("--seed", type=_seed, default=1, help="the seed of the deals (default 1)")
    sim.add_argument(
        "--bots", type=_bot_list, default=None, metavar="BOT[,BOT...]",
        help="the bot of each seat, e.g. greedy,random, or one for every seat: random (the default), "
        "greedy, montecarlo or ismcts (montecarlo:N, ismcts:N: rollouts or iterations a decision)",
    )  # fmt: skip
    sim.add_argument("--rollouts", type=_at_most(MAX_ROLLOUTS), default=None, help="rollouts per decision of montecarlo bots")
    _add_game(sim, "simulate")
    _add_rules(sim)
    sim.set_defaults(run=_run_simulate, parser=sim)

    tour = commands.add_parser(
        "tournament",
        help="play bots against each other in every seat and rank them",
        formatter_class=_Formatter,
        description=_wrap(
            "Run ordonnance.tournament(): every ordered choice of different bots, one per seat, plays "
            "the same deals; prints each bot's win rate with its 95% interval and Elo rating, the "
            "pairwise table and the wins by seat. Chunks of games run in parallel on local processes "
            "(or a Dask cluster); the same seed gives the same table whatever runs it."
        ),
        epilog=(
            "Examples:\n"
            "  ordonnance tournament --games 100000\n"
            "  ordonnance tournament --bots greedy,random,montecarlo --games 600 --rollouts 200\n"
            "  ordonnance tournament --players 3 --bots greedy,greedy,random,random --serial\n"
            "  ordonnance tournament --dask tcp://scheduler:8786 --games 10000000"
        ),
    )
    _add_tournament_arguments(tour)
    tour.set_defaults(run=_run_tournament, parser=tour)

    lad = commands.add_parser(
        "ladder",
        help="rate bots: Bradley-Terry Elo with 95%% intervals, Random = 0",
        formatter_class=_Formatter,
        description=_wrap(
            "Run ordonnance.ladder(): a tournament (every pair of bots meets on the same deals in "
            "every seating), then Bradley-Terry Elo ratings counted from the anchor bot (random when "
            "it plays, else the first bot) with 95% intervals, and the pairwise table. A bot given "
            "as montecarlo:200 (rollouts) or ismcts:1000 (iterations) thinks with that budget; the "
            "names are as given."
        ),
        epilog=(
            "Examples:\n"
            "  ordonnance ladder --bots random,greedy,montecarlo:100,ismcts:1000 --games 2000\n"
            "  ordonnance ladder --bots greedy,random --games 100000 --anchor greedy"
        ),
    )
    _add_tournament_arguments(lad)
    lad.add_argument("--anchor", default=None, metavar="BOT", help="the bot rated 0 (default random, else the first)")
    lad.set_defaults(run=_run_ladder, parser=lad)

    odds = commands.add_parser(
        "odds",
        help="each territory's odds in a saved game",
        formatter_class=_Formatter,
        description=_wrap(
            "Read a game saved as JSON (Game.to_json(), or 'play --save') and print the table and, for "
            "each territory, each player's probability of winning it if the missing cards fall at "
            "random: exact when few outcomes remain, else sampled, with standard errors."
        ),
        epilog=(
            "Examples:\n"
            "  ordonnance odds game.json\n"
            "  ordonnance odds game.json --player 0\n"
            "  python -c 'import ordonnance as od; print(od.Game.new(seed=1).to_json())' | ordonnance odds -"
        ),
    )
    odds.add_argument("file", metavar="FILE", help="the saved game (JSON); '-' reads standard input")
    odds.add_argument("--player", type=_whole, default=None, help="take this seat's view (it also knows its own hand)")
    odds.add_argument(
        "--samples", type=_at_most(MAX_SAMPLES), default=20_000,
        help=f"random completions when not exact, at most {MAX_SAMPLES:,} (default 20,000)",
    )  # fmt: skip
    odds.add_argument("--seed", type=_seed, default=0, help="the sampling seed (default 0)")
    odds.set_defaults(run=_run_odds, parser=odds)

    bench = commands.add_parser(
        "bench",
        help="measure the headline speeds on this machine",
        formatter_class=_Formatter,
        description=_wrap(
            "Measure on one core of this machine, in a few seconds: the army evaluator against a plain "
            "memory pass, the completion search's worst case, the simulator, and decisions through "
            "the Game API. The full benchmarks are in benchmarks/ (pytest-benchmark)."
        ),
    )
    bench.add_argument("--quick", action="store_true", help="tiny sizes: a smoke test, not a measurement")
    bench.set_defaults(run=_run_bench, parser=bench)
    return parser


def _add_game(parser: argparse.ArgumentParser, command: str) -> None:
    parser.add_argument(
        "--game", choices=_games.GAMES, default="ordonnance",
        help=f"the game: ordonnance (the default), shinobi or black-prince; the other games take "
        f"their own options (see 'ordonnance {command} --game shinobi --help')",
    )  # fmt: skip


def _other_game(argv: Sequence[str]) -> tuple[str, str, list[str]] | None:
    """``(command, game, the other arguments)`` when ``play`` or ``simulate`` is asked
    for a game other than Ordonnance (``--game NAME`` or ``--game=NAME``), else None."""
    if not argv or argv[0] not in ("play", "simulate"):
        return None
    rest = list(argv[1:])
    for i, arg in enumerate(rest):
        if arg == "--":
            return None
        if arg == "--game" and i + 1 < len(rest):
            name, del_from, del_to = rest[i + 1], i, i + 2
        elif arg.startswith("--game="):
            name, del_from, del_to = arg.partition("=")[2], i, i + 1
        else:
            continue
        if name == "ordonnance" or name not in _games.GAMES:
            return None  # Ordonnance's own parser, which also explains an unknown game
        return argv[0], name, rest[:del_from] + rest[del_to:]
    return None


def _other_game_command(command: str, game: str, argv: list[str]) -> tuple[str, Callable[[], int]]:
    """``ordonnance play|simulate --game GAME ...``: the game's own command-line functions,
    parsed now and run by the returned call."""
    module = _games.cli(game)
    parser = _Parser(prog=f"ordonnance {command} --game {game}", formatter_class=_Formatter)
    if command == "play":
        module.add_play_arguments(parser)
    else:
        module.add_simulate_arguments(parser)
    args = parser.parse_args(argv)
    if command == "play":
        return f"{command} --game {game}", lambda: int(module.run_play(args, sys.stdin, sys.stdout))
    return f"{command} --game {game}", lambda: int(module.run_simulate(args, sys.stdout))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (argparse exits with 2 on bad arguments)."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    other = _other_game(arguments)
    if other is not None:
        command, run = _other_game_command(*other)
    else:
        args = build_parser().parse_args(arguments)
        command = args.command
        run = functools.partial(args.run, args, args.parser)
    try:
        # The kernels' SplitMix64 wraps around uint64 on purpose; without the JIT
        # (NUMBA_DISABLE_JIT=1) NumPy would report each wraparound as an overflow.
        with np.errstate(over="ignore"):
            return int(run())
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return _EXIT_INTERRUPTED
    except OrdonnanceError as error:  # a value the library refused: one line, as for a bad file
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        return _fail(command, first)
    except BrokenPipeError:
        # The reader went away (e.g. "| head"): silence the final flush, as Python's docs advise.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return _EXIT_ERROR
