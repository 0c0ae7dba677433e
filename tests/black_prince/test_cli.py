"""Black Prince at the command line: its hooks through ``ordonnance COMMAND --game black-prince``,
``python -m ordonnance.black_prince.cli`` and the module's older functions, driven through text streams."""

from __future__ import annotations

import io
import pathlib

import pytest

from ordonnance import black_prince as bp
from ordonnance.__main__ import main as ordonnance_main
from ordonnance.black_prince.cli import HOOKS, build_parser, describe, main, run_play, run_simulate


def test_play_a_whole_game_by_always_taking_the_first_move(tmp_path: pathlib.Path) -> None:
    save = str(tmp_path / "game.json")
    moves = io.StringIO("help\nnonsense\n99\nboard\n" + "1\n" * 400)
    out = io.StringIO()
    args = build_parser().parse_args(["play", "--seed", "5", "--bot", "random", "--armies", "scottish", "French",
                                      "--save", save])  # fmt: skip
    assert run_play(args, moves, out) == 0
    text = out.getvalue()
    assert "you are player 0 (Scottish), against Random (player 1, French)" in " ".join(text.split())
    assert "Black Prince in brief" in text
    assert "not understood: 'nonsense'; type a move number from 1 to" in text and "game over after" in text
    assert "1 front|" in text and "your hand:" in text
    assert all(len(line) <= 80 for line in text.splitlines()[:-1])  # the last: game saved to a long path
    game = bp.Game.from_json((tmp_path / "game.json").read_text(encoding="utf-8"))
    assert game.is_over and game.rules.armies == ("Scottish", "French")


def test_play_shows_fights_through_the_calculator_and_breakthroughs() -> None:
    out = io.StringIO()
    args = build_parser().parse_args(["play", "--seed", "8", "--bot", "greedy", "--seat", "1"])
    run_play(args, io.StringIO("1\n" * 400), out)
    text = " ".join(out.getvalue().split())  # long lines go on indented
    assert "attacks column" in text and "strength" in text and " = " in text
    assert "breakthrough: " in text and "taken from the reserves" in text


def test_a_fight_is_listed_and_told_with_the_calculators_totals() -> None:
    game = bp.Game.new(bp.Rules(), seed=8)
    bot = bp.Greedy(seed=1)
    while not any(isinstance(a, bp.Fight) for a in game.legal_actions()):
        game.apply(bot.choose(game.view(game.current_player)))
    fight = next(a for a in game.legal_actions() if isinstance(a, bp.Fight))
    preview = game.fight_preview(fight)
    assert describe(game, fight) == f"{fight}: {preview}"
    listed = HOOKS.describe(game, fight)  # in the list of moves: the totals and what is routed
    assert listed.startswith(f"{fight}: {preview.attacker.total} against {preview.defender.total}, ")
    assert listed.endswith(" routed" if preview.losses else "nothing happens")
    assert all(str(card) in listed for card in preview.losses)
    assert describe(game, fight) in HOOKS.details(game, game.current_player, None)  # 'board': the parts too
    seat, before = game.current_player, HOOKS.before(game, fight)
    game.apply(fight)
    names = ["you", "Greedy (p1)"] if seat == 0 else ["Greedy (p0)", "you"]
    assert HOOKS.narrate(game, seat, fight, names, 0, before)[0] == f"{names[seat]}: {fight}: {preview}"


def test_quitting_and_end_of_input() -> None:
    out = io.StringIO()
    assert run_play(build_parser().parse_args(["play", "--seed", "1"]), io.StringIO("quit\n"), out) == 0
    assert out.getvalue().rstrip().endswith("bye")
    out = io.StringIO()
    assert run_play(build_parser().parse_args(["play", "--seed", "1"]), io.StringIO(""), out) == 0
    assert out.getvalue().rstrip().endswith("bye")


def test_simulate_prints_the_summary() -> None:
    out = io.StringIO()
    args = build_parser().parse_args(["simulate", "--games", "300", "--bots", "greedy,random",
                                      "--armies", "Burgundian", "English"])  # fmt: skip
    assert run_simulate(args, out) == 0
    text = out.getvalue()
    assert "300 games, 2 players, seed 1: player 0 = Greedy, player 1 = Random" in text and "games/s" in text
    assert "rules: armies Burgundian (player 0) and English (player 1), first=seat0" in text


def test_the_bots_separated_by_spaces_still_work_with_a_note(capsys: pytest.CaptureFixture[str]) -> None:
    spaced, commas = io.StringIO(), io.StringIO()
    assert main(["simulate", "--games", "30", "--bots", "greedy", "random"], stdout=spaced) == 0
    assert "note: --bots takes one comma-separated list, as in --bots greedy,random" in capsys.readouterr().err
    assert main(["simulate", "--games", "30", "--bots", "greedy,random"], stdout=commas) == 0
    assert "note:" not in capsys.readouterr().err
    assert spaced.getvalue().splitlines()[:-1] == commas.getvalue().splitlines()[:-1]  # the timing apart


def test_bad_options_exit_with_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["play", "--armies", "Welsh", "French"], ["simulate", "--games", "-3"], ["play", "--seed", "x"],
                 ["play", "--seat", "2"], ["simulate", "--bots", "random,random,greedy"],
                 ["simulate", "--bots", "random", "random", "greedy"], ["play", "--gam", "x"]):  # fmt: skip
        with pytest.raises(SystemExit) as exit:
            main(argv, stdin=io.StringIO(), stdout=io.StringIO())
        assert exit.value.code == 2
        err = capsys.readouterr().err
        assert err.strip().splitlines()[-1].startswith("python -m ordonnance.black_prince.cli")
        assert "error: " in err and "Traceback" not in err


def test_mirror_matches_and_the_old_refusals_as_a_line() -> None:
    out = io.StringIO()
    args = build_parser().parse_args(["play", "--armies", "French", "French", "--seed", "3"])
    assert run_play(args, io.StringIO("quit\n"), out) == 0
    assert "you are player 0 (French), against Greedy (player 1, French)" in " ".join(out.getvalue().split())
    out = io.StringIO()
    args.seat = 5  # set by a program of its own, past its parser
    assert run_play(args, io.StringIO(""), out) == 2
    assert out.getvalue() == "play: --seat must be 0..1 for 2 players, got 5\n"


def test_the_shared_command_plays_black_prince(capsys: pytest.CaptureFixture[str]) -> None:
    assert ordonnance_main(["simulate", "--game", "black-prince", "--games", "20", "--bots", "greedy,random",
                            "--armies", "Scottish", "Scottish", "--first", "coin"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert out.startswith("Black Prince simulate: 20 games, 2 players, seed 1: player 0 = Greedy, player 1 = Random")
    assert "rules: armies Scottish (player 0) and Scottish (player 1), first=coin" in out
