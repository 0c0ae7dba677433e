"""The command-line functions that ``ordonnance play/simulate --game shinobi`` will call."""

from __future__ import annotations

import argparse
import io
import json
import re
from pathlib import Path

import pytest

from ordonnance.errors import OrdonnanceError
from ordonnance.shinobi import Game
from ordonnance.shinobi._montecarlo import DEFAULT_WORK
from ordonnance.shinobi.cli import (add_play_arguments, add_simulate_arguments, bot_spec, make_bot, rules_from_args,
                                    run_play, run_simulate)  # fmt: skip


def parse(add: object, argv: list[str], **kwargs: bool) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add(parser, **kwargs)  # type: ignore[operator]
    return parser.parse_args(argv)


def test_simulate_prints_the_summary() -> None:
    out = io.StringIO()
    args = parse(add_simulate_arguments, ["--games", "200", "--players", "3", "--bots", "greedy,random,random"])
    assert run_simulate(args, out) == 0
    text = out.getvalue()
    assert "200 games, 3 players, seed 1: player 0 = greedy" in text and "player 0 wins" in text and "games/s" in text


def test_simulate_refuses_bad_options_with_the_value() -> None:
    out = io.StringIO()
    assert run_simulate(parse(add_simulate_arguments, ["--bots", "random,random"]), out) == 2
    assert "--bots must name 1 bot or 4 (one per seat), got 2" in out.getvalue()
    out = io.StringIO()
    assert run_simulate(parse(add_simulate_arguments, ["--ninjas", "9"]), out) == 2
    assert "ninjas must be 0..3" in out.getvalue()
    out = io.StringIO()
    assert run_simulate(parse(add_simulate_arguments, ["--bots", "clever"]), out) == 2
    assert "unknown bot 'clever'" in out.getvalue()


def test_play_a_whole_game_by_always_giving_the_first_order(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = parse(add_play_arguments, ["--seed", "5", "--players", "3", "--bot", "random", "--save", str(save)])
    out = io.StringIO()
    assert run_play(args, io.StringIO("help\nx\n99\n" + "1\n" * 500), out) == 0
    text = out.getvalue()
    assert "you are player 0 and serve" in text and "Each turn gives three orders" in text
    assert "'x' is not one of" in text and ("you win" in text or "you lose" in text or "share" in text)
    game = Game.from_json(save.read_text())
    assert game.is_over and json.loads(save.read_text())["seed"] == 5


def test_play_quits_at_the_end_of_the_input() -> None:
    out = io.StringIO()
    assert run_play(parse(add_play_arguments, ["--seed", "1"]), io.StringIO("1\n"), out) == 0
    assert out.getvalue().rstrip().endswith("bye")
    assert run_play(parse(add_play_arguments, ["--seat", "7"]), io.StringIO(""), out) == 2
    assert "--seat must be 0..3 for 4 players, got 7" in out.getvalue()


def test_shinobi_only_options_fit_a_parser_that_has_the_common_ones() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2)  # the shared parser's own, for Ordonnance
    add_simulate_arguments(parser, common=False)
    assert rules_from_args(parser.parse_args(["--shinobi-players", "5", "--attack", "optional"])).players == 5
    assert rules_from_args(parser.parse_args(["--players", "3"])).players == 3


def test_montecarlo_takes_its_work_budget_as_name_colon_work() -> None:
    bot = make_bot("montecarlo:2000", seed=3, rollouts=40)
    assert (bot.work, bot.rollouts) == (2000, 40)
    assert make_bot(" MonteCarlo ", seed=3).work == DEFAULT_WORK
    out = io.StringIO()
    args = parse(add_simulate_arguments, ["--games", "2", "--players", "3", "--bots", "montecarlo:1500,random,greedy"])
    assert run_simulate(args, out) == 0
    assert "player 0 = montecarlo:1500" in out.getvalue()
    out = io.StringIO()
    assert run_play(parse(add_play_arguments, ["--seed", "2", "--seat", "1", "--bot", "montecarlo:1500"]), io.StringIO("1\n"), out) == 0
    assert "against montecarlo:1500 bots" in out.getvalue() and "player 0 (montecarlo:1500): " in out.getvalue()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("montecarlo:0", "the budget of 'montecarlo:0' (work a decision) must be an int in 1..10,000,000,000, got '0'"),
        ("montecarlo:lots", "got 'lots'"),
        ("montecarlo:", "got ''"),
        (f"montecarlo:{10**10 + 1}", f"got '{10**10 + 1}'"),
        ("greedy:500", "the greedy bot takes no budget, got 'greedy:500'"),
        ("ismcts:500", "unknown bot 'ismcts'"),
    ],
)
def test_bad_bot_budgets_are_refused_with_the_value(spec: str, message: str) -> None:
    with pytest.raises(OrdonnanceError, match=re.escape(message)):
        bot_spec(spec)
    out = io.StringIO()
    assert run_simulate(parse(add_simulate_arguments, ["--bots", spec]), out) == 2
    assert out.getvalue().startswith("simulate: ") and message in out.getvalue()
    out = io.StringIO()
    assert run_play(parse(add_play_arguments, ["--bot", spec]), io.StringIO(""), out) == 2
    assert out.getvalue().startswith("play: ") and message in out.getvalue()
