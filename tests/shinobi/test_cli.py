"""Shinobi at the command line: its hooks through ``ordonnance COMMAND --game shinobi``, and the
module's older functions (parsers built by a program of its own)."""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from pathlib import Path

import pytest

from ordonnance.__main__ import main
from ordonnance.errors import OrdonnanceError
from ordonnance.shinobi import Game, Rules
from ordonnance.shinobi._montecarlo import DEFAULT_WORK
from ordonnance.shinobi.cards import CLAN_NAMES
from ordonnance.shinobi.cli import (HOOKS, add_play_arguments, add_simulate_arguments, bot_spec, make_bot,
                                    rules_from_args, run_play, run_simulate)  # fmt: skip


def parse(add: object, argv: list[str], **kwargs: bool) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add(parser, **kwargs)  # type: ignore[operator]
    return parser.parse_args(argv)


def test_simulate_prints_the_summary() -> None:
    out = io.StringIO()
    args = parse(add_simulate_arguments, ["--games", "200", "--players", "3", "--bots", "greedy,random,random"])
    assert run_simulate(args, out) == 0
    text = out.getvalue()
    assert "Shinobi simulate: 200 games, 3 players, seed 1: player 0 = Greedy, player 1 = Random" in text
    assert "rules: attack=mandatory, samurai=11, ninjas=3" in text and "player 0 wins" in text and "games/s" in text


def test_refused_rules_and_seats_are_a_line_and_status_2() -> None:
    out = io.StringIO()
    assert run_simulate(parse(add_simulate_arguments, ["--bots", "random,random"]), out) == 2
    assert "simulate: --bots must name 1 bot or 4 (one per seat), got 2" in out.getvalue()
    out = io.StringIO()
    assert run_simulate(parse(add_simulate_arguments, ["--ninjas", "9"]), out) == 2
    assert out.getvalue().startswith("simulate: ") and "ninjas must be 0..3" in out.getvalue()
    out = io.StringIO()
    assert run_play(parse(add_play_arguments, ["--seat", "7"]), io.StringIO(""), out) == 2
    assert "play: --seat must be 0..3 for 4 players, got 7" in out.getvalue()


def test_play_a_whole_game_by_always_giving_the_first_order(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    args = parse(add_play_arguments, ["--seed", "5", "--players", "3", "--bot", "random", "--save", str(save)])
    out = io.StringIO()
    assert run_play(args, io.StringIO("help\nx\n99\n" + "1\n" * 500), out) == 0
    text = out.getvalue()
    game = Game.from_json(save.read_text())
    assert game.is_over and json.loads(save.read_text())["seed"] == 5
    assert f"you are player 0 (clan {CLAN_NAMES[game.clan(0)]})" in text and "Each turn gives three orders" in text
    assert "not understood: 'x'; type an order number from 1 to" in text
    assert "there is no order 99: choose a number from 1 to" in text
    clans = ", ".join(f"{'you' if p == 0 else f'Random (p{p})'} {CLAN_NAMES[game.clan(p)]}" for p in range(3))
    assert f"clans: {clans}; neutral: " in text
    assert text.rstrip().splitlines()[-2].startswith("game over: ")  # then: game saved to ...


def test_a_bots_three_orders_are_told_on_one_line() -> None:
    out = io.StringIO()
    run_play(parse(add_play_arguments, ["--seed", "2", "--seat", "3", "--bot", "greedy"]), io.StringIO("quit\n"), out)
    lines = out.getvalue().replace(";\n    ", "; ").splitlines()  # a long line goes on indented
    told = [line for line in lines if line.startswith("Greedy (p")]
    assert [line.split(":")[0] for line in told] == ["Greedy (p0)", "Greedy (p1)", "Greedy (p2)"]
    assert all(line.count("; ") >= 1 for line in told)  # deploy (or ninja); reinforce or move; [attack]


def test_play_quits_at_the_end_of_the_input() -> None:
    out = io.StringIO()
    assert run_play(parse(add_play_arguments, ["--seed", "1"]), io.StringIO("1\n"), out) == 0
    assert out.getvalue().rstrip().endswith("bye")


def test_shinobi_only_options_fit_a_parser_that_has_the_common_ones() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2)  # the shared parser's own, for Ordonnance
    add_simulate_arguments(parser, common=False)
    assert rules_from_args(parser.parse_args(["--shinobi-players", "5", "--attack", "optional"])).players == 5
    assert rules_from_args(parser.parse_args(["--players", "3"])).players == 3
    parser.add_argument("--bots", default=None)  # a program's own options, read as before
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    out = io.StringIO()
    assert run_simulate(parser.parse_args(["--players", "3", "--games", "5", "--bots", "greedy"]), out) == 0
    assert "5 games, 3 players, seed 1: player 0 = Greedy, player 1 = Greedy, player 2 = Greedy" in out.getvalue()


def test_montecarlo_takes_its_work_budget_as_name_colon_work() -> None:
    bot = make_bot("montecarlo:2000", seed=3, rollouts=40)
    assert (bot.work, bot.rollouts) == (2000, 40)
    assert make_bot(" MonteCarlo ", seed=3).work == DEFAULT_WORK
    out = io.StringIO()
    args = parse(add_simulate_arguments, ["--games", "2", "--players", "3", "--bots", "montecarlo:1500,random,greedy"])
    assert run_simulate(args, out) == 0
    assert "player 0 = MonteCarlo (1,500 work)" in out.getvalue()
    out = io.StringIO()
    assert run_play(parse(add_play_arguments, ["--seed", "2", "--seat", "1", "--bot", "montecarlo:1500"]),
                    io.StringIO("1\n"), out) == 0  # fmt: skip
    assert "against MonteCarlo (1,500 work) (player 0)" in out.getvalue()
    assert "MonteCarlo (1,500 work) (p0): " in out.getvalue()


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("montecarlo:0", "the budget of 'montecarlo:0' (work) must be at least 1, got 0"),
        ("montecarlo:lots", "not a whole number: 'lots'"),
        ("montecarlo:", "not a whole number: ''"),
        (f"montecarlo:{10**10 + 1}", "must be at most 10,000,000,000, got 10,000,000,001"),
        ("greedy:500", "the greedy bot takes no budget, got 'greedy:500'"),
        ("ismcts:500", "unknown bot 'ismcts'"),
    ],
)
def test_bad_bot_budgets_are_refused_with_the_value(spec: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(OrdonnanceError, match=re.escape(message)):
        bot_spec(spec)
    with pytest.raises(OrdonnanceError, match=re.escape(message)):
        make_bot(spec, seed=1)
    for argv in (["simulate", "--game", "shinobi", "--bots", spec], ["play", "--game", "shinobi", "--bot", spec]):
        with pytest.raises(SystemExit) as exit:
            main(argv)
        assert exit.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith(f"ordonnance {argv[0]} --game shinobi: error: ") and message in err and err.count("\n") == 1
    args = argparse.Namespace(**{**vars(parse(add_simulate_arguments, [])), "bots": spec})  # set by a program
    out = io.StringIO()
    assert run_simulate(args, out) == 2 and out.getvalue().startswith("simulate: ") and message in out.getvalue()


def test_the_hooks_say_the_rules_and_the_clan_of_the_person_only() -> None:
    game = Game.new(Rules(players=5, attack="optional", ninjas=1), seed=4)
    assert HOOKS.rules_text(game.rules) == "attack=optional, samurai=11, ninjas=1"
    assert HOOKS.seat_note(game, 2, 2) == f"clan {CLAN_NAMES[game.clan(2)]}"
    assert HOOKS.seat_note(game, 3, 2) == ""  # another seat's clan is hidden
    assert HOOKS.move_word == "order" and "Each turn gives three orders" in HOOKS.rules_help
    assert sys.modules[type(HOOKS).__module__] is sys.modules["ordonnance.shinobi.cli"]
