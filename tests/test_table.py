"""The command line's framework in pieces: moves typed at the table, lists of moves, lines fitted
to a width, and bots by name (ordonnance.core.table, .terminal, .cli)."""

from __future__ import annotations

import argparse
import random
import re

import pytest

from ordonnance.core import registry
from ordonnance.core.cli import BotSpec, hooks_of, make_bot, parse_bot
from ordonnance.core.table import list_moves, match_move
from ordonnance.core.terminal import check_width, fit
from ordonnance.errors import OrdonnanceError

GAMES = registry.names()


def _first_position(game: str, players: int | None = None) -> list[object]:
    package = registry.package(game)
    rules = package.Rules() if players is None else package.Rules(players=players)
    return list(package.Game.new(rules, seed=5).legal_actions())


# --------------------------------------------------------------------- typed moves


@pytest.mark.parametrize("game", GAMES)
def test_every_legal_move_is_found_by_its_text_in_any_case_and_by_its_number(game: str) -> None:
    package = registry.package(game)
    position = package.Game.new(package.Rules(), seed=9)
    rng = random.Random(9)
    checked = 0
    while not position.is_over and checked < 400:
        actions = list(position.legal_actions())
        for number, action in enumerate(actions, 1):
            assert match_move(str(action), actions) == action
            assert match_move("  " + str(action).upper().replace(" ", "   ") + " ", actions) == action
            assert match_move(str(number), actions) == action
            checked += 1
        position.apply(rng.choice(actions))
    assert checked > 50


@pytest.mark.parametrize("game", GAMES)
def test_a_unique_beginning_is_enough_and_an_ambiguous_one_is_explained(game: str) -> None:
    actions = _first_position(game)
    texts = [str(a).casefold() for a in actions]
    for action, text in zip(actions, texts):
        # the shortest beginning no other move shares names it
        for end in range(1, len(text) + 1):
            if sum(other.startswith(text[:end]) for other in texts) == 1:
                assert match_move(text[:end], actions) == action
                break
    shared = texts[0].split()[0]  # every first move begins with its verb, shared by several moves here
    assert sum(t.startswith(shared) for t in texts) > 1
    message = match_move(shared, actions)
    assert isinstance(message, str) and f"{shared!r} could be" in message and "1) " in message


def test_mistakes_get_a_reason_never_an_action() -> None:
    actions = ["play LS to Antioch", "play LS to Cyprus", "pass"]
    assert match_move("", actions).startswith("type a move number from 1 to 3")
    assert match_move("4", actions) == "there is no move 4: choose a number from 1 to 3"
    assert match_move("0", actions).startswith("there is no move 0:")
    assert match_move("-1", actions).startswith("there is no move -1:")
    assert match_move("9" * 40, actions).startswith("there is no move 999999999999:")
    assert match_move("garbage", actions).startswith("not understood: 'garbage'")
    assert match_move("play LS to Antioch please", actions).startswith("not understood")
    assert match_move("pass", actions, word="order") == "pass"
    assert match_move("", actions, word="order").startswith("type an order number from 1 to 3, an order as listed")


def test_the_games_own_words_come_after_the_listed_text() -> None:
    hooks = hooks_of("ordonnance")
    actions = _first_position("ordonnance")
    card = str(actions[0]).split()[1]
    # "LS antioch" is no move's beginning: Ordonnance's shorthand reads it
    assert match_move(f"{card.lower()} antioch", actions, hooks) == actions[0]
    assert match_move("claim atlantis", actions, hooks) == "no territory called 'atlantis'"
    assert match_move("QQ antioch", actions, hooks).startswith("not understood: 'QQ antioch'")
    assert match_move("pass", actions, hooks) == "you cannot pass while you can play a card"


# --------------------------------------------------------------------- the list of moves


def test_moves_sharing_their_first_words_share_a_line() -> None:
    texts = ["play LS to Antioch", "play LS to Cyprus", "play LBSF to Antioch", "claim Cyprus", "claim Edessa", "pass"]
    one_column = [
        "  play LS to 1) Antioch  2) Cyprus",
        "  3) play LBSF to Antioch",  # alone: no line of its own kind
        "  claim      4) Cyprus  5) Edessa",  # the rests line up
        "  6) pass",
    ]
    assert list_moves(texts, 60) == one_column
    # short lines go in two columns when the width has room, read down the first column
    assert list_moves(texts, 80) == [f"{one_column[0]:<37}{one_column[2]}", f"{one_column[1]:<37}{one_column[3]}"]
    assert list_moves(texts[:4], 80) == [*one_column[:2], "  4) claim Cyprus"]  # three lines stay one column
    assert list_moves(texts, 40)[0] == "  play LS to 1) Antioch  2) Cyprus"


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("width", [80, 60])
def test_every_move_is_listed_once_within_the_width(game: str, width: int) -> None:
    package = registry.package(game)
    position = package.Game.new(package.Rules(), seed=3)
    rng = random.Random(3)
    while not position.is_over:
        texts = [str(a) for a in position.legal_actions()]
        lines = "\n".join(list_moves(texts, width)).split("\n")
        assert all(len(line) <= width for line in lines), lines
        numbers = [int(n) for n in re.findall(r"(?:^|\s)(\d+)\)", "\n".join(lines))]
        assert sorted(numbers) == list(range(1, len(texts) + 1))  # every move once (two columns read down)
        position.apply(rng.choice(list(position.legal_actions())))


# --------------------------------------------------------------------- lines fitted to a width


def test_long_lines_break_at_their_widest_gap_and_keep_every_character() -> None:
    rng = random.Random(1)
    pieces = ["Go-Hojo 11*", "Oda 3", "x", "a" * 70]
    for _ in range(500):
        line = "".join(rng.choice(pieces) + rng.choice(["  ", ", ", "; ", " "]) for _ in range(rng.randint(1, 20)))
        for width in (40, 57, 80):
            out = fit(line, width, rng.randint(0, 40))
            assert all(len(part) <= width for part in out.split("\n"))
            assert "".join(out.split()) == "".join(line.split())
    assert fit("Oda 3  Mori 2  Takeda 1", 16, 0) == "Oda 3  Mori 2\nTakeda 1"  # not "Oda 3  Mori\n2 ..."
    assert fit("short", 40) == fit("short", None) == "short"


@pytest.mark.parametrize(("width", "error"), [(39, "at least 40"), (0, "at least 40"), ("80", "an int or None"), (True, "an int")])
def test_a_bad_width_is_refused_with_the_value(width: object, error: str) -> None:
    with pytest.raises(OrdonnanceError, match=error):
        check_width(width)
    assert check_width(None) is None and check_width(40) == 40


# --------------------------------------------------------------------- bots by name


@pytest.mark.parametrize("game", GAMES)
def test_bots_by_name_with_a_budget_or_a_time(game: str) -> None:
    hooks = hooks_of(game)
    assert list(hooks.bots)[:3] == ["random", "greedy", "montecarlo"]
    for kind in hooks.bots:
        bot = make_bot(hooks, parse_bot(f" {kind.upper()} ", hooks), 7)
        assert type(bot) is hooks.bots[kind] and bot.seed == 7
    budget = hooks.budgets["montecarlo"]
    bot = make_bot(hooks, parse_bot("montecarlo:1,234", hooks), 1)
    assert getattr(bot, budget.keyword) == 1234
    assert make_bot(hooks, parse_bot("montecarlo", hooks), 1, rollouts=77).rollouts == 77
    timed = make_bot(hooks, parse_bot("montecarlo:20ms", hooks), 1, time_limit=5.0)
    assert timed.time_limit == pytest.approx(0.02)  # its own time beats --time-limit
    assert make_bot(hooks, parse_bot("montecarlo", hooks), 1, time_limit=0.5).time_limit == 0.5
    assert make_bot(hooks, parse_bot("greedy", hooks), 1, time_limit=0.5, rollouts=3).seed == 1  # not a search bot


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("chess", "unknown bot 'chess' (choose from random, greedy, montecarlo"),
        ("random:5", "the random bot takes no budget, got 'random:5'"),
        ("montecarlo:0", "the budget of 'montecarlo:0' ("),
        ("montecarlo:lots", "not a whole number: 'lots'"),
        ("montecarlo:0ms", "the time limit of 'montecarlo:0ms' must be a positive number of seconds"),
        ("montecarlo:", "not a whole number: ''"),
    ],
)
@pytest.mark.parametrize("game", GAMES)
def test_bad_bot_names_are_refused_with_the_value(game: str, name: str, message: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError, match=re.escape(message)):
        parse_bot(name, hooks_of(game))


def test_the_name_of_a_bot_spec_reads_back() -> None:
    hooks = hooks_of("ordonnance")
    for text in ("greedy", "montecarlo:400", "ismcts:0.05s", "ismcts:50ms", "montecarlo:1.5s"):
        spec = parse_bot(text, hooks)
        assert parse_bot(str(spec), hooks) == spec
    assert parse_bot("ismcts:50ms", hooks) == BotSpec("ismcts", seconds=0.05)
    assert hooks.bot_title(parse_bot("montecarlo:1500", hooks)) == "MonteCarlo (1,500 rollouts)"
    assert hooks_of("shinobi").bot_title(parse_bot("montecarlo:1500", hooks_of("shinobi"))) == "MonteCarlo (1,500 work)"
