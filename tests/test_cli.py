"""The command line, driven as a person would: in this process (``main(argv)`` with standard
input typed in), and through real processes where only a process can tell (``python -m``,
the installed script, Ctrl-C, SIGTERM, exit statuses from the shell)."""

from __future__ import annotations

import importlib.util
import io
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

import ordonnance as od
from ordonnance.__main__ import main
from ordonnance.core import registry

JIT = os.environ.get("NUMBA_DISABLE_JIT") != "1"
COMMANDS = ["play", "demo", "simulate", "tournament", "ladder", "odds", "bench"]
GAMES = registry.names()
#: The commands every game takes (odds reads Ordonnance's saves only).
GAME_COMMANDS = ["play", "demo", "simulate", "tournament", "ladder", "bench"]

Cli = Callable[..., tuple[int, str, str]]


def without_compile_notices(err: str) -> str:
    """Standard error without the library's notices that numba is compiling a kernel for its
    first use (a line each, on a machine whose cache does not hold it yet)."""
    return "".join(line for line in err.splitlines(keepends=True) if not line.startswith("ordonnance: compiling "))


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Cli:
    """``main(args)`` in this process with ``stdin`` typed in: ``(status, stdout, stderr)``."""

    def call(*args: str, stdin: str = "") -> tuple[int, str, str]:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
        capsys.readouterr()
        try:
            status = main(list(args))
        except SystemExit as exit:
            status = exit.code if isinstance(exit.code, int) else 1
        out, err = capsys.readouterr()
        assert "Traceback" not in out + err
        return status, out, without_compile_notices(err)

    return call


def run(*args: str, stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``python -m ordonnance ARGS`` with ``stdin`` typed in, as a person would."""
    result = subprocess.run(
        [sys.executable, "-m", "ordonnance", *args],
        input=stdin, capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    result.stderr = without_compile_notices(result.stderr)
    return result


def assert_clean(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stdout + result.stderr, result.stderr


def players_of(game: str) -> int:
    return int(registry.package(game).Rules().players)


# --------------------------------------------------------------------- the program, from the shell


def test_demo_runs_as_a_module() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ordonnance", "demo"], capture_output=True, text=True, timeout=300, check=False
    )
    assert result.returncode == 0, result.stderr
    assert "player 0 = Greedy, player 1 = Random" in result.stdout
    assert "1. player 0 plays" in result.stdout
    assert "game over: player" in result.stdout
    assert without_compile_notices(result.stderr) == ""


def test_the_installed_script_runs_the_same_command_line() -> None:
    script = Path(sys.executable).parent / "ordonnance"
    if not script.exists():
        pytest.skip("the ordonnance script is not installed next to this Python")
    result = subprocess.run(
        [str(script), "play", "--seed", "5"], input="quit\n", capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0 and "seed 5: you are player 0" in result.stdout


def test_bad_arguments_from_the_shell_give_one_line_and_status_2() -> None:
    for args in (["simulate", "--games", "-5"], ["tournament", "--game", "shinobi", "--bots", "greedy,wizard"]):
        result = run(*args)
        assert result.returncode == 2 and result.stdout == ""
        prefix = " ".join(["ordonnance", *args[:3]] if "--game" in args else ["ordonnance", args[0]])
        assert result.stderr.startswith(f"{prefix}: error:") and result.stderr.count("\n") == 1
        assert_clean(result)
    bare = run()
    assert bare.returncode == 2 and "ordonnance: error:" in bare.stderr and "required: COMMAND" in bare.stderr
    assert_clean(bare)


# --------------------------------------------------------------------- help and bad arguments


def test_the_top_level_help_lists_every_command(cli: Cli) -> None:
    status, out, err = cli("--help")
    assert status == 0 and err == ""
    for command in COMMANDS:
        assert f"\n    {command}" in out


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_has_a_clear_help(command: str, cli: Cli) -> None:
    status, out, err = cli(command, "--help")
    assert status == 0 and err == ""
    assert out.startswith(f"usage: ordonnance {command}")
    assert "options:" in out and "-h, --help" in out and "Examples:" in out
    assert ("--game" in out) == (command != "odds")


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_every_command_helps_with_each_games_own_options(command: str, game: str, cli: Cli) -> None:
    status, out, _ = cli(command, "--game", game, "--help")
    assert status == 0
    out = out.split("Examples:")[0]
    own = {"ordonnance": "--scoring", "shinobi": "--ninjas", "black-prince": "--armies"}
    for name, option in own.items():
        assert (option in out) == (name == game and command != "bench"), (name, option)  # bench: standard rules


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["demo", "--players", "5"], "invalid choice: 5"),
        (["play", "--bot", "chess"], "unknown bot 'chess'"),
        (["play", "--bot", "random:5"], "the random bot takes no budget, got 'random:5'"),
        (["play", "--seat", "2"], "--seat must be 0..1"),
        (["play", "--players", "5"], "invalid choice: 5"),
        (["play", "--seed", "-1"], "a seed is in 0..2**64-1"),
        (["simulate", "--games", "0"], "must be at least 1"),
        (["simulate", "--games", "many"], "not a whole number: 'many'"),
        (["simulate", "--bots", "greedy,wizard"], "unknown bot 'wizard'"),
        (["simulate", "--bots", "greedy,random,random"], "must name 1 bot or 2"),
        (["simulate", "--scoring", "points", "--auto-claim"], "auto_claim=True is impossible"),
        (["simulate", "--tie-break", "coin"], "invalid choice: 'coin'"),
        (["simulate", "--gam", "shinobi"], "unrecognized arguments: --gam shinobi"),  # no abbreviations
        (["simulate", "--game", "chess"], "invalid choice: 'chess'"),
        (["simulate", "--game", "shinobi", "--scoring", "points"], "unrecognized arguments: --scoring points"),
        (["simulate", "--game", "shinobi", "--players", "2"], "invalid choice: 2"),
        (["simulate", "--game", "shinobi", "--ninjas", "9"], "ninjas must be 0..3"),
        (["simulate", "--game", "shinobi", "--bots", "ismcts"], "unknown bot 'ismcts' (choose from random, greedy, montecarlo)"),
        (["simulate", "--game", "black-prince", "--bots", "greedy,random,random"], "must name 1 bot or 2"),
        (["play", "--game", "black-prince", "--armies", "Welsh", "French"], "unknown army 'Welsh'"),
        (["play", "--game", "black-prince", "--seat", "2"], "--seat must be 0..1 for 2 players, got 2"),
        (["play", "--game", "shinobi", "--seat", "7"], "--seat must be 0..3 for 4 players, got 7"),
        (["tournament", "--bots", "greedy"], "at least 2 bots"),
        (["tournament", "--players", "3", "--bots", "greedy,random"], "at least 3 bots"),
        (["tournament", "--game", "shinobi", "--bots", "greedy,random,random"], "at least 4 bots for 4-player games"),
        (["tournament", "--serial", "--workers", "2"], "--serial cannot be combined"),
        (["tournament", "--bots", "greedy:4,random"], "the greedy bot takes no budget, got 'greedy:4'"),
        (["tournament", "--bots", "montecarlo:0,random"], "the budget of 'montecarlo:0' (rollouts) must be at least 1"),
        (["ladder", "--bots", "random,greedy", "--anchor", "x"], "--anchor 'x' is not one of the bots: random, greedy"),
        (["ladder", "--bots", "montecarlo:lots,random"], "not a whole number: 'lots'"),
        (["ladder", "--bots", "ismcts:0,random"], "the budget of 'ismcts:0' (iterations) must be at least 1"),
        (["ladder", "--bots", "ismcts:-5ms,random"], "not a whole number: '-5ms'"),
        (["odds"], "required: FILE"),
        (["odds", "x.json", "--game", "shinobi"], "unrecognized arguments: --game shinobi"),
        (["bench", "--fast"], "unrecognized arguments: --fast"),
        (["fly"], "invalid choice: 'fly'"),
    ],
)
def test_bad_arguments_give_one_line_and_status_2(args: list[str], message: str, cli: Cli) -> None:
    status, out, err = cli(*args)
    assert status == 2
    assert err.startswith("ordonnance") and "error:" in err and message in err and err.count("\n") == 1, err
    assert out == ""


def test_an_error_points_to_the_help_of_the_game_asked_for(cli: Cli) -> None:
    assert cli("simulate", "--ninjas", "2")[2].endswith("(see 'ordonnance simulate --help')\n")
    assert cli("simulate", "--game", "shinobi", "--ninjas", "x")[2].endswith(
        "(see 'ordonnance simulate --game shinobi --help')\n"
    )
    assert cli("simulate", "--game=black-prince", "--first", "x")[2].endswith(
        "(see 'ordonnance simulate --game black-prince --help')\n"
    )


# The hostile battery of issue 12: each invocation is a user mistake that must give
# one line on standard error, no traceback and a non-zero status.
HOSTILE = [
    (["demo", "--seed", "-1"], "a seed is in 0..2**64-1, got -1"),
    (["demo", "--seed", "18446744073709551616"], "a seed is in 0..2**64-1"),
    (["demo", "--seed", "1e3"], "not a whole number"),
    (["play", "--seed", "18446744073709551616"], "a seed is in 0..2**64-1"),
    (["play", "--seat", "--3"], "expected one argument"),
    (["play", "--seat", "\u00b2"], "not a whole number"),
    (["simulate", "--games", "1000000000000"], "must be at most 100,000,000"),
    (["simulate", "--games", "10**20"], "not a whole number: '10**20'"),
    (["simulate", "--games", "9" * 5000], "not a whole number"),
    (["simulate", "--games", "+-5"], "not a whole number"),
    (["simulate", "--games", "\u0661\u0662"], "not a whole number"),  # Arabic-Indic digits
    (["simulate", "--rollouts", "10000000000"], "must be at most 1,000,000"),
    (["simulate", "--time-limit", "inf"], "must be a positive number of seconds"),
    (["tournament", "--games", "10000000000000"], "must be at most 1,000,000,000,000"),
    (["tournament", "--workers", "100000"], "must be at most 1,024"),
    (["tournament", "--chunk-size", "1000000000"], "must be at most 100,000,000"),
    (["tournament", "--time-limit", "nan"], "must be a positive number of seconds"),
    (["tournament", "--time-limit", "-1"], "must be a positive number of seconds"),
    (["odds", "x.json", "--samples", "18446744073709551616"], "must be at most 100,000,000"),
    (["odds", "x.json", "--player", "9" * 100], "not a whole number"),
]


@pytest.mark.parametrize(("args", "message"), HOSTILE, ids=[" ".join(a)[:40] for a, _ in HOSTILE])
def test_hostile_arguments_give_one_line(args: list[str], message: str, cli: Cli) -> None:
    status, _, err = cli(*args)
    assert status == 2
    assert message in err and err.count("\n") == 1, err


def test_hostile_invocations_from_the_shell_give_one_line(tmp_path: Path) -> None:
    """The issue's cases that went past argparse, through real processes."""
    pytest.importorskip("distributed")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    huge = tmp_path / "huge.json"
    huge.write_text(" " * 2_000_000)
    cases = [
        (["tournament", "--dask", "not-an-address", "--games", "10"], "missing port number"),
        (["tournament", "--dask", "foo://x", "--games", "10"], "unknown scheme 'foo'"),
        (["tournament", "--dask", "tcp://127.0.0.1:99999", "--games", "10"], "port 99999 is not in 1..65535"),
        (["odds", str(deep)], "nested deeper than 8 levels"),
        (["odds", str(huge)], "long, more than 1,000,000"),
    ]
    for args, message in cases:
        result = run(*args)
        assert result.returncode == 1, (args, result.stderr)
        assert message in result.stderr and result.stderr.count("\n") == 1, (args, result.stderr)
        assert_clean(result)


def test_the_largest_seed_plays_without_overflowing_the_bots_seeds(cli: Cli) -> None:
    status, out, err = cli("demo", "--seed", "18446744073709551615", "--players", "3")
    assert status == 0 and err == "" and "game over" in out
    moves = "+-5\n--3\n\u00b2\n" + "9" * 5000 + "\n1e9\nquit\n"
    status, out, err = cli("play", "--seed", "18446744073709551615", stdin=moves)
    assert status == 0 and err == ""
    assert out.count("not understood") == 4 and "there is no move 999999999999" in out


# --------------------------------------------------------------------- demo


@pytest.mark.parametrize("players", [2, 3, 4])
def test_demo_is_reproducible_for_every_player_count(players: int, cli: Cli) -> None:
    first = cli("demo", "--seed", "3", "--players", str(players))[1]
    assert cli("demo", "--seed", "3", "--players", str(players))[1] == first
    assert f"Ordonnance, {players} players, seed 3" in first and "game over" in first


def test_the_demo_function_narrates_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    from ordonnance.__main__ import demo

    demo(seed=7)
    out = capsys.readouterr().out
    assert out.startswith("Ordonnance, 2 players, seed 7: player 0 = Greedy, player 1 = Random\n")
    assert "  1. player 0 plays " in out and "is decided: player" in out
    assert out.rstrip().splitlines()[-1] in ("game over: player 0 wins", "game over: player 1 wins", "game over: a draw")


@pytest.mark.parametrize("game", GAMES)
def test_demo_of_every_game_plays_the_seeded_game_to_its_end(game: str, cli: Cli) -> None:
    status, out, err = cli("demo", "--game", game, "--seed", "4")
    assert status == 0 and err == ""
    title = registry.info(game).title.split(":")[0].split(" (")[0]
    n = players_of(game)
    assert out.startswith(f"{title}, {n} players, seed 4: player 0 = Greedy, " + ", ".join(
        f"player {p} = Random" for p in range(1, n)))  # fmt: skip
    assert "  1. player 0" in out
    # the moves told are those of Greedy and Random playing the deal: replay them with the engine
    package = registry.package(game)
    replay = package.Game.new(package.Rules(), seed=4)
    bots = [package.bots.Greedy(seed=4)] + [package.bots.Random(seed=4 + p) for p in range(1, n)]
    count = 0
    while not replay.is_over:
        replay.apply(bots[replay.current_player].choose(replay.view(replay.current_player)))
        count += 1
    assert f"\n{count:>3}. " in out and f"\n{count + 1:>3}. " not in out
    assert all(len(line) <= 80 for line in out.splitlines()[1:])
    assert cli("demo", "--game", game, "--seed", "4")[1] == out


# --------------------------------------------------------------------- play


def test_a_whole_game_of_play_to_the_end(cli: Cli) -> None:
    status, out, err = cli("play", "--seed", "5", "--bot", "random", stdin="1\n" * 200)
    assert status == 0 and err == ""
    assert out.startswith("Ordonnance, 2 players, seed 5: you are player 0, against Random (player 1).")
    assert "your hand: " in out and "your moves:" in out and "  play " in out
    assert "you play " in out and "Random (p1) plays " in out and "is decided:" in out
    last = out.strip().splitlines()[-1]
    assert last in ("game over: you win!", "game over: Random (p1) wins", "game over: nobody wins")
    assert cli("play", "--seed", "5", "--bot", "random", stdin="1\n" * 200)[1] == out  # seeded: the same game


def test_play_survives_bad_input_at_every_prompt(cli: Cli) -> None:
    mistakes = "garbage\n999\n0\n\n-1\nXQ tripoli\nclaim atlantis\nhelp\nboard\n"
    status, out, err = cli("play", "--seed", "11", "--bot", "greedy", stdin=(mistakes + "1\n") * 120)
    assert status == 0 and err == ""
    assert "game over:" in out
    turns = out.count("\nyou play ") + out.count("\nyou claim ") + out.count("\nyou pass")
    assert turns >= 10
    assert out.count("your move (") == 10 * turns  # every mistake was answered with a new prompt
    assert out.count("not understood: 'garbage'") == turns
    assert out.count("not understood: 'XQ tripoli'") == turns
    assert out.count("there is no move 999: choose a number from 1 to") == turns
    assert out.count("there is no move 0:") == turns and out.count("there is no move -1:") == turns
    assert out.count("no territory called 'atlantis'") == turns
    assert out.count("\ntype a move number from 1 to") == turns  # the empty line
    assert out.count("Army strength: count") == turns  # help
    assert out.count("complete (first)") + out.count(" 0/4 ") >= turns  # board: every army in full


def test_play_explains_moves_typed_as_text(cli: Cli) -> None:
    # seed 7 deals player 0: LSHF LS LBSF BSF B LBS
    status, out, _ = cli("play", "--seed", "7", stdin="SH cyprus\nLS edessa\nPLAY lbsf TO jer\nquit\n")
    assert "you have no SH in your hand" in out
    assert "you play LS to Edessa" in out and "you play LBSF to Jerusalem" in out
    assert status == 0 and out.rstrip().endswith("bye")


@pytest.mark.parametrize("stdin", ["", "1\n3\n"], ids=["at-once", "mid-game"])
def test_end_of_input_leaves_the_game_cleanly(stdin: str, cli: Cli) -> None:
    status, out, err = cli("play", "--seed", "3", stdin=stdin)
    assert status == 0 and err == ""
    assert out.rstrip().endswith("bye")


def test_quit_leaves_and_saves_the_game_for_odds(tmp_path: Path, cli: Cli) -> None:
    saved = tmp_path / "game.json"
    status, out, _ = cli("play", "--seed", "4", "--save", str(saved), stdin="1\n2\n3\nquit\n")
    assert status == 0 and f"game saved to {saved}" in out
    game = od.Game.from_json(saved.read_text())
    assert game.plays == 6 and not game.is_over
    status, out, err = cli("odds", str(saved))
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert "odds of each territory if the missing cards fall at random (public information):" in lines
    for territory in od.Territory:
        assert any(line.startswith(f"  {territory.label}: player 0 ") for line in lines)


def test_a_save_that_cannot_be_written_is_one_line_and_status_1(tmp_path: Path, cli: Cli) -> None:
    status, out, err = cli("play", "--seed", "4", "--save", str(tmp_path / "no" / "such" / "dir.json"), stdin="quit\n")
    assert status == 1 and out.rstrip().endswith("bye")
    assert err.startswith("ordonnance play: error: cannot save the game to ") and err.count("\n") == 1


def _ctrl_c_as_in_a_terminal() -> None:
    """Run in the child before it starts: SIGINT's default action, as a terminal's foreground
    command has it (pytest-xdist's workers ignore SIGINT, and an ignored signal is inherited)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_leaves_the_game_without_a_traceback() -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "ordonnance", "play", "--seed", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_ctrl_c_as_in_a_terminal,
    )  # fmt: skip
    assert process.stdout is not None
    seen = b""
    while b"quit)> " not in seen:  # wait for the first prompt
        data = os.read(process.stdout.fileno(), 4096)
        assert data, "the game ended before its first prompt"
        seen += data
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert b"interrupted" in seen + out and b"Traceback" not in err


@pytest.mark.parametrize("players", [3, 4])
def test_play_with_more_players_from_another_seat(players: int, cli: Cli) -> None:
    status, out, err = cli("play", "--seed", "1", "--players", str(players), "--seat", "1", "--bot", "random",
                           stdin="1\n" * 300)  # fmt: skip
    assert status == 0 and err == ""
    assert "you are player 1, against Random (player 0), Random (player 2)" in " ".join(out.split())
    assert "game over:" in out
    assert all(len(line) <= 80 for line in out.splitlines())


def test_play_against_the_ismcts_bot(cli: Cli) -> None:
    bot = "ismcts" if JIT else "ismcts:2"  # without the JIT: about a second a decision
    status, out, _ = cli("play", "--seed", "6", "--bot", bot, stdin="1\n2\nquit\n")
    assert status == 0
    title = "ISMCTS" if JIT else "ISMCTS (2 iterations)"
    assert f"against {title} (player 1)" in out and f"{title} (p1) plays" in out


def test_play_against_the_monte_carlo_bot(cli: Cli) -> None:
    status, out, _ = cli("play", "--seed", "6", "--bot", "montecarlo:64", stdin="1\n2\nquit\n")
    assert status == 0
    assert "against MonteCarlo (64 rollouts) (player 1)" in out and "MonteCarlo (64 rollouts) (p1) plays" in out


def _first_moves(game: str, seed: int) -> list[str]:
    package = registry.package(game)
    return [str(a) for a in package.Game.new(package.Rules(), seed=seed).legal_actions()]


def _told(game: str, move: str) -> str:
    """How the narration tells the person's ``move`` (Ordonnance: ``you play LS to Edessa``)."""
    return f"you {move}" if game == "ordonnance" else f"you: {move}"


@pytest.mark.parametrize("game", GAMES)
def test_play_takes_a_move_as_its_text_in_any_case(game: str, cli: Cli) -> None:
    move = _first_moves(game, 8)[-1]
    status, out, _ = cli("play", "--game", game, "--seed", "8", "--bot", "random", stdin=move.upper() + "\nquit\n")
    assert status == 0 and _told(game, move) in out and out.rstrip().endswith("bye")


@pytest.mark.parametrize("game", GAMES)
def test_play_takes_a_unique_beginning_of_a_move(game: str, cli: Cli) -> None:
    moves = [m.casefold() for m in _first_moves(game, 8)]
    chosen = moves[len(moves) // 2]
    end = next(n for n in range(1, len(chosen) + 1) if sum(m.startswith(chosen[:n]) for m in moves) == 1)
    ambiguous = chosen[: end - 1]
    status, out, _ = cli("play", "--game", game, "--seed", "8", "--bot", "random",
                         stdin=f"{ambiguous}\n{chosen[:end]}\nquit\n")  # fmt: skip
    assert status == 0
    if ambiguous.strip():
        assert f"{ambiguous.strip()!r} could be " in out
    original = _first_moves(game, 8)[moves.index(chosen)]
    assert _told(game, original) in out


@pytest.mark.parametrize("game", GAMES)
def test_play_a_whole_game_by_numbers_within_80_columns_and_24_rows(game: str, cli: Cli) -> None:
    status, out, err = cli("play", "--game", game, "--seed", "2", "--bot", "random", stdin="1\n" * 1000)
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert "game over" in lines[-1]
    word = "order" if game == "shinobi" else "move"
    prompts = [i for i, line in enumerate(lines) if line.startswith(f"your {word} (")]
    assert len(prompts) > 5
    for i in prompts:
        board = max(j for j in range(i) if lines[j] == "")  # the blank line before the board
        # from the last move told (a bot's) to the prompt, everything fits a 24-line screen
        assert i - (board - 1) + 1 <= 24, "\n".join(lines[board - 1 : i + 1])


@pytest.mark.parametrize("game", GAMES)
def test_board_help_and_quit_at_every_games_table(game: str, cli: Cli) -> None:
    status, out, _ = cli("play", "--game", game, "--seed", "3", stdin="board\nhelp\nnonsense\nquit\nnever read\n")
    assert status == 0 and out.rstrip().endswith("bye")
    word = "order" if game == "shinobi" else "move"
    assert out.count(f"your {word} (") == 4  # board, help and nonsense each answered, then quit
    assert "What you can type:" in out and "not understood: 'nonsense'" in out
    assert all(len(line) <= 80 for line in out.splitlines()), max(out.splitlines(), key=len)
    screens = out.split(f"your {word}s:")
    assert len(screens) == 3  # the moves listed at the turn, and again after 'board'


def test_play_with_a_wide_board(cli: Cli) -> None:
    narrow = cli("play", "--players", "4", "--seed", "9", "--bot", "random", stdin="1\n" * 40)[1]
    wide = cli("play", "--players", "4", "--seed", "9", "--bot", "random", "--wide", stdin="1\n" * 40)[1]
    assert max(map(len, narrow.splitlines())) <= 80 < max(map(len, wide.splitlines()))
    assert [line for line in narrow.splitlines() if line.startswith(("you play", "Random (p"))] == [
        line for line in wide.splitlines() if line.startswith(("you play", "Random (p"))
    ]


@pytest.mark.parametrize("game", GAMES)
def test_play_against_a_search_bot_with_a_time_limit(game: str, cli: Cli) -> None:
    status, out, _ = cli("play", "--game", game, "--seed", "1", "--seat", "1", "--bot", "montecarlo:30ms",
                         stdin="quit\n")  # fmt: skip
    assert status == 0 and "MonteCarlo (0.03 s) (player 0" in out and "MonteCarlo (0.03 s) (p0)" in out


# --------------------------------------------------------------------- odds


def _midgame(tmp_path: Path) -> Path:
    game = od.Game.new(od.Rules(), seed=7)
    bots: list[od.bots.Bot] = [od.bots.Greedy(seed=1), od.bots.Random(seed=2)]
    for _ in range(24):
        game.apply(bots[game.current_player].choose(game.view(game.current_player)))
    path = tmp_path / "midgame.json"
    path.write_text(game.to_json())
    return path


def test_odds_of_a_saved_game(tmp_path: Path, cli: Cli) -> None:
    path = _midgame(tmp_path)
    status, out, err = cli("odds", str(path), "--samples", "2000")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0].split()[:2] == ["player", "0"]  # the table comes first
    odds = [line for line in lines if line.startswith("  ") and ": player 0 " in line]
    assert [line.split(":")[0].strip() for line in odds] == [t.label for t in od.Territory]
    for line in odds:
        assert "%" in line and ("exact" in line or "2,000 samples" in line)
    viewer = cli("odds", str(path), "--player", "1", "--samples", "2000")
    assert viewer[0] == 0 and "(what player 1 can see)" in viewer[1]
    piped = cli("odds", "-", "--samples", "2000", stdin=path.read_text())
    assert piped[0] == 0 and piped[1] == out


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read"),
        ("{not json", "is not a valid saved game: invalid game JSON: not JSON"),
        ('{"format": "ordonnance.game", "version": 99}', "is not a valid saved game"),
        ("[1, 2, 3]", "is not a valid saved game"),
        (b"\xff\xfe\x00binary", "is not a text file"),
    ],
    ids=["missing", "not-json", "bad-game", "not-an-object", "binary"],
)
def test_a_bad_file_gives_one_line_and_status_1(tmp_path: Path, content: str | bytes | None, message: str,
                                                cli: Cli) -> None:  # fmt: skip
    path = tmp_path / "game.json"
    if isinstance(content, bytes):
        path.write_bytes(content)
    elif content is not None:
        path.write_text(content)
    status, out, err = cli("odds", str(path))
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("ordonnance odds: error: ")
    assert message in err


def test_odds_refuses_a_seat_the_game_does_not_have(tmp_path: Path, cli: Cli) -> None:
    status, _, err = cli("odds", str(_midgame(tmp_path)), "--player", "2")
    assert status == 2 and "--player must be 0..1" in err


# --------------------------------------------------------------------- simulate, tournament, ladder, bench


def test_simulate_prints_the_summary(cli: Cli) -> None:
    games = "2000" if JIT else "200"
    status, out, err = cli(
        "simulate", "--games", games, "--bots", "greedy,random", "--tie-break", "lowest-marker-sum", "--seed", "3"
    )
    assert status == 0 and err == ""
    assert f"simulate: {int(games):,} games, 2 players, seed 3: player 0 = Greedy, player 1 = Random" in out
    assert "tie_break=lowest_marker_sum" in out
    assert f"{int(games):,} games" in out and "player 0 wins" in out and "first-player advantage" in out
    assert "games/s" in out.splitlines()[-1]


def test_simulate_with_every_rules_flag_and_four_players(cli: Cli) -> None:
    status, out, _ = cli(
        "simulate", "--games", "100", "--players", "4", "--bots", "greedy", "--auto-claim", "--claim-proof", "private"
    )
    assert status == 0
    assert "player 3 = Greedy" in out and "claim_proof=private, auto_claim=True" in out
    assert "player 3 wins" in out


@pytest.mark.parametrize("game", GAMES)
def test_simulate_of_every_game_takes_comma_separated_bots(game: str, cli: Cli) -> None:
    n = players_of(game)
    bots = ",".join(["greedy"] + ["random"] * (n - 1))
    status, out, err = cli("simulate", "--game", game, "--games", "40", "--seed", "2", "--bots", bots)
    assert status == 0 and err == ""
    seats = ", ".join(["player 0 = Greedy"] + [f"player {p} = Random" for p in range(1, n)])
    assert f"simulate: 40 games, {n} players, seed 2: {seats}" in out and "first-player advantage" in out
    # the summary is that of the game's own simulate() with those bots
    package = registry.package(game)
    players = [package.bots.Greedy(seed=0)] + [package.bots.Random(seed=p) for p in range(1, n)]
    assert str(package.simulate(package.Rules(), games=40, seed=2, players=players).summary()) in out


def test_the_bots_separated_by_spaces_still_work_with_a_note(cli: Cli) -> None:
    spaced = cli("simulate", "--game", "black-prince", "--games", "30", "--bots", "greedy", "random")
    commas = cli("simulate", "--game", "black-prince", "--games", "30", "--bots", "greedy,random")
    assert spaced[0] == commas[0] == 0 and commas[2] == ""
    assert "note: --bots takes one comma-separated list, as in --bots greedy,random" in spaced[2]
    assert spaced[1].splitlines()[:-1] == commas[1].splitlines()[:-1]  # the same games (the timing apart)


def test_search_bots_think_with_the_time_limit(cli: Cli) -> None:
    status, out, _ = cli("simulate", "--games", "1", "--bots", "montecarlo,greedy", "--time-limit", "0.01")
    assert status == 0 and "player 0 = MonteCarlo, player 1 = Greedy" in out


def _table(out: str) -> list[str]:
    """The tournament's table, without the timing line."""
    return [line for line in out.splitlines() if "games/s" not in line]


def test_tournament_tables_are_the_same_on_every_executor(cli: Cli) -> None:
    games = "400" if JIT else "80"
    common = ["tournament", "--bots", "greedy,random,random", "--games", games, "--seed", "4", "--chunk-size", "20"]
    status, out, err = cli(*common, "--serial")
    assert status == 0 and err == ""
    assert "tournament: 3 bots, 2 players a game, 6 seatings x" in out
    assert "\n   1  greedy " in out and "random-1" in out and "random-2" in out
    assert "pairwise score" in out and "wins by seat:" in out
    status, pooled, err = cli(*common, "--workers", "2")
    assert status == 0 and err == ""  # no progress bar in a pipe
    assert _table(pooled) == _table(out)
    if importlib.util.find_spec("distributed") is not None:
        result = run(*common, "--dask", "local", "--workers", "2")
        assert result.returncode == 0, result.stderr
        assert _table(result.stdout) == _table(out)


@pytest.mark.parametrize("game", GAMES)
def test_tournament_and_ladder_of_every_game(game: str, cli: Cli) -> None:
    # "--game" is never read as an abbreviation of "--games" (nor the other way round)
    status, out, err = cli("tournament", "--game", game, "--games", "30", "--serial", "--seed", "2")
    assert status == 0 and err == ""
    n = players_of(game)
    assert out.startswith(f"rules: {registry.info(game).title.split(':')[0].split(' (')[0]}, {n} players")
    assert "greedy" in out and "wins by seat:" in out
    bots = ",".join(["random", "greedy"] + ["random"] * (n - 2))
    status, out, err = cli("ladder", "--game", game, "--bots", bots, "--games", "30", "--serial", "--seed", "2")
    assert status == 0 and err == "" and "Bradley-Terry Elo" in out


def test_tournament_progress_can_be_forced_in_a_pipe(cli: Cli) -> None:
    status, _, err = cli("tournament", "--games", "100", "--serial", "--progress")
    assert status == 0 and "tournament: 100%" in err


def test_tournament_with_the_monte_carlo_bot(cli: Cli) -> None:
    status, out, _ = cli("tournament", "--bots", "greedy,montecarlo", "--games", "2", "--rollouts", "8", "--serial")
    assert status == 0
    assert "montecarlo" in out and "2 seatings x 1 deals = 2 games" in out


def test_ladder_rates_bots_from_random_with_budgets_as_named(cli: Cli) -> None:
    # Without the JIT a searching bot takes about a second a decision, whatever its budget.
    games, bots = ("200", "random,greedy,montecarlo:8,ismcts:16") if JIT else ("12", "random,greedy")
    status, out, err = cli("ladder", "--bots", bots, "--games", games, "--seed", "3", "--serial")
    assert status == 0 and err == ""
    assert "Bradley-Terry Elo, random = 0, 95% intervals" in out and "pairwise score" in out
    rows = {line.split()[1]: line.split() for line in out.splitlines() if line[:4].strip().isdigit()}
    assert set(rows) == set(bots.split(","))
    assert rows["random"][2:4] == ["0", "anchor"]
    anchored = cli("ladder", "--bots", "random,greedy", "--games", games, "--seed", "3", "--serial", "--anchor", "greedy")
    assert anchored[0] == 0 and "greedy = 0" in anchored[1]
    same = cli("ladder", "--bots", bots, "--games", games, "--seed", "3", "--workers", "2")
    assert _table(same[1]) == _table(out)


def test_ctrl_c_stops_a_tournament_and_its_workers_without_a_traceback() -> None:
    # A terminal sends Ctrl-C to the whole process group: the command and its workers.
    process = subprocess.Popen(
        [sys.executable, "-m", "ordonnance", "tournament", "--games", "100000000", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, preexec_fn=_ctrl_c_as_in_a_terminal,
    )  # fmt: skip
    assert process.stdout is not None
    assert process.stdout.readline().startswith(b"rules: ")  # the tournament is starting
    time.sleep(1.0)  # let the workers start (Ctrl-C at any moment must be clean anyway)
    os.killpg(process.pid, signal.SIGINT)
    try:
        out, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:  # never leave it running, whatever failed
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == 130
    assert without_compile_notices(err.decode()).strip() == "interrupted"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads the workers from Linux /proc")
def test_timeout_stops_a_tournament_and_its_workers() -> None:
    # timeout(1) sends SIGTERM to the command only: it must take its workers with it.
    process = subprocess.Popen(
        [sys.executable, "-m", "ordonnance", "tournament", "--games", "100000000", "--workers", "2"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
    )  # fmt: skip
    assert process.stdout is not None
    try:
        assert process.stdout.readline().startswith(b"rules: ")
        children: set[int] = set()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(children) < 3:  # two workers and the resource tracker
            time.sleep(0.2)
            children = {int(c) for task in Path(f"/proc/{process.pid}/task").iterdir()
                        for c in (task / "children").read_text().split()}  # fmt: skip
        assert len(children) >= 3, children
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
    assert process.returncode == -signal.SIGTERM and b"Traceback" not in err
    assert not [child for child in children if Path(f"/proc/{child}").exists()]


def test_tournament_on_an_unreachable_dask_scheduler_is_one_line() -> None:
    pytest.importorskip("distributed")
    env = {**os.environ, "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"}
    result = subprocess.run(
        [sys.executable, "-m", "ordonnance", "tournament", "--dask", "tcp://127.0.0.1:9", "--games", "10"],
        capture_output=True, text=True, timeout=120, check=False, env=env,
    )  # fmt: skip
    assert result.returncode == 1 and "cannot reach the Dask scheduler 'tcp://127.0.0.1:9'" in result.stderr
    assert_clean(result)


@pytest.mark.parametrize("game", GAMES)
def test_bench_prints_a_table_of_headline_figures(game: str, cli: Cli) -> None:
    status, out, err = cli("bench", "--game", game, "--quick")
    assert status == 0 and err == ""
    assert out.startswith(f"{game} bench --quick: one core")
    n = players_of(game)
    figures = [f"simulate, {n}p " + ("Random vs Random" if n == 2 else f"Random x{n}"), "Game API: legal_actions + apply"]
    if game == "ordonnance":
        figures += ["army_keys, 20,000 armies", "memory pass", "best_completion_key, empty army vs 56 cards"]
    for figure in figures:
        assert figure in out
    units = ["games/s", "decisions/s"] + (["armies/s", "us/call"] if game == "ordonnance" else [])
    for unit in units:
        assert unit in out
    rows = [line for line in out.splitlines()[1:] if line.strip()]
    assert all(re.search(r"\s[0-9][0-9,.]*\s+\S+$", line) for line in rows), rows
