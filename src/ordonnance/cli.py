"""Ordonnance's command-line hooks (``HOOKS``): its rules options, bots, board and narration.

The ``ordonnance`` program itself is :mod:`ordonnance.__main__` (``python -m
ordonnance COMMAND``, also installed as ``ordonnance``); its :func:`main`,
:func:`build_parser` and :func:`demo` keep their names here too. The framework
every game's hooks plug into is :mod:`ordonnance.core.cli`.

At the table, besides a move's number or its text (``play LS to Edessa``),
Ordonnance understands moves in short (``LS edessa``, ``claim cyprus``, ``pass``;
a territory's first letters will do) and ``odds``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from ordonnance import bots as _bots
from ordonnance.actions import Action, Claim, Pass, Play
from ordonnance.army import describe
from ordonnance.cards import Card
from ordonnance.core.cli import MAX_BUDGET, Budget, Hooks, demo_game
from ordonnance.errors import OrdonnanceError
from ordonnance.rules import Rules
from ordonnance.territory import Territory

if TYPE_CHECKING:
    from ordonnance.core.warmup import FirstUse

__all__ = ["HOOKS", "BOT_KINDS", "MAX_ROLLOUTS", "main", "demo", "build_parser"]

#: The bots the command line can create, by name.
BOT_KINDS = ("random", "greedy", "montecarlo", "ismcts")
#: The most rollouts per decision ``--rollouts`` accepts.
MAX_ROLLOUTS = MAX_BUDGET

_RULES_HELP = """\
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

Moves in short: SH cyprus (play card SH to Cyprus; a territory's first letters
will do), claim cyprus, pass (only when you cannot play)."""


def _territory(text: str) -> Territory | None:
    try:
        return Territory.parse(text.strip())  # a name or the start of one, any case
    except OrdonnanceError:
        return None


def _army_text(game: Any, territory: Territory, seat: int) -> str:
    cards = " ".join(str(c) for c in game.army(territory, seat))
    return f"{cards} = {describe(game.army_key(territory, seat))}"


class _Ordonnance(Hooks):
    """Ordonnance's hooks."""

    name = "ordonnance"
    title = "Ordonnance"
    bots = {"random": _bots.Random, "greedy": _bots.Greedy, "montecarlo": _bots.MonteCarlo, "ismcts": _bots.ISMCTS}
    budgets = {"montecarlo": Budget("rollouts", "rollouts"), "ismcts": Budget("iterations", "iterations")}
    rules_help = _RULES_HELP
    table_words = {"odds": "each territory's odds, from what you can see"}

    def add_rules(self, parser: argparse.ArgumentParser) -> None:
        """``--players``, ``--scoring``, ``--tie-break``, ``--claim-proof``, ``--auto-claim``."""
        from ordonnance.core.cli import choice

        group = parser.add_argument_group("rules (the defaults are the standard game)")
        group.add_argument(
            "--players", type=int, choices=(2, 3, 4), default=2, help="players per game: 2, 3 or 4 (default 2)"
        )
        group.add_argument(
            "--scoring", type=choice("territories", "points"), default="territories",
            metavar="{territories,points}", help="most territories wins (the default), or points: 3/2/1 per territory",
        )  # fmt: skip
        group.add_argument(
            "--tie-break", type=choice("latest_capture", "lowest_marker_sum"), default="latest_capture",
            metavar="{latest-capture,lowest-marker-sum}", help="who wins a tie (default latest-capture)",
        )  # fmt: skip
        group.add_argument(
            "--claim-proof", type=choice("public", "private"), default="public", metavar="{public,private}",
            help="public (the default): a claim must hold against every card not face up; private: "
            "the claimant's own hand is left out",
        )  # fmt: skip
        group.add_argument(
            "--auto-claim", action="store_true", help="award every provable territory at once after each play"
        )

    def rules(self, args: argparse.Namespace) -> Rules:
        """The Rules of the options."""
        return Rules(players=args.players, scoring=args.scoring, tie_break=args.tie_break,
                     claim_proof=args.claim_proof, auto_claim=args.auto_claim)  # fmt: skip

    def rules_text(self, rules: Any) -> str:
        """``scoring=..., tie_break=...`` and the claim options when claims are allowed."""
        text = f"scoring={rules.scoring}, tie_break={rules.tie_break}"
        if rules.claims_allowed:
            text += f", claim_proof={rules.claim_proof}, auto_claim={rules.auto_claim}"
        return text

    def board(self, table: Any, width: int | None) -> str:
        """:func:`ordonnance.text.board`."""
        from ordonnance.text import board

        return board(table, width=width)

    def details(self, game: Any, you: int, width: int | None) -> str:
        """:func:`ordonnance.text.details` of the seat's view: every army with its size and formations."""
        from ordonnance.text import details

        return details(game.view(you), width=width)

    def before(self, game: Any, action: Any) -> list[int | None]:
        """Who held each territory: the narration tells the territories the move decided."""
        return [game.territory_owner(t) for t in Territory]

    def narrate(self, game: Any, seat: int, action: Any, names: Sequence[str], you: int | None, before: Any) -> list[str]:
        """``you play LS to Edessa``, ``Greedy (p1) claims Cyprus: ...``, then each territory decided."""
        who, mine = names[seat], seat == you
        if isinstance(action, Play):
            lines = [f"{who} {'play' if mine else 'plays'} {action.card} to {action.territory.label}"]
        elif isinstance(action, Claim):
            lines = [f"{who} {'claim' if mine else 'claims'} {action.territory.label}: "
                     f"{_army_text(game, action.territory, seat)} cannot be beaten any more"]  # fmt: skip
        else:
            lines = [f"{who} {'pass' if mine else 'passes'}"]
        for t in Territory:
            owner = game.territory_owner(t)
            if before[t] is None and owner is not None and not isinstance(action, Claim):
                lines.append(f"{t.label} is decided: {names[owner]} {'win' if owner == you else 'wins'} "
                             f"with {_army_text(game, t, owner)} (marker {game.marker(t)})")  # fmt: skip
        return lines

    def parse_move(self, text: str, actions: Sequence[Any]) -> Action | str | None:
        """``SH cyprus``, ``SH to cyp``, ``claim cyprus``, ``pass``: the action or why it is not one."""
        words = text.split()
        lowered = [w.lower() for w in words]
        if lowered == ["pass"]:
            return "you cannot pass while you can play a card"  # a legal pass matched as listed already
        if len(words) == 2 and lowered[0] == "claim":
            t = _territory(words[1])
            if t is None:
                return f"no territory called {words[1]!r:.40}"
            if Claim(t) in actions:
                return Claim(t)
            return f"you cannot claim {t.label} now (claimable territories appear among your moves)"
        if lowered and lowered[0] == "play":
            words, lowered = words[1:], lowered[1:]
        if len(words) in (2, 3) and (len(words) == 2 or lowered[1] == "to"):
            try:
                card = Card.parse(words[0])
            except OrdonnanceError:
                return None
            t = _territory(words[-1])
            if t is None:
                return f"no territory called {words[-1]!r:.40}"
            play = Play(card, t)
            if play in actions:
                return play
            if not any(isinstance(a, Play) and a.card == card for a in actions):
                return f"you have no {card} in your hand"
            return f"{t.label} is not open to you: play into a territory listed among your moves"
        return None

    def table_word(self, word: str, game: Any, you: int) -> str:
        """``odds``: each territory's odds from what the person can see."""
        from ordonnance.odds import territory_odds

        view = game.view(you)
        lines = ["odds of each territory if the missing cards fall at random (from what you can see):"]
        lines += [f"  {territory_odds(view, t, samples=4_000, seed=0)}" for t in Territory]
        return "\n".join(lines)

    def bench(self, quick: bool, row: Callable[[str, float, str], None]) -> None:
        """The army evaluator against a plain memory pass, and the completion search's worst case."""
        from ordonnance.army import army_keys, warm_up
        from ordonnance.cards import standard_deck
        from ordonnance.completion import best_completion_key
        from ordonnance.core.cli import best_rate

        armies, calls = (20_000, 50) if quick else (10_000_000, 2_000)
        repeats = 2 if quick else 3
        warm_up()
        masks = np.random.default_rng(2026).integers(1, 32, size=(armies, 4), dtype=np.uint8)
        keys_rate = best_rate(lambda: army_keys(masks), armies, repeats)
        row(f"army_keys, {armies:,} armies", keys_rate, "armies/s")
        memory_rate = best_rate(lambda: np.bitwise_and(masks.view(np.uint32).reshape(-1), 0x1F1F1F1F), armies, repeats)
        row("memory pass (read 4 bytes, write 4 per army)", memory_rate, "armies/s")
        row("army_keys / memory pass", keys_rate / memory_rate, "x")
        for decks in (1, 2):
            pool = standard_deck(decks)
            best_completion_key([], pool)
            rate = best_rate(lambda: [best_completion_key([], pool) for _ in range(calls)], calls, repeats)
            row(f"best_completion_key, empty army vs {len(pool)} cards", 1e6 / rate, "us/call")


    def first_uses(self) -> Sequence[FirstUse]:
        """The army evaluator, the completion search, the odds, the view sampler, an ISMCTS move,
        the batched games, the Gymnasium environments (extra ``rl``) and the OpenSpiel game (extra ``openspiel``)."""
        from ordonnance.core.warmup import FirstUse, batch_first_use, montecarlo_name

        name = self.name
        # Each comes after the one that compiles kernels it calls: the MonteCarlo move the
        # rollouts' loop (play_out), ISMCTS the rules' entry points, the batched games theirs.
        montecarlo = montecarlo_name(name)
        ismcts = "Ordonnance: ISMCTS first move"
        batch = batch_first_use(name, after=ismcts)
        return [
            FirstUse(name, "Ordonnance: army_keys", _use_army_keys, cost=1.0),
            FirstUse(name, "Ordonnance: best_completion_key", _use_completion, cost=2.0),
            FirstUse(name, "Ordonnance: territory_odds", _use_odds, cost=1.5),
            FirstUse(name, "Ordonnance: view.sample_game", _use_sample_game, cost=1.0),
            FirstUse(name, ismcts, _use_ismcts, cost=35.0, after=montecarlo),
            batch,
            FirstUse(name, "Ordonnance: Gymnasium environment", _use_gymnasium, cost=10.0, extra="rl", module="gymnasium", after=batch.name),
            FirstUse(name, "Ordonnance: VectorEnv", _use_vector_env, cost=3.0, extra="rl", module="gymnasium", after=batch.name),
            FirstUse(name, "Ordonnance: OpenSpiel game", _use_openspiel, cost=3.0, extra="openspiel", module="pyspiel", after=batch.name),
        ]


def _use_army_keys() -> object:
    from ordonnance.army import army_keys

    return army_keys(np.array([[12, 12, 5, 4]], dtype=np.uint8))


def _use_completion() -> object:
    from ordonnance.completion import best_completion_key

    return best_completion_key(["SH", "S"], ["S", "H", "LB", "F", "S"])


def _use_odds() -> object:
    from ordonnance.game import Game
    from ordonnance.odds import territory_odds

    game = Game.new(Rules(), seed=1)
    for _ in range(6):
        game.apply(game.legal_actions()[0])
    territory_odds(game, Territory.CYPRUS)  # sampled: many cards to come
    while len(game.legal_actions()) > 1 and game.territory_owner(Territory.CYPRUS) is None:
        game.apply(game.legal_actions()[0])
        if territory_odds(game, Territory.CYPRUS).exact:  # few enough left to count every outcome
            break
    return game


def _use_sample_game() -> object:
    from ordonnance.game import Game

    return Game.new(Rules(), seed=1).view(0).sample_game(seed=2)


def _use_ismcts() -> object:
    from ordonnance.game import Game

    game = Game.new(Rules(), seed=1)
    return _bots.ISMCTS(seed=0, iterations=16).choose(game.view(game.current_player))


def _use_gymnasium() -> object:
    import gymnasium

    import ordonnance.rl  # noqa: F401  (registers the environment)

    env = gymnasium.make("ordonnance/Ordonnance-v0")
    _, info = env.reset(seed=0)
    for _ in range(3):
        _, _, over, _, info = env.step(int(info["action_mask"].nonzero()[0][0]))
        if over:
            break
    return env


def _use_vector_env() -> object:
    from ordonnance import rl

    venv = rl.VectorEnv(4, seed=0)
    venv.reset(seed=0)
    for _ in range(3):
        venv.step(np.argmax(venv.action_masks(), axis=1))
    return venv


def _use_openspiel() -> object:
    import pyspiel

    from ordonnance import openspiel

    state = pyspiel.load_game(openspiel.SHORT_NAME).new_initial_state()
    rng = np.random.default_rng(0)
    for _ in range(12):
        if state.is_terminal():
            break
        if state.is_chance_node():
            outcomes, probabilities = zip(*state.chance_outcomes())
            state.apply_action(int(rng.choice(outcomes, p=probabilities)))
        else:
            state.observation_tensor(state.current_player())
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


#: Ordonnance's hooks, for :mod:`ordonnance.core.cli`.
HOOKS = _Ordonnance()


def demo(seed: int = 7, players: int = 2) -> None:
    """Play one seeded game, Greedy (seat 0) against Random bots, and narrate it."""
    demo_game(HOOKS, Rules(players=players), seed, sys.stdout)


def build_parser(game: str = "ordonnance") -> argparse.ArgumentParser:
    """The argument parser of the ``ordonnance`` program, its commands' options those of ``game``."""
    from ordonnance.__main__ import build_parser as program

    return program(game)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``ordonnance`` program (:func:`ordonnance.__main__.main`); returns the exit status."""
    from ordonnance.__main__ import main as program

    return program(argv)

