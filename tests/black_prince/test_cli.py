"""The command-line functions, driven through text streams."""

from __future__ import annotations

import io
import pathlib

import pytest

from ordonnance import black_prince as bp
from ordonnance.black_prince.cli import build_parser, main, run_play, run_simulate


def test_play_a_whole_game_by_always_taking_the_first_move(tmp_path: pathlib.Path) -> None:
    save = str(tmp_path / "game.json")
    moves = io.StringIO("help\nnonsense\n99\nboard\n" + "1\n" * 400)
    out = io.StringIO()
    args = build_parser().parse_args(["play", "--seed", "5", "--bot", "random", "--armies", "scottish", "French",
                                      "--save", save])  # fmt: skip
    assert run_play(args, moves, out) == 0
    text = out.getvalue()
    assert "you are player 0 (Scottish)" in text and "Black Prince in brief" in text
    assert "type a move number from 1 to" in text and "game over after" in text
    assert "1 front |" in text and "your hand:" in text
    game = bp.Game.from_json((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert game.is_over and game.rules.armies == ("Scottish", "French")


def test_play_shows_fights_through_the_calculator_and_replays() -> None:
    out = io.StringIO()
    args = build_parser().parse_args(["play", "--seed", "8", "--bot", "greedy", "--seat", "1"])
    run_play(args, io.StringIO("1\n" * 400), out)
    text = out.getvalue()
    assert "attacks column" in text and "strength" in text and " = " in text


def test_quitting_and_end_of_input() -> None:
    out = io.StringIO()
    assert run_play(build_parser().parse_args(["play", "--seed", "1"]), io.StringIO("quit\n"), out) == 0
    assert out.getvalue().rstrip().endswith("bye")
    out = io.StringIO()
    assert run_play(build_parser().parse_args(["play", "--seed", "1"]), io.StringIO(""), out) == 0


def test_simulate_prints_the_summary() -> None:
    out = io.StringIO()
    args = build_parser().parse_args(["simulate", "--games", "300", "--bots", "greedy", "random",
                                      "--armies", "Burgundian", "English"])  # fmt: skip
    assert run_simulate(args, out) == 0
    text = out.getvalue()
    assert "300 games" in text and "Burgundian (greedy) vs English (random)" in text and "games/s" in text
    assert main(["simulate", "--games", "10", "--bots", "random", "random", "greedy"], stdout=io.StringIO()) == 2


def test_bad_options_are_refused() -> None:
    for argv in (["play", "--armies", "Welsh", "French"], ["simulate", "--games", "-3"], ["play", "--seed", "x"],
                 ["play", "--seat", "2"]):  # fmt: skip
        with pytest.raises(SystemExit):
            build_parser().parse_args(argv)
    out = io.StringIO()  # a mirror match is no bad option: the same army on both sides
    assert run_play(build_parser().parse_args(["play", "--armies", "French", "French"]), io.StringIO(), out) == 0
    assert "(French), against the" in out.getvalue() and "bot (French)" in out.getvalue()
